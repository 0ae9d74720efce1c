"""`sgsdsl test PATH...`: run scenario files and folders; one line per scenario, details on failure."""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..lang.diagnostics import render_text
from ..textsafe import shown
from .paths import require_paths


@click.command("test")
@click.argument("paths", nargs=-1, required=True)
@click.option("--engine", type=click.Choice(["interpreted", "compiled"]), default="interpreted", show_default=True,
              help="run the rules through the reference interpreter or the compiled classes")
@click.option("--pending", is_flag=True, help="also run scenarios under pending/ folders (known rule bugs)")
@click.option("--quiet", "-q", is_flag=True, help="print only failures and the summary")
def test_cmd(paths: tuple[str, ...], engine: str, pending: bool, quiet: bool) -> None:
    """Run .scenario files (folders: every *.scenario inside). Exit 0 all pass, 1 a failure or no scenario at
    all, 2 a malformed scenario or a path that names nothing."""
    from ..scenario import ScenarioError, discover, report, run_file

    require_paths(paths)
    rules_files = [p for p in paths if p.endswith(".sgs") and not Path(p).is_dir()]
    if rules_files:  # a common first try: the rules file itself, not a scenario about it
        raise click.UsageError(
            f"{rules_files[0]} is a rules file; `sgsdsl test` runs .scenario files, which load their rules with a "
            f"`rules: {Path(rules_files[0]).name}` line (docs/scenarios.md). To check the rules themselves: "
            f"sgsdsl check {rules_files[0]}")
    files, skipped, missing = discover(list(paths), include_pending=pending)
    if missing:  # (require_paths has refused what is not there: this is a device, a pipe or a socket)
        raise click.UsageError(f"cannot run {missing[0]!r}: it is neither a file nor a folder")
    if not files:
        click.echo(f"no .scenario files found in {', '.join(paths)}" + (f" ({len(skipped)} pending skipped)"
                                                                         if skipped else ""))
        raise SystemExit(1)
    malformed = 0
    passed = failed = 0
    start = time.perf_counter()
    for f in files:
        try:
            out = run_file(f, engine)
        except ScenarioError as err:
            malformed += 1
            click.echo(shown(f"MALFORMED {f}"))
            click.echo(render_text(err.diagnostics, err.sources))
            continue
        except Exception as err:  # noqa: BLE001 - never a traceback, even on a bug in the runner
            failed += 1
            click.echo(shown(f"FAIL  {f}\n  ✗ internal error while running the scenario: {type(err).__name__}: {err}"))
            continue
        title = out.scenario.title
        if out.passed:
            passed += 1
            if not quiet:
                click.echo(shown(f"PASS  {f} — {title}"))
        else:
            failed += 1
            click.echo(shown(f"FAIL  {f} — {title}"))
            click.echo(shown(report(out)))
    secs = time.perf_counter() - start
    extra = f", {len(skipped)} pending skipped" if skipped else ""
    click.echo(f"{len(files)} scenario(s): {passed} passed, {failed} failed, {malformed} malformed"
               f"{extra} in {secs:.2f}s")
    raise SystemExit(2 if malformed else 1 if failed else 0)


COMMANDS = [test_cmd]
