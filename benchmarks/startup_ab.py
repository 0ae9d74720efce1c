#!/usr/bin/env python
"""`check rules/` and `compile rules/` cold starts of two checkouts side by side (bench.py's `cold_starts`, the two
checkouts taking turns ROUNDS times, so a busy machine slows both alike), and the lines their `generated/` holds.

    git archive dc021c9 | tar -x -C /tmp/before    # or any checkout
    python3 benchmarks/startup_ab.py /tmp/before [AFTER] --rounds 3
    python3 benchmarks/startup_ab.py /tmp/before --rules /tmp/before/rules   # both on the same rule files

Each checkout checks and compiles its own rules/ unless --rules names one folder for both: rule files added since
the older checkout are more work, not a slower start, so `--rules BEFORE/rules` compares the same input.

Prints, per command and cache state, the best wall and CPU seconds of each checkout and their ratio (after/before).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import ROOT, cold_starts  # noqa: E402

STATES = (("cache warm", "wall_s", "cpu_s"), ("stored results dropped", "no_results_wall_s", "no_results_cpu_s"),
          ("cache empty", "empty_cache_wall_s", "empty_cache_cpu_s"))


def generated_lines(code: Path) -> int:
    return sum(p.read_text(encoding="utf-8").count("\n") for p in sorted((code / "generated").glob("*.py")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after", nargs="?", default=str(ROOT))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rules", default=None, help="one rule folder for both checkouts (default: each its own rules/)")
    args = ap.parse_args()
    codes = {"before": Path(args.before).resolve(), "after": Path(args.after).resolve()}
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    for r in range(args.rounds):
        for side in (("before", "after") if r % 2 == 0 else ("after", "before")):
            runs[side].append(cold_starts(codes[side], repeats=1,
                                          rules=str(Path(args.rules).resolve()) if args.rules else "rules/"))
    best = {side: {cmd: {k: min(run[cmd][k] for run in runs[side]) for k in runs[side][0][cmd]}
                   for cmd in ("check", "compile")} for side in runs}
    lines = {side: generated_lines(code) for side, code in codes.items()}
    if args.json:
        print(json.dumps({"best": best, "generated_lines": lines, "rounds": args.rounds}, indent=1))
        return 0
    print(f"generated/ lines: before {lines['before']:,}, after {lines['after']:,}")
    print(f"best of {args.rounds} alternating rounds on {args.rules or 'each checkout’s own rules/'}; seconds before "
          "-> after (after/before)")
    for cmd in ("check", "compile"):
        for state, wall, cpu in STATES:
            b, a = best["before"][cmd], best["after"][cmd]
            print(f"  {cmd} rules/, {state}: wall {b[wall]:.2f} -> {a[wall]:.2f} (x{a[wall] / b[wall]:.2f}) · "
                  f"CPU {b[cpu]:.2f} -> {a[cpu]:.2f} (x{a[cpu] / b[cpu]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
