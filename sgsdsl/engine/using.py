"""Using and answering with cards: the play menu, targets, nullify windows, responses, delayed tricks, equipment."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from .agents import DECLARED, GENUINE, SPENT_FOR, TRY, VOID
from .decisions import Decisions, hints_of
from .dispatch import Dispatch, new_event
from .errors import RuleError
from .events import MAX_EVENT_DEPTH, NULLIFIABLE, run_rule
from .model import EQUIP_SLOTS, Card, Player, UseRecord, VirtualCard, color_of
from .program import ActiveRule, CardRule, Frame, SkillRule, UseRule
from .state import GameState
from .zones import Zones

# the hints of a card given at another's request on its behalf, in the public history of acts
BEHALF: tuple[str, ...] = ("behalf",)
# target kinds aimed at chosen targets: the play menu shows an agent that reads views where each could go
AIMED = ("one", "range")
# the target kinds whose targets a play menu that shows reach works out for a card of the hand: those aimed at chosen
# targets, and a card that reaches everyone (its worth is what it does to the seats it reaches, less any it would do
# nothing to: 藤甲 against 南蛮入侵)
SHOWN = AIMED + ("all",)


class CardUse:
    """Card use (使用), response (打出/使用 on request) and the windows around them."""

    def __init__(self, game: GameState, choices: Decisions, dispatch: Dispatch, zones: Zones):
        self.game = game
        self.choices = choices
        self.dispatch = dispatch
        self.zones = zones
        # the legal targets the last play menu showed per card: (decisions then, player, {(card, use): targets})
        self._reach: tuple[int, Player, dict[tuple[int, int], tuple[Any, UseRule, list[Player]]]] | None = None
        self._conversions: dict[tuple[str, str], bool] = {}  # (skill ident, context) -> converts_into

    # ------------------------------------------------------------ play options
    def play_options(self, p: Player, labelled: bool = True, reach: bool = False) -> list[tuple[str, tuple]]:
        """(label, option) of everything p may do now in the play phase. Unlabelled (labels "") when nobody will
        read them (`Decisions.blind`): the options are the same, only their texts are not made. `reach`: the agent
        is shown each card's legal targets (`menu_reach`), so a card aimed at chosen targets is tried on all of
        them at once (the same answer as can_use, which stops at the first) and they are kept for the showing."""
        opts: list[tuple[str, tuple]] = []
        printed = not self.game.counts_as  # (every card is its printed one: its rule read straight)
        for card in p.hand:
            for i, use in (card.printed_rule if printed else card.rule).menu:
                if use.context == "play":
                    if self._reachable(p, card, use) if reach and use.target_kind in SHOWN else \
                            self.can_use(p, card, use):
                        opts.append((f"use {card.label()}" + (f" ({i})" if i else "") if labelled else "",
                                     ("card", card, use)))
                elif self.can_use(p, card, use):
                    opts.append((f"recast {card.label()}" if labelled else "", ("recast", card, use)))
        for skill in p.skills:
            for va, probe, use in self.conversion_probes(p, skill, "play") \
                    if skill.view_as and self.converts_into(skill, "play") else ():
                if self._probe_reachable(p, va, probe, use) if reach and use.target_kind in AIMED else \
                        self.can_use(p, probe, use):
                    opts.append((f"{skill.name}: use as {probe.name}" if labelled else "", ("viewas", skill, va, use)))
            for va, probe, use in self.conversion_probes(p, skill, "recast") \
                    if skill.view_as and self.converts_into(skill, "recast") else ():
                if self.can_use(p, probe, use):  # a converted card recast (重铸) as the card it converts into
                    opts.append((f"{skill.name}: recast as {probe.name}" if labelled else "",
                                 ("viewas_recast", skill, va, use)))
            for i, act in enumerate(skill.actives):
                if not act.granted and self._active_ok(p, skill, act, i):
                    opts.append((f"skill {skill.name}" + (f" ({i})" if i else "") if labelled else "",
                                 ("active", skill, act, i)))
        opts.extend(self.granted_options(p))
        return opts

    def granted_options(self, p: Player) -> list[tuple[str, tuple]]:
        """Actions other characters' skills grant p (`grant`), in seat order of the granting owners."""
        out: list[tuple[str, tuple]] = []
        if not self.game.granting:  # (no skill in play grants an action)
            return out
        for q in self.game.seat_order(p):
            if q is p or q.seat not in self.game.granting:
                continue
            for skill in q.skills:
                for i, act in enumerate(skill.actives):
                    if act.granted and self._granted_ok(p, q, skill, act, i):
                        out.append((f"skill {skill.name} of {q.label()}", ("granted", skill, act, i, q)))
        return out

    def _granted_ok(self, user: Player, owner: Player, skill: SkillRule, act, i: int) -> bool:
        frame = Frame(self.game, {"owner": owner, "user": user, "skill": skill})
        if act.limit is not None:
            if self._used(user, ("granted", skill.ident, owner.seat, i), act.limit_scope) >= act.limit(frame):
                return False
        return act.condition is None or bool(act.condition(frame))

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
        elif kind == "viewas_recast":
            _, skill, va, use = option
            vcard = self.build_viewas(p, skill, va, optional=True)
            if vcard is not None:
                self.recast(p, vcard, use)
        elif kind == "granted":
            _, skill, act, i, owner = option
            self.dispatch.count_use(p, ("granted", skill.ident, owner.seat, i))
            self.game.emit_log("skill", player=p.label(), skill=skill.name, owner=owner.label())
            run_rule(act.body, Frame(self.game, {"owner": owner, "user": p, "skill": skill}))
        else:
            _, skill, act, i = option
            key = ("skill", skill.ident, i)
            self.dispatch.count_use(p, key)
            self.dispatch.skill_fired(p, skill)
            run_rule(act.body, Frame(self.game, {"owner": p, "skill": skill}))

    def _active_ok(self, p: Player, skill: SkillRule, act, i: int) -> bool:
        if skill.once and self.dispatch.skill_spent(p, skill):
            return False
        frame = Frame(self.game, {"owner": p, "skill": skill})
        if act.limit is not None:
            if self._used(p, ("skill", skill.ident, i), act.limit_scope) >= act.limit(frame):
                return False
        return act.condition is None or bool(act.condition(frame))

    def _viewas_sources(self, p: Player, skill: SkillRule, va) -> list[Card] | None:
        """The cards a conversion may be made of; None when it cannot be made now (a conversion from no card whose
        `where`, read with `it` none, does not hold)."""
        if va.count == 0:
            if va.filter is None or va.filter(Frame(self.game, {"owner": p, "it": None, "skill": skill,
                                                               "play": self.game.request_context[2]})):
                return []
            return None
        pool = p.hand if va.source == "hand" else (
            [p.equips[s] for s in EQUIP_SLOTS if s in p.equips] if va.source == "equip"
            else p.hand + [p.equips[s] for s in EQUIP_SLOTS if s in p.equips]
        )
        if va.filter is None:
            return list(pool)
        out = []
        for c in pool:
            if va.filter(Frame(self.game, {"owner": p, "it": c, "skill": skill, "play": self.game.request_context[2]})):
                out.append(c)
        return out

    def can_declare_truly(self, p: Player, skill: SkillRule, va) -> bool:
        """Whether one of the cards p may make a face-down declaration of is the card declared."""
        sources = self._viewas_sources(p, skill, va)
        name = self.game.program.cards[va.card].name
        return sources is not None and any(c.name == name for c in sources)

    def build_viewas(self, p: Player, skill: SkillRule, va, optional: bool) -> VirtualCard | None:
        sources = self._viewas_sources(p, skill, va)
        if sources is None or len(sources) < va.count:
            return None
        rule = self.game.program.cards[va.card]
        hints = declared_hints(sources, rule) if va.declared and not self.choices.blind(p) else None
        chosen = self.choices.choose_many(p, sources, va.count, va.count, SPENT_FOR + skill.name, hints=hints) \
            if va.count > 0 else []  # (a conversion from no card asks for none)
        self.game.skill_uses[skill.ident] = self.game.skill_uses.get(skill.ident, 0) + 1  # counted, not logged
        return VirtualCard(rule, tuple(chosen), skill.ident, va.declared)

    def declaration_void(self, user: Player, card: Card | VirtualCard, context: str, targets: list[Player]) -> bool:
        """A card declared face down is about to be used or given: the `declared` timing may void it (cancel), and
        then its cards go to the discard pile and nothing is used or given. False for every other card."""
        if not isinstance(card, VirtualCard) or not card.declared:
            return False
        self.game.emit_log("declare", user=user.label(), card=card.label(), context=context,
                           targets=[t.label() for t in targets])
        ev = self.dispatch.emit("declared", new_event("declared", {"user": user, "card": card, "context": context,
                                                                  "targets": targets}))
        if not ev.cancelled:
            return False
        left = [c for c in card.physical if c.zone not in ("discard", "draw")]
        if left:
            self.zones.move(left, "discard", None)
        self.game.emit_log("declaration_void", user=user.label(), card=card.label())
        return True

    # ------------------------------------------------------------ using cards
    def _used(self, p: Player, key: Any, scope: str | None) -> int:
        if scope is None:
            return 0
        return self.game.usage[scope].get((p.seat, key), 0)

    @staticmethod
    def use_key(family: str, context: str) -> tuple:
        """What a use limit counts: uses of the card family under clauses of the same context (a card used
        while dying does not count against the play-phase limit of its family)."""
        return ("card", family) if context == "play" else ("card", family, context)

    def recast(self, p: Player, card: Card | VirtualCard, use: UseRule) -> None:
        """重铸: not a use — the card goes to the discard pile (no card_used, no nullify window, not counted),
        then the recast clause's block runs (the rules say what recasting gives, e.g. draw 1)."""
        self.game.emit_log("recast", player=p.label(), card=card.label())
        self.zones.move(card.physical, "discard", None)
        if use.effect is not None:
            run_rule(use.effect, Frame(self.game, {"user": p, "card": card, "targets": [], "owner": p, "event": None,
                                              "target": None, "use": None}))

    def _within_limit(self, p: Player, card: Card | VirtualCard, use: UseRule) -> bool:
        """Whether p has uses of this clause left (its `limit … per SCOPE`; a clause without one always has)."""
        if use.limit is None:
            return True
        direct = use.limit_direct
        limit = direct(self.game.bare_frame, p, card, p) if direct is not None else \
            use.limit(Frame(self.game, {"user": p, "card": card, "owner": p}))
        return self._used(p, self.use_key(card.family, use.context), use.limit_scope) < limit

    @staticmethod
    def without_filter(use: UseRule) -> UseRule:
        """The clause without its target condition (a use with no distance limit: only its target kind and
        `targetable` decide)."""
        return dataclasses.replace(use, filter=None, filter_direct=None)

    def _reachable(self, p: Player, card: Card | VirtualCard, use: UseRule) -> bool:
        """can_use for a card of the play menu whose legal targets are shown (menu_reach keeps them)."""
        return self._within_limit(p, card, use) and bool(self.menu_reach(p, card, use))

    def can_use(self, p: Player, card: Card | VirtualCard, use: UseRule, fixed_target: Player | None = None) -> bool:
        if use.limit is not None and not self._within_limit(p, card, use):
            return False
        if use.target_kind == "none":
            return True
        if fixed_target is not None:
            return self.legal_target(p, card, use, fixed_target)
        # target filters are pure (the checker forbids actions in conditions), so the first legal one decides
        # (legal_target refuses the dead first: the whole rotation serves as the candidates)
        cands = (p,) if use.target_kind == "self" else self.game.rotation(p)
        legal = self.legal_target
        for t in cands:
            if legal(p, card, use, t):
                return True
        return False

    def legal_target(self, p: Player, card: Card | VirtualCard, use: UseRule, t: Player) -> bool:
        if not t.alive:
            return False
        if use.target_kind == "self" and t is not p:
            return False
        if use.other and t is p:
            return False
        if t.judge and card.category == "delayed" and any(j.family == card.family for j in t.judge):
            return False
        direct = use.filter_direct
        if direct is not None:
            if not direct(self.game.bare_frame, p, card, t, p):
                return False
        elif use.filter is not None and not use.filter(Frame(self.game, {"user": p, "card": card, "it": t,
                                                                         "owner": p})):
            return False
        if "targetable" in self.game.plain_values:  # nobody modifies it: its default, true (no call needed)
            return True
        return bool(self.dispatch.value("targetable", p, card, t))

    def legal_targets(self, p: Player, card: Card | VirtualCard, use: UseRule) -> list[Player]:
        """legal_target over the rotation from p, in its order. The play menu asks this for every aimed card at
        every decision, so what does not depend on the target (the card's category, the filter function, whether
        anyone modifies `targetable`) is read once here and the tests are the same, in the same order."""
        g = self.game
        if use.target_kind == "self":
            return [p] if self.legal_target(p, card, use, p) else []
        other = use.other
        delayed_family = card.family if card.category == "delayed" else None
        direct = use.filter_direct
        if direct is None and use.filter is not None:
            legal = self.legal_target
            return [t for t in g.rotation(p) if legal(p, card, use, t)]  # (interpreted: a frame per target)
        frame = g.bare_frame
        plain = "targetable" in g.plain_values
        value = self.dispatch.value
        # modified only by skills that hold for their owner as the user or the target (空城, 谦逊): for a user and
        # target owning none of them, its default, counted as value() counts it (Dispatch.owner_keyed)
        keyed = None if plain else self.dispatch.owner_keyed("targetable")
        if keyed is not None and any(q is p for q in keyed[1].get(0, ())):
            keyed = None  # (p's own modifiers may hold for every target)
        out: list[Player] = []
        for t in g.rotation(p):  # (the dead are never legal)
            if not t.alive or (other and t is p):
                continue
            if delayed_family is not None and t.judge and any(j.family == delayed_family for j in t.judge):
                continue
            if direct is not None and not direct(frame, p, card, t, p):
                continue
            if plain:
                out.append(t)
            elif keyed is not None and g.steps < g.step_budget and g.emit_depth < MAX_EVENT_DEPTH \
                    and not any(q is t for q in keyed[1].get(2, ())):
                g.steps += 1
                if keyed[0](g, p, card, t):
                    out.append(t)
            elif value("targetable", p, card, t):
                out.append(t)
        return out

    def menu_reach(self, p: Player, card: Card | VirtualCard, use: UseRule) -> list[Player]:
        """legal_targets for a card of the play menu, kept until the menu's own decision is answered: the targets
        then chosen for that card are the ones the menu showed (nothing changes in between), and the menu asks
        once for both whether the card can be used and where it could be aimed."""
        kept = self._kept(p)
        key = (id(card), id(use))
        shown = kept.get(key)
        if shown is not None and shown[0] is card and shown[1] is use:
            return shown[2]
        got = self.legal_targets(p, card, use)
        kept[key] = (card, use, got)
        return got

    def _kept(self, p: Player) -> dict[tuple[int, int], tuple[Any, UseRule, list[Player]]]:
        """The targets kept for the menu being made for p (by id of card, id of use clause), begun afresh for a new
        decision or player."""
        kept = self._reach
        if kept is None or kept[0] != self.game.decisions or kept[1] is not p:
            kept = self._reach = (self.game.decisions, p, {})
        return kept[2]

    def _probe_reachable(self, p: Player, va: Any, probe: VirtualCard, use: UseRule) -> bool:
        """can_use for a conversion of the play menu whose legal targets are shown: the card it converts into, tried
        on every target at once like a card of the menu (`_reachable`), kept under the conversion (`option_reach`).
        Its reach is the probe's, a hint: the card it is made of is chosen after (it may change the range, as a
        weapon given up for it does), and the targets are chosen afresh then."""
        if not self._within_limit(p, probe, use):
            return False
        got = self.legal_targets(p, probe, use)
        self._kept(p)[(id(va), id(use))] = (va, use, got)
        return bool(got)

    def option_reach(self, p: Player, option: tuple) -> tuple[int, ...] | None:
        """The seats a play-menu option's card could be aimed at now, as the menu being made for p found them: a
        card aimed at chosen targets, or a conversion into one; the seats a card of the hand that reaches everyone
        would reach (less those a ward of their own keeps it from, as for an aimed one); for a skill's action, the
        seats of its first choice when its text lets them be worked out before it runs (`ActiveRule.reach`); for
        an action another's skill grants, the seat of the one granting it; None for every other option."""
        kind = option[0]
        if kind == "card":
            key: tuple[int, int] = (id(option[1]), id(option[2]))
        elif kind == "viewas":
            key = (id(option[2]), id(option[3]))
        elif kind == "active":
            return self._active_reach(p, option[1], option[2])
        elif kind == "granted":  # (another's action: its good or harm goes to the one granting it, option[4])
            return (option[4].seat,)
        else:
            return None
        got = self.menu_shown(p).get(key)
        if got is None:
            return None
        void = self.voided(p, got[0], got[2]) if kind == "card" else None
        if void is None:
            return tuple(t.seat for t in got[2])
        return tuple(t.seat for t, v in zip(got[2], void, strict=True) if not v)

    def voided(self, p: Player, card: Card | VirtualCard, targets: Sequence[Player]) -> tuple[bool, ...] | None:
        """Per target, whether a ward of its own (`TriggerRule.ward`: an armour that voids a card of some colour aimed
        at its wearer) would make CARD, used by P, do nothing to it: the ward's condition asked before the card is
        aimed, of the event it would hear; None when no target holds a ward. A play-menu card's reach leaves those
        seats out, and the choice of its targets hints them `void`."""
        g = self.game
        out: list[bool] | None = None
        for i, t in enumerate(targets):
            for skill, trig in t.triggers.get("before_effect", ()):  # (its skills' triggers in play, by timing)
                if not trig.ward or trig.condition is None:
                    continue
                event = new_event("before_effect", {"user": p, "card": card, "target": t, "use": None})
                if trig.condition(Frame(g, {"owner": t, "event": event, "skill": skill})):
                    if out is None:
                        out = [False] * len(targets)
                    out[i] = True
                    break
        return None if out is None else tuple(out)

    def reach_costs(self, p: Player, options: Sequence[tuple]) -> list[tuple[int, ...] | None] | None:
        """Per play-menu option (OPTIONS: the menu's (label, option) pairs), what aiming a skill's action at each
        seat of its reach (`option_reach`) would cost p in its own cards, when its first choice says
        (`ActiveRule.reach_costs`: 破绽's blow costs as many cards as the HP of the one struck); None for the whole
        menu when no option says."""
        out: list[tuple[int, ...] | None] | None = None
        for i, (_, option) in enumerate(options):
            if option[0] != "active" or option[2].reach_costs is None or option[2].reach is None:
                continue
            if out is None:
                out = [None] * len(options)
            out[i] = self.choices.seat_costs(option[2].reach, option[2].reach_costs,
                                             Frame(self.game, {"owner": p, "skill": option[1]}))
        return out

    def _active_reach(self, p: Player, skill: SkillRule, act: ActiveRule) -> tuple[int, ...] | None:
        """The seats a skill action's first choice of characters may name, asked before the action runs; None when
        its text does not say them beforehand."""
        if act.reach is None:
            return None
        return self.choices.seats_named(act.reach, Frame(self.game, {"owner": p, "skill": skill}))

    def menu_shown(self, p: Player) -> dict[tuple[int, int], tuple[Any, UseRule, list[Player]]]:
        """What menu_reach keeps for the menu being made for p, by (id of card, id of use clause): every card of that
        menu aimed at chosen targets (the rest have none)."""
        kept = self._reach
        if kept is None or kept[0] != self.game.decisions or kept[1] is not p:
            return {}
        return kept[2]

    def _targets_shown(self, p: Player, card: Card | VirtualCard, use: UseRule) -> list[Player] | None:
        kept = self._reach
        if kept is None or kept[0] + 1 != self.game.decisions or kept[1] is not p:
            return None
        shown = kept[2].get((id(card), id(use)))
        if shown is None or shown[0] is not card or shown[1] is not use:
            return None
        return list(shown[2])

    def choose_targets(self, p: Player, card: Card | VirtualCard, use: UseRule) -> list[Player] | None:
        legal = self._targets_shown(p, card, use)
        shown = legal is not None  # (then nothing has changed since p's play menu: its view serves again)
        if legal is None:
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
        high = use.high + max(0, self.dispatch.value("extra_targets", p, card))
        void = self.voided(p, card, legal) if self.choices.shows_reach(p) else None
        chosen = self.choices.choose_many(p, legal, min(use.low, len(legal)), min(high, len(legal)),
                                          f"targets for {card.name}", about=card, same_view=shown,
                                          hints=None if void is None else [(VOID,) if v else () for v in void])
        return chosen or None

    def use_card_chosen(self, p: Player, card: Card | VirtualCard,
                        use: UseRule, context: str, event: Any = None) -> bool:
        targets = self.choose_targets(p, card, use)
        if targets is None:
            return False
        self.use_card(p, card, use, targets, context, event)
        return True

    def use_card(self, user: Player, card: Card | VirtualCard,
                 use: UseRule, targets: list[Player], context: str, event: Any = None,
                 nullifiable: bool = True) -> None:
        """使用: the card leaves its zone, is counted, targets are told, and its effect resolves per target.

        `nullifiable=False` opens no nullify window for this use (a rule made it unnullifiable). A card declared
        face down may be voided first (`declared`)."""
        if isinstance(card, VirtualCard) and card.declared and self.declaration_void(user, card, context, targets):
            return
        physical = card.physical
        self._into_processing(card)
        self.dispatch.count_use(user, self.use_key(card.family, use.context))
        if targets and use.target_kind in AIMED:  # (a card that reaches everyone says nothing of whom it meant)
            hints = hints_of(card)
            acts = self.game.act_history
            for t in targets:
                self.dispatch.count_use(user, ("on", card.family, t.seat))  # uses_on: a limit per target
                if t is not user:
                    acts.append((user.seat, t.seat, hints))
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("use", user=user.label(), card=card.label(), targets=[t.label() for t in targets],
                               context=context)
        if self.dispatch.listens("card_used"):
            self.dispatch.emit("card_used", new_event("card_used", {"user": user, "card": card, "targets": targets,
                                                                    "context": context}))
        if card.category == "delayed":
            if targets and targets[0].alive:
                self.place_judge(card, targets[0])
            else:
                self.zones.move([c for c in physical if c.zone == "processing"], "discard", None)
            return
        if card.category in EQUIP_SLOTS:
            self.equip(user, card)
            return
        records = []
        for t in targets:
            rec = UseRecord(user, card, t, targets, context, nullifiable=nullifiable)
            if self.dispatch.listens("targeted"):
                ev = self.dispatch.emit("targeted", new_event("targeted", {"user": user, "card": card, "target": t,
                                                                           "use": rec}))
                rec.target = ev.target
                if ev.cancelled:
                    continue
            records.append(rec)
        # hooks see the same names as effects; `target` and `use` are none outside a per-target effect
        base = {"user": user, "card": card, "targets": targets, "owner": user, "event": event, "target": None,
                "use": None}
        if "prepare" in card.rule.hooks:
            run_rule(card.rule.hooks["prepare"], Frame(self.game, dict(base)))
        effect = use.effect or card.rule.effect
        if use.target_kind == "none":
            rec = UseRecord(user, card, None, targets, context, nullifiable=nullifiable)
            if not (card.category in NULLIFIABLE and self.nullify_window(card, user, None, rec)):
                if effect is not None:
                    run_rule(effect, Frame(self.game, {**base, "target": None, "use": rec}))
        for rec in records:
            aimed = rec.target
            if aimed is None or not aimed.alive:
                continue
            t = aimed
            own_check = card.rule.hooks.get("before_effect")
            if own_check is not None or "before_effect" in self.game.heard:  # (else nothing could cancel it)
                ev = new_event("before_effect", {"user": user, "card": card, "target": t, "use": rec})
                if own_check is not None:  # the card's own condition (e.g. no effect on an unwounded target)
                    run_rule(own_check, Frame(self.game, {**base, "target": t, "use": rec, "event": ev}))
                if not ev.cancelled:
                    self.dispatch.emit("before_effect", ev)
                if ev.cancelled:
                    self.game.emit_log("no_effect", card=card.label(), target=t.label())
                    continue
            if card.category in NULLIFIABLE and self.nullify_window(card, user, t, rec):
                if "nullified" in card.rule.hooks:
                    run_rule(card.rule.hooks["nullified"], Frame(self.game, {**base, "target": t, "use": rec}))
                continue
            if effect is not None:
                run_rule(effect, Frame(self.game, {**base, "target": t, "use": rec}))
        if "finish" in card.rule.hooks:
            run_rule(card.rule.hooks["finish"], Frame(self.game, dict(base)))
        if self.dispatch.listens("card_done"):
            self.dispatch.emit("card_done", new_event("card_done", {"user": user, "card": card, "targets": targets}))
        left = [c for c in physical if c.zone == "processing"]
        if left:
            self.zones.move(left, "discard", None)

    def _into_processing(self, card: Card | VirtualCard) -> None:
        """A card being used or given in answer goes to the processing area. A physical card that counted as
        another card, suit or colour where it was goes on counting so (`Card.used_face`) until it moves on,
        whatever it would count as out there or the skills in play come to say: it is used or given as that card.
        So do the cards a converted card is made of (its suit and colour are theirs, as they counted)."""
        g = self.game
        faces = [(c, (c.rule, c.suit, c.color)) for c in card.physical] if g.counts_as else []
        self.zones.move(card.physical, "processing", None)
        for c, face in faces:  # (nothing counts as another while counts_as is off)
            c.used_face = face  # (also when printed: a modifier that holds only out there changes it no more)
            if face[0] is not c.printed_rule or face[1:] != (c.printed_suit, color_of(c.printed_suit)):
                g.used_face_kept = g.counts_as = True

    def nullify_window(self, card: Card | VirtualCard,
                       user: Player | None, target: Player | None, rec: UseRecord) -> bool:
        """Before a trick takes effect on a target: anyone may answer with a nullify-context card."""
        if not rec.nullifiable:
            return False
        # a window inside a window (a nullify answering a nullify) nests like events do: rules that hand the
        # answering cards round again would otherwise recurse until Python gives up
        if self.game.emit_depth >= MAX_EVENT_DEPTH:
            raise RuleError(f"nullify answers nest more than {MAX_EVENT_DEPTH} deep: rules keep handing out the "
                            "cards that answer them")
        self.game.emit_depth += 1
        try:
            return self._nullify_window(card, user, target, rec)
        finally:
            self.game.emit_depth -= 1

    def _nullify_window(self, card: Card | VirtualCard,
                        user: Player | None, target: Player | None, rec: UseRecord) -> bool:
        pending: Any = None  # (an Event)
        if self.dispatch.listens("nullify"):
            # rules hear the window open before anyone is asked (`on nullify`): cancelling the event nullifies the
            # card
            pending = new_event("nullify", {"card": card, "user": user, "target": target, "use": rec})
            self.dispatch.emit("nullify", pending)
        elif self.game.zero_hp:  # (what emitting an event nobody hears does)
            self.dispatch.zero_hp_recheck()
        asked = 0
        while asked < 40 and (pending is None or not pending.cancelled):
            asked += 1
            answered = False
            for q in self.game.seat_order(self.game.current):
                offers = self.context_offers(q, "nullify", None)
                if not offers:
                    continue
                labels = [o[0] for o in offers] + ["pass"]
                prompt = f"nullify {card.name}" + (f" on {target.label()}" if target else "")
                pick = self.choices.ask(q, "nullify", prompt, labels, about=card, subject=target or user,
                                        option_tags=answer_hints(offers))[0]
                if pick == len(offers):
                    continue
                c, use = self.realize_offer(q, offers[pick][1])
                if c is None:
                    continue
                if pending is None:  # (the window's event, made once somebody answers: most windows pass)
                    pending = new_event("nullify", {"card": card, "user": user, "target": target, "use": rec})
                self.use_card(q, c, use, [], "nullify", pending)
                answered = True
                break
            if not answered:
                break
        if pending is None or not pending.cancelled:
            return False
        rec.nullified = True
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("nullified", card=card.label(), target=target.label() if target else None)
        return True

    def context_offers(self, p: Player, context: str, fixed_target: Player | None) -> list[tuple[str, tuple]]:
        """Cards (and conversions) p could use now in a response context such as dying or nullify (labelled only
        when someone will read the labels: `Decisions.blind`)."""
        out: list[tuple[str, tuple]] = []
        labelled: bool | None = None  # (asked only once something is on offer: most windows offer nothing)
        printed = not self.game.counts_as  # (every card is its printed one: its rule read straight, in every window)
        for card in p.hand:
            for use in (card.printed_rule if printed else card.rule).by_context.get(context, ()):
                if self.can_use(p, card, use, fixed_target):
                    if labelled is None:
                        labelled = not self.choices.blind(p)
                    out.append((f"use {card.label()}" if labelled else "", ("card", card, use)))
        for skill in p.skills:
            if not skill.view_as or not self.converts_into(skill, context):
                continue
            for va, probe, use in self.conversion_probes(p, skill, context):
                if self.can_use(p, probe, use, fixed_target):
                    if labelled is None:
                        labelled = not self.choices.blind(p)
                    out.append((f"{skill.name}: use as {probe.name}" if labelled else "", ("viewas", skill, va, use)))
        return out

    def converts_into(self, skill: SkillRule, context: str) -> bool:
        """Whether one of the skill's view-as conversions makes a card with a use clause for CONTEXT (worked out once
        per skill and context: a conversion into a card used only in answer never serves in the play menu)."""
        key = (skill.ident, context)
        got = self._conversions.get(key)
        if got is None:
            cards = self.game.program.cards
            got = self._conversions[key] = any(cards[va.card].by_context.get(context) for va in skill.view_as)
        return got

    def conversion_probes(self, p: Player, skill: SkillRule, context: str, family: str | None = None):
        """The skill's view-as conversions p could make now for a context, one per matching use clause,
        each probed with the first cards that fit (its suit and colour come from them)."""
        for va in skill.view_as:
            rule = self.game.program.cards[va.card]
            if family is not None and rule.family != family:
                continue
            uses = rule.by_context.get(context)
            if not uses:
                continue
            sources = self._viewas_sources(p, skill, va)
            if sources is None or len(sources) < va.count:
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
                against: Any = None, against_user: Player | None = None, use: Any = None,
                behalf: Player | None = None) -> bool:
        """Ask p for `times` cards of a family (打出 when play, else 使用); True when all were given.

        When all were given, `answered` is emitted (e.g. a weapon acting after its card was dodged). `behalf`: the
        character the cards are given for (a leader asking others); the request is then a `respond_for` naming it, so
        that an agent can tell a favour asked of it from an attack on itself."""
        for _ in range(max(0, times)):
            if not p.alive:
                return False
            given = self._respond_once(p, family, play, against, against_user, behalf)
            if given is None:
                return False
            if not self.dispatch.listens("responded"):  # (nobody could negate it)
                continue
            ev = self.dispatch.emit("responded", new_event("responded", {
                "player": p, "card": given, "family": family, "against": against, "against_user": against_user,
                "negated": False, "play": play, "use": use}))
            if ev.negated:
                return False
        if behalf is not None and times > 0 and behalf is not p:
            self.game.act_history.append((p.seat, behalf.seat, BEHALF))
        if times > 0 and self.dispatch.listens("answered"):
            self.dispatch.emit("answered", new_event("answered", {"player": p, "family": family, "against": against,
                                                                  "against_user": against_user, "use": use,
                                                                  "play": play}))
        return True

    def _respond_offers(self, p: Player, family: str, play: bool,
                        tried: list[tuple[str, int]]) -> list[tuple[str, tuple]]:
        options: list[tuple[str, tuple]] = []
        labelled = not self.choices.blind(p)  # (labels only for someone who reads them)
        printed = not self.game.counts_as  # (every card is its printed one: its family read straight)
        for card in p.hand:
            if (card.printed_rule.family if printed else card.family) == family:
                options.append((f"{'play' if play else 'use'} {card.label()}" if labelled else "", ("card", card)))
        for skill in p.skills:
            for va in skill.view_as:
                rule = self.game.program.cards[va.card]
                sources = self._viewas_sources(p, skill, va) if rule.family == family else None
                if sources is not None and len(sources) >= va.count:
                    options.append((f"{skill.name}: as {rule.name}" if labelled else "", ("viewas", skill, va)))
            for i, prov in enumerate(skill.provides):
                rule = self.game.program.cards[prov.card]
                if rule.family != family or (skill.ident, i) in tried:
                    continue
                if skill.once and self.dispatch.skill_spent(p, skill):
                    continue
                if prov.condition is None or prov.condition(self._provide_frame(p, skill, family)):
                    options.append((f"{skill.name}: provide {rule.name}" if labelled else "",
                                    ("provide", skill, prov, i)))
        return options

    def _provide_frame(self, p: Player, skill: SkillRule, family: str) -> Frame:
        ctx = self.game.request_context
        return Frame(self.game, {"owner": p, "skill": skill, "family": family, "against": ctx[0],
                                 "against_user": ctx[1], "play": ctx[2]})

    def _respond_once(self, p: Player, family: str, play: bool, against: Any, against_user,
                      behalf: Player | None = None) -> Any:
        """One card given in answer. A provide that fails to supply is not offered again for this card."""
        tried: list[tuple[str, int]] = []
        saved = self.game.request_context
        self.game.request_context = (against, against_user, play)
        try:
            while True:
                options = self._respond_offers(p, family, play, tried)
                if not options:
                    return None
                labels = [o[0] for o in options] + ["decline"]
                prompt = f"respond with {family}" + (f" to {against.name}" if against is not None else "")
                tags = answer_hints(options)
                if behalf is None:
                    pick = self.choices.ask(p, "respond", prompt, labels, about=against, subject=against_user,
                                            option_tags=tags)[0]
                else:
                    pick = self.choices.ask(p, "respond_for", f"{prompt} for {behalf.label()}", labels,
                                            about=against, subject=behalf, option_tags=tags)[0]
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
                    self.dispatch.skill_fired(p, skill)
                    run_rule(prov.body, frame)
                    if frame.supplied is None:  # (said, so that a reader sees why the request is asked again)
                        if self.game.record:
                            self.game.emit_log("provided_nothing", player=p.label(), skill=skill.name)
                        continue
                    card = frame.supplied
                    if isinstance(card, VirtualCard) and not card.subcards:
                        self.dispatch.count_use(p, ("respond", card.family))
                        if self.game.record:  # (the labels are made only for a log that is kept)
                            self.game.emit_log("respond", player=p.label(), card=card.label(), play=play)
                        return card
                if card is None:
                    return None
                if isinstance(card, VirtualCard) and card.declared and \
                        self.declaration_void(p, card, "respond", []):
                    return None
                self._into_processing(card)
                self.dispatch.count_use(p, ("respond", card.family))
                if self.game.record:  # (the labels are made only for a log that is kept)
                    self.game.emit_log("respond", player=p.label(), card=card.label(), play=play)
                left = [c for c in card.physical if c.zone == "processing"]
                if left:
                    self.zones.move(left, "discard", None)
                return card
        finally:
            self.game.request_context = saved

    # ------------------------------------------------------------ delayed tricks & equipment
    def place_judge(self, card: Card | VirtualCard, target: Player) -> None:
        entry = card  # a converted card keeps its rule in the judge area (e.g. a suit used as a delayed trick)
        for c in card.physical:
            self.zones.take_out(c)
            c.zone, c.holder = "judge", target
        target.judge.append(entry)
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("judge_area", card=card.label(), player=target.label())

    def move_judge(self, entry, target: Player) -> None:
        """Move a judge-area card (e.g. one that passes on) to another player's judge area."""
        for p in self.game.players:
            if entry in p.judge:
                p.judge.remove(entry)
        for c in entry.physical:
            c.zone, c.holder = "judge", target
        target.judge.append(entry)
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("judge_area", card=entry.label(), player=target.label())

    def resolve_delayed(self, p: Player, entry) -> None:
        rec = UseRecord(None, entry, p, [p], "judge")
        base = {"card": entry, "target": p, "owner": p, "user": None, "use": rec, "targets": [p], "event": None}
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("delayed", card=entry.label(), player=p.label())
        if self.nullify_window(entry, None, p, rec):
            hook = entry.rule.hooks.get("nullified")
            if hook is not None:
                run_rule(hook, Frame(self.game, dict(base)))
            elif entry in p.judge:
                self.zones.discard(list(entry.physical), None)
            return
        if entry.rule.effect is not None:
            run_rule(entry.rule.effect, Frame(self.game, dict(base)))

    def equip(self, p: Player, card: Card | VirtualCard) -> None:
        slot = card.category
        old = p.equips.get(slot)
        if old is not None:
            self.zones.discard([old], p)
        phys = card.physical[0] if isinstance(card, VirtualCard) else card
        self.zones.take_out(phys)
        phys.zone, phys.holder = "equip", p
        p.equips[slot] = phys
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("equip", player=p.label(), card=phys.label())
        self.dispatch.refresh_skills(p)


