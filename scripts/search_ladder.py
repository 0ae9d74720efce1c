#!/usr/bin/env python
"""The search rows of the agent ladder: `scripts/agent_ladder.py`'s rungs (each seed in both seat orders, per role
with Wilson intervals, the paired overall difference), then the same pooled over every rung.

    python -u scripts/search_ladder.py --a search:16 --b heuristic --games 5:90,8:45 --jobs 2 --out ladder.jsonl
    python scripts/search_ladder.py --pool ladder.jsonl other.jsonl      # pool rungs saved by earlier runs

--games is the number of seeds per rung, one for all (`40`) or per player count (`5:90,8:45`: 8-player games cost
about twice as much). Each rung is printed as soon as it is played, and with --out also appended to a JSON-lines
file (a long run leaves what it finished; runs made side by side pool with --pool). The pooled lines: per role,
each kind's wins over all rungs with intervals (significantly worse: A's interval wholly below B's), and A's
per-seat win rate minus B's, seed by seed and rung by rung, with its 95% interval. Exit 1 unless A is ahead
overall (interval above 0) and significantly worse in no role.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from agent_ladder import check_kind, pct, report, role_key, rule_files, tally  # noqa: E402

from sgsdsl.lab.runner import default_jobs  # noqa: E402
from sgsdsl.lab.stats import Rate, mean_interval  # noqa: E402


def seeds_per_rung(text: str, players: Sequence[int]) -> dict[int, int]:
    """`40` (every player count) or `5:90,8:45` (per player count) -> {players: seeds}."""
    try:
        if ":" not in text:
            return {n: int(text) for n in players}
        given = {int(k): int(v) for k, v in (part.split(":") for part in text.split(",") if part.strip())}
    except ValueError:
        raise SystemExit(f"--games: a number of seeds, or players:seeds pairs (5:90,8:45), not {text!r}") from None
    missing = [n for n in players if n not in given]
    if missing:
        raise SystemExit(f"--games names no seed count for {', '.join(map(str, missing))} players")
    return {n: given[n] for n in players}


def pooled(rungs: list[dict[str, Any]]) -> bool:
    """Print the pooled tables of RUNGS (as saved: kinds, paired, per_role); whether A is ahead overall,
    significantly, and significantly worse in no role."""
    a, b = rungs[0]["kinds"]
    paired: list[float] = []
    per_role: dict[tuple[str, str], list[int]] = {}
    for rung in rungs:
        if tuple(rung["kinds"]) != (a, b):
            raise SystemExit(f"--pool: rungs of {rung['kinds']} and of {[a, b]} do not pool")
        paired += rung["paired"]
        for kind, role, k, m in rung["per_role"]:
            e = per_role.setdefault((kind, role), [0, 0])
            e[0] += k
            e[1] += m
    print(f"\n### Pooled over {len(rungs)} rungs: {a} (A) against {b} (B)\n")
    print("| rung | seeds | A − B per seat, paired by seed | seconds |")
    print("|---|---|---|---|")
    for rung in rungs:
        m, lo, hi = mean_interval(rung["paired"])
        print(f"| {rung['rules']}, {rung['players']} players | {rung['seed']}–{rung['seed'] + len(rung['paired']) - 1}"
              f" | {100 * m:+.1f} ({100 * lo:+.1f} … {100 * hi:+.1f}) | {rung['seconds']:.0f} |")
    print(f"\n| role | {a} | 95% interval | {b} | 95% interval | A vs B |")
    print("|---|---|---|---|---|---|")
    worse = False
    for role in sorted({role for _, role in per_role}, key=role_key):
        ra, rb = (Rate(*per_role.get((k, role), [0, 0])) for k in (a, b))
        verdict = "above" if ra.interval[0] > rb.interval[1] else \
            "**worse**" if ra.interval[1] < rb.interval[0] else "overlap"
        worse |= verdict == "**worse**"
        print(f"| {role} | {pct(ra)} | {pct(rb)} | {verdict} |")
    m, lo, hi = mean_interval(paired)
    sig = "significant" if lo > 0 or hi < 0 else "not significant"
    print(f"\nOverall, A's per-seat win rate minus B's, paired by seed over {len(paired)} seed-rungs: "
          f"{100 * m:+.1f} points ({100 * lo:+.1f} … {100 * hi:+.1f}, {sig}); "
          f"{sum(r['seconds'] for r in rungs):.0f} s of rung time.", flush=True)
    return lo > 0 and not worse


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="search")
    ap.add_argument("--b", default="heuristic")
    ap.add_argument("--players", default="5,8")
    ap.add_argument("--rules", action="append", help="bundled rule sets of one rung (repeatable; default: "
                    "standard, and standard,junzheng,lin,shan)")
    ap.add_argument("--games", default="16", help="seeds per rung (each played in both seat orders): N, or "
                    "players:N pairs such as 5:90,8:45")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--out", type=Path, help="append each rung, as it finishes, to this JSON-lines file")
    ap.add_argument("--pool", nargs="+", type=Path, metavar="FILE", help="play nothing: pool the rungs saved in "
                    "these files (--out)")
    args = ap.parse_args(argv)
    if args.pool:
        rungs = []
        for path in args.pool:
            try:
                rungs += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            except (OSError, ValueError) as err:
                raise SystemExit(f"--pool {path}: {err}") from None
        if not rungs:
            raise SystemExit("--pool: no rungs in the files given")
        return 0 if pooled(rungs) else 1
    kinds = (check_kind(args.a), check_kind(args.b))
    players = [int(p) for p in args.players.split(",") if p.strip()]
    games = seeds_per_rung(args.games, players)
    done: list[dict[str, Any]] = []
    for names in args.rules or ["standard", "standard,junzheng,lin,shan"]:
        for n in players:
            rung = tally(n, games[n], args.jobs, args.seed, rule_files(names), kinds, alone=False)
            report(rung, games[n], args.seed)
            saved = {"rules": rung.rules, "players": n, "seed": args.seed, "kinds": list(kinds),
                     "paired": rung.paired, "seconds": rung.seconds,
                     "per_role": [[k, role, w, m] for (k, role), (w, m) in sorted(rung.per_role.items())]}
            done.append(saved)
            if args.out:
                with args.out.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(saved, ensure_ascii=False) + "\n")
            print(f"\n({rung.seconds:.0f} s for this rung)", flush=True)
    return 0 if pooled(done) else 1


if __name__ == "__main__":
    raise SystemExit(main())
