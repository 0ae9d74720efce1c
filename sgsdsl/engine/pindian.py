"""拼点 (pindian) as one action: both sides pick a hand card unseen by the other, the cards are revealed
together, the higher rank wins (a tie: the initiator does not win), then both cards go to the discard pile.

Two timings let skills react: `pindian_reveal` once both cards are chosen, before the result is read (the
cards may still be replaced), and `pindian_done` with the result, while the cards are still being shown.
"""

from __future__ import annotations

from .decisions import Decisions
from .dispatch import Dispatch, new_event
from .events import Event
from .model import Card, Player
from .state import GameState
from .zones import Zones


class Pindian:
    """The pindian action."""

    def __init__(self, game: GameState, choices: Decisions, dispatch: Dispatch, zones: Zones):
        self.game = game
        self.choices = choices
        self.dispatch = dispatch
        self.zones = zones

    def can_pindian(self, a: Player | None, b: Player | None) -> bool:
        """Both living, different, and each with at least one hand card."""
        return (a is not None and b is not None and a is not b and a.alive and b.alive
                and bool(a.hand) and bool(b.hand))

    def pindian(self, a: Player, b: Player, reason: str = "") -> Event | None:
        """The result event (initiator, target, initiator_card, target_card, winner, won), none when the two
        cannot pindian."""
        if not self.can_pindian(a, b):
            return None
        what = f"拼点{': ' + reason if reason else ''}"
        # each picks without seeing the other's card: the requests carry nothing about it
        # (each is told whom it contests and the ranks of its own cards: what a player knows when it picks)
        mine: Card = self.choices.choose_many(a, list(a.hand), 1, 1, f"{what}: your card against {b.label()}",
                                              subject=b, ranked=True)[0]
        theirs: Card = self.choices.choose_many(b, list(b.hand), 1, 1, f"{what}: your card against {a.label()}",
                                                subject=a, ranked=True)[0]
        self.zones.move([mine, theirs], "processing", None)
        ev = new_event("pindian", {"initiator": a, "target": b, "initiator_card": mine, "target_card": theirs,
                                   "winner": None, "won": False, "reason": reason})
        self.dispatch.emit("pindian_reveal", ev)
        ev.won = ev.initiator_card.rank > ev.target_card.rank
        ev.winner = a if ev.won else (b if ev.target_card.rank > ev.initiator_card.rank else None)
        self.game.emit_log("pindian", initiator=a.label(), target=b.label(), initiator_card=ev.initiator_card.label(),
                           target_card=ev.target_card.label(), winner=ev.winner.label() if ev.winner else None)
        self.dispatch.emit("pindian_done", ev)
        left = [c for c in (ev.initiator_card, ev.target_card) if c.zone == "processing"]
        if left:
            self.zones.move(left, "discard", None)
        return ev
