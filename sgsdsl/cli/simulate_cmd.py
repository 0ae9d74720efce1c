"""`sgsdsl simulate` and `sgsdsl replay`: many seeded games with a summary table; logs and their replay."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from ..engine.errors import EngineError
from ..sim import AGENT_KINDS, play_one, simulate
from .loading import load_program_or_exit, parse_options


@click.command("simulate")
@click.argument("rules", nargs=-1)
@click.option("--rules", "rule_names", default="", help="bundled rule sets, comma separated (standard,junzheng)")
@click.option("--mode", default="identity", show_default=True, help="mode id")
@click.option("--players", type=click.IntRange(2, 12), default=8, show_default=True)
@click.option("--games", type=click.IntRange(1, 10_000_000), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="first game's seed; game i uses seed+i")
@click.option("--option", "-o", "opts", multiple=True, help="mode option, name=value (repeatable)")
@click.option("--round-cap", type=click.IntRange(1, 10_000), default=60, show_default=True)
@click.option("--engine", type=click.Choice(["compiled", "interpreted"]), default="compiled", show_default=True)
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="write the first game's event log (JSONL)")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@click.option("--agents", "agent_spec", default="random", show_default=True,
              help="agent per seat: random, heuristic, or a comma list cycled over the seats (heuristic,random)")
def simulate_cmd(rules, rule_names, mode, players, games, seed, opts, round_cap, engine, log_path, as_json,
                 agent_spec) -> None:
    """Play GAMES seeded games with random agents and summarise the results."""
    program = load_program_or_exit(list(rules), rule_names, engine)
    options = parse_options(opts)
    agents = parse_agents(agent_spec)
    console = Console(stderr=True)
    _check_mode(program, mode, players, options)
    if log_path:
        g = play_one(program, mode, players, seed, options, record=True, round_cap=round_cap, agents=agents)
        write_log(g, Path(log_path), {"rules": list(rules), "rule_names": rule_names, "mode": mode,
                                      "agents": list(agents), "players": players, "seed": seed, "options": options,
                                      "round_cap": round_cap})
    show_bar = games >= 50 and sys.stderr.isatty()
    if show_bar:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("simulating", total=games)
            summary = simulate(program, mode, players, games, seed, options, round_cap,
                               progress=lambda n: bar.update(task, completed=n), agents=agents)
    else:
        summary = simulate(program, mode, players, games, seed, options, round_cap, agents=agents)
    if as_json:
        click.echo(json.dumps(summary.as_dict(), ensure_ascii=False, sort_keys=True))
    else:
        _print_table(summary, mode, players, seed, engine)
    for e in summary.errors[:5]:
        click.echo(f"engine error: {e}", err=True)
    raise SystemExit(1 if summary.errors else 0)


def parse_agents(spec: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in spec.split(",") if k.strip())
    bad = [k for k in kinds if k not in AGENT_KINDS]
    if not kinds or bad:
        raise click.UsageError(f"--agents takes {' or '.join(AGENT_KINDS)} (comma separated), not {spec!r}")
    return kinds


def _check_mode(program, mode: str, players: int, options: dict[str, Any]) -> None:
    if mode not in program.modes:
        raise click.UsageError(f"unknown mode {mode!r}; the rules define: {', '.join(sorted(program.modes))}")
    m = program.modes[mode]
    if not m.players[0] <= players <= m.players[1]:
        raise click.UsageError(f"mode {mode} is for {m.players[0]}-{m.players[1]} players, not {players}")
    for k in options:
        if k not in m.options:
            known = ", ".join(sorted(m.options)) or "none"
            raise click.UsageError(f"mode {mode} has no option {k!r}; options: {known}")


def _print_table(s, mode: str, players: int, seed: int, engine: str) -> None:
    click.echo(f"{s.games} games · mode {mode} · {players} players · seed {seed} · {engine} rules")
    t = Table()
    t.add_column("result")
    t.add_column("games", justify="right")
    t.add_column("share", justify="right")
    for side, n in sorted(s.wins.items()):
        t.add_row(f"win: {side}", str(n), f"{100 * n / max(1, s.games):.1f}%")
    for reason, n in sorted(s.draws.items()):
        t.add_row(f"draw: {reason}", str(n), f"{100 * n / max(1, s.games):.1f}%")
    t.add_row("engine errors", str(len(s.errors)), "")
    for role, avg in s.average_scores().items():
        t.add_row(f"average score: {role}", f"{avg:.2f}", "")
    Console().print(t)
    finished = max(1, s.games - len(s.errors))
    secs = max(s.seconds, 1e-9)
    click.echo(f"average rounds {s.rounds / finished:.2f} · average turns {s.turns / finished:.2f} · "
               f"{s.games / secs:.1f} games/s · {s.turns / secs:.0f} turns/s")


def write_log(g, path: Path, header: dict[str, Any]) -> None:
    """The log: a header line (how to re-run the game), then every event and decision, one JSON per line."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"sgsdsl_log": 1, **header}, ensure_ascii=False, sort_keys=True) + "\n")
        for entry in g.log:
            fh.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")
    tmp.replace(path)


@click.command("replay")
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--engine", type=click.Choice(["compiled", "interpreted"]), default="compiled", show_default=True)
@click.option("--show", is_flag=True, help="print the game as a readable transcript instead of re-running it")
def replay_cmd(log: str, engine: str, show: bool) -> None:
    """Re-run a logged game with its recorded answers; verify every step's state hash."""
    from ..replay import ReplayMismatch, replay_file

    if show:
        from ..narrate import show_log

        try:
            click.echo("\n".join(show_log(Path(log))))
        except ReplayMismatch as err:
            click.echo(f"cannot read the log: {err}", err=True)
            raise SystemExit(1) from None
        return

    try:
        n = replay_file(Path(log), engine)
    except ReplayMismatch as err:
        click.echo(f"divergence: {err}", err=True)
        raise SystemExit(1) from None
    except EngineError as err:
        click.echo(f"divergence: the replay failed: {err}", err=True)
        raise SystemExit(1) from None
    click.echo(f"replay ok: {n} decisions, every state hash matches")


COMMANDS = [simulate_cmd, replay_cmd]
