"""Turns: their phases in order, turning a character over (翻面), extra turns and skipped turns.

A turn that would start can be skipped as a whole (no phases, no turn_start or turn_end): a face-down
character turns face up instead, and a character with a pending `skip_turn` loses that turn. Extra turns are
queued and played right after the turn in progress, one after another.
"""

from __future__ import annotations

from .agents import DECLARED, GENUINE
from .decisions import Decisions, blank, hints_of, sorted_hints
from .dispatch import Dispatch, new_event
from .errors import Horizon, RuleError
from .events import MAX_EXTRA_TURNS, MAX_PLAY_ACTIONS
from .model import PHASES, Card, Player, VirtualCard
from .snapshots import take_snapshot
from .state import GameState
from .using import CardUse
from .zones import Zones

# the mark that skips each phase (made once, not once a phase)
SKIP_MARKS = {phase: "skip_" + phase for phase in PHASES}
END_HINTS = ("end",)  # the hints of the play menu's last option, ending the phase


class TurnFlow:
    """Turns and their phases, face up / face down, extra turns and skipped turns."""

    def __init__(self, game: GameState, choices: Decisions, dispatch: Dispatch, zones: Zones, use: CardUse):
        self.game = game
        self.choices = choices
        self.dispatch = dispatch
        self.zones = zones
        self.use = use
        # each phase's own part, looked up once (not by name at every phase of every turn)
        self._phase_bodies = {phase: getattr(self, "_phase_" + phase) for phase in PHASES}

    def turn_over(self, p: Player) -> None:
        """Toggle face up / face down (a dead character is not turned)."""
        if not p.alive:
            return
        p.face_down = not p.face_down
        self.game.emit_log("turn_over", player=p.label(), face_down=p.face_down)
        self.dispatch.emit("turned_over", new_event("turned_over", {"player": p, "face_down": p.face_down}))

    def queue_extra_turn(self, p: Player) -> None:
        g = self.game
        g.extra_granted += 1
        if g.extra_granted > MAX_EXTRA_TURNS:  # (raised in the granting rule, so the error names its line)
            raise RuleError(f"extra_turn: more than {MAX_EXTRA_TURNS} extra turns granted after one ordinary turn: a "
                            "rule grants them without end")
        g.extra_queue.append(p)
        self.game.emit_log("extra_turn_gained", player=p.label())

    def skip_turn(self, p: Player) -> None:
        p.skip_turns += 1
        self.game.emit_log("skip_turn", player=p.label())

    def turn_skipped(self, p: Player) -> bool:
        """Called when p's turn would start: true (and the turn is skipped) when p is face down or owes a
        skipped turn. A face-down character turns face up; one skip is used up."""
        reason = None
        if p.skip_turns > 0:
            p.skip_turns -= 1
            reason = "skipped"
        if p.face_down:
            reason = reason or "face_down"
            self.game.current = p
            self.game.emit_log("turn_skipped", player=p.label(), reason=reason)
            self.turn_over(p)
            return True
        if reason is not None:
            self.game.emit_log("turn_skipped", player=p.label(), reason=reason)
            return True
        return False

    def play_extra_turns(self) -> None:
        """The extra turns gained so far, each right after the previous one (an extra turn may gain more)."""
        while self.game.extra_queue:
            p = self.game.extra_queue.pop(0)
            if not p.alive:
                continue
            self.game.emit_log("extra_turn", player=p.label())
            saved = self.game.extra_now
            self.game.extra_now = True
            try:
                self._play_turn(p, PHASES)
            finally:
                self.game.extra_now = saved

    # ------------------------------------------------------------ turns and phases
    def clear_scope(self, scope: str) -> None:
        g = self.game
        counts = g.usage[scope]
        if counts:
            counts.clear()
        if g.skills_scoped:  # (some skill was gained for less than the game: it may end now)
            self.dispatch.expire_skills(scope)
        scoped = g.scoped_holders  # (only they can hold a mark that ends now)
        if not scoped:
            return
        for holder in scoped:
            gone = [k for k, s in holder.mark_scopes.items() if s == scope]
            for k in gone:
                holder.marks.pop(k, None)
                holder.mark_scopes.pop(k, None)
        self.game.scoped_holders = [h for h in scoped if h.mark_scopes]

    # ------------------------------------------------------------ turns
    def take_turn(self, p: Player, first_phase: str | None = None, last_phase: str | None = None) -> None:
        """Play p's turn. `first_phase`/`last_phase` play only part of it (scenario tests start a position
        mid-turn): a turn resumed after its first phase does not fire turn_start, one cut before its last
        phase does not fire turn_end or clear the turn's scope."""
        phases = PHASES[PHASES.index(first_phase) if first_phase else 0:
                        PHASES.index(last_phase) + 1 if last_phase else len(PHASES)]
        g = self.game
        outer = g.in_turn
        if not outer:
            g.extra_granted = 0
            left = g.turns_left  # (a game continued from a snapshot: a search rollout's horizon)
            if left is not None:
                if left <= 0:
                    raise Horizon()
                g.turns_left = left - 1
            if g.searching:  # an agent searches: the turn's start is kept (engine/snapshots.py)
                g.turn_snapshot = take_snapshot(g, p, first_phase, last_phase)
        g.in_turn = True
        try:
            self._play_turn(p, phases)
            if not outer and phases[-1:] == PHASES[-1:]:
                self.play_extra_turns()
        finally:
            g.in_turn = outer
            if not outer:
                g.turn_snapshot = None

    def _play_turn(self, p: Player, phases: tuple[str, ...]) -> None:
        if phases[:1] == PHASES[:1] and self.turn_skipped(p):
            return
        self.game.current = p
        self.game.turns += 1
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("turn", player=p.label(), turn=self.game.turns)
        if phases[:1] == PHASES[:1] and self.dispatch.listens("turn_start"):
            self.dispatch.emit("turn_start", new_event("turn_start", {"player": p}))
        for phase in phases:
            if not p.alive:
                break
            self.game.phase = phase
            self._play_phase(p, phase)
            # a skipped phase ends too: its counters and phase-length marks never reach the next phase
            self.clear_scope("phase")
        if phases[-1:] != PHASES[-1:]:
            return
        self.game.phase = "none"
        if p.alive and self.dispatch.listens("turn_end"):
            self.dispatch.emit("turn_end", new_event("turn_end", {"player": p}))
        self.clear_scope("turn")

    def _play_phase(self, p: Player, phase: str) -> None:
        """One phase of p's turn, unless it is skipped (by a mark or by cancelling before_phase)."""
        if p.marks.get(SKIP_MARKS[phase]):
            self.game.emit_log("phase_skipped", player=p.label(), phase=phase)
            return
        heard = self.game.heard  # (an event nobody listens to is not even made: Dispatch.listens)
        if "before_phase" in heard and \
                self.dispatch.emit("before_phase", new_event("before_phase", {"player": p, "phase": phase})).cancelled:
            self.game.emit_log("phase_skipped", player=p.label(), phase=phase)
            return
        if "phase_start" in heard:
            self.dispatch.emit("phase_start", new_event("phase_start", {"player": p, "phase": phase}))
        if p.alive:
            self._phase_bodies[phase](p)
        if p.alive and "phase_end" in heard:
            self.dispatch.emit("phase_end", new_event("phase_end", {"player": p, "phase": phase}))

    def phase_stake(self, p: Player, phase: str) -> int:
        """What one of p's phases holds for it now, for an agent asked whether to skip it (`Request.skips`): the
        cards waiting in its judge area, the cards its draw phase would draw, the cards in its hand for the play
        phase, the cards its discard phase would make it discard; 0 for the others."""
        if phase == "judge":
            return len(p.judge)
        if phase == "draw":
            return max(0, self.dispatch.value("draw_count", p))
        if phase == "play":
            return len(p.hand)
        if phase == "discard":
            return max(0, len(p.hand) - max(0, self.dispatch.value("hand_limit", p)))
        return 0

    def _phase_prepare(self, p: Player) -> None:
        pass

    def _phase_finish(self, p: Player) -> None:
        pass

    def _phase_judge(self, p: Player) -> None:
        for entry in list(reversed(p.judge)):
            if not p.alive or entry not in p.judge:
                continue
            self.use.resolve_delayed(p, entry)

    def _phase_draw(self, p: Player) -> None:
        ev = self.dispatch.emit("drawing", new_event("drawing", {"player": p,
                                                                 "amount": self.dispatch.value("draw_count", p)}))
        if not ev.cancelled and ev.amount > 0:
            self.zones.draw(p, ev.amount)

    def _phase_discard(self, p: Player) -> None:
        excess = len(p.hand) - max(0, self.dispatch.value("hand_limit", p))
        if excess > 0:
            chosen = self.choices.choose_many(p, list(p.hand), excess, excess, "discard down to your hand limit")
            self.zones.discard(chosen, p)

    def _phase_play(self, p: Player) -> None:
        # the no-loop guard: options that were just used and changed nothing on the table, and the table they left
        # as it was. While the table stays so, they are not offered again (asking the same of the same seats from
        # the same position gives nothing new); any change brings them back.
        futile: list[tuple] = []
        futile_at: tuple | None = None
        # the table as the last action left it: nothing changes it until the next action runs (the menu and the
        # agent's answer only read), so it is also the table before that action, and is taken once per action
        now: tuple | None = None
        for _ in range(MAX_PLAY_ACTIONS):
            if not p.alive or self.game.current is not p or p.marks.get("end_play"):  # end_phase() ends it
                return
            blind = self.choices.blind(p)  # (nobody reads what the options are: no labels, no tags)
            shows_reach = not blind and self.choices.shows_reach(p)
            options = self.use.play_options(p, labelled=not blind, reach=shows_reach)
            if futile:
                if now == futile_at:
                    options = [o for o in options if option_key(o[1]) not in futile]
                else:
                    futile, futile_at = [], None
            if blind:
                pick = self.choices.ask(p, "play", "choose a card or skill to use", blank(len(options) + 1))[0]
            else:
                labels = [o[0] for o in options]
                labels.append("end play phase")
                hints = self.option_hints
                tags = [hints(o[1]) for o in options]
                tags.append(END_HINTS)
                costs: list[tuple[int, ...] | None] | None = None
                if shows_reach:  # (each aimed card's targets as the menu kept them, conversions' too)
                    option_reach = self.use.option_reach
                    reach = [option_reach(p, o[1]) for o in options]
                    reach.append(None)
                    costs = self.use.reach_costs(p, options)
                    if costs is not None:
                        costs.append(None)
                else:
                    reach = []
                pick = self.choices.ask(p, "play", "choose a card or skill to use", labels, option_tags=tags,
                                        option_reach=reach, option_reach_costs=costs or ())[0]
            if pick == len(options):
                return
            before = now if now is not None else self.table_mark(p)
            self.use.run_play_option(p, options[pick][1])
            now = self.table_mark(p)
            if now == before:
                futile.append(option_key(options[pick][1]))
                futile_at = before
                if self.game.record:  # (a reader sees that the action was made and came to nothing)
                    self.game.emit_log("came_to_nothing", player=p.label(), what=self.option_name(options[pick][1]))

    def table_mark(self, p: Player) -> tuple:
        """What an action in p's play phase could have changed, cheaply: every seat's health, cards held (counts;
        p's own hand and equipment card by card), marks, skills gained and lost, and turn state, the piles' sizes,
        the public histories and the step of the turn. Counters of uses and the log are left out: using an option
        always moves them."""
        game = self.game
        seats = [(q.hp, q.max_hp, q.alive, len(q.hand), len(q.equips), len(q.judge), q.face_down, q.chained,
                  q.skip_turns, len(q.piles), len(q.extra_skills), len(q.lost_skills),
                  dict(q.marks) if q.marks else None) for q in game.players]
        return (seats, [c.id for c in p.hand], [c.id for c in p.equips.values()], len(game.draw_pile),
                len(game.discard_pile), len(game.processing), len(game.damage_history), len(game.recover_history),
                game.current.seat, game.phase, dict(game.marks) if game.marks else None)

    @staticmethod
    def option_name(option: tuple) -> str:
        """A play-menu option's skill or card, named for a log entry."""
        part = option[1]
        return str(part.name) if option[0] in ("active", "granted", "viewas", "viewas_recast") else part.label()

    def option_hints(self, option: tuple) -> tuple[str, ...]:
        """What a play-menu option is, for agents: the card's tags and category, or the kind of option."""
        kind = option[0]
        if kind == "card":
            return hints_of(option[1])
        if kind == "viewas":  # the card it makes, and the skill's `risk`: what the card costs is the skill's (蛊惑)
            skill, va = option[1], option[2]
            rule = self.game.program.cards[va.card]
            out = tuple(sorted(rule.tags)) + (rule.category, "conversion") + (
                ("risk",) if "risk" in skill.tags and "risk" not in rule.tags else ())
            if va.declared:  # a face-down declaration, and whether it can be made true
                out += (DECLARED, GENUINE) if self.use.can_declare_truly(self.game.current, skill, va) else (DECLARED,)
            return out
        if kind == "viewas_recast":  # a conversion recast: its skill's `risk` too (蛊惑's may be questioned)
            return ("viewas_recast", "conversion", "risk") if "risk" in option[1].tags else (kind,)
        if kind == "granted" and option[1].grant_tags:  # another's action, as its user's side reads it (纳贤)
            return sorted_hints(option[1].grant_tags, "skill")
        if kind in ("active", "granted"):  # a skill's own action, or one another's skill grants ("limited" too)
            return hints_of(option[1])
        return (kind,)


def option_key(option: tuple) -> tuple:
    """A play-menu option as something that compares equal from one menu to the next: its kind, and each part by
    its identity (a card by id, a seat by number, a rule by the object it is; a converted probe card is rebuilt at
    every menu, so by its name and sources)."""
    out: list[object] = [option[0]]
    for part in option[1:]:
        if isinstance(part, Player):
            out.append(("seat", part.seat))
        elif isinstance(part, (int, str)):
            out.append(part)
        elif isinstance(part, VirtualCard):
            out.append(("virtual", part.name, tuple(c.id for c in part.subcards)))
        elif isinstance(part, Card):
            out.append(("card", part.id))
        else:
            out.append(("rule", id(part)))
    return tuple(out)
