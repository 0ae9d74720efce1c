"""The designers' batches kept in benchmarks/designs: untagged skills of shapes the agents once misplayed.

Each batch is swept by `scripts/skill_sweep.py` (docs/balance.md, "A fifth batch"); here, cheaply, every file checks
without errors and each skill is read with the words its misplay was mended by, so that a change to the reading
that loses one shows up in the default suite, not in the next sweep."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths, program_for
from sgsdsl.engine.agents import Request
from sgsdsl.engine.game import Game
from sgsdsl.lang import ast
from sgsdsl.lang.ast_walk import calls, kwarg
from sgsdsl.lang.intent import Lexicon, grant_words, infer_skill_words

DESIGNS = Path(__file__).resolve().parent.parent / "benchmarks" / "designs"

READ = {
    "fourth_batch_left.sgs": {
        "pozhan": ("attack", "spends"),  # a price in cards by the HP of the one struck (`costs:`)
        "haozhao": ("heal", "help"),  # a kingdom whose characters it heals (`befalls:`)
        "tongpao": ("help",),  # a chain beside a draw: the draw decides
    },
    "fifth_batch.sgs": {
        "hudun": ("help",),  # a mark its trigger reads: damage taken lowered
        "xurui": ("boost", "spends"),  # a mark on itself: its next blow raised
        "yexi": ("control", "spends"),  # a harm paid for with its own card
        "shiyi": ("help",),  # a discard's `by` is the one it befalls
        "ducha": ("control",),  # another's card bound to a name: no price of its own
        "yijia": (),  # another's equipment taken, its own given: both (SGS-W407)
        "suodi": ("control",),  # a mark set `to` a distance below the usual: reached more easily, a foe's
        "guwu": ("help",),  # a mark raising a card's use limit written as the program's own value
        "fanzhi": ("control",),  # a trick aimed at itself answered: its user, the other party, discards
        "fanji": ("control",),  # a 闪 answered: the attacker, the other party, loses a card
    },
    "sixth_batch.sgs": {
        "duanliang": ("control",),  # another's draw lowered: AMOUNT_EFFECTS on the one the event befalls
        "yuanxi": ("attack",),  # a 杀 at a third answered on its user: the one character the body acts on
        "xiaofang": ("attack", "spends"),  # a 杀 copied onto its target: the first of `event.targets`
        "yie": ("control", "help"),  # a card taken out of one judge area (a harm lifted) into another's
        "puji": ("area", "heal"),  # a loop over the wounded of the table: weighed as a card reaching everyone
    },
    "seventh_batch.sgs": {
        "tongchou": ("attack", "spends"),  # a blow at the source of another's damage, the one the body acts on
        "jinzu": ("control", "spends"),  # another's whole next turn skipped (`skip_turn`), paid with two cards
        "huoshui": ("attack",),  # a compulsory blow whose target its owner chooses
        "zengjia": ("help",),  # equipment put into another's area (`put_in_equip`); its own draw only repays it
        "feiwu": ("control",),  # limited: another loses a skill (`lose_skill`)
        "zhaotao": ("attack",),  # the one every other may use a 杀 on (the 杀's family)
        "qifu": ("help",),  # a mark its own trigger reads: the marked one draws 2 at its prepare phase
        "xuming": ("help",),  # a dying one recovered: a rescue, whatever maximum HP it loses besides
        "pozhou": ("cancels", "spends"),  # a trick of any kind stopped on another: weighed by the trick when asked
    },
    "eighth_batch.sgs": {
        "fenyou": ("help", "risk"),  # another's damage taken in its place (`transfer_damage`), paid in its own HP
        # a mark on a 杀's use that the 杀's effect reads as a way to go ahead (`furthers`: where it could be answered)
        "zhugong": ("attack", "furthers", "spends"),
        "boming": ("attack", "risk"),  # a blow at the one chosen, paid in its owner's HP
        "jiaoli": ("attack", "risk"),  # a 拼点 whose loser takes damage: the owner may be the one
    },
    "ninth_batch.sgs": {
        "gaiming": ("next",),  # a card of its own put on top before another's judgements
    },
    "tenth_batch.sgs": {
        "quanqi": ("heal", "help"),  # a card the one chosen pays itself beside the heal it gets
        "xuezhan": ("risk",),  # its raised 杀 limit unread: a price alone, not paid (`_skill_score`)
        "jueliang": ("control", "spends"),  # a mark whose trigger cancels the marked one's draw phase: a hampering
    },
    "eleventh_batch.sgs": {},  # (将驰's written options read `draw` and `spends`: test_choice_intent.py)
    "twelfth_batch.sgs": {
        "kuanrong": ("help",),  # a mark whose trigger cancels the marked one's discard phase: its cards kept
    },
}


@pytest.mark.parametrize("name", sorted(READ))
def test_each_batch_checks_and_each_skill_is_read_as_mended(name: str) -> None:
    loaded = check_paths([str(DESIGNS / name)])
    assert loaded.ok and loaded.checked is not None, [str(d) for d in loaded.diagnostics]
    skills = {s.ident.text: s for m in loaded.checked.modules for g in m.generals for s in g.skills}
    read = {ident: infer_skill_words(skills[ident], loaded.checked.symbols.values) for ident in READ[name]}
    assert read == READ[name]


def test_a_choice_of_cards_put_back_on_top_is_hinted_next() -> None:
    """窥天 (a 观星 written without `hints:`): its choice among the deck's top cards, the pick put back on top, gets
    the hint `next` per option, so that the agent orders them for its own draws and judgements."""
    loaded = check_paths([str(DESIGNS / "sixth_batch.sgs")])
    assert loaded.checked is not None
    skill = next(s for m in loaded.checked.modules for g in m.generals for s in g.skills if s.ident.text == "kuitian")
    chosen = [c for c in calls(skill.triggers[0].body) if c.func.text == "choose"]
    assert len(chosen) == 1
    hints = kwarg(chosen[0], "hints")
    assert isinstance(hints, ast.ListComp) and isinstance(hints.elem, ast.Lit) and hints.elem.value == "next"


def test_a_granted_action_is_read_from_its_users_side() -> None:
    """纳贤 ("another may give you a hand card, then draw 1"): a draw for the one using it, a help to the host."""
    loaded = check_paths([str(DESIGNS / "sixth_batch.sgs")])
    assert loaded.checked is not None
    sym = loaded.checked.symbols
    skill = next(s for m in loaded.checked.modules for g in m.generals for s in g.skills if s.ident.text == "naxian")
    assert grant_words(skill, Lexicon.of(sym.cards.values(), sym.procedures.values())) == ("draw", "help")


def test_every_batch_is_listed() -> None:
    assert sorted(p.name for p in DESIGNS.glob("*.sgs")) == sorted(READ)


def test_a_heal_for_another_its_event_befell_is_done_for_a_friend_only() -> None:
    """A trigger tagged `heal help` that names nobody, asked about another (a designer's 续命 with its tags written:
    "another who is dying recovers to 1 HP"): yes for a sure friend, no for a sure foe. The `heal` once let it skip
    the check that the one helped is a friend: it rescued 313 dying foes in 120 games."""
    agent = HeuristicAgent(1)
    view = {"seat": 1, "role": "loyalist", "players": [
        {"seat": i, "role": "lord" if i == 0 else "hidden", "hp": 1 if i else 3, "max_hp": 4, "hand": 3}
        for i in range(5)], "sides": [["lord", "loyalist"], ["rebel"], ["renegade"]],
        "roles_in_play": sorted(["lord", "loyalist", "rebel", "rebel", "renegade"]), "role_shown": False,
        "damage_history": [(3, 0, 2), (4, 0, 1)], "recover_history": [], "act_history": [], "shown_history": []}
    ask = Request(1, "confirm", "续命?", ("yes", "no"), about=("heal", "help", "skill"))
    assert agent.on_confirm(ask._replace(subject=0), view) == [0]  # the lord
    assert agent.on_confirm(ask._replace(subject=3), view) == [1]  # the one who hurt the lord


def test_a_card_cancelled_on_another_is_weighed_by_the_card() -> None:
    """破咒 (`cancels`): the question shows the trick's words after the skill's; a harm is stopped for a sure friend,
    a good for a sure foe, and nothing else."""
    agent = HeuristicAgent(1)
    view = {"seat": 1, "role": "loyalist", "current": 3, "players": [
        {"seat": i, "role": "lord" if i == 0 else "hidden", "hp": 3, "max_hp": 4, "hand": 3} for i in range(5)],
        "sides": [["lord", "loyalist"], ["rebel"], ["renegade"]],
        "roles_in_play": sorted(["lord", "loyalist", "rebel", "rebel", "renegade"]), "role_shown": False,
        "damage_history": [(3, 0, 2), (4, 0, 1)], "recover_history": [], "act_history": [], "shown_history": []}
    harm = Request(1, "confirm", "use 破咒?", ("yes", "no"), about=("cancels", "spends", "skill", "attack", "trick"))
    good = harm._replace(about=("cancels", "spends", "skill", "area", "draw", "trick"))
    assert agent.on_confirm(harm._replace(subject=0), view) == [0]  # a 决斗 on the lord: stopped
    assert agent.on_confirm(harm._replace(subject=3), view) == [1]  # on the one who hurt the lord: let be
    assert agent.on_confirm(good._replace(subject=3), view) == [0]  # a 五谷丰登's card for a foe: stopped
    assert agent.on_confirm(good._replace(subject=0), view) == [1]
    assert agent.on_confirm(harm._replace(subject=0, about=("cancels", "spends", "skill")), view) == [1]


@pytest.mark.parametrize("engine", ["compiled", "interpreted"])
def test_the_question_to_cancel_a_card_shows_the_card(engine: str) -> None:
    """In play, every question 破咒 asks carries its skill's words and then the trick's (its tags and category), and
    its prompt names the trick for a person."""
    loaded = check_paths([str(DESIGNS / "seventh_batch.sgs")])
    assert loaded.checked is not None
    program = program_for(loaded, engine)
    asked: list[tuple[str, ...]] = []
    prompts: list[str] = []

    class Watching(HeuristicAgent):
        def decide(self, request: Request, view: object) -> list[int]:
            if request.kind == "confirm" and request.prompt.startswith("use 破咒"):
                asked.append(request.about)
                prompts.append(request.prompt)
            return super().decide(request, view)

    for seed in range(1, 7):
        Game(program, "identity", 5, seed, [Watching(seed * 10 + i) for i in range(5)],
             pinned={seed % 5: "pozhouzhe"}, record=False).run()
    assert len(asked) >= 5
    for about in asked:
        assert about[:3] == ("cancels", "spends", "skill") and about[-1] in ("trick", "delayed"), about
    assert all(re.fullmatch(r"use 破咒 against \S+[♠♥♣♦](10|[2-9AJQK])#\d+\?", p) for p in prompts), prompts


def test_a_choice_of_what_befalls_one_chosen_before_befalls_that_one() -> None:
    """扶抑 (ninth batch: "choose another, then: it draws 2, or it discards 2"): its choice among the two texts gets
    per option the one chosen before (`befalls: [[p], [p]]`) besides each option's words, and the agent takes the
    draw for a sure friend and the discard for a sure foe. Before, the draw went to foes 246 times in 399 uses."""
    loaded = check_paths([str(DESIGNS / "ninth_batch.sgs")])
    assert loaded.checked is not None
    skill = next(s for m in loaded.checked.modules for g in m.generals for s in g.skills if s.ident.text == "fuyi")
    texts = [c for c in calls(skill.actives[0].body) if c.func.text == "choose" and kwarg(c, "hints") is not None]
    assert len(texts) == 1
    befalls = kwarg(texts[0], "befalls")
    assert isinstance(befalls, ast.ListLit) and len(befalls.items) == 2
    assert all(isinstance(g, ast.ListLit) and [n.ident for n in g.items] == ["p"] for g in befalls.items)
    agent = HeuristicAgent(1)
    view = {"seat": 1, "role": "loyalist", "current": 1, "round": 5, "role_shown": False, "players": [
        {"seat": i, "role": "lord" if i == 0 else "hidden", "hp": 3, "max_hp": 4, "hand": 3} for i in range(5)],
        "sides": [["lord", "loyalist"], ["rebel"], ["renegade"]],
        "roles_in_play": sorted(["lord", "loyalist", "rebel", "rebel", "renegade"]),
        "damage_history": [(3, 0, 2), (4, 0, 1)], "recover_history": [], "act_history": [], "shown_history": []}
    ask = Request(1, "choose", "扶抑: which", ("it draws two cards", "it discards two cards"), 1, 1,
                  option_tags=(("help",), ("control",)))
    assert agent.decide(ask._replace(option_groups=((0,), (0,))), view) == [0]  # the lord: it draws
    assert agent.decide(ask._replace(option_groups=((3,), (3,))), view) == [1]  # the one who hurt the lord: discards


@pytest.mark.parametrize("engine", ["compiled", "interpreted"])
def test_the_option_choice_of_a_character_chosen_before_is_told_whom_it_befalls(engine: str) -> None:
    """In play, 扶抑's question names the one chosen before as the one every option befalls."""
    loaded = check_paths([str(DESIGNS / "ninth_batch.sgs")])
    program = program_for(loaded, engine)
    asked: list[tuple[tuple[int, ...], ...]] = []

    class Watching(HeuristicAgent):
        def decide(self, request: Request, view: object) -> list[int]:
            if request.prompt == "扶抑: which":
                asked.append(request.option_groups)
            return super().decide(request, view)

    for seed in range(1, 5):
        Game(program, "identity", 5, seed, [Watching(seed * 10 + i) for i in range(5)],
             pinned={seed % 5: "fuyizhe"}, record=False).run()
    assert len(asked) >= 4
    assert all(len(g) == 2 and g[0] == g[1] and len(g[0]) == 1 for g in asked), asked



