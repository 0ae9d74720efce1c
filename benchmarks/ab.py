#!/usr/bin/env python
"""Benchmark: one checkout against another, the same seeded games in alternating processes (an A/B of a change).

Two runs of bench.py side by side on a shared machine drift against each other by more than most changes are
worth (5–20 % on a VM). This plays the same seeds in two long-lived worker processes, one per checkout, a
chunk at a time, turning the order round at every chunk, so that the machine's swings affect both alike; the
ratio is the robust figure.

    git worktree add --detach /tmp/before HEAD~1
    python benchmarks/ab.py /tmp/before                       # HEAD~1 against this checkout, 8 players
    python benchmarks/ab.py /tmp/before --games 300 --engines compiled --agents heuristic
    SGSDSL_NATIVE=1 python benchmarks/ab.py /tmp/before       # both on their native builds (each needs its own)
    python benchmarks/ab.py /tmp/before --native after        # the old engine as Python, this one's native build
    python benchmarks/ab.py . . --native after                # this checkout: Python engine against native build
    python benchmarks/ab.py /tmp/before --players 4 5 8       # a table per count, and a before → after summary
    python benchmarks/ab.py /tmp/before --agents heuristic --option two_renegades=true   # the compare's second arm

Each of `--rounds` rounds (3) plays every game in a new pair of workers whose string hashing is fixed to the
round's number, the same on both sides: the hash seed alone moves a process's speed by up to 3 %, so a single pair
cannot resolve a 1 % change; the spread of the per-round ratios says how far to trust the figure. Rates are per
CPU second of each worker. "same games" compares digests of every game's result and decision
count: a change meant to keep games byte-identical must say yes.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench import _count, alternate, rates_of, spawn_worker  # noqa: E402

ROOT = HERE.parent


def compare(before: Path, after: Path, engines: tuple[str, ...], mode: str, players: int, games: int, seed: int,
            chunk: int, agents: str, rounds: int = 3, native_sides: str | None = None,
            options: list[str] | None = None) -> dict:
    """Both checkouts' figures per engine, and after/before. Each of ROUNDS rounds plays all GAMES in a new pair of
    workers whose string hashing is fixed to the round's number (the same for both sides): the hash seed alone
    moves one process's speed by a few per cent, so one pair of processes cannot resolve a 1 % change.
    NATIVE_SIDES (none, before, after, both; default: both when SGSDSL_NATIVE=1, else none) says which side runs
    its checkout's native build, where it has one. OPTIONS: the mode's options for every game (`--option`)."""
    sides = native_sides or ("both" if os.environ.get("SGSDSL_NATIVE", "0") == "1" else "none")
    flags = {name: "1" if sides in (name, "both") else "0" for name in ("before", "after")}
    sums = {(w, e): {"cpu": 0.0, "turns": 0, "decisions": 0, "digests": []}
            for w in ("before", "after") for e in engines}
    per_round: dict[str, list[float]] = {e: [] for e in engines}
    native: dict[str, bool] = {}
    for r in range(rounds):
        workers = {}
        for name, code in (("before", before), ("after", after)):
            workers[name], native[name] = spawn_worker(code, flags[name], hash_seed=r)
        totals = alternate(workers, engines, mode, players, games, seed, chunk, agents, options)
        for key, t in totals.items():
            for k in ("cpu", "turns", "decisions"):
                sums[key][k] += t[k]
            sums[key]["digests"] += t["digests"]
        for e in engines:
            per_round[e].append(totals[("before", e)]["cpu"] / totals[("after", e)]["cpu"])
    out: dict = {"before": str(before), "after": str(after), "mode": mode, "players": players, "games": games,
                 "rounds": rounds, "seed": seed, "agents": agents, "options": options or [], "native": native,
                 "engines": {}}
    for engine in engines:
        b, a = (rates_of(sums[(w, engine)], games * rounds) for w in ("before", "after"))
        out["engines"][engine] = {"before": b, "after": a, "ratio": a["games_per_s"] / b["games_per_s"],
                                  "round_ratios": per_round[engine],
                                  "same_games": sums[("before", engine)]["digests"]
                                  == sums[("after", engine)]["digests"]}
    if {"compiled", "interpreted"} <= set(engines):  # what the compiler brings on each side
        out["compiled_over_interpreted"] = {
            side: out["engines"]["compiled"][side]["games_per_s"] / out["engines"]["interpreted"][side]["games_per_s"]
            for side in ("before", "after")}
    return out


def report(res: dict) -> str:
    """One table per player count, then (for more than one count, or both engines) a summary of each side's
    compiled games/s and its compiled/interpreted ratio at each count."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=130, record=True, file=io.StringIO())
    for run in res["runs"]:
        console.print(_run_table(run))
    first = res["runs"][0]
    console.print(f"before: {first['before']} (native: {first['native']['before']}) · after: {first['after']} "
                  f"(native: {first['native']['after']})")
    if len(res["runs"]) > 1 or "interpreted" in first["engines"]:
        summary = Table(title="before → after, compiled games/s · turns/s · decisions/s, and compiled / interpreted")
        for col in ("players", "compiled games/s", "turns/s", "decisions/s", "compiled / interpreted"):
            summary.add_column(col, justify="right")
        for run in res["runs"]:
            c = run["engines"].get("compiled")
            if c is None:
                continue
            b, a = c["before"], c["after"]
            split = run.get("compiled_over_interpreted")
            summary.add_row(str(run["players"]), f"{b['games_per_s']:,.1f} → {a['games_per_s']:,.1f}",
                            f"{b['turns_per_s']:,.0f} → {a['turns_per_s']:,.0f}",
                            f"{b['decisions_per_s']:,.0f} → {a['decisions_per_s']:,.0f}",
                            f"{split['before']:.2f}x → {split['after']:.2f}x" if split else "")
        console.print(summary)
    return console.export_text()


