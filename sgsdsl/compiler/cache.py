"""Compiled Programs for any checked load: the committed `generated/` when it matches, else a cache.

Designers' folders never compile into the package: their modules go to `$SGSDSL_CACHE` (default
`$XDG_CACHE_HOME/sgsdsl` or `~/.cache/sgsdsl`), one folder per (sources, compiler) digest. Files are
written to a temporary name and renamed into place, so concurrent runs never see half a module.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ..engine.program import Program
from ..lang.diagnostics import DiagnosticError
from . import GENERATOR_VERSION
from .codegen import generate_module, source_key

if TYPE_CHECKING:
    from ..api import Loaded

_loaded_modules: dict[str, ModuleType] = {}


def cache_root() -> Path:
    env = os.environ.get("SGSDSL_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sgsdsl"


@lru_cache(maxsize=1)
def compiler_digest() -> str:
    """A digest of the compiler itself: editing the generator invalidates cached modules."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(GENERATOR_VERSION.encode())
    files = sorted([*here.glob("*.py"), *(here / "templates").glob("*.j2")],
                   key=lambda p: p.relative_to(here).as_posix())
    for p in files:
        h.update(p.relative_to(here).as_posix().encode())
        h.update(p.read_bytes())
    lower = here.parent / "interp" / "build.py"  # the shared structure builder
    h.update(lower.read_bytes())
    return h.hexdigest()


def generated_dir() -> Path:
    return Path(__file__).resolve().parent.parent.parent / "generated"


def bundled_module(key: str) -> ModuleType | None:
    """The committed module compiled from exactly these sources, if there is one."""
    index = _generated_package()
    if index is None:
        return None
    name = getattr(index, "INDEX", {}).get(key)
    if not isinstance(name, str) or not name.isidentifier():
        return None
    mod = importlib.import_module(f"{index.__name__}.{name}")
    return mod if getattr(mod, "SOURCE_KEY", None) == key else None


def _generated_package() -> ModuleType | None:
    """The `generated` package beside the sources (imported normally when it is on the path)."""
    folder = generated_dir()
    init = folder / "__init__.py"
    if not init.is_file():
        return None
    try:
        pkg = importlib.import_module("generated")
        if Path(pkg.__file__ or "").resolve().parent == folder:
            return pkg
    except ImportError:
        pass
    name = "sgsdsl_bundled_generated"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    pkg = importlib.util.module_from_spec(spec)
    sys.modules[name] = pkg
    spec.loader.exec_module(pkg)
    return pkg


def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder and rename: readers see the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; generated modules are ordinary readable files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def cached_module(loaded: Loaded) -> ModuleType:
    """Compile (once per sources and compiler) into the cache and import the module."""
    checked = loaded.checked
    assert checked is not None and loaded.ok
    key = source_key(checked, loaded.sources)
    digest = hashlib.sha256(f"{key}\n{compiler_digest()}".encode()).hexdigest()[:40]
    mod = _loaded_modules.get(digest)
    if mod is not None:
        return mod
    path = cache_root() / digest / "rules.py"
    if not _valid(path, key):
        gen = generate_module(checked, loaded.sources)
        if not gen.ok:
            raise DiagnosticError([d for d in gen.diagnostics if d.severity == "error"])
        write_atomic(path, gen.text)
    name = f"sgsdsl_compiled_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _loaded_modules[digest] = mod
    return mod


def _valid(path: Path, key: str) -> bool:
    try:
        head = path.read_text(encoding="utf-8")[:400]
    except OSError:
        return False
    return f"# source: {key}\n" in head


def compiled_module(loaded: Loaded) -> ModuleType:
    """The committed `generated/` module when its source key matches these sources, else the cached one."""
    checked = loaded.checked
    assert checked is not None and loaded.ok
    mod = bundled_module(source_key(checked, loaded.sources))
    return mod if mod is not None else cached_module(loaded)


def compiled_program(loaded: Loaded) -> Program:
    """A fresh Program running compiled rule classes (the engine's `--engine compiled`)."""
    return compiled_module(loaded).build_program()
