"""Run many seeded games and summarise them; the engine of `sgsdsl simulate`."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .engine.agents import Agent, RandomAgent
from .engine.errors import EngineError
from .engine.game import Game
from .engine.program import Program


def agent_seed(game_seed: int, seat: int) -> int:
    """Each seat's agent gets its own stream, derived from the game seed only."""
    return game_seed * 1000 + seat + 1


@dataclass
class Summary:
    games: int = 0
    wins: Counter = field(default_factory=Counter)  # winning side ("lord+loyalist") -> games
    draws: Counter = field(default_factory=Counter)  # reason -> games
    errors: list[str] = field(default_factory=list)
    rounds: int = 0
    turns: int = 0
    decisions: int = 0
    seconds: float = 0.0
    scores: dict[str, list[int]] = field(default_factory=dict)  # role -> [total score, seats scored]

    def add_scores(self, game: Game) -> None:
        """Count a finished game's per-seat scores (modes with `score` lines) by the seat's role."""
        if game.scores is None:
            return
        for p, score in zip(game.players, game.scores, strict=True):
            entry = self.scores.setdefault(str(p.role), [0, 0])
            entry[0] += score
            entry[1] += 1

    def average_scores(self) -> dict[str, float]:
        """Average score per role, roles sorted by name; empty when the mode keeps no score."""
        return {role: round(total / n, 2) for role, (total, n) in sorted(self.scores.items()) if n}

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": dict(sorted(self.wins.items())),
            "draws": dict(sorted(self.draws.items())),
            "errors": len(self.errors),
            "avg_rounds": round(self.rounds / max(1, self.games), 2),
            "avg_turns": round(self.turns / max(1, self.games), 2),
            **({"avg_score": self.average_scores()} if self.scores else {}),
        }


AGENT_KINDS = ("random", "heuristic")


def make_agents(kinds: tuple[str, ...], players: int, seed: int) -> list[Agent]:
    """One agent per seat; `kinds` cycles over the seats (("heuristic", "random") alternates them)."""
    from .ai.heuristic import HeuristicAgent

    out: list[Agent] = []
    for i in range(players):
        kind = kinds[i % len(kinds)]
        out.append(HeuristicAgent(agent_seed(seed, i)) if kind == "heuristic" else RandomAgent(agent_seed(seed, i)))
    return out


def play_one(program: Program, mode: str, players: int, seed: int, options: dict[str, Any] | None = None,
             record: bool = False, round_cap: int = 60, agents: tuple[str, ...] = ("random",)) -> Game:
    seats = make_agents(agents, players, seed)
    return Game(program, mode, players, seed, seats, options, round_cap=round_cap, record=record).run()


def simulate(program: Program, mode: str, players: int, games: int, seed: int,
             options: dict[str, Any] | None = None, round_cap: int = 60,
             progress: Callable[[int], None] | None = None, agents: tuple[str, ...] = ("random",)) -> Summary:
    s = Summary()
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        try:
            g = play_one(program, mode, players, game_seed, options, round_cap=round_cap, agents=agents)
        except EngineError as err:
            s.errors.append(f"seed {game_seed}: {err}")
            s.games += 1
            if progress:
                progress(i + 1)
            continue
        s.games += 1
        winners, reason = g.result or ((), "unfinished")
        if winners:
            s.wins["+".join(winners)] += 1
        else:
            s.draws[reason] += 1
        s.rounds += g.round if winners else g.round - 1
        s.add_scores(g)
        s.turns += g.turns
        s.decisions += g.decisions
        if progress:
            progress(i + 1)
    s.seconds = time.perf_counter() - start
    return s
