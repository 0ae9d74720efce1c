"""Face-down declarations (`view_as basic …`, 蛊惑): what agents are told of them, and how the heuristic plays them.

Before 2026-12-05 于吉 declared about thirteen cards a game with heuristic agents and almost never a true one (2 in
100 questioned): each of his fifteen conversions rolled the "sparingly" of a risky card for itself, so one of them
passed in nearly every menu, and the card under it was drawn at random. Half were questioned and voided, each a
card lost and one drawn by the questioner. The engine now marks a conversion that is a declaration (`declared`)
and one it can make true (`genuine`), and the card that is the card declared when the cards are chosen; a recast
through a risky skill and an answer made by one carry its `risk` too."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import BLUFF_RATE, PAY_HAND, HeuristicAgent
from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine.agents import DECLARED, GENUINE, SPENT_FOR, Agent, Request
from sgsdsl.engine.game import Game
from sgsdsl.engine.using import answer_hints
from tests.test_role_play import view
from tests.test_two_sided_skills import Sure

ROOT = Path(__file__).resolve().parent.parent
FENG = ROOT / "rules" / "feng.sgs"


def yuji_game(back_end: str, agents: list[Agent] | None = None) -> Game:
    """A 5-seat game with 于吉 at seat 0 holding one 杀 and nothing else, his turn."""
    loaded = check_paths([str(ROOT / "rules" / "junzheng.sgs"), str(FENG)])  # (军争: 铁索连环, to recast)
    assert loaded.ok
    program = interpreted_program(loaded) if back_end == "interpreted" else compiled_program(loaded)
    g = Game(program, "identity", 5, 3, agents or [HeuristicAgent(i) for i in range(5)], None, pinned={0: "yuji"})
    yuji = g.players[0]
    g.set_general(yuji, program.generals["yuji"])
    g.zones.move(list(yuji.hand), "discard", None)
    g.zones.move([next(c for c in g.cards if c.zone == "draw" and c.name == "杀")], "hand", yuji)
    g.current = yuji
    return g


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_the_menu_says_which_declarations_can_be_made_true(back_end: str) -> None:
    g = yuji_game(back_end)
    hints = {label: g.turnflow.option_hints(o) for label, o in g.use.play_options(g.players[0])}
    assert GENUINE in hints["蛊惑: use as 杀"] and DECLARED in hints["蛊惑: use as 杀"]
    assert DECLARED in hints["蛊惑: use as 无中生有"] and GENUINE not in hints["蛊惑: use as 无中生有"]
    assert {"conversion", "risk"} <= set(hints["蛊惑: recast as 铁索连环"])  # (a recast through 蛊惑 is questioned too)
    assert all(GENUINE not in h and DECLARED not in h for label, h in hints.items() if not label.startswith("蛊惑"))


class Keeping(Agent):
    def __init__(self, kept: list[Request]) -> None:
        self.kept = kept

    def decide(self, request: Request, v) -> list[int]:
        self.kept.append(request)
        return [request.low and 0 or 0]


@pytest.mark.parametrize("back_end", ["interpreted", "compiled"])
def test_the_card_that_is_the_card_declared_is_marked_when_the_cards_are_chosen(back_end: str) -> None:
    kept: list[Request] = []
    g = yuji_game(back_end, [Keeping(kept) for _ in range(5)])
    yuji = g.players[0]
    g.zones.move([next(c for c in g.cards if c.zone == "draw" and c.name == "闪")], "hand", yuji)
    skill = next(s for s in yuji.skills if s.ident == "guhuo")
    for name, genuine in (("杀", ["杀"]), ("无中生有", [])):
        va = next(va for va in skill.view_as if g.program.cards[va.card].name == name)
        kept.clear()
        g.use.build_viewas(yuji, skill, va, False)
        (asked,) = kept
        marked = [label.split("♠")[0].split("♥")[0].split("♣")[0].split("♦")[0]
                  for label, tags in zip(asked.options, asked.option_tags, strict=True) if GENUINE in tags]
        assert marked == genuine and len(asked.options) == 2


def test_an_answer_made_by_a_risky_declaration_says_so() -> None:
    program = compiled_program(check_paths([str(FENG)]))
    skill = next(s for s in program.generals["yuji"].skills if s.ident == "guhuo")
    va = skill.view_as[0]
    assert answer_hints([("use 无懈可击", ("card", None, None)), ("蛊惑", ("viewas", skill, va, None))]) == \
        ((), ("conversion", "risk", DECLARED), ())
    assert answer_hints([("use 无懈可击", ("card", None, None))]) == ()  # (as any request: no tags)


# ------------------------------------------------------------------ the heuristic agent
def play_menu(extra: tuple[tuple[str, tuple[str, ...]], ...]) -> Request:
    options = (*extra, ("end play phase", ("end",)))
    return Request(0, "play", "choose a card or skill to use", tuple(o for o, _ in options),
                   option_tags=tuple(t for _, t in options), option_reach=(None,) * len(options))


BLUFFS = tuple((f"蛊惑: use as card {i}", ("draw", "trick", "conversion", "risk", DECLARED)) for i in range(15))


def test_a_bluff_is_rare_however_many_are_offered() -> None:
    """Fifteen declarations it cannot make true: one menu in BLUFF_RATE takes one (a roll each took one nearly
    always); a declaration it can make true is taken as the card it is."""
    seeds = range(1, 401)
    bluffed = sum(HeuristicAgent(seed).decide(play_menu(BLUFFS), view(0))[0] != len(BLUFFS) for seed in seeds)
    assert 0 < bluffed < 2 * BLUFF_RATE * len(seeds)
    true = (("蛊惑: use as card 15", ("draw", "trick", "conversion", "risk", DECLARED, GENUINE)),)
    assert {HeuristicAgent(seed).decide(play_menu(BLUFFS + true), view(0))[0] for seed in range(1, 41)} == {15}


def test_the_card_declared_is_made_of_the_card_it_is() -> None:
    r = Request(0, "choose", "cards for 蛊惑", ("闪♦7", "杀♣3", "桃♥5"),
                option_tags=(("defence", "basic"), ("attack", "basic", GENUINE), ("heal", "basic")))
    assert {HeuristicAgent(seed).decide(r, view(0))[0] for seed in range(1, 41)} == {1}


def nullify(tags: tuple[tuple[str, ...], ...], labels: tuple[str, ...]) -> Request:
    return Request(1, "nullify", "nullify 决斗 on P0", labels, about=("attack", "trick"), subject=0,
                   option_tags=tags)


def test_a_friend_is_shielded_with_a_real_card_before_a_bluff() -> None:
    """Loyalist 1 nullifies a 决斗 on the lord: with its real 无懈可击 whenever it holds one; with only a bluff,
    rarely, and never at 1 HP."""
    both = nullify(((), ("conversion", "risk", DECLARED), ()), ("use 无懈可击", "蛊惑: use as 无懈可击", "pass"))
    assert {HeuristicAgent(seed).decide(both, view(1))[0] for seed in range(1, 41)} == {0}
    bluff = nullify((("conversion", "risk", DECLARED), ()), ("蛊惑: use as 无懈可击", "pass"))
    assert {HeuristicAgent(seed).decide(bluff, view(1))[0] for seed in range(1, 81)} == {0, 1}
    assert {HeuristicAgent(seed).decide(bluff, view(1, hp={1: 1}))[0] for seed in range(1, 41)} == {1}


def test_yuji_declares_true_cards_when_he_can() -> None:
    """Whole games: every choice of the card under a declaration that could be true makes it true."""
    chosen: list[bool] = []

    class Watching(HeuristicAgent):
        def decide(self, request: Request, v) -> list[int]:
            answer = super().decide(request, v)
            if request.prompt == "cards for 蛊惑" and any(GENUINE in t for t in request.option_tags):
                chosen.append(GENUINE in request.option_tags[answer[0]])
            return answer

    program = compiled_program(check_paths([str(ROOT / "rules" / f) for f in ("standard.sgs", "feng.sgs")]))
    for seed in range(1, 9):
        agents: list[Agent] = [Watching(seed * 10 + i) for i in range(5)]
        Game(program, "identity", 5, seed, agents, None, round_cap=30, pinned={1: "yuji"}).run()
    assert chosen and all(chosen)


# ------------------------------------------------------------------ cards spent, cards paid
def test_a_conversion_is_made_of_a_card_it_need_not_keep() -> None:
    """火计 makes a 火攻 of a red hand card: a 杀 before a 桃 or a 闪 (卧龙 burnt his peaches: 火计 was worth −10.2
    points to him at 5 players, −7.9 spending cards it need not keep first)."""
    r = Request(0, "choose", SPENT_FOR + "火计", ("桃♥5", "杀♦3", "闪♦7"),
                option_tags=(("heal", "basic"), ("attack", "basic"), ("defence", "basic")))
    assert {HeuristicAgent(seed).decide(r, view(0))[0] for seed in range(1, 41)} == {1}


def test_a_discard_that_pays_for_a_blow_is_paid_with_a_card_it_need_not_keep() -> None:
    """火攻's last choice, tagged `attack`: a card of the shown suit is discarded to deal the damage, one it need not
    keep first, else a 闪; with only a 桃 (or equipment) of that suit, it keeps it. Untagged, an optional discard is
    declined."""
    def paying(*options: tuple[str, tuple[str, ...]], about: tuple[str, ...] = ("attack",)) -> Request:
        return Request(0, "choose", "火攻: discard a card of the same suit to deal 1 fire damage",
                       tuple(o for o, _ in options), 0, 1, about=about, option_tags=tuple(t for _, t in options))

    both = paying(("闪♥2", ("defence", "basic")), ("杀♥9", ("attack", "basic")))
    assert {tuple(HeuristicAgent(seed).decide(both, view(0))) for seed in range(1, 21)} == {(1,)}
    dodge = paying(("桃♥Q", ("heal", "basic")), ("闪♥2", ("defence", "basic")))
    assert {tuple(HeuristicAgent(seed).decide(dodge, view(0))) for seed in range(1, 21)} == {(1,)}
    keep = paying(("桃♥Q", ("heal", "basic")), ("诸葛连弩♥A", ("weapon",)))
    assert {tuple(HeuristicAgent(seed).decide(keep, view(0))) for seed in range(1, 21)} == {()}
    plain = paying(("杀♥9", ("attack", "basic")), about=())
    assert {tuple(HeuristicAgent(seed).decide(plain, view(0))) for seed in range(1, 21)} == {()}


def test_huogongs_payment_is_tagged_attack() -> None:
    """In whole games, each 火攻 user asked to pay is told the choice is an attack (`tags: "attack"`)."""
    seen: list[tuple[str, ...]] = []

    class Watching(HeuristicAgent):
        def decide(self, request: Request, v) -> list[int]:
            if request.prompt.startswith("火攻: discard"):
                seen.append(request.about)
            return super().decide(request, v)

    program = compiled_program(check_paths([str(ROOT / "rules" / f) for f in ("junzheng.sgs", "huo.sgs")]))
    for seed in range(1, 13):
        Game(program, "identity", 5, seed, [Watching(seed * 10 + i) for i in range(5)], None, round_cap=20,
             pinned={0: "wolong"}).run()
    assert seen and set(seen) == {("attack",)}


def test_a_blow_that_costs_more_cards_waits_for_cards_to_spare() -> None:
    """A harmful card tagged `risk` (火攻: its blow is paid with a second card, of the suit its target shows) is
    played at a sure foe only while healthy with PAY_HAND cards in hand or more; a plain 杀 is played whatever the
    hand. 卧龙 played six 火攻 a game like 杀 and paid for one blow in twenty: 火计 was worth -7.9 points to him."""
    foe = {3: -0.9}
    huogong = (("use 火攻", ("attack", "trick", "risk")),)

    def menu(tags: tuple[tuple[str, tuple[str, ...]], ...]) -> Request:
        options = (*tags, ("end play phase", ("end",)))
        return Request(0, "play", "choose a card or skill to use", tuple(o for o, _ in options),
                       option_tags=tuple(t for _, t in options), option_reach=((3,), None))

    def picks(request: Request, hand: int, hp: int = 4) -> set[int]:
        v = view(1, hp={1: hp})
        v["players"][1]["hand"] = hand
        out = set()
        for seed in range(1, 21):
            out.add(Sure(seed, foe).decide(request._replace(seat=1), v)[0])
        return out

    assert picks(menu(huogong), PAY_HAND) == {0}
    assert picks(menu(huogong), PAY_HAND - 1) == {1}
    assert picks(menu(huogong), PAY_HAND + 2, hp=1) == {1}
    assert picks(menu((("use 杀", ("attack", "basic")),)), 1) == {0}