def test_a_skill_read_as_nothing_but_its_price_is_not_paid() -> None:
    """血战 (tenth batch: "lose 1 HP: one more 杀 this turn") reads `risk` alone: its raised limit is not read. From
    the play menu it is then never used, where a skill read as nothing at all still is, now and then: 322 of its 388
    uses on the chance roll had no 杀 to use after it."""
    from tests.test_role_play import menu, view

    priced = menu(None, (("use 血战", ("risk", "skill")),))
    wordless = menu(None, (("use 某技", ("skill",)),))
    assert {HeuristicAgent(seed).decide(priced, view(1))[0] for seed in range(1, 41)} == {1}
    assert {HeuristicAgent(seed).decide(wordless, view(1))[0] for seed in range(1, 41)} == {0, 1}


def test_a_card_made_unanswerable_is_paid_for_only_where_it_could_be_answered() -> None:
    """助攻 (eighth batch: "discard a card: another's 杀 at a third cannot be dodged") reads `furthers`: a loyalist
    pays for it on a 杀 at the rebel who struck the lord while that one holds a card or wears armour, never when it
    holds nothing and wears nothing (43 of 414 uses were so)."""
    from tests.test_role_play import view

    r = Request(1, "confirm", "use 助攻?", ("yes", "no"), about=("attack", "furthers", "spends", "skill"), subject=3,
                own_hand=(("attack", "basic"), ("basic", "defence")))

    def answers(hand: int, worn: list[str]) -> set[int]:
        v = view(1, damage=[(3, 0, 1)], acts=[(3, 0, ("attack", "basic"))] * 2)
        v["current"], v["players"][1]["hand"] = 5, 2
        v["players"][3]["hand"], v["players"][3]["worn"] = hand, worn
        return {HeuristicAgent(seed).decide(r, v)[0] for seed in range(1, 21)}

    assert answers(2, []) == {0}
    assert answers(0, ["armor"]) == {0}
    assert answers(0, ["weapon"]) == {1}
