"""Seeded agents and single games: the building blocks of `sgsdsl simulate` (the balance lab is `sgsdsl.lab`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine.agents import Agent, RandomAgent
from .engine.game import Game
from .engine.program import Program


def agent_seed(game_seed: int, seat: int) -> int:
    """Each seat's agent gets its own stream, derived from the game seed only."""
    return game_seed * 1000 + seat + 1


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
             record: bool = False, round_cap: int = 60, agents: tuple[str, ...] = ("random",),
             pinned: dict[int, str] | None = None, pool: Sequence[str] | None = None) -> Game:
    seats = make_agents(agents, players, seed)
    return Game(program, mode, players, seed, seats, options, round_cap=round_cap, record=record, pinned=pinned,
                pool=pool).run()
