"""One entry point for loading rules: files → checked program → engine Program (interpreted or compiled)."""

from __future__ import annotations

from pathlib import Path

from . import bundled
from .engine.program import Program
from .lang.checker import check
from .lang.loaded import Loaded
from .lang.loader import expand_paths, load
from .lang.parse_cache import Shared


def check_paths(args: list[str], shared: Shared | None = None) -> Loaded:
    files, diags = expand_paths(args)
    result = load(files, shared=shared)
    diags = diags + result.diagnostics
    checked = None
    if result.modules:
        checked = check(result.modules)
        diags += checked.diagnostics
    diags.sort(key=lambda d: d.sort_key)
    return Loaded(checked, result.sources, diags)


def check_each(args: list[str]) -> Loaded:
    """Check every file named or found on its own, with what it imports — the way `compile` makes one module per
    file — so independent rule sets (rules/beta.sgs beside rules/standard.sgs) may share a folder. A diagnostic
    reached from several files is reported once. The result holds no checked program (there may be several)."""
    files, diags = expand_paths(args)
    if not files:
        return check_paths(args)
    sources: dict[str, str] = {}
    seen: set[tuple] = set()
    out = list(diags)
    shared = Shared()  # the checked programs are discarded: a file imported by several is parsed once
    for f in files:
        one = check_paths([str(f)], shared)
        sources.update(one.sources)
        for d in one.diagnostics:
            key = (d.code, d.severity, d.message, d.span)
            if key not in seen:
                seen.add(key)
                out.append(d)
    out.sort(key=lambda d: d.sort_key)
    return Loaded(None, sources, out)


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
