"""One entry point for loading rules: files → checked program → engine Program (interpreted or compiled)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .engine.program import Program
from .lang.checker import CheckedProgram, check
from .lang.diagnostics import Diagnostic
from .lang.loader import expand_paths, load


@dataclass
class Loaded:
    checked: CheckedProgram | None
    sources: dict[str, str]
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def check_paths(args: list[str]) -> Loaded:
    files, diags = expand_paths(args)
    result = load(files)
    diags = diags + result.diagnostics
    checked = None
    if result.modules:
        checked = check(result.modules)
        diags += checked.diagnostics
    diags.sort(key=lambda d: d.sort_key)
    return Loaded(checked, result.sources, diags)


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
    """The rules folder shipped beside the package (the repository's rules/)."""
    return Path(__file__).resolve().parent.parent / "rules"
