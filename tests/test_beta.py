"""The beta rules (rules/beta.sgs, issue 11): the deck and the characters as the file's header states them, the
set-up, scenario coverage of every card, invariants, and compiled vs interpreted games. The house rules
(rules/house/*.sgs) are cross-checked here too. Long runs: `pytest -m soak -k beta`."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import ROOT, play_checked, program
from sgsdsl.compiler.crosscheck import compare, load_pair, spec_for
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game
from sgsdsl.lang.loader import load
from sgsdsl.scenario import read_scenario

BETA = ROOT / "rules" / "beta.sgs"
HOUSE = ROOT / "rules" / "house"
SCENARIOS = ROOT / "tests" / "scenarios"

# the counts the header of rules/beta.sgs announces (Bang!'s base deck, card for card)
COUNTS = {"杀": 25, "闪": 12, "桃": 6, "亭台": 1, "火牛阵": 1, "决斗": 3, "南蛮入侵": 2, "喜宴": 2,
          "猴子偷桃": 4, "顺手牵羊": 4, "草木皆兵": 2, "趾高气扬": 1, "闪电": 1, "乐不思蜀": 3, "冥天照符": 2,
          "青钢剑": 1, "黄龙剑": 1, "霸王": 1, "青龙偃月刀": 1, "方天化戟": 1, "朱雀羽扇": 1,
          "的卢": 2, "赤兔": 1, "八卦阵": 2}


def test_the_deck_is_the_stated_80_cards_and_the_file_stands_alone() -> None:
    prog = program(str(BETA))
    assert {c.name: len(c.copies) for c in prog.cards.values()} == COUNTS
    assert sum(COUNTS.values()) == 80 and COUNTS["杀"] == 25
    hearts = sum(1 for c in prog.cards.values() for suit, _ in c.copies if suit == "♥")
    assert hearts == 20  # a judgement passes on ♥ only: one card in four
    assert load([BETA]).modules[-1].imports == []  # not an import of the standard cards
    assert len(prog.generals) == 40 and all(not g.skills for g in prog.generals.values())
    weapons = {c.name: c.attack_range for c in prog.cards.values() if c.category == "weapon"}
    assert weapons == {"冥天照符": 1, "青钢剑": 2, "黄龙剑": 2, "霸王": 2, "青龙偃月刀": 3, "方天化戟": 4,
                       "朱雀羽扇": 5}


@pytest.mark.parametrize("players", range(4, 10))
def test_setup_roles_lord_hp_and_hands(players: int) -> None:
    prog = program(str(BETA))
    game = play_checked(prog, players, 7 + players)
    roles = Counter(p.role for p in game.players)
    assert roles["lord"] == 1 and roles["renegade"] == 1  # the 9 cards: 1 lord, 3 loyalists, 4 rebels, 1 renegade
    assert roles["loyalist"] == {4: 1, 5: 1, 6: 1, 7: 2, 8: 2, 9: 3}[players]
    assert roles["rebel"] == players - 2 - roles["loyalist"]
    lord = next(p for p in game.players if p.role == "lord")
    offer = next(e for e in game.log if e.get("prompt") == "choose your character")  # the lord chooses first
    assert offer["options"][:3] == ["刘备", "曹操", "孙权"] and len(offer["options"]) == 5
    assert lord.general.name == offer["options"][offer["answer"][0]]
    assert lord.max_hp == lord.general.hp + 1  # +1 at every player count, 4 players included
    start = [e for e in game.log if e.get("e") == "draw"][:players]
    assert all(e["n"] == 4 for e in start)


def test_option_hand_by_hp_deals_as_many_cards_as_hp() -> None:
    prog = program(str(BETA))
    game = Game(prog, "identity", 5, 3, [RandomAgent(i) for i in range(5)], {"hand_by_hp": True})
    game.run()
    hp = {}
    for e in game.log:
        if e.get("e") == "general":
            hp[e["player"]] = prog.generals[next(k for k, g in prog.generals.items() if g.name == e["general"])].hp
    draws = [e for e in game.log if e.get("e") == "draw"][:5]
    lord = next(p for p in game.players if p.role == "lord")
    for e in draws:
        extra = 1 if e["player"] == lord.label() else 0
        assert e["n"] == hp[e["player"]] + extra


def _beta_covered() -> set[str]:
    names: set[str] = set()
    for f in sorted(SCENARIOS.rglob("*.scenario")):
        sc = read_scenario(f)
        if sc.rules and [p.resolve() for p in sc.rule_files()] == [BETA.resolve()]:
            names |= {n for n, _ in sc.covers}
    return names


def test_every_beta_card_has_a_scenario() -> None:
    missing = sorted(set(COUNTS) - _beta_covered())
    assert not missing, f"no scenario on rules/beta.sgs covers: {', '.join(missing)}"


def test_every_house_rule_has_scenarios() -> None:
    covered: Counter[str] = Counter()
    for f in sorted((SCENARIOS / "house").glob("*.scenario")):
        covered.update(n for n, _ in read_scenario(f).covers)
    assert covered["endgame"] >= 3 and covered["protection"] >= 3 and covered["seats_by_lot"] >= 2


# ---------------------------------------------------------------- compiled vs interpreted
def crosscheck(rules: str, games: int, base: int = 0) -> Counter[str]:
    pair = load_pair(rules)
    assert not isinstance(pair, str), pair
    compiled, interpreted = pair
    modes: Counter[str] = Counter()
    for i in range(games):
        spec = spec_for(i, rules, compiled, base)
        problem, outcome = compare(spec, compiled, interpreted)
        assert problem is None, f"{problem}\n{spec.as_regression()}"
        assert outcome.error is None, outcome.error
        modes[spec.mode] += 1
    return modes


def test_beta_compiled_equals_interpreted_sample() -> None:
    assert crosscheck(str(BETA.relative_to(ROOT)), 12) == {"identity": 12}


@pytest.mark.parametrize("house", ["endgame", "protection", "seats_by_lot"])
def test_house_rules_compiled_equals_interpreted_sample(house: str) -> None:
    modes = crosscheck(f"rules/house/{house}.sgs", 6)
    assert modes[house] == 3 and modes["identity"] == 3


# ---------------------------------------------------------------- long runs (opt-in: pytest -m soak)
@pytest.mark.soak
@pytest.mark.parametrize("players", range(4, 10))
def test_soak_beta_invariants(players: int) -> None:
    """1,200 beta games (200 per player count), invariants checked before every decision."""
    prog = program(str(BETA))
    for seed in range(200):
        g = play_checked(prog, players, seed, record=False)
        assert len(g.cards) == 80


@pytest.mark.soak
def test_soak_beta_crosscheck() -> None:
    assert sum(crosscheck(str(BETA.relative_to(ROOT)), 1000, base=10_000).values()) == 1000


@pytest.mark.soak
@pytest.mark.parametrize("house", ["endgame", "protection", "seats_by_lot"])
def test_soak_house_rules(house: str) -> None:
    """Per house rule: 300 cross-checked games (both modes of the file) and 300 games with invariants."""
    path = HOUSE / f"{house}.sgs"
    assert sum(crosscheck(f"rules/house/{house}.sgs", 300, base=20_000).values()) == 300
    prog = program(str(path))
    for seed in range(300):
        play_checked(prog, 4 + seed % 7, seed, record=False, mode=house)
