"""A choice of characters that says whom it helps or harms is a public act on the one chosen (`Decisions.chose_seats`):
role beliefs read who a skill chose and for what, as they read whom a card was aimed at (仁德's gift says the giver
favours the one given to)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.scenario.runner import ScenarioAgent, read_scenario, run_scenario

GIFT = """scenario: 仁德's gift is a public act of help on the one given to
rule: 仁德 — a choice tagged help
seat P0: 刘备 lord
  hand: 杀♠7, 闪♦2
seat P1: 孙权 rebel
seat P2: 张飞 loyalist
P0: skill 仁德, 杀♠7, P2, end play phase
expect P2 hand: 杀♠7
"""

# a choice whose words say nothing of whom it favours: no act. Read from its rule, a seat turned over is hampered
# (`control`, an act); one whose rule says `neutral` is not
PLAIN = """import "standard"
general 测试 ceshi : 蜀 male 4 {
  skill 指 zhi {
    active limit 1 per phase {
      let p = choose(owner, others(owner), WORDSprompt: "指: whom")
      turn_over(p)
    }
  }
}
"""

POINT = """scenario: a choice without words is no act
rule: 指 — turn over another
rules: plain.sgs
seat P0: 测试 lord
seat P1: 孙权 rebel
seat P2: 张飞 loyalist
P0: skill 指, P2, end play phase
expect P2 face_down
"""


def _acts_seen(monkeypatch, text: str, path: Path, engine: str) -> list[tuple]:
    seen: list[tuple] = []
    original = ScenarioAgent.decide

    def recording(self, request, view):
        if request.seat == 0 and request.kind == "play":
            seen[:] = [tuple(a) for a in view["act_history"]]
        return original(self, request, view)

    monkeypatch.setattr(ScenarioAgent, "decide", recording)
    monkeypatch.setattr(ScenarioAgent, "reads_view", True)  # (a scripted seat reads none: this one reads the acts)
    path.write_text(text, encoding="utf-8")
    out = run_scenario(read_scenario(path), engine)
    assert out.passed, out.failures
    return seen


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_gift_is_an_act_of_help(monkeypatch, tmp_path: Path, engine: str) -> None:
    acts = _acts_seen(monkeypatch, GIFT, tmp_path / "gift.scenario", engine)
    assert [(a, b) for a, b, words in acts] == [(0, 2)]
    assert "help" in acts[0][2]


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_choice_that_says_nothing_is_no_act(monkeypatch, tmp_path: Path, engine: str) -> None:
    (tmp_path / "plain.sgs").write_text(PLAIN.replace("WORDS", 'tags: "neutral", '), encoding="utf-8")
    assert _acts_seen(monkeypatch, POINT, tmp_path / "point.scenario", engine) == []


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_seat_turned_over_is_read_as_hampered(monkeypatch, tmp_path: Path, engine: str) -> None:
    (tmp_path / "plain.sgs").write_text(PLAIN.replace("WORDS", ""), encoding="utf-8")
    acts = _acts_seen(monkeypatch, POINT, tmp_path / "point.scenario", engine)
    assert [(a, b, words) for a, b, words in acts] == [(0, 2, ("control",))]
