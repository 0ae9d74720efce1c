"""Hints a rule gives the options of a choice (`choose(…, hints: …)`), and whose skill asks another seat.

Agents read a card's or a skill's `tags`; the options of a text choice had none, so the heuristic agent drew them at
random: with 蛊惑 every other seat questioned 于吉's face-down card one time in two, and he won 17% of his seats at 8
players. A rule may now give each option AI hint words, and a request made to someone other than the skill's owner
names the owner as its subject: the agent questions only a sure foe, when healthy, and sparingly; it does a favour
(颂威, 暴虐) only for a friend."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine.agents import Agent, Request
from sgsdsl.engine.game import Game
from sgsdsl.engine.turnflow import option_key  # noqa: F401 - (the module whose option hints are tested below)
from tests.test_lang_checker import codes
from tests.test_role_play import view

ROOT = Path(__file__).resolve().parent.parent
FENG = ROOT / "rules" / "feng.sgs"


# ------------------------------------------------------------------ the checker
@pytest.mark.parametrize(("src", "expected"), [
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], hints: ["", "attack risk"]) } }', []),
    # one text per item, when both are written out
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], hints: ["attack"]) } }', ["SGS-E204"]),
    ('skill s a { on damaged { let x = choose_many(owner, ["a", "b"], 0, 1, hints: ["", "", "heal"]) } }',
     ["SGS-E204"]),
    # a word agents do not read
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], hints: ["", "contrl"]) } }', ["SGS-W406"]),
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], hints: ["", "sneaky"]) } }', ["SGS-W406"]),
    # hints must be a list
    ('skill s a { on damaged { let x = choose(owner, ["a", "b"], hints: 3) } }', ["SGS-E301"]),
])
def test_the_checker_reads_a_choices_hints(src: str, expected: list[str]) -> None:
    assert sorted(codes(src)) == sorted(expected)


# ------------------------------------------------------------------ the engine
class Keeping(Agent):
    """Answers the first option; keeps every request made of a choose with options named by hints."""

    def __init__(self, kept: list) -> None:
        self.kept = kept

    def decide(self, request, v):
        self.kept.append(request)
        return list(range(request.low)) if request.low else [0]


HINTED = """\
card 杀 sha : basic { copies ♠7 ♠8 ♠9 ♠10 ♠J ♠Q ♠K ♥7 ♥8 ♥9  use play target one other
  effect { damage(target, 1, source: user) } }
