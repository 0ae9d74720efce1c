"""Shared CLI plumbing: find rules files, check them (printing diagnostics), build a Program, and validate a
game's set-up (mode, players, options) through the one validator in `sgsdsl.modes`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .. import bundled
from ..api import Loaded, check_paths, program_for
from ..engine.program import Program
from ..lang.diagnostics import DiagnosticError, render_text
from ..lang.rule_sets import folder_tops
from ..modes import SetupError, check_setup, parse_assignments
from .paths import require_paths


def rule_paths(rules: list[str], rule_names: str, command: str = "simulate") -> list[str]:
    """The rules files: the paths given plus the bundled rule sets named; the standard set when neither. A folder
    means its one rule set, as `check` reads it (`lang.rule_sets`); a folder of several is a usage error that
    lists them (COMMAND names the command in the example it gives)."""
    return catalogue_paths([p for r in rules for p in one_rule_set(r, command)], rule_names)


def catalogue_paths(rules: list[str], rule_names: str) -> list[str]:
    """The paths given (folders as they are: `docs` catalogues every set in one) plus the bundled sets named; the
    standard set when neither."""
    paths = list(rules)
    for name in filter(None, (n.strip() for n in rule_names.split(","))):
        candidate = bundled.rule_set(name)
        if candidate is None:
            raise click.UsageError(f"no bundled rule set {name!r}; bundled: {', '.join(bundled.rule_set_names())}")
        paths.append(str(candidate))
    if not paths:
        paths.append(str(bundled.rules_dir() / "standard.sgs"))
    return paths


def one_rule_set(path: str, command: str) -> list[str]:
    """PATH itself, or for a folder the file at the top of its one rule set; exit 2 listing them when it holds
    several independent ones (a folder used to mean all its files at once, unlike `check`)."""
    folder = Path(path)
    try:
        if not folder.is_dir():
            return [path]
    except (OSError, ValueError):
        return [path]
    tops = folder_tops(folder)
    if len(tops) <= 1:
        return [str(t) for t in tops] or [path]
    listing = "\n".join(f"  {t}" for t in tops)
    raise click.UsageError(
        f"{path} holds {len(tops)} independent rule sets (each file below with what it imports, as `sgsdsl check` "
        f"reads a folder):\n{listing}\npick one: sgsdsl {command} {tops[0]} (or name several files to play them "
        f"together, or bundled sets with --rules standard,junzheng)")


def fitting_players(program: Any, mode: str, wanted: int) -> int:
    """The default player count for a mode: `wanted` when the mode seats it, else the mode's own smallest count
    (3v3 seats 6, 同舟共济 8), so `sgsdsl play rules/tongzhou.sgs` needs no --players."""
    m = program.modes.get(mode)
    if m is None:
        return wanted
    low, high = m.players
    return wanted if low <= wanted <= high else low


def file_mode(paths: list[str], loaded: Loaded | None = None) -> str:
    """The mode a run plays when none is named: when one file is named and it defines a mode, that file's first
    mode (`sgsdsl simulate rules/3v3.sgs`); else identity."""
    if len(paths) != 1 or not Path(paths[0]).is_file():
        return "identity"
    loaded = loaded if loaded is not None else check_paths(paths)
    target = Path(paths[0]).resolve()
    for m in loaded.checked.modules if loaded.checked is not None else ():
        if Path(m.path).resolve() == target and m.modes:
            return m.modes[0].ident.text
    return "identity"


def load_rules_or_exit(rules: list[str], rule_names: str, engine: str,
                       command: str = "simulate") -> tuple[Loaded, Program]:
    """Check the rules (diagnostics on stderr, exit 1 on errors) and build their Program."""
    require_paths(rules, rules=True)
    loaded = check_paths(rule_paths(rules, rule_names, command))
    errors = [d for d in loaded.diagnostics if d.severity == "error"]
    if errors:
        click.echo(render_text(errors, loaded.sources), err=True)
        raise SystemExit(1)
    try:
        return loaded, program_for(loaded, engine)
    except DiagnosticError as err:
        click.echo(render_text(err.diagnostics, loaded.sources), err=True)
        raise SystemExit(1) from None


def load_program_or_exit(rules: list[str], rule_names: str, engine: str) -> Program:
    return load_rules_or_exit(rules, rule_names, engine)[1]


def setup_or_exit(program: Program, mode: str, players: int, opts: tuple[str, ...]) -> dict[str, Any]:
    """`--mode`, `--players` and `--option name=value` checked against the rules: the typed options, or a usage
    error (exit 2) saying what is wrong."""
    try:
        return check_setup(program, mode, players, parse_assignments(opts))
    except SetupError as err:
        raise click.UsageError(str(err)) from None
