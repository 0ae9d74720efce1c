"""HP: damage, recovery, HP loss, dying and death, and judgement."""

from __future__ import annotations

from typing import Any

from .decisions import Decisions
from .dispatch import Dispatch, new_event
from .errors import GameOver
from .events import Event
from .model import Card, Player
from .piles import Piles
from .program import Frame
from .state import GameState
from .using import CardUse
from .zones import Zones


class Health:
    """Damage, recovery, dying, death and judgement."""

    def __init__(self, game: GameState, choices: Decisions, dispatch: Dispatch, zones: Zones, piles: Piles,
                 use: CardUse):
        self.game = game
        self.choices = choices
        self.dispatch = dispatch
        self.zones = zones
        self.piles = piles
        self.use = use
        game.zero_hp_check = self.check_zero_hp
        self._checking = False

    # ------------------------------------------------------------ damage, recovery, dying
    def damage(self, target: Player, amount: int, source: Player | None = None, card: Any = None,
               nature: str = "normal", chain: bool = False, use: Any = None, transferred: bool = False) -> int:
        """Deal damage. At `creating_damage` rules may change its source or redirect it to another target
        (which flags it `transferred`); the card, nature and use stay."""
        if not target.alive or amount <= 0:
            return 0
        ev = new_event("damage", {"source": source, "target": target, "amount": amount, "nature": nature, "card": card,
                                  "chain": chain, "use": use, "transferred": transferred})
        self.dispatch.emit("creating_damage", ev)
        if ev.target is not target:
            ev.transferred = True
            self.game.emit_log("damage_redirected", old=target.label(),
                               new=ev.target.label() if ev.target is not None else None)
        hit, source = ev.target, ev.source  # (a rule may have made it none: not `target`, typed a character)
        if ev.cancelled or hit is None or not hit.alive:
            return 0
        target = hit
        if source is not None and source.alive:
            self.dispatch.emit("causing_damage", ev)
        if not ev.cancelled:
            self.dispatch.emit("taking_damage", ev)
        if getattr(ev, "transfer_to", None) is not None:  # transfer_damage prevented it and dealt a new one at once
            return 0
        if ev.cancelled or ev.amount <= 0:
            self.game.emit_log("damage_prevented", target=target.label())
            return 0
        target.hp -= ev.amount
        if source is not None:
            self.game.damage_history.append((source.seat, target.seat, ev.amount))
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("damage", target=target.label(), amount=ev.amount, nature=ev.nature,
                               source=source.label() if source else None, hp=target.hp,
                               card=card.label() if card is not None else None, **({"chain": True} if chain else {}),
                               **({"transferred": True} if ev.transferred else {}))
        self._fell(target, "damage_done", ev)
        if target.hp <= 0:
            self.enter_dying(target, source)
        if target.alive:
            self.dispatch.emit("damaged", ev)
        self.dispatch.emit("after_damage", ev)
        return ev.amount

    def _fell(self, p: Player, timing: str, ev: Event) -> None:
        """The timing right after p lost HP; at 0 HP or less p is falling (`GameState.hp_falling`) until its dying
        state is resolved after it (a skill asking a question there sees p at 0 HP, not yet dying: 不屈)."""
        if p.hp > 0:
            self.dispatch.emit(timing, ev)
            return
        self.game.hp_falling.append(p)
        try:
            self.dispatch.emit(timing, ev)
        finally:
            self.game.hp_falling.remove(p)

    def transfer(self, ev: Any, to: Player) -> int:
        """transfer_damage: the pending damage EV is prevented and the same damage (amount, source, card, nature,
        chain, use), flagged `transferred`, is dealt to `to` at once, so what the calling block does next comes after
        it (a 天香 draws for the new target once the damage has landed)."""
        ev.cancelled = True
        ev.transfer_to = to
        self.game.emit_log("damage_transferred", old=ev.target.label(), new=to.label())
        return self.damage(to, ev.amount, ev.source, ev.card, ev.nature, ev.chain, ev.use, transferred=True)

    def lose_hp(self, p: Player, n: int) -> None:
        if not p.alive or n <= 0:
            return
        p.hp -= n
        self.game.emit_log("lose_hp", player=p.label(), n=n, hp=p.hp)
        self._fell(p, "lost_hp", new_event("lost_hp", {"player": p, "amount": n}))
        if p.hp <= 0:
            self.enter_dying(p, None)

    def change_max_hp(self, p: Player, n: int) -> None:
        """Gain or lose max HP. A loss cuts HP to the new maximum; max HP 0 kills at once (no killer). A gain
        leaves HP as it is."""
        if not p.alive or n == 0:
            return
        p.max_hp = max(0, p.max_hp + n)
        p.hp = min(p.hp, p.max_hp)
        self.game.emit_log("max_hp", player=p.label(), change=n, max_hp=p.max_hp, hp=p.hp)
        if p.max_hp == 0:
            self.kill(p, None)
        elif self.dispatch.listens("max_hp_changed"):
            self.dispatch.emit("max_hp_changed", new_event("max_hp_changed", {"player": p, "change": n,
                                                                              "max_hp": p.max_hp}))

    def recover(self, target: Player, amount: int, source: Player | None = None, card: Any = None) -> int:
        if not target.alive or amount <= 0:
            return 0
        ev = self.dispatch.emit("recovering", new_event("recovering", {"target": target, "amount": amount,
                                                                       "source": source, "card": card}))
        if ev.cancelled:
            return 0
        gained = max(0, min(target.max_hp - target.hp, ev.amount))
        if gained <= 0:
            return 0
        target.hp += gained
        if source is not None and source is not target:
            self.game.recover_history.append((source.seat, target.seat, gained))
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("recover", target=target.label(), amount=gained, hp=target.hp)
        if self.dispatch.listens("recovered"):
            self.dispatch.emit("recovered", new_event("recovered", {"target": target, "amount": gained,
                                                                    "source": source, "card": card}))
        return gained

    def stays_alive(self, p: Player) -> bool:
        """A rule keeps p alive at 0 HP or less (the engine value alive_at_zero, false unless a skill says so)."""
        if "alive_at_zero" in self.game.plain_values:  # nobody modifies it: false
            return False
        return bool(self.dispatch.value("alive_at_zero", p))

    def check_zero_hp(self) -> None:
        """Those kept alive at 0 HP or less whom the rule no longer keeps (a skill lost, its condition gone) enter
        their dying state now; those who got their HP back above 0 are no longer kept."""
        g = self.game
        if self._checking:
            return
        self._checking = True
        try:
            for p in list(g.zero_hp):
                if not p.alive or p.hp > 0:
                    g.zero_hp.remove(p)
                elif not p.dying and not self.stays_alive(p):
                    g.zero_hp.remove(p)
                    g.emit_log("no_longer_kept_alive", player=p.label(), hp=p.hp)
                    self.enter_dying(p, None)
        finally:
            self._checking = False

    def enter_dying(self, p: Player, killer: Player | None) -> None:
        if p.dying or not p.alive:
            return
        if self.stays_alive(p):  # a rule keeps p alive at 0 HP or less: no dying state at all
            self._kept_alive(p)
            return
        if p in self.game.zero_hp:
            self.game.zero_hp.remove(p)
        p.dying = True
        self.game.dying_now.append(p)
        try:
            self._dying(p, killer)
        finally:
            self.game.dying_now.remove(p)

    def _dying(self, p: Player, killer: Player | None) -> None:
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("dying", player=p.label(), hp=p.hp)
        ev = self.dispatch.emit("dying", new_event("dying", {"player": p, "source": killer}))
        for q in self.game.seat_order(self.game.current):
            # (a rescue that makes the rule keep p alive again, e.g. by taking a card off its pile, ends the asking)
            while p.hp <= 0 and q.alive and p.alive and not self.stays_alive(p):
                offers = self.use.context_offers(q, "dying", p)
                if not offers:
                    break
                labels = [o[0] for o in offers] + ["pass"]
                pick = self.choices.ask(q, "rescue", f"rescue {p.label()}", labels, subject=p)[0]
                if pick == len(offers):
                    break
                c, use = self.use.realize_offer(q, offers[pick][1])
                if c is None:
                    break
                self.use.use_card(q, c, use, [p], "dying", ev)
            if p.hp > 0 or not p.alive or self.stays_alive(p):
                break
        if p.alive and p.hp <= 0 and self.stays_alive(p):
            self._kept_alive(p)
            return
        p.dying = False
        if p.hp <= 0 and p.alive:
            self.kill(p, killer)

    def _kept_alive(self, p: Player) -> None:
        """p leaves its dying state alive at 0 HP or less, kept by a rule until it no longer holds."""
        p.dying = False
        if p not in self.game.zero_hp:
            self.game.zero_hp.append(p)
        self.game.emit_log("kept_alive", player=p.label(), hp=p.hp)

    def kill(self, p: Player, killer: Player | None) -> None:
        self.game.deaths.append((p, killer, len(self.game.alive())))
        p.alive = False
        if not p.role_revealed:
            g = self.game
            g.shown_history.append((p.seat, len(g.damage_history), len(g.recover_history), len(g.act_history)))
            p.role_revealed = True
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("death", player=p.label(), role=p.role, killer=killer.label() if killer else None)
        # the death itself: the victim's cards are still in place and its own skills still answer (at death)
        self.game.departing = p  # until its cards are discarded the dead victim still holds them (checked invariants)
        try:
            self.dispatch.emit("death", new_event("death", {"victim": p, "killer": killer}), victim=p)
        finally:
            self.game.departing = None
        self.zones.discard(p.all_cards(), None)
        self.piles.clear_piles(p)
        self.dispatch.refresh_skills(p)  # (dead: none are left)
        self.check_wins()
        self.dispatch.emit("died", new_event("died", {"victim": p, "killer": killer}))
        if self.game.current is p:
            pass  # the turn loop notices the current player died

    def check_wins(self) -> None:
        for roles, cond in self.game.mode.wins:
            if cond(Frame(self.game, {})):
                raise GameOver(roles, "win")

    # ------------------------------------------------------------ judgement
    def judge(self, p: Player, reason: Any = None, hoping: Any = None) -> Card:
        """A judgement for p. While it is judged the card is p's (holder_of: a skill that makes its owner's cards
        count as another suit applies to it), and the result keeps the face it was judged with until it next moves
        (the rule that asked reads the judged suit after the card went to the discard pile). HOPING, a function of
        a card: whether it is a result p hopes for, told to agents asked while its card may still be replaced (the
        `judging` event)."""
        g = self.game
        card = self.zones.reveal_top()
        g.judge_owner[card.id] = p
        ev = new_event("judging", {"player": p, "card": card, "reason": reason})
        try:
            if g.record:  # (the labels are made only for a log that is kept)
                g.emit_log("judge", player=p.label(), card=card.label())
            if hoping is None:
                self.dispatch.emit("judging", ev)
            else:
                g.judging.append((p, hoping, ev))
                try:
                    self.dispatch.emit("judging", ev)
                finally:
                    g.judging.pop()
            self.dispatch.emit("judged", ev)
            result = ev.card
            face = (result.rule, result.suit, result.color) if g.counts_as else None
        finally:
            g.judge_owner.pop(card.id, None)
            g.judge_owner.pop(ev.card.id, None)
        if result.zone == "processing":
            self.zones.move([result], "discard", None)
            if face is not None and face != (result.rule, result.suit, result.color):
                result.used_face = face  # (cleared by its next move, like a used card's)
                g.used_face_kept = g.counts_as = True
        return result

    def retrial(self, ev: Event, card: Card) -> None:
        """Replace the card of a pending judgement (the old one is discarded)."""
        old = ev.card
        self.zones.move([card], "processing", None)
        self.game.judge_owner[card.id] = ev.player
        self.game.judge_owner.pop(old.id, None)
        if old.zone == "processing":
            self.zones.move([old], "discard", None)
        ev.card = card
        self.game.emit_log("retrial", old=old.label(), new=card.label())