general 甲 jia : 魏 male 4 {
  skill 问 wen { on turn_start where event.player == owner {
    for p in others(owner) { let x = choose(p, ["yes", "no"], prompt: "问", hints: HINTS) }
    let y = choose(owner, ["a", "b"], prompt: "自问", hints: ["heal", ""])
  } }
}
mode 身份局 identity { players 2..2  roles 2 { lord rebel }  leader lord  win lord when count(players()) == 1 }
"""


def asked_in(tmp_path: Path, text: str, back_end: str) -> list:
    """Every request made in one round of a two-seat game of TEXT's general 甲 on both seats, each answered with
    its first option(s), on the BACK_END ("interpreted" or "compiled")."""
    path = tmp_path / "asked.sgs"
    path.write_text(text, encoding="utf-8")
    loaded = check_paths([str(path)])
    assert loaded.ok, [str(d) for d in loaded.diagnostics]
    program = interpreted_program(loaded) if back_end == "interpreted" else compiled_program(loaded)
    kept: list = []
    g = Game(program, "identity", 2, 1, [Keeping(kept), Keeping(kept)], None, round_cap=1, record=True)
    for p in g.players:  # (the mode deals no generals)
        g.set_general(p, program.generals["jia"])
    g.run()
    return kept


def asked_with(tmp_path: Path, text: str, back_end: str, prompt: str) -> list:
    """The requests of `asked_in` made with PROMPT (at least one)."""
    asked = [r for r in asked_in(tmp_path, text, back_end) if r.prompt == prompt]
    assert asked
    return asked


def hinted_game(tmp_path: Path, hints: str, back_end: str) -> list:
    return asked_in(tmp_path, HINTED.replace("HINTS", hints), back_end)


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_a_choice_asked_of_another_names_the_skills_owner_and_carries_the_hints(tmp_path, back_end) -> None:
    kept = hinted_game(tmp_path, '["", "control risk"]', back_end)
    asked = [r for r in kept if r.prompt == "问"]
    own = [r for r in kept if r.prompt == "自问"]
    assert asked and own
    for r in asked:
        assert r.subject == 1 - r.seat and r.option_tags == ((), ("control", "risk")) and r.about == ()
    for r in own:  # its owner is asked: the skill's hints travel, no subject
        assert r.subject is None and r.option_tags == (("heal",), ()) and "skill" in r.about


@pytest.mark.parametrize("hints", ['[h for h in ["risk"]]', '[n for n in [1, 2]]'])  # (not written out: run)
def test_hints_that_do_not_fit_the_items_are_a_located_rule_error(tmp_path, hints) -> None:
    from sgsdsl.engine.errors import RuleError

    with pytest.raises(RuleError, match="choose's hints"):
        hinted_game(tmp_path, hints, "compiled")


# ------------------------------------------------------------------ the agent
def question(subject: int, me: int) -> Request:
    return Request(me, "choose", "蛊惑: question the declared card?", ("no question", "question"),
                   option_tags=((), ("control", "risk")), option_seats=(None, None), subject=subject)


def answers(request: Request, v) -> set[int]:
    return {HeuristicAgent(seed).decide(request, v)[0] for seed in range(1, 41)}


def test_a_seat_questions_only_a_sure_foe_when_healthy_and_sparingly() -> None:
    """Loyalist 1 sees seat 3 strike the lord three times: it questions seat 3's card on some seeds, not all; it
    never questions the lord's card, nor seat 3's once it is down to 1 HP itself (a true card costs it 1 HP)."""
    struck = dict(damage=[(3, 0, 3)], acts=[(3, 0, ("attack", "basic"))] * 3)
    assert answers(question(3, 1), view(1, **struck)) == {0, 1}
    assert answers(question(0, 1), view(1, **struck)) == {0}
    assert answers(question(3, 1), view(1, hp={1: 1}, **struck)) == {0}


def favour(subject: int, me: int) -> Request:
    return Request(me, "confirm", "颂威: let the lord draw 1 card?", ("yes", "no"), subject=subject)


def test_a_favour_asked_by_anothers_skill_is_done_only_for_a_friend() -> None:
    """颂威 asks a 魏 seat whether the lord draws: loyalist 1 says yes, rebel 3 no."""
    assert answers(favour(0, 1), view(1)) == {0}
    assert answers(favour(0, 3), view(3)) == {1}


def test_a_card_made_by_a_risky_skill_carries_its_risk(tmp_path) -> None:
    """The play menu's conversions by 蛊惑 (`risk`) carry `risk` beside the card's own hints; another skill's
    conversions (武圣, untagged) do not."""
    loaded = check_paths([str(FENG)])
    assert loaded.ok
    program = compiled_program(loaded)
    g = Game(program, "identity", 5, 3, [HeuristicAgent(i) for i in range(5)], None, pinned={0: "yuji", 1: "guanyu"})
    g.set_general(g.players[0], program.generals["yuji"])
    g.set_general(g.players[1], program.generals["guanyu"])
    for p in g.players[:2]:
        g.zones.move([next(c for c in g.cards if c.zone == "draw" and c.color == "red")], "hand", p)
    g.current = g.players[0]
    menu = g.use.play_options(g.players[0])
    hinted = [g.turnflow.option_hints(o) for label, o in menu if label.startswith("蛊惑: use as")]
    assert hinted and all("risk" in h and "conversion" in h for h in hinted)
    g.current = g.players[1]
    menu = g.use.play_options(g.players[1])
    wusheng = [g.turnflow.option_hints(o) for label, o in menu if label.startswith("武圣")]
    assert wusheng and all("risk" not in h for h in wusheng)


# ------------------------------------------------------------------ a choice's own tags
OWN_TAGS = """\
card 杀 sha : basic { copies ♠7 ♠8 ♠9 ♠10 ♠J ♠Q ♠K ♥7 ♥8 ♥9  use play target one other
  effect { damage(target, 1, source: user) } }
