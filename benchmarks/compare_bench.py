#!/usr/bin/env python
"""Benchmark: a paired variant comparison, the way `sgsdsl compare` runs it (every seed under both variants,
spread over worker processes).

    python benchmarks/compare_bench.py                          # 400 paired games, 8 players, all cores
    python benchmarks/compare_bench.py --games 2000 --jobs 2 --json

Variant A is identity mode as bundled, B the same with `two_renegades`. It reports paired games per second
and the projected time of the design target: a 10,000-game paired comparison at 8 players in at most one
minute on 2 cores (20,000 games, so about 333 games/s).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgsdsl.lab.compare import compare  # noqa: E402
from sgsdsl.lab.runner import default_jobs, run  # noqa: E402
from sgsdsl.lab.variant import Variant  # noqa: E402

TARGET_GAMES = 10_000
TARGET_SECONDS = 60.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400, help="paired games (each played under both variants)")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--agents", default="random")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rules = (str(ROOT / "rules" / "standard.sgs"),)
    agents = tuple(args.agents.split(","))
    a = Variant(rules, players=args.players, agents=agents, label="A")
    b = Variant(rules, players=args.players, agents=agents, options=(("two_renegades", True),), label="B")
    seeds = list(range(1, args.games + 1))
    start = time.perf_counter()
    ra = run(a, seeds, args.jobs)
    rb = run(b, seeds, args.jobs)
    seconds = time.perf_counter() - start
    result = compare(ra, rb, ["lord+loyalist", "renegade", "rebel"])
    per_s = args.games / seconds
    projected = TARGET_GAMES / per_s
    out = {"paired_games": args.games, "players": args.players, "jobs": args.jobs, "agents": list(agents),
           "seconds": round(seconds, 2), "paired_games_per_s": round(per_s, 1),
           "games_per_s": round(2 * per_s, 1), "projected_10000_s": round(projected, 1),
           "target_s": TARGET_SECONDS, "times_over_target": round(projected / TARGET_SECONDS, 2),
           "widest_interval": round(result.max_width(), 4)}
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        print(f"{args.games} paired games ({2 * args.games} games) at {args.players} players on {args.jobs} "
              f"worker(s): {seconds:.1f} s, {per_s:.1f} paired games/s")
        print(f"projected 10,000 paired games: {projected:.0f} s (target {TARGET_SECONDS:.0f} s: "
              f"{projected / TARGET_SECONDS:.1f}x over)" if projected > TARGET_SECONDS else
              f"projected 10,000 paired games: {projected:.0f} s (within the {TARGET_SECONDS:.0f} s target)")


if __name__ == "__main__":
    main()
