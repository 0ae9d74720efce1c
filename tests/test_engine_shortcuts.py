"""The engine's shortcuts answer what the long way would: each is a claim about the registry, checked here."""

from __future__ import annotations

from helpers import ROOT, program
from sgsdsl.engine.dispatch import new_event
from sgsdsl.engine.events import Event
from sgsdsl.engine.model import Card, Player, UseRecord, VirtualCard
from sgsdsl.engine.registry import ENGINE_VALUES
from sgsdsl.engine.registry.arguments import _CHECKS, _PASSING


def test_unmodified_targetable_is_true() -> None:
    # CardUse.legal_target answers true without asking the value while nobody modifies it
    assert ENGINE_VALUES["targetable"].default(None, None, None, None) is True
    assert ENGINE_VALUES["targetable"].clamp is None


def test_types_passing_at_once_pass_the_full_test() -> None:
    prog = program(str(ROOT / "rules" / "standard.sgs"))
    card = Card(0, prog.cards["sha"], "♠", 1)
    general = prog.generals["caocao"]
    samples = {type(None): None, Player: Player(0), str: "text", Event: new_event("probe", {}),
               UseRecord: UseRecord(None, None, None, [], "play"), Card: card,
               VirtualCard: VirtualCard(prog.cards["sha"], (card,), "probe"), type(general): general,
               type(general.skills[0]): general.skills[0]}
    for declared, passing in _PASSING.items():
        test = _CHECKS[declared][0]
        for cls in passing:
            assert test(samples[cls]), (declared, cls)


def test_new_event_is_an_event_of_its_fields() -> None:
    fields = {"player": None, "amount": 2}
    ev = new_event("drawing", fields)
    assert type(ev) is Event and ev.name == "drawing" and ev.amount == 2 and ev.cancelled is False
    slow = Event("drawing", player=None, amount=2)
    assert vars(ev) == vars(slow)


ALL41 = str(ROOT / "tests" / "fixtures" / "all41.sgs")


def _modifiers(prog, general: str) -> list:
    return [m for s in prog.generals[general].skills for m in s.modifiers]


def test_compiled_owner_constants_are_marked_and_interpreted_ones_are_not() -> None:
    compiled, interpreted = program(ALL41, "compiled"), program(ALL41, "interpreted")
    (mashu,) = _modifiers(compiled, "machao")  # by -1 where a == owner
    assert mashu.owner_constant and mashu.constant == -1 and mashu.owner_arg == 0
    horse = next(m for s in compiled.cards["dilu"].skills for m in s.modifiers)  # by 1 where b == owner
    assert horse.owner_constant and horse.constant == 1 and horse.owner_arg == 1
    zhuge = next(m for s in compiled.cards["zhuge"].skills for m in s.modifiers)  # to unlimited where u == owner
    assert zhuge.owner_constant and zhuge.op == "to" and zhuge.constant == 1_000_000
    tuntian = [m for m in _modifiers(compiled, "dengai") if m.quantity == "distance"]
    assert tuntian and not any(m.owner_constant for m in tuntian)  # its value counts a pile: not a constant
    assert not any(m.owner_constant for g in interpreted.generals.values() for s in g.skills for m in s.modifiers)


def _table(engine: str, with_tuntian: bool) -> list[list[int]]:
    from sgsdsl.engine.agents import RandomAgent
    from sgsdsl.engine.game import Game

    prog = program(ALL41, engine)
    g = Game(prog, "identity", 5, 7, [RandomAgent(i) for i in range(5)])
    for p, ident in zip(g.players, ["machao", "dengai" if with_tuntian else None, None, None, None], strict=True):
        g.set_general(p, prog.generals[ident] if ident else None)
    g.current = g.players[0]
    free = [c for c in g.cards if c.zone == "draw"]
    for seat, name in ((2, "的卢"), (3, "赤兔"), (4, "绝影")):
        g.use.equip(g.players[seat], next(c for c in free if c.name == name))
    if with_tuntian:  # 邓艾's 田 pile of two: his distances shrink by two (a modifier that is no constant)
        tian = [c for c in free if c.zone == "draw"][:2]
        for c in tian:
            g.zones.take_out(c)
            c.zone, c.holder = "pile", g.players[1]
        g.players[1].piles["田"] = tian
    return [[g.dispatch.distance(a, b) for b in g.players] for a in g.players]


def test_distance_fast_path_gives_what_the_reference_gives() -> None:
    for with_tuntian in (False, True):
        assert _table("compiled", with_tuntian) == _table("interpreted", with_tuntian)
    table = _table("compiled", False)
    assert table[0][1] == 1 and table[1][2] == 2 and table[3][1] == 1  # 马术; 的卢 +1; 赤兔 -1
    assert _table("compiled", True)[1][3] == 1 and table[1][3] == 2  # 屯田's pile of two


