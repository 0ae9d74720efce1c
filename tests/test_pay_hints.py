"""A choice among the chooser's own cards that the rule then discards, or has the chooser give away, is a price:
lang/intent.py's `give_pay_hints` hints each option `pay`, and the heuristic agent parts first with the cards it need
not keep, whatever the prompt says (a discard prompted in Chinese, a card given away)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths, program_for
from sgsdsl.engine.agents import Agent, Request
from sgsdsl.engine.game import Game
from sgsdsl.engine.registry.core import PAY
from sgsdsl.lang import ast
from sgsdsl.lang.ast_walk import calls_in, kwarg


def _paid(tmp_path: Path, body: str) -> dict[str, bool]:
    """Per choice of a general's action (by its prompt), whether the reading hinted its options `pay`."""
    src = tmp_path / "t.sgs"
    src.write_text(f'import "standard"\ngeneral 测试 ceshi : 蜀 male 4 {{\n  skill 试 shi {{\n    active {{\n{body}\n'
                   f'    }}\n  }}\n}}\n', encoding="utf-8")
    loaded = check_paths([str(src)])
    assert loaded.ok and loaded.checked is not None, [str(d) for d in loaded.diagnostics]
    out = {}
    for call in calls_in(loaded.checked.modules[-1]):
        if call.func.text in ("choose", "choose_many"):
            hints, prompt = kwarg(call, "hints"), kwarg(call, "prompt")
            assert isinstance(prompt, ast.Lit)
            out[prompt.value] = isinstance(hints, ast.ListComp) and isinstance(hints.elem, ast.Lit) \
                and hints.elem.value == PAY
    return out


def test_a_card_given_away_and_a_discard_prompted_in_chinese_are_prices(tmp_path: Path) -> None:
    body = """
      let p = choose(owner, others(owner), prompt: "whom")
      give(owner, p, [choose(owner, hand(owner), prompt: "given")])
      let c = choose(owner, hand(owner) + equips(owner), prompt: "弃置一张牌")
      discard([c], by: owner)
      discard(choose_many(owner, hand(owner), 2, 2, prompt: "two"), by: owner)"""
    assert _paid(tmp_path, body) == {"whom": False, "given": True, "弃置一张牌": True, "two": True}


def test_choices_that_are_not_a_fixed_price_of_ones_own_are_left_alone(tmp_path: Path) -> None:
    body = """
      let p = choose(owner, others(owner), prompt: "whom")
      discard(choose(p, hand(p), prompt: "theirs, by them"), by: p)
      discard(choose(owner, hand(p), prompt: "theirs, by me"), by: owner)
      let c = choose(owner, hand(owner), optional: true, prompt: "may decline")
      if c != none { discard([c], by: owner) }
      give(owner, p, choose_many(owner, hand(owner), 1, 99, prompt: "as many as it likes"))
      let kept = choose(owner, hand(owner), prompt: "kept, shown")
      show(owner, [kept])
      discard([choose(owner, choose_many(owner, hand(owner), 2, 2, prompt: "two offered"), prompt: "one of them")])"""
    # (the last: its options ask a question, so hints that work them out again would ask it twice)
    assert _paid(tmp_path, body) == {"whom": False, "theirs, by them": True, "theirs, by me": False,
                                     "may decline": False, "as many as it likes": False, "kept, shown": False,
                                     "two offered": False, "one of them": False}


def test_the_agent_pays_with_what_it_need_not_keep() -> None:
    agent = HeuristicAgent(3)
    view = {"seat": 0, "role": "rebel", "players": [{"seat": 0, "hp": 4, "max_hp": 4, "hand": 3}]}
    r = Request(0, "choose", "交易: 给出的牌", ("桃", "闪", "杀"), option_tags=(
        (PAY, "heal", "basic"), (PAY, "defence", "basic"), (PAY, "attack", "basic")), option_seats=(None,) * 3)
    assert agent.on_choose(r, view) == [2]
    unhinted = r._replace(option_tags=(("heal", "basic"), ("defence", "basic"), ("attack", "basic")))
    assert agent.on_choose(unhinted, view) is None  # (without the hint, the prompt says nothing: at random)


GIVER = """\
import "standard"
general 交易者 jiaoyizhe : 吴 male 4 {
  skill 交易 jiaoyi {
    active limit 1 per phase where count(hand(owner)) > 0 {
      let p = choose(owner, others(owner), prompt: "交易: 与谁")
      give(owner, p, [choose(owner, hand(owner), prompt: "交易: 给出的牌")])
      let c = choose_card_from(owner, p)
      if c != none { obtain(owner, c) }
    }
  }
}
"""


class _Watching(HeuristicAgent):
    """A heuristic seat that notes, for each card it gives by 交易, its hints and those of every card it held then."""

    def __init__(self, seed: int, seen: list[tuple[tuple[str, ...], list[tuple[str, ...]]]]) -> None:
        super().__init__(seed)
        self.seen = seen

    def decide(self, request: Request, view: object) -> list[int]:
        answer = super().decide(request, view)
        if request.prompt == "交易: 给出的牌":
            self.seen.append((request.option_tags[answer[0]], list(request.option_tags)))
        return answer


@pytest.mark.parametrize("engine", ["compiled", "interpreted"])
def test_in_play_no_keepsake_is_given_while_a_spare_card_is_held(tmp_path: Path, engine: str) -> None:
    path = tmp_path / "jiaoyi.sgs"
    path.write_text(GIVER, encoding="utf-8")
    loaded = check_paths([str(path)])
    assert loaded.ok, [str(d) for d in loaded.diagnostics]
    program = program_for(loaded, engine)
    seen: list[tuple[tuple[str, ...], list[tuple[str, ...]]]] = []
    for seed in range(1, 9):
        agents: list[Agent] = [_Watching(seed * 10 + i, seen) for i in range(5)]
        Game(program, "identity", 5, seed, agents, pinned={seed % 5: "jiaoyizhe"}, record=False).run()
    assert len(seen) >= 10
    wanted = {"heal", "defence", "weapon", "armor", "defensive_horse", "offensive_horse"}
    for given, held in seen:
        assert all(PAY in t for t in held), (given, held)
        if any(not wanted & set(t) for t in held):  # (a card it need not keep was held: that one is given)
            assert not wanted & set(given), (given, held)
