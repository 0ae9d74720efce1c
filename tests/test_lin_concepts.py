"""The language concepts of the 林 work, checked below the scenarios: the engine promises (distance) and the
checker's diagnostics for the new constructs."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import ROOT, STANDARD, program
from sgsdsl.api import check_paths
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game
from sgsdsl.engine.invariants import check_invariants


def _game(generals: list[str | None]) -> Game:
    prog = program(str(STANDARD))
    g = Game(prog, "identity", len(generals), 1, [RandomAgent(i) for i in range(len(generals))])
    for p, ident in zip(g.players, generals, strict=True):
        g.set_general(p, prog.generals[ident] if ident else None)
    return g


def _equip(g: Game, p, name: str) -> None:
    g.use.equip(p, next(c for c in g.draw_pile if c.name == name))


@pytest.mark.parametrize("general", ["machao", None])
def test_distance_read_by_a_rule_is_never_below_one(general: str | None) -> None:
    g = _game([general, None, None, None])
    a, b, c, _ = g.players
    _equip(g, a, "赤兔")  # −1 horse (and 马术): the raw sum is 0 (or −1)
    assert g.dispatch.value("distance", a, b) == 1 and g.dispatch.value("distance", a, c) == 1
    assert g.dispatch.value("distance", a, a) == 0  # from a character to itself
    assert g.dispatch.value("distance", b, a) == 1


PROCS = """
import "{std}"
procedure deal(p: player, n: int) {{ draw(p, n) }}
procedure ping(p: player) {{ pong(p) }}
procedure pong(p: player) {{ if p.hp > 1 {{ ping(p) }} }}
procedure draw(p: player) {{ draw(p, 1) }}
general 甲 jia : 群 male 4 {{
  skill 一 yi {{ active limit 1 per phase {{ deal(owner) deal(owner, "x") dael(owner, 1) }} }}
  skill 二 er {{ on phase_start where event.player == owner and deal(owner, 1) {{ draw(owner, 1) }} }}
}}
"""


def test_procedure_mistakes_are_located_with_suggestions(tmp_path: Path) -> None:
    f = tmp_path / "procs.sgs"
    f.write_text(PROCS.format(std=(ROOT / "rules" / "standard.sgs").as_posix()), encoding="utf-8")
    loaded = check_paths([str(f)])
    got = sorted((d.code, d.span.line, d.suggestion or "") for d in loaded.diagnostics)
    assert got == [
        ("SGS-E201", 6, "choose another name"),  # a procedure may not take a function's name (draw)
        ("SGS-E203", 8, "did you mean 'deal'?"),
        ("SGS-E204", 8, ""),  # deal(owner): one argument of two
        ("SGS-E232", 4, "use a loop (for, repeat, while) inside one procedure instead"),  # ping -> pong -> ping
        ("SGS-E232", 5, "use a loop (for, repeat, while) inside one procedure instead"),
        ("SGS-E301", 8, ""),  # deal(owner, "x")
        ("SGS-E303", 9, "call it from an effect block"),  # an action in a condition
    ], got


def test_counted_suit_is_read_by_rules_but_labels_show_the_printed_face() -> None:
    """春色 (♠ counts as ♥) changes what every rule reads of a ♠ card, wherever it is; the label stays printed."""
    prog = program(str(ROOT / "docs" / "examples" / "lin_concepts.sgs"))
    g = Game(prog, "identity", 4, 1, [RandomAgent(i) for i in range(4)])
    spade = next(c for c in g.draw_pile if c.printed_suit == "♠")
    assert spade.suit == "♠" and spade.color == "black"
    g.set_general(g.players[2], prog.generals["chunsezhe"])
    assert spade.suit == "♥" and spade.color == "red" and "♠" in spade.label()
    g.players[2].alive = False
    g.dispatch.refresh_skills(g.players[2])
    assert spade.suit == "♠"


EVERY_CARD_A_SLASH = """
import "{std}"
general 乱名者 luanming : 群 male 4 {{
  skill 乱名 luanming locked {{ modify card_name(c) to 杀 where true }}
}}
"""


def test_a_card_in_an_equipment_or_judge_area_keeps_the_name_it_was_placed_as(tmp_path: Path) -> None:
    f = tmp_path / "names.sgs"
    f.write_text(EVERY_CARD_A_SLASH.format(std=STANDARD.as_posix()), encoding="utf-8")
    prog = program(str(f))
    g = Game(prog, "identity", 4, 1, [RandomAgent(i) for i in range(4)])
    g.set_general(g.players[1], prog.generals["luanming"])
    horse = next(c for c in g.draw_pile if c.printed_rule.name == "赤兔")
    le = next(c for c in g.draw_pile if c.printed_rule.name == "乐不思蜀")
    assert horse.name == "杀" and le.name == "杀"  # in the draw pile (or a hand) they count as 杀
    for card, zone in ((horse, "equip"), (le, "judge")):  # placed there by their own uses, before the skill came
        g.draw_pile.remove(card)
        card.zone, card.holder = zone, g.players[0]
    g.players[0].equips["offensive_horse"] = horse
    g.players[0].judge.append(le)
    assert horse.name == "赤兔" and horse.category == "offensive_horse" and le.name == "乐不思蜀"
    check_invariants(g)


# A 武神-like filter skill: the owner's ♥ hand cards count as 杀 (only there: out of the hand they count as printed),
# and its ♦ hand cards as 乐不思蜀; one that would make every card in the processing area count as 桃; and one that
# makes its hand cards black.
COUNTED_IN_HAND = """
import "{std}"
general 武神者 wushenzhe : 蜀 male 4 {{
  skill 武神 wushen locked {{
    modify card_name(c) to 杀 where holder_of(c) == owner and zone_of(c) == "hand" and c.suit == ♥
  }}
  skill 国色者 guosezhe locked {{
    modify card_name(c) to 乐不思蜀 where holder_of(c) == owner and zone_of(c) == "hand" and c.suit == ♦
  }}
  skill 化桃 huatao locked {{ modify card_name(c) to 桃 where zone_of(c) == "processing" }}
  skill 夜行 yexing locked {{ modify card_color(c) to black where holder_of(c) == owner and zone_of(c) == "hand" }}
}}
"""


def _counted_in_hand(tmp_path: Path, engine: str) -> tuple[Game, object, object]:
    f = tmp_path / "counted.sgs"
    f.write_text(COUNTED_IN_HAND.format(std=STANDARD.as_posix()), encoding="utf-8")
    prog = program(str(f), engine)
    g = Game(prog, "identity", 4, 1, [RandomAgent(i) for i in range(4)])
    g.set_general(g.players[0], prog.generals["wushenzhe"])
    return g, g.players[0], g.players[1]


def _into_hand(g: Game, p, name: str, suit: str):
    card = next(c for c in g.draw_pile if c.printed_rule.name == name and c.printed_suit == suit)
    g.draw_pile.remove(card)
    card.zone, card.holder = "hand", p
    p.hand.append(card)
    return card


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_card_used_as_the_card_it_counted_as_resolves_as_that_card(tmp_path: Path, engine: str) -> None:
    """A ♥ 桃 counting as 杀 in the hand is used as 杀: the target is hit, not healed, and it counts against the
    杀 limit — although in the processing area the skill no longer makes it count as 杀. Discarded, it is 桃."""
    g, p, q = _counted_in_hand(tmp_path, engine)
    tao = _into_hand(g, p, "桃", "♥")
    assert tao.name == "杀"
    q.hand.clear()  # no 闪 to answer with
    hp = q.hp
    g.use.use_card(p, tao, tao.rule.by_context["play"][0], [q], "play")
    assert q.hp == hp - 1
    assert g.usage["phase"][(p.seat, ("card", "杀"))] == 1 and (p.seat, ("card", "桃")) not in g.usage["phase"]
    assert tao.zone == "discard" and tao.name == "桃" and tao.used_face is None
    check_invariants(g)


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_card_placed_as_a_delayed_trick_is_judged_as_one(tmp_path: Path, engine: str) -> None:
    """A ♦ 杀 counting as 乐不思蜀 in the hand, used on a target, lies in its judge area as 乐不思蜀 and is judged
    so, even once the skill that made it count so has left the game; it is 杀 again when it leaves."""
    g, p, q = _counted_in_hand(tmp_path, engine)
    sha = _into_hand(g, p, "杀", "♦")
    assert sha.name == "乐不思蜀" and sha.category == "delayed"
    g.use.use_card(p, sha, sha.rule.by_context["play"][0], [q], "play")
    assert sha.zone == "judge" and q.judge == [sha] and sha.name == "乐不思蜀"
    g.set_general(p, None)  # the skills are gone
    assert sha.name == "乐不思蜀" and sha.category == "delayed"
    g.record = True
    g.use.resolve_delayed(q, sha)
    assert any(e["e"] == "delayed" for e in g.log)
    assert sha.zone == "discard" and sha.name == "杀"
    check_invariants(g)


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_card_being_used_is_what_it_was_used_as_whatever_it_would_count_as_there(tmp_path: Path,
                                                                                  engine: str) -> None:
    """A ♠ 杀 used as itself stays 杀 in the processing area, where 化桃 would make any card count as 桃."""
    g, p, q = _counted_in_hand(tmp_path, engine)
    sha = _into_hand(g, p, "杀", "♠")
    assert sha.name == "杀"
    q.hand.clear()
    hp = q.hp
    g.use.use_card(p, sha, sha.rule.by_context["play"][0], [q], "play")
    assert q.hp == hp - 1 and sha.zone == "discard" and sha.name == "杀"


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_card_being_used_keeps_the_colour_it_was_used_with(tmp_path: Path, engine: str) -> None:
    """A ♣ hand card is black and a ♥ one too (夜行), so 仁王盾 stops the ♥ 杀 used on its wearer: it is black while it
    is being used, out of the hand; and red again in the discard pile."""
    g, p, q = _counted_in_hand(tmp_path, engine)
    sha = _into_hand(g, p, "杀", "♥")
    g.use.equip(q, next(c for c in g.draw_pile if c.printed_rule.name == "仁王盾"))
    assert sha.color == "black"
    q.hand.clear()
    hp = q.hp
    g.record = True
    g.use.use_card(p, sha, sha.rule.by_context["play"][0], [q], "play")
    assert q.hp == hp and any(e["e"] == "no_effect" for e in g.log)
    assert sha.zone == "discard" and sha.color == "red"



RED_SPADES = """
import "{std}"
general 红武者 hongwuzhe : 蜀 male 4 {{
  skill 红颜者 hongyanzhe locked {{
    modify card_suit(c) to ♥ where holder_of(c) == owner and zone_of(c) == "hand" and c.suit == ♠
  }}
  skill 武圣者 wushengzhe {{ view_as 杀 from 1 card where it.color == red }}
}}
"""


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_converted_card_keeps_the_colour_of_the_cards_it_was_made_of_as_they_counted(tmp_path: Path,
                                                                                      engine: str) -> None:
    """A ♠ hand card counts as ♥ (红颜-like), so it may be used as a red 杀 (武圣-like); out of the hand it would be
    ♠ again, but while the 杀 made of it is being used it is ♥, so the 杀 stays red and 仁王盾 does not stop it."""
    f = tmp_path / "red.sgs"
    f.write_text(RED_SPADES.format(std=STANDARD.as_posix()), encoding="utf-8")
    prog = program(str(f), engine)
    g = Game(prog, "identity", 4, 1, [RandomAgent(i) for i in range(4)])
    p, q = g.players[0], g.players[1]
    g.set_general(p, prog.generals["hongwuzhe"])
    p.hand.clear()
    spade = _into_hand(g, p, "过河拆桥", "♠")
    assert spade.suit == "♥" and spade.color == "red"
    g.use.equip(q, next(c for c in g.draw_pile if c.printed_rule.name == "仁王盾"))
    skill = next(s for s in p.skills if s.view_as)
    made = g.use.build_viewas(p, skill, skill.view_as[0], optional=False)
    assert made is not None and made.name == "杀" and made.color == "red"
    q.hand.clear()
    hp = q.hp
    g.use.use_card(p, made, made.rule.by_context["play"][0], [q], "play")
    assert q.hp == hp - 1
    assert spade.zone == "discard" and spade.suit == "♠"