def _run_table(run: dict):
    from rich.table import Table

    t = Table(title=f"{run['games']} games x {run['rounds']} rounds · {run['mode']} · {run['players']} players · "
                    f"{run['agents']} agents{''.join(' · ' + o for o in run.get('options', ()))} · per CPU second · "
                    f"alternating processes")
    for col in ("engine", "figure", "before", "after", "after / before"):
        t.add_column(col, justify="left" if col in ("engine", "figure") else "right")
    for engine, r in run["engines"].items():
        for k, label in (("games_per_s", "games/s"), ("turns_per_s", "turns/s"), ("decisions_per_s", "decisions/s")):
            t.add_row(engine, label, f"{r['before'][k]:,.1f}", f"{r['after'][k]:,.1f}",
                      f"x{r['after'][k] / r['before'][k]:.3f}")
        rounds = r["round_ratios"]
        t.add_row(engine, f"games/s ratio per round ({len(rounds)} hash seeds)", "", "",
                  f"x{min(rounds):.3f} .. x{max(rounds):.3f}")
        t.add_row(engine, "same games (results, decisions)", "", "", "yes" if r["same_games"] else "NO")
    return t


def _option(text: str) -> str:
    """KEY=VALUE, as `sgsdsl simulate --option` takes it (each worker types it against its own checkout's rules)."""
    key, sep, _ = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: expected KEY=VALUE, e.g. two_renegades=true")
    return text


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", help="the checkout timed as 'before'")
    ap.add_argument("after", nargs="?", default=str(ROOT), help="the checkout timed as 'after' (default: this one)")
    ap.add_argument("--engines", nargs="+", choices=("compiled", "interpreted"), default=["compiled", "interpreted"])
    ap.add_argument("--mode", default="identity")
    ap.add_argument("--players", type=_count(2), nargs="+", default=[8],
                    help="player counts, each timed in turn (e.g. --players 4 5 8)")
    ap.add_argument("--games", type=_count(1), default=150, help="games per checkout and engine")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=_count(1), default=5, help="games per turn of each worker")
    ap.add_argument("--rounds", type=_count(1), default=3,
                    help="pairs of workers, one after the other, each with its own fixed string-hash seed")
    ap.add_argument("--agents", choices=("random", "heuristic"), default="random")
    ap.add_argument("--native", choices=("none", "before", "after", "both"), default=None,
                    help="which side runs its native build (default: both when SGSDSL_NATIVE=1, else none)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", type=_option,
                    help="a mode option for every game, as `sgsdsl simulate --option` (e.g. two_renegades=true, the "
                         "compare's second arm); repeatable")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    args = ap.parse_args(argv)
    args.options = list(args.option)
    for side in ("before", "after"):
        path = Path(getattr(args, side)).resolve()
        if not (path / "sgsdsl" / "__init__.py").is_file() or not (path / "rules" / "standard.sgs").is_file():
            ap.error(f"{side}: {path} is not an sgsdsl checkout (no sgsdsl/ package or rules/standard.sgs)")
        setattr(args, side, path)
    if args.options:
        _check_options(ap, args)
    return args


def _check_options(ap: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Each --option checked against the mode of this checkout's standard rules for every player count, as `sgsdsl
    simulate` checks it: a usage error naming what is wrong, before any worker starts."""
    sys.path.insert(0, str(ROOT))
    from sgsdsl.api import check_paths, interpreted_program
    from sgsdsl.modes import SetupError, check_setup, parse_assignments

    program = interpreted_program(check_paths([str(ROOT / "rules" / "standard.sgs")]))
    for players in args.players:
        try:
            check_setup(program, args.mode, players, parse_assignments(args.options))
        except SetupError as err:
            ap.error(f"--option: {err}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    res = {"runs": [compare(args.before, args.after, tuple(args.engines), args.mode, players, args.games, args.seed,
                            args.chunk, args.agents, args.rounds, args.native, args.options)
                     for players in args.players]}
    print(json.dumps(res, indent=2) if args.json else report(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
