"""A ward: a compulsory trigger that makes a card aimed at its owner void (仁王盾 against a black 杀, 藤甲 against a
plain one; interp/reach.py, `wards_owner`). The engine asks its condition before the card is aimed: the play menu's
reach leaves the seat out and the choice of targets hints it `void`, on both back ends, so an agent no longer spends
its one 杀 of the turn on a seat it cannot hurt (100 games of 8 players, all six sets: 365 such 杀 before, 36 after;
docs/balance.md, "Fifteenth pass")."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine.agents import VOID, Agent, Request
from sgsdsl.engine.game import Game
from sgsdsl.interp.build import owner_field
from sgsdsl.interp.reach import wards_owner
from sgsdsl.lang.checker import check
from sgsdsl.lang.parser import parse_text

ROOT = Path(__file__).resolve().parent.parent
STANDARD = ROOT / "rules" / "standard.sgs"


def ward(trigger: str) -> bool:
    """Whether a skill whose one trigger is TRIGGER is found a ward."""
    text = "card 杀 sha : basic { copies ♠7  use play target one other  effect { damage(target, 1) } }\n" \
           f"skill s a locked {{\n  tags defence\n  {trigger}\n}}\n"
    module, diags = parse_text(text, "t.sgs")
    assert module is not None, diags
    checked = check([module])
    assert not [d for d in checked.diagnostics if d.severity == "error"], [str(d) for d in checked.diagnostics]
    t = checked.modules[0].skills[0].triggers[0]
    return wards_owner(t, owner_field(t.where))


@pytest.mark.parametrize(("trigger", "found"), [
    # a card of a kind and colour aimed at the owner, cancelled outright
    ("on before_effect where event.target == owner and event.card is 杀 and event.card.color == black "
     "{ cancel(event) }", True),
    ("on before_effect where event.target == owner and event.user != owner { cancel(event) }", True),
    # optional: the owner may let it through
    ("on before_effect where event.target == owner and event.card is 杀 optional { cancel(event) }", False),
    # a cancel under a branch, or none
    ("on before_effect where event.target == owner { if owner.hp > 1 { cancel(event) } }", False),
    ("on before_effect where event.target == owner { draw(owner, 1) }", False),
    # what the condition reads is not known before the card is aimed (享乐's mark on the use), or not the target's
    ("on before_effect where event.target == owner and has_mark(event.use, \"x\") { cancel(event) }", False),
    ("on before_effect where event.user == owner { cancel(event) }", False),
    # another timing
    ("on targeted where event.target == owner and event.card is 杀 { cancel(event) }", False),
])
def test_a_ward_is_found_from_the_text(trigger: str, found: bool) -> None:
    assert ward(trigger) is found


class Passing(Agent):
    name = "passing"

    def decide(self, request, view):
        return [len(request.options) - 1] if request.kind in ("play", "confirm") else list(range(request.low))


class Recording(Agent):
    """Answers a choice of targets with its first option and keeps the request."""

    name = "recording"

    def __init__(self) -> None:
        self.asked: list[Request] = []

    def decide(self, request, view):
        self.asked.append(request)
        return [0]


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def program(request):
    loaded = check_paths([str(STANDARD)])
    assert loaded.ok
    return interpreted_program(loaded) if request.param == "interpreted" else compiled_program(loaded)


def table(program, first: Agent) -> Game:
    g = Game(program, "identity", 4, 7, [first, Passing(), Passing(), Passing()])
    for i, p in enumerate(g.players):
        p.role = "lord" if i == 0 else "rebel"
        g.set_general(p, None)
    g.current = g.players[0]
    return g


def take(g: Game, name: str, suits: str, who) -> object:
    card = next(c for c in g.cards if c.name == name and c.suit in suits and c.zone == "draw")
    g.zones.move([card], "hand", who)
    return card


def reach_of(g: Game, p, card) -> tuple[int, ...] | None:
    g.decisions += 1  # (a new decision: the menu is made afresh)
    options = dict((option[1], option) for _, option in g.use.play_options(p, reach=True) if option[0] == "card")
    return g.use.option_reach(p, options[card])


def test_the_menu_leaves_out_a_seat_whose_armour_makes_the_card_void(program) -> None:
    g = table(program, Passing())
    lord, armoured, _, bare = g.players  # (seat 2 is out of the lord's attack range)
    g.use.equip(armoured, next(c for c in g.cards if c.name == "仁王盾"))
    black, red = take(g, "杀", "♠♣", lord), take(g, "杀", "♥♦", lord)
    assert reach_of(g, lord, black) == (bare.seat,)
    assert reach_of(g, lord, red) == (armoured.seat, bare.seat)
    assert g.use.voided(lord, black, [armoured, bare]) == (True, False)
    assert g.use.voided(lord, red, [armoured, bare]) is None  # (no ward holds: no hints at all)


def test_the_choice_of_targets_hints_the_void_seat(program) -> None:
    agent = Recording()
    g = table(program, agent)
    lord, armoured, _, bare = g.players
    g.use.equip(armoured, next(c for c in g.cards if c.name == "仁王盾"))
    black = take(g, "杀", "♠♣", lord)
    use = next(u for _, u in black.rule.menu if u.context == "play")
    g.use.choose_targets(lord, black, use)
    asked = agent.asked[-1]
    assert asked.option_seats == (armoured.seat, bare.seat)
    assert [VOID in t for t in asked.option_tags] == [True, False]


def test_the_heuristic_agent_never_aims_at_a_void_seat_while_another_is_offered() -> None:
    from tests.test_role_play import view as table_view

    view = table_view(0)  # (the lord: every hidden seat as likely a foe)
    request = Request(0, "choose", "targets for 杀", ("P1", "P2"), 1, 1, about=("attack", "basic"),
                      option_seats=(1, 2), option_tags=((VOID,), ()))
    assert {HeuristicAgent(seed).decide(request, view)[0] for seed in range(1, 31)} == {1}


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def with_armours(request):
    loaded = check_paths([str(STANDARD), str(ROOT / "rules" / "junzheng.sgs")])
    assert loaded.ok
    return interpreted_program(loaded) if request.param == "interpreted" else compiled_program(loaded)


def test_a_card_that_reaches_everyone_shows_the_seats_it_would_do_something_to(with_armours) -> None:
    g = table(with_armours, Passing())
    lord, armoured, other, bare = g.players
    area = take(g, "南蛮入侵", "♠♣♥♦", lord)
    assert reach_of(g, lord, area) == (armoured.seat, other.seat, bare.seat)
    g.use.equip(armoured, next(c for c in g.cards if c.name == "藤甲"))
    assert reach_of(g, lord, area) == (other.seat, bare.seat)  # (藤甲: 南蛮入侵 does nothing to its wearer)


def test_the_heuristic_agent_weighs_a_card_that_reaches_everyone_by_its_reach() -> None:
    from tests.test_role_play import view as table_view

    view = table_view(0)  # (the lord: every hidden seat as likely a foe)
    everyone = tuple(range(1, 8))

    def menu(reach: tuple[int, ...] | None) -> Request:
        return Request(0, "play", "choose a card or skill to use", ("use 南蛮入侵", "end play phase"),
                       option_tags=(("attack", "area", "trick"), ("end",)), option_reach=(reach, None))

    assert {HeuristicAgent(seed).decide(menu(everyone), view)[0] for seed in range(1, 11)} == {0}
    assert {HeuristicAgent(seed).decide(menu(None), view)[0] for seed in range(1, 11)} == {0}
    # every seat it would reach but one wears armour it cannot get through: not worth a card
    assert {HeuristicAgent(seed).decide(menu((3,)), view)[0] for seed in range(1, 11)} == {1}
