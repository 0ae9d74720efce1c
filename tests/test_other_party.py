"""An optional trigger on an event that befalls its own owner is about the event's other party (反制: "after you
become the target of another's trick, you may make its user discard a hand card"): the engine names that one as the
question's subject, the reading reads the body's uses of it, and the heuristic agent aims the harm at a foe only."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.api import check_paths
from sgsdsl.engine.agents import Request
from sgsdsl.engine.model import Player
from sgsdsl.engine.registry.core import befallen
from sgsdsl.lang.intent import Lexicon, event_subject, infer_skill_words, subject_words
from tests.test_option_hints import asked_with
from tests.test_role_play import SLASH, picks, view


def _players() -> tuple[Player, Player]:
    return Player(0), Player(1)


def test_an_event_befalling_the_one_asked_is_about_its_other_party() -> None:
    me, other = _players()
    assert befallen({"user": other, "target": me}) is me  # (asked of nobody: the one it befalls)
    assert befallen({"user": other, "target": me}, me) is other
    assert befallen({"user": me, "target": other}, me) is other
    assert befallen({"player": me, "against_user": other}, me) is other
    assert befallen({"player": me, "against_user": None}, me) is me  # (no other party: still its own)
    assert befallen({"source": None, "target": me}, me) is me


def _struck(skill: str) -> str:
    """A two-seat game of general 甲, who strikes the other seat at the start of each turn, with SKILL besides (the
    skill's text, whose trigger runs after its owner takes damage: `AFTER_DAMAGE`)."""
    return ("general 甲 jia : 魏 male 4 {\n"
            "  skill 击 ji { on turn_start where event.player == owner {\n"
            "    damage(first(others(owner)), 1, source: owner) } }"
            f"\n{skill}\n}}\nmode 身份局 identity {{ players 2..2  roles 2 {{ lord rebel }}  leader lord  "
            "win lord when count(players()) == 1 }\n")


AFTER_DAMAGE = "on damaged where event.target == owner and event.source != none and event.source != owner optional"
COUNTER = _struck(f"""  skill 制 zhi {{
    {AFTER_DAMAGE} {{
      let u = event.source
      discard(choose(u, hand(u), prompt: "制: discard a hand card"), by: u)
    }}
  }}""")


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_the_question_names_the_damages_source(tmp_path: Path, back_end: str) -> None:
    for r in asked_with(tmp_path, COUNTER, back_end, "use 制?"):
        assert r.subject == 1 - r.seat
        assert "control" in r.about


def _read(text: str, tmp_path: Path) -> tuple:
    path = tmp_path / "read.sgs"
    path.write_text(text, encoding="utf-8")
    loaded = check_paths([str(path)])
    assert loaded.ok and loaded.checked is not None, [str(d) for d in loaded.diagnostics]
    sym = loaded.checked.symbols
    lex = Lexicon.of(sym.cards.values(), sym.procedures.values())
    skill = next(s for m in loaded.checked.modules for g in m.generals for s in g.skills if s.ident.text == "zhi")
    t = skill.triggers[0]
    return event_subject(t), subject_words(t, lex.of_skill(skill).at(t)), infer_skill_words(skill, sym.values, lex)


def test_the_reading_reads_the_other_partys_harm(tmp_path: Path) -> None:
    subject, words, skill_words = _read(COUNTER, tmp_path)
    assert subject is not None and subject[0] == "source" and "u" in subject[1]
    assert words == {"control"} and skill_words == ("control",)


def test_a_cancel_of_the_owners_own_event_is_not_the_other_partys(tmp_path: Path) -> None:
    """Cancelling a card aimed at the owner spares the owner: it does nothing to the card's user."""
    shield = _struck("  skill 制 zhi { on targeted where event.target == owner optional { cancel(event) } }")
    subject, words, _ = _read(shield, tmp_path)
    assert subject is not None and subject[0] == "user"
    assert words == set()


def test_the_agent_aims_it_at_a_foe_only() -> None:
    """The lord, struck by seat 4 (a sure foe by now) or by a seat it knows nothing of, answers with the harm only
    against the foe."""
    ask = Request(0, "confirm", "use 制?", ("yes", "no"), about=("control", "skill"), subject=4)
    struck = view(0, acts=[(4, 0, SLASH)] * 2, damage=[(4, 0, 2)])
    assert picks(ask, struck) == {0}
    assert picks(ask._replace(subject=1), view(0)) == {1}


def test_a_field_of_several_names_its_first_living_other() -> None:
    from sgsdsl.engine.registry.core import named_in

    me, other = _players()
    third = Player(2)
    for p, alive in ((me, True), (other, False), (third, True)):
        p.alive = alive
    assert named_in({"targets": [me, other, third]}, "targets", me) is third  # (not the one asked, not the dead)
    assert named_in({"targets": [me]}, "targets", me) is None
    assert named_in({"user": other}, "user", me) is other


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_the_trigger_carries_the_field_its_body_is_about(back_end: str) -> None:
    """援袭 ("after another's 杀 targets a third, use a 杀 on the attacker") is about the 杀's user, 效仿 ("after
    another's 杀, use a 杀 on its target") about its targets, 反制 about the trick's user: the engine names that one."""
    from sgsdsl.api import interpreted_program
    from sgsdsl.compiler.cache import compiled_program

    designs = Path(__file__).resolve().parent.parent / "benchmarks" / "designs"
    loaded = check_paths([str(designs / "sixth_batch.sgs"), str(designs / "fifth_batch.sgs")])
    assert loaded.ok
    program = interpreted_program(loaded) if back_end == "interpreted" else compiled_program(loaded)
    skills = {s.ident: s for g in program.generals.values() for s in g.skills}
    assert skills["yuanxi"].triggers[0].subject == "user"
    assert skills["xiaofang"].triggers[0].subject == "targets"
    assert skills["fanzhi"].triggers[0].subject == "user"


GRANTED = """\
general 甲 jia : 魏 male 4 {
  skill 纳 na { grant limit 1 per phase { draw(owner, 1)\n draw(user, 1) } }
}
mode 身份局 identity { players 2..2  roles 2 { lord rebel }  leader lord  win lord when count(players()) == 1 }
"""


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_a_granted_action_is_offered_as_its_users_side_reads_it(tmp_path: Path, back_end: str) -> None:
    """纳贤's shape ("another may give you a card, then draw 1"): to the seat offered it, a draw for itself and a help
    to the one granting it, who is the option's reach; so an agent uses it for a friend only."""
    from tests.test_option_hints import HINTED, asked_in

    deck = HINTED.split("general")[0]  # (a deck to draw from: with none, the game ends at the first draw)
    menus = [r for r in asked_in(tmp_path, deck + GRANTED, back_end) if r.kind == "play"]
    offered = [(r, i) for r in menus for i, label in enumerate(r.options) if "纳" in label]
    assert offered
    for r, i in offered:
        assert r.option_tags[i] == ("draw", "help", "skill")
        assert r.option_reach[i] == (1 - r.seat,)


def test_the_agent_uses_a_granted_help_for_a_sure_friend_only() -> None:
    from sgsdsl.ai.heuristic import HeuristicAgent
    from tests.test_role_play import view as seat_view

    agent = HeuristicAgent(1)
    words = frozenset({"skill", "draw", "help"})
    loyalist = seat_view(1)  # (a loyalist: the lord, seat 0, a sure friend)
    rebel = seat_view(3)
    assert agent._skill_score(words, loyalist, agent._stance_now(loyalist), False, reach=(0,)) > 0
    assert agent._skill_score(words, rebel, agent._stance_now(rebel), False, reach=(0,)) == 0


WRITTEN = _struck(f"""  skill 噬 shi {{
    {AFTER_DAMAGE} {{
      let src = event.source
      if choose(owner, ["it discards a hand card", "you draw 1"], prompt: "噬") == "it discards a hand card" {{
        if count(hand(src)) > 0 {{ discard(choose(src, hand(src), prompt: "噬: discard"), by: src) }}
      }} else {{
        draw(owner, 1)
      }}
    }}
  }}""")


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_an_owners_written_options_are_about_the_one_its_question_named(tmp_path: Path, back_end: str) -> None:
    """A designer's 反噬 ("after you take damage, choose: the source discards a hand card, or you draw 1"): the choice
    among its written options is about the damage's source, as its question was, so that an agent makes a foe
    discard and lets a friend be."""
    for r in asked_with(tmp_path, WRITTEN, back_end, "噬"):
        assert r.subject == 1 - r.seat
