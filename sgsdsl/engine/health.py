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
        to = getattr(ev, "transfer_to", None)
        if to is not None:  # transfer_damage: this damage is prevented and a new one, flagged, goes to `to`
            self.game.emit_log("damage_transferred", old=target.label(), new=to.label())
            return self.damage(to, ev.amount, source, card, ev.nature, chain, use, transferred=True)
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
        self.dispatch.emit("damage_done", ev)
        if target.hp <= 0:
            self.enter_dying(target, source)
        if target.alive:
            self.dispatch.emit("damaged", ev)
        self.dispatch.emit("after_damage", ev)
        return ev.amount

    def lose_hp(self, p: Player, n: int) -> None:
        if not p.alive or n <= 0:
            return
        p.hp -= n
        self.game.emit_log("lose_hp", player=p.label(), n=n, hp=p.hp)
        self.dispatch.emit("lost_hp", new_event("lost_hp", {"player": p, "amount": n}))
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

    def enter_dying(self, p: Player, killer: Player | None) -> None:
        if p.dying or not p.alive:
            return
        p.dying = True
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("dying", player=p.label(), hp=p.hp)
        ev = self.dispatch.emit("dying", new_event("dying", {"player": p, "source": killer}))
        for q in self.game.seat_order(self.game.current):
            while p.hp <= 0 and q.alive and p.alive:
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
            if p.hp > 0 or not p.alive:
                break
        p.dying = False
        if p.hp <= 0 and p.alive:
            self.kill(p, killer)

    def kill(self, p: Player, killer: Player | None) -> None:
        self.game.deaths.append((p, killer, len(self.game.alive())))
        p.alive = False
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
    def judge(self, p: Player, reason: Any = None) -> Card:
        card = self.zones.reveal_top()
        ev = new_event("judging", {"player": p, "card": card, "reason": reason})
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("judge", player=p.label(), card=card.label())
        self.dispatch.emit("judging", ev)
        self.dispatch.emit("judged", ev)
        result = ev.card
        if result.zone == "processing":
            self.zones.move([result], "discard", None)
        return result

    def retrial(self, ev: Event, card: Card) -> None:
        """Replace the card of a pending judgement (the old one is discarded)."""
        old = ev.card
        self.zones.move([card], "processing", None)
        if old.zone == "processing":
            self.zones.move([old], "discard", None)
        ev.card = card
        self.game.emit_log("retrial", old=old.label(), new=card.label())
