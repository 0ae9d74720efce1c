"""Compiled Programs for any checked load: the bundled `generated/` when it matches, else a cache.

Designers' folders never compile into the package: their modules go to the cache folder (`$SGSDSL_CACHE`,
else the platform's user cache folder from platformdirs, e.g. `~/.cache/sgsdsl` on Linux), one folder per
(sources, compiler) digest. Files are written to a temporary name and renamed into place, so concurrent runs
never see half a module. A cached module is run only when it is a regular file owned by this user, not
writable by others, in folders nobody else may write (`sgsdsl.cachedir`), and its first line records the digest
of its text and the name of its folder: a truncated, edited, moved or planted file is compiled afresh instead of
executed. The parser keeps its own entries under `parse/` (see `sgsdsl.lang.parse_cache`). `sgsdsl cache clean`
removes what sgsdsl wrote there, and nothing else.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import linecache
import re
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from .. import bundled
from ..cachedir import cache_root, clean, private_dir, read_entry
from ..engine.program import Program
from ..files import WriteRefused, write_text_atomic
from ..lang.diagnostics import DiagnosticError
from ..lang.loaded import Loaded
from . import GENERATOR_VERSION
from .codegen import Link, generate_module, plan_links, source_key

_loaded_modules: dict[str, ModuleType] = {}
_ENTRY = re.compile(r"[0-9a-f]{40}")
_DIGEST_LINE = "# sgsdsl cache entry, content sha256:"
_BUNDLED_PACKAGE = "sgsdsl_bundled_generated"


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
    # the shared structure builder, and what it reads from rule texts before either back end makes a function
    # (with the vocabulary's tables that reading consults: PARAM_EFFECTS and its kin)
    for shared in ("interp/build.py", "interp/reach.py", "lang/intent.py", "lang/ast_walk.py",
                   "engine/registry/core.py"):
        h.update((here.parent / shared).read_bytes())
    return h.hexdigest()


def generated_dir() -> Path:
    return bundled.generated_dir()


def bundled_module(key: str) -> ModuleType | None:
    """The bundled module compiled from exactly these sources, if there is one."""
    index = _generated_package()
    if index is None:
        return None
    name = getattr(index, "INDEX", {}).get(key)
    if not isinstance(name, str) or not name.isidentifier():
        return None
    mod = importlib.import_module(f"{index.__name__}.{name}")
    return mod if getattr(mod, "SOURCE_KEY", None) == key else None


def _generated_package() -> ModuleType | None:
    """The bundled `generated/` folder, imported under an sgsdsl-internal name (never as `generated`)."""
    if _BUNDLED_PACKAGE in sys.modules:
        return sys.modules[_BUNDLED_PACKAGE]
    folder = generated_dir()
    init = folder / "__init__.py"
    if not init.is_file():
        return None
    spec = importlib.util.spec_from_file_location(_BUNDLED_PACKAGE, init, submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    pkg = importlib.util.module_from_spec(spec)
    sys.modules[_BUNDLED_PACKAGE] = pkg
    spec.loader.exec_module(pkg)
    return pkg


def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder and rename (see `sgsdsl.files`)."""
    write_text_atomic(path, text)


def cached_module(loaded: Loaded) -> ModuleType:
    """Compile (once per sources and compiler) into the cache and import the module. It links to the bundled
    compiled module of each file it imports that has one (the standard edition, …) and holds the code of the rest."""
    checked = loaded.checked
    assert checked is not None and loaded.ok
    key = source_key(checked, loaded.sources)
    linked: dict[str, ModuleType] = {}

    def usable(path: str, link: Link) -> bool:
        mod = bundled_module(link.key)
        if mod is not None:
            linked[link.module] = mod
        return mod is not None

    links = plan_links([m.path for m in checked.modules], loaded.edges, loaded.sources, usable)
    named = "".join(f"\n{link.module} {link.key}" for link in sorted(links.values(), key=lambda k: k.module))
    digest = hashlib.sha256(f"{key}\n{compiler_digest()}{named}".encode()).hexdigest()[:40]
    mod = _loaded_modules.get(digest)
    if mod is not None:
        return mod
    path = cache_root() / digest / "rules.py"
    text = _verified(path, key, digest)
    if text is None:
        gen = generate_module(checked, loaded.sources, links=links)
        if not gen.ok:
            raise DiagnosticError([d for d in gen.diagnostics if d.severity == "error"])
        text = f"{_DIGEST_LINE}{_sha(gen.text)} in {digest}\n{gen.text}"
        try:
            private_dir(path.parent)
            write_text_atomic(path, text, mode=0o600)
        except (OSError, WriteRefused):
            pass  # an unwritable cache only costs speed: the module runs from memory
    mod = _exec_module(f"sgsdsl_compiled_{digest}", path, text, linked)
    _loaded_modules[digest] = mod
    return mod


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _verified(path: Path, key: str, digest: str) -> str | None:
    """The cached text when it is trustworthy: a regular file of ours, not writable by others, in safe folders
    (read without following a link), whose content matches the digest in its first line, which names the folder
    it was written to, and which was compiled from these sources."""
    blob = read_entry(path)
    if blob is None:
        return None
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        return None
    first, _, body = text.partition("\n")
    if first != f"{_DIGEST_LINE}{_sha(body)} in {digest}":
        return None
    return text if f"# source: {key}\n" in body[:400] else None


def _exec_module(name: str, path: Path, text: str, linked: dict[str, ModuleType]) -> ModuleType:
    """Run the verified TEXT itself as a module (what was checked is what runs; no re-read of the file). It is
    its own package, holding the LINKED modules its `from . import NAME` lines take."""
    spec = importlib.util.spec_from_loader(name, loader=None, origin=str(path))
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    mod.__file__ = str(path)
    mod.__package__ = name
    for module, target in linked.items():
        setattr(mod, module, target)
    linecache.cache[str(path)] = (len(text), None, text.splitlines(True), str(path))  # for error locations
    code = compile(text, str(path), "exec", dont_inherit=True)
    sys.modules[name] = mod  # for the relative imports of its linked modules
    try:
        exec(code, mod.__dict__)  # noqa: S102 - our own generated module, verified above
    except BaseException:
        del sys.modules[name]
        raise
    return mod


def clean_cache() -> tuple[Path, int]:
    """Remove the compiled modules, parsed files and stored results sgsdsl wrote (see `cachedir.clean`) and say
    how many compiled modules went."""
    root = cache_root()
    removed = clean(root, _ENTRY, {"rules.py"})
    # the parser's start-up caches (sgsdsl.lang.parse_cache) and whole check and compile results
    # (sgsdsl.lang.result_cache), rebuilt when needed
    clean(root / "parse", re.compile(r"[0-9a-f]{32}"), {"lark.json"}, re.compile(r"[0-9a-f]{64}\.ast"))
    clean(root / "results", re.compile(r"[0-9a-f]{24}"), set(), re.compile(r"(check|compile)-[0-9a-f]{40}\.json"))
    for sub in ("parse", "results"):
        try:
            (root / sub).rmdir()  # only when nothing else is left in it
        except OSError:
            pass
    return root, removed


def compiled_module(loaded: Loaded) -> ModuleType:
    """The committed `generated/` module when its source key matches these sources, else the cached one."""
    checked = loaded.checked
    assert checked is not None and loaded.ok
    mod = bundled_module(source_key(checked, loaded.sources))
    return mod if mod is not None else cached_module(loaded)


def compiled_program(loaded: Loaded) -> Program:
    """A fresh Program running compiled rule classes (the engine's `--engine compiled`)."""
    return compiled_module(loaded).build_program()
