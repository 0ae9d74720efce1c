"""Piles on a general (fields, general cards held…): named, public or private, holding playing cards or general cards.

Playing cards in a pile have zone "pile" and the pile's owner as holder; they count in card conservation and
leave the pile through any ordinary move (obtain, discard, use). General cards come out of the pool of
unused generals and go back to it. When the owner dies, its piles are cleared: cards to the discard pile,
general cards back to the pool.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .decisions import pile_item_label
from .errors import RuleError
from .model import Card, Player, VirtualCard
from .program import GeneralRule, drop_same
from .state import GameState
from .zones import Zones


class Piles:
    """Piles on generals, and general cards moving between them and the pool of unused generals."""

    def __init__(self, game: GameState, zones: Zones):
        self.game = game
        self.zones = zones

    def put_on_pile(self, p: Player, name: str, items: Iterable[Any], public: bool = True) -> None:
        if not p.alive:
            return
        if not name:
            raise RuleError("a pile needs a name")
        pile = p.piles.setdefault(name, [])
        p.pile_public[name] = bool(public)
        cards: list[Card] = []
        generals: list[GeneralRule] = []
        for x in items:
            if isinstance(x, GeneralRule):
                generals.append(x)
            elif isinstance(x, (Card, VirtualCard)):
                cards.extend(x.physical)
            elif x is not None:
                raise RuleError(f"only cards and general cards go on a pile, not {x!r}")
        for g in generals:
            self.take_general_out(g)
            pile.append(g)
        losses: dict[tuple[int, str], list[Card]] = {}
        for c in cards:
            holder, zone = self.zones.take_out(c)
            if holder is not None and zone in ("hand", "equip"):
                losses.setdefault((holder.seat, zone), []).append(c)
            c.zone, c.holder, c.used_face = "pile", p, None
            pile.append(c)
        if cards or generals:
            shown = [pile_item_label(x) for x in cards + generals] if public else len(cards) + len(generals)
            self.game.emit_log("pile", player=p.label(), pile=name, added=shown)
        self.zones.announce_losses(losses)  # a card put on a pile from a hand or equipment area is lost

    def take_general_out(self, g: GeneralRule) -> None:
        """A general card leaves wherever it is (the pool or a pile)."""
        drop_same(self.game.general_pool, g)
        for q in self.game.players:
            for pile in q.piles.values():
                drop_same(pile, g)

    def clear_piles(self, p: Player) -> None:
        """At death: the pile cards go to the discard pile, general cards back to the pool."""
        cards = [x for pile in p.piles.values() for x in pile if isinstance(x, Card)]
        generals = [x for pile in p.piles.values() for x in pile if isinstance(x, GeneralRule)]
        if cards:
            self.zones.discard(cards, None)
        for g in generals:
            self.take_general_out(g)
            self.game.general_pool.append(g)
        p.piles.clear()
        p.pile_public.clear()
