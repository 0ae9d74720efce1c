"""`sgsdsl compile RULES... -o DIR [--check]`: rules files to Python modules (CI keeps `generated/` current)."""

from __future__ import annotations

from pathlib import Path

import click

from ..compiler.project import compile_paths, stale_files, write_project
from ..files import WriteRefused
from ..lang.diagnostics import render_json, render_text
from .paths import require_paths


@click.command("compile")
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--out", "out", type=click.Path(file_okay=False), required=True, help="output package folder")
@click.option("--check", "check_only", is_flag=True, help="write nothing; exit 1 and list what differs if DIR is stale")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="diagnostics form")
@click.option("--timings", is_flag=True, help="print the time spent parsing, checking and generating")
def compile_cmd(paths: tuple[str, ...], out: str, check_only: bool, fmt: str, timings: bool) -> None:
    """Compile .sgs files (or folders) into one Python module each under DIR, plus an index and a manifest.

    Exit 0 when done (or, with --check, when DIR is current), 1 on errors or a stale DIR, 2 on bad usage.
    With --format json, stdout holds only the JSON diagnostics; every other line goes to stderr. Compile
    removes only files it wrote itself (listed in DIR/.sgsdsl-compiled.json, unchanged since).
    """
    require_paths(paths, rules=True)
    res = compile_paths(list(paths))
    errors = [d for d in res.diagnostics if d.severity == "error"]
    to_err = fmt == "json"  # keep stdout pure JSON
    if fmt == "json":
        click.echo(render_json(res.diagnostics))
    elif res.diagnostics:
        click.echo(render_text(res.diagnostics, res.sources), err=True)
    if errors:
        click.echo(f"compile failed: {len(errors)} error(s); nothing written", err=True)
        raise SystemExit(1)
    out_dir = Path(out)
    modules = len(res.files) - 1
    if timings:
        t = res.timings
        click.echo(f"parse {t.parse * 1000:.1f} ms · check {t.check * 1000:.1f} ms · "
                   f"generate {t.generate * 1000:.1f} ms · total {t.total * 1000:.1f} ms · "
                   f"{t.cached} of {modules} file(s) unchanged, from the result cache", err=to_err)
    if check_only:
        try:
            problems = stale_files(res, out_dir)
        except OSError as err:  # e.g. a name over the file system's length limit
            click.echo(f"error: cannot read {out_dir}: {err.strerror or err}", err=True)
            raise SystemExit(1) from None
        if problems:
            for p in problems:
                click.echo(p, err=to_err)
            click.echo(f"{out_dir} is stale ({len(problems)} file(s)); run: sgsdsl compile {' '.join(paths)} -o {out}",
                       err=to_err)
            raise SystemExit(1)
        click.echo(f"{out_dir} is current ({modules} module(s))", err=to_err)
        return
    try:
        changed = write_project(res, out_dir)
    except WriteRefused as err:
        click.echo(f"error: {err}", err=True)
        raise SystemExit(1) from None
    except OSError as err:  # e.g. a name over the file system's length limit
        click.echo(f"error: cannot write {out_dir}: {err.strerror or err}", err=True)
        raise SystemExit(1) from None
    click.echo(f"compiled {modules} module(s) into {out_dir}: {len(changed)} file(s) changed", err=to_err)


COMMANDS = [compile_cmd]
