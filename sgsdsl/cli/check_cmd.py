"""`sgsdsl check PATH...`: parse and check rules files; report diagnostics."""

from __future__ import annotations

import click

from ..api import check_paths
from ..lang.diagnostics import render_json, render_text


@click.command("check")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="output form")
def check(paths: tuple[str, ...], fmt: str) -> None:
    """Check .sgs files or folders. Exit 0 when clean, 1 on errors, 2 on bad usage."""
    loaded = check_paths(list(paths))
    errors = [d for d in loaded.diagnostics if d.severity == "error"]
    if fmt == "json":
        click.echo(render_json(loaded.diagnostics))
    elif loaded.diagnostics:
        click.echo(render_text(loaded.diagnostics, loaded.sources), err=False)
    if fmt == "text":
        n_files = len(loaded.sources)
        warnings = len(loaded.diagnostics) - len(errors)
        click.echo(f"checked {n_files} file(s): {len(errors)} error(s), {warnings} warning(s)")
    raise SystemExit(1 if errors else 0)


COMMANDS = [check]
