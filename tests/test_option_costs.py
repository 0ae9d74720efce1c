"""What each option of a choice costs its chooser in its own cards (`choose(…, costs: …)`, or read from the rule).

A designer's 破绽 ("once a phase, discard as many cards as another character's HP, then deal it 1 damage") chose its
target by stance and wounds alone, and paid 3–5 cards for a blow as often as 1–2. The reading now gives such a choice
per-option `costs:` (`[p.hp for p in ITEMS]`), the engine hands them to agents as `Request.option_costs`, and the
heuristic agent weighs a cheap target against a dear one; the skill reads `attack spends`, used from a surplus."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.engine.agents import Request
from sgsdsl.lang import ast
from sgsdsl.lang.ast_walk import calls, kwarg
from sgsdsl.lang.intent import infer_skill_words
from tests.test_choice_intent import _skill
from tests.test_lang_checker import codes
from tests.test_option_hints import asked_in, asked_with
from tests.test_role_play import view


# ------------------------------------------------------------------ the checker
@pytest.mark.parametrize(("src", "expected"), [
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], costs: [0, 2]) } }', []),
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], costs: [1]) } }', ["SGS-E204"]),
    ('skill s a { on damaged { let x = choose_many(owner, ["a", "b"], 0, 1, costs: [1, 2, 3]) } }', ["SGS-E204"]),
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], costs: 3) } }', ["SGS-E301"]),
    # whom each option befalls (tests/test_option_groups.py): one list of characters per item
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], befalls: [[owner], others(owner)]) } }', []),
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], befalls: [[owner]]) } }', ["SGS-E204"]),
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], befalls: 3) } }', ["SGS-E301"]),
    # item by item: a number per cost, a list of characters per item of befalls
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], costs: ["1", owner.hp]) } }', ["SGS-E301"]),
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], befalls: [3, [owner]]) } }', ["SGS-E301"]),
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], befalls: [[1, owner], []]) } }', ["SGS-E301"]),
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], befalls: [[owner], [event.source]]) } }', []),
])
def test_the_checker_reads_a_choices_costs_and_befalls(src: str, expected: list[str]) -> None:
    assert sorted(codes(src)) == sorted(expected)


# ------------------------------------------------------------------ the engine
COSTED = """\
general 甲 jia : 魏 male 4 {
  skill 问 wen { on turn_start where event.player == owner {
    let x = choose(owner, others(owner) + [owner], prompt: "问", costs: COSTS)
  } }
}
mode 身份局 identity { players 2..2  roles 2 { lord rebel }  leader lord  win lord when count(players()) == 1 }
"""


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_a_choices_costs_reach_the_agent_worked_out_per_option(tmp_path: Path, back_end: str) -> None:
    costs = "[q.hp + (if q == owner then 1 else 0) for q in others(owner) + [owner]]"
    for r in asked_with(tmp_path, COSTED.replace("COSTS", costs), back_end, "问"):
        assert r.option_costs == (4, 5)  # (the other seat's 4 HP, then its own 4 and 1)


@pytest.mark.parametrize(("costs", "why"), [("[1]", "one number per item"), ("[-1, 2]", "whole numbers, at least 0"),
                                            ('["a", "b"]', "whole numbers")])
def test_costs_that_do_not_fit_are_a_rule_error(tmp_path: Path, costs: str, why: str) -> None:
    from sgsdsl.engine.errors import RuleError

    # (not written out where the checker would refuse them: the rule refuses them when it runs)
    program_costs = {"[1]": "[q.hp for q in [owner]]",
                     '["a", "b"]': "[q.name for q in [owner, owner]]"}.get(costs, costs)
    with pytest.raises(RuleError, match=f"choose's costs must .*{why}"):
        asked_in(tmp_path, COSTED.replace("COSTS", program_costs), "compiled")


MENU = """\
card 杀 sha : basic { copies ♠7 ♠8 ♠9 ♠10 ♠J ♠Q ♠K ♥7 ♥8 ♥9  use play target one other
  effect { damage(target, 1, source: user) } }
general 甲 jia : 魏 male 4 {
  skill 破 po { active limit 1 per phase {
    let p = choose(owner, others(owner), costs: [q.hp + 1 for q in others(owner)])
    damage(p, 1, source: owner)
  } }
}
mode 身份局 identity { players 2..2  roles 2 { lord rebel }  leader lord  win lord when count(players()) == 1 }
"""


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_the_play_menu_tells_what_aiming_an_action_at_each_seat_of_its_reach_costs(tmp_path: Path,
                                                                                  back_end: str) -> None:
    kept = asked_in(tmp_path, MENU, back_end)
    menus = [r for r in kept if r.kind == "play" and "skill 破" in r.options]
    assert menus
    for r in menus:
        i = r.options.index("skill 破")
        assert r.option_reach[i] == (1 - r.seat,)
        assert len(r.option_reach_costs[i]) == 1 and 1 <= r.option_reach_costs[i][0] <= 5  # (its HP, and 1)
        assert all(c is None for j, c in enumerate(r.option_reach_costs) if j != i)
    assert menus[0].option_reach_costs[menus[0].options.index("skill 破")] == (5,)  # (the other unhurt: 4 HP)
    assert all(r.option_reach_costs == () for r in kept if r.kind == "play" and "skill 破" not in r.options)


# ------------------------------------------------------------------ the reading
def _costs(skill: ast.SkillDef) -> list[str | None]:
    """Each choice of characters' `costs:` once the skill is read, as the element it works out (None: no costs)."""
    out: list[str | None] = []
    for c in calls(skill.actives[0].body):
        if c.func.text == "choose":
            costs = kwarg(c, "costs")
            out.append(None if costs is None else
                       f"{costs.elem.obj.ident}.{costs.elem.name.text}" if isinstance(costs, ast.ListComp)
                       and isinstance(costs.elem, ast.Attr) and isinstance(costs.elem.obj, ast.Name) else "?")
    return out


