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


AGENT_KINDS = ("random", "heuristic", "search")
AGENT_HELP = "random, heuristic, search or search:N (N rollouts a decision)"


class AgentKindError(ValueError):
    """An agent kind that names no agent (the message says which kinds there are)."""


def agent_budget(kind: str) -> int | None:
    """The rollout budget a kind names (`search:N`), the default budget for `search`, None for other kinds;
    AgentKindError for a kind that is none of AGENT_KINDS or a budget that is not a whole number in range."""
    from .ai.search import DEFAULT_BUDGET, MAX_BUDGET

    name, colon, budget = kind.partition(":")
    if name not in AGENT_KINDS or (colon and name != "search"):
        raise AgentKindError(f"unknown agent kind {kind!r}; kinds: {AGENT_HELP}")
    if name != "search":
        return None
    if not colon:
        return DEFAULT_BUDGET
    if not budget.isascii() or not budget.isdigit() or not 1 <= int(budget) <= MAX_BUDGET:
        raise AgentKindError(f"agent kind {kind!r}: a search budget is a whole number of rollouts from 1 to "
                             f"{MAX_BUDGET}, as in search:64")
    return int(budget)


def make_agent(kind: str, seed: int) -> Agent:
    """The agent of one kind (see AGENT_KINDS) seeded with SEED."""
    if kind == "random":  # (the usual kind, one per seat of every game of a batch: no parsing of a budget)
        return RandomAgent(seed)
    budget = agent_budget(kind)
    if kind == "heuristic":
        from .ai.heuristic import HeuristicAgent

        return HeuristicAgent(seed)
    if budget is not None:
        from .ai.search import SearchAgent

        return SearchAgent(seed, budget)
    return RandomAgent(seed)


def make_agents(kinds: tuple[str, ...], players: int, seed: int) -> list[Agent]:
    """One agent per seat; `kinds` cycles over the seats (("heuristic", "random") alternates them)."""
    return [make_agent(kinds[i % len(kinds)], agent_seed(seed, i)) for i in range(players)]


def play_one(program: Program, mode: str, players: int, seed: int, options: dict[str, Any] | None = None,
             record: bool = False, round_cap: int = 60, agents: tuple[str, ...] = ("random",),
             pinned: dict[int, str] | None = None, pool: Sequence[str] | None = None) -> Game:
    seats = make_agents(agents, players, seed)
    return Game(program, mode, players, seed, seats, options, round_cap=round_cap, record=record, pinned=pinned,
                pool=pool).run()
