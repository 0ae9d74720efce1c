"""Game invariants, checked after every step by tests and soak runs (never on the hot path of a game)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .agents import Agent, Request
from .dispatch import skill_tables
from .game import Game
from .model import EQUIP_SLOTS, Card
from .program import GeneralRule


class InvariantViolation(AssertionError):
    pass


def check_invariants(game: Game) -> None:
    """Every physical card in exactly one zone (piles included); every general card in one place; HP within
    bounds; no duplicate names in judge/equipment."""
    seen: Counter[int] = Counter()
    where: dict[int, str] = {}

    def note(cards, zone: str) -> None:
        for c in cards:
            seen[c.id] += 1
            where[c.id] = zone

    note(game.draw_pile, "draw")
    note(game.discard_pile, "discard")
    note(game.processing, "processing")
    for p in game.players:
        note(p.hand, "hand")
        note(p.equips.values(), "equip")
        for entry in p.judge:
            note(entry.physical, "judge")
        for pile in p.piles.values():
            note([c for c in pile if isinstance(c, Card)], "pile")
            for c in pile:
                if isinstance(c, Card) and c.holder is not p:
                    raise InvariantViolation(f"{c.label()} lies on a pile of {p.label()} but names {c.holder}")
        if not p.alive and p is not game.departing and (p.hand or p.equips or p.judge or any(p.piles.values())):
            raise InvariantViolation(f"dead {p.label()} still holds cards")
        # alive at 0 HP or less under a rule (alive_at_zero), or fallen there and its dying state not yet resolved
        kept = p.hp <= 0 and (p in game.zero_hp or p in game.hp_falling)
        if p.alive and not p.dying and not kept and not (0 < p.hp <= p.max_hp):
            raise InvariantViolation(f"{p.label()} has HP {p.hp}/{p.max_hp} outside dying")
        if p.hp > p.max_hp:
            raise InvariantViolation(f"{p.label()} has HP {p.hp} above max {p.max_hp}")
        names = [e.name for e in p.judge]
        if len(names) != len(set(names)):
            raise InvariantViolation(f"{p.label()} has two same-name cards in the judge area: {names}")
        for slot, card in p.equips.items():
            if slot not in EQUIP_SLOTS or card.category != slot:
                raise InvariantViolation(f"{p.label()} holds {card.label()} in slot {slot}")
    generals = [g.ident for g in game.general_pool] + [g.ident for p in game.players for pile in p.piles.values()
                                                        for g in pile if isinstance(g, GeneralRule)]
    if len(generals) != len(set(generals)):
        raise InvariantViolation(f"a general card is in two places: {sorted(generals)}")
    total = len(game.cards)
    missing = [c.label() for c in game.cards if seen[c.id] == 0]
    doubled = [c.label() for c in game.cards if seen[c.id] > 1]
    if missing or doubled or sum(seen.values()) != total:
        raise InvariantViolation(f"cards not in exactly one zone: missing {missing[:5]}, doubled {doubled[:5]}")
    for c in game.cards:
        if c.zone != where[c.id]:
            raise InvariantViolation(f"{c.label()} says zone {c.zone} but lies in {where[c.id]}")
    check_skill_tables(game)


def _pairs(rows: Any) -> list[tuple[int, ...]]:
    return [tuple(id(x) for x in row) for row in rows]


def check_skill_tables(game: Game) -> None:
    """The tables Dispatch.refresh_skills keeps up to date piece by piece are what they would be if made afresh from
    every character's skills: triggers and modifiers per character, the seats listening to each timing and modifying
    each value, the value chains, the plain values, the timings heard, and the holders of scoped marks and skills."""
    players = game.players
    for p in players:
        trig, mods = skill_tables(p.skills)
        if {k: _pairs(v) for k, v in trig.items()} != {k: _pairs(v) for k, v in p.triggers.items()}:
            raise InvariantViolation(f"{p.label()}: its trigger table is not the one its skills make")
        if {k: _pairs(v) for k, v in mods.items()} != {k: _pairs(v) for k, v in p.modifiers.items()}:
            raise InvariantViolation(f"{p.label()}: its modifier table is not the one its skills make")
    values = set(game.modifier_seats) | {name for p in players for name in p.modifiers}
    for name in values:
        seats = [p.seat for p in players if name in p.modifiers]
        if game.modifier_seats.get(name, []) != seats:
            raise InvariantViolation(f"value {name}: modified by seats {game.modifier_seats.get(name)}, not {seats}")
        chain = [(q, s, m) for q in players if name in q.modifiers for s, m in q.modifiers[name]]
        if _pairs(game.value_chains.get(name, [])) != _pairs(chain):
            raise InvariantViolation(f"value {name}: its chain is not its modifiers' in seat order")
        if (name in game.plain_values) != (not chain and game.plain_default(name) is not None):
            raise InvariantViolation(f"value {name}: plain is {name in game.plain_values} with a chain of {len(chain)}")
    timings = set(game.trigger_seats) | {name for p in players for name in p.triggers}
    for name in timings:
        listening = {p.seat for p in players if name in p.triggers}
        if game.trigger_seats.get(name, set()) != listening:
            raise InvariantViolation(f"timing {name}: heard by seats {game.trigger_seats.get(name)}, not {listening}")
    for name in timings | set(game.global_triggers) | set(game.timing_guards):
        if game.timing_guards.get(name) != game.timing_guard(name):
            raise InvariantViolation(f"timing {name}: guarded by {game.timing_guards.get(name)}, not "
                                     f"{game.timing_guard(name)}")
    heard = set(game.global_triggers) | {name for name in timings if any(name in p.triggers for p in players)}
    if game.heard != heard:
        raise InvariantViolation(f"timings heard: {sorted(game.heard ^ heard)} differ from the skills in play")
    holders: list[Any] = [*players, game]
    for h in holders:
        if h.mark_scopes and not any(x is h for x in game.scoped_holders):
            raise InvariantViolation(f"{h.label() if h is not game else 'the game'} holds a scoped mark unlisted")
    if any(p.extra_scopes for p in players) and not game.skills_scoped:
        raise InvariantViolation("a skill was gained for less than the game, unnoted")


class CheckingAgent(Agent):
    """Wraps an agent; checks the invariants of its game before every decision."""

    def __init__(self, inner: Agent, holder: dict[str, Any]):
        self.inner = inner
        self.holder = holder
        self.name = f"checking({inner.name})"
        self.reads_view = inner.reads_view
        self.view_cards = inner.view_cards
        self.reads_options = inner.reads_options
        self.waits = getattr(inner, "waits", False)

    def decide(self, request: Request, view: Any) -> list[int]:
        check_invariants(self.holder["game"])
        return self.inner.decide(request, view)


def check_turn_log(game: Game) -> None:
    """Face-down state as the log tells it (a recorded game): each `turn_over` flips the seat's state; a turn is
    played (`turn`) only face up; a face-down turn is skipped (`turn_skipped` face_down) and turns the seat face
    up at once; nobody is turned over after death; the log's final state is the players' state."""
    down: dict[str, bool] = {p.label().split(":")[0]: False for p in game.players}
    dead: set[str] = set()
    log = game.log
    for i, e in enumerate(log):
        kind = e.get("e")
        seat = str(e.get("player", "")).split(":")[0]
        if kind == "turn_over":
            if seat in dead:
                raise InvariantViolation(f"event {i + 1}: {e['player']} turned over after death")
            if e["face_down"] == down[seat]:
                raise InvariantViolation(f"event {i + 1}: {e['player']} turned over to the state it was in")
            down[seat] = e["face_down"]
        elif kind == "turn" and down[seat]:
            raise InvariantViolation(f"event {i + 1}: {e['player']} plays a turn face down")
        elif kind == "turn_skipped" and e.get("reason") == "face_down":
            nxt = log[i + 1] if i + 1 < len(log) else {}
            if not down[seat] or nxt.get("e") != "turn_over" or nxt.get("player") != e["player"] \
                    or nxt.get("face_down"):
                raise InvariantViolation(f"event {i + 1}: a face-down skip of {e['player']} must find it face down "
                                         f"and turn it face up at once (next: {nxt})")
        elif kind == "death":
            dead.add(seat)
    for p in game.players:
        if down[p.label().split(":")[0]] != p.face_down:
            raise InvariantViolation(f"{p.label()} is face {'down' if p.face_down else 'up'}, the log says otherwise")
