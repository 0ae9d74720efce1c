"""A game: its state (`state.GameState`) with the collaborators that act on it attached, set up and played.

Generic mechanics only. Which card does what, which skill fires when, and how a mode is set up and
won are rule objects (`program.py`) called from here.

The collaborators form one chain, each knowing only those before it: `Decisions` (requests to agents) →
`Dispatch` (skills, triggers, values) → `Zones` (card movement) → `Piles` → `CardUse` (the play menu, use and
response) → `Health` (damage, dying, death, judgement) → `Pindian` → `TurnFlow` (turns and phases). Rules reach
them through the game: `frame.game.zones.move(…)`, `frame.game.dispatch.value(…)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from . import collector
from .agents import Agent
from .carry import Carry
from .decisions import Decisions
from .dispatch import Dispatch, new_event
from .draws import shuffle
from .errors import EngineError, GameOver, RuleError, in_game
from .events import run_rule
from .health import Health
from .model import Card, Player
from .piles import Piles
from .pindian import Pindian
from .program import CardRule, Frame, GeneralRule, Program
from .snapshots import SearchHandle
from .state import GameState
from .turnflow import TurnFlow
from .using import CardUse
from .zones import Zones

__all__ = ["Game"]

# what a game made from a snapshot makes for itself (Game.__reduce__)
# (zero_hp_check is Health's bound method: pickled, it would drag a second set of collaborators along, and the native
# build cannot make those without their constructor's arguments)
FRESH = ("choices", "dispatch", "zones", "piles", "use", "health", "pindians", "turnflow", "bare_frame",
         "zero_hp_check")


class Game(GameState):
    """One game of a program's mode: the state, its collaborators, set-up, the round loop and the result."""

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
        blank: bool = False,
    ):
        super().__init__(program, mode, players, seed, agents, options, round_cap, record, carry, pinned, pool,
                         role_pins, barred)
        self.choices = Decisions(self)
        self.dispatch = Dispatch(self, self.choices)
        self.zones = Zones(self, self.dispatch)
        self.piles = Piles(self, self.zones)
        self.use = CardUse(self, self.choices, self.dispatch, self.zones)
        self.health = Health(self, self.choices, self.dispatch, self.zones, self.piles, self.use)
        self.pindians = Pindian(self, self.choices, self.dispatch, self.zones)
        self.turnflow = TurnFlow(self, self.choices, self.dispatch, self.zones, self.use)
        self.dispatch.phase_stake = self.turnflow.phase_stake
        if not blank:  # (a game made to be given a snapshot's state has its cards from there)
            self._build_deck()
        if self.searching:  # agents that search get their handle to rollouts of this game
            for seat, agent in enumerate(self.agents):
                if getattr(agent, "searches", False):
                    agent.bind(SearchHandle(self, seat))

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
        shuffle(self.rng, self.draw_pile)
        taken = {g.ident for g in self.pinned.values()} | {g.ident for _, _, g in self.role_pins}
        self.general_pool = [self.program.generals[k] for k in sorted(self.program.generals)
                             if (self.pool is None or k in self.pool) and k not in taken]
        shuffle(self.rng, self.general_pool)

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

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled for search snapshots (engine/snapshots.py): a blank game of the same rules and mode is made and
        given this one's state. Its collaborators and bare frame are its own, made afresh: they hold nothing but
        references and caches."""
        state = dict(cast(dict, self.__getstate__()))
        for name in FRESH:
            state.pop(name, None)
        return _blank, (self.program, self.mode.ident, self.mode.players[0], self.seed, dict(self.options),
                        self.round_cap), state

    def counted_as(self, card: Card, value: str, printed: Any) -> Any:
        return self.dispatch.counted_as(card, value, printed)

    def counted_rule(self, card: Card) -> CardRule:
        return self.dispatch.counted_rule(card)

    def run(self) -> Game:
        """Play the game to its end: a win, or a recorded draw at the round cap (with the cycle collector paused,
        unless an agent may wait on a person: `collector`, `Agent.waits`)."""
        waiting = any(getattr(a, "waits", False) for a in self.agents)
        was_on = False if waiting else collector.pause()
        try:
            self._play()
        except EngineError as err:  # say which game it was (seed, decision) for the error's report
            in_game(err, self.seed, self.decisions)
            raise
        finally:
            collector.resume(was_on)
        return self

    def _play(self) -> None:
        try:
            self.emit_log("game_start", players=len(self.players), seed=self.seed, mode=self.mode.ident)
            if self.carry.memory or self.carry.leader_person is not None:  # what a league game starts from
                self.emit_log("carried", memory=self.carry.snapshot(), leader_person=self.carry.leader_person)
            if self.mode.setup is not None:
                run_rule(self.mode.setup, Frame(self, {}))
            for p in self.players:
                self.dispatch.refresh_skills(p)
            self.current = self.players[self.start_seat]
            self.dispatch.emit("game_start", new_event("game_start", {}))
            self._rounds()
        except GameOver as over:
            self.finish(over)

    def _rounds(self) -> None:
        """Round after round, until the game ends (GameOver)."""
        while True:
            self.round += 1
            if self.round > self.round_cap:
                raise GameOver((), "round_cap")
            if self.record:  # (the labels are made only for a log that is kept)
                self.emit_log("round", round=self.round)
            self.dispatch.emit("round_start", new_event("round_start", {"round": self.round}))
            if self.mode.turn_order is not None:
                run_rule(self.mode.turn_order, Frame(self, {}))  # the mode plays the round's turns
            else:
                self._round_turns(None)
            self.turnflow.clear_scope("round")

    def _round_turns(self, after: Player | None) -> None:
        """The default round's turns: each living seat in seat order from the start seat (only those after AFTER's,
        when a game continued from a snapshot of AFTER's turn goes on with the round)."""
        order = self.seat_order(self.players[self.start_seat], include_dead=True)
        for p in order[order.index(after) + 1:] if after is not None else order:
            if p.alive:
                self.round_turn = p  # (a snapshot of this turn says the round goes on after it)
                self.turnflow.take_turn(p)
        self.round_turn = None

    def resume(self, seat: int, first_phase: str | None, last_phase: str | None, in_round: bool,
               extra_turns: int) -> None:
        """Go on with a game restored from a snapshot taken as SEAT's turn began (engine/snapshots.py): that turn
        and, when EXTRA_TURNS > 0 and it was one of the default round's, the rest of its round and the rounds after
        it, until EXTRA_TURNS more turns have been played (the next one raises Horizon) or the game ends."""
        p = self.players[seat]
        try:
            self.round_turn = p if in_round else None
            self.turnflow.take_turn(p, first_phase, last_phase)
            self.round_turn = None
            if extra_turns > 0 and in_round:
                self.turns_left = extra_turns
                self._round_turns(p)
                self.turnflow.clear_scope("round")
                self._rounds()
        except GameOver as over:
            self.finish(over)

    def finish(self, over: GameOver) -> None:
        """Record the end of the game: the result, the winning seats, the scores (if the mode keeps score)."""
        self.result = (over.winners, over.reason)
        self.winners_seats = tuple(p.seat for p in self.players
                                   if self.mode.winning_seat(p.role, p.alive, over.winners))
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

    # ------------------------------------------------------------ generals
    def set_general(self, p: Player, g: GeneralRule | None) -> None:
        pinned = self.pinned_for(p)
        if pinned is not None and g is not pinned:
            if g is not None:
                self.general_pool.append(g)  # the seat's own pick goes back: the pinned general takes its place
            g = pinned
        p.general = g
        if g is not None:
            p.hp = p.max_hp = g.hp
            p.kingdom, p.gender = g.kingdom, g.gender
        self.dispatch.refresh_skills(p)
        if self.record:  # (the labels are made only for a log that is kept)
            self.emit_log("general", player=p.label(), general=g.name if g else None)


def _blank(program: Program, mode: str, players: int, seed: int, options: dict[str, Any], round_cap: int) -> Game:
    """A game for a snapshot's state to be put into (Game.__reduce__)."""
    return Game(program, mode, players, seed, [], options, round_cap, record=False, blank=True)
