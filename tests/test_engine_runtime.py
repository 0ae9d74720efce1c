"""Runtime guarantees that no rule file can change: answers are validated, the reshuffle uses the game's
RNG, views hide what a seat may not see, and an exhausted deck ends the game as a recorded draw."""

from __future__ import annotations

import pytest

from helpers import MINI, program
from sgsdsl.engine.agents import Agent, RandomAgent
from sgsdsl.engine.decisions import SeatView
from sgsdsl.engine.errors import IllegalAnswer
from sgsdsl.engine.game import Game


class Fixed(Agent):
    name = "fixed"

    def __init__(self, answer):
        self.answer = answer

    def decide(self, request, view):
        return self.answer


def fresh(players: int = 4, seed: int = 3, agents=None) -> Game:
    prog = program(str(MINI))
    agents = agents or [RandomAgent(i) for i in range(players)]
    return Game(prog, "identity", players, seed, agents, record=True)


@pytest.mark.parametrize("answer, why", [([99], "does not exist"), ([0, 0], "chosen twice"), ([], "between"),
                                         ("0", "list of option numbers"), ([True], "list of option numbers")])
def test_illegal_answers_are_refused_and_change_nothing(answer, why) -> None:
    g2 = fresh(agents=[Fixed(answer)] * 4)
    before = g2.choices.state_hash()
    with pytest.raises(IllegalAnswer) as err:
        g2.choices.ask(g2.players[1], "choose", "pick a card", ["a", "b"])
    msg = str(err.value)
    assert "agent fixed" in msg and "seat 1" in msg and "pick a card" in msg and why in msg
    assert g2.choices.state_hash() == before
    assert g2.decisions == 0 and g2.answers == []


def test_reshuffle_uses_the_game_rng_and_replays() -> None:
    orders = []
    for _ in range(2):
        g = fresh(seed=11)
        p = g.players[0]
        g.zones.move(list(g.draw_pile), "discard", None)
        assert not g.draw_pile
        g.zones.draw(p, 3)
        orders.append([c.id for c in g.draw_pile])
        assert len(p.hand) == 3 and any(e.get("e") == "reshuffle" for e in g.log)
    assert orders[0] == orders[1]
    other = fresh(seed=12)
    other.zones.move(list(other.draw_pile), "discard", None)
    other.zones.draw(other.players[0], 3)
    assert [c.id for c in other.draw_pile] != orders[0]


def test_exhausted_deck_is_a_recorded_draw() -> None:
    g = fresh()
    p = g.players[0]
    g.zones.move(list(g.draw_pile), "hand", p)
    g.run()
    assert g.result == ((), "deck_exhausted")
    assert g.log[-1]["e"] == "game_over" and g.log[-1]["reason"] == "deck_exhausted"


def test_view_hides_other_hands_and_hidden_roles() -> None:
    g = fresh(players=5)
    g.run()
    me, other = g.players[0], g.players[1]
    other.role_revealed = False
    view = SeatView(g.choices.view(me))
    assert view["seat"] == 0 and view["hand"] == [c.label() for c in me.hand]
    theirs = view["players"][1]
    assert isinstance(theirs["hand"], int)
    assert theirs["role"] == "hidden"
    hidden_labels = {c.label() for c in other.hand}
    assert not hidden_labels & set(str(view[k]) for k in view)
    assert g.choices.item_label(other.hand[0], me).startswith("hand card of") if other.hand else True


def test_a_view_without_cards_names_none_and_is_read_only() -> None:
    """An agent that reasons from the table alone (`Agent.view_cards = False`, the heuristic agent) is given the
    same view less every card label; wrappers pass the choice on; a view cannot be written to."""
    from sgsdsl.ai.heuristic import HeuristicAgent
    from sgsdsl.engine.agents import ScriptedAgent
    from sgsdsl.engine.invariants import CheckingAgent

    g = fresh(players=5)
    g.run()
    me = g.players[0]
    full, table = g.choices.view(me), g.choices.view(me, cards=False)
    dropped = {"hand", "discard_top"}
    assert set(full) - set(table) == dropped and not set(table) - set(full)
    assert all(table[k] == full[k] for k in table if k != "players")
    for whole, bare in zip(full["players"], table["players"], strict=True):
        assert set(whole) - set(bare) == {"equips", "judge", "piles"}
        assert all(bare[k] == whole[k] for k in bare)
    assert HeuristicAgent(1).view_cards is False and RandomAgent(1).view_cards is True  # (per agent: a native class)
    assert CheckingAgent(HeuristicAgent(1), {}).view_cards is False
    assert ScriptedAgent([], fallback=HeuristicAgent(1)).view_cards is False and ScriptedAgent([]).view_cards
    view = SeatView(full)
    with pytest.raises(TypeError):
        view["seat"] = 3  # type: ignore[index]


def test_swapping_a_hand_with_itself_changes_nothing() -> None:
    """`swap_cards(p, p)` (a rule may name one character twice: `current()` and `event.player`) moves nothing and
    tells nothing: it once took each card out of the hand twice and failed with a raw Python error (the runtime
    fuzz, seed 11, input 10)."""
    from sgsdsl.engine import registry as reg
    from sgsdsl.engine.program import Frame

    g = fresh()
    g.run()
    p = next(q for q in g.players if q.alive and q.hand)
    before, logged = list(p.hand), len(g.log)
    reg.PRIMITIVES["swap_cards"].impl(Frame(g, {}), p, p)
    assert p.hand == before and all(c.holder is p and c.zone == "hand" for c in p.hand)
    assert len(g.log) == logged
