#!/usr/bin/env python3
"""Front-end fuzz campaign (opt-in): parser, loader, checker and diagnostics must survive anything.

    python3 scripts/fuzz_frontend.py --examples 100000 --workers 2 [--seed 1] [--limit 10]

Each worker runs Hypothesis with its own seed over a mix of inputs: programs generated from the grammar
(45%), token-level mutations of the small rules files (tests/fixtures/mini.sgs, the hostile corpus
tests/hostile/ when it exists, tests/bad/) (53%), and mutations of the bundled rules files (2%), in chunks
of 2,000 (progress on stderr). Worker 0 also checks every hostile and bad-corpus file as it is. An input
fails when the front end raises anything (a traceback), when a diagnostic has an unknown code or a position
outside its file, or when one check takes more than LIMIT seconds of CPU (a wall-clock watchdog at 6 x LIMIT
stops anything that blocks). The report gives the number of inputs run, the slowest input's time and the
wall time; a failing input is saved under the work folder. Exit 0 when nothing
failed. (`pytest -m fuzz` runs a shorter Hypothesis-only version from tests/test_lang_fuzz.py.)
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHUNK = 2_000
WALL_FACTOR = 6


class TooSlow(Exception):
    """A single front-end run went over the time limit."""


def corpus_files() -> list[Path]:
    """The hostile corpus (when it exists) and the bad-input corpus: checked as they are, and mutated."""
    return [p for d in ("hostile", "bad") for p in sorted((ROOT / "tests" / d).rglob("*.sgs"))]


def _utf8(data: bytes) -> bool:
    """Mutation seeds are edited as text; the corpus files that are not UTF-8 are checked as they are."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def run_worker(examples: int, seed: int, limit: float, out: Path, check_corpus: bool) -> int:
    sys.path.insert(0, str(ROOT / "tests"))
    import test_lang_fuzz as lf
    from hypothesis import given, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st

    stats = {"inputs": 0, "slowest": 0.0, "slowest_kind": "", "slowest_wall": 0.0}

    def alarm(signum, frame):  # noqa: ARG001 - signal handler signature
        raise TooSlow(f"one front-end run used more than {limit:g} s of CPU (or {WALL_FACTOR * limit:g} s of wall)")

    signal.signal(signal.SIGPROF, alarm)
    signal.signal(signal.SIGALRM, alarm)

    def one(data: bytes, kind: str) -> None:
        # the limit is CPU time (a machine shared by many processes stretches wall time, not work); a generous
        # wall-clock watchdog still stops anything that would block
        signal.setitimer(signal.ITIMER_PROF, limit)
        signal.setitimer(signal.ITIMER_REAL, WALL_FACTOR * limit)
        start, cpu = time.perf_counter(), time.process_time()
        try:
            lf.assert_front_end_survives(data)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            secs, cpu = time.perf_counter() - start, time.process_time() - cpu
            stats["inputs"] += 1
            stats["slowest_wall"] = max(stats["slowest_wall"], secs)
            if cpu > stats["slowest"]:
                stats["slowest"], stats["slowest_kind"] = cpu, kind
        if cpu > limit:
            raise TooSlow(f"one front-end run used {cpu:.1f} s of CPU (limit {limit:g} s)")

    corpus = corpus_files()
    small = dict(lf.SMALL)
    small.update({p.name: p.read_bytes() for p in corpus if p.stat().st_size < 10_000 and _utf8(p.read_bytes())})
    failure: dict[str, object] | None = None
    try:
        if check_corpus:
            for p in corpus:
                one(p.read_bytes(), f"corpus {p.relative_to(ROOT)}")
        # 45% grammar-generated, 53% mutated small files (with the corpora), 2% mutated bundled rules files
        # (those cost ten times more each; they are the mutation seeds of `pytest -m fuzz` too)
        mix = st.one_of(
            *[lf.grammar_programs().map(lambda s: ("grammar", s.encode("utf-8")))] * 45,
            *[lf.mutated(small).map(lambda b: ("mutated small", b))] * 53,
            *[lf.mutated(lf.SEEDS).map(lambda b: ("mutated rules", b))] * 2,
        )

        def campaign(item: tuple[str, bytes]) -> None:
            kind, data = item
            try:
                one(data, kind)
            except Exception:
                (out / f"failing-{seed}.sgs").write_bytes(data)
                raise

        done = stats["inputs"]
        chunk = 0
        while stats["inputs"] - done < examples:  # chunks keep Hypothesis' memory bounded
            n = min(CHUNK, examples - (stats["inputs"] - done))
            hseed(seed * 100_000 + chunk)(settings(max_examples=n, **lf.COMMON)(given(mix)(campaign)))()
            chunk += 1
            print(f"seed {seed}: {stats['inputs']} inputs, slowest {stats['slowest']:.2f} s", file=sys.stderr,
                  flush=True)
    except BaseException as err:  # noqa: BLE001 - the report says what failed
        lines = [ln[:300] for ln in traceback.format_exc().splitlines()]
        failure = {"error": f"{type(err).__name__}: {str(err)[:2000]}", "traceback": "\n".join(lines[-60:])}
    print(json.dumps({**stats, "failure": failure}))
    return 1 if failure else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=100_000, help="inputs in total (default 100000)")
    ap.add_argument("--workers", type=int, default=2, help="parallel processes (default 2)")
    ap.add_argument("--seed", type=int, default=1, help="first Hypothesis seed; worker i uses seed+i")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds one input may take (default 10)")
    ap.add_argument("--work", type=Path, help="folder for failing inputs (default: a new temp folder)")
    ap.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.examples < 1 or args.workers < 1 or args.limit <= 0:
        ap.error("--examples, --workers and --limit must be positive")
    work = args.work or Path(tempfile.mkdtemp(prefix="sgs-fuzz-campaign-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.worker is not None:
        return run_worker(args.examples, args.seed, args.limit, work, check_corpus=args.worker == 0)
    workers = min(args.workers, args.examples)
    share = [args.examples // workers + (1 if i < args.examples % workers else 0) for i in range(workers)]
    start = time.monotonic()
    procs = []
    for i, n in enumerate(share):
        cmd = [sys.executable, __file__, "--worker", str(i), "--examples", str(n), "--seed", str(args.seed + i),
               "--limit", str(args.limit), "--work", str(work)]
        log = open(work / f"worker-{i}.log", "w", encoding="utf-8")  # noqa: SIM115 - closed with the process
        procs.append((n, subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True,
                                          env=dict(os.environ, PYTHONHASHSEED="0",
                                                          SGSDSL_CACHE=str(work / "cache")))))
    total, slowest, failed = 0, 0.0, 0
    for i, (_n, p) in enumerate(procs):
        out, _ = p.communicate()
        try:
            report = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            tail = (work / f"worker-{i}.log").read_text(encoding="utf-8")[-2000:]
            report = {"inputs": 0, "slowest": 0.0, "slowest_kind": "", "slowest_wall": 0.0, "failure": {"error": tail}}
        total += report["inputs"]
        slowest = max(slowest, report["slowest"])
        status = "ok" if p.returncode == 0 and not report["failure"] else "FAILED"
        print(f"worker {i}: seed {args.seed + i}, {report['inputs']} inputs, slowest {report['slowest']:.2f} s CPU "
              f"({report['slowest_kind']}; slowest wall {report.get('slowest_wall', 0):.2f} s): {status}")
        if status != "ok":
            failed += 1
            print(report["failure"].get("error", ""))
            print(report["failure"].get("traceback", ""))
    secs = time.monotonic() - start
    print(f"{total} inputs ({len(corpus_files())} corpus files) in {secs:.0f} s with {workers} worker(s); slowest "
          f"input {slowest:.2f} s CPU (limit {args.limit:g} s): {'no failure' if not failed else f'{failed} failed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
