"""The game runtime: zones, turns and phases, card use and response, damage, dying, judgement, events.

Generic mechanics only. Which card does what, which skill fires when, and how a mode is set up and
won are rule objects (`program.py`) called from here.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .agents import Agent, Request
from .errors import BreakLoop, EngineError, GameOver, IllegalAnswer, RuleError, StopEffect
from .model import EQUIP_SLOTS, PHASES, Card, Player, UseRecord, VirtualCard
from .program import CardRule, Frame, GeneralRule, ModeRule, Program, SkillRule, TriggerRule, UseRule

NULLIFIABLE = ("trick", "delayed")
SCOPES = ("phase", "turn", "round", "game")
MAX_PLAY_ACTIONS = 60
UNLIMITED = 10**6


class Event:
    """The data of one timing; handlers read and (for mutable fields) change it."""

    def __init__(self, name: str, **fields: Any):
        self.name = name
        self.cancelled = False
        self.__dict__.update(fields)

    def __repr__(self) -> str:
        return f"Event({self.name})"


def run_rule(fn, frame: Frame) -> Any:
    """Run one rule function; `stop` ends it quietly."""
    try:
        return fn(frame)
    except StopEffect:
        return None
    except BreakLoop:
        return None


class Game:
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
        self.deaths: list[tuple[Player, Player | None, int]] = []  # (victim, killer, alive just before), in order
        self.in_turn = False  # a turn is being played (take_turn refuses to start another inside it)
        self.decisions = 0
        self._request_context: tuple[Any, Any, bool] = (None, None, False)  # (against, against_user, play)
        self._trigger_seats: dict[str, set[int]] = {}  # timing -> seats with a trigger for it (never iterated)
        self._modifier_seats: dict[str, list[int]] = {}  # value name -> seats whose skills modify it
        self.global_triggers: dict[str, list[TriggerRule]] = {}
        # the game's own rules (`rule` definitions, in definition order), then the mode's triggers
        for t in [t for r in program.rules.values() for t in r.triggers] + list(self.mode.triggers):
            self.global_triggers.setdefault(t.timing, []).append(t)
        self.cards: list[Card] = []
        self._build_deck()

    # ------------------------------------------------------------ set-up
    def _build_deck(self) -> None:
        swaps = self._replacements()
        cid = 0
        for ident in sorted(self.program.cards):
            rule = self.program.cards[ident]
            face = swaps.get(ident, rule)
            for suit, rank in rule.copies:
                self.cards.append(Card(cid, face, suit, rank))
                cid += 1
        self.draw_pile = list(self.cards)
        self.rng.shuffle(self.draw_pile)
        self.general_pool = [self.program.generals[k] for k in sorted(self.program.generals)]
        self.rng.shuffle(self.general_pool)

    def _replacements(self) -> dict[str, CardRule]:
        """The mode's card replacements for this game: replaced card ident -> the rule its copies take. The first
        `replace` line for a card whose condition holds applies (conditions read the options)."""
        out: dict[str, CardRule] = {}
        for r in self.mode.replacements:
            if r.card in out or r.card not in self.program.cards or r.by not in self.program.cards:
                continue
            if r.condition is None or r.condition(Frame(self, {})):
                out[r.card] = self.program.cards[r.by]
        return out

    def run(self) -> Game:
        """Play the game to its end: a win, or a recorded draw at the round cap."""
        try:
            self.emit_log("game_start", players=len(self.players), seed=self.seed, mode=self.mode.ident)
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
        if self.mode.scores:
            self.scores = self.compute_scores()
            extra["scores"] = list(self.scores)
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
                if p.role not in line.roles or (line.op == "=" and base is not None):
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

    # ------------------------------------------------------------ seating & scopes
    def seat_order(self, first: Player, include_dead: bool = False) -> list[Player]:
        n = len(self.players)
        out = [self.players[(first.seat + i) % n] for i in range(n)]
        return out if include_dead else [p for p in out if p.alive]

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
        for holder in [*self.players, self]:
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
        finally:
            self.in_turn = outer

    def _play_turn(self, p: Player, phases: tuple[str, ...]) -> None:
        self.current = p
        self.turns += 1
        self.emit_log("turn", player=p.label(), turn=self.turns)
        if phases[:1] == PHASES[:1]:
            self.emit("turn_start", Event("turn_start", player=p))
        for phase in phases:
            if not p.alive:
                break
            self.phase = phase
            if p.marks.get("skip_" + phase):
                self.emit_log("phase_skipped", player=p.label(), phase=phase)
                continue
            ev = self.emit("before_phase", Event("before_phase", player=p, phase=phase))
            if ev.cancelled:
                self.emit_log("phase_skipped", player=p.label(), phase=phase)
                continue
            self.emit("phase_start", Event("phase_start", player=p, phase=phase))
            if p.alive:
                getattr(self, "_phase_" + phase)(p)
            if p.alive:
                self.emit("phase_end", Event("phase_end", player=p, phase=phase))
            self._clear_scope("phase")
        if phases[-1:] != PHASES[-1:]:
            return
        self.phase = "none"
        if p.alive:
            self.emit("turn_end", Event("turn_end", player=p))
        self._clear_scope("turn")

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
            if not p.alive or self.current is not p:
                return
            options = self.play_options(p)
            labels = [o[0] for o in options] + ["end play phase"]
            pick = self.ask(p, "play", "choose a card or skill to use", labels)[0]
            if pick == len(options):
                return
            self.run_play_option(p, options[pick][1])

    # ------------------------------------------------------------ play options
    def play_options(self, p: Player) -> list[tuple[str, tuple]]:
        opts: list[tuple[str, tuple]] = []
        for card in p.hand:
            for i, use in enumerate(card.rule.uses):
                if use.context == "play" and self.can_use(p, card, use):
                    opts.append((f"use {card.label()}" + (f" ({i})" if i else ""), ("card", card, use)))
                elif use.context == "recast" and self.can_use(p, card, use):
                    opts.append((f"recast {card.label()}", ("recast", card, use)))
        for skill in p.skills:
            for va, probe, use in self.conversion_probes(p, skill, "play"):
                if self.can_use(p, probe, use):
                    opts.append((f"{skill.name}: use as {probe.name}", ("viewas", skill, va, use)))
            for i, act in enumerate(skill.actives):
                if self._active_ok(p, skill, act, i):
                    opts.append((f"skill {skill.name}" + (f" ({i})" if i else ""), ("active", skill, act, i)))
        return opts

    def run_play_option(self, p: Player, option: tuple) -> None:
        kind = option[0]
        if kind == "card":
            _, card, use = option
            self.use_card_chosen(p, card, use, "play")
        elif kind == "viewas":
            _, skill, va, use = option
            vcard = self.build_viewas(p, skill, va, optional=True)
            if vcard is not None and self.can_use(p, vcard, use):
                self.use_card_chosen(p, vcard, use, "play")
        elif kind == "recast":
            _, card, use = option
            self.recast(p, card, use)
        else:
            _, skill, act, i = option
            key = ("skill", skill.ident, i)
            self._count_use(p, key, act.limit_scope)
            self.emit_log("skill", player=p.label(), skill=skill.name)
            run_rule(act.body, Frame(self, {"owner": p, "skill": skill}))

    def _active_ok(self, p: Player, skill: SkillRule, act, i: int) -> bool:
        frame = Frame(self, {"owner": p, "skill": skill})
        if act.limit is not None:
            if self._used(p, ("skill", skill.ident, i), act.limit_scope) >= act.limit(frame):
                return False
        return act.condition is None or bool(act.condition(frame))

    def _viewas_sources(self, p: Player, skill: SkillRule, va) -> list[Card]:
        pool = p.hand if va.source == "hand" else (
            [p.equips[s] for s in EQUIP_SLOTS if s in p.equips] if va.source == "equip"
            else p.hand + [p.equips[s] for s in EQUIP_SLOTS if s in p.equips]
        )
        if va.filter is None:
            return list(pool)
        out = []
        for c in pool:
            if va.filter(Frame(self, {"owner": p, "it": c, "skill": skill, "play": self._request_context[2]})):
                out.append(c)
        return out

    def build_viewas(self, p: Player, skill: SkillRule, va, optional: bool) -> VirtualCard | None:
        sources = self._viewas_sources(p, skill, va)
        if len(sources) < va.count:
            return None
        chosen = self.choose_many(p, sources, va.count, va.count, f"cards for {skill.name}")
        rule = self.program.cards[va.card]
        return VirtualCard(rule, tuple(chosen), skill.ident)

    # ------------------------------------------------------------ using cards
    def _used(self, p: Player, key: Any, scope: str | None) -> int:
        if scope is None:
            return 0
        return self.usage[scope].get((p.seat, key), 0)

    @staticmethod
    def use_key(family: str, context: str) -> tuple:
        """What a use limit counts: uses of the card family under clauses of the same context (a card used
        while dying does not count against the play-phase limit of its family)."""
        return ("card", family) if context == "play" else ("card", family, context)

    def recast(self, p: Player, card, use: UseRule) -> None:
        """重铸: not a use — the card goes to the discard pile (no card_used, no nullify window, not counted),
        then the recast clause's block runs (the rules say what recasting gives, e.g. draw 1)."""
        self.emit_log("recast", player=p.label(), card=card.label())
        self.move(card.physical, "discard", None)
        if use.effect is not None:
            run_rule(use.effect, Frame(self, {"user": p, "card": card, "targets": [], "owner": p, "event": None,
                                              "target": None, "use": None}))

    def _count_use(self, p: Player, key: Any, scope: str | None) -> None:
        for s in SCOPES:
            self.usage[s][(p.seat, key)] = self.usage[s].get((p.seat, key), 0) + 1

    def can_use(self, p: Player, card, use: UseRule, fixed_target: Player | None = None) -> bool:
        if use.limit is not None:
            limit = use.limit(Frame(self, {"user": p, "card": card, "owner": p}))
            if self._used(p, self.use_key(card.family, use.context), use.limit_scope) >= limit:
                return False
        if use.target_kind == "none":
            return True
        if fixed_target is not None:
            return self.legal_target(p, card, use, fixed_target)
        # target filters are pure (the checker forbids actions in conditions), so the first legal one decides
        cands = (p,) if use.target_kind == "self" else self.seat_order(p)
        return any(self.legal_target(p, card, use, t) for t in cands)

    def legal_target(self, p: Player, card, use: UseRule, t: Player) -> bool:
        if not t.alive:
            return False
        if use.target_kind == "self" and t is not p:
            return False
        if use.other and t is p:
            return False
        if card.category == "delayed" and any(j.family == card.family for j in t.judge):
            return False
        if use.filter is not None and not use.filter(Frame(self, {"user": p, "card": card, "it": t, "owner": p})):
            return False
        return bool(self.value("targetable", p, card, t))

    def legal_targets(self, p: Player, card, use: UseRule) -> list[Player]:
        cands = [p] if use.target_kind == "self" else self.seat_order(p)
        return [t for t in cands if self.legal_target(p, card, use, t)]

    def choose_targets(self, p: Player, card, use: UseRule) -> list[Player] | None:
        legal = self.legal_targets(p, card, use)
        kind = use.target_kind
        if kind == "none":
            return []
        if kind == "self":
            return legal[:1] or None
        if kind == "all":
            return legal or None
        if not legal:
            return None
        high = use.high + max(0, self.value("extra_targets", p, card))
        chosen = self.choose_many(p, legal, min(use.low, len(legal)), min(high, len(legal)), f"targets for {card.name}")
        return chosen or None

    def use_card_chosen(self, p: Player, card, use: UseRule, context: str, event: Any = None) -> bool:
        targets = self.choose_targets(p, card, use)
        if targets is None:
            return False
        self.use_card(p, card, use, targets, context, event)
        return True

    def use_card(self, user: Player, card, use: UseRule, targets: list[Player], context: str, event: Any = None,
                 nullifiable: bool = True) -> None:
        """使用: the card leaves its zone, is counted, targets are told, and its effect resolves per target.

        `nullifiable=False` opens no nullify window for this use (a rule made it unnullifiable)."""
        physical = card.physical
        self.move(physical, "processing", None)
        self._count_use(user, self.use_key(card.family, use.context), use.limit_scope)
        self.emit_log("use", user=user.label(), card=card.label(), targets=[t.label() for t in targets],
                      context=context)
        self.emit("card_used", Event("card_used", user=user, card=card, targets=targets, context=context))
        if card.category == "delayed":
            if targets and targets[0].alive:
                self.place_judge(card, targets[0])
            else:
                self.move([c for c in physical if c.zone == "processing"], "discard", None)
            return
        if card.category in EQUIP_SLOTS:
            self.equip(user, card)
            return
        records = []
        for t in targets:
            rec = UseRecord(user, card, t, targets, context, nullifiable=nullifiable)
            ev = self.emit("targeted", Event("targeted", user=user, card=card, target=t, use=rec))
            rec.target = ev.target
            if not ev.cancelled:
                records.append(rec)
        # hooks see the same names as effects; `target` and `use` are none outside a per-target effect
        base = {"user": user, "card": card, "targets": targets, "owner": user, "event": event, "target": None,
                "use": None}
        if "prepare" in card.rule.hooks:
            run_rule(card.rule.hooks["prepare"], Frame(self, dict(base)))
        effect = use.effect or card.rule.effect
        if use.target_kind == "none":
            rec = UseRecord(user, card, None, targets, context, nullifiable=nullifiable)
            if not (card.category in NULLIFIABLE and self.nullify_window(card, user, None, rec)):
                if effect is not None:
                    run_rule(effect, Frame(self, {**base, "target": None, "use": rec}))
        for rec in records:
            t = rec.target
            if t is None or not t.alive:
                continue
            ev = Event("before_effect", user=user, card=card, target=t, use=rec)
            own_check = card.rule.hooks.get("before_effect")
            if own_check is not None:  # the card's own condition (e.g. no effect on an unwounded target)
                run_rule(own_check, Frame(self, {**base, "target": t, "use": rec, "event": ev}))
            if not ev.cancelled:
                self.emit("before_effect", ev)
            if ev.cancelled:
                self.emit_log("no_effect", card=card.label(), target=t.label())
                continue
            if card.category in NULLIFIABLE and self.nullify_window(card, user, t, rec):
                if "nullified" in card.rule.hooks:
                    run_rule(card.rule.hooks["nullified"], Frame(self, {**base, "target": t, "use": rec}))
                continue
            if effect is not None:
                run_rule(effect, Frame(self, {**base, "target": t, "use": rec}))
        if "finish" in card.rule.hooks:
            run_rule(card.rule.hooks["finish"], Frame(self, dict(base)))
        left = [c for c in physical if c.zone == "processing"]
        if left:
            self.move(left, "discard", None)

    def nullify_window(self, card, user: Player | None, target: Player | None, rec: UseRecord) -> bool:
        """Before a trick takes effect on a target: anyone may answer with a nullify-context card."""
        if not rec.nullifiable:
            return False
        pending = Event("nullify", card=card, user=user, target=target, use=rec)
        asked = 0
        while asked < 40 and not pending.cancelled:
            asked += 1
            answered = False
            for q in self.seat_order(self.current):
                offers = self.context_offers(q, "nullify", None)
                if not offers:
                    continue
                labels = [o[0] for o in offers] + ["pass"]
                prompt = f"nullify {card.name}" + (f" on {target.label()}" if target else "")
                pick = self.ask(q, "nullify", prompt, labels)[0]
                if pick == len(offers):
                    continue
                c, use = self.realize_offer(q, offers[pick][1])
                if c is None:
                    continue
                self.use_card(q, c, use, [], "nullify", pending)
                answered = True
                break
            if not answered:
                break
        if pending.cancelled:
            rec.nullified = True
            self.emit_log("nullified", card=card.label(), target=target.label() if target else None)
        return pending.cancelled

    def context_offers(self, p: Player, context: str, fixed_target: Player | None) -> list[tuple[str, tuple]]:
        """Cards (and conversions) p could use now in a response context such as dying or nullify."""
        out: list[tuple[str, tuple]] = []
        for card in p.hand:
            for use in card.rule.uses:
                if use.context == context and self.can_use(p, card, use, fixed_target):
                    out.append((f"use {card.label()}", ("card", card, use)))
        for skill in p.skills:
            for va, probe, use in self.conversion_probes(p, skill, context):
                if self.can_use(p, probe, use, fixed_target):
                    out.append((f"{skill.name}: use as {probe.name}", ("viewas", skill, va, use)))
        return out

    def conversion_probes(self, p: Player, skill: SkillRule, context: str, family: str | None = None):
        """The skill's view-as conversions p could make now for a context, one per matching use clause,
        each probed with the first cards that fit (its suit and colour come from them)."""
        for va in skill.view_as:
            rule = self.program.cards[va.card]
            if family is not None and rule.family != family:
                continue
            uses = [u for u in rule.uses if u.context == context]
            if not uses:
                continue
            sources = self._viewas_sources(p, skill, va)
            if len(sources) < va.count:
                continue
            probe = VirtualCard(rule, tuple(sources[: va.count]), skill.ident)
            for use in uses:
                yield va, probe, use

    def realize_offer(self, p: Player, offer: tuple):
        if offer[0] == "card":
            return offer[1], offer[2]
        _, skill, va, use = offer
        return self.build_viewas(p, skill, va, optional=False), use

    # ------------------------------------------------------------ responding
    def respond(self, p: Player, family: str, times: int = 1, play: bool = False,
                against: Any = None, against_user: Player | None = None, use: Any = None) -> bool:
        """Ask p for `times` cards of a family (打出 when play, else 使用); True when all were given.

        When all were given, `answered` is emitted (e.g. a weapon acting after its card was dodged)."""
        for _ in range(max(0, times)):
            if not p.alive:
                return False
            given = self._respond_once(p, family, play, against, against_user)
            if given is None:
                return False
            ev = self.emit("responded", Event("responded", player=p, card=given, family=family, against=against,
                                              against_user=against_user, negated=False, play=play, use=use))
            if ev.negated:
                return False
        if times > 0:
            self.emit("answered", Event("answered", player=p, family=family, against=against,
                                        against_user=against_user, use=use, play=play))
        return True

    def _respond_offers(self, p: Player, family: str, play: bool,
                        tried: list[tuple[str, int]]) -> list[tuple[str, tuple]]:
        options: list[tuple[str, tuple]] = []
        for card in p.hand:
            if card.family == family:
                options.append((f"{'play' if play else 'use'} {card.label()}", ("card", card)))
        for skill in p.skills:
            for va in skill.view_as:
                rule = self.program.cards[va.card]
                if rule.family == family and len(self._viewas_sources(p, skill, va)) >= va.count:
                    options.append((f"{skill.name}: as {rule.name}", ("viewas", skill, va)))
            for i, prov in enumerate(skill.provides):
                rule = self.program.cards[prov.card]
                if rule.family != family or (skill.ident, i) in tried:
                    continue
                if prov.condition is None or prov.condition(self._provide_frame(p, skill, family)):
                    options.append((f"{skill.name}: provide {rule.name}", ("provide", skill, prov, i)))
        return options

    def _provide_frame(self, p: Player, skill: SkillRule, family: str) -> Frame:
        ctx = self._request_context
        return Frame(self, {"owner": p, "skill": skill, "family": family, "against": ctx[0],
                            "against_user": ctx[1], "play": ctx[2]})

    def _respond_once(self, p: Player, family: str, play: bool, against: Any, against_user) -> Any:
        """One card given in answer. A provide that fails to supply is not offered again for this card."""
        tried: list[tuple[str, int]] = []
        saved = self._request_context
        self._request_context = (against, against_user, play)
        try:
            while True:
                options = self._respond_offers(p, family, play, tried)
                if not options:
                    return None
                labels = [o[0] for o in options] + ["decline"]
                prompt = f"respond with {family}" + (f" to {against.name}" if against is not None else "")
                pick = self.ask(p, "respond", prompt, labels)[0]
                if pick == len(options):
                    return None
                opt = options[pick][1]
                if opt[0] == "card":
                    card = opt[1]
                elif opt[0] == "viewas":
                    card = self.build_viewas(p, opt[1], opt[2], optional=False)
                else:
                    _, skill, prov, i = opt
                    tried.append((skill.ident, i))
                    frame = self._provide_frame(p, skill, family)
                    self.emit_log("skill", player=p.label(), skill=skill.name)
                    run_rule(prov.body, frame)
                    if frame.supplied is None:
                        continue
                    card = frame.supplied
                    if isinstance(card, VirtualCard) and not card.subcards:
                        self._count_use(p, ("respond", card.family), None)
                        self.emit_log("respond", player=p.label(), card=card.label(), play=play)
                        return card
                if card is None:
                    return None
                self.move(card.physical, "processing", None)
                self._count_use(p, ("respond", card.family), None)
                self.emit_log("respond", player=p.label(), card=card.label(), play=play)
                left = [c for c in card.physical if c.zone == "processing"]
                if left:
                    self.move(left, "discard", None)
                return card
        finally:
            self._request_context = saved

    # ------------------------------------------------------------ delayed tricks & equipment
    def place_judge(self, card, target: Player) -> None:
        entry = card  # a converted card keeps its rule in the judge area (e.g. a suit used as a delayed trick)
        for c in card.physical:
            self._take_out(c)
            c.zone, c.holder = "judge", target
        target.judge.append(entry)
        self.emit_log("judge_area", card=card.label(), player=target.label())

    def move_judge(self, entry, target: Player) -> None:
        """Move a judge-area card (e.g. one that passes on) to another player's judge area."""
        for p in self.players:
            if entry in p.judge:
                p.judge.remove(entry)
        for c in entry.physical:
            c.zone, c.holder = "judge", target
        target.judge.append(entry)
        self.emit_log("judge_area", card=entry.label(), player=target.label())

    def resolve_delayed(self, p: Player, entry) -> None:
        rec = UseRecord(None, entry, p, [p], "judge")
        base = {"card": entry, "target": p, "owner": p, "user": None, "use": rec, "targets": [p], "event": None}
        self.emit_log("delayed", card=entry.label(), player=p.label())
        if self.nullify_window(entry, None, p, rec):
            hook = entry.rule.hooks.get("nullified")
            if hook is not None:
                run_rule(hook, Frame(self, dict(base)))
            elif entry in p.judge:
                self.discard(list(entry.physical), None)
            return
        if entry.rule.effect is not None:
            run_rule(entry.rule.effect, Frame(self, dict(base)))

    def equip(self, p: Player, card) -> None:
        slot = card.category
        old = p.equips.get(slot)
        if old is not None:
            self.discard([old], p)
        phys = card.physical[0] if isinstance(card, VirtualCard) else card
        self._take_out(phys)
        phys.zone, phys.holder = "equip", p
        p.equips[slot] = phys
        self.emit_log("equip", player=p.label(), card=phys.label())
        self.refresh_skills(p)

    # ------------------------------------------------------------ card movement
    def _take_out(self, c: Card) -> tuple[Player | None, str]:
        zone, holder = c.zone, c.holder
        if zone == "hand" and holder is not None:
            holder.hand.remove(c)
        elif zone == "equip" and holder is not None:
            for s, e in list(holder.equips.items()):
                if e is c:
                    del holder.equips[s]
        elif zone == "judge" and holder is not None:
            for entry in list(holder.judge):
                if c in entry.physical:
                    holder.judge.remove(entry)
        elif zone == "draw":
            self.draw_pile.remove(c)
        elif zone == "discard":
            self.discard_pile.remove(c)
        elif zone == "processing":
            self.processing.remove(c)
        return holder, zone

    def move(self, cards: Iterable[Card], zone: str, to: Player | None, top: bool = True) -> None:
        """Every card move goes through here, so losing cards is always an event."""
        losses: dict[tuple[int, str], list[Card]] = {}
        moved = []
        for c in cards:
            if isinstance(c, VirtualCard):
                for sub in c.subcards:
                    moved.append(sub)
            else:
                moved.append(c)
        for c in moved:
            holder, old = self._take_out(c)
            if holder is not None and old in ("hand", "equip"):
                losses.setdefault((holder.seat, old), []).append(c)
            c.zone, c.holder = zone, to
            if zone == "hand":
                assert to is not None
                to.hand.append(c)
            elif zone == "discard":
                self.discard_pile.append(c)
            elif zone == "processing":
                self.processing.append(c)
            elif zone == "draw":
                if top:
                    self.draw_pile.append(c)
                else:
                    self.draw_pile.insert(0, c)
            else:
                raise EngineError(f"cannot move a card to zone {zone!r}")
        for (seat, old), lost in sorted(losses.items()):
            holder = self.players[seat]
            if old == "equip":
                self.refresh_skills(holder, keep=[c.rule for c in lost])
            self.emit("lost_cards", Event("lost_cards", player=holder, cards=lost, zone=old))
            if old == "equip":
                self.refresh_skills(holder)

    def _reshuffle(self) -> None:
        if not self.discard_pile:
            raise GameOver((), "deck_exhausted")
        pile = self.discard_pile
        self.discard_pile = []
        self.rng.shuffle(pile)
        for c in pile:
            c.zone = "draw"
        self.draw_pile = pile + self.draw_pile
        self.emit_log("reshuffle", cards=len(pile))

    def draw(self, p: Player, n: int) -> list[Card]:
        got: list[Card] = []
        if not p.alive:
            return got
        for _ in range(max(0, n)):
            if not self.draw_pile:
                self._reshuffle()
            c = self.draw_pile[-1]
            got.append(c)
            self.move([c], "hand", p)
        if got:
            self.emit_log("draw", player=p.label(), n=len(got))
        return got

    def reveal_top(self) -> Card:
        if not self.draw_pile:
            self._reshuffle()
        c = self.draw_pile[-1]
        self.move([c], "processing", None)
        return c

    def discard(self, cards: Iterable[Any], by: Player | None) -> None:
        phys = []
        for c in cards:
            phys.extend(c.physical)
        if phys:
            self.emit_log("discard", cards=[c.label() for c in phys], by=by.label() if by else None)
            self.move(phys, "discard", None)

    def obtain(self, p: Player, cards: Iterable[Any]) -> None:
        phys = []
        for c in cards:
            phys.extend(x for x in c.physical if not (x.zone == "hand" and x.holder is p))
        if phys:
            self.emit_log("obtain", player=p.label(), cards=[c.label() for c in phys])
            self.move(phys, "hand", p)

    # ------------------------------------------------------------ damage, recovery, dying
    def damage(self, target: Player, amount: int, source: Player | None = None, card: Any = None,
               nature: str = "normal", chain: bool = False, use: Any = None) -> int:
        if not target.alive or amount <= 0:
            return 0
        ev = Event("damage", source=source, target=target, amount=amount, nature=nature, card=card,
                   chain=chain, use=use)
        if source is not None and source.alive:
            self.emit("causing_damage", ev)
        if not ev.cancelled:
            self.emit("taking_damage", ev)
        if ev.cancelled or ev.amount <= 0:
            self.emit_log("damage_prevented", target=target.label())
            return 0
        target.hp -= ev.amount
        self.emit_log("damage", target=target.label(), amount=ev.amount, nature=ev.nature,
                      source=source.label() if source else None, hp=target.hp,
                      card=card.label() if card is not None else None, **({"chain": True} if chain else {}))
        self.emit("damage_done", ev)
        if target.hp <= 0:
            self.enter_dying(target, source)
        if target.alive:
            self.emit("damaged", ev)
        self.emit("after_damage", ev)
        return ev.amount

    def lose_hp(self, p: Player, n: int) -> None:
        if not p.alive or n <= 0:
            return
        p.hp -= n
        self.emit_log("lose_hp", player=p.label(), n=n, hp=p.hp)
        self.emit("lost_hp", Event("lost_hp", player=p, amount=n))
        if p.hp <= 0:
            self.enter_dying(p, None)

    def recover(self, target: Player, amount: int, source: Player | None = None, card: Any = None) -> int:
        if not target.alive or amount <= 0:
            return 0
        ev = self.emit("recovering", Event("recovering", target=target, amount=amount, source=source, card=card))
        if ev.cancelled:
            return 0
        gained = max(0, min(target.max_hp - target.hp, ev.amount))
        if gained <= 0:
            return 0
        target.hp += gained
        self.emit_log("recover", target=target.label(), amount=gained, hp=target.hp)
        self.emit("recovered", Event("recovered", target=target, amount=gained, source=source, card=card))
        return gained

    def enter_dying(self, p: Player, killer: Player | None) -> None:
        if p.dying or not p.alive:
            return
        p.dying = True
        self.emit_log("dying", player=p.label(), hp=p.hp)
        ev = self.emit("dying", Event("dying", player=p, source=killer))
        for q in self.seat_order(self.current):
            while p.hp <= 0 and q.alive and p.alive:
                offers = self.context_offers(q, "dying", p)
                if not offers:
                    break
                labels = [o[0] for o in offers] + ["pass"]
                pick = self.ask(q, "rescue", f"rescue {p.label()}", labels)[0]
                if pick == len(offers):
                    break
                c, use = self.realize_offer(q, offers[pick][1])
                if c is None:
                    break
                self.use_card(q, c, use, [p], "dying", ev)
            if p.hp > 0 or not p.alive:
                break
        p.dying = False
        if p.hp <= 0 and p.alive:
            self.kill(p, killer)

    def kill(self, p: Player, killer: Player | None) -> None:
        self.deaths.append((p, killer, len(self.alive())))
        p.alive = False
        p.role_revealed = True
        self.emit_log("death", player=p.label(), role=p.role, killer=killer.label() if killer else None)
        self.discard(p.all_cards(), None)
        p.skills = []
        self.refresh_skills(p)
        self.check_wins()
        self.emit("died", Event("died", victim=p, killer=killer))
        if self.current is p:
            pass  # the turn loop notices the current player died

    def check_wins(self) -> None:
        for roles, cond in self.mode.wins:
            if cond(Frame(self, {})):
                raise GameOver(roles, "win")

    # ------------------------------------------------------------ judgement
    def judge(self, p: Player, reason: Any = None) -> Card:
        card = self.reveal_top()
        ev = Event("judging", player=p, card=card, reason=reason)
        self.emit_log("judge", player=p.label(), card=card.label())
        self.emit("judging", ev)
        self.emit("judged", ev)
        result = ev.card
        if result.zone == "processing":
            self.move([result], "discard", None)
        return result

    def retrial(self, ev: Event, card: Card) -> None:
        """Replace the card of a pending judgement (the old one is discarded)."""
        old = ev.card
        self.move([card], "processing", None)
        if old.zone == "processing":
            self.move([old], "discard", None)
        ev.card = card
        self.emit_log("retrial", old=old.label(), new=card.label())

    # ------------------------------------------------------------ skills, values, events
    def refresh_skills(self, p: Player, keep: Sequence[CardRule] = ()) -> None:
        skills: list[SkillRule] = []
        if p.alive:
            if p.general is not None:
                for s in p.general.skills:
                    if s.leader_only and (self.mode.leader is None or p.role != self.mode.leader):
                        continue
                    skills.append(s)
            for slot in EQUIP_SLOTS:
                if slot in p.equips:
                    skills.extend(p.equips[slot].rule.skills)
            for rule in keep:
                skills.extend(rule.skills)
            skills.extend(p.extra_skills)
        p.skills = skills
        trig: dict[str, list[tuple[SkillRule, TriggerRule]]] = {}
        mods: dict[str, list] = {}
        for s in skills:
            for t in s.triggers:
                trig.setdefault(t.timing, []).append((s, t))
            for m in s.modifiers:
                mods.setdefault(m.quantity, []).append((s, m))
        p.triggers = trig  # type: ignore[attr-defined]
        p.modifiers = mods  # type: ignore[attr-defined]
        # which seats modify which value: value() then visits only those (in seat order)
        index = self._modifier_seats
        for name in list(index):
            if p.seat in index[name] and name not in mods:
                index[name] = [x for x in index[name] if x != p.seat]
        for name in mods:
            seats = index.setdefault(name, [])
            if p.seat not in seats:
                seats.append(p.seat)
                seats.sort()
        listening = self._trigger_seats
        for name in list(listening):
            if p.seat in listening[name] and name not in trig:
                listening[name].discard(p.seat)
        for name in trig:
            listening.setdefault(name, set()).add(p.seat)

    def emit(self, timing: str, ev: Event) -> Event:
        if not self._trigger_seats.get(timing) and timing not in self.global_triggers:
            return ev  # an event nobody listens to costs next to nothing
        for p in self.seat_order(self.current):
            entries = getattr(p, "triggers", {}).get(timing)
            if not entries:
                continue
            for skill, trig in list(entries):
                if not p.alive:
                    break
                frame = Frame(self, {"owner": p, "event": ev, "skill": skill})
                if trig.condition is not None and not trig.condition(frame):
                    continue
                if trig.optional and not self.confirm(p, f"use {skill.name}?"):
                    continue
                self.emit_log("skill", player=p.label(), skill=skill.name, timing=timing)
                run_rule(trig.body, frame)
        for trig in self.global_triggers.get(timing, ()):
            frame = Frame(self, {"owner": None, "event": ev})
            if trig.condition is None or trig.condition(frame):
                run_rule(trig.body, frame)
        return ev

    def value(self, name: str, *args: Any) -> Any:
        rule = self.program.values.get(name)
        if rule is None and not self._modifier_seats.get(name):
            # the common case: an engine value nobody modifies costs one call
            return _engine_values()[name].default(self, *args)
        if rule is not None:
            frame = Frame(self, dict(zip(rule.params, args, strict=False)))
            base = rule.base(frame)
            params = rule.params
        else:
            spec = _engine_values()[name]
            base = spec.default(self, *args)
            params = spec.params
            frame = None
        override = None
        for seat in self._modifier_seats.get(name, ()):
            p = self.players[seat]
            if not p.alive:
                continue
            mods = getattr(p, "modifiers", {}).get(name)
            if not mods:
                continue
            for skill, m in mods:
                bindings = {"owner": p, "skill": skill}
                bindings.update(zip(m.params or params, args, strict=False))
                f = Frame(self, bindings)
                if m.condition is not None and not m.condition(f):
                    continue
                v = m.value(f)
                if m.op == "to":
                    override = v
                else:
                    base = base + v
        result = override if override is not None else base
        if rule is not None and frame is not None:
            if rule.lower is not None:
                result = max(result, rule.lower(frame))
            if rule.upper is not None:
                result = min(result, rule.upper(frame))
        return result

    def seat_distance(self, a: Player, b: Player) -> int:
        if a is b:
            return 0
        alive = self.alive()
        if a not in alive or b not in alive:
            return UNLIMITED
        i, j = alive.index(a), alive.index(b)
        d = abs(i - j)
        return min(d, len(alive) - d)

    def distance(self, a: Player, b: Player) -> int:
        if a is b:
            return 0
        return max(1, self.value("distance", a, b))

    # ------------------------------------------------------------ marks
    def set_mark(self, holder: Any, name: str, value: Any, until: str) -> None:
        marks = holder.marks
        marks[name] = value
        if until != "forever":
            holder.mark_scopes[name] = until
        elif hasattr(holder, "mark_scopes"):
            holder.mark_scopes.pop(name, None)

    # ------------------------------------------------------------ decisions
    def ask(self, p: Player, kind: str, prompt: str, labels: Sequence[str], low: int = 1, high: int = 1) -> list[int]:
        req = Request(p.seat, kind, prompt, tuple(labels), low, high)
        agent = self.agents[p.seat]
        h = self.state_hash() if self.record else ""
        answer = agent.decide(req, SeatView(self, p))
        self._validate(agent, req, answer)
        self.decisions += 1
        self.answers.append(list(answer))
        if self.record:
            self.hashes.append(h)
            self.log.append({"ask": p.seat, "kind": kind, "prompt": prompt, "options": list(labels),
                             "answer": list(answer), "hash": h})
        return list(answer)

    def _validate(self, agent: Agent, req: Request, answer: Any) -> None:
        if not isinstance(answer, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in answer):
            raise IllegalAnswer(agent.name, req.describe(), answer, "an answer is a list of option numbers")
        if len(set(answer)) != len(answer):
            raise IllegalAnswer(agent.name, req.describe(), answer, "an option was chosen twice")
        if not req.low <= len(answer) <= req.high:
            raise IllegalAnswer(agent.name, req.describe(), answer, f"choose between {req.low} and {req.high} options")
        for a in answer:
            if not 0 <= a < len(req.options):
                raise IllegalAnswer(agent.name, req.describe(), answer, f"option {a} does not exist")

    def confirm(self, p: Player, prompt: str) -> bool:
        return self.ask(p, "confirm", prompt, ["yes", "no"])[0] == 0

    def choose_many(self, p: Player, items: Sequence[Any], low: int, high: int, prompt: str) -> list[Any]:
        items = list(items)
        if not items or high <= 0:
            return []
        low, high = min(low, len(items)), min(high, len(items))
        if low == len(items) and high == len(items):
            return items
        picks = self.ask(p, "choose", prompt, [self.item_label(x, p) for x in items], low, high)
        return [items[i] for i in picks]

    def choose_one(self, p: Player, items: Sequence[Any], optional: bool, prompt: str) -> Any:
        got = self.choose_many(p, items, 0 if optional else 1, 1, prompt)
        return got[0] if got else None

    def item_label(self, x: Any, viewer: Player) -> str:
        if isinstance(x, Card):
            if x.zone == "hand" and x.holder is not viewer:
                return f"hand card of {x.holder.label() if x.holder else '?'}"
            return x.label()
        if isinstance(x, Player):
            return x.label()
        if isinstance(x, GeneralRule):
            return x.name
        return str(x)

    def view(self, p: Player) -> dict[str, Any]:
        """What seat p may see: its own hand, public zones, revealed roles."""
        return {
            "seat": p.seat,
            "hand": [c.label() for c in p.hand],
            "role": p.role,
            "players": [
                {"seat": q.seat, "general": q.name, "hp": q.hp, "max_hp": q.max_hp, "alive": q.alive,
                 "hand": len(q.hand), "equips": [e.label() for e in q.equips.values()],
                 "judge": [j.label() for j in q.judge],
                 "role": q.role if (q.role_revealed or q is p) else "hidden"}
                for q in self.players
            ],
            "draw_pile": len(self.draw_pile),
            "discard_top": [c.label() for c in self.discard_pile[-5:]],
        }

    # ------------------------------------------------------------ log & hash
    def emit_log(self, kind: str, **data: Any) -> None:
        if self.record:
            data["e"] = kind
            self.log.append(data)

    def state_hash(self) -> str:
        parts = [self.round, self.turns, self.current.seat, self.phase,
                 tuple(c.id for c in self.draw_pile), tuple(c.id for c in self.discard_pile),
                 tuple(c.id for c in self.processing)]
        for p in self.players:
            parts.append((p.hp, p.max_hp, p.alive, p.role, p.chained, p.general.ident if p.general else "",
                          tuple(c.id for c in p.hand), tuple(sorted((s, c.id) for s, c in p.equips.items())),
                          tuple(tuple(c.id for c in j.physical) for j in p.judge),
                          tuple(sorted((k, str(v)) for k, v in p.marks.items()))))
        return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()

    # ------------------------------------------------------------ general selection (set-up)
    def set_general(self, p: Player, g: GeneralRule | None) -> None:
        p.general = g
        if g is not None:
            p.hp = p.max_hp = g.hp
            p.kingdom, p.gender = g.kingdom, g.gender
        self.refresh_skills(p)
        self.emit_log("general", player=p.label(), general=g.name if g else None)


class SeatView(Mapping):
    """The view of one seat, built only when an agent reads it (random agents never do)."""

    def __init__(self, game: Game, player: Player):
        self._game = game
        self._player = player
        self._data: dict[str, Any] | None = None

    def _load(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._game.view(self._player)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __iter__(self):
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


_VALUES: dict[str, Any] = {}


def _engine_values() -> dict[str, Any]:
    """The registry's engine values (imported late: the registry imports this module)."""
    if not _VALUES:
        from .registry import ENGINE_VALUES

        _VALUES.update(ENGINE_VALUES)
    return _VALUES
