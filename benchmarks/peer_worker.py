#!/usr/bin/env python
"""The other side of `peer_ab.py`: plays the Python peer engine's headless games (sanguosha-zhongduanban's
`GameEngine.setup_headless_game` / `run_headless_battle`) in chunks asked on stdin, answering as bench.py's
worker does (CPU seconds, turns, decisions, a digest of the outcomes), so `bench.alternate` can take turns between
this process and an sgsdsl worker.

Runs under the peer's own interpreter (it needs the peer's dependencies, pydantic among them), with the peer's
checkout as its working folder. It imports nothing of sgsdsl: the two engines share no code in the timed process.
Everything the peer prints or logs is kept off stdout, which carries only the JSON answers.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import logging
import sys
import time

ROUND_CAP = 100  # the peer's own default for run_headless_battle


def play_chunk(players: int, difficulty: str, first_seed: int, count: int) -> dict:
    """COUNT seeded peer games from FIRST_SEED: CPU seconds, turns (rounds x seats, the peer counts rounds only),
    and the outcomes (winner, rounds, finished) whose digest says whether two runs played the same games."""
    from game.engine import GameEngine  # the peer's package, found on the working folder

    outcomes = []
    turns = 0
    cpu = 0.0
    for seed in range(first_seed, first_seed + count):
        c0 = time.process_time()
        engine = GameEngine()
        engine.setup_headless_game(players, ai_difficulty=difficulty, seed=seed)
        result = engine.run_headless_battle(max_rounds=ROUND_CAP)
        cpu += time.process_time() - c0
        turns += result["rounds"] * players
        outcomes.append((result["winner"], result["rounds"], result["finished"]))
    return {"cpu": cpu, "turns": turns, "decisions": 0, "outcomes": outcomes}


def serve(difficulty: str) -> int:
    """Answer chunk requests until stdin closes; the first game of each player count is played once untimed
    (imports and first-call caches are not the peer's cost, as bench.py's worker does for its side)."""
    answer = sys.stdout
    logging.disable(logging.CRITICAL)
    warm: set[int] = set()
    sink = io.StringIO()
    answer.write(json.dumps({"native": False, "difficulty": difficulty}) + "\n")
    answer.flush()
    for line in sys.stdin:
        ask = json.loads(line)
        players = int(ask["players"])
        with contextlib.redirect_stdout(sink):
            if players not in warm:
                warm.add(players)
                play_chunk(players, difficulty, ask["seed"], 1)
            got = play_chunk(players, difficulty, ask["seed"], ask["count"])
        sink.seek(0)
        sink.truncate()
        digest = hashlib.sha256(json.dumps(got["outcomes"]).encode()).hexdigest()
        answer.write(json.dumps({k: got[k] for k in ("cpu", "turns", "decisions")} | {"digest": digest}) + "\n")
        answer.flush()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--difficulty", default="normal", help="the peer's AI level: easy, normal or hard")
    return serve(ap.parse_args().difficulty)


if __name__ == "__main__":
    sys.exit(main())
