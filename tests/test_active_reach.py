"""Where a skill's action could be aimed, shown in the play menu before it runs (interp/reach.py, Using.option_reach).

A card of the menu shows its legal targets; a skill's action chooses its seats in its body. When the body's first
choice of characters is a pure question of the owner, the engine works it out at menu time, on both back ends, so
an agent need not pick 激将 for a foe out of the 杀's range and then name a friend."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine.agents import Agent
from sgsdsl.engine.game import Game
from sgsdsl.interp.reach import TRIGGER_BOUND, first_seat_choice
from sgsdsl.lang.checker import check
from sgsdsl.lang.parser import parse_text

ROOT = Path(__file__).resolve().parent.parent
STANDARD = ROOT / "rules" / "standard.sgs"

PRELUDE = """\
card 杀 sha : basic { copies ♠7  use play target one other  effect { damage(target, 1, source: user) } }
value richer(p: player) = [q for q in others(p) if q.hp > p.hp]
"""


def reach_line(member: str) -> int | None:
    """The line of the expression found as the first seat choice of a skill whose one action or trigger is MEMBER
    (line 5 of the program: the prelude's two lines, the skill's header and tags, then the member)."""
    text = PRELUDE + "skill s a {\n  tags attack\n" + member + "\n}\n"
    module, diags = parse_text(text, "t.sgs")
    assert module is not None, diags
    checked = check([module])
    assert not [d for d in checked.diagnostics if d.severity == "error"], [str(d) for d in checked.diagnostics]
    skill = checked.modules[0].skills[0]
    if skill.actives:
        found = first_seat_choice(skill.actives[0].body, checked.symbols.values)
    else:
        found = first_seat_choice(skill.triggers[0].body, checked.symbols.values, TRIGGER_BOUND)
    return None if found is None else found.span.line


@pytest.mark.parametrize(("action", "line"), [
    # the first choice of characters, a pure question of the owner
    ("active { damage(choose(owner, others(owner)), 1) }", 5),
    ("active { let t = choose(owner, targets_for(owner, 杀)) }", 5),
    # a choice of cards comes first: the seats are the next choice's
    ("active {\n discard(choose(owner, hand(owner)), by: owner)\n let t = choose(owner, others(owner))\n}", 7),
    # a filtered list, a value that returns characters, a list less others
    ("active { let t = choose(owner, [p for p in others(owner) if p.hp > 1]) }", 5),
    ("active { let t = choose(owner, richer(owner)) }", 5),
    ("active { let t = choose(owner, minus(others(owner), [owner])) }", 5),
    ("active { let t = choose_many(owner, others(owner), 1, 2) }", 5),
    # an optional trigger's body may read the event too
    ("on damaged where event.target == owner optional { let t = choose(owner, minus(others(owner), [event.source])) }",
     5),
])
def test_the_first_choice_of_characters_is_found(action: str, line: int) -> None:
    assert reach_line(action) == line


@pytest.mark.parametrize("action", [
    # the first choice of characters reads what the body chose before it: not known beforehand
    "active {\n let c = choose(owner, hand(owner))\n"
    " let t = choose(owner, [p for p in others(owner) if p.hp > c.rank])\n}",
    # ... or what an action returns
    "active { let t = choose(owner, minus(others(owner), draw(owner, 1))) }",
    # no choice of characters at all
    "active { draw(owner, 1) }",
    # a choice by another character does not say where the owner aims
    "active { for p in others(owner) { let t = choose(p, others(p)) } }",
])
def test_a_choice_not_known_beforehand_is_not_shown(action: str) -> None:
    assert reach_line(action) is None


class Passing(Agent):
    name = "passing"

    def decide(self, request, view):
        return [len(request.options) - 1] if request.kind in ("play", "confirm") else list(range(request.low))


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def program(request):
    loaded = check_paths([str(STANDARD)])
    assert loaded.ok
    return interpreted_program(loaded) if request.param == "interpreted" else compiled_program(loaded)


def table(program, generals: list[str | None]) -> Game:
    g = Game(program, "identity", len(generals), 7, [Passing() for _ in generals])
    for i, p in enumerate(g.players):
        p.role = "lord" if i == 0 else "rebel"
    for p, ident in zip(g.players, generals, strict=True):
        g.set_general(p, program.generals[ident] if ident else None)
    g.current = g.players[0]
    return g


def shown(g: Game, p) -> dict[str, tuple[int, ...] | None]:
    g.decisions += 1  # (a new decision: the menu is made afresh)
    return {label: g.use.option_reach(p, option) for label, option in g.use.play_options(p, reach=True)}


def test_the_menu_shows_where_jijiang_could_aim_its_sha(program) -> None:
    """激将's first choice is the target of the 杀 (`targets_for(owner, 杀)`): the seats in the lord's range. A
    +1 horse puts seat 1 out of it; the dead are never shown."""
    g = table(program, ["liubei", "guanyu", "zhangfei", None, None])
    liubei = g.players[0]
    assert shown(g, liubei)["skill 激将"] == (1, 4)
    g.use.equip(g.players[1], next(c for c in g.cards if c.name == "绝影" and c.zone == "draw"))
    assert shown(g, liubei)["skill 激将"] == (4,)


def test_the_menu_shows_the_male_seats_lijian_may_name_first(program) -> None:
    """离间 discards a card first, then names a male character to use the 决斗: those seats are shown, in order;
    a female one (孙尚香) is not, nor a dead one."""
    g = table(program, ["diaochan", "guanyu", "sunshangxiang", "zhangfei", "liubei"])
    diaochan = g.players[0]
    g.zones.move([next(c for c in g.cards if c.zone == "draw")], "hand", diaochan)
    assert shown(g, diaochan)["skill 离间"] == (1, 3, 4)
    g.players[3].alive = False
    assert shown(g, diaochan)["skill 离间"] == (1, 4)


def test_a_skill_whose_choice_is_not_known_shows_none(program) -> None:
    """制衡 chooses cards only: its option shows no reach, as before."""
    g = table(program, ["sunquan", None, None, None])
    sunquan = g.players[0]
    g.zones.move([next(c for c in g.cards if c.zone == "draw")], "hand", sunquan)
    assert shown(g, sunquan)["skill 制衡"] is None


class Recording(HeuristicAgent):
    """The heuristic agent, keeping every question whether to use 突袭 with the view it came with."""

    def __init__(self, seed: int, asked: list) -> None:
        super().__init__(seed)
        self.asked = asked

    def on_confirm(self, r, view):
        if r.prompt == "use 突袭?":
            self.asked.append((r, view))
        return super().on_confirm(r, view)


def test_the_question_whether_to_use_tuxi_shows_the_seats_it_may_take_from(program) -> None:
    """突袭 takes a hand card from one or two other seats that hold any (`having_hand(others(owner))`): the question
    whether to use it shows exactly those seats, as the view has them, every time it is asked in whole games."""
    asked: list = []
    for seed in range(1, 13):
        agents = [Recording(seed * 10 + i, asked) for i in range(5)]
        Game(program, "identity", 5, seed, agents, None, pinned={0: "zhangliao"}, round_cap=8).run()
    assert len(asked) >= 10
    for r, view in asked:
        me = view["seat"]
        holding = {q["seat"] for q in view["players"] if q["seat"] != me and q["alive"] and q["hand"] > 0}
        assert r.option_reach[1] is None and set(r.option_reach[0]) == holding
