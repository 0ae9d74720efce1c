"""The skill tables refresh_skills keeps piece by piece (a character's triggers and modifiers, the seats listening to
each timing and modifying each value, the value chains, the plain values, the timings heard, the holders of scoped
marks) stay what they would be made afresh, and the invariant check that says so catches each kind of slip."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import ROOT, program
from sgsdsl.engine.agents import Agent, RandomAgent, Request
from sgsdsl.engine.errors import ScriptExhausted
from sgsdsl.engine.game import Game
from sgsdsl.engine.invariants import CheckingAgent, InvariantViolation, check_skill_tables
from sgsdsl.sim import agent_seed

ALL41 = str(ROOT / "tests" / "fixtures" / "all41.sgs")  # standard + 军争 + 林 + 山: skills gained, lost, scoped


def _checked_game(engine: str, players: int, seed: int, heuristic: bool) -> Game:
    from sgsdsl.ai.heuristic import HeuristicAgent

    holder: dict[str, Any] = {}
    inner: list[Agent] = [HeuristicAgent(agent_seed(seed, i)) if heuristic and i % 2
                          else RandomAgent(agent_seed(seed, i)) for i in range(players)]
    game = Game(program(ALL41, engine), "identity", players, seed, [CheckingAgent(a, holder) for a in inner],
                record=False)
    holder["game"] = game
    game.run()
    check_skill_tables(game)
    return game


@pytest.mark.parametrize(("engine", "players", "heuristic"), [("compiled", 8, False), ("compiled", 5, True),
                                                              ("interpreted", 6, True)])
def test_tables_match_a_fresh_rebuild_at_every_decision(engine: str, players: int, heuristic: bool) -> None:
    for seed in range(6):
        _checked_game(engine, players, seed, heuristic)


class _StopAt(Agent):
    """Answers at random until its N-th request, then stops the game there (a position mid-game)."""

    reads_view = False
    reads_options = False

    def __init__(self, seed: int, n: int):
        self.rng = RandomAgent(seed)
        self.n = n

    def decide(self, request: Request, view: Any) -> list[int]:
        self.n -= 1
        if self.n <= 0:
            raise ScriptExhausted("stopped here")  # (an agent's own error: no rule wraps it)
        return self.rng.decide(request, view)


def _mid_game() -> Game:
    agents: list[Agent] = [_StopAt(agent_seed(3, i), 40) for i in range(8)]
    game = Game(program(ALL41, "compiled"), "identity", 8, 3, agents, record=False)
    with pytest.raises(ScriptExhausted):
        game.run()
    check_skill_tables(game)  # sound before each slip below
    return game


def _some(table: dict) -> str:
    return next(name for name in sorted(table) if table[name])


@pytest.mark.parametrize("slip", ["seat_off_value", "chain_dropped", "plain_kept", "seat_off_timing", "unheard",
                                  "mark_unlisted", "trigger_table"])
def test_each_kind_of_slip_is_caught(slip: str) -> None:
    game = _mid_game()
    if slip == "seat_off_value":
        name = _some(game.modifier_seats)
        game.modifier_seats[name] = game.modifier_seats[name][1:]
    elif slip == "chain_dropped":
        game.value_chains[_some(game.value_chains)] = []
    elif slip == "plain_kept":
        name = _some(game.value_chains)
        game.plain_values[name] = lambda g, *args: 0
    elif slip == "seat_off_timing":
        name = _some(game.trigger_seats)
        game.trigger_seats[name] = set(sorted(game.trigger_seats[name])[1:])
    elif slip == "unheard":
        game.heard.discard(_some(game.trigger_seats))
    elif slip == "mark_unlisted":
        p = game.players[0]
        p.marks["probe"], p.mark_scopes["probe"] = 1, "turn"
        game.scoped_holders = [h for h in game.scoped_holders if h is not p]
    else:
        p = next(q for q in game.players if q.triggers)
        p.triggers = {}
    with pytest.raises(InvariantViolation):
        check_skill_tables(game)
