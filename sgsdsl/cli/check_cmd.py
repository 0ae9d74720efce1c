"""`sgsdsl check PATH...`: parse and check rules files or folders; report diagnostics (text or JSON)."""

from __future__ import annotations

import traceback

import click

from ..checking import check_each
from ..lang.diagnostics import Diagnostic, Span, render_json, render_text
from ..lang.loaded import Loaded
from .paths import require_paths


@click.command("check")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for CI")
def check(paths: tuple[str, ...], fmt: str) -> None:
    """Check .sgs files or folders. Exit 0 when clean (warnings allowed), 1 on errors, 2 on bad usage.

    Each file is checked as one program with what it imports — the way `compile` makes one module per file —
    so independent rule sets (rules/beta.sgs beside rules/standard.sgs) may share a folder."""
    require_paths(paths, rules=True)
    loaded = _check_guarded(list(paths))
    errors = [d for d in loaded.diagnostics if d.severity == "error"]
    if fmt == "json":
        click.echo(render_json(loaded.diagnostics))
    else:
        if loaded.diagnostics:
            click.echo(render_text(loaded.diagnostics, loaded.sources))
        warnings = len(loaded.diagnostics) - len(errors)
        click.echo(f"checked {len(loaded.sources)} file(s): {len(errors)} error(s), {warnings} warning(s)")
    raise SystemExit(1 if errors else 0)


def _check_guarded(paths: list[str]) -> Loaded:
    """The promise is: never a Python traceback. Should the front end itself fail, the failure becomes
    an SGS-E000 diagnostic (with the internal detail on stderr) instead of a crash."""
    try:
        return check_each(paths)
    except Exception as err:  # last-resort guard, reported as a diagnostic
        click.echo("".join(traceback.format_exception_only(type(err), err)).rstrip(), err=True)
        where = Span.point(paths[0] if paths else "<input>", 1, 1)
        diag = Diagnostic("SGS-E000", f"internal error in sgsdsl ({type(err).__name__}); please report it",
                          where)
        return Loaded(None, {}, [diag])


COMMANDS = [check]
