"""Skills, events, values and marks: how rule objects are found and run at each timing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .decisions import Decisions, hints_of
from .errors import RuleError
from .events import MAX_EVENT_DEPTH, UNLIMITED, Event, run_rule
from .model import EQUIP_SLOTS, Card, Player
from .program import CardRule, Frame, ModifierRule, SkillRule, TriggerRule
from .registry import ENGINE_VALUES
from .registry.arguments import none_argument, wrong_argument
from .registry.core import ABOUT_FIELD, CANCEL_EFFECTS_BY_FAMILY, CANCELS, befallen, named_in
from .runtime import spend
from .state import GameState

_blank_event = object.__new__


def new_event(name: str, fields: dict[str, Any]) -> Event:
    """An event whose fields are FIELDS, a dict the caller made for it and gives up (it becomes the event's own).
    The engine makes hundreds of events a game: this costs a third of `Event(name, **fields)`, which builds a
    keyword dict, runs a Python `__init__` and copies the dict again, even when the caller is native code. (Here,
    not beside `Event`: this module is compiled in the native build, the one defining `Event` is not.)"""
    fields["name"] = name
    fields["cancelled"] = False
    ev = _blank_event(Event)
    ev.__dict__ = fields
    return ev


class Dispatch:
    """Which skills each character has, and what they do: triggers run at timings, modifiers change values."""

    def __init__(self, game: GameState, choices: Decisions):
        self.game = game
        self.choices = choices
        # per value: (its chain then, what `owner_keyed` found in it), made again when refresh_skills makes a new chain
        self._keyed: dict[str, tuple[Any, Any]] = {}
        # what one of a seat's phases holds for it (TurnFlow.phase_stake, given once the turn flow is made: it is
        # built on this dispatcher), told to an agent asked whether to skip that phase
        self.phase_stake: Callable[[Player, str], int] | None = None

    # ------------------------------------------------------------ skills, values, events
    def refresh_skills(self, p: Player, keep: Sequence[CardRule] = ()) -> None:
        """Work out p's skills afresh (its general's, its equipment's, KEEP's: equipment just lost, still heard by
        its lost_cards event) and the tables that follow from them: p's triggers by timing and modifiers by value,
        the seats listening to each timing and modifying each value, the value chains and the plain values."""
        skills: list[SkillRule] = []
        if p.alive:
            skills.extend(self.own_skills(p))
            for slot in EQUIP_SLOTS:
                if slot in p.equips:
                    skills.extend(p.equips[slot].rule.skills)
            for rule in keep:
                skills.extend(rule.skills)
        old = p.skills
        if len(skills) == len(old) and all(a is b for a, b in zip(skills, old, strict=True)):
            return  # the same skills (equipment lost but kept for its event, a death with none left): every table
            # below is made from them and is already what it would be made anew
        p.skills = skills
        trig, mods = skill_tables(skills)
        old_trig, old_mods = p.triggers, p.modifiers
        p.triggers = trig
        p.modifiers = mods
        # which seats modify which value: value() then visits only those (in seat order). p's seat is listed under
        # exactly the values its skills modified until now (only this method writes the index), so only those and
        # the new ones change, and a value's chain is made anew only where p's own modifiers of it changed
        index = self.game.modifier_seats
        touched = [name for name, pairs in mods.items() if not _same_pairs(pairs, old_mods.get(name))]
        for name in old_mods:
            if name not in mods:
                index[name] = [x for x in index[name] if x != p.seat]
                touched.append(name)
        for name in mods:
            seats = index.setdefault(name, [])
            if p.seat not in seats:
                seats.append(p.seat)
                seats.sort()
        # ... and, per value, every (character, skill, modifier) in that order, so value() walks one flat list
        chains = self.game.value_chains
        players = self.game.players
        plain = self.game.plain_values
        for name in touched:
            chains[name] = [(q, s, m) for seat in index.get(name, ()) for q in (players[seat],)
                            for s, m in q.modifiers.get(name, ())]
            default = None if chains[name] else self.game.plain_default(name)
            if default is None:
                plain.pop(name, None)
            else:
                plain[name] = default
        granting = self.game.granting
        if any(a.granted for s in skills for a in s.actives):
            granting.add(p.seat)
        else:
            granting.discard(p.seat)
        # the seats listening to each timing: likewise p's seat is under exactly the timings it listened to
        listening = self.game.trigger_seats
        heard = self.game.heard
        for name in old_trig:
            if name not in trig:
                listening[name].discard(p.seat)
                if not listening[name] and name not in self.game.global_triggers:
                    heard.discard(name)
        for name in trig:
            listening.setdefault(name, set()).add(p.seat)
            heard.add(name)
        for name in {**old_trig, **trig}:  # (in a fixed order: the tables' own)
            # a timing's guards follow from its listening seats and their triggers: where p's are the very same
            # (skill, trigger) pairs as before, p's seat listens there still and nothing of that timing changed
            if not _same_pairs(trig.get(name), old_trig.get(name)):
                self.game.guard_timing(name)
        # cards count as printed unless some skill in play says otherwise (a card's suit and rule read this flag)
        self.game.counts_as = bool(index.get("card_suit") or index.get("card_color") or index.get("card_name")) \
            or self.game.used_face_kept

    def own_skills(self, p: Player) -> list[SkillRule]:
        """The character's own skills (not its equipment's): its general's, less those it lost, then those it
        gained. A leader skill counts only while p holds the mode's leader role, gained or not. A skill barred from
        p's general (restricted play, `GameState.barred`) never counts, gained or not."""
        out: list[SkillRule] = []
        leader = self.game.mode.leader is not None and p.role == self.game.mode.leader
        if p.general is not None:
            out.extend(s for s in p.general.skills if s.ident not in p.lost_skills and (leader or not s.leader_only))
        for s in p.extra_skills:
            if (leader or not s.leader_only) and not any(x.ident == s.ident for x in out):
                out.append(s)
        if self.game.barred and p.general is not None:
            bar = self.game.barred.get(p.general.ident)
            if bar:
                out = [s for s in out if s.ident not in bar]
        return out

    def gain_skill(self, p: Player, skill: SkillRule, until: str = "forever") -> None:
        """p gains a skill, until the end of the phase, turn or round, or for the rest of the game."""
        if any(s.ident == skill.ident for s in p.extra_skills):
            return
        p.extra_skills.append(skill)
        if until != "forever":
            p.extra_scopes[skill.ident] = until
            self.game.skills_scoped = True
        self.game.emit_log("gain_skill", player=p.label(), skill=skill.name)
        self.refresh_skills(p)

    def lose_skill(self, p: Player, skill: SkillRule) -> None:
        """p loses a skill, its general's or a gained one, for the rest of the game (until gained again)."""
        had = any(s.ident == skill.ident for s in self.own_skills(p))
        p.extra_skills = [s for s in p.extra_skills if s.ident != skill.ident]
        p.extra_scopes.pop(skill.ident, None)
        if p.general is not None and any(s.ident == skill.ident for s in p.general.skills) \
                and skill.ident not in p.lost_skills:
            p.lost_skills.append(skill.ident)
        if had:
            self.game.emit_log("lose_skill", player=p.label(), skill=skill.name)
        self.refresh_skills(p)
        if had:
            self.emit("skill_lost", new_event("skill_lost", {"player": p, "skill": skill}))
        elif self.game.zero_hp:
            self.zero_hp_recheck()

    def lose_all_skills(self, p: Player) -> None:
        """p loses every skill it has now (its general's, leader skills and gained ones; equipment keeps working)."""
        for s in list(self.own_skills(p)) + list(p.extra_skills):
            self.lose_skill(p, s)
        if p.general is not None:
            for s in p.general.skills:  # leader skills it does not hold now are lost too
                if s.ident not in p.lost_skills:
                    p.lost_skills.append(s.ident)
        self.refresh_skills(p)
        if self.game.zero_hp:
            self.zero_hp_recheck()

    def expire_skills(self, scope: str) -> None:
        """Gained skills whose lifetime ends with this phase, turn or round are lost."""
        if not self.game.skills_scoped:  # (no skill was ever gained for less than the game)
            return
        for p in self.game.players:
            if not p.extra_scopes:
                continue
            gone = [s for s in p.extra_skills if p.extra_scopes.get(s.ident) == scope]
            if not gone:
                continue
            p.extra_skills = [s for s in p.extra_skills if s not in gone]
            for s in gone:
                p.extra_scopes.pop(s.ident, None)
                self.game.emit_log("lose_skill", player=p.label(), skill=s.name)
            self.refresh_skills(p)

    def listens(self, timing: str) -> bool:
        """Some skill in play or some rule listens to TIMING (else the engine need not even make its event)."""
        return timing in self.game.heard

    def emit(self, timing: str, ev: Event, victim: Player | None = None) -> Event:
        """Run every trigger of a timing: characters' skills round the table from the current player (in the
        mode's trigger_order), then the game's rules and the mode's. `victim`: a character who has just died and
        whose skills still answer."""
        if timing not in self.game.heard:
            if self.game.zero_hp:  # someone kept alive at 0 HP or less: does the rule still keep it?
                self.zero_hp_recheck()
            return ev  # an event nobody listens to costs next to nothing
        ev.timing = timing  # what a rule may change in it depends on the timing it is at (runtime.set_attr)
        if self.game.emit_depth >= MAX_EVENT_DEPTH:
            raise RuleError(f"{self._listener_line(timing)}events nest more than {MAX_EVENT_DEPTH} deep (at {timing}): "
                            "a trigger keeps firing its own timing")
        guards = self.game.timing_guards.get(timing)
        if guards is not None and not self._could_fire(guards, ev.__dict__):  # (compiled rules)
            if self.game.zero_hp:  # no listener's condition could hold: as if nobody listened
                self.zero_hp_recheck()
            return ev
        self.game.emit_depth += 1
        try:
            self._dispatch(timing, ev, victim)
        finally:
            self.game.emit_depth -= 1
        if self.game.zero_hp:
            self.zero_hp_recheck()
        return ev

    def _could_fire(self, guards: tuple[tuple[int, str | None, tuple[str, str] | None], ...],
                    fields: dict[str, Any]) -> bool:
        """Whether some listener's guards let its condition hold for an event with these fields: its owner field
        names its own character (or is absent), and its field guard's field holds its text (or is not text)."""
        players = self.game.players
        for seat, owner, text in guards:
            if owner is not None and owner in fields and fields[owner] is not players[seat]:
                continue  # (the first test of its condition, event.F == owner, is false)
            if text is not None:
                got = fields.get(text[0])
                if type(got) is str and got != text[1]:
                    continue  # (one of its leading tests, event.F == text, is false)
            return True
        return False

    def zero_hp_recheck(self) -> None:
        """Re-check those kept alive at 0 HP or less (alive_at_zero): after every event and card move."""
        check = self.game.zero_hp_check
        if check is not None:
            check()

    def _listener_line(self, timing: str) -> str:
        """`FILE:LINE: ` of a rule or skill listening to TIMING (where a runaway nesting comes from), or ''."""
        entries = [trig for _, trig in (e for p in self.game.players for e in p.triggers.get(timing, ()))]
        lines = [t.line for t in [*entries, *self.game.global_triggers.get(timing, ())] if t.line]
        return f"{lines[0]}: " if lines else ""

    def _dispatch(self, timing: str, ev: Event, victim: Player | None) -> None:
        # The seats listening: refresh_skills changes this very set in place, so an earlier trigger that gives or
        # takes skills is seen by the later seats. With none listening now, no skill runs to add one.
        seats = self.game.trigger_seats.get(timing) or ()
        g = self.game
        # (the dead are skipped below, the victim aside: the whole rotation serves in seat order)
        order = () if not seats else g.rotation(g.current) if g.mode.trigger_order != "clockwise" else \
            g.circle(g.current, "clockwise", include_dead=victim is not None)
        fields = ev.__dict__
        for p in order:
            if p.seat not in seats:
                continue
            if not p.alive and p is not victim:
                continue
            entries = p.triggers.get(timing)
            if not entries:
                continue
            # (refresh_skills gives p a new table of new lists: a skill gained or lost by an earlier trigger leaves
            # this list as it was, so it needs no copy)
            for skill, trig in entries:
                if not p.alive and p is not victim:
                    break
                if skill.once and self.skill_spent(p, skill):
                    continue
                limit = trig.limit
                field = trig.owner_field  # its condition starts `event.FIELD == owner`: false for another's event
                if field is not None and limit is None and field in fields and fields[field] is not p:
                    continue
                direct = trig.condition_direct
                if limit is None and direct is not None:  # (compiled) the condition needs no frame
                    if not direct(g.bare_frame, p, ev, skill):
                        continue
                    frame = Frame(g, {"owner": p, "event": ev, "skill": skill})
                else:
                    frame = Frame(g, {"owner": p, "event": ev, "skill": skill})
                    if limit is not None and \
                            g.usage[trig.limit_scope or ""].get((p.seat, ("trigger", skill.ident, trig.index)), 0) \
                            >= limit(frame):
                        continue  # (a limit always comes with its scope: the parser requires `per SCOPE`)
                    if trig.condition is not None and not trig.condition(frame):
                        continue
                if trig.optional and not self._confirmed(p, skill, trig, timing, fields, frame):
                    continue
                if limit is not None:
                    self.count_use(p, ("trigger", skill.ident, trig.index))
                self.skill_fired(p, skill, timing)
                spend(g, trig.line or timing)
                if trig.subject is not None:  # (whom its question was about: its written options are about it too)
                    frame.vars[ABOUT_FIELD] = trig.subject
                run_rule(trig.body, frame)
                if fields["cancelled"]:
                    return  # (a cancelled event is over: no later trigger of its timing hears it, 护卫 then 移锋)
        for trig in self.game.global_triggers.get(timing, ()):
            direct = trig.condition_direct
            if direct is not None:  # (compiled) the condition needs no frame
                if not direct(self.game.bare_frame, None, ev):
                    continue
            elif trig.condition is not None and not trig.condition(Frame(self.game, {"owner": None, "event": ev})):
                continue
            spend(self.game, trig.line or timing)
            run_rule(trig.body, Frame(self.game, {"owner": None, "event": ev}))
            if fields["cancelled"]:
                return

    def _confirmed(self, p: Player, skill: Any, trig: TriggerRule, timing: str, fields: dict[str, Any],
                   frame: Frame) -> bool:
        """Whether p uses an optional skill trigger. An agent that reads the table is told whom the event befell
        (its `target`, else its `player`, else its `user`), where a yes could be aimed (`TriggerRule.reach`) and,
        when a yes cancels the start of one of p's own phases, which phase it skips and what that phase holds for p now
        (`TurnFlow.phase_stake`); a yes that cancels p's draw phase's draw forgoes it: ("drawing", its amount), and
        one that lowers it by N outright forgoes N of it: ("drawing", N); one that skips a phase of p's outright
        (`skip_phase(owner, P)`), whatever its event, forgoes what that phase holds."""
        choices = self.choices
        if not choices.shows_reach(p):
            return choices.confirm(p, f"use {skill.name}?", about=skill)
        skips = None
        stake = self.phase_stake
        if trig.cancels and fields.get("player") is p:
            if timing == "before_phase" and stake is not None:
                phase = fields["phase"]
                skips = (phase, stake(p, phase))
                if not skips[1]:  # the phase holds nothing: a yes costs what the others it skips too hold (神速)
                    for more in trig.also_skips:
                        held = stake(p, more)
                        if held:
                            skips = (more, held)
                            break
            elif timing == "drawing":  # (the draw phase's own draw: a yes forgoes it, as 突袭 and 双雄 do)
                skips = ("drawing", fields["amount"])
        elif trig.lowers and timing == "drawing" and fields.get("player") is p:  # a yes forgoes part of it (裸衣)
            skips = ("drawing", min(trig.lowers, fields["amount"]))
        elif trig.also_skips and stake is not None:  # a phase of its own given up outright, its event aside (劫粮)
            skips = (trig.also_skips[0], 0)
            for more in trig.also_skips:
                held = stake(p, more)
                if held:
                    skips = (more, held)
                    break
        # (whom a yes befalls: the field its body is read by, else the engine's own choice)
        subject = (named_in(fields, trig.subject, p) if trig.subject else None) or befallen(fields, p)
        about: Any = skill
        prompt = f"use {skill.name}?"
        if CANCELS in skill.tags:  # (a yes cancels its event's card: the card's words after the skill's, 破咒)
            card = fields.get(CANCEL_EFFECTS_BY_FAMILY.get(timing, ""))
            if isinstance(card, Card):
                about = (*hints_of(skill), *hints_of(card))
                prompt = f"use {skill.name} against {card.label()}?"  # (a person is told which card, too)
        return choices.confirm(p, prompt, about=about,
                               reach=None if trig.reach is None else choices.seats_named(trig.reach, frame),
                               skips=skips, subject=subject)

    # ------------------------------------------------------------ cards that count as another suit, colour or name
    def counted_as(self, card: Card, value: str, printed: Any) -> Any:
        """What a card counts as for one value. While that value is worked out for that card, the card reads as
        printed (a modifier's own condition `c.suit == ♠` sees the printed suit). A card being used keeps the suit
        and colour it was used with (`Card.used_face`)."""
        face = card.used_face
        if face is not None and card.zone in ("processing", "discard") and value != "card_name":
            return face[1] if value == "card_suit" else face[2]
        key = (card.id, value)
        if not self.game.modifier_seats.get(value) or key in self.game.counting:
            return printed
        self.game.counting.append(key)
        try:
            return self.value(value, card)
        finally:
            self.game.counting.pop()

    def counted_rule(self, card: Card) -> CardRule:
        """The card a physical card counts as. One being used is the card it was used as (`Card.used_face`: a card
        that counted as another only in a hand resolves as that one). One in an equipment or judge area stays what
        it was placed as (a weapon in its slot, a delayed trick being judged), whatever `card_name` says elsewhere."""
        if card.used_face is not None:
            return card.used_face[0]
        if card.zone in ("equip", "judge"):
            return card.printed_rule
        name = self.counted_as(card, "card_name", card.printed_rule.name)
        if name == card.printed_rule.name:
            return card.printed_rule
        return self.game.program.card_by_name(name) or card.printed_rule

    # ------------------------------------------------------------ skill uses (limits, limited, awakening)
    def count_use(self, p: Player, key: tuple) -> None:
        """Count one use by p of what KEY names (a card family, a skill, a trigger) in every scope at once: each
        limit reads the count of its own scope, and each scope's counts are cleared when it ends."""
        counted = (p.seat, key)
        for counts in self.game.usage.values():
            counts[counted] = counts.get(counted, 0) + 1

    def skill_fired(self, p: Player, skill: SkillRule, timing: str | None = None) -> None:
        """Count a skill's firing (simulate reports firings per game; skill_uses() per owner and scope; a limited
        or awakening skill is spent for the rest of the game) and log it."""
        self.game.skill_uses[skill.ident] = self.game.skill_uses.get(skill.ident, 0) + 1
        self.count_use(p, ("fired", skill.ident))
        if skill.once_per_game:
            self.game.emit_log("awaken" if skill.awakening else "limited", player=p.label(), skill=skill.name)
        if not self.game.record:  # (the labels are made only for a log that is kept)
            pass
        elif timing is None:
            self.game.emit_log("skill", player=p.label(), skill=skill.name)
        else:
            self.game.emit_log("skill", player=p.label(), skill=skill.name, timing=timing)

    def fired_count(self, p: Player, ident: str, scope: str = "game") -> int:
        return self.game.usage[scope].get((p.seat, ("fired", ident)), 0)

    def skill_spent(self, p: Player, skill: SkillRule) -> bool:
        return self.game.usage["game"].get((p.seat, ("fired", skill.ident)), 0) > 0

    def value(self, name: str, *args: Any) -> Any:
        g = self.game
        try:
            plain = g.plain_values.get(name)
            if plain is not None:  # the common case: an engine value nobody modifies is its default, in one call
                n = len(args)  # (spelled out by count: a call without a tuple made for it)
                if n == 1:
                    return plain(g, args[0])
                if n == 2:
                    return plain(g, args[0], args[1])
                return plain(g, *args)
            rule = g.program.values.get(name)
            spec: Any = ENGINE_VALUES.get(name)
            chain = g.value_chains.get(name)
            if rule is None and not chain:  # unmodified, but clamped (or unknown)
                if spec is None:
                    raise RuleError(f"unknown value '{name}'")
                if spec.clamp is None:
                    return spec.default(g, *args)
                return spec.clamp(g, spec.default(g, *args), *args)
            if g.emit_depth >= MAX_EVENT_DEPTH:
                raise RuleError(f"value '{name}' is computed from itself more than {MAX_EVENT_DEPTH} deep (events "
                                "and values nest at most that deep)")
            if g.steps < g.step_budget:  # spend() without formatting its message on every call
                g.steps += 1
            else:
                spend(g, f"value {name}")
            g.emit_depth += 1
            try:  # (one function with its chain walk below: a value is asked hundreds of times a game)
                n = len(args)
                if rule is not None and rule.base_direct is not None and n == len(rule.params):
                    frame = None  # (compiled) every part of the rule is called direct
                    base = rule.base_direct(g.bare_frame, *args)
                    params = rule.params
                elif rule is not None:
                    frame = Frame(g, dict(zip(rule.params, args, strict=False)))
                    base = rule.base(frame)
                    params = rule.params
                else:
                    base = spec.default(g, *args)
                    params = spec.params
                    frame = None
                override = None
                for p, skill, m in chain or ():
                    if not p.alive:
                        continue
                    at = m.owner_arg
                    if at is not None and at < n and args[at] is not p:
                        continue  # its condition starts `arg == owner`: false, and nothing else would run
                    value = m.value_direct
                    if m.owner_constant and n == len(m.params):  # (compiled) that was its whole condition
                        v = m.constant
                    elif value is not None and n == len(m.params):  # (compiled) no bindings to build
                        cond = m.condition_direct  # (compiled with the value: None only when there is no condition)
                        if cond is not None and not cond(g.bare_frame, p, skill, *args):
                            continue
                        v = value(g.bare_frame, p, skill, *args)
                    else:
                        bindings = {"owner": p, "skill": skill}
                        bindings.update(zip(m.params or params, args, strict=False))
                        f = Frame(g, bindings)
                        if m.condition is not None and not m.condition(f):
                            continue
                        v = m.value(f)
                    if m.op == "to":
                        override = v
                    else:
                        base = base + v
                result = override if override is not None else base
                if rule is not None and frame is None:  # (compiled: its bounds are direct like its base)
                    if rule.lower_direct is not None:
                        result = max(result, rule.lower_direct(g.bare_frame, *args))
                    if rule.upper_direct is not None:
                        result = min(result, rule.upper_direct(g.bare_frame, *args))
                elif rule is not None and frame is not None:
                    if rule.lower is not None:
                        result = max(result, rule.lower(frame))
                    if rule.upper is not None:
                        result = min(result, rule.upper(frame))
                if spec is not None and spec.clamp is not None:
                    result = spec.clamp(g, result, *args)
                return result
            finally:
                g.emit_depth -= 1
        except (AttributeError, TypeError) as err:  # a rule asked with none where a character or card must be
            spec, rule = ENGINE_VALUES.get(name), g.program.values.get(name)
            if spec is not None:  # or with a value of the wrong kind (a number for a character): say which
                wrong_argument(name, spec.params, spec.param_types, args)
            if not ("'NoneType'" in str(err) or str(err).endswith("expected; got None")):
                raise
            params = spec.params if spec is not None else rule.params if rule is not None else ()
            none_argument(name, tuple((p, i) for i, p in enumerate(params)), args, {})
            raise

    def owner_keyed(self, name: str) -> tuple[Any, dict[int, list[Player]]] | None:
        """For an engine value that some skill modifies, that has no rule of its own, is not clamped, and whose every
        modifier holds only for its owner as one argument (its condition starts `arg == owner`, which compiled rules
        mark, `ModifierRule.owner_arg`): (its default, the owners by the place of that argument). A call naming none
        of those owners at their places is its default, after one step (what value() works out by walking the
        chain). None for every other value."""
        g = self.game
        chain = g.value_chains.get(name)
        got = self._keyed.get(name)
        if got is None or got[0] is not chain:
            plan: Any = None
            spec = ENGINE_VALUES.get(name)
            if chain and spec is not None and spec.clamp is None and name not in g.program.values \
                    and all(m.owner_arg is not None and m.owner_arg < len(spec.params) for _, _, m in chain):
                owners: dict[int, list[Player]] = {}
                for q, _, m in chain:
                    if m.owner_arg is not None:  # (every one, as tested above)
                        owners.setdefault(m.owner_arg, []).append(q)
                plan = (spec.default, owners)
            got = self._keyed[name] = (chain, plan)
        return got[1]

    def seat_distance(self, a: Player, b: Player) -> int:
        if a is b:
            return 0
        places, living = self.game.alive_places()
        i, j = places.get(a.seat), places.get(b.seat)
        if i is None or j is None:  # one of them is not (or no longer) at the table
            return UNLIMITED
        d = abs(i - j)
        return min(d, living - d)

    def distance(self, a: Player | None, b: Player | None) -> int:
        # (none allowed in the signature: a rule's none reaches value(), whose error names it, on both builds alike)
        if a is b:
            return 0
        g = self.game
        if "distance" in g.program.values or a is None or b is None or g.emit_depth >= MAX_EVENT_DEPTH:
            return max(1, self.value("distance", a, b))  # (the whole way: a rule's base and bounds, or an error)
        # Unmodified, or modified only by constants for their owners (horses and the like, compiled): a distance is
        # then a function of the seats, the living and the chain alone, kept in a table until one of them changes
        # (a death, a reseating, a chain made anew by refresh_skills); any other modifier takes value()'s way.
        chain = g.value_chains.get("distance")
        memo = g.distance_memo
        if memo is None or memo[0] is not chain or memo[1] is not g.players or memo[2] != len(g.deaths):
            memo = g.distance_memo = (chain, g.players, len(g.deaths), {}, constant_chain(chain))
        if not memo[4]:
            return max(1, self.value("distance", a, b))
        if chain:  # (counted as value() counts a modified value)
            if g.steps < g.step_budget:
                g.steps += 1
            else:
                spend(g, "value distance")
        table = memo[3]
        key = a.seat * 1024 + b.seat
        got = table.get(key)
        if got is None:
            got = table[key] = self._constant_distance(a, b, chain)
        return got

    def _constant_distance(self, a: Player, b: Player, chain: list[tuple[Player, SkillRule, ModifierRule]] | None
                           ) -> int:
        """The distance from a to b under a chain of constant owner modifiers (`constant_chain`), or none."""
        total = self.seat_distance(a, b)
        if not chain:
            return max(1, total)  # (what value() gives unmodified: the clamped seat distance)
        pair = (a, b)
        override: Any = None
        for p, _, m in chain:
            if p.alive and pair[m.owner_arg or 0] is p:
                if m.op == "to":
                    override = m.constant
                else:
                    total += m.constant
        return max(1, override if override is not None else total)

    # ------------------------------------------------------------ marks
    def set_mark(self, holder: Any, name: str, value: Any, until: str) -> None:
        marks = holder.marks
        marks[name] = value
        if until != "forever":
            holder.mark_scopes[name] = until
            scoped = self.game.scoped_holders
            if not any(h is holder for h in scoped):
                scoped.append(holder)
        elif hasattr(holder, "mark_scopes"):
            holder.mark_scopes.pop(name, None)


