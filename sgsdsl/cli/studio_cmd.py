"""`sgsdsl studio`: a playtest studio in the browser — the table, your decisions, the narration, live rules
checks, replays and watched games, served on 127.0.0.1 with a session token."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import click

from .. import bundled
from ..install_hint import install_extra
from ..lang.sources import expand_paths
from ..modes import SetupError, check_setup, parse_assignments
from .loading import file_mode, fitting_players, one_rule_set, rule_paths
from .paths import no_dash_o, require_paths


@click.command("studio")
@no_dash_o
@click.argument("rules", nargs=-1)
@click.option("--rules", "rule_names", default="", help="bundled rule sets, comma separated (standard,junzheng)")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="the loopback port (0: a free one)")
@click.option("--mode", default=None, help="mode id [default: the mode of the one rules file named, else identity]")
@click.option("--players", type=click.IntRange(2, 12), default=None, help="[default: 5, or the mode's own count]")
@click.option("--seat", type=click.IntRange(0, 11), default=0, show_default=True, help="the seat you play")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--general", default="", help="your general (id or name), e.g. liubei")
@click.option("--pool", default="", help="the generals on offer, comma separated")
@click.option("--option", "opts", multiple=True, help="mode option, name=value (repeatable)")
@click.option("--opponents", default="heuristic", show_default=True, help="the agents at the other seats")
@click.option("--log", "logs", multiple=True, type=click.Path(dir_okay=False),
              help="a game log (.jsonl) to offer for replay (repeatable)")
@click.option("--log-dir", type=click.Path(file_okay=False), default="studio-logs", show_default=True,
              help="where the studio saves the logs of its games")
@click.option("--no-browser", is_flag=True, help="print the address only; do not open a browser")
def studio_cmd(rules, rule_names, port, mode, players, seat, seed, general, pool, opts, opponents, logs, log_dir,
               no_browser) -> None:
    """Open a playtest studio in the browser: play your rules on a live table; saving a rules file re-checks it."""
    from ..sim import AGENT_KINDS

    try:
        from ..studio.serve import start_studio
        from ..studio.workspace import Workspace
    except ImportError as err:
        raise click.UsageError(f"the studio needs its web libraries ({err.name} is missing): "
                               f"{install_extra('studio')}") from None

    require_paths(list(rules))
    for r in rules:  # the studio starts on broken rules (save a fix, the page follows), but not on what no save fixes
        if not (Path(r).is_file() or Path(r).is_dir()):
            raise click.UsageError(f"{r} is not a rules file or folder (not a regular file)")
    if opponents not in AGENT_KINDS:
        raise click.UsageError(f"--opponents: no agent kind {opponents!r} (choose from {', '.join(AGENT_KINDS)})")
    for log in logs:
        if not Path(log).is_file():
            raise click.UsageError(f"--log {log}: no such file")
    # a folder means its one rule set, as for every command (`loading.one_rule_set`)
    files, problems = expand_paths([p for r in rules for p in one_rule_set(r, "studio")])
    if problems:
        raise click.UsageError(problems[0].message)
    paths = rule_paths([str(f) for f in files], rule_names)
    bundled_dir = bundled.rules_dir().resolve()
    watched = [f.resolve() for f in files if bundled_dir not in f.resolve().parents]
    workspace = Workspace(paths, watched)
    if not workspace.reload():
        click.echo("\n\n".join(d["text"] for d in workspace.diagnostics), err=True)
        click.echo("the studio starts anyway: fix the rules and save, and the page shows them clean", err=True)
    program = workspace.program
    defaults: dict[str, object] = {"seat": seat, "seed": seed, "opponents": opponents, "general": general,
                                   "pool": pool, "options": " ".join(opts)}
    if program is not None:
        chosen_mode = mode or file_mode(paths, workspace.loaded)
        count = players or fitting_players(program, chosen_mode, 5)
        try:
            check_setup(program, chosen_mode, count, parse_assignments(opts))
        except SetupError as err:
            raise click.UsageError(str(err)) from None
        if seat >= count:
            raise click.UsageError(f"--seat {seat} does not exist with {count} players (0 to {count - 1})")
        defaults.update(mode=chosen_mode, players=count)
    else:
        defaults.update(mode=mode or "identity", players=players or 5)
    try:
        served, sock = start_studio(workspace, [str(f) for f in files], rule_names, [Path(p) for p in logs],
                                    Path(log_dir), defaults, port)
    except OSError as err:
        raise click.UsageError(f"--port {port}: cannot listen on 127.0.0.1 ({err.strerror or err})") from None
    url = served.studio.url
    click.echo(f"sgsdsl studio on {url}  (Ctrl-C stops it)")
    if not no_browser:
        webbrowser.open(url)
    try:
        served.server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn stopped for Ctrl-C, then raised it again: stopping is what Ctrl-C is for here
    finally:
        served.stop()
    click.echo("sgsdsl studio stopped")


COMMANDS = [studio_cmd]