def test_an_event_no_guarded_listener_accepts_is_not_dispatched() -> None:
    """洛神 (event.player == owner and event.phase == prepare) is the only listener of phase_start: in compiled
    rules its guards rule out another's phase and its owner's other phases without calling its condition; the
    interpreter keeps no guards and dispatches every event heard."""
    from sgsdsl.engine.agents import RandomAgent
    from sgsdsl.engine.game import Game

    for engine in ("compiled", "interpreted"):
        prog = program(str(ROOT / "rules" / "standard.sgs"), engine)
        g = Game(prog, "identity", 4, 1, [RandomAgent(i) for i in range(4)])
        for p in g.players:
            g.set_general(p, prog.generals["zhaoyun" if p.seat else "zhenji"])
        owner, other = g.players[0], g.players[1]
        guards = g.timing_guards.get("phase_start")
        if engine == "interpreted":
            assert guards is None
            continue
        assert guards == ((0, "player", ("phase", "prepare")),)
        could = g.dispatch._could_fire
        assert could(guards, {"player": owner, "phase": "prepare"})
        assert not could(guards, {"player": owner, "phase": "draw"})
        assert not could(guards, {"player": other, "phase": "prepare"})
        assert could(guards, {"phase": "prepare"})  # (a field absent: the condition decides)
        g.set_general(owner, prog.generals["zhaoyun"])  # nobody listens any more
        assert "phase_start" not in g.timing_guards


def _targets_both_ways(engine: str, generals: list[str]) -> tuple[list, list]:
    """Every seat's legal targets for the aimed cards, by CardUse.legal_targets (its owner-keyed shortcut for
    `targetable`) and by legal_target one target at a time (value() walking the chain), with 空城 (a target's own,
    with an empty hand), 谦逊 (a target's own) and 天义's loss (a user's own) in play, and 贾诩's 完杀 (whose
    modifier is nobody's own: no shortcut) where GENERALS have him."""
    from sgsdsl.api import check_paths, program_for
    from sgsdsl.engine.agents import RandomAgent
    from sgsdsl.engine.game import Game

    loaded = check_paths([str(ROOT / "rules" / name) for name in ("standard.sgs", "huo.sgs", "lin.sgs")])
    assert loaded.ok
    prog = program_for(loaded, engine)
    g = Game(prog, "identity", 6, 3, [RandomAgent(i) for i in range(6)])
    for p, ident in zip(g.players, generals, strict=True):
        g.set_general(p, prog.generals[ident])
    g.current = g.players[0]
    free = [c for c in g.cards if c.zone == "draw"]
    for p in g.players:
        if p.seat != 1:  # 诸葛亮 holds nothing: 空城 holds
            for name in ("杀", "决斗", "顺手牵羊", "乐不思蜀", "过河拆桥"):
                card = next((c for c in free if c.name == name and c.zone == "draw"), None)
                if card is not None:  # (the deck holds fewer of some than seats)
                    g.zones.move([card], "hand", p)
    g.players[0].marks["tianyi_lost"] = True
    fast, slow = [], []
    for p in g.players:
        for card in p.hand:
            for use in card.rule.by_context.get("play", ()):
                if use.target_kind in ("one", "range"):
                    fast.append((p.seat, card.name, [t.seat for t in g.use.legal_targets(p, card, use)]))
                    slow.append((p.seat, card.name, [t.seat for t in g.rotation(p)
                                                     if g.use.legal_target(p, card, use, t)]))
    taken = g.dispatch.owner_keyed("targetable") is not None
    assert taken == ("jiaxu" not in generals)  # (both back ends mark a modifier that holds for its owner alone)
    return fast, slow


def test_owner_keyed_targetable_gives_what_the_chain_gives() -> None:
    for generals in (["taishici", "zhugeliang", "luxun", "caocao", "liubei", "sunquan"],
                     ["taishici", "zhugeliang", "luxun", "jiaxu", "caocao", "liubei"]):
        fast, slow = _targets_both_ways("compiled", generals)
        assert fast == slow and len(fast) >= 6
        assert fast == _targets_both_ways("interpreted", generals)[0]
        assert [seats for seat, name, seats in fast if seat == 0 and name == "杀"] == [[]]  # 天义 lost: a user's own
        assert not any(1 in seats for _, name, seats in fast if name in ("杀", "决斗"))  # 空城, its hand empty
        assert not any(2 in seats for _, name, seats in fast if name in ("顺手牵羊", "乐不思蜀"))  # 谦逊
        assert any(2 in seats for _, name, seats in fast if name == "决斗")  # (谦逊 rules out only those)
