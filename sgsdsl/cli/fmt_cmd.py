"""`sgsdsl fmt PATH...`: rewrite .sgs files in the canonical layout; `--check` and `--diff` for CI."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import click

from ..files import WriteRefused, write_text_atomic
from ..fmt import format_text
from ..lang.diagnostics import Diagnostic, Span, render_text
from ..lang.sources import display_path, expand_paths, read_source
from .paths import require_paths


@click.command("fmt")
@click.argument("paths", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="write nothing; exit 1 when a file is not formatted")
@click.option("--diff", "show_diff", is_flag=True, help="write nothing; print what would change as a unified diff")
def fmt(paths: tuple[str, ...], check: bool, show_diff: bool) -> None:
    """Format .sgs files or folders in place. Exit 0 when all is well, 1 on unformatted files (--check) or
    files that do not parse (left untouched)."""
    require_paths(paths, rules=True)
    files, diags = expand_paths(list(paths))
    sources: dict[str, str] = {}
    changed: list[str] = []
    unreadable = 0  # files not read or not parsed: neither formatted nor "already formatted"
    for path in files:
        shown = display_path(path)
        text, err = read_source(path, shown)
        if text is None:
            diags.extend([err] if err is not None else [])
            unreadable += 1
            continue
        sources[shown] = text
        result = format_text(text, shown)
        if result.text is None:
            diags.extend(result.diagnostics)
            unreadable += 1
            continue
        if result.text == text:
            continue
        changed.append(shown)
        if show_diff:
            click.echo("".join(difflib.unified_diff(text.splitlines(True), result.text.splitlines(True),
                                                    f"{shown} (original)", f"{shown} (formatted)")), nl=False)
        if check:
            click.echo(f"would reformat {shown}")
        elif not show_diff:
            try:
                _write(path, result.text)
            except WriteRefused as err:
                diags.append(Diagnostic("SGS-E100", str(err), Span.point(shown, 1, 1)))
    if diags:
        click.echo(render_text(diags, sources), err=True)
    verb = "would reformat" if check or show_diff else "reformatted"
    click.echo(f"{len(files)} file(s): {verb} {len(changed)}, {len(files) - len(changed) - unreadable} already "
               "formatted" + (f", {unreadable} left untouched (not parsed)" if unreadable else "")
               + (f", {len(diags)} problem(s)" if diags else ""))
    raise SystemExit(1 if diags or (check and changed) else 0)


def _write(path: Path, text: str) -> None:
    """Replace the file atomically (keeping its permissions), so an interrupted run never leaves half a rules
    file. A symlinked rules file is formatted where it lives: the link stays a link."""
    try:
        real = path.resolve(strict=True)
        mode = os.stat(real).st_mode & 0o7777
    except (OSError, RuntimeError) as err:
        raise WriteRefused(f"cannot write {path}: {getattr(err, 'strerror', None) or err}") from None
    write_text_atomic(real, text, mode=mode)


COMMANDS = [fmt]
