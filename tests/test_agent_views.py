"""Agents see only their seat: a view is a snapshot of plain data (no way back to the game), and answers are
checked by exact type — a cheating agent learns nothing hidden and its sly answers are refused."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from helpers import STANDARD, program
from sgsdsl.engine.agents import Agent, RandomAgent, Request
from sgsdsl.engine.errors import IllegalAnswer
from sgsdsl.engine.events import Event
from sgsdsl.engine.game import Game
from sgsdsl.engine.model import Card, Player
from sgsdsl.engine.program import CardRule, GeneralRule, Program

ENGINE_TYPES = (Game, Player, Card, Event, Program, CardRule, GeneralRule)


def reachable(root: Any) -> list[Any]:
    """Every object reachable from root by references (not through classes, modules or functions)."""
    seen: set[int] = set()
    out: list[Any] = []
    stack = [root]
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, type) or type(x).__name__ in ("module", "function", "code"):
            continue
        seen.add(id(x))
        out.append(x)
        stack.extend(gc.get_referents(x))
    return out


def strings(x: Any) -> set[str]:
    return {s for s in reachable(x) if isinstance(s, str)}


class Cheater(Agent):
    """Tries every way into the game it can find from its view; plays randomly otherwise. `referee` is the
    test's own handle on the game, used only to judge what the view showed."""

    name = "cheater"

    def __init__(self, seed: int):
        self.random = RandomAgent(seed)
        self.loot: list[Any] = []
        self.leaks: list[str] = []
        self.views = 0
        self.referee: Game | None = None

    def decide(self, request: Request, view: Any) -> list[int]:
        self.views += 1
        for attr in ("_game", "game", "_player", "player", "__dict__"):
            try:
                self.loot.append(getattr(view, attr))
            except AttributeError:
                pass
        self.loot.extend(x for x in reachable(view) if isinstance(x, ENGINE_TYPES))
        seen = strings(view)
        assert self.referee is not None
        me = self.referee.players[request.seat]
        for q in self.referee.players:
            if q is not me:
                self.leaks += [f"hand card {c.label()}" for c in q.hand if c.label() in seen]
        self.leaks += [f"draw pile card {c.label()}" for c in self.referee.draw_pile if c.label() in seen]
        hidden = [q for q in self.referee.players if q is not me and not q.role_revealed]
        shown = [p for p in view["players"] if p["seat"] in {q.seat for q in hidden}]
        self.leaks += [f"role of seat {p['seat']}" for p in shown if p["role"] != "hidden"]
        return self.random.decide(request, view)


def test_a_cheating_agent_finds_no_way_into_the_game() -> None:
    prog = program(str(STANDARD), "compiled")
    cheater = Cheater(7)
    agents = [cheater if i == 0 else RandomAgent(i) for i in range(5)]
    game = Game(prog, "identity", 5, 3, agents, round_cap=6)
    cheater.referee = game
    game.run()
    assert cheater.views > 20
    assert cheater.loot == [], cheater.loot[:3]
    assert cheater.leaks == [], cheater.leaks[:5]


class Sly(int):
    pass


class SlyAgent(Agent):
    name = "sly"

    def __init__(self, answer: Any):
        self.answer = answer

    def decide(self, request: Request, view: Any) -> Any:
        return self.answer


class SlyList(list):
    def __len__(self) -> int:
        return 1


@pytest.mark.parametrize("answer", [[Sly(0)], [True], [False], SlyList([0]), (0,), [0.0], ["0"]],
                         ids=["int-subclass", "true", "false", "list-subclass", "tuple", "float", "text"])
def test_answers_of_the_wrong_exact_type_are_refused(answer: Any) -> None:
    prog = program(str(STANDARD), "compiled")
    agents = [SlyAgent(answer) for _ in range(5)]
    with pytest.raises(IllegalAnswer):
        Game(prog, "identity", 5, 1, agents, round_cap=2).run()


def test_the_heuristic_agent_still_plays_from_its_snapshot() -> None:
    from sgsdsl.ai.heuristic import HeuristicAgent

    prog = program(str(STANDARD), "compiled")
    agents = [HeuristicAgent(i) for i in range(5)]
    game = Game(prog, "identity", 5, 2, agents, round_cap=20).run()
    assert game.result is not None


def test_views_show_the_roles_dealt_as_they_are_now() -> None:
    """Views sort the dealt roles once per dealing (`Decisions._roles_dealt`) and again whenever a role changes."""
    game = Game(program(str(STANDARD), "compiled"), "identity", 5, 3, [RandomAgent(i) for i in range(5)],
                round_cap=1)
    game.run()
    first = game.choices.view(game.players[1], cards=False)["roles_in_play"]
    assert first == sorted(p.role for p in game.players)
    again = game.choices.view(game.players[2], cards=False)["roles_in_play"]
    assert again == first and again is not first  # (each view its own list)
    game.players[3].role = "zzz"  # (a role changed after the deal)
    assert game.choices.view(game.players[1], cards=False)["roles_in_play"] == sorted(p.role for p in game.players)