general 甲 jia : 魏 male 4 {
  skill 援 yuan { tags control
    on turn_start where event.player == owner {
      let f = choose(owner, others(owner), prompt: "援: who draws", tags: "help draw")
      draw(f, 2)
      let e = choose_many(owner, others(owner), 1, 1, prompt: "援: who discards", tags: "control")
      let x = choose(owner, others(owner), prompt: "援: as the skill")
    }
  }
}
mode 身份局 identity { players 3..3  roles 3 { lord rebel rebel }  leader lord  win lord when count(players()) == 1 }
"""


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_a_choice_may_carry_its_own_tags_in_place_of_its_skills(tmp_path, back_end) -> None:
    """A skill that helps one seat and hampers another says so choice by choice (`tags: "help draw"`): each request
    carries the choice's own words as what it is about, a choice without them the skill's."""
    path = tmp_path / "own.sgs"
    path.write_text(OWN_TAGS, encoding="utf-8")
    loaded = check_paths([str(path)])
    assert loaded.ok, [str(d) for d in loaded.diagnostics]
    program = interpreted_program(loaded) if back_end == "interpreted" else compiled_program(loaded)
    kept: list = []
    g = Game(program, "identity", 3, 1, [Keeping(kept) for _ in range(3)], None, round_cap=1)
    for p in g.players:
        g.set_general(p, program.generals["jia"])
    g.run()
    about = {r.prompt: r.about for r in kept if r.prompt.startswith("援")}
    assert about == {"援: who draws": ("draw", "help"), "援: who discards": ("control",),
                     "援: as the skill": ("control", "skill")}


def test_a_choices_own_tags_aim_it() -> None:
    """Loyalist 1 has seen seat 3 strike the lord: asked whom a choice tagged `help` favours, it names the lord; the
    same seats asked by a choice tagged `control`, it names seat 3."""
    struck = view(1, damage=[(3, 0, 3)], acts=[(3, 0, ("attack", "basic"))] * 3)
    seats = (0, 2, 3)
    for about, wanted in ((("draw", "help"), {0}), (("control",), {3})):
        r = Request(1, "choose", "援", tuple(f"P{s}" for s in seats), about=about, option_seats=seats)
        assert {seats[HeuristicAgent(seed).decide(r, struck)[0]] for seed in range(1, 21)} == wanted


@pytest.mark.parametrize(("tags", "expected"), [('"help"', []), ('"hlep"', ["SGS-W406"]), ("3", ["SGS-E301"])])
def test_the_checker_reads_a_choices_own_tags(tags: str, expected: list[str]) -> None:
    src = f'skill s a {{ on damaged {{ let x = choose(owner, others(owner), tags: {tags}) }} }}'
    assert sorted(codes(src)) == expected


# ------------------------------------------------------------------ the words code acts on by name
def test_every_hint_word_the_code_names_is_one_the_registry_explains() -> None:
    """The reading writes and the agents read these words by name: each is spelled once, in the registry, as a key
    of AI_HINTS (where a designer reads what it means), and the reading and the agent use that very constant."""
    from sgsdsl.ai import heuristic
    from sgsdsl.engine.registry import core
    from sgsdsl.lang import intent

    named = ("NEUTRAL", "NEXT", "PAY", "GAIN", "REWARDED", "SWAP", "WANE", "SPREADS", "SPENDS")
    for name in named:
        assert getattr(core, name) in core.AI_HINTS, name
        for module in (heuristic, intent):
            if hasattr(module, name):
                assert getattr(module, name) is getattr(core, name), (module.__name__, name)
