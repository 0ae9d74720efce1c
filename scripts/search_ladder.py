#!/usr/bin/env python
"""The search rows of the agent ladder: `scripts/agent_ladder.py`'s rungs (each seed in both seat orders, per role
with Wilson intervals, the paired overall difference), then the same pooled over every rung.

    python -u scripts/search_ladder.py --a search:8 --b heuristic --games 16 --jobs 2

Each rung is printed as soon as it is played (a long run leaves what it finished). The pooled lines: per role,
each kind's wins over all rungs with intervals (significantly worse: A's interval wholly below B's), and A's
per-seat win rate minus B's, seed by seed and rung by rung, with its 95% interval. Exit 1 unless A is ahead
overall (interval above 0) and significantly worse in no role.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from agent_ladder import check_kind, pct, report, role_key, rule_files, tally  # noqa: E402

from sgsdsl.lab.runner import default_jobs  # noqa: E402
from sgsdsl.lab.stats import Rate, mean_interval  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="search:8")
    ap.add_argument("--b", default="heuristic")
    ap.add_argument("--players", default="5,8")
    ap.add_argument("--rules", action="append", help="bundled rule sets of one rung (repeatable; default: "
                    "standard, and standard,junzheng,lin,shan)")
    ap.add_argument("--games", type=int, default=16, help="seeds per rung; each is played in both seat orders")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=default_jobs())
    args = ap.parse_args(argv)
    kinds = (check_kind(args.a), check_kind(args.b))
    start = time.perf_counter()
    paired: list[float] = []
    per_role: dict[tuple[str, str], list[int]] = {}
    for names in args.rules or ["standard", "standard,junzheng,lin,shan"]:
        for n in (int(p) for p in args.players.split(",") if p.strip()):
            rung = tally(n, args.games, args.jobs, args.seed, rule_files(names), kinds, alone=False)
            report(rung, args.games, args.seed)
            paired += rung.paired
            for key, (k, m) in rung.per_role.items():
                e = per_role.setdefault(key, [0, 0])
                e[0] += k
                e[1] += m
            print(f"\n({time.perf_counter() - start:.0f} s so far)", flush=True)
    a, b = kinds
    print(f"\n### Pooled over every rung: {a} (A) against {b} (B)\n")
    print(f"| role | {a} | 95% interval | {b} | 95% interval | A vs B |")
    print("|---|---|---|---|---|---|")
    worse = False
    for role in sorted({role for _, role in per_role}, key=role_key):
        ra, rb = (Rate(*per_role.get((k, role), [0, 0])) for k in kinds)
        verdict = "above" if ra.interval[0] > rb.interval[1] else \
            "**worse**" if ra.interval[1] < rb.interval[0] else "overlap"
        worse |= verdict == "**worse**"
        print(f"| {role} | {pct(ra)} | {pct(rb)} | {verdict} |")
    m, lo, hi = mean_interval(paired)
    sig = "significant" if lo > 0 or hi < 0 else "not significant"
    print(f"\nOverall, A's per-seat win rate minus B's, paired by seed over {len(paired)} seed-rungs: "
          f"{100 * m:+.1f} points ({100 * lo:+.1f} … {100 * hi:+.1f}, {sig}). "
          f"{time.perf_counter() - start:.0f} s in all.", flush=True)
    return 0 if lo > 0 and not worse else 1


if __name__ == "__main__":
    raise SystemExit(main())
