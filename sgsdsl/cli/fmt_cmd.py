"""`sgsdsl fmt PATH...`: rewrite .sgs files in the canonical layout; `--check` and `--diff` for CI."""

from __future__ import annotations

import difflib
import os
import tempfile
from pathlib import Path

import click

from ..fmt import format_text
from ..lang.diagnostics import render_text
from ..lang.loader import display_path, expand_paths, read_source


@click.command("fmt")
@click.argument("paths", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="write nothing; exit 1 when a file is not formatted")
@click.option("--diff", "show_diff", is_flag=True, help="write nothing; print what would change as a unified diff")
def fmt(paths: tuple[str, ...], check: bool, show_diff: bool) -> None:
    """Format .sgs files or folders in place. Exit 0 when all is well, 1 on unformatted files (--check) or
    files that do not parse (left untouched)."""
    files, diags = expand_paths(list(paths))
    sources: dict[str, str] = {}
    changed: list[str] = []
    for path in files:
        shown = display_path(path)
        text, err = read_source(path, shown)
        if text is None:
            diags.append(err)
            continue
        sources[shown] = text
        result = format_text(text, shown)
        if result.text is None:
            diags.extend(result.diagnostics)
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
            _write(path, result.text)
    if diags:
        click.echo(render_text(diags, sources), err=True)
    verb = "would reformat" if check or show_diff else "reformatted"
    click.echo(f"{len(files)} file(s): {verb} {len(changed)}, {len(files) - len(changed)} already formatted"
               + (f", {len(diags)} problem(s)" if diags else ""))
    raise SystemExit(1 if diags or (check and changed) else 0)


def _write(path: Path, text: str) -> None:
    """Replace the file atomically, so an interrupted run never leaves half a rules file."""
    fd, tmp = tempfile.mkstemp(prefix=".sgsfmt-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


COMMANDS = [fmt]
