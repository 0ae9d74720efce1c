"""`sgsdsl simulate` and `sgsdsl replay`: seeded games in parallel with win rates and their intervals per side,
role, general, seat and kingdom, skill firings and game length; exports; logs and their replay."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..engine.errors import EngineError
from ..files import WriteRefused, check_writable
from ..lab.export import versions
from ..lab.report import simulate_report
from ..lab.stats import LOOP_WARN_PER_ROUND, Rate, Stats, convergence, implausible_skills, mode_sides, summarise
from ..replay import log_header, write_log
from ..rule_errors import describe, describe_text
from ..sim import play_one
from ..textsafe import shown
from .lab_common import (
    Prepared,
    display_names,
    failure_headline,
    general_skills,
    parse_agents,
    play,
    prepare,
    require_exports,
    variant_options,
    write_outputs,
)
from .loading import file_mode, rule_paths
from .paths import no_dash_o


@click.command("simulate")
@no_dash_o
@click.argument("rules", nargs=-1)
@click.option("--rules", "rule_names", default="", help="bundled rule sets, comma separated (standard,junzheng)")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=100, show_default=True)
@click.option("--option", "opts", multiple=True, help="mode option, name=value (repeatable)")
@variant_options
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="write the first game's event log (JSONL)")
@click.option("--json", "as_json", is_flag=True, help="print every setting, versions, rules digest and figures as JSON")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="write one row per game (CSV)")
@click.option("--parquet", "parquet_path", type=click.Path(dir_okay=False),
              help="write one row per game (Parquet; needs the `parquet` extra)")
@click.option("--html", "--report", "html_path", type=click.Path(dir_okay=False),
              help="write a self-contained HTML report (tables and charts)")
@click.option("--detail/--no-detail", default=True, show_default=True,
              help="print the per-role, general, seat, kingdom and skill tables")
def simulate_cmd(rules, rule_names, games, opts, mode, players, seed, round_cap, engine, agent_spec, pins, pool_spec,
                 jobs, backend, address, log_path, as_json, csv_path, parquet_path, html_path, detail) -> None:
    """Play GAMES seeded games and report win rates with 95% intervals (same seeds, same table, any --jobs)."""
    require_exports(csv_path, parquet_path, html_path)
    agents = parse_agents(agent_spec)
    paths = rule_paths(list(rules), rule_names)
    if click.get_current_context().get_parameter_source("mode") == click.core.ParameterSource.DEFAULT:
        mode = file_mode(paths)  # `sgsdsl simulate rules/3v3.sgs` plays that file's mode
    given = click.get_current_context().get_parameter_source("players") != click.core.ParameterSource.DEFAULT
    prep = prepare(paths, engine, mode, players, opts, round_cap, agents, pins,
                   pool_spec, fit_players=not given)
    v = prep.variant
    players = v.players
    if log_path:
        log = Path(log_path)
        writable_or_exit(log)
        try:
            g = play_one(prep.program, mode, players, seed, dict(v.options), record=True, round_cap=round_cap,
                         agents=agents, pinned=dict(v.pinned), pool=v.pool)
        except EngineError as err:  # the logged game itself failed: say so, write no log of half a game
            why = " ".join([str(err), *getattr(err, "__notes__", [])])
            click.echo(shown(f"engine error in the logged game (seed {seed}): {why}; no log written to {log}"),
                       err=True)
            raise SystemExit(1) from None
        assert prep.loaded is not None
        header = log_header(prep.loaded, log, list(rules), rule_names, mode=mode, agents=list(agents),
                            players=players, seed=seed, options=dict(v.options), round_cap=round_cap,
                            **({"pinned": {str(s): gen for s, gen in v.pinned}} if v.pinned else {}),
                            **({"pool": list(v.pool)} if v.pool is not None else {}))
        write_log_or_exit(g, log, header)
    seeds = list(range(seed, seed + games))
    start = time.perf_counter()
    records = play(v, seeds, jobs, backend, address)
    seconds = time.perf_counter() - start
    sides = mode_sides(prep.program.modes[mode].sides_named())
    stats = summarise(records, sides, v.designer, general_skills(prep.program))
    doc = document(prep, stats, seeds)
    headline = max(stats.sides, key=lambda s: stats.sides[s].k) if stats.sides else ""
    meta = {"games": games, "mode": mode, "players": players, "seeds": f"{seed}–{seed + games - 1}",
            "rules": ", ".join(Path(p).name for p in v.paths), "options": _opts(v.options),
            "agents": ",".join(agents), "rules digest": prep.digest, **_pins(v)}
    names = display_names(prep.program)
    write_outputs([("", records)], csv_path, parquet_path, html_path,
                  lambda: simulate_report(stats, meta, convergence(records, headline), headline, names))
    failure_headline(stats.errors, games, as_json)
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, sort_keys=True))
    elif stats.finished:  # (no finished game: no tables of nothing)
        print_tables(stats, doc, seconds, detail, names)
    for name, per_game, per_round, held in implausible_skills(stats):
        whose = " per seat that held it" if held else ""
        click.echo(f"warning: skill {name} fired {per_game:.1f} times a game{whose} ({per_round:.1f} a round, more "
                   f"than {LOOP_WARN_PER_ROUND:g}): an agent may be asking again for something that changes nothing",
                   err=True)
    for e in stats.errors[:5]:
        click.echo(shown(f"engine error: {describe_text(e)}"), err=True)
    raise SystemExit(1 if stats.errors else 0)  # games failed: never a quiet success


def document(prep: Prepared, stats: Stats, seeds: list[int]) -> dict[str, Any]:
    """The JSON form: the classic summary keys, then every setting, versions, the rules digest and the figures."""
    d = stats.as_dict()
    return {
        "games": stats.games, "errors": len(stats.errors),
        "wins": {s: r.k for s, r in stats.sides.items()}, "draws": dict(sorted(stats.draws.items())),
        "avg_rounds": round(stats.rounds, 2), "avg_turns": round(stats.turns, 2),
        **({"avg_score": stats.scores} if stats.scores else {}),
        **({"places": {k: r.k for k, r in stats.places.items()}} if stats.places else {}),
        "settings": {**prep.variant.settings(), "seeds": [seeds[0], seeds[-1]] if seeds else []},
        "versions": versions(), "rules_digest": prep.digest, "stats": d,
    }


# how the summary names the places a ranking mode gives (`place` lines): 1 and 2 by name, the rest by number
_PLACE_NAMES = {"1": "champion", "2": "runner-up"}


def _opts(options) -> str:
    return ", ".join(f"{k}={v}" for k, v in options) or "defaults"


def _pins(v) -> dict[str, str]:
    out = {}
    if v.pinned:
        out["pinned"] = ", ".join(f"P{s}={g}" for s, g in v.pinned)
    if v.pool is not None:
        out["pool"] = ", ".join(v.pool)
    return out


def _fmt(r: Rate) -> tuple[str, str, str]:
    lo, hi = r.interval
    return (f"{r.k}/{r.n}", f"{100 * r.rate:.1f}%", f"{100 * lo:.1f}–{100 * hi:.1f}%")


def rate_table(title: str, rates: dict[str, Rate], designer: tuple[str, ...] = (),
               names: dict[str, str] | None = None, expected: dict[str, float] | None = None) -> Table:
    """One row a key; with `expected` (a general's rate from its roles alone) a column more: that rate, and in
    brackets how many points the key's own rate is above it."""
    t = Table(title=title, title_justify="left")
    cols = [(title.split()[-1], "left"), ("wins", "right"), ("win rate", "right"), ("95% CI", "right")]
    if expected is not None:
        cols.append(("its roles give", "right"))
    for col, just in cols:
        t.add_column(col, justify=just, no_wrap=True)  # type: ignore[arg-type]
    for name, r in rates.items():
        shown = (names or {}).get(name, name)
        label = f"{shown} (designer)" if name in designer else shown
        extra = []
        if expected is not None:
            given = expected.get(name)
            extra = [""] if given is None or not r.n else [f"{100 * given:.1f}% ({100 * (r.rate - given):+.1f})"]
        t.add_row(label, *_fmt(r), *extra, style="bold yellow" if name in designer else None)
    return t


def print_tables(s: Stats, doc: dict[str, Any], seconds: float, detail: bool,
                 names: dict[str, str] | None = None) -> None:
    st = doc["settings"]
    click.echo(f"{s.games} games · mode {st['mode']} · {st['players']} players · seed {st['seeds'][0]} · "
               f"{st['engine']} rules · agents {','.join(st['agents'])}")
    console = Console()
    t = Table()
    for col, just in (("result", "left"), ("games", "right"), ("share", "right"), ("95% CI", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for side, r in s.sides.items():
        t.add_row(f"win: {side}", str(r.k), *_fmt(r)[1:])
    for reason, n in sorted(s.draws.items()):
        t.add_row(f"draw: {reason}", str(n), *_fmt(Rate(n, s.finished))[1:])
    t.add_row("engine errors", str(len(s.errors)), "", "")
    for role, avg in s.scores.items():
        t.add_row(f"average score: {role}", f"{avg:.2f}", "", "")
    for key, r in s.places.items():
        camp, place = key.rsplit(" · place ", 1)
        t.add_row(f"{_PLACE_NAMES.get(place, 'place ' + place)}: {camp}", str(r.k), *_fmt(r)[1:])
    console.print(t)
    if s.designer:  # the designer's own generals, whatever --detail says
        mine = {g: s.generals.get(g, Rate(0, 0)) for g in s.designer}
        console.print(rate_table("designer's generals", mine, s.designer, names, s.expected))
        for g in s.designer:
            if g not in s.generals:
                click.echo(f"{(names or {}).get(g, g)} never sat down: pin it (--general P0={g}) or rate it with "
                           f"`sgsdsl balance {g}`")
    if detail:
        console.print(rate_table("win rate per role", s.roles))
        if s.generals:
            console.print(rate_table("win rate per general", s.generals, s.designer, names, s.expected))
        if s.agents:
            console.print(rate_table("win rate per agent and role", s.agents))
        console.print(rate_table("win rate per seat", s.seats))
        if s.kingdoms:
            console.print(rate_table("win rate per kingdom", s.kingdoms))
        if s.skills:
            sk = Table(title="skill firings per game", title_justify="left")
            sk.add_column("skill")
            sk.add_column("per game", justify="right")
            sk.add_column("per seat that held it", justify="right")
            for name, per in s.skills.items():
                held = s.per_holder.get(name)
                sk.add_row((names or {}).get(name, name), f"{per:.3f}", "" if held is None else f"{held:.3f}")
            console.print(sk)
    finished = max(1, s.finished)
    secs = max(seconds, 1e-9)
    lo, hi = s.rounds_ci
    click.echo(f"average rounds {s.rounds:.2f} (95% CI {lo:.2f}–{hi:.2f}) · average turns "
               f"{s.turns:.2f} · {s.games / secs:.1f} games/s · {s.turns * finished / secs:.0f} turns/s")


def writable_or_exit(path: Path) -> None:
    """Refuse a --log path that cannot or must not be written before playing anything (exit 1)."""
    try:
        check_writable(path)
    except WriteRefused as err:
        raise click.ClickException(str(err)) from None


def write_log_or_exit(game, path: Path, header: dict[str, Any]) -> None:
    try:
        write_log(game, path, header)
    except WriteRefused as err:
        raise click.ClickException(str(err)) from None


@click.command("replay")
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--engine", type=click.Choice(["compiled", "interpreted"]), default="compiled", show_default=True)
@click.option("--show", is_flag=True, help="print the game as a readable transcript instead of re-running it")
def replay_cmd(log: Path, engine: str, show: bool) -> None:
    """Re-run a logged game with its recorded answers (with the rules it was recorded with, which its header
    binds by digest); stop at the first decision whose state hash differs. Exit 0 ok, 1 bad log or divergence."""
    from ..replay import LogError, ReplayMismatch, replay_file

    if show:
        from ..narrate import show_log

        try:
            for line in show_log(log):
                click.echo(line)
        except ReplayMismatch as err:
            click.echo(shown(f"cannot read the log: {err}"), err=True)
            raise SystemExit(1) from None
        return
    try:
        n, last_hash = replay_file(log, engine)
    except LogError as err:
        click.echo(shown(f"not a valid log: {err}"), err=True)
        raise SystemExit(1) from None
    except ReplayMismatch as err:
        click.echo(shown(f"divergence: {describe_text(str(err))}"), err=True)
        raise SystemExit(1) from None
    except EngineError as err:
        click.echo(shown(f"divergence: the replay failed: {describe(err)}"), err=True)
        raise SystemExit(1) from None
    from ..replay import iter_log

    why = next(iter_log(log)).get("abandoned")
    ok = f"replay ok: {n} decisions, every state hash matches" + (f" (at the last: {last_hash})" if n else "")
    if why:
        ok += f"; the game was abandoned there ({why}): the replay stops where it did"
    click.echo(shown(ok))


__all__ = ["COMMANDS", "parse_agents", "writable_or_exit", "write_log_or_exit"]

COMMANDS = [simulate_cmd, replay_cmd]
