"""The game runtime: zones, turns and phases, card use and response, damage, dying, judgement, events.

Generic mechanics only. Which card does what, which skill fires when, and how a mode is set up and
won are rule objects (`program.py`) called from here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .agents import Agent
from .carry import Carry
from .decisions import Decisions, SeatView, hints_of
from .dispatch import Dispatch
from .errors import EngineError, GameOver, RuleError
from .events import MAX_PLAY_ACTIONS, NULLIFIABLE, SCOPES, STEP_BUDGET, UNLIMITED, Event, run_rule
from .health import Health
from .model import PHASES, Card, Player
from .piles import Piles
from .pindian import Pindian
from .program import CardRule, Frame, GeneralRule, ModeRule, Program, TriggerRule
from .turnflow import TurnFlow
from .using import CardUse
from .zones import Zones

__all__ = ["Game", "Event", "SeatView", "run_rule", "UNLIMITED", "NULLIFIABLE", "SCOPES", "MAX_PLAY_ACTIONS"]


class Game(CardUse, Zones, Health, Dispatch, Decisions, TurnFlow, Pindian, Piles):
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
        self.answers: list[list[int]] = []
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
        self.result: tuple[tuple[str, ...], str] | None = None
        self.winners_seats: tuple[int, ...] = ()
        self.scores: list[int] | None = None  # per seat, when the game is over and the mode has `score` lines
        self.places: list[int] | None = None  # per seat (0: unplaced), when the game is over and the mode ranks
        self.recover_history: list[tuple[int, int, int]] = []  # public: (healer seat, healed seat, amount)
        self.damage_history: list[tuple[int, int, int]] = []  # public: (source seat, target seat, amount)
        self.deaths: list[tuple[Player, Player | None, int]] = []  # (victim, killer, alive just before), in order
        self.departing: Player | None = None  # the victim while its `death` timing runs (its cards not yet gone)
        self.in_turn = False  # a turn is being played (take_turn refuses to start another inside it)
        self.extra_queue: list[Player] = []  # extra turns gained, played right after the turn in progress
        self.extra_now = False  # the turn being played is an extra one
        self.decisions = 0
        self.skill_uses: dict[str, int] = {}  # skill ident -> firings (triggers, actives, conversions)
        self.steps = 0  # rule steps spent (runtime.step); over step_budget the game fails with a located error
        self.step_budget = STEP_BUDGET
        self._emit_depth = 0
        self._rotations: tuple[list[Player], list[tuple[Player, ...]]] | None = None  # seat -> the table from it
        self._request_context: tuple[Any, Any, bool] = (None, None, False)  # (against, against_user, play)
        self._trigger_seats: dict[str, set[int]] = {}  # timing -> seats with a trigger for it (never iterated)
        self._modifier_seats: dict[str, list[int]] = {}  # value name -> seats whose skills modify it
        self._counting: list[tuple[int, str]] = []  # (card id, value) being worked out (counted_as)
        self.counts_as = False  # some skill in play modifies card_suit, card_color or card_name (refresh_skills)
        self.global_triggers: dict[str, list[TriggerRule]] = {}
        # the game's own rules (`rule` definitions, in definition order), then the mode's triggers
        for t in [t for r in program.rules.values() for t in r.triggers] + list(self.mode.triggers):
            self.global_triggers.setdefault(t.timing, []).append(t)
        # balance runs: a general fixed to a seat (seat -> general ident) and the generals on offer (idents)
        self.pinned = {seat: program.generals[ident] for seat, ident in (pinned or {}).items()}
        self.pool = None if pool is None else frozenset(pool)
        self.cards: list[Card] = []
        self._build_deck()

    # ------------------------------------------------------------ set-up
    def _build_deck(self) -> None:
        swaps = self._replacements()
        cid = 0
        for ident in sorted(self.program.cards):
            rule = self.program.cards[ident]
            face = swaps.get(ident, rule)
            if face is None:  # `replace CARD with none`: its copies are not in this mode's deck
                continue
            for suit, rank in rule.copies:
                card = Card(cid, face, suit, rank)
                card.game = self
                self.cards.append(card)
                cid += 1
        self.draw_pile = list(self.cards)
        self.rng.shuffle(self.draw_pile)
        taken = {g.ident for g in self.pinned.values()}
        self.general_pool = [self.program.generals[k] for k in sorted(self.program.generals)
                             if (self.pool is None or k in self.pool) and k not in taken]
        self.rng.shuffle(self.general_pool)

    def _replacements(self) -> dict[str, CardRule | None]:
        """The mode's card replacements for this game: replaced card ident -> the rule its copies take (None: they
        leave the deck). The first `replace` line for a card whose condition holds applies (conditions read the
        options)."""
        out: dict[str, CardRule | None] = {}
        for r in self.mode.replacements:
            known = r.card in self.program.cards and (r.by is None or r.by in self.program.cards)
            if r.card in out or not known:
                continue
            if r.condition is None or r.condition(Frame(self, {})):
                out[r.card] = self.program.cards[r.by] if r.by is not None else None
        return out

    def run(self) -> Game:
        """Play the game to its end: a win, or a recorded draw at the round cap."""
        try:
            self.emit_log("game_start", players=len(self.players), seed=self.seed, mode=self.mode.ident)
            if self.carry.memory or self.carry.leader_person is not None:  # what a league game starts from
                self.emit_log("carried", memory=self.carry.snapshot(), leader_person=self.carry.leader_person)
            if self.mode.setup is not None:
                run_rule(self.mode.setup, Frame(self, {}))
            for p in self.players:
                self.refresh_skills(p)
            self.current = self.players[self.start_seat]
            self.emit("game_start", Event("game_start"))
            while True:
                self.round += 1
                if self.round > self.round_cap:
                    raise GameOver((), "round_cap")
                self.emit_log("round", round=self.round)
                self.emit("round_start", Event("round_start", round=self.round))
                if self.mode.turn_order is not None:
                    run_rule(self.mode.turn_order, Frame(self, {}))  # the mode plays the round's turns
                else:
                    for p in self.seat_order(self.players[self.start_seat], include_dead=True):
                        if p.alive:
                            self.take_turn(p)
                self._clear_scope("round")
        except GameOver as over:
            self.finish(over)
        return self

    def finish(self, over: GameOver) -> None:
        """Record the end of the game: the result, the winning seats, the scores (if the mode keeps score)."""
        self.result = (over.winners, over.reason)
        self.winners_seats = tuple(p.seat for p in self.players if p.role in over.winners)
        extra: dict[str, Any] = {}
        if any(line.op != "place" for line in self.mode.scores):
            self.scores = self.compute_scores()
            extra["scores"] = list(self.scores)
        if any(line.op == "place" for line in self.mode.scores):
            self.places = self.compute_places()
            extra["places"] = list(self.places)
        self.emit_log("game_over", winners=list(over.winners), reason=over.reason, seats=list(self.winners_seats),
                      **extra)

    def compute_scores(self) -> list[int]:
        """Every seat's score from the mode's `score` lines (in order): the first `=` line for the seat's role
        whose condition holds sets the base (else 0); every `+=` / `-=` line that holds adds or subtracts."""
        out: list[int] = []
        for p in self.players:
            frame = Frame(self, {"player": p})
            base: int | None = None
            bonus = 0
            for line in self.mode.scores:
                if line.op == "place" or p.role not in line.roles or (line.op == "=" and base is not None):
                    continue
                if line.condition is not None and not line.condition(frame):
                    continue
                v = line.value(frame)
                if isinstance(v, bool) or not isinstance(v, int):
                    raise RuleError(f"{line.line}: a score must be a number, not {v!r}")
                if line.op == "=":
                    base = v
                else:
                    bonus += v if line.op == "+=" else -v
            out.append((base or 0) + bonus)
        return out

    def compute_places(self) -> list[int]:
        """Every seat's final place from the mode's `place` lines: the first line for the seat's role whose
        condition holds (1 champion, 2 runner-up, …); 0 when none does."""
        out: list[int] = []
        for p in self.players:
            frame = Frame(self, {"player": p})
            place = 0
            for line in self.mode.scores:
                if line.op != "place" or p.role not in line.roles:
                    continue
                if line.condition is not None and not line.condition(frame):
                    continue
                v = line.value(frame)
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    raise RuleError(f"{line.line}: a place must be a number from 0, not {v!r}")
                place = v
                break
            out.append(place)
        return out

    # ------------------------------------------------------------ seating & scopes
    def seat_order(self, first: Player, include_dead: bool = False) -> list[Player]:
        rotations = self._rotations
        if rotations is None or rotations[0] is not self.players:  # built once per seating (scenarios reseat)
            players = self.players
            n = len(players)
            rotations = self._rotations = (players, [tuple(players[(s + i) % n] for i in range(n)) for s in range(n)])
        out = rotations[1][first.seat]
        return list(out) if include_dead else [p for p in out if p.alive]

    def circle(self, first: Player, direction: str, include_dead: bool = False) -> list[Player]:
        """The characters round the table from `first` (the living, unless include_dead): counter_clockwise is
        seat order (the direction turns pass in), clockwise the other way round."""
        if direction != "clockwise":
            return self.seat_order(first, include_dead)
        out = self.seat_order(first, include_dead=True)
        return [p for p in out[:1] + out[:0:-1] if include_dead or p.alive]

    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def next_alive(self, p: Player) -> Player:
        n = len(self.players)
        for i in range(1, n + 1):
            q = self.players[(p.seat + i) % n]
            if q.alive:
                return q
        return p

    def _clear_scope(self, scope: str) -> None:
        self.usage[scope].clear()
        self.expire_skills(scope)
        for holder in [*self.players, self]:
            if not holder.mark_scopes:
                continue
            gone = [k for k, s in holder.mark_scopes.items() if s == scope]
            for k in gone:
                holder.marks.pop(k, None)
                holder.mark_scopes.pop(k, None)

    # ------------------------------------------------------------ turns
    def take_turn(self, p: Player, first_phase: str | None = None, last_phase: str | None = None) -> None:
        """Play p's turn. `first_phase`/`last_phase` play only part of it (scenario tests start a position
        mid-turn): a turn resumed after its first phase does not fire turn_start, one cut before its last
        phase does not fire turn_end or clear the turn's scope."""
        phases = PHASES[PHASES.index(first_phase) if first_phase else 0:
                        PHASES.index(last_phase) + 1 if last_phase else len(PHASES)]
        outer = self.in_turn
        self.in_turn = True
        try:
            self._play_turn(p, phases)
            if not outer and phases[-1:] == PHASES[-1:]:
                self.play_extra_turns()
        finally:
            self.in_turn = outer

    def _play_turn(self, p: Player, phases: tuple[str, ...]) -> None:
        if phases[:1] == PHASES[:1] and self.turn_skipped(p):
            return
        self.current = p
        self.turns += 1
        self.emit_log("turn", player=p.label(), turn=self.turns)
        if phases[:1] == PHASES[:1]:
            self.emit("turn_start", Event("turn_start", player=p))
        for phase in phases:
            if not p.alive:
                break
            self.phase = phase
            self._play_phase(p, phase)
            # a skipped phase ends too: its counters and phase-length marks never reach the next phase
            self._clear_scope("phase")
        if phases[-1:] != PHASES[-1:]:
            return
        self.phase = "none"
        if p.alive:
            self.emit("turn_end", Event("turn_end", player=p))
        self._clear_scope("turn")

    def _play_phase(self, p: Player, phase: str) -> None:
        """One phase of p's turn, unless it is skipped (by a mark or by cancelling before_phase)."""
        if p.marks.get("skip_" + phase):
            self.emit_log("phase_skipped", player=p.label(), phase=phase)
            return
        ev = self.emit("before_phase", Event("before_phase", player=p, phase=phase))
        if ev.cancelled:
            self.emit_log("phase_skipped", player=p.label(), phase=phase)
            return
        self.emit("phase_start", Event("phase_start", player=p, phase=phase))
        if p.alive:
            getattr(self, "_phase_" + phase)(p)
        if p.alive:
            self.emit("phase_end", Event("phase_end", player=p, phase=phase))

    def _phase_prepare(self, p: Player) -> None:
        pass

    def _phase_finish(self, p: Player) -> None:
        pass

    def _phase_judge(self, p: Player) -> None:
        for entry in list(reversed(p.judge)):
            if not p.alive or entry not in p.judge:
                continue
            self.resolve_delayed(p, entry)

    def _phase_draw(self, p: Player) -> None:
        ev = self.emit("drawing", Event("drawing", player=p, amount=self.value("draw_count", p)))
        if not ev.cancelled and ev.amount > 0:
            self.draw(p, ev.amount)

    def _phase_discard(self, p: Player) -> None:
        excess = len(p.hand) - max(0, self.value("hand_limit", p))
        if excess > 0:
            chosen = self.choose_many(p, list(p.hand), excess, excess, "discard down to your hand limit")
            self.discard(chosen, p)

    def _phase_play(self, p: Player) -> None:
        for _ in range(MAX_PLAY_ACTIONS):
            if not p.alive or self.current is not p or p.marks.get("end_play"):  # end_phase() ends it
                return
            options = self.play_options(p)
            labels = [o[0] for o in options] + ["end play phase"]
            tags = [self.option_hints(o[1]) for o in options] + [("end",)]
            reach = [self.option_reach(p, o[1]) for o in options] + [None] \
                if getattr(self.agents[p.seat], "reads_view", True) else []
            pick = self.ask(p, "play", "choose a card or skill to use", labels, option_tags=tags,
                            option_reach=reach)[0]
            if pick == len(options):
                return
            self.run_play_option(p, options[pick][1])

    # ------------------------------------------------------------ general selection (set-up)

    def option_reach(self, p: Player, option: tuple) -> tuple[int, ...] | None:
        """For agents: the seats a card of the play menu could be aimed at now, when it is aimed at chosen
        targets (one or a range); None for anything else."""
        if option[0] != "card" or option[2].target_kind not in ("one", "range"):
            return None
        return tuple(t.seat for t in self.legal_targets(p, option[1], option[2]))

    def option_hints(self, option: tuple) -> tuple[str, ...]:
        """What a play-menu option is, for agents: the card's tags and category, or the kind of option."""
        kind = option[0]
        if kind == "card":
            return hints_of(option[1])
        if kind == "viewas":
            rule = self.program.cards[option[2].card]
            return tuple(sorted(rule.tags)) + (rule.category, "conversion")
        if kind in ("active", "granted"):  # a skill's own action, or one another's skill grants
            return tuple(sorted(option[1].tags)) + ("skill",)
        return (kind,)
    def set_general(self, p: Player, g: GeneralRule | None) -> None:
        pinned = self.pinned.get(p.seat)
        if pinned is not None and g is not pinned:
            if g is not None:
                self.general_pool.append(g)  # the seat's own pick goes back: the pinned general takes its place
            g = pinned
        p.general = g
        if g is not None:
            p.hp = p.max_hp = g.hp
            p.kingdom, p.gender = g.kingdom, g.gender
        self.refresh_skills(p)
        self.emit_log("general", player=p.label(), general=g.name if g else None)
