"""Skills, events, values and marks: how rule objects are found and run at each timing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .events import UNLIMITED, Event, run_rule
from .model import EQUIP_SLOTS, Player
from .program import CardRule, Frame, SkillRule, TriggerRule


class Dispatch:
    """Trigger and modifier dispatch, values, distance and marks; mixed into Game."""

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
                if trig.optional and not self.confirm(p, f"use {skill.name}?", about=skill):
                    continue
                self.skill_fired(p, skill, timing)
                run_rule(trig.body, frame)
        for trig in self.global_triggers.get(timing, ()):
            frame = Frame(self, {"owner": None, "event": ev})
            if trig.condition is None or trig.condition(frame):
                run_rule(trig.body, frame)
        return ev

    def skill_fired(self, p: Player, skill: SkillRule, timing: str | None = None) -> None:
        """Count a skill's firing (simulate reports firings per game) and log it."""
        self.skill_uses[skill.ident] = self.skill_uses.get(skill.ident, 0) + 1
        if timing is None:
            self.emit_log("skill", player=p.label(), skill=skill.name)
        else:
            self.emit_log("skill", player=p.label(), skill=skill.name, timing=timing)

    def value(self, name: str, *args: Any) -> Any:
        rule = self.program.values.get(name)
        spec = _engine_values().get(name)
        if rule is None and not self._modifier_seats.get(name):
            # the common case: an engine value nobody modifies costs one call
            result = spec.default(self, *args)
            return result if spec.clamp is None else spec.clamp(self, result, *args)
        if rule is not None:
            frame = Frame(self, dict(zip(rule.params, args, strict=False)))
            base = rule.base(frame)
            params = rule.params
        else:
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
        if spec is not None and spec.clamp is not None:
            result = spec.clamp(self, result, *args)
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


_VALUES: dict[str, Any] = {}


def _engine_values() -> dict[str, Any]:
    """The registry's engine values (imported late: the registry imports this module)."""
    if not _VALUES:
        from .registry import ENGINE_VALUES

        _VALUES.update(ENGINE_VALUES)
    return _VALUES
