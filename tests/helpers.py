"""Shared test helpers: load rules once, play checked games."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from sgsdsl.api import check_paths, program_for
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game
from sgsdsl.engine.invariants import CheckingAgent
from sgsdsl.lang.diagnostics import render_text
from sgsdsl.sim import agent_seed

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"
STANDARD = ROOT / "rules" / "standard.sgs"
JUNZHENG = ROOT / "rules" / "junzheng.sgs"


@cache
def program(path: str, engine: str = "interpreted"):
    loaded = check_paths([path])
    if not loaded.ok:
        raise AssertionError(render_text(loaded.diagnostics, loaded.sources))
    return program_for(loaded, engine)


def play_checked(prog, players: int, seed: int, options: dict[str, Any] | None = None, record: bool = True,
                 round_cap: int = 60, mode: str = "identity") -> Game:
    """A random game whose invariants are checked before every decision and at the end."""
    from sgsdsl.engine.invariants import check_invariants

    holder: dict[str, Any] = {}
    agents = [CheckingAgent(RandomAgent(agent_seed(seed, i)), holder) for i in range(players)]
    game = Game(prog, mode, players, seed, agents, options, round_cap=round_cap, record=record)
    holder["game"] = game
    game.run()
    check_invariants(game)
    return game
