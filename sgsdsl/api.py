"""One entry point for loading rules: files → checked program → engine Program (interpreted or compiled)."""

from __future__ import annotations

from pathlib import Path

from . import bundled
from .checking import check_each  # noqa: F401 - re-exported: one entry point for loading rules
from .engine.program import Program
from .lang.checker import check
from .lang.loaded import Loaded
from .lang.loader import load
from .lang.parse_cache import Shared
from .lang.sources import expand_paths


def check_paths(args: list[str], shared: Shared | None = None) -> Loaded:
    files, diags = expand_paths(args)
    result = load(files, shared=shared)
    diags = diags + result.diagnostics
    checked = None
    if result.modules:
        checked = check(result.modules)
        diags += checked.diagnostics
    diags.sort(key=lambda d: d.sort_key)
    return Loaded(checked, result.sources, diags, result.edges)


def interpreted_program(loaded: Loaded) -> Program:
    from .interp.build import build_program

    assert loaded.checked is not None and loaded.ok
    return build_program(loaded.checked)


def program_for(loaded: Loaded, engine: str) -> Program:
    """The Program for a checked load: `interpreted` walks the AST, `compiled` runs generated classes."""
    if engine == "interpreted":
        return interpreted_program(loaded)
    try:
        from .compiler.cache import compiled_program
    except ImportError:  # the compiler is optional until it lands; the interpreter is the reference
        return interpreted_program(loaded)
    assert loaded.checked is not None
    return compiled_program(loaded)


def bundled_rules_dir() -> Path:
    """The folder of bundled rule sets (the repository's rules/, or the wheel's package data)."""
    return bundled.rules_dir()
