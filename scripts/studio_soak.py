"""Soak the studio: a server left running while agents play watched games in a loop, its memory sampled.

    python3 scripts/studio_soak.py --minutes 30 [--players 8] [--rules standard,junzheng]

It serves a studio on loopback in this process, follows its event stream the way the page does (one client
reading every update), and starts a new watched game (no delay) whenever the last one has ended. Every
`--every` seconds it prints the games played, the updates read and the process's resident memory; at the end
the first and last thirds of the samples are compared. Exit 1 when memory grew by more than `--max-growth`
(default 15 %) from the first third to the last (after a warm-up), when a game stopped on an error, or when the
event stream broke (or outlived the studio: stopping it ends the stream cleanly).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from sgsdsl.cli.loading import rule_paths
from sgsdsl.studio.serve import start_studio
from sgsdsl.studio.workspace import Workspace


def rss_mib() -> float:
    """This process's resident memory (Linux /proc), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def follow_events(url: str, stop: threading.Event, counter: list[int], problems: list[str]) -> None:
    """Read the event stream as a page would, counting the updates. The studio ends the stream when it stops (the
    end of the soak); a stream that breaks before is a problem."""
    try:
        with httpx.Client(timeout=None) as client, client.stream("GET", url) as response:
            for line in response.iter_lines():
                if line.startswith("event: state"):
                    counter[0] += 1
                if stop.is_set():
                    return
    except httpx.HTTPError as err:
        if not stop.is_set():
            problems.append(f"the event stream broke: {type(err).__name__}: {err}")
        return
    if not stop.is_set():
        problems.append("the event stream ended while the studio was running")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--rules", default="standard,junzheng")
    ap.add_argument("--opponents", default="heuristic")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between memory samples")
    ap.add_argument("--max-growth", type=float, default=0.15)
    ap.add_argument("--warmup", type=float, default=60.0, help="seconds of samples left out (caches filling)")
    args = ap.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="studio-soak-"))
    ws = Workspace(rule_paths([], args.rules), [])
    if not ws.reload():
        print("the rules do not check", file=sys.stderr)
        return 1
    defaults = {"mode": "identity", "players": args.players, "seat": 0, "seed": 1, "opponents": args.opponents,
                "general": "", "pool": "", "options": ""}
    served, _ = start_studio(ws, [], args.rules, [], folder / "logs", defaults, 0, in_thread=True)
    studio = served.studio
    while not served.server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{studio.port}"
    stop = threading.Event()
    updates = [0]
    problems: list[str] = []
    reader = threading.Thread(target=follow_events, daemon=True,
                              args=(f"{base}/api/events?t={studio.token}", stop, updates, problems))
    reader.start()
    client = httpx.Client(base_url=base, headers={"X-Studio-Token": studio.token}, timeout=60)
    games, errors, seed = 0, 0, 0
    samples: list[float] = []
    start = time.monotonic()
    next_sample = start
    try:
        while time.monotonic() - start < args.minutes * 60:
            run = studio.sessions.current
            if run is None or not run.thread.is_alive():
                if run is not None:
                    games += 1
                    errors += run.error is not None
                seed += 1
                r = client.post("/api/start", json={"watch": True, "delay": 0, "seed": seed})
                if r.status_code != 200:
                    print(f"start refused: {r.text}", file=sys.stderr)
                    return 1
            if time.monotonic() >= next_sample:
                if time.monotonic() - start >= args.warmup:
                    samples.append(rss_mib())
                print(f"{(time.monotonic() - start) / 60:6.1f} min  games {games:5d}  updates {updates[0]:7d}  "
                      f"rss {rss_mib():7.1f} MiB", flush=True)
                next_sample += args.every
            time.sleep(0.05)
    finally:
        stop.set()
        client.close()
        served.stop()  # ends the event stream first (the reader sees its end), then the server
        reader.join(10)
    if reader.is_alive():
        problems.append("the event stream was still open after the studio stopped")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not samples:
        samples.append(rss_mib())
    third = max(1, len(samples) // 3)
    early, late = sum(samples[:third]) / third, sum(samples[-third:]) / third
    growth = late / early - 1
    print(f"played {games} games ({errors} stopped on errors), {updates[0]} updates read; memory "
          f"{early:.1f} MiB in the first third, {late:.1f} MiB in the last ({growth:+.1%}), peak {max(samples):.1f}")
    return 1 if errors or problems or growth > args.max_growth else 0


if __name__ == "__main__":
    sys.exit(main())
