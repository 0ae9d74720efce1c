"""A rule error that stops a game is shown with its place: `file.sgs:line:col`, the rule's source line with a caret
under the call, and the game that hit it (seed, decisions) — by `test`, `simulate` and `play`, on both engines."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.engine.errors import RuleError, in_game, locate
from sgsdsl.rule_errors import describe, describe_text, one_line

# a card where give() wants a player, passed through a mark so that `check` cannot see it
SWAPPED = """import "standard"
rule 赠 r_give {
  on turn_start {
    mark(none, "gift", first(hand(current())))
    let c = mark_value(none, "gift")
    if c != none { give(current(), c, c) }
  }
}
"""


@pytest.fixture
def swapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sw.sgs").write_text(SWAPPED, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("engine", ["compiled", "interpreted"])
def test_simulate_shows_the_rule_line_and_the_game(swapped: Path, engine: str) -> None:
    r = CliRunner().invoke(main, ["simulate", "sw.sgs", "--games", "2", "--players", "4", "--engine", engine])
    assert r.exit_code == 1, r.output
    assert ("engine error: sw.sgs:6:20: rule error: argument 'to' of give() must be a player, not card "
            "(game seed 1, after ") in r.output, r.output
    assert "    6 |     if c != none { give(current(), c, c) }\n      |                    ^^^^\n" in r.output


@pytest.mark.parametrize("engine", ["compiled", "interpreted"])
def test_a_scenario_shows_the_rule_line_and_the_game(swapped: Path, engine: str) -> None:
    (swapped / "sw.scenario").write_text("scenario: give\nrule: gives\ncovers: 杀\nrules: sw.sgs\nseat P0: 曹操 lord\n"
                                         "  hand: 杀♠7\nseat P1: 孙权 rebel\nstart: P0 prepare\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["test", "sw.scenario", "--engine", engine])
    assert r.exit_code == 1, r.output
    assert "✗ the run failed: sw.sgs:6:20: rule error: argument 'to' of give() must be a player, not card " \
           "(game seed 1, after 0 decisions)" in r.output, r.output
    assert "|                    ^^^^" in r.output


def test_one_line_prefers_the_place_the_message_names() -> None:
    err = locate(RuleError("x.sgs:3:9: '+' on none"), "x.sgs:3:5")
    in_game(err, 7, 12)
    in_game(err, 8, 99)  # the innermost game is the one named
    assert one_line(err) == "x.sgs:3:9: rule error: '+' on none (game seed 7, after 12 decisions)"
    err2 = locate(RuleError("argument 'n' of draw() must be a number"), "x.sgs:2:3")
    assert one_line(err2) == "x.sgs:2:3: rule error: argument 'n' of draw() must be a number"
    assert describe(err2, {"x.sgs": "a\n  draw(p)"}) == (one_line(err2) + "\n    2 |   draw(p)\n      |   ^^^^")
    assert describe_text("no place here") == "no place here"
    assert describe_text("gone.sgs:1:1: rule error: x") == "gone.sgs:1:1: rule error: x"  # an unreadable file
