"""Path arguments: the one check every command that takes rules files makes first.

Its own module, free of the engine and the checker, so that `sgsdsl check` and `sgsdsl compile` can answer
from the result cache without importing them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click


def require_paths(paths: Sequence[str], rules: bool = False) -> None:
    """A path argument that names nothing is a usage error (exit 2), reported without a made-up location. With
    RULES (the commands that read rules files), so is a scenario file: it is run by `sgsdsl test`, and reading it
    as rules only gives a syntax error per line."""
    for p in paths:
        try:
            found = Path(p).exists()
        except (OSError, ValueError):
            found = False
        if not found:
            raise click.UsageError(f"cannot find {p!r} (no such file or folder)")
        if rules and p.endswith(".scenario"):
            raise click.UsageError(f"{p} is a scenario, not a rules file: run it with `sgsdsl test {p}` (a scenario "
                                   "names its rules with a `rules:` line)")


def _dash_o(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
    if value:
        raise click.UsageError(f"-o is the output folder of `compile` and `docs`; a mode option is given as "
                               f"--option {value[0]}")


def no_dash_o(f: Any) -> Any:
    """A hidden `-o` on the commands that take mode options: it says to write `--option NAME=VALUE` (`-o` once
    meant option there, and means output elsewhere), instead of click's bare "no such option"."""
    return click.option("-o", "dash_o", hidden=True, multiple=True, expose_value=False, callback=_dash_o)(f)
