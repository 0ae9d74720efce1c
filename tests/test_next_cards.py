"""Cards put on top of the draw pile for what comes next (观星, issue 30). The agent arranged 观星's cards at random:
worth +0.1 points to 诸葛亮 at 5 players (1,000 paired games), however many judgements waited in his judge area. Now
the rule hints each option `next` and picks from the top down, a delayed card's own judgement says what it hopes
for before it is judged (`CardRule.judge_hope`), and the engine tells the agent what comes next (`Request.ahead`:
the judgements waiting, what the first hopes for, the cards it would draw)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine.agents import Ahead, Request
from sgsdsl.engine.game import Game
from sgsdsl.engine.model import Card
from sgsdsl.engine.program import Frame
from tests.test_role_play import view

ROOT = Path(__file__).resolve().parent.parent
RULES = [str(ROOT / "rules" / f"{name}.sgs") for name in ("standard", "junzheng")]

# a delayed card whose hope reads a name its effect binds: not to be asked before its judgement
LOCAL_HOPE = """\
card 迷 mi : delayed {
  copies ♠3
  use play target one other
  effect {
    let wanted = ♦
    let j = judge(target, card, hoping: it.suit == wanted)
    discard(card)
    if j.suit != wanted { skip_phase(target, draw) }
  }
  tags control
}
"""


@pytest.mark.parametrize("back_end", ["compiled", "interpreted"])
def test_a_delayed_cards_own_hope_is_kept_when_it_reads_the_card_alone(back_end: str, tmp_path: Path) -> None:
    extra = tmp_path / "mi.sgs"
    extra.write_text(LOCAL_HOPE, encoding="utf-8")
    checked = check_paths([*RULES, str(extra)])
    program = compiled_program(checked) if back_end == "compiled" else interpreted_program(checked)
    cards = {c.ident: c for c in program.cards.values()}

    def hoped(ident: str, suit: str, rank: int) -> bool:
        fn = cards[ident].judge_hope
        assert fn is not None
        return bool(fn(Frame(None, {"it": Card(0, cards["sha"], suit, rank)})))

    assert hoped("le", "♥", 5) and not hoped("le", "♠", 5)
    assert hoped("bingliang", "♣", 5) and not hoped("bingliang", "♦", 5)
    assert hoped("shandian", "♠", 10) and hoped("shandian", "♥", 5) and not hoped("shandian", "♠", 5)
    assert cards["mi"].judge_hope is None  # (its hope reads `wanted`, known only as its effect runs)
    assert cards["sha"].judge_hope is None and cards["bagua"].judge_hope is None  # (八卦阵 judges its owner)


def _stack(agent: HeuristicAgent, offers: list[tuple[tuple[bool, ...], Ahead]]) -> list[int | None]:
    """The agent's picks for 观星's successive questions, each offering what the one before left."""
    labels = ("杀♠7", "桃♥3", "闪♦2", "铁索连环♣Q", "闪电♠A")
    tags = {"杀♠7": ("next", "attack", "basic"), "桃♥3": ("next", "heal", "basic"),
            "闪♦2": ("next", "defence", "basic"), "铁索连环♣Q": ("next", "control", "trick"),
            "闪电♠A": ("next", "risk", "delayed")}
    left, picked = list(labels), []
    for hoped, ahead in offers:  # (HOPED per label of all five; ahead's own is filled from it)
        r = Request(0, "choose", "观星: the next card from the top", tuple(left), 0, 1,
                    option_tags=tuple(tags[x] for x in left),
                    ahead=ahead._replace(hoped=tuple(h for x, h in zip(labels, hoped, strict=True) if x in left))
                    if hoped else ahead)
        answer = agent.decide(r, view(0))
        if not answer:
            picked.append(None)
            break
        picked.append(labels.index(left.pop(answer[0])))
    return picked


def test_the_top_holds_a_card_each_waiting_judgement_hopes_for_then_the_best_to_draw() -> None:
    agent = HeuristicAgent(1)
    # nothing waits: the two best cards for its two draws, then the rest to the bottom
    assert _stack(agent, [((), Ahead(0, (), 2))] * 5) == [1, 2, None]
    # 乐不思蜀 waits (♥ hoped for): the ♥ card first (the least worth of those hoped for), then the draws
    hearts = (False, True, False, False, False)
    assert _stack(agent, [(hearts, Ahead(1, (), 2))] * 5) == [1, 2, 0, None]
    # every card would do: the least worth is the one the judgement takes
    assert _stack(agent, [((True,) * 5, Ahead(1, (), 2))] * 5) == [4, 1, 2, None]
    # nothing would do: the least worth is lost to it, the best kept for the draws
    assert _stack(agent, [((False,) * 5, Ahead(1, (), 2))] * 5) == [4, 1, 2, None]
    # three draws (英姿): one more on top
    assert _stack(agent, [((), Ahead(0, (), 3))] * 5) == [1, 2, 0, None]
    # a fresh question (other cards) starts a new stack
    assert _stack(agent, [((), Ahead(0, (), 1))]) == [1]
    assert _stack(agent, [((), Ahead(0, (), 1))]) == [1]


def test_no_nullifying_of_a_judgement_whose_card_it_set_on_top() -> None:
    """Its own 无懈可击 on the 乐不思蜀 it has just put a ♥ on top for would be wasted: it keeps it, for that
    judgement only."""
    nullify = Request(0, "nullify", "nullify 乐不思蜀 on P0", ("use 无懈可击♠J", "pass"), about=("control", "delayed"),
                      subject=0)
    play = Request(0, "play", "choose a card or skill to use", ("use 杀♠7", "end play phase"),
                   option_tags=(("attack", "basic"), ()))
    hearts = (False, True, False, False, False)
    for set_up, answer in ((hearts, 1), ((False,) * 5, 0)):
        agent = HeuristicAgent(1)
        _stack(agent, [(set_up, Ahead(1, (), 2))] * 5)
        assert agent.decide(nullify, view(0)) == [answer]
        assert agent.decide(nullify, view(0)) == [answer]  # (a chain of nullifyings: the same judgement)
        agent.decide(play, view(0))
        assert agent.decide(nullify, view(0)) == [0]  # a later judgement: as before


def _games(program, seeds: range) -> tuple[list[tuple[int, Ahead]], list[bool]]:
    """Whole games with 诸葛亮 pinned to seat 0: what each of his 观星 questions said comes next; and for each
    first card he put on top while a judgement he could satisfy waited, whether that card was the one judged (when
    the judgement was not nullified)."""
    seen: list[tuple[int, Ahead]] = []
    firsts: list[tuple[str, int]] = []  # (the card, where the log was)

    class Watching(HeuristicAgent):
        def decide(self, request: Request, v) -> list[int]:
            answer = super().decide(request, v)
            if request.seat == 0 and request.ahead is not None:
                seen.append((len(request.options), request.ahead))
                # (the rule's hint before each card's own words)
                assert all(t[0] == "next" and len(t) > 1 for t in request.option_tags)
                if self._stacking[1] == 0 and answer and request.ahead.waiting and any(request.ahead.hoped):
                    assert request.ahead.hoped[answer[0]]  # (a card the judgement hopes for, when one is offered)
                    firsts.append((request.options[answer[0]], len(game.log)))
            return answer

    judged: list[bool] = []
    for seed in seeds:
        firsts.clear()
        game = Game(program, "identity", 5, seed, [Watching(seed * 10 + i) for i in range(5)], None, round_cap=12,
                    pinned={0: "zhugeliang"})
        game.run()
        for card, at in firsts:  # (what came of the waiting card: its judgement, or its nullifying by 无懈可击)
            came = next(e for e in game.log[at:] if e.get("e") == "judge" and e["player"].startswith("P0")
                        or e.get("e") == "nullified" and e["target"].startswith("P0"))
            if came["e"] == "judge":
                judged.append(came["card"] == card)
    return seen, judged


def test_games_tell_what_comes_next_alike_on_both_back_ends() -> None:
    checked = check_paths(RULES)
    compiled = _games(compiled_program(checked), range(1, 41))
    assert compiled == _games(interpreted_program(checked), range(1, 41))
    seen, judged = compiled
    assert all(a.draws >= 2 and len(a.hoped) in (0, n) for n, a in seen)
    assert any(a.waiting for _, a in seen) and any(any(a.hoped) for _, a in seen)
    assert judged and all(judged)


def test_a_person_at_the_terminal_is_told_what_waits() -> None:
    from sgsdsl.terminal import request_context

    r = Request(0, "choose", "观星: the next card from the top", ("杀♠7", "桃♥3"), 0, 1,
                ahead=Ahead(1, (False, True), 2))
    assert request_context(r, view(0)) == \
        "1 judgement(s) wait in your judge area: 1 of the 2 cards offered would be a result the first hopes for"
    assert request_context(r._replace(ahead=Ahead(0, (), 2)), view(0)) == ""



# A designer's 改命 (benchmarks/designs/ninth_batch.sgs): "at the start of another's judge phase, if its judge area
# holds a card, you may put a hand card on top of the draw pile". Read `next`, it is used only where one of its
# cards turns the first judgement the way its owner wants; before, it was used at every chance, a card at random.
LE = Ahead(1, (), 2, seat=0, own=(1, 3), chance=0.25)  # the lord's 乐不思蜀: ♥ hoped, a quarter of the cards
SHANDIAN = Ahead(1, (), 2, seat=0, own=(3, 1), chance=0.92)  # the lord's 闪电: anything but ♠2-9 hoped


def _confirm(ahead: Ahead | None) -> Request:
    return Request(3, "confirm", "use 改命?", ("yes", "no"), about=("next", "skill"), subject=0, ahead=ahead)


@pytest.mark.parametrize(("me", "ahead", "answer"), [
    (1, LE, 0),  # a loyalist holding a ♥ saves the lord's play phase: three in four it would be lost
    (1, LE._replace(own=(0, 4)), 1),  # with no ♥ it cannot
    (1, SHANDIAN, 1),  # the lord's 闪电 strikes one time in twelve: no card spent on it without a surplus
    (3, SHANDIAN, 0),  # a rebel holding a ♠2-9 makes the lord's 闪电 strike
    (3, SHANDIAN._replace(own=(4, 0)), 1),  # holding none, it cannot
    (3, LE, 1),  # the lord's 乐不思蜀 takes effect three times in four unaided: not worth a card it would keep
    (1, LE._replace(seat=4), 1),  # a seat it knows nothing of: no card spent on a guess
    (1, None, 1),  # told nothing of what comes next: no
])
def test_a_card_of_its_own_goes_on_top_only_where_it_turns_the_next_judgement(me: int, ahead: Ahead | None,
                                                                            answer: int) -> None:
    agent = HeuristicAgent(1)
    v = view(me, hp={me: 4})
    v["players"][me]["hand"] = 3  # (no surplus over its HP)
    assert agent.decide(_confirm(ahead), v) == [answer]


def test_a_foes_next_judgement_gets_a_card_it_does_not_hope_for() -> None:
    """Which of its cards goes on top: for a friend the least worth among those the judgement hopes for, for a foe
    the least worth among those it does not."""
    labels = ("杀♠7", "桃♥3", "闪♦2")
    tags = (("next", "attack", "basic"), ("next", "heal", "basic"), ("next", "defence", "basic"))
    hoped = (False, True, False)  # (乐不思蜀: ♥)
    r = Request(1, "choose", "改命: the card put on top of the deck", labels, 1, 1, option_tags=tags,
                ahead=Ahead(1, hoped, 2, seat=0))
    assert HeuristicAgent(1).decide(r, view(1)) == [1]  # the lord, a loyalist's friend: the ♥
    assert HeuristicAgent(1).decide(r._replace(seat=3), view(3)) == [0]  # a rebel: the 杀, worth less than the 闪


def test_a_person_is_told_whose_judgements_wait() -> None:
    from sgsdsl.terminal import request_context

    v = view(3)
    v["players"][0]["general"] = "刘备"
    assert request_context(_confirm(SHANDIAN), v) == (
        "about P0 刘备; 1 judgement(s) wait in P0 刘备's judge area; the first hopes for 3 of your 4 hand cards and "
        "for 92% of all cards")


def _gaiming_questions(program) -> list[tuple[str, int, Ahead]]:
    """Whole games with 改命者 pinned to seat 0: each of its 改命 questions (a yes or no, then the card), with how many
    options it had and what it was told comes next."""
    asked: list[tuple[str, int, Ahead]] = []

    class Watching(HeuristicAgent):
        def decide(self, request: Request, v) -> list[int]:
            if request.seat == 0 and (request.prompt.startswith("改命:")
                                      or request.kind == "confirm" and "next" in request.about):
                assert request.ahead is not None
                asked.append((request.kind, len(request.options), request.ahead))
            return super().decide(request, v)

    for seed in range(1, 31):
        Game(program, "identity", 5, seed, [Watching(seed * 10 + i) for i in range(5)], None, round_cap=12,
             pinned={0: "gaimingzhe"}).run()
    return asked


def test_gaiming_is_asked_with_what_the_judged_one_hopes_for() -> None:
    """In whole games, 改命's question says whose judgement waits (the one whose turn it is), and its card choice
    which of the owner's cards that judgement hopes for; both back ends alike."""
    checked = check_paths([str(ROOT / "benchmarks" / "designs" / "ninth_batch.sgs")])
    compiled = _gaiming_questions(compiled_program(checked))
    assert compiled == _gaiming_questions(interpreted_program(checked))
    confirms = [a for kind, _, a in compiled if kind == "confirm"]
    chosen = [(n, a) for kind, n, a in compiled if kind == "choose"]
    assert confirms and all(a.seat != 0 and a.waiting and 0 <= a.chance <= 1 for a in confirms)
    assert chosen and all(a.seat != 0 and len(a.hoped) == n for n, a in chosen)
    assert len(chosen) < len(confirms)  # (not every chance is taken)
