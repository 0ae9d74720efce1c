"""Card movement between zones; every move goes through one method so losing cards is always an event."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .dispatch import Dispatch, new_event
from .draws import shuffle
from .errors import EngineError, GameOver, RuleError
from .model import EQUIP_SLOTS, Card, Player, VirtualCard
from .state import GameState


class Zones:
    """Where every card is: hands, equipment, judge areas, piles, the draw and discard piles, processing."""

    def __init__(self, game: GameState, dispatch: Dispatch):
        self.game = game
        self.dispatch = dispatch

    # ------------------------------------------------------------ card movement
    def take_out(self, c: Card) -> tuple[Player | None, str]:
        """Take c out of wherever it is (no event: the caller puts it somewhere and says so)."""
        zone, holder = c.zone, c.holder
        c.last_zone, c.last_holder = zone, holder  # (provenance: last_zone(c), last_holder(c))
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
            _remove_card(self.game.draw_pile, c)
        elif zone == "discard":
            _remove_card(self.game.discard_pile, c)
        elif zone == "processing":
            _remove_card(self.game.processing, c)
        elif zone == "pile":
            self.take_out_of_pile(c)
        return holder, zone

    @staticmethod
    def take_out_of_pile(c: Card) -> None:
        holder = c.holder
        if holder is not None:
            for pile in holder.piles.values():
                if c in pile:
                    pile.remove(c)
                    return

    def move(self, cards: Iterable[Card | VirtualCard], zone: str, to: Player | None, top: bool = True) -> None:
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
            holder, old = self.take_out(c)
            if holder is not None and old in ("hand", "equip"):
                losses.setdefault((holder.seat, old), []).append(c)
            c.zone, c.holder = zone, to
            c.used_face = None  # (a card used as another is that card only until it moves on: CardUse._into_processing)
            if zone == "hand":
                assert to is not None
                to.hand.append(c)
            elif zone == "discard":
                self.game.discard_pile.append(c)
            elif zone == "processing":
                self.game.processing.append(c)
            elif zone == "draw":
                if top:
                    self.game.draw_pile.append(c)
                else:
                    self.game.draw_pile.insert(0, c)
            else:
                raise EngineError(f"cannot move a card to zone {zone!r}")
        self.announce_losses(losses)
        if zone == "hand" and to is not None and moved and self.dispatch.listens("gained_cards"):
            self.dispatch.emit("gained_cards", new_event("gained_cards", {"player": to, "cards": moved}))
        if self.game.zero_hp:  # someone kept alive at 0 HP or less: a card that moved may end it
            self.dispatch.zero_hp_recheck()

    def swap_hands(self, a: Player, b: Player) -> None:
        """a and b exchange their hands at once; then the losses, then the gains, each in seat order."""
        ha, hb = list(a.hand), list(b.hand)
        for c in ha + hb:
            self.take_out(c)
        for cards, to in ((ha, b), (hb, a)):
            for c in cards:
                c.zone, c.holder, c.used_face = "hand", to, None
                to.hand.append(c)
        self.game.emit_log("swap", a=a.label(), b=b.label(), a_gave=len(ha), b_gave=len(hb))
        first, second = (a, b) if a.seat < b.seat else (b, a)
        self.announce_losses({(p.seat, "hand"): cards for p, cards in ((a, ha), (b, hb)) if cards})
        if self.dispatch.listens("gained_cards"):
            for p in (first, second):
                got = hb if p is a else ha
                if got:
                    self.dispatch.emit("gained_cards", new_event("gained_cards", {"player": p, "cards": got}))
        if self.game.zero_hp:
            self.dispatch.zero_hp_recheck()

    def announce_losses(self, losses: dict[tuple[int, str], list[Card]]) -> None:
        """The lost_cards events of a move: per (seat, hand or equip) in seat order, with the equipment skills
        lost refreshed around it. Every move that takes cards out of a hand or an equipment area ends here."""
        if not losses:
            return
        for (seat, old), lost in sorted(losses.items()) if len(losses) > 1 else losses.items():
            holder = self.game.players[seat]
            heard = self.dispatch.listens("lost_cards")
            # the equipment lost is heard at its own loss: its skills kept until then. (Its skills are the holder's
            # until the refresh after, so when nobody listens now, nobody would after keeping them either: nothing
            # runs in between, and the refresh after makes the same tables from the same skills)
            if old == "equip" and heard:
                self.dispatch.refresh_skills(holder, keep=[c.rule for c in lost])
            if heard and self.dispatch.listens("lost_cards"):
                self.dispatch.emit("lost_cards", new_event("lost_cards", {"player": holder, "cards": lost,
                                                                          "zone": old}))
            if old == "equip":
                self.dispatch.refresh_skills(holder)

    def _reshuffle(self) -> None:
        if not self.game.discard_pile:
            raise GameOver((), "deck_exhausted")
        pile = self.game.discard_pile
        self.game.discard_pile = []
        shuffle(self.game.rng, pile)
        for c in pile:
            c.zone = "draw"
            c.used_face = None  # (a judgement result kept the face it was judged with while it lay there)
        self.game.draw_pile = pile + self.game.draw_pile
        self.game.emit_log("reshuffle", cards=len(pile))

    def draw(self, p: Player, n: int) -> list[Card]:
        got: list[Card] = []
        if not p.alive:
            return got
        for _ in range(max(0, n)):
            if not self.game.draw_pile:
                self._reshuffle()
            c = self.game.draw_pile[-1]
            got.append(c)
            self.move([c], "hand", p)
        if got:
            if self.game.record:  # (the labels are made only for a log that is kept)
                self.game.emit_log("draw", player=p.label(), n=len(got))
        return got

    def reveal_top(self) -> Card:
        if not self.game.draw_pile:
            self._reshuffle()
        c = self.game.draw_pile[-1]
        self.move([c], "processing", None)
        return c

    def discard(self, cards: Iterable[Any], by: Player | None) -> None:
        phys: list[Card] = []
        for c in cards:
            phys.extend(c.physical)
        if phys:
            if self.game.record:  # (the labels are made only for a log that is kept)
                self.game.emit_log("discard", cards=[c.label() for c in phys], by=by.label() if by else None)
            self.move(phys, "discard", None)
            if self.dispatch.listens("discarded"):
                self.dispatch.emit("discarded", new_event("discarded", {"cards": phys, "by": by}))

    def obtain(self, p: Player, cards: Iterable[Any]) -> None:
        phys: list[Card] = []
        for c in cards:
            phys.extend(x for x in c.physical if not (x.zone == "hand" and x.holder is p))
        if phys:
            if self.game.record:  # (the labels are made only for a log that is kept)
                self.game.emit_log("obtain", player=p.label(), cards=[c.label() for c in phys])
            self.move(phys, "hand", p)

    def place_equip(self, p: Player, card: Any) -> None:
        """Put an equipment card into p's equipment area without using it (no card_used): the slot's old card,
        if any, goes to the discard pile. Its former holder loses it (lost_cards) like any other move."""
        if card.category not in EQUIP_SLOTS:
            raise RuleError(f"{card.label()} is not equipment")
        phys = card.physical[0]
        old = p.equips.get(card.category)
        if old is not None and old is not phys:
            self.discard([old], p)
        holder, zone = phys.holder, phys.zone
        self.take_out(phys)
        phys.zone, phys.holder = "equip", p
        p.equips[card.category] = phys
        if self.game.record:  # (the labels are made only for a log that is kept)
            self.game.emit_log("equip", player=p.label(), card=phys.label(), placed=True)
        if holder is not None and zone in ("hand", "equip"):
            if zone == "equip":
                self.dispatch.refresh_skills(holder)
            self.dispatch.emit("lost_cards", new_event("lost_cards", {"player": holder, "cards": [phys], "zone": zone}))
        self.dispatch.refresh_skills(p)


def _remove_card(pile: list[Card], c: Card) -> None:
    """Take C out of a pile it lies in. A card is drawn or revealed from the top, the end of the list, where
    `list.remove` would reach it last, after comparing it with every card below (a card lies in one place once)."""
    if pile and pile[-1] is c:
        pile.pop()
    else:
        pile.remove(c)
