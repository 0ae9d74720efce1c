"""Focused tests of engine mechanics, driven through rules/standard.sgs (and small snippets).

Each test builds a game by hand (no mode set-up), places cards and generals, then runs one mechanism with
agents whose answers are fixed by a simple preference list.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.engine.agents import Agent, RandomAgent
from sgsdsl.engine.decisions import Decisions
from sgsdsl.engine.game import Game
from sgsdsl.engine.model import Card

ROOT = Path(__file__).resolve().parent.parent
STANDARD = ROOT / "rules" / "standard.sgs"


@pytest.fixture(scope="module")
def program():
    loaded = check_paths([str(STANDARD)])
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    return interpreted_program(loaded)


class Prefer(Agent):
    """Picks the first option whose label contains one of `prefer` (in that order of preference);
    otherwise declines: 'no' for confirmations, the fewest items for choices, the last option (pass/decline)."""

    name = "prefer"

    def __init__(self, *prefer: str):
        self.prefer = list(prefer)

    def decide(self, request, view):
        if request.low <= 1 <= request.high:
            for want in self.prefer:
                for i, label in enumerate(request.options):
                    if want in label:
                        return [i]
        if request.kind == "confirm":
            return [1]
        if request.kind == "choose":
            return list(range(request.low))
        return [len(request.options) - 1]


def make(program, generals, agents=None, lord=0):
    n = len(generals)
    agents = agents or [Prefer() for _ in range(n)]
    g = Game(program, "identity", n, 7, agents)
    for i, p in enumerate(g.players):
        p.role = "lord" if i == lord else "rebel"
    for p, ident in zip(g.players, generals, strict=True):
        g.set_general(p, program.generals[ident] if ident else None)
    g.current = g.players[0]
    return g


def card(g: Game, name: str, suit: str | None = None, rank: int | None = None) -> Card:
    for c in g.cards:
        if c.name == name and (suit is None or c.suit == suit) and (rank is None or c.rank == rank) \
                and c.zone in ("draw", "discard"):
            return c
    raise AssertionError(f"no free {name}{suit or ''}{rank or ''}")


def give(g: Game, p, name: str, suit: str | None = None, rank: int | None = None) -> Card:
    c = card(g, name, suit, rank)
    g.zones.move([c], "hand", p)
    return c


def on_top(g: Game, name: str, suit: str | None = None, rank: int | None = None) -> Card:
    c = card(g, name, suit, rank)
    g.zones.move([c], "draw", None, top=True)
    return c


def use(g: Game, p, c, targets):
    g.use.use_card(p, c, c.rule.uses[0], targets, "play")


# ---------------------------------------------------------------- distance, horses, targetability
def test_distance_table_with_horses_and_mashu(program):
    g = make(program, ["machao", None, None, None, None])
    a, b, c, d, e = g.players
    assert [g.dispatch.distance(b, x) for x in (c, d, e, a)] == [1, 2, 2, 1]
    assert [g.dispatch.distance(a, x) for x in (b, c, d, e)] == [1, 1, 1, 1]  # 马术 -1, never below 1
    g.use.equip(b, card(g, "绝影"))  # +1 horse: others' distance to b
    assert g.dispatch.distance(c, b) == 2 and g.dispatch.distance(d, b) == 3 and g.dispatch.distance(a, b) == 1
    g.use.equip(c, card(g, "赤兔"))
    assert g.dispatch.distance(c, b) == 1 and g.dispatch.distance(c, e) == 1


def test_kongcheng_and_qianxun_make_targets_illegal(program):
    g = make(program, [None, "zhugeliang", "luxun", None])
    a, zhuge, lu, _ = g.players
    sha = give(g, a, "杀")
    g.use.equip(a, card(g, "麒麟弓"))
    use_rule = sha.rule.uses[0]
    assert not g.use.legal_target(a, sha, use_rule, zhuge)  # no hand cards: 空城
    give(g, zhuge, "闪")
    assert g.use.legal_target(a, sha, use_rule, zhuge)
    le = give(g, a, "乐不思蜀")
    assert not g.use.legal_target(a, le, le.rule.uses[0], lu)  # 谦逊
    assert g.use.legal_target(a, le, le.rule.uses[0], zhuge)


def test_the_play_menu_shows_where_a_conversion_could_be_aimed(program):
    """An agent that reads the table is shown, per play-menu option, the seats its card could be aimed at now: for
    a conversion (武圣: a red card used as 杀) the seats the card it converts into reaches, as for a 杀 held (it
    used to be shown nothing, and the heuristic agent then used a converted 杀 whenever a foe sat anywhere, on
    whoever sat in range)."""
    g = make(program, ["guanyu", None, None, None, None])
    guanyu = g.players[0]
    give(g, guanyu, "桃", "♥")
    g.use.equip(g.players[1], card(g, "绝影"))  # +1 horse: seat 1 out of range now
    options = g.use.play_options(guanyu, reach=True)
    reach = {label: g.use.option_reach(guanyu, option) for label, option in options}
    assert reach["武圣: use as 杀"] == (4,)
    sha = give(g, guanyu, "杀", "♠")
    g.decisions += 1  # (a new decision: the menu is made afresh)
    options = g.use.play_options(guanyu, reach=True)
    reach = {label: g.use.option_reach(guanyu, option) for label, option in options}
    assert reach[f"use {sha.label()}"] == reach["武圣: use as 杀"] == (4,)


# ---------------------------------------------------------------- responses
def test_wushuang_needs_two_dodges(program):
    g = make(program, ["lvbu", None, None, None], agents=[Prefer(), Prefer("use 闪"), Prefer(), Prefer()])
    lvbu, t = g.players[0], g.players[1]
    sha = give(g, lvbu, "杀", "♠")
    give(g, t, "闪")
    use(g, lvbu, sha, [t])
    assert t.hp == t.max_hp - 1  # one 闪 was not enough
    give(g, t, "闪")
    give(g, t, "闪")
    use(g, lvbu, give(g, lvbu, "杀", "♠"), [t])
    assert t.hp == t.max_hp - 1 and not t.hand


def test_failed_provide_still_allows_a_real_dodge(program):
    """八卦阵 judges black: the player must still be offered the 闪 in hand (a provide is tried once)."""
    g = make(program, [None, None, None, None], agents=[Prefer(), Prefer("八卦阵", "use 闪"), Prefer(), Prefer()])
    a, t = g.players[0], g.players[1]
    g.use.equip(t, card(g, "八卦阵"))
    give(g, t, "闪")
    sha = give(g, a, "杀", "♠")
    on_top(g, "杀", "♣")  # the judgement: black
    use(g, a, sha, [t])
    assert t.hp == t.max_hp and not t.hand


def test_qinggang_ignores_armor_renwang_stops_black_sha(program):
    g = make(program, [None, None, None, None])
    a, t = g.players[0], g.players[1]
    g.use.equip(t, card(g, "仁王盾"))
    use(g, a, give(g, a, "杀", "♠"), [t])
    assert t.hp == t.max_hp
    use(g, a, give(g, a, "杀", "♥"), [t])
    assert t.hp == t.max_hp - 1
    g.use.equip(a, card(g, "青釭剑"))
    use(g, a, give(g, a, "杀", "♣"), [t])
    assert t.hp == t.max_hp - 2


def test_answered_timing_lets_qinglong_attack_again(program):
    g = make(program, [None, None, None, None], agents=[Prefer("use 杀"), Prefer("use 闪"), Prefer(), Prefer()])
    a, t = g.players[0], g.players[1]
    g.use.equip(a, card(g, "青龙偃月刀"))
    give(g, t, "闪")
    second = give(g, a, "杀", "♣")
    first = give(g, a, "杀", "♠")
    use(g, a, first, [t])
    assert second.zone == "discard" and t.hp == t.max_hp - 1


# ---------------------------------------------------------------- nullification
def test_nullify_chain(program):
    """A 无懈可击 on a 无懈可击: the trick takes effect after all."""
    g = make(program, [None, None, None, None],
             agents=[Prefer(), Prefer("无懈可击"), Prefer("无懈可击"), Prefer()])
    a, b, c, _ = g.players
    give(g, b, "无懈可击")
    give(g, c, "无懈可击")
    wz = give(g, a, "无中生有")
    use(g, a, wz, [a])
    assert len(a.hand) == 2  # b nullified, c nullified b's nullification
    assert not b.hand and not c.hand


def test_unnullifiable_duel_from_lijian(program):
    g = make(program, ["diaochan", "guanyu", "zhangfei", None],
             agents=[Prefer("离间"), Prefer("无懈可击"), Prefer("无懈可击"), Prefer("无懈可击")])
    dc, gy, zf, other = g.players
    for p in (gy, zf, other):
        give(g, p, "无懈可击")
    give(g, dc, "闪")
    g.current = dc
    skill = next(s for s in dc.skills if s.ident == "lijian")
    g.use.run_play_option(dc, ("active", skill, skill.actives[0], 0))
    assert gy.hp + zf.hp == 7  # one of the two took the duel's damage
    assert all(p.hand for p in (gy, zf, other))  # no 无懈可击 was asked for


# ---------------------------------------------------------------- delayed tricks and judgement
def test_lightning_passes_skipping_holders_and_nullified_passes_without_judging(program):
    g = make(program, [None, None, None, None], agents=[Prefer("无懈可击"), Prefer(), Prefer(), Prefer()])
    a, b, c, _ = g.players
    l1 = give(g, a, "闪电", "♠")
    use(g, a, l1, [a])
    l2 = card(g, "闪电", "♥")
    g.use.place_judge(l2, b)
    on_top(g, "桃", "♥")  # not ♠2-9: passes on
    g.use.resolve_delayed(a, l1)
    assert l1 in c.judge  # b already holds one
    give(g, a, "无懈可击")
    top = on_top(g, "杀", "♠", 8)
    g.use.resolve_delayed(c, l1)
    assert l1 in g.players[3].judge and top.zone == "draw"  # nullified: passed on, no judgement
    g.use.resolve_delayed(g.players[3], l1)  # ♠8: 3 thunder damage
    assert g.players[3].hp == g.players[3].max_hp - 3 and l1.zone == "discard"


def test_judge_phase_resolves_last_placed_first(program):
    g = make(program, [None, None, None, None])
    p = g.players[1]
    le = card(g, "乐不思蜀")
    ld = card(g, "闪电")
    g.use.place_judge(le, p)
    g.use.place_judge(ld, p)
    on_top(g, "杀", "♥", 10)  # 乐's judgement: ♥, no effect
    on_top(g, "闪", "♦")  # 闪电's judgement (drawn first)
    g.turnflow._phase_judge(p)
    assert ld in g.players[2].judge and le.zone == "discard" and not p.marks.get("skip_play")


def test_guicai_retrial(program):
    g = make(program, [None, "simayi", None, None], agents=[Prefer(), Prefer("yes"), Prefer(), Prefer()])
    target = g.players[2]
    le = card(g, "乐不思蜀")
    g.use.place_judge(le, target)
    give(g, g.players[1], "桃", "♥")
    on_top(g, "杀", "♠")
    g.use.resolve_delayed(target, le)
    assert not target.marks.get("skip_play")  # 鬼才 replaced the ♠ with a ♥


# ---------------------------------------------------------------- multi-target and per-target hooks
def test_wugu_each_target_takes_one_and_rest_discarded(program):
    g = make(program, [None, None, None, None])
    a = g.players[0]
    wg = give(g, a, "五谷丰登")
    for p in g.players:
        p.hp = p.max_hp
    before = len(g.discard_pile)
    use(g, a, wg, list(g.seat_order(a)))
    assert [len(p.hand) for p in g.players] == [1, 1, 1, 1]
    assert not g.processing and len(g.discard_pile) == before + 1 and "wugu_pool" not in g.marks


def test_taoyuan_opens_no_nullify_window_for_unwounded_targets(program):
    g = make(program, [None, None, None, None], agents=[Prefer(), Prefer("无懈可击"), Prefer(), Prefer()])
    a, b, c, _ = g.players
    give(g, b, "无懈可击")
    c.hp -= 1
    use(g, a, give(g, a, "桃园结义"), list(g.seat_order(a)))
    assert not b.hand and c.hp == c.max_hp - 1  # b's only chance was against the wounded c


def test_fangtian_extra_targets_with_last_hand_card(program):
    g = make(program, [None, None, None, None, None])
    a = g.players[0]
    g.use.equip(a, card(g, "方天画戟"))
    sha = give(g, a, "杀")
    assert g.dispatch.value("extra_targets", a, sha) == 2
    give(g, a, "闪")
    assert g.dispatch.value("extra_targets", a, sha) == 0


def test_liuli_redirects(program):
    g = make(program, [None, "daqiao", None, None], agents=[Prefer(), Prefer("yes"), Prefer(), Prefer()])
    a, dq, c, _ = g.players
    give(g, dq, "桃")
    use(g, a, give(g, a, "杀"), [dq])
    assert dq.hp == dq.max_hp and c.hp == c.max_hp - 1


# ---------------------------------------------------------------- dying, lord skills, deck
def test_dying_needs_enough_peaches(program):
    g = make(program, [None, None, None, None], agents=[Prefer("use 桃"), Prefer(), Prefer(), Prefer()])
    a, b = g.players[0], g.players[1]
    b.hp = 2
    give(g, a, "桃")
    give(g, a, "桃")
    g.health.damage(b, 3, source=None)
    assert b.alive and b.hp == 1 and not a.hand


def test_kurou_dying_resolves_before_the_draw(program):
    g = make(program, ["huanggai", None, None, None], agents=[Prefer("use 桃"), Prefer(), Prefer(), Prefer()])
    hg = g.players[0]
    hg.hp = 1
    give(g, hg, "桃")
    skill = next(s for s in hg.skills if s.ident == "kurou")
    g.use.run_play_option(hg, ("active", skill, skill.actives[0], 0))
    assert hg.alive and hg.hp == 1 and len(hg.hand) == 2  # the 桃 saved him, then he drew 2


def test_lord_skill_only_for_the_leader(program):
    g = make(program, ["caocao", "liubei", None, None], lord=0)
    assert any(s.ident == "hujia" for s in g.players[0].skills)
    assert not any(s.ident == "jijiang" for s in g.players[1].skills)


def test_dead_players_draw_nothing(program):
    g = make(program, [None, None, None, None])
    p = g.players[1]
    p.alive = False
    assert g.zones.draw(p, 2) == [] and not p.hand


def test_standard_deck_counts(program):
    from collections import Counter

    faces = [(s, r) for c in program.cards.values() for s, r in c.copies]
    assert len(faces) == 108
    assert Counter(s for s, _ in faces) == {"♠": 27, "♥": 27, "♣": 27, "♦": 27}
    assert len(program.generals) == 25
    assert sum(len(g.skills) for g in program.generals.values()) == 40


@pytest.mark.parametrize("players", [4, 6, 8, 10])
def test_games_are_deterministic(program, players):
    def run():
        agents = [RandomAgent(100 + i) for i in range(players)]
        g = Game(program, "identity", players, 42, agents).run()
        return g.result, g.hashes[-1] if g.hashes else "", g.turns

    assert run() == run()


# ---------------------------------------------------------------- more card and skill mechanics
def test_hujia_helper_is_not_attacked_by_qinglong(program):
    """A 闪 given through 护驾 answers the lord's request; the helper's own answer is no dodge of the 杀."""
    g = make(program, ["caocao", None, "xuchu", None],
             agents=[Prefer("护驾"), Prefer("use 杀"), Prefer("play 闪"), Prefer()])
    lord, attacker, helper, _ = g.players
    g.use.equip(attacker, card(g, "青龙偃月刀"))
    give(g, helper, "闪")
    spare = give(g, attacker, "杀", "♣")
    use(g, attacker, give(g, attacker, "杀", "♠"), [lord])
    # the lord dodged (through 护驾), so 青龙 attacked the lord again, never the helper
    assert helper.hp == helper.max_hp and not helper.hand
    assert spare.zone == "discard" and lord.hp == lord.max_hp - 1


def test_jiedao_gives_the_weapon_when_no_sha(program):
    g = make(program, [None, None, None, None], agents=[Prefer(), Prefer(), Prefer(), Prefer()])
    a, b = g.players[0], g.players[1]
    w = card(g, "诸葛连弩")
    g.use.equip(b, w)
    jd = give(g, a, "借刀杀人")
    g.use.use_card_chosen(a, jd, jd.rule.uses[0], "play")
    assert w.zone == "hand" and w.holder is a and "jiedao_victim" not in g.marks


def test_yiji_distributes_the_top_two_cards(program):
    g = make(program, [None, "guojia", None, None], agents=[Prefer(), Prefer("yes", "P3"), Prefer(), Prefer()])
    gj, p3 = g.players[1], g.players[3]
    g.health.damage(gj, 2, source=None)
    assert len(p3.hand) == 4 and not gj.hand  # two points: twice two cards, all given to P3


def test_tuxi_takes_instead_of_drawing(program):
    g = make(program, [None, "zhangliao", None, None], agents=[Prefer(), Prefer("yes"), Prefer(), Prefer()])
    zl, p2 = g.players[1], g.players[2]
    taken = give(g, p2, "闪")
    g.turnflow._phase_draw(zl)
    assert zl.hand == [taken]


# ---------------------------------------------------------------- identity mode
def _setup(program, n, options=None):
    from sgsdsl.engine.events import run_rule
    from sgsdsl.engine.program import Frame

    g = Game(program, "identity", n, 3, [RandomAgent(i) for i in range(n)], options)
    run_rule(g.mode.setup, Frame(g, {}))
    return g


@pytest.mark.parametrize("n,options,renegades", [(6, {}, 1), (6, {"two_renegades": True}, 2), (8, {}, 1),
                                                 (8, {"two_renegades": True}, 2), (10, {}, 2)])
def test_role_tables(program, n, options, renegades):
    g = _setup(program, n, options)
    roles = [p.role for p in g.players]
    assert roles.count("lord") == 1 and roles.count("renegade") == renegades
    lord = next(p for p in g.players if p.role == "lord")
    assert g.start_seat == lord.seat and lord.role_revealed
    assert lord.max_hp == lord.general.hp + 1 and all(len(p.hand) == 4 for p in g.players)


def test_beginner_game_without_generals(program):
    g = _setup(program, 5, {"beginner": True})
    assert all(p.general is None and not p.skills for p in g.players)
    assert sorted(p.max_hp for p in g.players) == [4, 4, 4, 4, 5]
    g4 = _setup(program, 4, {"beginner": True})
    assert all(p.max_hp == 4 for p in g4.players)


def test_rebel_kill_reward_and_lord_penalty(program):
    g = make(program, [None, None, None, None, None])
    lord, loyal, rebel = g.players[0], g.players[1], g.players[2]
    loyal.role, g.players[4].role = "loyalist", "renegade"
    lord.hp = 4
    for p in (loyal, rebel):
        p.hp = 1
    g.health.damage(rebel, 1, source=loyal)
    assert not rebel.alive and len(loyal.hand) == 3
    give(g, lord, "杀")
    g.use.equip(lord, card(g, "赤兔"))
    g.health.damage(loyal, 1, source=lord)
    assert not loyal.alive and not lord.hand and not lord.equips


def test_renegade_wins_alone_and_rebels_otherwise(program):
    from sgsdsl.engine.errors import GameOver

    g = make(program, [None, None, None, None])
    lord, ren = g.players[0], g.players[1]
    ren.role = "renegade"
    for p in g.players[2:]:
        p.alive = False
    lord.hp = 1
    with pytest.raises(GameOver) as over:
        g.health.damage(lord, 1, source=ren)
    assert over.value.winners == ("renegade",)
    g = make(program, [None, None, None, None])
    g.players[1].role = "renegade"
    g.players[0].hp = 1
    with pytest.raises(GameOver) as over:
        g.health.damage(g.players[0], 1, source=g.players[1])
    assert over.value.winners == ("rebel",)


def test_hanbing_prevents_damage_and_discards_two(program):
    g = make(program, [None, None, None, None], agents=[Prefer("yes"), Prefer(), Prefer(), Prefer()])
    a, t = g.players[0], g.players[1]
    g.use.equip(a, card(g, "寒冰剑"))
    give(g, t, "桃")
    g.use.equip(t, card(g, "赤兔"))
    use(g, a, give(g, a, "杀", "♣"), [t])
    assert t.hp == t.max_hp and not t.hand and not t.equips


def test_guanshi_forces_the_hit_and_tieqi_forbids_the_dodge(program):
    g = make(program, ["machao", None, None, None],
             agents=[Prefer("no"), Prefer("use 闪"), Prefer(), Prefer()])
    mc, t = g.players[0], g.players[1]
    g.use.equip(mc, card(g, "贯石斧"))
    give(g, mc, "桃")
    give(g, mc, "桃")
    give(g, t, "闪")
    use(g, mc, give(g, mc, "杀", "♣"), [t])  # 铁骑 declined, 贯石斧 declined: dodged
    assert t.hp == t.max_hp and len(mc.hand) == 2
    mc_agent = g.agents[0]
    mc_agent.prefer = ["yes"]  # now use both
    give(g, t, "闪")
    on_top(g, "闪", "♦")  # 铁骑 judgement: red
    use(g, mc, give(g, mc, "杀", "♣"), [t])
    assert t.hp == t.max_hp - 1 and len(t.hand) == 1  # the 闪 could not be used
    give(g, mc, "闪")
    on_top(g, "杀", "♠")  # 铁骑 judgement: black, the 闪 is used, then 贯石斧 discards two
    use(g, mc, give(g, mc, "杀", "♣"), [t])
    assert t.hp == t.max_hp - 2 and not t.hand and len(mc.hand) == 1  # two of his three cards went


def test_luoyi_and_jiuyuan_change_amounts(program):
    g = make(program, ["xuchu", "sunquan", "ganning", None], lord=1,
             agents=[Prefer("yes"), Prefer(), Prefer("use 桃"), Prefer()])
    xc, sq, gn = g.players[0], g.players[1], g.players[2]
    g.turnflow._phase_draw(xc)
    assert len(xc.hand) == 1 and xc.marks.get("luoyi")
    jd = give(g, xc, "决斗")
    use(g, xc, jd, [g.players[3]])
    assert g.players[3].hp == g.players[3].max_hp - 2
    sq.hp = 1
    use(g, gn, give(g, gn, "桃"), [sq])  # another 吴 character's 桃: 救援 +1
    assert sq.hp == 3


def test_keji_skips_discard_only_without_sha(program):
    g = make(program, ["lvmeng", None, None, None], agents=[Prefer("yes"), Prefer(), Prefer(), Prefer()])
    lm = g.players[0]
    lm.hp = 1
    for _ in range(4):
        give(g, lm, "闪")
    g.agents[0].prefer = ["yes"]
    g.turnflow.take_turn(lm)
    assert len(lm.hand) >= 4  # no 杀 used: the discard phase was skipped


# ---------------------------------------------------------------- invariants over random games
def _check_invariants(g: Game, problems: list[str]) -> None:
    seen: dict[int, str] = {}

    def put(c, where):
        if c.id in seen:
            problems.append(f"{c.label()} is in {seen[c.id]} and in {where}")
        seen[c.id] = where

    for zone, pile in (("draw", g.draw_pile), ("discard", g.discard_pile), ("processing", g.processing)):
        for c in pile:
            put(c, zone)
            if c.zone != zone:
                problems.append(f"{c.label()} says {c.zone}, lies in {zone}")
    for p in g.players:
        for c in p.hand:
            put(c, f"hand of {p.label()}")
        for c in p.equips.values():
            put(c, f"equipment of {p.label()}")
        families = [j.family for j in p.judge]
        if len(families) != len(set(families)):
            problems.append(f"two cards of one name in the judge area of {p.label()}: {families}")
        for j in p.judge:
            for c in j.physical:
                put(c, f"judge area of {p.label()}")
        if p.alive and not p.dying and not 0 < p.hp <= p.max_hp:
            problems.append(f"{p.label()} has {p.hp}/{p.max_hp} HP")
    if len(seen) != len(g.cards):
        problems.append(f"{len(seen)} cards in zones, {len(g.cards)} in the deck")


def _invariant_games(program, games: int, first_seed: int) -> dict[str, int]:
    problems: list[str] = []
    ends: dict[str, int] = {}
    original = Decisions.ask

    def checked_ask(self, *args, **kwargs):
        _check_invariants(self.game, problems)
        return original(self, *args, **kwargs)

    Decisions.ask = checked_ask
    try:
        for i in range(games):
            n = 4 + i % 7
            options = {"two_renegades": True} if i % 10 == 3 and n in (6, 8) else {}
            if i % 10 == 7:
                options = {"beginner": True}
            agents = [RandomAgent(first_seed * 1000 + i * 10 + s) for s in range(n)]
            g = Game(program, "identity", n, first_seed + i, agents, options, record=False).run()
            _check_invariants(g, problems)
            assert not problems, f"seed {first_seed + i}: {problems[:3]}"
            ends[g.result[1]] = ends.get(g.result[1], 0) + 1
    finally:
        Decisions.ask = original
    return ends


def test_invariants_hold_in_random_games(program):
    ends = _invariant_games(program, 14, 500)
    assert sum(ends.values()) == 14


@pytest.mark.soak
def test_invariants_hold_in_2000_random_games(program):
    ends = _invariant_games(program, 2100, 10_000)
    assert ends.get("win", 0) >= 2000