POZHAN = ("let p = choose(owner, [q for q in others(owner) if count(hand(owner)) + count(equips(owner)) >= q.hp])\n"
          " let cs = choose_many(owner, hand(owner) + equips(owner), p.hp, p.hp)\n discard(cs, by: owner)\n"
          " damage(p, 1, source: owner)")


@pytest.mark.parametrize(("body", "costs", "words"), [
    (POZHAN, ["p.hp"], ("attack", "spends")),
    # the pick written in place, without `by:` (its holder discards), or given away
    ("let p = choose(owner, others(owner))\n discard(choose_many(owner, hand(owner), p.hp, p.hp))\n"
     " damage(p, 1, source: owner)", ["p.hp"], ("attack", "spends")),
    ("let p = choose(owner, others(owner))\n let cs = choose_many(owner, hand(owner), p.max_hp, 9)\n"
     " give(owner, p, cs)", ["p.max_hp"], ("help", "spends")),
    # a price that does not depend on the one chosen (still a price: `spends`), or paid in another's cards: no costs
    ("let p = choose(owner, others(owner))\n discard(choose_many(owner, hand(owner), 2, 2), by: owner)\n"
     " damage(p, 1, source: owner)", [None], ("attack", "spends")),
    ("let p = choose(owner, having_hand(others(owner)))\n discard(choose_many(owner, hand(p), 1, 1), by: owner)",
     [None], ("control",)),
    # the chosen one's name bound afresh before the price (and so, read no further, no words either)
    ("let p = choose(owner, others(owner))\n damage(p, 1, source: owner)\n let p = owner\n"
     " discard(choose_many(owner, hand(owner), p.hp, p.hp), by: owner)", [None], ()),
])
def test_a_price_read_from_the_one_chosen_is_each_options_cost(tmp_path: Path, body: str, costs: list[str | None],
                                                               words: tuple[str, ...]) -> None:
    skill = _skill(tmp_path, body)
    assert infer_skill_words(skill, {}) == words
    assert _costs(skill) == costs


# ------------------------------------------------------------------ the agent
def test_the_agent_weighs_a_cheap_target_against_a_dear_one() -> None:
    """The lord (seat 0, 5 HP, 4 cards: no surplus) may strike seat 3 (at 2 HP) or seat 5 (unhurt), both of whom
    struck it three times. Free, it strikes the wounded seat 3 every time; when seat 3 costs four of its cards and
    seat 5 none, it strikes seat 5."""
    struck = view(0, hp={3: 2}, damage=[(3, 0, 1), (5, 0, 1)] * 3,
                  acts=[(3, 0, ("attack", "basic")), (5, 0, ("attack", "basic"))] * 3)
    free = Request(0, "choose", "破绽", ("P3", "P5"), about=("attack", "skill"), option_seats=(3, 5))
    dear = free._replace(option_costs=(4, 0))
    assert {HeuristicAgent(seed).decide(free, struck)[0] for seed in range(1, 31)} == {0}
    assert {HeuristicAgent(seed).decide(dear, struck)[0] for seed in range(1, 31)} == {1}


def test_the_agent_uses_a_priced_action_only_on_a_foe_it_can_afford() -> None:
    """Loyalist 1 (4 HP, 6 cards: a surplus of 2) sees seats 3 and 5 strike the lord. Its 破 (`attack spends`)
    costs as many cards as the HP of the one struck: with both foes four cards away (beyond its surplus by two) it
    ends its play phase; with seat 5 two cards away, it uses 破."""
    struck = view(1, damage=[(3, 0, 1), (5, 0, 1)] * 3,
                  acts=[(3, 0, ("attack", "basic")), (5, 0, ("attack", "basic"))] * 3)
    struck["players"][1]["hand"] = 6
    dear = Request(1, "play", "choose a card or skill to use", ("破", "end play phase"),
                   option_tags=(("attack", "spends", "skill"), ("end",)), option_reach=((3, 5), None),
                   option_reach_costs=((4, 4), None))
    cheap = dear._replace(option_reach_costs=((4, 2), None))
    assert {HeuristicAgent(seed).decide(dear, struck)[0] for seed in range(1, 21)} == {1}
    assert {HeuristicAgent(seed).decide(cheap, struck)[0] for seed in range(1, 21)} == {0}
