#!/usr/bin/env python
"""Where a batch of games spends its time: cProfile's own time summed per source file, and the top functions.

Run from the repository root; the Python engine unless told otherwise (`SGSDSL_NATIVE=0` is what the tables in
docs/performance.md were taken with: cProfile sees nothing inside the native build's compiled modules):

    SGSDSL_NATIVE=0 python benchmarks/profile_games.py                       # 100 heuristic games, 8 players
    SGSDSL_NATIVE=0 python benchmarks/profile_games.py --agents random --games 200 --sort cumulative

It first times the games without the profiler (games/s and µs a turn per CPU second), then plays the same seeds
again under cProfile. The profiler costs every Python call about the same, so small functions called often look
dearer than they are: read the shares as where to look, and measure a change with benchmarks/ab.py.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgsdsl.api import check_paths, interpreted_program  # noqa: E402
from sgsdsl.compiler.cache import compiled_program  # noqa: E402
from sgsdsl.sim import play_one  # noqa: E402


def by_file(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Own time per source file (relative to the repository root; "builtins" for the C functions, which cProfile
    files under "~"), largest first, as shares of the whole."""
    own: Counter[str] = Counter()
    for (path, _line, _name), row in stats.stats.items():  # type: ignore[attr-defined]
        here = Path(path)
        own["builtins" if path == "~" else str(here.relative_to(ROOT)) if here.is_relative_to(ROOT) else path] += row[2]
    total = sum(own.values()) or 1.0
    return [(name, 100.0 * t / total) for name, t in own.most_common()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1, help="the first seed (the games play seeds SEED, SEED+1, ...)")
    ap.add_argument("--mode", default="identity")
    ap.add_argument("--agents", default="heuristic", help="an agent kind of `sgsdsl simulate` (heuristic, random)")
    ap.add_argument("--engine", choices=("compiled", "interpreted"), default="compiled")
    ap.add_argument("--rules", default=str(ROOT / "rules" / "standard.sgs"))
    ap.add_argument("--sort", choices=("tottime", "cumulative"), default="tottime")
    ap.add_argument("--top", type=int, default=30, help="rows of each table")
    args = ap.parse_args(argv)

    loaded = check_paths([args.rules])
    program = compiled_program(loaded) if args.engine == "compiled" else interpreted_program(loaded)
    seeds = range(args.seed, args.seed + args.games)

    def play() -> int:
        turns = 0
        for s in seeds:  # (a loop, not sum(): the profile's cumulative table starts at the games)
            turns += play_one(program, args.mode, args.players, s, agents=(args.agents,)).turns
        return turns

    gc.collect()  # as a batch of the balance lab starts (sgsdsl.engine.collector.settle)
    gc.freeze()
    play_one(program, args.mode, args.players, args.seed, agents=(args.agents,))  # (imports and caches warm)
    start = time.process_time()
    turns = play()
    spent = time.process_time() - start
    print(f"{args.games} games ({args.engine}, {args.agents} agents, {args.players} players, seeds {seeds.start}-"
          f"{seeds.stop - 1}, native: {os.environ.get('SGSDSL_NATIVE', 'default')}): {args.games / spent:.1f} games/s, "
          f"{1e6 * spent / max(turns, 1):.0f} µs a turn, {turns / args.games:.1f} turns a game")

    prof = cProfile.Profile()
    prof.enable()
    play()
    prof.disable()
    stats = pstats.Stats(prof)
    print(f"\nown time by source file (cProfile, top {args.top}):")
    for name, share in by_file(stats)[: args.top]:
        print(f"{share:5.1f} %  {name}")
    print(f"\ntop functions by {args.sort}:")
    stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
