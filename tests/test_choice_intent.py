"""A choice of characters without words of its own is told to agents by what its rule does with the one chosen
(lang/intent.py): 马良's 应援 (`choose(owner, others(owner))`, then `obtain(p, event.card)`) reads as `help`, so the
heuristic agent gives the card to a friend instead of a foe."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths, program_for
from sgsdsl.engine.agents import Request
from sgsdsl.engine.game import Game
from sgsdsl.engine.registry import (
    AI_HINTS,
    FIELD_EFFECTS,
    FIELD_EFFECTS_BY_FAMILY,
    PARAM_EFFECTS,
    PARAM_EFFECTS_BY_VALUE,
    PRIMITIVES,
    TIMINGS,
)
from sgsdsl.interp.reach import first_seat_choice
from sgsdsl.lang import ast
from sgsdsl.lang.ast_walk import calls, calls_in, fixed_seat, kwarg
from sgsdsl.lang.intent import family_words, infer_choice_words, infer_skill_words, mark_words
from sgsdsl.scenario.runner import ScenarioAgent, read_scenario, run_scenario
from sgsdsl.sim import play_one

ROOT = Path(__file__).resolve().parent.parent
MALIANG = ROOT / "docs" / "examples" / "maliang.scenario"


def _skill(tmp_path: Path, body: str, tags: str = "", prelude: str = "") -> ast.SkillDef:
    """The skill 试 of a general of its own, its action's BODY; PRELUDE: definitions before the general (procedures)."""
    src = tmp_path / "t.sgs"
    src.write_text(f'import "standard"\n{prelude}\ngeneral 测试 ceshi : 蜀 male 4 {{\n  skill 试 shi {{\n'
                   f'{"    tags " + tags if tags else ""}\n    active {{\n{body}\n    }}\n  }}\n}}\n', encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    assert loaded.checked is not None
    return next(s for m in loaded.checked.modules for g in m.generals for s in g.skills if s.ident.text == "shi")


def _words(skill: ast.SkillDef) -> list[str | None]:
    """Infer, then each choice's `tags:` as the body now carries it (None: no words)."""
    infer_choice_words(skill.actives[0].body, frozenset(t.text for t in skill.tags))
    out: list[str | None] = []

    def walk(node: object) -> None:
        if isinstance(node, ast.Call) and node.func.text in ("choose", "choose_many"):
            tags = kwarg(node, "tags")
            out.append(tags.value if isinstance(tags, ast.Lit) else None)
        if isinstance(node, ast.Node):
            for value in vars(node).values():
                for item in value if isinstance(value, list) else [value]:
                    walk(item[1] if isinstance(item, tuple) else item)

    walk(skill.actives[0].body)
    return out


@pytest.mark.parametrize(("body", "words"), [
    ("let p = choose(owner, others(owner))\n obtain(p, hand(owner))", ["help"]),
    ("let p = choose(owner, others(owner), optional: true)\n if p != none { draw(p, 1) }", ["help"]),
    ("let p = choose(owner, others(owner))\n recover(p, 1)\n draw(p, 1)", ["help"]),
    ("let p = choose(owner, others(owner))\n give(owner, p, hand(owner))", ["help"]),
    ("let p = choose(owner, others(owner))\n damage(p, 1, source: owner)", ["attack"]),
    ("let p = choose(owner, others(owner))\n skip_phase(p, draw)", ["control"]),
    ("let p = choose(owner, others(owner))\n let c = choose_card_from(owner, p)\n obtain(owner, c)", ["control"]),
    ("let ps = choose_many(owner, others(owner), 1, 2)\n for q in ps { draw(q, 1) }", ["help"]),
    ("obtain(choose(owner, others(owner)), hand(owner))", ["help"]),
    # a loop straight over the choice (a designer's 劫粮: take a hand card from each of one or two)
    ("for q in choose_many(owner, having_hand(others(owner)), 1, 2) {\n let c = choose_card_from(owner, q, [hand])\n"
     " obtain(owner, c) }", ["control"]),
    ("for q in choose_many(owner, others(owner), 1, 2) { draw(q, 1) }", ["help"]),
    # used both ways, or in no marked way: no words (the agent's default stands)
    ("let p = choose(owner, others(owner))\n draw(p, 2)\n damage(p, 1)", [None]),
    # a hand swapped with the owner's: `swap`, weighed by the hands' sizes at the choice; with more done to the one
    # chosen, swapped between two others, or chosen by another than the owner, nothing
    ("let p = choose(owner, others(owner))\n swap_cards(owner, p)", ["swap"]),
    ("let p = choose(owner, others(owner))\n swap_cards(p, owner)", ["swap"]),
    ("swap_cards(choose(owner, others(owner)), owner)", ["swap"]),
    ("let p = choose(owner, others(owner))\n swap_cards(owner, p)\n damage(p, 1)", [None]),
    ("let p = choose(owner, others(owner))\n let q = choose(owner, others(owner), tags: \"neutral\")\n"
     " swap_cards(q, p)", [None, "neutral"]),
    ("let t = choose(owner, others(owner), tags: \"neutral\")\n let p = choose(t, others(t))\n"
     " swap_cards(owner, p)", ["neutral", None]),
    # the one made to use a card on another sides with the act (a designer's 驱使); made to use it on the owner
    # (挑衅's), the rule's other uses of it decide
    ("let a = choose(owner, others(owner))\n let b = choose(owner, others(owner))\n use_card_on(a, 杀, b)",
     ["help", "attack"]),
    ("let t = choose(owner, others(owner))\n if not use_card_on(t, 杀, owner) {\n"
     " discard(choose_card_from(owner, t), by: owner) }", ["control"]),
    ("let t = choose(owner, others(owner))\n use_card_on(t, 杀, owner)", [None]),
    # turned over (face up, it skips its next turn) or contested (a hand card spent): hampered
    ("let p = choose(owner, others(owner))\n turn_over(p)", ["control"]),
    ("let p = choose(owner, having_hand(others(owner)))\n let r = pindian(owner, p)\n if r.won { draw(owner, 1) }",
     ["control"]),
    ("let p = choose(owner, others(owner))\n let p = owner\n draw(p, 1)", [None]),
    # words that depend on an argument written out: more maximum HP helps, less hurts; chained is hampered,
    # unchained helped; worked out at play (or zero), it says nothing
    ("let p = choose(owner, others(owner))\n change_max_hp(p, 1)", ["help"]),
    ("let p = choose(owner, others(owner))\n change_max_hp(p, -1)", ["attack"]),
    ("let p = choose(owner, others(owner))\n change_max_hp(p, 1)\n recover(p, 1)", ["help"]),
    ("let p = choose(owner, others(owner))\n change_max_hp(p, -1)\n draw(p, 2)", [None]),
    ("let p = choose(owner, others(owner))\n change_max_hp(p, p.hp - p.max_hp)", [None]),
    ("let p = choose(owner, others(owner))\n change_max_hp(p, 0)", [None]),
    ("let p = choose(owner, others(owner))\n set_chained(p, true)", ["control"]),
    ("let p = choose(owner, others(owner))\n set_chained(p, not true)", ["help"]),
    ("let p = choose(owner, others(owner))\n set_chained(p, false)\n draw(p, 1)", ["help"]),
    ("let p = choose(owner, others(owner))\n set_chained(p, not p.chained)", [None]),
    ("let p = choose(owner, others(owner))\n set_chained(p, true)\n damage(p, 1, nature: fire)", ["attack"]),
    # a chain is only the chance of more to come: beside a sure help it says nothing (a designer's 同袍, "chain
    # yourself and another, then each draws 1": a help), through a procedure too
    ("let p = choose(owner, others(owner))\n set_chained(owner, true)\n set_chained(p, true)\n draw(owner, 1)\n"
     " draw(p, 1)", ["help"]),
    # a card of a family used on the one chosen does what that card's tags say it does to its targets
    ("let p = choose(owner, others(owner))\n use_virtual(owner, 杀, [p])", ["attack"]),
    ("let p = choose(owner, others(owner))\n use_card_on(owner, 杀, p)", ["attack"]),
    ("let p = choose(owner, others(owner))\n use_virtual(owner, 顺手牵羊, [p])", ["control"]),
    ("let p = choose(owner, others(owner))\n use_virtual(owner, 桃, [p])", ["help"]),
    ("use_virtual(owner, 杀, [choose(owner, others(owner))])", ["attack"]),
    ("let p = choose(owner, others(owner))\n use_virtual(owner, 闪, [p])", [None]),
    ("let p = choose(owner, others(owner))\n use_virtual(owner, 桃, [p])\n use_virtual(owner, 杀, [p])", [None]),
    # a delayed card moved into the one chosen's judge area hampers it; a card put into its equipment helps it
    ("let p = choose(owner, others(owner))\n for c in judge_cards(owner) { move_to_judge(c, p) }", ["control"]),
    ("let p = choose(owner, others(owner))\n for c in equips(owner) { put_in_equip(p, c) }", ["help"]),
    # written words are the rule's: kept as they are
    ("let p = choose(owner, others(owner), tags: \"control\")\n draw(p, 1)", ["control"]),
    # another's card, picked into a name, taken by the owner: the one it is taken from is hampered (易甲's shape;
    # with a card of the owner's put into its equipment besides, both, so no words)
    ("let p = choose(owner, having_cards(others(owner)))\n let c = choose(owner, equips(p) + hand(p))\n"
     " obtain(owner, c)", ["control", None]),
    ("let p = choose(owner, [q for q in others(owner) if count(equips(q)) > 0])\n let c = choose(owner, equips(p))\n"
     " obtain(owner, c)\n for e in equips(owner) { put_in_equip(p, e) }", [None, None]),
    # a card the one chosen discards of its own, itself, beside a help to it: the help's price (a designer's 劝弃,
    # "it discards a card, then recovers 1"); alone, a hampering; in a branch of its own, not beside the help
    ("let p = choose(owner, others(owner))\n discard(choose(p, hand(p) + equips(p)), by: p)\n recover(p, 1)",
     ["help", None]),
    ("let p = choose(owner, others(owner))\n discard(choose(p, hand(p)), by: p)", ["control", None]),
    ("let p = choose(owner, others(owner))\n if p.hp > 2 { discard(choose(p, hand(p)), by: p) } else { draw(p, 1) }",
     [None, None]),
    ("let p = choose(owner, others(owner))\n discard(choose(owner, hand(p)), by: owner)\n recover(p, 1)",
     [None, None]),
])
def test_a_choice_is_told_by_what_its_rule_does_with_the_one_chosen(tmp_path: Path, body: str,
                                                                   words: list[str | None]) -> None:
    assert _words(_skill(tmp_path, body)) == words


def test_a_skill_that_says_whom_it_aims_at_keeps_its_words(tmp_path: Path) -> None:
    skill = _skill(tmp_path, "let p = choose(owner, others(owner))\n draw(p, 1)", tags="attack")
    assert _words(skill) == [None]
    cycle = _skill(tmp_path, "let p = choose(owner, others(owner))\n draw(p, 1)", tags="cycle")
    assert _words(cycle) == ["help"]  # (a word that says nothing of whom it aims at)


def test_inferring_twice_changes_nothing(tmp_path: Path) -> None:
    """The checker reads the rule (its note on a choice agents cannot aim needs the reading, SGS-W407); the build
    reads it again, and finds each choice with the words the first reading gave it."""
    skill = _skill(tmp_path, "let p = choose(owner, others(owner))\n draw(p, 1)")
    assert _words(skill) == ["help"]  # (given by the check)
    body = skill.actives[0].body
    assert infer_choice_words(body) == []
    assert _words(skill) == ["help"]


def test_the_effects_table_names_real_player_parameters_and_hint_words() -> None:
    for name, marks in PARAM_EFFECTS.items():
        params = {p.name: p.type for p in PRIMITIVES[name].params}
        for param, word in marks.items():
            assert params.get(param) == "player", (name, param)
            assert word in AI_HINTS, (name, word)
    for name, (param, argument, more, less) in PARAM_EFFECTS_BY_VALUE.items():
        params = {p.name: p.type for p in PRIMITIVES[name].params}
        assert params.get(param) == "player" and params.get(argument) in ("int", "bool"), name
        assert more in AI_HINTS and less in AI_HINTS, name


def test_a_choice_read_from_a_written_argument_is_no_longer_a_warning(tmp_path: Path) -> None:
    """SGS-W407 goes once the reading gives the choice words: a maximum HP given is read; one worked out at play
    is still a choice agents cannot aim."""
    def warnings(call: str) -> list[str]:
        src = tmp_path / "w.sgs"
        src.write_text('import "standard"\ngeneral 测试 ceshi : 蜀 male 4 {\n  skill 试 shi {\n    active {\n'
                       f'      let p = choose(owner, others(owner))\n      {call}\n    }}\n  }}\n}}\n',
                       encoding="utf-8")
        loaded = check_paths([str(src)])
        assert loaded.ok
        return [d.code for d in loaded.diagnostics if d.code == "SGS-W407"]

    assert warnings("change_max_hp(p, 1)") == []
    assert warnings("set_chained(p, true)") == []
    assert warnings("change_max_hp(p, owner.hp)") == ["SGS-W407"]
    assert warnings("use_virtual(owner, 杀, [p])") == []
    assert warnings("use_virtual(owner, 闪, [p])") == ["SGS-W407"]


def test_each_family_is_read_by_its_cards_tags() -> None:
    loaded = check_paths([str(ROOT / "rules" / "junzheng.sgs")])
    assert loaded.checked is not None
    words = family_words(c for m in loaded.checked.modules for c in m.cards)
    assert words["杀"] == "attack" and words["桃"] == "help" and words["顺手牵羊"] == "control"
    assert words["无中生有"] == "help" and words["铁索连环"] == "control"
    assert "闪" not in words  # (`tags defence`: nothing it does to a target)
    assert words["火杀"] == "attack"  # (a card of the 杀 family, tagged as 杀 is)


def _seat_choice_about(monkeypatch, scenario: Path, engine: str, which: int = 0) -> tuple[str, ...]:
    """Play the scenario (it must pass) and give the words (`Request.about`) of its choice of characters number WHICH
    (-1: the last)."""
    asked: list[Request] = []
    original = ScenarioAgent.decide

    def recording(self, request, view):
        asked.append(request)
        return original(self, request, view)

    monkeypatch.setattr(ScenarioAgent, "decide", recording)
    out = run_scenario(read_scenario(scenario), engine)
    assert out.passed, out.failures
    return [r for r in asked if r.kind == "choose" and r.option_seats][which].about


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_maliangs_choice_reaches_agents_as_help(monkeypatch, engine: str) -> None:
    """The README's example general: the seat chosen for 应援 is asked with `about` ("help",), on both back ends."""
    assert _seat_choice_about(monkeypatch, MALIANG, engine) == ("help",)


def test_the_heuristic_agent_gives_a_help_choice_to_a_friend_only() -> None:
    players = [{"seat": s, "general": "?", "hp": 3, "max_hp": 3, "alive": True, "hand": 1, "equips": [],
                "judge": [], "face_down": False, "piles": {}, "role": role}
               for s, role in [(0, "lord"), (1, "loyalist"), (2, "rebel")]]
    view = {"seat": 0, "hand": [], "role": "lord", "players": players, "draw_pile": 50, "discard_top": [],
            "sides": [["lord", "loyalist"], ["rebel"]], "roles_in_play": ["lord", "loyalist", "rebel"],
            "damage_history": [], "recover_history": [], "role_shown": True}
    request = Request(0, "choose", "choose", ("P1", "P2"), 0, 1, ("help",), option_seats=(1, 2))
    assert HeuristicAgent(1).decide(request, view) == [0]
    harmful = Request(0, "choose", "choose", ("P1", "P2"), 0, 1, (), option_seats=(1, 2))
    assert HeuristicAgent(1).decide(harmful, view) == [1]
    # `risk` is the chooser's price, not a harm to the one chosen: a heal paid for in its own HP goes to a friend
    # (read as harmful, a designer's `tags help risk` 舍身 healed foes: -3.2 points to its owner, 5 players)
    paid = Request(0, "choose", "choose", ("P1", "P2"), 0, 1, ("help", "risk"), option_seats=(1, 2))
    assert HeuristicAgent(1).decide(paid, view) == [0]
    # `neutral`: anyone will do, friend or foe (and it must name one)
    anyone = Request(0, "choose", "choose", ("P1", "P2"), 1, 1, ("neutral",), option_seats=(1, 2))
    assert {HeuristicAgent(seed).decide(anyone, view)[0] for seed in range(1, 21)} == {0, 1}


UNREAD = """import "standard"
general 测试 ceshi : 蜀 male 4 {
  skill 易手 yishou {
    active limit 1 per phase { swap_cards(choose(owner, others(owner)), choose(owner, others(owner), tags: "help")) }
  }
  skill 借鉴 jiejian {
    active limit 1 per phase { swap_cards(owner, choose(owner, others(owner), tags: "neutral")) }
  }
  skill 天香 tianxiang {
    tags defence
    on taking_damage where event.target == owner optional {
      let t = choose(owner, others(owner))
      transfer_damage(event, t)
      draw(t, 1)
    }
  }
  skill 惊梦 jingmeng {
    active limit 1 per phase { turn_over(choose(owner, others(owner))) }
  }
  skill 反目 fanmu {
    tags control
    active limit 1 per phase { swap_cards(owner, choose(owner, others(owner))) }
  }
}
card 移花 yihua : trick {
  copies ♠3
  use play target self
  effect { swap_cards(user, choose(user, others(user))) }
}
"""


def test_a_choice_agents_cannot_aim_is_a_warning(tmp_path: Path) -> None:
    """SGS-W407 where no words say whom a choice of characters is for, and its rule says nothing either (a hand
    swapped between two others) or both (the damage moved to the one chosen, who then draws); none where a word is
    written (`neutral` too), read from the rule (a seat turned over is hampered), or given by the skill's `tags`."""
    src = tmp_path / "unread.sgs"
    src.write_text(UNREAD, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok
    found = [(d.span.line, d.severity, d.message) for d in loaded.diagnostics if d.code == "SGS-W407"]
    assert [(line, severity) for line, severity, _ in found] == [(4, "warning"), (12, "warning"), (28, "warning")]
    assert "skill '易手'" in found[0][2] and "does nothing with the one chosen" in found[0][2]
    assert "skill '天香'" in found[1][2] and "both helps and harms" in found[1][2]
    assert "card '移花'" in found[2][2]


def test_the_bundled_rules_and_examples_leave_no_choice_unaimed() -> None:
    paths = [*sorted((ROOT / "rules").glob("*.sgs")), *sorted((ROOT / "rules" / "house").glob("*.sgs")),
             *sorted((ROOT / "docs" / "examples").glob("*.sgs"))]
    for path in paths:
        assert not [d for d in check_paths([str(path)]).diagnostics if d.code == "SGS-W407"], path


def test_a_skill_is_read_by_the_word_its_choices_agree_on(tmp_path: Path) -> None:
    """The skill itself is weighed by its choices' words ("use 济世?", its place in the play menu): by every word
    its choices were given when each has one (a designer's 调度, a friend to draw and a foe to discard: used only
    with both within reach), none when a choice of characters is left without, or when it says whom it aims at."""
    helping = _skill(tmp_path, "let p = choose(owner, others(owner))\n let c = choose(owner, hand(owner))\n"
                               " give(owner, p, [c])\n draw(owner, 1)")
    assert infer_skill_words(helping, {}) == ("help",)
    assert infer_skill_words(helping, {}) == ("help",)  # (once: the second reading gives the same)
    both = _skill(tmp_path, "let p = choose(owner, others(owner))\n draw(p, 1)\n"
                            "let q = choose(owner, others(owner))\n damage(q, 1)")
    assert infer_skill_words(both, {}) == ("attack", "help")
    unread = _skill(tmp_path, "let p = choose(owner, others(owner))\n draw(p, 1)\n"
                              "let q = choose(owner, others(owner))\n damage(q, 1)\n"
                              "let r = choose(owner, others(owner))")
    assert infer_skill_words(unread, {}) == ()
    tagged = _skill(tmp_path, "let p = choose(owner, others(owner))\n draw(p, 1)", tags="help draw")
    assert infer_skill_words(tagged, {}) == ()


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_both_back_ends_give_the_skill_its_word(tmp_path: Path, engine: str) -> None:
    src = tmp_path / "g.sgs"
    src.write_text('import "standard"\ngeneral 医者 yizhe : 蜀 male 3 {\n  skill 济世 jishi {\n'
                   '    on phase_end where event.player == owner and event.phase == finish optional {\n'
                   '      let p = choose(owner, [q for q in others(owner) if q.hp < q.max_hp], optional: true)\n'
                   '      if p != none { recover(p, 1, source: owner) }\n    }\n  }\n}\n', encoding="utf-8")
    program = program_for(check_paths([str(src)]), engine)
    assert [sorted(s.tags) for s in program.generals["yizhe"].skills] == [["help"]]


@pytest.mark.parametrize(("body", "words"), [
    ("let c = choose(owner, hand(owner))\n discard([c], by: owner)\n recover(owner, 1, source: owner)", ("heal",)),
    ("lose_hp(owner, 1)\n draw(owner, 2)", ("draw", "risk")),
    # what it does for others too (every seat at or above its HP draws): not its owner's alone, no words
    ("for p in [q for q in others(owner) if q.hp >= owner.hp] { draw(p, 1) }\n draw(owner, 1)", ()),
    # a choice of characters left without words (a hand swapped between two others): the skill's words would aim
    # it, so none
    ("let p = choose(owner, others(owner))\n let q = choose(owner, others(owner), tags: \"neutral\")\n"
     " swap_cards(q, p)\n draw(owner, 1)", ()),
])
def test_an_action_that_chooses_nobody_is_read_by_what_it_does_for_its_owner(tmp_path: Path, body: str,
                                                                            words: tuple[str, ...]) -> None:
    """养生 (a card for 1 HP) untagged was used at random, at full health too: worth +2.9 points to its owner; read as
    `heal`, +8.2 (5 players, 1,000 paired seeds; docs/language.md)."""
    assert infer_skill_words(_skill(tmp_path, body), {}) == words


def test_an_optional_trigger_is_read_only_by_a_price_in_hp(tmp_path: Path) -> None:
    src = tmp_path / "t.sgs"
    src.write_text('import "standard"\ngeneral 测试 ceshi : 蜀 male 4 {\n'
                   '  skill 勤学 qinxue {\n    on phase_start where event.player == owner and event.phase == prepare'
                   ' optional { lose_hp(owner, 1)\n draw(owner, 3) }\n  }\n'
                   '  skill 自省 zixing {\n    on damaged where event.target == owner optional {\n'
                   '      draw(owner, 1)\n    }\n  }\n'
                   '}\n', encoding="utf-8")
    checked = check_paths([str(src)]).checked
    assert checked is not None
    skills = {s.ident.text: s for m in checked.modules for g in m.generals for s in g.skills}
    assert infer_skill_words(skills["qinxue"], {}) == ("risk",)
    assert infer_skill_words(skills["zixing"], {}) == ()  # (untagged, it was always used: `draw` changes nothing)


def _trigger_skill_words(tmp_path: Path, trigger: str) -> tuple[str, ...]:
    """The words the optional trigger TRIGGER (its whole `on …` text) of a general's only skill is read by."""
    src = tmp_path / "t.sgs"
    src.write_text(f'import "standard"\ngeneral 测试 ceshi : 蜀 male 4 {{\n  skill 试 shi {{\n    {trigger}\n'
                   '  }\n}\n', encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and loaded.checked is not None, [d.message for d in loaded.diagnostics]
    skill = next(s for m in loaded.checked.modules for g in m.generals for s in g.skills if s.ident.text == "shi")
    return infer_skill_words(skill, {})


@pytest.mark.parametrize(("trigger", "words"), [
    # 复仇: the killer of another who died loses 1 HP (the event has no target, player or user)
    ("on died where event.victim != owner and event.killer != none and event.killer != owner optional {\n"
     " lose_hp(event.killer, 1) }", ("attack",)),
    # 抚恤: another who took damage draws; bound to a name first, the same
    ("on damaged where event.target != owner optional { draw(event.target, 1) }", ("help",)),
    ("on damaged where event.target != owner optional { let p = event.target\n recover(p, 1) }", ("help",)),
    # 护卫: a 杀 aimed at another cancelled, for a card of the owner's: its target is spared
    ("on targeted where event.target != owner and event.card is 杀 and count(hand(owner)) > 0 optional {\n"
     " discard([first(hand(owner))], by: owner)\n cancel(event) }", ("help", "spends")),
    # 截击: a card used (no target, no player): its user, made to discard for a card of the owner's
    ("on card_used where event.user != owner and event.card is 杀 optional {"
     " discard([first(hand(owner))], by: owner)\n discard([first(hand(event.user))], by: event.user) }",
     ("control", "spends")),
    # damage about to be made to another prevented; another's heal stopped; an event without a target: its player
    ("on creating_damage where event.target != owner optional { cancel(event) }", ("help",)),
    ("on recovering where event.target != owner optional { cancel(event) }", ("control",)),
    ("on phase_start where event.player != owner and event.phase == play optional {"
     " discard([first(hand(event.player))], by: event.player) }", ("control",)),
    # harmed for a price in HP: both words
    ("on damaged where event.target != owner optional { lose_hp(owner, 1)\n damage(event.target, 1) }",
     ("attack", "risk")),
    # its own draw given up (再起's shape): the event befalls the owner, no word for it
    ("on drawing where event.player == owner optional { cancel(event)\n draw(owner, 1) }", ()),
    # the owner gains besides (固政's shape), a third character touched: as before, no words
    ("on damaged where event.target != owner optional { draw(event.target, 1)\n draw(owner, 1) }", ()),
    ("on damaged where event.target != owner and event.source != none optional {"
     " draw(event.target, 1)\n draw(event.source, 1) }", ()),
    # the card unpinned: `cancels`, weighed by the card when asked (破咒)
    ("on targeted where event.target != owner optional { cancel(event) }", ("cancels",)),
    # 挺身: a 杀 aimed at another turned on the owner: the one it was aimed at is spared, the owner takes the blow
    ("on targeted where event.target != owner and event.user != owner and event.card is 杀 optional {\n"
     " event.target = owner }", ("help", "risk")),
    ("on targeted where event.target != owner and event.card is 杀 optional { let me = owner\n event.target = me }",
     ("help", "risk")),
    # (the card unpinned: what it does to whom it is aimed at is not known)
    ("on targeted where event.target != owner optional { event.target = owner }", ()),
    # 乘隙: another's equipment discarded by the owner is no price of the owner's, and hampers the one it befalls
    ("on lost_cards where event.player != owner and count(equips(event.player)) > 0 optional {\n"
     " discard(choose_card_from(owner, event.player, areas: [\"equip\"]), by: owner) }", ("control",)),
    ("on damaged where event.target != owner and count(hand(event.target)) > 0 optional {\n"
     " discard(choose(owner, hand(event.target)), by: owner) }", ("control",)),
    # (the owner's own card, chosen among its hand: still its price)
    ("on damaged where event.target != owner and count(hand(owner)) > 0 optional {\n"
     " discard(choose(owner, hand(owner)), by: owner)\n draw(event.target, 1) }", ("help", "spends")),
    # 督察: another's card picked into a name first, then discarded by the owner: no price of its own either
    ("on phase_start where event.player != owner and event.phase == finish optional {\n"
     " let c = choose_card_from(owner, event.player)\n if c != none { discard(c, by: owner) } }", ("control",)),
    # 拾遗: a discard names only the one who discarded (`by`): it is the one befallen, helped by a card back
    ("on discarded where event.by != none and event.by != owner optional {\n"
     " obtain(event.by, first(event.cards)) }", ("help",)),
])
def test_an_optional_trigger_is_read_by_what_it_does_to_the_one_its_event_befalls(
        tmp_path: Path, trigger: str, words: tuple[str, ...]) -> None:
    """A designer's 抚恤 and 护卫, untagged, were always used (a card drawn, a 杀 stopped, for a foe as often as for a
    friend): worth −8.5 and −19.6 points to their owners at 5 players (2,000 paired seeds); read as `help`, +2.6
    and +0.5 (docs/balance.md)."""
    assert _trigger_skill_words(tmp_path, trigger) == words


def test_hover_says_what_agents_read_from_the_rule(tmp_path: Path) -> None:
    """The language server's hover on an untagged skill says how agents read it (`sgsdsl lsp`)."""
    from sgsdsl.lsp.analysis import analyze, hover

    src = (ROOT / "docs" / "examples" / "maliang.sgs").read_text(encoding="utf-8")
    path = tmp_path / "maliang.sgs"
    path.write_text(src, encoding="utf-8")
    a = analyze(path, src)
    line = next(i for i, x in enumerate(src.split("\n")) if "skill 应援" in x)
    found = hover(a, line, src.split("\n")[line].index("应援"))
    assert found is not None
    assert "agents read it from its rule as `help`" in found[0]


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_choice_in_a_cards_effect_is_read_from_it_too(monkeypatch, tmp_path: Path, engine: str) -> None:
    """A designer's card whose effect names a character to give a card to: the choice reads as `help` (a card's
    `tags` say what it does to its targets, and never reached a choice in its effect)."""
    (tmp_path / "c.sgs").write_text(
        'import "standard"\ncard 转赠 zhuanzeng : trick {\n  tags draw\n  copies ♥3\n  use play target self\n'
        '  effect {\n    draw(user, 1)\n    let p = choose(user, others(user), prompt: "转赠: whom")\n'
        '    obtain(p, hand(user))\n  }\n}\n', encoding="utf-8")
    (tmp_path / "c.scenario").write_text(
        "scenario: 转赠\nrule: the choice in a card's effect\nrules: c.sgs\nseat P0: 孙权 lord\n  hand: 转赠♥3\n"
        "seat P1: 张飞 rebel\nseat P2: 黄盖 loyalist\ndeck: 杀♣2\nP0: 转赠♥3, P2, end play phase\n"
        "expect P2 hand: 杀♣2\n", encoding="utf-8")
    assert _seat_choice_about(monkeypatch, tmp_path / "c.scenario", engine) == ("help",)


def test_a_granted_action_is_not_read_by_what_it_does_for_the_owner(tmp_path: Path) -> None:
    """A granted action (制霸) is used by others: its `owner` gains, not the one who uses it, so it gets no words
    (read as `draw`, every 吴 seat would have used it whenever it could)."""
    src = tmp_path / "t.sgs"
    src.write_text('import "standard"\ngeneral 测试 ceshi : 吴 male 4 {\n  skill 纳贡 nagong leader {\n'
                   '    grant limit 1 per phase where user.kingdom == 吴 { draw(owner, 1) }\n  }\n}\n',
                   encoding="utf-8")
    checked = check_paths([str(src)]).checked
    assert checked is not None
    skill = next(s for m in checked.modules for g in m.generals for s in g.skills if s.ident.text == "nagong")
    assert skill.actives and skill.actives[0].granted
    assert infer_skill_words(skill, {}) == ()


PROCEDURES = """
procedure hurt(q: player, who: player) { damage(q, 1, source: who) }
procedure favour(q: player) {
  draw(q, 1)
  recover(q, 1)
}
procedure favour_through(q: player) { favour(q) }
procedure mixed(q: player) {
  draw(q, 2)
  hurt(q, q)
}
procedure favour_each(ps: players) { for q in ps { draw(q, 1) } }
procedure heal(p: player) { recover(p, 1) }
procedure heal_everyone(p: player) { for q in players() { recover(q, 1) } }
procedure bind(q: player) { set_chained(q, true) }
"""


@pytest.mark.parametrize(("body", "words"), [
    ("let p = choose(owner, others(owner))\n hurt(p, owner)", ["attack"]),
    ("let p = choose(owner, others(owner))\n favour(p)", ["help"]),
    ("let p = choose(owner, others(owner))\n favour_through(p)", ["help"]),  # (a procedure that calls one)
    ("let p = choose(owner, others(owner))\n mixed(p)", [None]),  # (helped and hurt inside)
    ("let p = choose(owner, others(owner))\n hurt(owner, p)", [None]),  # (passed where nothing is done to it)
    ("let ps = choose_many(owner, others(owner), 1, 2)\n favour_each(ps)", ["help"]),
    ("let p = choose(owner, others(owner))\n favour_each([p])", ["help"]),
    ("favour(choose(owner, others(owner)))", ["help"]),
    ("hurt(choose(owner, others(owner)), owner)", ["attack"]),
    ("mixed(choose(owner, others(owner)))", [None]),
    # a chain put on through a procedure is as slight as one put on in the body: a sure help decides
    ("let p = choose(owner, others(owner))\n bind(p)\n draw(p, 1)", ["help"]),
    ("let p = choose(owner, others(owner))\n bind(p)", ["control"]),
])
def test_a_choice_passed_to_a_procedure_is_told_by_what_its_body_does(tmp_path: Path, body: str,
                                                                     words: list[str | None]) -> None:
    """A procedure's call does to the one chosen what the procedure's body does to its parameter, through the
    procedures that body calls in turn."""
    assert _words(_skill(tmp_path, body, prelude=PROCEDURES)) == words


def test_a_skill_that_helps_its_owner_through_a_procedure_is_read_by_it(tmp_path: Path) -> None:
    """What a skill choosing nobody does for its owner is read through a procedure it passes the owner to; a
    procedure that also helps others makes the skill's worth not its owner's alone."""
    assert infer_skill_words(_skill(tmp_path, "heal(owner)", prelude=PROCEDURES), {}) == ("heal",)
    assert infer_skill_words(_skill(tmp_path, "heal_everyone(owner)", prelude=PROCEDURES), {}) == ()
    assert infer_skill_words(_skill(tmp_path, "heal(first(others(owner)))", prelude=PROCEDURES), {}) == ()


IN_PROCEDURES = """import "standard"
procedure lend(owner: player) {
  let p = choose(owner, others(owner))
  draw(p, 1)
}
procedure swap(owner: player) { swap_cards(choose(owner, others(owner)), choose(owner, others(owner), tags: "help")) }
general 测试 ceshi : 蜀 male 4 {
  skill 借 jie {
    active limit 1 per phase { lend(owner) }
  }
  skill 换 huan {
    tags control
    active limit 1 per phase { swap(owner) }
  }
}
"""


def test_a_choice_in_a_procedure_is_read_and_warned_like_a_skills(tmp_path: Path) -> None:
    """A procedure's frame has no skill, so a choice in its body hears no skill's `tags`: it is read by what the
    body does with the one chosen (SGS-W407 when that says nothing), whoever calls it."""
    src = tmp_path / "procs.sgs"
    src.write_text(IN_PROCEDURES, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and loaded.checked is not None
    found = [(d.span.line, d.message) for d in loaded.diagnostics if d.code == "SGS-W407"]
    assert [line for line, _ in found] == [6] and "procedure 'swap'" in found[0][1]
    lend = next(pr for m in loaded.checked.modules for pr in m.procedures if pr.name.text == "lend")
    choice = lend.body.stmts[0].value
    assert isinstance(choice, ast.Call) and kwarg(choice, "tags") is not None
    assert kwarg(choice, "tags").value == "help"


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_procedures_choice_reaches_agents_with_its_words(tmp_path: Path, monkeypatch, engine: str) -> None:
    """Both back ends give a procedure's choice the words read from its body: the agent is asked with `about`
    ("help",)."""
    (tmp_path / "procs.sgs").write_text(IN_PROCEDURES, encoding="utf-8")
    scenario = tmp_path / "lend.scenario"
    scenario.write_text("scenario: 借 lends a card to the one chosen\nrules: procs.sgs\n"
                        "seat P0: 测试 lord\nseat P1: 张飞 loyalist\nseat P2: 孙权 rebel\n"
                        "deck: 杀♣2, 闪♦2\nP0: skill 借, P1, end play phase\nexpect P1 hand: 杀♣2\n",
                        encoding="utf-8")
    assert _seat_choice_about(monkeypatch, scenario, engine) == ("help",)


def _trigger_words(tmp_path: Path, trigger: str) -> tuple[list[str | None], list[str]]:
    """The words each choice of the skill's trigger carries once checked (the check reads the rule as the build
    does), and the codes of SGS-W407 notes."""
    src = tmp_path / "trigger.sgs"
    src.write_text(f'import "standard"\ngeneral 测试 ceshi : 蜀 male 4 {{\n  skill 试 shi {{\n{trigger}\n  }}\n}}\n',
                   encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and loaded.checked is not None, [d.message for d in loaded.diagnostics]
    skill = next(s for m in loaded.checked.modules for g in m.generals for s in g.skills if s.ident.text == "shi")
    out: list[str | None] = []
    for call in calls(skill.triggers[0].body):
        if call.func.text in ("choose", "choose_many"):
            tags = kwarg(call, "tags")
            out.append(tags.value if isinstance(tags, ast.Lit) else None)
    return out, [d.code for d in loaded.diagnostics if d.code == "SGS-W407"]


@pytest.mark.parametrize(("trigger", "words"), [
    # damage about to be made, turned on the one chosen (移祸 without its words): it takes the damage
    ("on creating_damage where event.target == owner optional { event.target = choose(owner, others(owner)) }",
     ["attack"]),
    ("on creating_damage where event.target == owner optional {\n let p = choose(owner, others(owner))\n"
     " event.target = p\n }", ["attack"]),
    # credited with the damage: nothing it does to the one chosen
    ("on creating_damage where event.source == owner optional { event.source = choose(owner, others(owner)) }",
     [None]),
    # a card turned on the one chosen (流离 without its words): what the card its condition pins does to targets
    ("on targeted where event.target == owner and event.card is 杀 optional {\n"
     " let p = choose(owner, others(owner))\n event.target = p\n }", ["attack"]),
    ("on targeted where event.card is 顺手牵羊 and event.target == owner optional {\n"
     " event.target = choose(owner, others(owner))\n }", ["control"]),
    # any card at all: the condition pins no family, so nothing is known of what it does
    ("on targeted where event.target == owner optional { event.target = choose(owner, others(owner)) }", [None]),
    ("on targeted where event.target == owner or event.card is 杀 optional {\n"
     " event.target = choose(owner, others(owner))\n }", [None]),
])
def test_a_choice_set_into_the_event_is_told_by_what_the_event_does(tmp_path: Path, trigger: str,
                                                                   words: list[str | None]) -> None:
    """A field of the event set to the one chosen gives it what the event does there (`FIELD_EFFECTS`, and
    `FIELD_EFFECTS_BY_FAMILY` by the card family the trigger's condition pins); otherwise the choice stays one
    agents cannot aim, and the checker says so."""
    got, notes = _trigger_words(tmp_path, trigger)
    assert got == words
    assert notes == ([] if words != [None] else ["SGS-W407"])


def test_the_event_field_tables_name_changeable_character_fields() -> None:
    for (timing, name), word in FIELD_EFFECTS.items():
        assert TIMINGS[timing].fields[name] == "player" and name in TIMINGS[timing].mutable, (timing, name)
        assert word in AI_HINTS
    for (timing, name), card in FIELD_EFFECTS_BY_FAMILY.items():
        assert TIMINGS[timing].fields[name] == "player" and name in TIMINGS[timing].mutable, (timing, name)
        assert TIMINGS[timing].fields[card] == "card", (timing, card)


REDIRECT = """import "standard"
general 测试 ceshi : 蜀 male 4 {
  skill 嫁祸 jiahuo {
    on creating_damage where event.source == owner optional { event.target = choose(owner, others(owner)) }
  }
}
"""


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_choice_set_into_the_event_reaches_agents_with_its_words(tmp_path: Path, monkeypatch, engine: str) -> None:
    """Both back ends build the trigger with the words read from the event's field: the damage turned on the one
    chosen is asked about as `attack`."""
    (tmp_path / "redirect.sgs").write_text(REDIRECT, encoding="utf-8")
    scenario = tmp_path / "redirect.scenario"
    scenario.write_text("scenario: 嫁祸 turns 杀's damage on the one chosen\nrules: redirect.sgs\n"
                        "seat P0: 测试 lord\n  hand: 杀♠7\nseat P1: 张飞 loyalist\nseat P2: 孙权 rebel\n"
                        "deck: 杀♣2, 闪♦2\nP0: 杀♠7, P1, yes, P2, end play phase\n"
                        "expect P1 hp 4/4\nexpect P2 hp 3/4\n", encoding="utf-8")
    assert _seat_choice_about(monkeypatch, scenario, engine, -1) == ("attack",)  # (the first: 杀's target)


def _table(hands: list[int]) -> dict:
    """The lord's view of a table of three (a loyalist, a rebel) whose seats hold HANDS cards."""
    players = [{"seat": s, "general": "?", "hp": 3, "max_hp": 3, "alive": True, "hand": hands[s], "equips": [],
                "judge": [], "face_down": False, "piles": {}, "role": role, "chained": False}
               for s, role in [(0, "lord"), (1, "loyalist"), (2, "rebel")]]
    return {"seat": 0, "hand": [], "role": "lord", "players": players, "draw_pile": 50, "discard_top": [],
            "sides": [["lord", "loyalist"], ["rebel"]], "roles_in_play": ["lord", "loyalist", "rebel"],
            "damage_history": [], "recover_history": [], "role_shown": True}


def test_a_hand_swapped_with_the_owners_is_weighed_by_the_hands() -> None:
    """`swap`: the seat whose hand is worth most to take (a foe holding more counts twice, a friend nothing); none
    when it may decline and no swap gains anything. At random, a designer's 换心 gave five cards for none."""
    swap = Request(0, "choose", "换心: swap hands with", ("P1", "P2"), 0, 1, ("swap",), option_seats=(1, 2))
    must = Request(0, "choose", "换心: swap hands with", ("P1", "P2"), 1, 1, ("swap",), option_seats=(1, 2))
    assert HeuristicAgent(1).decide(swap, _table([1, 5, 3])) == [1]  # the rebel's 3, not the loyalist's 5
    assert HeuristicAgent(1).decide(swap, _table([4, 6, 2])) == []  # only a friend holds more: keep the hand
    assert HeuristicAgent(1).decide(must, _table([4, 6, 2])) == [0]  # made to: the friend loses nothing to the side
    for seed in range(1, 6):  # (never by chance)
        assert HeuristicAgent(seed).decide(swap, _table([1, 0, 2])) == [1]
    # in the play menu, a skill that swaps hands is worth using only with a swap worth making within reach
    agent = HeuristicAgent(1)
    words = frozenset({"skill", "swap"})
    assert agent._skill_score(words, _table([1, 5, 3]), {1: 1.0, 2: -1.0}, False) > 0
    assert agent._skill_score(words, _table([3, 5, 3]), {1: 1.0, 2: -1.0}, False) == 0
    assert agent._skill_score(words, _table([1, 5, 3]), {1: 1.0, 2: -1.0}, False, reach=(1,)) == 0


def test_a_skill_that_swaps_hands_with_its_owner_is_read_as_swap(tmp_path: Path) -> None:
    skill = _skill(tmp_path, "let p = choose(owner, others(owner))\n swap_cards(owner, p)")
    assert infer_skill_words(skill, {}) == ("swap",)


@pytest.mark.parametrize(("body", "words"), [
    # the owner by a name of the rule's own: what is done to `me` is done to the owner
    ("let me = owner\n let p = choose(me, others(me))\n swap_cards(me, p)", ("swap",)),
    ("let me = owner\n let you = me\n let p = choose(you, others(owner))\n swap_cards(p, you)", ("swap",)),
    ("let me = owner\n draw(me, 1)", ("draw",)),
    # a name bound to the owner and then to another is not the owner's
    ("let me = owner\n if is_wounded(owner) { let me = next_alive(owner) }\n let p = choose(owner, others(owner))\n"
     " swap_cards(me, p)", ()),
])
def test_a_name_bound_to_the_owner_is_read_as_the_owner(tmp_path: Path, body: str, words: tuple[str, ...]) -> None:
    assert infer_skill_words(_skill(tmp_path, body), {}) == words


SWAPPER = """import "standard"
general 换心者 huanxin : 吴 female 4 {
  skill 换心 huanxin_skill {
    active limit 1 per phase {
      let p = choose(owner, others(owner), prompt: "换心: swap hands with")
      swap_cards(owner, p)
    }
  }
}
"""


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_the_heuristic_agent_swaps_hands_only_for_more_cards(tmp_path: Path, engine: str) -> None:
    """A designer's 换心 (no words written) played by heuristic agents: every swap its owner makes takes a larger
    hand than it gives, on both back ends. Read as harmful, it swapped with a foe whatever the hands held."""
    src = tmp_path / "swapper.sgs"
    src.write_text(SWAPPER, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and not [d for d in loaded.diagnostics if d.code == "SGS-W407"]
    program = program_for(loaded, engine)
    swaps = []
    for seed in range(1, 13):
        game = play_one(program, "identity", 5, seed, record=True, agents=("heuristic",), pinned={1: "huanxin"})
        swaps += [(e["a_gave"], e["b_gave"]) for e in game.log if e.get("e") == "swap"]
    assert len(swaps) >= 10
    assert all(taken > given for given, taken in swaps), swaps


def _option_hints(tmp_path: Path, body: str) -> list[list[str] | None]:
    """The `hints:` each choice among written options carries once the rule is checked (None: none)."""
    skill = _skill(tmp_path, body)
    out: list[list[str] | None] = []
    for call in calls(skill.actives[0].body):
        if call.func.text == "choose":
            hints = kwarg(call, "hints")
            out.append([h.value for h in hints.items] if isinstance(hints, ast.ListLit) else None)
    return out


@pytest.mark.parametrize(("body", "hints"), [
    # 崩坏's shape: the choice compared in the `if`, the `else` for the other option
    ('if choose(owner, ["lose 1 HP", "lose 1 max HP"]) == "lose 1 HP" { lose_hp(owner, 1) }'
     " else { change_max_hp(owner, -1) }", [["risk", "wane"]]),
    # a guard before it (志继), the literal on the left
    ('if is_wounded(owner) and "heal" == choose(owner, ["heal", "draw"]) { recover(owner, 1) } else { draw(owner, 2) }',
     [["heal", "draw"]]),
    # bound to a name, then an `if … else if … else` chain on it; the price in cards, and a help to another
    ('let o = choose(owner, ["a", "b", "c"])\n if o == "b" { draw(owner, 1) } else if o == "a" {'
     " discard(hand(owner), by: owner)\n draw(next_alive(owner), 1) } else { damage(next_alive(owner), 1) }",
     [["help spends", "draw", "attack"]]),
    # an option no branch reaches, or branches that do nothing readable: no hints
    ('let o = choose(owner, ["a", "b", "c"])\n if o == "a" { draw(owner, 1) } else if o == "b" { recover(owner, 1) }',
     [None]),
    ('if choose(owner, ["a", "b"]) == "a" { log("a") } else { log("b") }', [None]),
    # written hints are the rule's
    ('if choose(owner, ["a", "b"], hints: ["control", ""]) == "a" { draw(owner, 1) } else { draw(owner, 2) }',
     [["control", ""]]),
])
def test_a_choice_among_written_options_is_told_by_each_options_branch(tmp_path: Path, body: str,
                                                                      hints: list[list[str] | None]) -> None:
    assert _option_hints(tmp_path, body) == hints


@pytest.mark.parametrize(("where", "hints"), [
    # its own draw raised or lowered (a designer's 将驰): a draw, or a card it does not get (a price)
    ("event.player == owner", ["draw", "spends"]),
    # another's: a help or a hampering of that one
    ("event.player != owner", ["help", "control"]),
])
def test_an_events_amount_changed_by_an_option_is_read_for_the_one_it_befalls(tmp_path: Path, where: str,
                                                                               hints: list[str]) -> None:
    src = tmp_path / "t.sgs"
    src.write_text('import "standard"\ngeneral 测试 ceshi : 蜀 male 4 {\n  skill 试 shi {\n'
                   f'    on drawing where {where} optional {{\n'
                   '      if choose(owner, ["more", "fewer"]) == "more" { event.amount += 1 }\n'
                   "      else { event.amount -= 1 }\n"
                   "    }\n  }\n}\n", encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and loaded.checked is not None
    skill = next(s for m in loaded.checked.modules for g in m.generals for s in g.skills if s.ident.text == "shi")
    infer_skill_words(skill, loaded.checked.symbols.values)
    (choice,) = [c for c in calls(skill.triggers[0].body) if c.func.text == "choose"]
    written = kwarg(choice, "hints")
    assert isinstance(written, ast.ListLit) and [h.value for h in written.items] == hints


OPTION_PROCEDURES = """procedure punish(p: player) { damage(p, 1) }
procedure pay_and_draw(q: player) {
  discard(hand(q), by: q)
  draw(q, 2)
}
procedure relay(x: player, y: player) { punish(y)\n draw(x, 1) }
"""


@pytest.mark.parametrize(("body", "hints"), [
    # the chooser passed to a procedure: what its body does to that parameter; another passed: to anyone else
    ('if choose(owner, ["a", "b"]) == "a" { pay_and_draw(owner) } else { punish(next_alive(owner)) }',
     [["draw spends", "attack"]]),
    # through a procedure that calls another, and under the owner's own name
    ('let me = owner\n let o = choose(me, ["a", "b"])\n if o == "a" { relay(me, next_alive(me)) }'
     ' else { recover(me, 1) }', [["attack draw", "heal"]]),
])
def test_an_options_branch_is_read_through_the_procedures_it_calls(tmp_path: Path, body: str,
                                                                    hints: list[list[str] | None]) -> None:
    skill = _skill(tmp_path, body, prelude=OPTION_PROCEDURES)
    out = []
    for call in calls(skill.actives[0].body):
        if call.func.text == "choose":
            given = kwarg(call, "hints")
            out.append([h.value for h in given.items] if isinstance(given, ast.ListLit) else None)
    assert out == hints


def test_the_heuristic_agent_weighs_written_options_by_what_they_do() -> None:
    """崩坏 while wounded loses a maximum HP, at full health 1 HP; 志继 heals near death and draws otherwise; 刚烈's
    source pays two cards at 1 HP; 雌雄双股剑's target lets a friend draw, and pays a card against a foe."""
    def ask(hints: tuple[tuple[str, ...], ...], hp: int, subject: int | None = None, hand: int = 1) -> int:
        view = _table([hand, 1, 1])
        view["players"][0].update(hp=hp, max_hp=4)
        r = Request(0, "choose", "choose", tuple(str(i) for i in range(len(hints))), 1, 1, (),
                    option_seats=tuple(None for _ in hints), option_tags=hints, subject=subject)
        answers = {HeuristicAgent(seed).decide(r, view)[0] for seed in range(1, 6)}
        assert len(answers) == 1, answers  # (never by chance)
        return answers.pop()
    benghuai = (("risk",), ("wane",))
    assert ask(benghuai, hp=2) == 1 and ask(benghuai, hp=4) == 0
    zhiji = (("heal",), ("draw",))
    assert ask(zhiji, hp=1) == 0 and ask(zhiji, hp=3) == 1
    gangle = (("spends",), ("risk",))
    assert ask(gangle, hp=1) == 0
    cixiong = (("spends",), ("help",))
    assert ask(cixiong, hp=3, subject=1) == 1 and ask(cixiong, hp=3, subject=2) == 0



def test_an_optional_choice_among_written_options_is_declined_when_no_option_is_worth_anything() -> None:
    """Optional, the options read from their branches are weighed as when it must choose, and declined when the best
    is worth nothing: a price in cards or HP, with nothing for it. It took the first hinted option acceptable."""
    view = _table([1, 1, 1])
    view["players"][0].update(hp=1, max_hp=4)

    def ask(hints: tuple[tuple[str, ...], ...]) -> list[int]:
        r = Request(0, "choose", "choose", tuple(str(i) for i in range(len(hints))), 0, 1, (),
                    option_seats=tuple(None for _ in hints), option_tags=hints)
        answers = {tuple(HeuristicAgent(seed).decide(r, view)) for seed in range(1, 6)}
        assert len(answers) == 1, answers  # (never by chance)
        return list(answers.pop())
    assert ask((("spends",), ("risk",))) == []
    assert ask((("draw",), ("heal",))) == [1]
    assert ask((("risk", "draw"), ("spends", "draw"))) == [1]


OPTIONS = """import "standard"
procedure pay_or_bleed(p: player) {
  if count(hand(p)) > 0 and choose(p, ["pay", "bleed"], prompt: "pay or bleed") == "pay" {
    discard([first(hand(p))], by: p)
  } else {
    lose_hp(p, 1)
  }
}
general 选者 xuanzhe : 群 male 4 {
  skill 择 ze {
    active limit 1 per phase {
      let o = choose(owner, ["draw", "heal", "hurt"], optional: true, prompt: "择")
      if o == "draw" { draw(owner, 2) } else if o == "heal" { recover(owner, 1, source: owner) }
      else { for p in others(owner) { pay_or_bleed(p) } }
    }
  }
}
"""


def test_written_options_read_from_branches_play_alike_on_both_back_ends(tmp_path: Path) -> None:
    """The hints read from the branches reach both back ends alike (the same games, decision for decision), in a
    skill's `if` chain with an optional choice and in a procedure's guarded `if`."""
    src = tmp_path / "options.sgs"
    src.write_text(OPTIONS, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and loaded.checked is not None, [d.message for d in loaded.diagnostics]
    said = {c.span.line: [h.value for h in kwarg(c, "hints").items] for m in loaded.checked.modules
            if Path(m.path).name == "options.sgs"
            for c in calls_in(m) if c.func.text == "choose" and isinstance(kwarg(c, "hints"), ast.ListLit)}
    # (the third option's branch read through the procedure it calls: each other character pays or bleeds)
    assert said == {3: ["spends", "risk"], 12: ["draw", "heal", "attack control"]}
    logs = []
    for engine in ("interpreted", "compiled"):
        program = program_for(loaded, engine)
        games = [play_one(program, "identity", 5, seed, record=True, agents=("heuristic",), pinned={0: "xuanzhe"})
                 for seed in range(1, 6)]
        logs.append([g.log for g in games])
    assert logs[0] == logs[1]
    assert any(e.get("skill") == "择" for log in logs[0] for e in log)


def _card_hints(tmp_path: Path, body: str, tags: str = "",
                choices: tuple[str, ...] = ("choose",)) -> list[tuple[str, str] | None]:
    """For each choice (of CHOICES) in the body, the (then, else) texts of the hints read from a test on the one
    chosen (`rewarded` for a card, words for a character; None: no such hints)."""
    skill = _skill(tmp_path, body, tags=tags)
    out: list[tuple[str, str] | None] = []
    for call in calls(skill.actives[0].body):
        if call.func.text in choices:
            hints = kwarg(call, "hints")
            marked = hints.elem if isinstance(hints, ast.ListComp) else None
            out.append((marked.then.value, marked.orelse.value) if isinstance(marked, ast.CondExpr) else None)
    return out


GIFT = "let p = choose(owner, others(owner))\n let c = choose(owner, hand(owner))\n give(owner, p, [c])\n"


@pytest.mark.parametrize(("body", "hints"), [
    # 赠药: a red card given also heals the one it goes to
    (GIFT + " if c.color == red { recover(p, 1) }", [None, ("rewarded", "")]),
    # a card of a family, a suit written out; the better branch is the `else`
    (GIFT + " if c is 杀 { lose_hp(owner, 1) } else { draw(owner, 1) }", [None, ("", "rewarded")]),
    (GIFT + " if c.suit == ♠ and count(hand(owner)) > 0 { damage(p, 1) }", [None, ("rewarded", "")]),
    # the same worth both ways, or a test of something else than the card: no hints
    (GIFT + " if c.color == red { draw(owner, 1) } else { draw(p, 1) }", [None, None]),
    (GIFT + " if p.hp < p.max_hp { recover(p, 1) }", [None, None]),
    (GIFT + " if c.color == red and p.hp < 3 { recover(p, 1) }", [None, None]),
    (GIFT + " if c == first(hand(owner)) { recover(p, 1) }", [None, None]),
    # chosen by another than the owner, or from options worked out by asking someone: no hints
    ("let p = choose(owner, others(owner))\n let c = choose(p, hand(p))\n if c.color == red { recover(owner, 1) }",
     [None, None]),
    ("let c = choose(owner, hand(owner) + [choose_card_from(owner, next_alive(owner))])\n"
     " if c.color == red { draw(owner, 1) }", [None]),
])
def test_a_choice_of_cards_the_rule_then_tests_is_told_which_cards_it_rewards(tmp_path: Path, body: str,
                                                                              hints: list) -> None:
    assert _card_hints(tmp_path, body) == hints


def _seat_hints(tmp_path: Path, body: str, tags: str = "") -> list[tuple[str, str] | None]:
    return _card_hints(tmp_path, body, tags, ("choose", "choose_many"))


FENBAO = "let ts = choose_many(owner, others(owner), 1, 2)\n for t in ts {\n"


@pytest.mark.parametrize(("body", "hints"), [
    # 分宝: a blow to each chosen with more HP than the owner, two cards to each of the others
    (FENBAO + " if t.hp > owner.hp { damage(t, 1, source: owner) } else { draw(t, 2) } }", [("attack", "help")]),
    # the loop straight over the choice; a test through a function of the one chosen; the `if` without an `else`
    ("for t in choose_many(owner, others(owner), 1, 2) {\n if count(hand(t)) > 2 { discard(hand(t), by: t) }"
     " else { draw(t, 1) } }", [("control", "help")]),
    ("let p = choose(owner, others(owner))\n if p.chained { damage(p, 1, nature: fire) } else { draw(p, 1) }",
     [("attack", "help")]),
    # both branches agree (the choice's own reading stands), or one says nothing, or the test reads another name
    (FENBAO + " if t.hp > owner.hp { draw(t, 1) } else { draw(t, 2) } }", [None]),
    (FENBAO + " if t.hp > owner.hp { damage(t, 1) } }", [None]),
    ("let q = choose(owner, others(owner))\n let p = choose(owner, others(owner))\n"
     " if p.hp > q.hp { damage(p, 1) } else { draw(p, 1) }", [None, None]),
    # a test by names bound once to what it reads (a designer's 易命: `let a = owner.hp`, `let b = p.hp`, `b > a`)
    ("let p = choose(owner, others(owner))\n let a = owner.hp\n let b = p.hp\n"
     " if b > a { lose_hp(p, b - a) } else { recover(p, 1) }", [("attack", "help")]),
])
def test_a_choice_of_characters_the_rule_then_tests_is_told_what_each_seat_gets(tmp_path: Path, body: str,
                                                                               hints: list) -> None:
    assert _seat_hints(tmp_path, body) == hints


def test_a_skill_that_aims_its_choices_gets_no_per_seat_hints(tmp_path: Path) -> None:
    body = FENBAO + " if t.hp > owner.hp { damage(t, 1, source: owner) } else { draw(t, 2) } }"
    assert _seat_hints(tmp_path, body, tags="attack") == [None]


def test_the_heuristic_agent_takes_a_rewarded_card_first() -> None:
    """Of cards offered, a rewarded one, the one it need not keep among such; declined, when it may, only with
    none rewarded."""
    view = _table([3, 1, 1])
    tags = (("rewarded", "defence", "basic"), ("attack", "basic"), ("rewarded", "attack", "basic"))

    def ask(option_tags: tuple[tuple[str, ...], ...], low: int = 1) -> list[int]:
        r = Request(0, "choose", "赠药: which card", tuple(str(i) for i in range(len(option_tags))), low, 1, (),
                    option_tags=option_tags)
        answers = {tuple(HeuristicAgent(seed).decide(r, view)) for seed in range(1, 6)}
        assert len(answers) == 1, answers  # (never by chance)
        return list(answers.pop())
    assert ask(tags) == [2]
    assert ask(tags, low=0) == [2]
    assert ask(tags[:1]) == [0]


ZENGYAO = """import "standard"
general 赠药者 zengyaozhe : 群 female 3 {
  skill 赠药 zengyao {
    active limit 1 per phase where count(hand(owner)) > 0 {
      let p = choose(owner, others(owner), prompt: "赠药: to whom")
      let c = choose(owner, hand(owner), prompt: "赠药: which card")
      give(owner, p, [c])
      if c.color == red { recover(p, 1) }
    }
  }
}
"""


class Keeping(HeuristicAgent):
    """The heuristic agent with a list to keep what it was asked in (its subclasses say what)."""

    def __init__(self, seed: int, kept: list) -> None:
        super().__init__(seed)
        self.picks = self.seen = kept


class CardPicks(Keeping):
    """The heuristic agent, keeping each choice of a card for 赠药: the options' labels and tags, and its pick."""

    def on_choose(self, r, v):
        out = super().on_choose(r, v)
        if r.prompt == "赠药: which card":
            self.picks.append((r.options, r.option_tags, out))
        return out


def _kept_picks(tmp_path: Path, text: str, engine: str, kind: type[Keeping], seeds: range, generals: tuple[str, ...],
                round_cap: int) -> list:
    """What heuristic agents of KIND kept over 5-player games of the designs TEXT on ENGINE: one game a seed, its
    general (GENERALS in turn, by seed) pinned to seat seed % 5."""
    src = tmp_path / "designs.sgs"
    src.write_text(text, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    program = program_for(loaded, engine)
    picks: list = []
    for seed in seeds:
        agents = [kind(seed * 10 + i, picks) for i in range(5)]
        pinned = {seed % 5: generals[seed % len(generals)]}
        Game(program, "identity", 5, seed, agents, None, pinned=pinned, round_cap=round_cap).run()
    return picks


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_designers_gift_gives_a_red_card_when_it_holds_one(tmp_path: Path, engine: str) -> None:
    """赠药 ("give another a hand card; a red one heals it") gives a red card whenever it holds one: the options
    marked `rewarded` are exactly the red ones, on both back ends. Picked at random before."""
    picks = _kept_picks(tmp_path, ZENGYAO, engine, CardPicks, range(1, 25), ("zengyaozhe",), 12)
    red = ("♥", "♦")
    mixed = [(labels, tags, out) for labels, tags, out in picks
             if any(s in x for x in labels for s in red) and not all(any(s in x for s in red) for x in labels)]
    assert len(mixed) >= 10
    for labels, tags, _ in picks:
        assert [("rewarded" in t) for t in tags] == [any(s in x for s in red) for x in labels]
    assert all(any(s in labels[out[0]] for s in red) for labels, _, out in mixed)


FENBAO_GENERAL = """import "standard"
general 吴懿 wuyi : 群 male 4 {
  skill 分宝 fenbao {
    active limit 1 per phase {
      let ts = choose_many(owner, others(owner), 1, 2, prompt: "分宝: up to two characters")
      for t in ts {
        if t.hp > owner.hp { damage(t, 1, source: owner) } else { draw(t, 2) }
      }
    }
  }
}
"""


class SeatPicks(Keeping):
    """The heuristic agent, keeping each choice for 分宝 with the table's HP at the time."""

    def on_choose(self, r, v):
        out = super().on_choose(r, v)
        if r.prompt.startswith("分宝"):
            self.picks.append((r.option_seats, r.option_tags, [q["hp"] for q in v["players"]], v["seat"]))
        return out


def test_a_designers_split_gift_tells_each_seat_what_it_gets_on_both_back_ends(tmp_path: Path) -> None:
    """分宝 (a blow to each chosen with more HP than its owner, two cards to each other one): each seat offered is
    hinted `attack` or `help` by its HP at the time of asking, and both back ends play the same games."""
    src = tmp_path / "fenbao.sgs"
    src.write_text(FENBAO_GENERAL, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and not [d for d in loaded.diagnostics if d.code == "SGS-W407"]
    logs = []
    for engine in ("interpreted", "compiled"):
        picks: list = []
        program = program_for(loaded, engine)
        games = []
        for seed in range(1, 7):
            agents = [SeatPicks(seed * 10 + i, picks) for i in range(5)]
            game = Game(program, "identity", 5, seed, agents, None, pinned={seed % 5: "wuyi"}, round_cap=8,
                        record=True)
            game.run()
            games.append(game.log)
        logs.append(games)
        assert len(picks) >= 5
        for seats, tags, hps, me in picks:
            assert list(tags) == [("attack",) if hps[s] > hps[me] else ("help",) for s in seats]
    assert logs[0] == logs[1]


JIWEI = """import "standard"
general 许靖 xujing : 群 male 3 {
  skill 济危 jiwei limited {
    active {
      let t = choose(owner, players(), prompt: "济危: who recovers 1 HP and draws 2 cards")
      recover(t, 1)
      draw(t, 2)
    }
  }
}
"""


def test_a_help_that_heals_the_one_chosen_is_read_as_a_heal_too(tmp_path: Path) -> None:
    heal = _skill(tmp_path, "let t = choose(owner, players())\n recover(t, 1)\n draw(t, 2)")
    assert infer_skill_words(heal, {}) == ("heal", "help")
    gift = _skill(tmp_path, "let t = choose(owner, others(owner))\n draw(t, 2)")
    assert infer_skill_words(gift, {}) == ("help",)


def test_a_once_a_game_heal_is_kept_for_a_wound() -> None:
    """In the play menu a limited skill that heals (its option says `limited`) is worth nothing while nobody on its
    side is wounded; a heal it may use every turn is worth using all the same."""
    agent = HeuristicAgent(1)
    once, again = frozenset({"heal", "help", "limited", "skill"}), frozenset({"heal", "help", "skill"})
    stance = {1: 1.0, 2: -1.0}
    assert agent._skill_score(once, _table([1, 1, 1]), stance, False) == 0
    assert agent._skill_score(again, _table([1, 1, 1]), stance, False) > 0
    assert agent._skill_score(once, _table([1, 1, 1]), stance, True) > 0
    hurt = _table([1, 1, 1])
    hurt["players"][1]["hp"] = 2
    assert agent._skill_score(once, hurt, stance, False) > 0


class MenuTags(Keeping):
    """The heuristic agent, keeping the play menu's tags of 济危, whether anyone is wounded, and whether it took it."""

    def on_play(self, r, v):
        out = super().on_play(r, v)
        wound = any(q["hp"] < q["max_hp"] for q in v["players"] if q.get("alive", True))
        self.seen += [(r.option_tags[i], wound, out == [i]) for i, o in enumerate(r.options) if "济危" in o]
        return out


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_designers_once_a_game_heal_waits_for_a_wound(tmp_path: Path, engine: str) -> None:
    """济危 (limited: one character recovers 1 HP and draws 2) is offered as `heal help limited`, and taken only while
    someone is wounded (its owner, or a friend). It was spent in the first round on a seat at full HP
    (135 of 188 uses): +5.2 points to its owner, +8.8 since (5 players, 2,000 paired seeds)."""
    src = tmp_path / "jiwei.sgs"
    src.write_text(JIWEI, encoding="utf-8")
    loaded = check_paths([str(src)])
    program = program_for(loaded, engine)
    seen: list = []
    for seed in range(1, 9):
        agents = [MenuTags(seed * 10 + i, seen) for i in range(5)]
        Game(program, "identity", 5, seed, agents, None, pinned={seed % 5: "xujing"}, round_cap=8).run()
    assert seen and all(tags == ("heal", "help", "limited", "skill") for tags, _, _ in seen)
    assert any(taken for _, _, taken in seen)
    assert all(wound for _, wound, taken in seen if taken)
    assert any(not wound for _, wound, _ in seen)  # (offered at full health too, and kept)


TIAOHE_TINGSHEN = """import "standard"
general 刘巴 liuba : 蜀 male 3 {
  skill 调和 tiaohe {
    on phase_start where event.player != owner and event.phase == prepare optional {
      let p = event.player
      let o = choose(owner, ["it draws a card", "you draw a card and it discards a hand card"], prompt: "调和: which")
      if o == "it draws a card" {
        draw(p, 1)
      } else {
        draw(owner, 1)
        if count(hand(p)) > 0 { discard(choose(p, hand(p), prompt: "调和: discard a hand card"), by: p) }
      }
    }
  }
}
general 周仓 zhoucang : 蜀 male 4 {
  skill 挺身 tingshen {
    on targeted where event.target != owner and event.user != owner and event.card is 杀 optional {
      event.target = owner
    }
  }
}
"""


class AboutWhom(Keeping):
    """The heuristic agent, keeping for 调和's option and 挺身's "use?" whom the question is about, how it stands
    toward that one, and its answer."""

    def decide(self, r, v):
        out = super().decide(r, v)
        if r.prompt in ("调和: which", "use 挺身?") and r.subject is not None:
            self.picks.append((r.prompt, r.subject, self._stance_now(v).get(r.subject, 0.0), v["current"], out))
        return out


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_choice_among_options_in_a_trigger_is_about_the_one_its_event_befalls(tmp_path: Path, engine: str) -> None:
    """调和 ("at another's prepare phase: it draws 1, or you draw 1 and it discards 1") names that character as its
    options' subject, and the agent lets a friend draw and makes a foe discard: it took the second option every time,
    for friends too (+59 points: too strong a design, and misplayed). 挺身 ("when another becomes a 杀's target, you
    may become the target instead") reads `help risk` and is used for friends only: it took 75 of 104 blows for foes
    (−20 points)."""
    picks = _kept_picks(tmp_path, TIAOHE_TINGSHEN, engine, AboutWhom, range(1, 31), ("zhoucang", "liuba"), 15)
    options = [(subject, toward, current, out) for prompt, subject, toward, current, out in picks
               if prompt == "调和: which"]
    assert len(options) >= 30
    assert all(subject == current for subject, _, current, _ in options)  # (the one whose prepare phase it is)
    assert {out[0] for _, toward, _, out in options if toward > 0.5} == {0}
    assert {out[0] for _, toward, _, out in options if toward < -0.5} == {1}
    yeses = [toward for prompt, _, toward, _, out in picks if prompt == "use 挺身?" and out == [0]]
    assert yeses and all(toward > 0 for toward in yeses)


MARKED = ('on phase_start where event.player == owner and event.phase == finish optional {{\n'
          '      let t = choose(owner, others(owner))\n      mark(t, "k")\n    }}\n    {modifiers}')


@pytest.mark.parametrize(("modifiers", "words"), [
    # 宽政: the one marked keeps two more cards; or one fewer
    ('modify hand_limit(p) by 2 where has_mark(p, "k")', ("help",)),
    ('modify hand_limit(p) by -1 where has_mark(p, "k")', ("control",)),
    ('modify draw_count(p) by 1 where has_mark(p, "k") and p.alive', ("help",)),
    # farther from others is safer; the one marked reaching less is hampered
    ('modify distance(a, b) by 1 where has_mark(b, "k")', ("help",)),
    ('modify distance(a, b) by 1 where has_mark(a, "k")', ("control",)),
    # read both ways, or not read by a modifier at all: no words (the choice is left unaimed)
    ('modify hand_limit(p) by 2 where has_mark(p, "k")\n    modify attack_range(p) by -1 where has_mark(p, "k")', ()),
    ('modify hand_limit(p) by 2 where has_mark(p, "other")', ()),
    # set outright: above or below what the value usually is (锁敌: "this turn your distance to it is 1")
    ('modify distance(a, b) to 1 where a == owner and has_mark(b, "k")', ("control",)),
    ('modify hand_limit(p) to 8 where has_mark(p, "k")', ("help",)),
    ('modify draw_count(p) to 0 where has_mark(p, "k")', ("control",)),
    ('modify draw_count(p) to 2 where has_mark(p, "k")', ()),  # (the usual: it says nothing)
    # a value of the program's own that is a card's use limit, raised for the one marked (鼓舞: one more 杀)
    ('modify slash_limit(p) by 1 where has_mark(p, "k")', ("help",)),
])
def test_a_mark_is_read_through_the_skills_modifiers_that_test_it(tmp_path: Path, modifiers: str,
                                                                  words: tuple[str, ...]) -> None:
    """A designer's 宽政 ("at your finish phase, another's hand limit is +2 until its next turn ends", a mark its
    modifier tests) went to foes in 262 of 267 uses: a mark meant nothing to the reading. Worth −2.1 points at 5
    players; with the choice tagged `help`, +2.4 (docs/balance.md)."""
    assert _trigger_skill_words(tmp_path, MARKED.format(modifiers=modifiers)) == words


ZHONGJIAN = """import "standard"
general 董允 dongyun : 蜀 male 3 {
  skill 忠谏 zhongjian {
    active limit 1 per phase where owner.role != lord and count(hand(owner)) > 0 and count(alive_with_role(lord)) > 0 {
      let lp = first(alive_with_role(lord))
      give(owner, lp, [choose(owner, hand(owner), prompt: "忠谏: a hand card for the lord")])
      draw(owner, 1)
    }
  }
}
"""


def test_an_action_that_names_one_character_first_is_read_by_what_it_does_to_it(tmp_path: Path) -> None:
    """忠谏 chooses nobody: it names the lord (`let lp = first(alive_with_role(lord))`), gives it a card and draws.
    It reads `draw help`, and the lord is its reach, worked out before it runs."""
    src = tmp_path / "zhongjian.sgs"
    src.write_text(ZHONGJIAN, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and loaded.checked is not None, [d.message for d in loaded.diagnostics]
    skill = next(s for m in loaded.checked.modules for g in m.generals for s in g.skills
                 if s.ident.text == "zhongjian")
    assert infer_skill_words(skill, {}) == ("draw", "help")
    reach = first_seat_choice(skill.actives[0].body, {})
    assert isinstance(reach, ast.ListLit) and [c.func.text for c in reach.items] == ["first"]
    # (a body that chooses a character is reached by its choice, as before)
    assert fixed_seat(_skill(tmp_path, "let t = choose(owner, others(owner))\n let lp = first(others(owner))\n"
                                       " draw(t, 1)").actives[0].body, {}) is None


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_card_for_the_lord_is_given_by_its_friends_only(tmp_path: Path, engine: str) -> None:
    """Used at random before, 忠谏 was used by rebels as often as by loyalists (39 uses in 20 games against 22 in 10):
    a card handed to the one they are out to kill. Now only a seat that is surely the lord's friend gives it."""
    src = tmp_path / "zhongjian.sgs"
    src.write_text(ZHONGJIAN, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    program = program_for(loaded, engine)
    users: list[str] = []
    for seed in range(1, 41):
        g = play_one(program, "identity", 5, seed, record=True, agents=("heuristic",), pinned={seed % 5: "dongyun"})
        roles = {p.label(): p.role for p in g.players}
        users += [roles[e["player"]] for e in g.log if e.get("skill") == "忠谏" and e.get("player") in roles]
    assert len(users) >= 10
    assert "rebel" not in users


MARKED_BY_TRIGGERS = """\
general 测试 ceshi : 吴 female 4 {
  skill 护盾 hudun {
    on phase_start where event.player == owner and event.phase == finish optional {
      mark(choose(owner, players()), "盾")
    }
    on taking_damage where has_mark(event.target, "盾") {
      unmark(event.target, "盾")
      event.amount -= 1
    }
  }
  skill 蓄锐 xurui {
    active limit 1 per phase where count(hand(owner)) > 0 {
      discard(choose(owner, hand(owner)), by: owner)
      mark(owner, "锐", 1, "turn")
    }
    on causing_damage where event.source == owner and event.card is 杀 and has_mark(owner, "锐") {
      unmark(owner, "锐")
      event.amount += 1
    }
  }
  skill 诅咒 zuzhou {
    active limit 1 per phase { mark(choose(owner, others(owner)), "咒") }
    on recovering where has_mark(event.target, "咒") { cancel(event) }
    on taking_damage where has_mark(event.target, "咒") { event.amount += 1 }
  }
  skill 两可 liangke {
    active limit 1 per phase { mark(choose(owner, others(owner)), "可") }
    on taking_damage where has_mark(event.target, "可") { event.amount += 1 }
    on drawing where has_mark(event.player, "可") { event.amount += 1 }
  }
}
"""


def test_a_mark_is_read_through_the_triggers_that_test_it(tmp_path: Path) -> None:
    """A mark the skill's own trigger tests on a character of its event, then raises or lowers the event's amount
    (or cancels it): a designer's 护盾 ("a shield: the next damage its holder takes is 1 less") gave 558 of 570
    shields to foes, −20.4 points; read as `help`, +32.9. A mark on the owner that raises the damage it deals helps
    it; one that cancels its holder's heals and raises the damage it takes hampers it; one read both ways says
    nothing."""
    src = tmp_path / "t.sgs"
    src.write_text('import "standard"\n' + MARKED_BY_TRIGGERS, encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and loaded.checked is not None, [d.message for d in loaded.diagnostics]
    skills = {s.ident.text: s for m in loaded.checked.modules for g in m.generals for s in g.skills}
    assert mark_words(skills["hudun"]) == {"盾": "help"}
    assert mark_words(skills["xurui"]) == {"锐": "help"}
    assert mark_words(skills["zuzhou"]) == {"咒": "attack"}
    assert mark_words(skills["liangke"]) == {}
    assert infer_skill_words(skills["hudun"], {}) == ("help",)
    # (a mark on its owner for more damage dealt: the action strengthens its next blow, paid for with a card)
    assert infer_skill_words(skills["xurui"], {}) == ("boost", "spends")


@pytest.mark.parametrize(("body", "words"), [
    # 夜袭: a harm to another paid for with the owner's own card: the price is read (used from a surplus)
    ("discard(choose(owner, [c for c in hand(owner) if c.color == black]), by: owner)\n"
     " let p = choose(owner, having_cards(others(owner)))\n discard(choose_card_from(owner, p), by: owner)",
     ("control", "spends")),
    # a help paid for with a card (青囊's shape): the price is the help's own, as before
    ("discard(choose(owner, hand(owner)), by: owner)\n let p = choose(owner, others(owner))\n recover(p, 1)",
     ("heal", "help")),
])
def test_a_harm_paid_for_with_the_owners_cards_reads_its_price(tmp_path: Path, body: str,
                                                              words: tuple[str, ...]) -> None:
    assert infer_skill_words(_skill(tmp_path, body), {}) == words


def test_a_skill_that_heals_the_whole_table_is_weighed_as_such_a_card() -> None:
    """`area heal` (a designer's 普济, "every wounded character recovers 1 HP", read from its loop over the table):
    used when its heal does its side more good than its foes, not whenever its owner is wounded."""
    agent = HeuristicAgent(1)
    words = frozenset({"skill", "area", "heal"})
    stance = {0: 1.0, 1: 1.0, 2: -1.0}

    def hurt(*seats: int) -> dict:
        table = _table([2, 2, 2])
        for s in seats:
            table["players"][s]["hp"] = 1
        return table

    assert agent._skill_score(words, hurt(0, 1), stance, True) > 0  # itself and its loyalist
    assert agent._skill_score(words, hurt(2), stance, False) == 0  # the rebel alone
    assert agent._skill_score(words, hurt(0, 2), stance, True) == 0  # itself, but the rebel as much