def skill_tables(skills: Sequence[SkillRule]) -> tuple[dict[str, list[tuple[SkillRule, TriggerRule]]],
                                                       dict[str, list[tuple[SkillRule, ModifierRule]]]]:
    """A character's triggers by timing and modifiers by value, in skill order (what refresh_skills keeps, and
    what the invariant check rebuilds to compare)."""
    trig: dict[str, list[tuple[SkillRule, TriggerRule]]] = {}
    mods: dict[str, list[tuple[SkillRule, ModifierRule]]] = {}
    for s in skills:
        for t in s.triggers:
            trig.setdefault(t.timing, []).append((s, t))
        for m in s.modifiers:
            mods.setdefault(m.quantity, []).append((s, m))
    return trig, mods


def constant_chain(chain: list[tuple[Player, SkillRule, ModifierRule]] | None) -> bool:
    """Whether every modifier of a distance chain adds or sets a constant for its owner, one of the two characters
    (compiled rules mark them: `ModifierRule.owner_constant`), so that the distance follows from the seats alone."""
    return all(m.owner_constant and m.owner_arg is not None and len(m.params) == 2 for _, _, m in chain or ())


def _same_pairs(new: Sequence[tuple[SkillRule, Any]] | None, old: Sequence[tuple[SkillRule, Any]] | None) -> bool:
    """Whether a character's modifiers of one value (or triggers of one timing) are the very same (skill, modifier)
    pairs as before (none before or now: not the same)."""
    return old is not None and new is not None and len(new) == len(old) and \
        all(a[0] is b[0] and a[1] is b[1] for a, b in zip(new, old, strict=True))
