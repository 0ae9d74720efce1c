#!/usr/bin/env python
"""Cross-check compiled rules against the reference interpreter over many games.

    python scripts/crosscheck.py --games 2000            # standard + junzheng + mini, all player counts and generals
    python scripts/crosscheck.py --games 1000 --rules junzheng   # the 160-card deck (standard + 军争)
    python scripts/crosscheck.py --games 200 --rules mini --jobs 2
    python scripts/crosscheck.py --games 100 --rules docs/examples/xunbing.sgs   # any .sgs file
    python scripts/crosscheck.py --games 1000 --rules 3v3 --mode three_v_three    # one mode of a rule set

Game i of a rule set cycles modes and player counts and rotates the drawn generals, so a few hundred
games cover every player count and every general. Exit 1 on any difference; each one is printed as a
`REGRESSIONS.append(GameSpec(...))` line for tests/test_crosscheck.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sgsdsl.compiler.crosscheck import compare, load_pair, spec_for  # noqa: E402

_PAIRS: dict = {}


def _work(job: tuple[str, int, int, int, str | None]) -> dict:
    rules, start, stop, base, only_mode = job
    if rules not in _PAIRS:
        _PAIRS[rules] = load_pair(rules)
    compiled, interpreted = _PAIRS[rules]
    out = {"games": 0, "bad": [], "players": Counter(), "generals": Counter(), "errors": Counter(), "modes": Counter()}
    for i in range(start, stop):
        spec = spec_for(i, rules, compiled, base, only_mode)
        problem, outcome = compare(spec, compiled, interpreted)
        out["games"] += 1
        out["players"][spec.players] += 1
        out["modes"][spec.mode] += 1
        for g in outcome.generals:
            out["generals"][g] += 1
        if outcome.error:
            out["errors"][outcome.error[0]] += 1
        if problem:
            out["bad"].append(f"{problem}\n  {spec.as_regression()}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="total games (split over the rule sets)")
    ap.add_argument("--rules", default="standard,junzheng,mini",
                    help="rule sets, comma separated: standard, junzheng (160 cards), mini, or a .sgs path")
    ap.add_argument("--seed", type=int, default=0, help="base seed")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--mode", default=None, help="play only this mode of each rule set (default: cycle all modes)")
    args = ap.parse_args()
    rule_sets = [r for r in args.rules.split(",") if r]
    usable = []
    for r in rule_sets:
        got = load_pair(r)
        if isinstance(got, str):
            print(f"skipping {r}: {got}")
            continue
        if args.mode and args.mode not in got[0].modes:
            print(f"skipping {r}: no mode {args.mode}")
            continue
        usable.append((r, got[0]))
    if not usable:
        print("nothing to cross-check")
        return 1
    t0 = time.perf_counter()
    jobs = []
    per = args.games // len(usable)
    for k, (r, _) in enumerate(usable):
        n = per + (args.games - per * len(usable) if k == 0 else 0)
        step = max(1, n // (args.jobs * 8))
        jobs += [(r, s, min(n, s + step), args.seed, args.mode) for s in range(0, n, step)]
    results: dict[str, dict] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for job, res in zip(jobs, pool.map(_work, jobs), strict=True):
            acc = results.setdefault(job[0], {"games": 0, "bad": [], "players": Counter(), "generals": Counter(),
                                              "errors": Counter(), "modes": Counter()})
            acc["games"] += res["games"]
            acc["bad"] += res["bad"]
            for key in ("players", "generals", "errors", "modes"):
                acc[key].update(res[key])
    secs = time.perf_counter() - t0
    total_bad = 0
    for r, program in usable:
        acc = results.get(r)
        if acc is None:
            continue
        names = {g.name for g in program.generals.values()}
        unseen = sorted(names - set(acc["generals"]))
        print(f"[{r}] {acc['games']} games · modes {dict(sorted(acc['modes'].items()))} · "
              f"player counts {dict(sorted(acc['players'].items()))}")
        print(f"[{r}] generals played: {len(names) - len(unseen)}/{len(names)}"
              + (f" (never: {', '.join(unseen)})" if unseen else " (all)"))
        if acc["errors"]:
            print(f"[{r}] games that ended in the same rule error on both sides: {dict(acc['errors'])}")
        print(f"[{r}] mismatches: {len(acc['bad'])}")
        for b in acc["bad"][:10]:
            print("  " + b)
        total_bad += len(acc["bad"])
    print(f"cross-check: {sum(a['games'] for a in results.values())} games, {total_bad} mismatch(es), "
          f"{secs:.1f} s with {args.jobs} job(s)")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
