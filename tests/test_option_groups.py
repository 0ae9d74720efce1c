"""Whom each option of a choice befalls (`choose(…, befalls: …)`, or read from the rule).

A designer's 号召 ("limited: choose a kingdom; its characters each recover 1 HP and draw 1") picked its kingdom at
random, and was spent at full health: a choice among kingdoms that the rule then turns into characters told agents
nothing. The reading now gives such a choice per-option `befalls:` (the characters the rule works out from each
option) and the words of what it does to them; the engine hands the seats to agents as `Request.option_groups`,
and the heuristic agent takes the option whose characters are most its friends."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths
from sgsdsl.engine.agents import Request
from sgsdsl.lang import ast
from sgsdsl.lang.ast_walk import calls, kwarg
from sgsdsl.lang.docs import span_text
from sgsdsl.lang.intent import infer_skill_words
from tests.test_option_hints import asked_in, asked_with
from tests.test_role_play import view

# (the checker reads `befalls:` as it reads `costs:`: tests/test_option_costs.py)


# ------------------------------------------------------------------ the engine
GROUPED = """\
general 甲 jia : 魏 male 4 {
  skill 问 wen { on turn_start where event.player == owner {
    let x = choose(owner, ["me", "them", "all"], prompt: "问", befalls: BEFALLS)
  } }
}
mode 身份局 identity { players 2..2  roles 2 { lord rebel }  leader lord  win lord when count(players()) == 1 }
"""


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_whom_each_option_befalls_reaches_the_agent_as_seats(tmp_path: Path, back_end: str) -> None:
    befalls = "[[owner], others(owner), players()]"
    for r in asked_with(tmp_path, GROUPED.replace("BEFALLS", befalls), back_end, "问"):
        assert r.option_groups == ((r.seat,), (1 - r.seat,), (0, 1))


@pytest.mark.parametrize(("befalls", "why"), [("[[owner]]", "one list of characters per item"),
                                              ('[[owner], ["x"], []]', "lists of characters")])
def test_befalls_that_do_not_fit_are_a_rule_error(tmp_path: Path, befalls: str, why: str) -> None:
    from sgsdsl.engine.errors import RuleError

    # (not written out, so the checker lets them pass: the rule refuses them when it runs)
    written = {"[[owner]]": "[[q] for q in [owner]]"}.get(befalls, "[[owner], [q.name for q in [owner]], []]")
    with pytest.raises(RuleError, match=f"choose's befalls must .*{why}"):
        asked_in(tmp_path, GROUPED.replace("BEFALLS", written), "compiled")


# ------------------------------------------------------------------ the reading
def _skill(tmp_path: Path, body: str, flags: str = "") -> tuple[ast.SkillDef, str]:
    src = tmp_path / "t.sgs"
    text = (f'import "standard"\ngeneral 测试 ceshi : 蜀 male 4 {{\n  skill 试 shi {flags}{{\n    active {{\n{body}\n'
            '    }\n  }\n}\n')
    src.write_text(text, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    assert loaded.checked is not None
    skill = next(s for m in loaded.checked.modules for g in m.generals for s in g.skills if s.ident.text == "shi")
    return skill, text


def _befalls(skill: ast.SkillDef, text: str) -> list[tuple[str, str] | None]:
    """Each choice's `befalls:` once the skill is read, as (the characters it works out, its `tags:`)."""
    out: list[tuple[str, str] | None] = []
    for c in calls(skill.actives[0].body):
        if c.func.text == "choose":
            given, tags = kwarg(c, "befalls"), kwarg(c, "tags")
            out.append(None if not isinstance(given, ast.ListComp) or not isinstance(tags, ast.Lit) else
                       (span_text(text, given.elem.span), str(tags.value)))
    return out


HAOZHAO = ("let k = choose(owner, [魏, 蜀, 吴, 群])\n for p in [q for q in players() if q.kingdom == k] {\n"
           " recover(p, 1)\n draw(p, 1) }")


@pytest.mark.parametrize(("body", "befalls", "words"), [
    (HAOZHAO, [("[q for q in players() if q.kingdom == k]", "help")], ("heal", "help")),
    # the characters bound to a name first, or listed by a function of the option
    ("let k = choose(owner, [魏, 蜀])\n let ps = of_kingdom(others(owner), k)\n for p in ps { draw(p, 1) }",
     [("of_kingdom(others(owner), k)", "help")], ("help",)),
    ("let k = choose(owner, [魏, 蜀])\n for p in of_kingdom(others(owner), k) { damage(p, 1, source: owner) }",
     [("of_kingdom(others(owner), k)", "attack")], ("attack",)),
    # done both ways, worked out from a name bound after the choice, or a choice of characters: nothing
    ("let k = choose(owner, [魏, 蜀])\n for p in of_kingdom(others(owner), k) { draw(p, 1)\n damage(p, 1) }", [None],
     ()),
    ("let k = choose(owner, [魏, 蜀])\n let n = owner.hp\n for p in [q for q in players() if q.kingdom == k and"
     " q.hp < n] { draw(p, 1) }", [None], ()),
    ("let t = choose(owner, others(owner))\n for p in [q for q in players() if q.kingdom == t.kingdom] {"
     " draw(p, 1) }", [None], ()),
])
def test_a_choice_turned_into_characters_befalls_them(tmp_path: Path, body: str,
                                                     befalls: list[tuple[str, str] | None],
                                                     words: tuple[str, ...]) -> None:
    skill, text = _skill(tmp_path, body)
    assert infer_skill_words(skill, {}) == words
    assert _befalls(skill, text) == befalls


# ------------------------------------------------------------------ the agent
def test_the_agent_takes_the_option_that_befalls_its_friends() -> None:
    """Loyalist 1 (the lord at seat 0 struck three times by seat 3) chooses which of three groups recover and draw:
    the lord's with its own, seat 3's, or the lord's with seat 3's. It takes the first every time; made to harm,
    the second; free to decline a help that befalls only seat 3, it declines."""
    struck = view(1, damage=[(3, 0, 1)] * 3, acts=[(3, 0, ("attack", "basic"))] * 3)
    helping = Request(1, "choose", "号召", ("魏", "蜀", "吴"), about=("heal", "help", "skill"),
                      option_seats=(None, None, None), option_groups=((0, 1), (3,), (0, 3)))
    harming = helping._replace(about=("attack", "skill"))
    only_foe = helping._replace(low=0, options=("蜀",), option_seats=(None,), option_groups=((3,),))
    assert {HeuristicAgent(seed).decide(helping, struck)[0] for seed in range(1, 21)} == {0}
    assert {HeuristicAgent(seed).decide(harming, struck)[0] for seed in range(1, 21)} == {1}
    assert all(HeuristicAgent(seed).decide(only_foe, struck) == [] for seed in range(1, 21))