def answer_hints(offers: list[tuple[str, tuple]]) -> tuple[tuple[str, ...], ...]:
    """Per offer of an answer (and its pass), for agents to weigh: ("conversion", "risk") for a card made by a risky
    skill's conversion, and "declared" when it is a face-down declaration (蛊惑's may be questioned); "try" for a
    card a skill may supply (`TRY`: a failed try leaves the request open), with "risk" when its skill says so; ()
    when no offer is either, as for any request."""
    tags = [_answer_hint(o[1]) for o in offers]
    return (*tags, ()) if any(tags) else ()


def _answer_hint(offer: tuple) -> tuple[str, ...]:
    kind = offer[0]
    if kind == "viewas" and "risk" in offer[1].tags:
        return ("conversion", "risk", DECLARED) if offer[2].declared else ("conversion", "risk")
    if kind == "provide":
        return (TRY, "risk") if "risk" in offer[1].tags else (TRY,)
    return ()


def declared_hints(sources: Sequence[Card], rule: CardRule) -> list[tuple[str, ...]]:
    """The cards a face-down declaration may be made of, as agents see them: each card's own hints, and "genuine" on
    one that is the card declared (what a question shows: 蛊惑 makes each questioner of a true one lose 1 HP)."""
    return [(*hints_of(c), GENUINE) if c.name == rule.name else hints_of(c) for c in sources]

