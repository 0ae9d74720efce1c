#!/usr/bin/env python3
"""Long fuzz run of the .sgs front end (parser, loader, checker, diagnostics).

    python scripts/fuzz_frontend.py --examples 10000 [--workers 2] [--seed 1]

Runs the opt-in Hypothesis test `tests/test_lang_fuzz.py::test_fuzz_front_end_long` (grammar-generated
programs and mutations of tests/fixtures/mini.sgs and rules/*.sgs) in WORKERS processes with different
seeds, EXAMPLES in total, and reports how long it took. Exit status 0 when no example failed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=10_000, help="examples in total (default 10000)")
    ap.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 1)), help="parallel processes")
    ap.add_argument("--seed", type=int, default=1, help="first Hypothesis seed; worker i uses seed+i")
    args = ap.parse_args(argv)
    if args.examples < 1 or args.workers < 1:
        ap.error("--examples and --workers must be positive")
    workers = min(args.workers, args.examples)
    share = [args.examples // workers + (1 if i < args.examples % workers else 0) for i in range(workers)]
    start = time.monotonic()
    procs = []
    for i, n in enumerate(share):
        env = dict(os.environ, SGS_FUZZ_EXAMPLES=str(n))
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "fuzz",
               f"--hypothesis-seed={args.seed + i}", "--hypothesis-show-statistics",
               "tests/test_lang_fuzz.py::test_fuzz_front_end_long"]
        procs.append((n, subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                          text=True)))
    failed = 0
    for i, (n, p) in enumerate(procs):
        out, _ = p.communicate()
        status = "ok" if p.returncode == 0 else f"FAILED (exit {p.returncode})"
        stats = [ln.strip(" -") for ln in out.splitlines() if "passing" in ln and "examples" in ln]
        print(f"worker {i}: {n} examples, seed {args.seed + i}: {status}" + (f" ({stats[0]})" if stats else ""))
        if p.returncode != 0:
            failed += 1
            print(out)
    secs = time.monotonic() - start
    print(f"{args.examples} examples in {secs:.1f} s with {workers} worker(s): "
          f"{'no failure' if not failed else f'{failed} worker(s) failed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
