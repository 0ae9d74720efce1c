"""Whole turns (翻面, extra and skipped turns), 拼点, piles and granted actions: engine, checker and both back ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import ROOT, play_checked, program
from sgsdsl.api import check_paths
from sgsdsl.engine.invariants import InvariantViolation, check_invariants
from sgsdsl.scenario import parse_scenario, read_scenario, run_scenario
from sgsdsl.scenario.runner import build_game

EXAMPLES = ROOT / "docs" / "examples"
CONCEPTS = ["turns", "turns_skip", "pindian", "pindian_tie", "piles", "piles_death", "grant"]


@pytest.mark.parametrize("name", CONCEPTS)
def test_concept_examples_pass_compiled_too(name: str) -> None:
    out = run_scenario(read_scenario(EXAMPLES / f"{name}.scenario"), engine="compiled")
    assert out.passed, "\n".join(out.failures)


PILES = f"""
rules: {EXAMPLES / 'piles.sgs'}
seat P0: 许褚 lord
seat P1: 屯粮 rebel
  pile 谷: 桃♥3
  pile 藏 private: 闪♦2
  pile 化身 private: 曹操
"""


def _game(text: str):
    sc = parse_scenario("t.scenario", text + "P0: end play phase\n")
    from sgsdsl.scenario.runner import ScenarioAgent, prepare

    return build_game(sc, prepare(sc), ScenarioAgent(sc, True))


def test_private_pile_shows_only_its_size_to_others() -> None:
    game = _game(PILES)
    other = game.choices.view(game.players[0])["players"][1]["piles"]
    own = game.choices.view(game.players[1])["players"][1]["piles"]
    assert other == {"谷": ["桃♥3#83"], "藏": 1, "化身": 1}
    assert own["藏"] == ["闪♦2#64"] and own["化身"] == ["曹操"]


def test_invariants_count_pile_cards_and_general_cards() -> None:
    game = _game(PILES)
    check_invariants(game)
    card = game.players[1].piles["谷"][0]
    game.players[1].hand.append(card)  # the same card in two places
    with pytest.raises(InvariantViolation):
        check_invariants(game)
    game.players[1].hand.remove(card)
    game.general_pool.append(game.players[1].piles["化身"][0])  # a general card both pooled and on a pile
    with pytest.raises(InvariantViolation, match="general card"):
        check_invariants(game)


def test_face_down_shows_in_views_and_hash() -> None:
    game = _game(PILES)
    before = game.choices.state_hash()
    game.turnflow.turn_over(game.players[1])
    assert game.choices.view(game.players[0])["players"][1]["face_down"] is True
    assert game.choices.state_hash() != before
    assert game.log[-1]["e"] == "turn_over"


BAD = """
import "{std}"
general 坏 huai : 群 male 4 {{
  skill 甲 jia {{ grant where usr.alive {{ turn_ovr(user) }} }}
  skill 乙 yi {{ active {{ let r = pindian(owner, owner) if r.wins {{ draw(owner, 1) }} }} }}
}}
"""


def test_checker_locates_mistakes_with_suggestions(tmp_path: Path) -> None:
    f = tmp_path / "bad.sgs"
    f.write_text(BAD.format(std=(ROOT / "rules" / "standard.sgs").as_posix()), encoding="utf-8")
    loaded = check_paths([str(f)])
    msgs = [(d.code, d.span.line, d.message, d.suggestion or "") for d in loaded.diagnostics]
    assert any("usr" in m and "user" in s for _, _, m, s in msgs), msgs  # `user` is bound in a grant
    assert any("turn_ovr" in m and "turn_over" in s for _, _, m, s in msgs), msgs
    assert any("wins" in m and "winner" in s for _, _, m, s in msgs), msgs  # the result is typed
    assert sorted(line for _, line, _, _ in msgs) == [4, 4, 5], msgs


def test_random_games_with_the_examples_keep_the_invariants() -> None:
    prog = program(str(EXAMPLES / "piles.sgs"))
    for seed in range(3):
        play_checked(prog, 5, seed)


def test_random_games_with_shan_keep_the_invariants() -> None:
    """The 山 generals in checked random games: cards in exactly one place (田 and 化身 piles included)."""
    prog = program(str(ROOT / "rules" / "shan.sgs"))
    for seed in range(4):
        play_checked(prog, 8, seed)
