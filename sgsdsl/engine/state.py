"""The data of one game, and the questions about the table every part of the engine asks.

`GameState` holds what a game is at any moment (seats, piles, counters, the log) and nothing that acts on it.
The engine's collaborators (`Decisions`, `Dispatch`, `Zones`, `CardUse`, `Health`, `Piles`, `Pindian`,
`TurnFlow`) each hold it and change it through their own methods; `Game` is this state with its collaborators
attached. Keeping the data here, below every collaborator, is what lets them import each other in one
direction only.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .agents import Agent
from .carry import Carry
from .errors import EngineError
from .events import SCOPES, STEP_BUDGET
from .model import Card, CardHome, Player
from .program import Frame, GeneralRule, ModeRule, ModifierRule, Program, SkillRule, TriggerRule
from .registry.core import ENGINE_VALUES


class GameState(CardHome):
    """Seats, zones, counters, history and the log of one game (see the module docstring)."""

    def __init__(
        self,
        program: Program,
        mode: str,
        players: int,
        seed: int,
        agents: Sequence[Agent],
        options: dict[str, Any] | None = None,
        round_cap: int = 60,
        record: bool = True,
        carry: Carry | None = None,
        pinned: dict[int, str] | None = None,
        pool: Sequence[str] | None = None,
        role_pins: Sequence[tuple[str, int, str]] = (),
        barred: dict[str, Sequence[str]] | None = None,
    ):
        if mode not in program.modes:
            raise EngineError(f"unknown mode {mode!r}; known: {', '.join(sorted(program.modes))}")
        self.program = program
        self.mode: ModeRule = program.modes[mode]
        lo, hi = self.mode.players
        if not lo <= players <= hi:
            raise EngineError(f"mode {self.mode.name} is for {lo}-{hi} players, not {players}")
        self.options = dict(self.mode.options)
        for k, v in (options or {}).items():
            if k not in self.options:
                raise EngineError(f"mode {self.mode.name} has no option {k!r}; options: {sorted(self.options)}")
            self.options[k] = v
        self.carry = carry if carry is not None else Carry()  # a league's memory and next leader
        self.rng = random.Random(seed)
        self.seed = seed
        self.agents = list(agents)
        self.players = [Player(i) for i in range(players)]
        self.round_cap = round_cap
        self.record = record
        self.log: list[dict[str, Any]] = []
        self.hashes: list[str] = []
        # every answer given, in order: a one-option answer as its number (an int is no container the cycle
        # collector walks when it frees the finished game: most answers are one option), else its list
        self.answers: list[int | list[int]] = []
        self.round = 0
        self.turns = 0
        self.current: Player = self.players[0]
        self.start_seat = 0
        self.phase = "none"
        self.usage: dict[str, dict[tuple, int]] = {s: {} for s in SCOPES}
        self.draw_pile: list[Card] = []  # top is the end of the list
        self.discard_pile: list[Card] = []
        self.processing: list[Card] = []
        self.general_pool: list[GeneralRule] = []
        self.marks: dict[str, Any] = {}
        self.mark_scopes: dict[str, str] = {}
        # the holders (characters, the game) given a mark that lasts a phase, turn or round, and whether any character
        # has gained a skill for that long: the end of a scope looks only there (Dispatch.set_mark, gain_skill)
        self.scoped_holders: list[Player | GameState] = []
        self.skills_scoped = False
        self.result: tuple[tuple[str, ...], str] | None = None
        self.winners_seats: tuple[int, ...] = ()
        self.scores: list[int] | None = None  # per seat, when the game is over and the mode has `score` lines
        self.places: list[int] | None = None  # per seat (0: unplaced), when the game is over and the mode ranks
        self.recover_history: list[tuple[int, int, int]] = []  # public: (healer seat, healed seat, amount)
        self.damage_history: list[tuple[int, int, int]] = []  # public: (source seat, target seat, amount)
        # public: (actor seat, target seat, hints): a card used on another seat (its AI hints and category), or a
        # card given at another's request on its behalf (hints ("behalf",)); for agents inferring allegiance
        self.act_history: list[tuple[int, int, tuple[str, ...]]] = []
        # public: (seat, len(damage_history), len(recover_history), len(act_history)): a role shown during play (at a
        # death) and how far each history had got by then, so an agent reads an earlier act as one made while that
        # seat's role was still hidden (roles shown from the start are not listed)
        self.shown_history: list[tuple[int, int, int, int]] = []
        self.deaths: list[tuple[Player, Player | None, int]] = []  # (victim, killer, alive just before), in order
        self.departing: Player | None = None  # the victim while its `death` timing runs (its cards not yet gone)
        self.in_turn = False  # a turn is being played (take_turn refuses to start another inside it)
        self.extra_queue: list[Player] = []  # extra turns gained, played right after the turn in progress
        self.extra_now = False  # the turn being played is an extra one
        self.extra_granted = 0  # extra turns granted since the last ordinary turn began (MAX_EXTRA_TURNS)
        self.decisions = 0
        self.skill_uses: dict[str, int] = {}  # skill ident -> firings (triggers, actives, conversions)
        self.steps = 0  # rule steps spent (runtime.step); over step_budget the game fails with a located error
        self.step_budget = STEP_BUDGET
        self.walked = 0  # items of lists walked by comprehensions, short of a whole step (spend_walked)
        self.note_chars = 0  # text written by log() so far (bounded: registry.actions.MAX_NOTE_CHARS_PER_GAME)
        self.emit_depth = 0  # how deep events, values and nullify windows nest right now
        self._rotations: tuple[list[Player], list[tuple[Player, ...]]] | None = None  # seat -> the table from it
        self._places: tuple[list[Player], int, dict[int, int], int] | None = None  # see alive_places
        # distances while the distance chain holds only constant modifiers: (chain, players, deaths, table, usable)
        self.distance_memo: tuple[Any, list[Player], int, dict[int, int], bool] | None = None  # Dispatch.distance
        self.request_context: tuple[Any, Any, bool] = (None, None, False)  # (against, against_user, play)
        self.trigger_seats: dict[str, set[int]] = {}  # timing -> seats with a trigger for it (never iterated)
        self.granting: set[int] = set()  # seats with a skill that grants others an action (never iterated)
        self.modifier_seats: dict[str, list[int]] = {}  # value name -> seats whose skills modify it
        # value name -> (character, skill, modifier) of those seats, in seat order (kept by refresh_skills)
        self.value_chains: dict[str, list[tuple[Player, SkillRule, ModifierRule]]] = {}
        # engine values nobody modifies, no rule defines and nothing clamps -> their default (kept by refresh_skills):
        # what most value() calls are (targetable, draw_count ...), answered with one lookup and one call
        self.plain_values: dict[str, Any] = {name: d for name in ENGINE_VALUES
                                             if (d := self.plain_default(name)) is not None}
        self.counting: list[tuple[int, str]] = []  # (card id, value) being worked out (counted_as)
        self.counts_as = False  # some skill in play modifies card_suit, card_color or card_name (refresh_skills)
        self.used_face_kept = False  # some card was used with another face (Card.used_face): counts_as stays on
        # a card being judged -> the character it is judged for (its owner while it is judged: holder_of reads it)
        self.judge_owner: dict[int, Player] = {}
        # the judgements pending while their `judging` event is heard, innermost last, each with what its judged
        # character hopes for (`judge(…, hoping: …)`, a function of a card): agents asked then are told
        # (`Decisions.hope`); empty at every point a game is snapshot
        self.judging: list[tuple[Player, Any, Any]] = []
        # characters alive at 0 HP or less under a rule (the engine value alive_at_zero), re-checked after each event
        self.zero_hp: list[Player] = []
        self.dying_now: list[Player] = []  # the characters in their dying state, innermost last
        self.hp_falling: list[Player] = []  # fallen to 0 HP or less, their dying state not yet resolved (Health._fell)
        self.zero_hp_check: Callable[[], None] | None = None  # Health.check_zero_hp (set by Health)
        self.global_triggers: dict[str, list[TriggerRule]] = {}
        # the game's own rules (`rule` definitions, in definition order), then the mode's triggers
        for t in [t for r in program.rules.values() for t in r.triggers] + list(self.mode.triggers):
            self.global_triggers.setdefault(t.timing, []).append(t)
        # the timings some seat's skill (trigger_seats) or some rule listens to, kept by Dispatch.refresh_skills:
        # asked before every event, so one set lookup answers it
        self.heard: set[str] = set(self.global_triggers)
        # timing -> (seat, owner field, field guard) of every trigger listening to it, when each of them can be ruled
        # out from the event's fields alone (compiled rules: `TriggerRule.field_guard`, and an `owner_field` with a
        # direct condition): an event none of them could fire on is not dispatched (kept by Dispatch.refresh_skills;
        # a timing absent has a listener that cannot be ruled out so)
        self.timing_guards: dict[str, tuple[tuple[int, str | None, tuple[str, str] | None], ...]] = {}
        for name in self.global_triggers:
            self.guard_timing(name)
        # balance runs: a general fixed to a seat (seat -> general ident) and the generals on offer (idents)
        self.pinned = {seat: program.generals[ident] for seat, ident in (pinned or {}).items()}
        self.pool = None if pool is None else frozenset(pool)
        # restricted play: a general pinned to the k-th seat (in seat order) dealt a role, (role, k, general), and the
        # skills a general's holder never has (general ident -> skill idents), whoever sits where
        self.role_pins = [(role, k, program.generals[ident]) for role, k, ident in role_pins]
        self.barred = {g: frozenset(skills) for g, skills in (barred or {}).items() if skills}
        self.cards: list[Card] = []
        # the frame compiled rules' direct functions get (program.py, `*_direct`): the game and no bindings
        self.bare_frame = Frame(self, {})
        # search (engine/snapshots.py): whether some agent searches, so each turn's start is kept as a snapshot; the
        # snapshot of the turn being played; the turn the default round is playing (a turn a round goes on after);
        # and, in a game continued from a snapshot, how many more turns may start before it stops (None: no limit)
        self.searching = any(getattr(a, "searches", False) for a in self.agents)
        self.turn_snapshot: Any = None
        self.round_turn: Player | None = None
        self.turns_left: int | None = None

    # ------------------------------------------------------------ the log
    def emit_log(self, kind: str, **data: Any) -> None:
        if self.record:
            data["e"] = kind
            self.log.append(data)

    def pinned_for(self, p: Player) -> GeneralRule | None:
        """The general fixed to p's seat, or to the role p was dealt (the k-th seat holding it, k counted modulo how
        many hold it); None when p chooses freely."""
        pinned = self.pinned.get(p.seat)
        if pinned is not None or not self.role_pins or p.role is None:
            return pinned
        holders = [q.seat for q in self.players if q.role == p.role]
        for role, k, general in self.role_pins:
            if role == p.role and holders[k % len(holders)] == p.seat:
                return general
        return None

    # ------------------------------------------------------------ the table
    def seat_order(self, first: Player, include_dead: bool = False) -> list[Player]:
        out = self.rotation(first)
        return list(out) if include_dead else [p for p in out if p.alive]

    def rotation(self, first: Player) -> tuple[Player, ...]:
        """Every seat, dead or alive, in seat order from `first` (shared: callers that skip the dead themselves
        need no list of their own)."""
        rotations = self._rotations
        if rotations is None or rotations[0] is not self.players:  # built once per seating (scenarios reseat)
            players = self.players
            n = len(players)
            rotations = self._rotations = (players, [tuple(players[(s + i) % n] for i in range(n)) for s in range(n)])
        return rotations[1][first.seat]

    def circle(self, first: Player, direction: str, include_dead: bool = False) -> list[Player]:
        """The characters round the table from `first` (the living, unless include_dead): counter_clockwise is
        seat order (the direction turns pass in), clockwise the other way round."""
        if direction != "clockwise":
            return self.seat_order(first, include_dead)
        out = self.seat_order(first, include_dead=True)
        return [p for p in out[:1] + out[:0:-1] if include_dead or p.alive]

    def timing_guard(self, timing: str) -> tuple[tuple[int, str | None, tuple[str, str] | None], ...] | None:
        """(seat, owner field, field guard) of each trigger listening to TIMING now, the listening seats' in seat
        order then the game's own (seat -1), when every one of them has a guard the engine may read instead of its
        condition; else None (see `timing_guards`). A trigger with a limit has none (its limit is read first)."""
        out: list[tuple[int, str | None, tuple[str, str] | None]] = []
        seats = self.trigger_seats.get(timing) or ()
        listeners = [(seat, t) for seat in sorted(seats) for _, t in self.players[seat].triggers.get(timing, ())]
        for seat, t in [*listeners, *((-1, t) for t in self.global_triggers.get(timing, ()))]:
            owner = t.owner_field if t.condition_direct is not None and seat >= 0 else None
            if t.limit is not None or (owner is None and t.field_guard is None):
                return None
            out.append((seat, owner, t.field_guard))
        return tuple(out) if out else None

    def guard_timing(self, timing: str) -> None:
        """Make `timing_guards`' entry for TIMING anew from the triggers listening to it now."""
        guard = self.timing_guard(timing)
        if guard is None:
            self.timing_guards.pop(timing, None)
        else:
            self.timing_guards[timing] = guard

    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def plain_default(self, name: str) -> Any:
        """The default of engine value NAME when no rule of the program defines it and nothing clamps it (so that
        while no skill modifies it, the default is the answer); else None."""
        spec = ENGINE_VALUES.get(name)
        if spec is None or spec.clamp is not None or name in self.program.values:
            return None
        return spec.default

    def alive_places(self) -> tuple[dict[int, int], int]:
        """Each living character's place among the living (seat -> index) and how many live: what seat distances
        are made of, remade only when someone dies (every death is in `deaths`) or the table is reseated."""
        got = self._places
        if got is None or got[0] is not self.players or got[1] != len(self.deaths):
            seats = [p.seat for p in self.players if p.alive]
            got = self._places = (self.players, len(self.deaths), {s: i for i, s in enumerate(seats)}, len(seats))
        return got[2], got[3]

    def next_alive(self, p: Player) -> Player:
        n = len(self.players)
        for i in range(1, n + 1):
            q = self.players[(p.seat + i) % n]
            if q.alive:
                return q
        return p
