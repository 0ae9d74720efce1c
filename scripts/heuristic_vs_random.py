#!/usr/bin/env python
"""The heuristic agent against random agents, seat for seat: every seed is played twice, once with the seats
alternating heuristic/random and once random/heuristic, so each agent kind sits in every seat and role equally
often. Prints, per role, each kind's wins with a Wilson 95% interval (a Markdown table) and whether the
heuristic agent's interval lies wholly above the random agent's.

    python scripts/heuristic_vs_random.py --players 8 --games 1000 --jobs 2

Per-seat wins within one game are correlated (two loyalists win together), so the intervals are a little
optimistic; the per-game figures of `sgsdsl simulate` are exact binomial proportions.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgsdsl.lab.runner import default_jobs, run  # noqa: E402
from sgsdsl.lab.stats import Rate  # noqa: E402
from sgsdsl.lab.variant import Variant  # noqa: E402

KINDS = ("heuristic", "random")


def tally(players: int, games: int, jobs: int, seed: int, rules: str) -> dict[tuple[str, str], list[int]]:
    """(agent kind, role) -> [wins, seats played], over both seat orders."""
    out: dict[tuple[str, str], list[int]] = {}
    seeds = list(range(seed, seed + games))
    for order in (KINDS, KINDS[::-1]):
        variant = Variant(paths=(rules,), players=players, agents=order)
        for r in run(variant, seeds, jobs):
            if r.reason == "error":
                raise SystemExit(f"engine error: {r.error}")
            for seat, (kind, role) in enumerate(zip(r.agents, r.roles, strict=True)):
                e = out.setdefault((kind, role), [0, 0])
                e[0] += r.won(seat)
                e[1] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=1000, help="seeds; each is played in both seat orders")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--rules", default=str(ROOT / "rules" / "standard.sgs"))
    args = ap.parse_args()
    counts = tally(args.players, args.games, args.jobs, args.seed, str(Path(args.rules).resolve()))
    roles = sorted({role for _, role in counts}, key=lambda r: ("lord", "loyalist", "rebel", "renegade").index(r)
                   if r in ("lord", "loyalist", "rebel", "renegade") else 9)
    print(f"{args.players} players, seeds {args.seed}–{args.seed + args.games - 1}, each in both seat orders")
    print("| role | heuristic | 95% interval | random | 95% interval | heuristic above random |")
    print("|---|---|---|---|---|---|")
    all_better = True
    for role in roles:
        h, r = (Rate(*counts.get((k, role), [0, 0])) for k in KINDS)
        better = h.interval[0] > r.interval[1]
        all_better &= better
        cells = [f"{x.k}/{x.n} = {100 * x.rate:.1f}% | {100 * x.interval[0]:.1f}–{100 * x.interval[1]:.1f}%"
                 for x in (h, r)]
        print(f"| {role} | {cells[0]} | {cells[1]} | {'yes' if better else 'NO'} |")
    print("heuristic wins more often than random in every role" if all_better else
          "heuristic does NOT beat random in every role")
    raise SystemExit(0 if all_better else 1)


if __name__ == "__main__":
    main()
