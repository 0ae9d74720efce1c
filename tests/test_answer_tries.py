"""A card a skill may supply in answer to a demand (a `provide`: 八卦阵's judgement, 护驾's call on others) is hinted
`try` in the request: tried and failed, it leaves the request open with the rest still offered. The heuristic agent
tries it before it spends a card of its hand, so a 闪 held is kept whenever the judgement comes up red."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine.agents import TRY, Agent, Request
from sgsdsl.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
STANDARD = ROOT / "rules" / "standard.sgs"


class Scripted(Agent):
    """Answers every request with the option whose label starts with one of its words, in turn, else its last
    option; keeps the requests."""

    name = "scripted"

    def __init__(self, *words: str) -> None:
        self.words = list(words)
        self.asked: list[Request] = []

    def decide(self, request, view):
        self.asked.append(request)
        for i, label in enumerate(request.options):
            if self.words and label.startswith(self.words[0]):
                self.words.pop(0)
                return [i]
        return [len(request.options) - 1] if request.low else []


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def program(request):
    loaded = check_paths([str(STANDARD)])
    assert loaded.ok
    return interpreted_program(loaded) if request.param == "interpreted" else compiled_program(loaded)


def armoured(program, agent: Agent, judged_colour: str) -> tuple[Game, object, object]:
    """Seat 1 wears 八卦阵 and holds a 闪; the next judgement card is of JUDGED_COLOUR."""
    g = Game(program, "identity", 4, 7, [Scripted(), agent, Scripted(), Scripted()])
    for i, p in enumerate(g.players):
        p.role = "lord" if i == 0 else "rebel"
        g.set_general(p, None)
    g.current = g.players[0]
    me = g.players[1]
    g.use.equip(me, next(c for c in g.cards if c.name == "八卦阵"))
    dodge = next(c for c in g.cards if c.name == "闪" and c.zone == "draw")
    g.zones.move([dodge], "hand", me)
    suits = "♥♦" if judged_colour == "red" else "♠♣"
    top = next(c for c in g.cards if c.zone == "draw" and c.suit in suits)
    g.zones.move([top], "draw", None)  # (to the top of the draw pile)
    return g, me, dodge


def test_the_provide_is_hinted_and_a_failed_try_leaves_the_hand_offered(program) -> None:
    agent = Scripted("八卦阵", "use")
    g, me, dodge = armoured(program, agent, "black")
    assert g.use.respond(me, "闪", against_user=g.players[0])
    first, second = agent.asked
    assert [TRY in t for t in first.option_tags] == [False, True, False]  # (闪 in hand, 八卦阵, decline)
    assert not any("八卦阵" in o for o in second.options)  # (tried once per card asked for)
    assert dodge.zone != "hand"


def test_the_heuristic_agent_tries_first_and_keeps_its_dodge_on_red(program) -> None:
    g, me, dodge = armoured(program, HeuristicAgent(3), "red")
    assert g.use.respond(me, "闪", against_user=g.players[0])
    assert dodge.zone == "hand" and dodge.holder is me


def test_a_risky_try_is_not_taken_first() -> None:
    view = {"seat": 1, "role": "rebel", "players": []}
    request = Request(1, "respond", "respond with 闪", ("use 闪", "a skill: provide 闪", "decline"),
                      option_tags=((), (TRY,), ()))
    assert HeuristicAgent(1).decide(request, view) == [1]
    risky = request._replace(option_tags=((), (TRY, "risk"), ()))
    assert HeuristicAgent(1).decide(risky, view) == [0]
    assert HeuristicAgent(1).decide(request._replace(option_tags=()), view) == [0]
