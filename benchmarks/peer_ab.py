#!/usr/bin/env python
"""sgsdsl against the most complete Python peer engine (sanguosha-zhongduanban), side by side in one run.

Issue 30 states its speed target against that peer ("heuristic-agent games at 8 players ≥ 2x the peer's heuristic
AI, on the Python engine"); earlier figures estimated the peer from the issue's own numbers. This times both: an
sgsdsl worker (bench.py's) and one peer worker per AI level (peer_worker.py, under the peer's interpreter) take
turns a chunk of seeded games at a time, the order turned round at every chunk, so the machine's swings hit every
side alike. Rates are per CPU second of each worker's games.

    git clone https://github.com/nevergoodstudy-hub/sanguosha-zhongduanban /tmp/peer
    python3 -m venv /tmp/peer-venv && /tmp/peer-venv/bin/pip install rich pydantic==2.12.5 websockets
    python3 benchmarks/peer_ab.py /tmp/peer --peer-python /tmp/peer-venv/bin/python              # Python engine
    python3 benchmarks/peer_ab.py /tmp/peer --peer-python /tmp/peer-venv/bin/python --native     # native build

The peer is not a dependency and nothing of it is bundled: the script only drives its public headless API. Its
games are not sgsdsl's games (its own card set, generals and AI), so the figures compare what a balance run gets
per CPU second, with turns per game beside them to say how long each engine's games are.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench import ROOT, _count, alternate, spawn_worker  # noqa: E402

# The issues' targets against this peer, by sgsdsl's agents and engine: issue 15 (random agents, Python engine: twice
# the peer), issue 35 (with what the README installs, the native build: random 4x, heuristic 2x) and issue 30
# (heuristic agents on the Python engine: 2x).
TARGETS = {("random", False): 2.0, ("random", True): 4.0, ("heuristic", False): 2.0, ("heuristic", True): 2.0}


def spawn_peer(peer: Path, python: str, difficulty: str, hash_seed: int) -> subprocess.Popen:
    """A long-lived peer_worker.py process playing the peer's games at DIFFICULTY under its own interpreter."""
    env = {**os.environ, "PYTHONPATH": str(peer), "PYTHONHASHSEED": str(hash_seed)}
    proc = subprocess.Popen([python, str(HERE / "peer_worker.py"), "--difficulty", difficulty],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=peer)
    if not proc.stdout.readline():
        proc.wait()
        raise SystemExit(f"the peer worker ({python} in {peer}) did not start (exit code {proc.returncode}); "
                         "does that interpreter have the peer's dependencies?")
    return proc


def measure(args: argparse.Namespace) -> dict:
    """Per side: games, CPU seconds, games/s, turns per game; per round the ratio sgsdsl / each peer level."""
    sides = ["sgsdsl"] + [f"peer {d}" for d in args.difficulty]
    sums = {s: {"cpu": 0.0, "turns": 0, "digests": []} for s in sides}
    per_round: dict[str, list[float]] = {s: [] for s in sides[1:]}
    native = False
    for r in range(args.rounds):
        workers = {}
        workers["sgsdsl"], native = spawn_worker(ROOT, "1" if args.native else "0", hash_seed=r)
        if args.native and not native and r == 0:
            print("note: sgsdsl's native build is not active here (`sgsdsl native status`); timing the Python "
                  "engine", file=sys.stderr)
        for d in args.difficulty:
            workers[f"peer {d}"] = spawn_peer(args.peer, args.peer_python, d, r)
        totals = alternate(workers, ("compiled",), "identity", args.players, args.games, args.seed, args.chunk,
                           args.agents)
        for s in sides:
            t = totals[(s, "compiled")]
            sums[s]["cpu"] += t["cpu"]
            sums[s]["turns"] += t["turns"]
            sums[s]["digests"] += t["digests"]
        ours = args.games / totals[("sgsdsl", "compiled")]["cpu"]
        for s in sides[1:]:
            per_round[s].append(ours / (args.games / totals[(s, "compiled")]["cpu"]))
    games = args.games * args.rounds
    rows = {s: {"games": games, "cpu_s": round(sums[s]["cpu"], 3), "games_per_s": games / sums[s]["cpu"],
                "turns_per_game": sums[s]["turns"] / games,
                "same_games_every_round": _rounds_agree(sums[s]["digests"], args.rounds)}
            for s in sides}
    ratios = {s: {"ratio": rows["sgsdsl"]["games_per_s"] / rows[s]["games_per_s"],
                  "rounds": [round(x, 3) for x in per_round[s]]} for s in sides[1:]}
    return {"players": args.players, "agents": args.agents, "native": native, "seeds": [args.seed,
            args.seed + args.games - 1], "rounds": args.rounds, "sides": rows, "sgsdsl_over_peer": ratios,
            "target": TARGETS[(args.agents, native)]}


def _rounds_agree(digests: list[str], rounds: int) -> bool:
    """Every round played the same games on this side (a deterministic engine replays its seeds exactly)."""
    per = len(digests) // rounds
    return all(digests[r * per:(r + 1) * per] == digests[:per] for r in range(rounds))


def report(res: dict) -> str:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=130, record=True, file=io.StringIO())
    table = Table(title=f"{res['players']} players, seeds {res['seeds'][0]}–{res['seeds'][1]}, {res['rounds']} "
                        f"round(s); sgsdsl agents: {res['agents']}, engine: {'native' if res['native'] else 'Python'}")
    for col in ("side", "games/s (CPU)", "turns a game", "CPU s", "same games each round"):
        table.add_column(col, justify="right")
    for side, row in res["sides"].items():
        table.add_row(side, f"{row['games_per_s']:.1f}", f"{row['turns_per_game']:.1f}", f"{row['cpu_s']:.1f}",
                      "yes" if row["same_games_every_round"] else "no")
    console.print(table)
    for side, r in res["sgsdsl_over_peer"].items():
        verdict = "met" if r["ratio"] >= res["target"] else "missed"
        console.print(f"sgsdsl / {side}: x{r['ratio']:.3f} (rounds {', '.join(f'x{x:.3f}' for x in r['rounds'])}); "
                      f"target x{res['target']:.1f}: {verdict}")
    return console.export_text()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("peer", type=Path, help="a checkout of the peer engine (it has game/engine.py)")
    ap.add_argument("--peer-python", default=sys.executable,
                    help="the interpreter with the peer's dependencies (default: this one)")
    ap.add_argument("--difficulty", nargs="+", choices=("easy", "normal", "hard"), default=["normal", "hard"],
                    help="the peer's AI levels to time (easy plays at random; normal and hard are its heuristics)")
    ap.add_argument("--agents", choices=("random", "heuristic"), default="heuristic", help="sgsdsl's agents")
    ap.add_argument("--native", action="store_true", help="sgsdsl on its native build (default: the Python engine)")
    ap.add_argument("--players", type=_count(2), default=8)
    ap.add_argument("--games", type=_count(1), default=40, help="games per side and round")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=_count(1), default=5, help="games per turn of each worker")
    ap.add_argument("--rounds", type=_count(1), default=2, help="fresh sets of workers, each with its own hash seed")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    args = ap.parse_args(argv)
    args.peer = args.peer.resolve()
    if not (args.peer / "game" / "engine.py").is_file():
        ap.error(f"{args.peer} is not a checkout of the peer engine (no game/engine.py)")
    if not Path(args.peer_python).is_file():
        ap.error(f"--peer-python {args.peer_python}: no such interpreter")
    if args.players > 8:
        ap.error(f"--players {args.players}: the peer plays 2 to 8 players")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    res = measure(args)
    print(json.dumps(res, indent=2) if args.json else report(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
