#!/usr/bin/env python
"""Benchmark: the search agent's cost per decision, side by side with the heuristic agent's, in one run.

Run from the repository root, on the native build (`python3 -m sgsdsl native build` first; `nice` it on a shared
machine):

    python benchmarks/search_bench.py                      # 8 players, 6 games, search at the default budget
    python benchmarks/search_bench.py --players 5 --games 10 --budget 32
    python benchmarks/search_bench.py --profile            # also: where a rollout's time goes, and the top functions

Each game seats one search agent (seat 0, then 1, … over the games, so it plays every role) among heuristic
agents. Timed with `time.process_time` (CPU time of this process: what one core delivers even when others compete
for it): every decide() call of each kind of agent, so both are measured in the same games. The search agent's
figure covers all its decisions (set-up and one-answer requests included) and, separately, the decisions it
searched; the snapshots the game keeps for it at each turn's start are counted apart, per turn.

--profile splits a rollout into its parts by timing them in place: the restore of the turn's snapshot, the replay
of the turn up to the decision, the determinization, the play to the horizon (policies), and the valuation.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgsdsl.ai import search as search_mod  # noqa: E402
from sgsdsl.ai.heuristic import HeuristicAgent  # noqa: E402
from sgsdsl.ai.search import DEFAULT_BUDGET, SearchAgent  # noqa: E402
from sgsdsl.api import check_paths, program_for  # noqa: E402
from sgsdsl.engine import snapshots  # noqa: E402
from sgsdsl.engine import turnflow as turnflow_mod  # noqa: E402
from sgsdsl.engine.game import Game  # noqa: E402
from sgsdsl.native import active as native_active  # noqa: E402
from sgsdsl.sim import agent_seed  # noqa: E402

clock = time.process_time


class Timed:
    """Wraps an agent: CPU time and count of its decide() calls."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.seconds = 0.0
        self.calls = 0
        for attr in ("name", "reads_view", "view_cards", "reads_options", "waits", "searches"):
            setattr(self, attr, getattr(inner, attr, None))
        self.uniform_bits = None  # (every decision goes through decide, to be timed: Agent.uniform_bits)

    def __getattr__(self, name: str) -> Any:  # what the game asks of an agent beyond decide (reads_view_for, …)
        return getattr(self.inner, name)

    def bind(self, handle: Any) -> None:
        self.inner.bind(handle)

    def decide(self, request: Any, view: Any) -> list[int]:
        t = clock()
        try:
            return self.inner.decide(request, view)
        finally:
            self.seconds += clock() - t
            self.calls += 1


class Parts:
    """Times the parts of rollouts in place (--profile)."""

    def __init__(self) -> None:
        self.t = {"snapshot": 0.0, "restore": 0.0, "replay": 0.0, "determinize": 0.0, "play": 0.0, "value": 0.0}
        self.n = {"snapshot": 0, "rollout": 0}
        self._mark = 0.0
        take, restore, rollout, value = (snapshots.take_snapshot, snapshots.restore, snapshots.SearchHandle.rollout,
                                         search_mod.seat_value)

        def timed_take(*a: Any) -> Any:
            t = clock()
            try:
                return take(*a)
            finally:
                self.t["snapshot"] += clock() - t
                self.n["snapshot"] += 1

        def timed_restore(*a: Any) -> Any:
            t = clock()
            try:
                return restore(*a)
            finally:
                self.t["restore"] += clock() - t
                self._mark = clock()

        def timed_rollout(handle: Any, request: Any, answer: Any, rng: Any, roles: Any, policies: Any,
                          extra: int = 0, determinizer: Any = snapshots.determinize) -> Any:
            def timed_det(world: Any, seat: int, r: Any, ro: Any) -> None:
                t = clock()
                self.t["replay"] += t - self._mark
                determinizer(world, seat, r, ro)
                self._mark = clock()
                self.t["determinize"] += self._mark - t

            world = rollout(handle, request, answer, rng, roles, policies, extra, timed_det)
            self.t["play"] += clock() - self._mark
            self.n["rollout"] += 1
            return world

        def timed_value(world: Any, seat: int) -> float:
            t = clock()
            try:
                return value(world, seat)
            finally:
                self.t["value"] += clock() - t

        turnflow_mod.take_snapshot = timed_take  # type: ignore[attr-defined]
        snapshots.restore = timed_restore  # type: ignore[assignment]
        snapshots.SearchHandle.rollout = timed_rollout  # type: ignore[method-assign]
        search_mod.seat_value = timed_value  # type: ignore[assignment]

    def report(self) -> dict[str, Any]:
        n = max(1, self.n["rollout"])
        out = {k: round(v / n * 1000, 3) for k, v in self.t.items() if k != "snapshot"}
        out["rollout_total"] = round(sum(v for k, v in self.t.items() if k != "snapshot") / n * 1000, 3)
        out["snapshot_per_turn"] = round(self.t["snapshot"] / max(1, self.n["snapshot"]) * 1000, 3)
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    ap.add_argument("--rules", default=str(ROOT / "rules" / "standard.sgs"), help="comma separated rule files")
    ap.add_argument("--profile", action="store_true", help="split rollouts into parts; top functions (cProfile)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    program = program_for(check_paths(args.rules.split(",")), "compiled")
    parts = Parts() if args.profile else None
    prof = cProfile.Profile() if args.profile else None
    search_s = heur_s = 0.0
    search_n = heur_n = searched = rollouts = turns = failed = 0
    wall = time.perf_counter()
    for g in range(args.games):
        seed = args.seed + g
        me = g % args.players
        agents: list[Timed] = []
        for seat in range(args.players):
            inner: Any = SearchAgent(agent_seed(seed, seat), args.budget) if seat == me else \
                HeuristicAgent(agent_seed(seed, seat))
            agents.append(Timed(inner))
        if prof:
            prof.enable()
        game = Game(program, "identity", args.players, seed, agents, record=False).run()
        if prof:
            prof.disable()
        turns += game.turns
        for a in agents:
            if isinstance(a.inner, SearchAgent):
                search_s += a.seconds
                search_n += a.calls
                searched += a.inner.searched
                failed += a.inner.failed
                rollouts += a.inner.rollouts
            else:
                heur_s += a.seconds
                heur_n += a.calls
    figures: dict[str, Any] = {
        "native": native_active(), "players": args.players, "games": args.games, "budget": args.budget,
        "search_ms_per_decision": round(search_s / max(1, search_n) * 1000, 3),
        "search_ms_per_searched_decision": round(search_s / max(1, searched) * 1000, 3),
        "heuristic_ms_per_decision": round(heur_s / max(1, heur_n) * 1000, 4),
        "search_decisions": search_n, "searched": searched, "rollouts": rollouts,
        "failed_searches": failed,
        "rollouts_per_searched": round(rollouts / max(1, searched), 1), "turns": turns,
        "wall_s": round(time.perf_counter() - wall, 1),
    }
    figures["ratio_search_to_heuristic"] = round(figures["search_ms_per_decision"] /
                                                 max(1e-9, figures["heuristic_ms_per_decision"]), 1)
    if parts:
        figures["rollout_parts_ms"] = parts.report()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for k, v in figures.items():
            print(f"{k:36} {v}")
    if prof:
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(20)
        print(buf.getvalue())


if __name__ == "__main__":
    main()
