"""`sgsdsl league`: a scoring league (计分赛) — the lord seat rotates, scores add up per person."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from ..engine.errors import EngineError
from ..league import League, run_league
from ..rule_errors import describe_text
from ..textsafe import shown
from .lab_common import failure_headline
from .loading import file_mode, load_rules_or_exit, rule_paths, setup_or_exit
from .paths import no_dash_o
from .simulate_cmd import parse_agents


@click.command("league")
@no_dash_o
@click.argument("rules", nargs=-1)
@click.option("--rules", "rule_names", default="", help="bundled rule sets, comma separated (standard,junzheng)")
@click.option("--mode", default=None,
              help="mode id (it must have `score` lines) [default: the named file's first mode, else identity]")
@click.option("--players", type=click.IntRange(2, 12), default=8, show_default=True)
@click.option("--games", type=click.IntRange(1, 100_000), default=None,
              help="games to play [default: one per player, so that everyone leads once]")
@click.option("--seed", type=int, default=1, show_default=True, help="first game's seed; game i uses seed+i")
@click.option("--option", "opts", multiple=True,
              help="mode option, name=value (repeatable); e.g. --option score_table_004=true for seed 004's table")
@click.option("--round-cap", type=click.IntRange(1, 10_000), default=60, show_default=True)
@click.option("--engine", type=click.Choice(["compiled", "interpreted"]), default="compiled", show_default=True)
@click.option("--agents", "agent_spec", default="random", show_default=True,
              help="agent per seat: random, heuristic, search, search:N (N rollouts a decision), or a comma list "
                   "cycled over the seats")
@click.option("--json", "as_json", is_flag=True, help="print every game and the totals as JSON")
def league_cmd(rules, rule_names, mode, players, games, seed, opts, round_cap, engine, agent_spec, as_json) -> None:
    """Play a scoring league: player k is the lord in game k; per-game scores and running totals."""
    loaded, program = load_rules_or_exit(list(rules), rule_names, engine, "league")
    if mode is None:  # `sgsdsl league rules/house/protection.sgs` plays that file's mode, as simulate and play do
        mode = file_mode(rule_paths(list(rules), rule_names, "league"), loaded)
    options = setup_or_exit(program, mode, players, opts)
    agents = parse_agents(agent_spec)
    if not program.modes[mode].scores:
        raise click.UsageError(f"mode {mode} keeps no score (it has no `score` lines); a league needs them")
    try:
        league = run_league(program, mode, players, games or players, seed, options, round_cap, agents)
    except EngineError as err:
        raise click.UsageError(str(err)) from None
    failure_headline(league.errors, len(league.games), as_json)
    if as_json:
        click.echo(json.dumps(league.as_dict(), ensure_ascii=False, sort_keys=True))
    elif len(league.errors) < len(league.games):  # (every game failed: no tables of nothing)
        print_league(league, engine)
    for e in league.errors[:5]:
        click.echo(shown(f"engine error: {describe_text(e)}"), err=True)
    raise SystemExit(1 if league.errors else 0)


ROLE_SHORT = {"lord": "L", "loyalist": "Y", "rebel": "R", "renegade": "N"}


def _short(roles) -> str:
    return "+".join(ROLE_SHORT.get(r, r) for r in roles)


def print_league(league: League, engine: str) -> None:
    """Two tables, one row per game: every person's score (role letter, † when dead at the end) and the
    running totals; then the standings."""
    click.echo(f"{len(league.games)} games · mode {league.mode} · {league.players} players · seed {league.seed} · "
               f"{engine} rules")
    console = Console()
    scores = _table("score per game (role; † dead at the end)", league.players)
    totals = _table("running total", league.players)
    for g in league.games:
        winner = _short(g.winners) if g.winners else "error" if g.error else f"draw ({g.reason})"
        cells = [f"{g.scores[k]} {ROLE_SHORT.get(g.roles[k], g.roles[k])}{'' if g.alive[k] else '†'}"
                 for k in range(league.players)]
        scores.add_row(str(g.number), f"P{g.leader + 1}", winner, *cells)
        totals.add_row(str(g.number), f"P{g.leader + 1}", winner, *map(str, g.totals))
    console.print(scores)
    console.print(totals)
    ranking = ", ".join(f"P{k + 1} {league.totals[k]}" for k in league.standings())
    click.echo(f"standings: {ranking}")
    click.echo("roles: L lord, Y loyalist, R rebel, N renegade; player k is the lord in game k (k mod players)")


def _table(title: str, players: int) -> Table:
    t = Table(title=title, pad_edge=False)
    for name in ("game", "lord", "won"):
        t.add_column(name, justify="right" if name == "game" else "left", no_wrap=True)
    for k in range(players):
        t.add_column(f"P{k + 1}", justify="right", no_wrap=True)
    return t


COMMANDS = [league_cmd]
