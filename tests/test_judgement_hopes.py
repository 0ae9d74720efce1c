"""What a judged character hopes for (`judge(…, hoping: it.suit == ♥)`, issue 30). A skill that replaces a pending
judgement card (鬼才, 鬼道) was played blind: the agent used it at the risky rate and picked the new card at random,
as often against a friend as for one. The judgement now says which results its character hopes for, and an agent
asked while it is pending is told (`Request.hope`) whether the card now and each card it may pick is one of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine.agents import Hope, Request
from sgsdsl.engine.game import Game
from tests.test_role_play import view
from tests.test_two_sided_skills import Sure

ROOT = Path(__file__).resolve().parent.parent

# a character that judges itself each turn hoping for its chosen suit (a local of the rule, read by the condition),
# and one that may replace any pending judgement card with a hand card
JUDGES = """\
general 判者 panzhe : 魏 male 4 {
  skill 占 zhan {
    on phase_start where event.player == owner and event.phase == prepare {
      let wanted = ♥
      let j = judge(owner, hoping: it.suit == wanted)
      if j.suit == wanted { draw(owner, 1) }
    }
  }
}
general 改者 gaizhe : 魏 male 4 {
  skill 改 gai {
    on judging where count(hand(owner)) > 0 optional {
      retrial(event, choose(owner, hand(owner), prompt: "改: the new judgement card"))
    }
  }
}
"""

CONFIRM = Request(1, "confirm", "use 鬼才?", ("yes", "no"), about=("risk",), subject=0)


def _answer(stance: dict[int, float], hope: Hope, request: Request = CONFIRM) -> set[int]:
    return {Sure(seed, stance).decide(request._replace(hope=hope), view(1))[0] for seed in range(1, 21)}


def test_a_judgement_is_turned_only_for_a_sure_friend_or_against_a_sure_foe() -> None:
    """Its own judgement or a sure friend's it turns when the card now is not hoped for and it holds one that is; a
    sure foe's when the card now is hoped for and it holds one that is not; never anyone else's, never for
    nothing (always, where the risky rate made it a coin flip before)."""
    friend, foe, unknown = {0: 1.0}, {0: -1.0}, {0: 0.1}
    assert _answer(friend, Hope(0, False, (None, None), (1, 3))) == {0}
    assert _answer(friend, Hope(0, True, (None, None), (1, 3))) == {1}  # it goes its way already
    assert _answer(friend, Hope(0, False, (None, None), (0, 4))) == {1}  # nothing in hand would turn it
    assert _answer(foe, Hope(0, True, (None, None), (0, 4))) == {0}
    assert _answer(foe, Hope(0, False, (None, None), (2, 2))) == {1}
    assert _answer(foe, Hope(0, True, (None, None), (4, 0))) == {1}
    assert _answer(unknown, Hope(0, False, (None, None), (2, 2))) == {1}
    assert _answer(unknown, Hope(1, False, (None, None), (2, 2)), CONFIRM._replace(subject=1)) == {0}  # its own


def test_the_new_card_is_one_that_turns_it_and_one_it_need_not_keep() -> None:
    pick = Request(1, "choose", "鬼才: the new judgement card", ("杀♠7", "桃♥5", "闪♥2", "杀♥9"),
                   option_tags=(("attack", "basic"), ("heal", "basic"), ("defence", "basic"), ("attack", "basic")))
    hope = Hope(0, False, (False, True, True, True), (3, 1))
    assert _answer({0: 1.0}, hope, pick) == {3}  # a hoped-for card, not the 桃 or the 闪 it keeps
    assert _answer({0: -1.0}, hope._replace(now=True), pick) == {0}


def _games(program, seeds: range) -> tuple[list[tuple[str, Hope, int]], list[bool]]:
    """Whole games with 判者 and 改者 pinned to seats 0 and 1: every request that carries a hope (its kind, the
    hope and the answer); and, for each of 占's judgements 改者 was asked about, whether the hope's `now` matched
    the card the log shows judged then (the ♥ 判者 hopes for)."""
    seen: list[tuple[str, Hope, int]] = []
    matched: list[bool] = []

    class Watching(HeuristicAgent):
        def decide(self, request: Request, v) -> list[int]:
            answer = super().decide(request, v)
            if request.hope is not None:
                seen.append((request.kind, request.hope, answer[0]))
                if request.kind == "confirm" and request.hope.judged == 0 and game.phase == "prepare" \
                        and game.current.seat == 0:  # (占's judgement: seat 0's others, 八卦阵's, hope otherwise)
                    shown = next(e for e in reversed(game.log) if e.get("e") in ("judge", "retrial"))
                    card = shown["card"] if shown["e"] == "judge" else shown["new"]
                    matched.append(request.hope.now == ("♥" in card.split("#")[0]))
            return answer

    for seed in seeds:
        game = Game(program, "identity", 5, seed, [Watching(seed * 10 + i) for i in range(5)], None, round_cap=12,
                    pinned={0: "panzhe", 1: "gaizhe"})
        game.run()
    return seen, matched


@pytest.fixture(scope="module")
def judges(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    extra = tmp_path_factory.mktemp("judges") / "judges.sgs"
    extra.write_text(JUDGES, encoding="utf-8")
    return [str(ROOT / "rules" / "standard.sgs"), str(extra)]


def test_agents_are_told_the_hope_alike_on_both_back_ends(judges: list[str]) -> None:
    """The condition is run for the judgement card and each card offered, on the compiled and the interpreted
    rules alike (the same games, the same hopes), and says what the log shows."""
    checked = check_paths(judges)
    compiled = _games(compiled_program(checked), range(1, 16))
    interpreted = _games(interpreted_program(checked), range(1, 16))
    assert compiled == interpreted
    seen, matched = compiled
    assert matched and all(matched)
    confirms = [(h, a) for kind, h, a in seen if kind == "confirm"]
    picks = [(h, a) for kind, h, a in seen if kind == "choose"]
    assert {h.now for h, _ in confirms} == {True, False} and any(a == 0 for _, a in confirms)
    assert picks and all(len(h.options) > 1 for h, _ in picks)


def test_a_person_at_the_terminal_is_told_what_a_pending_judgement_hopes_for() -> None:
    from sgsdsl.terminal import TerminalAgent

    written: list[str] = []
    agent = TerminalAgent(lambda _: "1", written.append)
    v = {"seat": 1, "role": "rebel", "hand": ["杀♠7", "闪♥2"], "draw_pile": 3, "discard_top": [],
         "players": [{"seat": i, "general": g, "role": "hidden", "hp": 4, "max_hp": 4, "alive": True, "equips": [],
                      "judge": [], "hand": 2} for i, g in enumerate(["刘备", "司马懿"])]}
    agent.decide(CONFIRM._replace(hope=Hope(0, False, (None, None), (1, 1))), v)
    agent.decide(Request(1, "choose", "鬼才: the new judgement card", ("杀♠7", "闪♥2"),
                         hope=Hope(1, True, (False, True), (1, 1))), v)
    out = "\n".join(written)
    assert "(about P0 刘备; P0 刘备's judgement is pending: its card is not a result it hopes for)" in out
    assert "(your judgement is pending: its card is a result it hopes for, 1 of the 2 cards offered would be)" in out
