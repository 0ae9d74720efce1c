"""What the studio page draws: the table as one seat may see it, as plain JSON-ready data.

The snapshot is taken inside the game's own thread (at a decision, or when the game ends), so the web server
never reads a game while it moves. It applies the same visibility as the engine's seat views
(`Decisions.view`): another seat's hand is a count, a private pile its size, a hidden role "hidden" until it is
revealed or the game is over. A spectator (viewer None: agents watched, or a replay) sees every hand.
"""

from __future__ import annotations

from typing import Any

from ..engine.decisions import pile_view, stable_text
from ..engine.game import Game
from ..engine.model import EQUIP_SLOTS, Card, Player


def card_face(card: Any) -> dict[str, str]:
    """A card as the page shows it: its name, suit and rank (empty for a converted card without a face)."""
    rule = getattr(card, "rule", None)
    return {"name": str(getattr(rule, "name", "") or card.label()), "suit": str(getattr(card, "suit", "") or ""),
            "rank": _rank(getattr(card, "rank", 0)), "label": card.label()}


def _rank(rank: Any) -> str:
    names = {1: "A", 11: "J", 12: "Q", 13: "K"}
    return names.get(rank, str(rank)) if isinstance(rank, int) and rank > 0 else ""


def seat_state(game: Game, q: Player, viewer: int | None) -> dict[str, Any]:
    """One seat at the table, as VIEWER (None: a spectator who sees all) may see it."""
    sees_all = viewer is None
    own = viewer == q.seat
    over = game.result is not None
    general = q.general
    out: dict[str, Any] = {
        "seat": q.seat, "general": general.name if general is not None else q.name,
        "general_id": general.ident if general is not None else "", "kingdom": str(q.kingdom),
        "hp": q.hp, "max_hp": q.max_hp, "alive": q.alive, "dying": q.dying, "chained": q.chained,
        "face_down": q.face_down, "hand_count": len(q.hand),
        "role": q.role if (q.role_revealed or own or sees_all or over) else "hidden",
        "equips": [dict(card_face(q.equips[s]), slot=s) for s in EQUIP_SLOTS if s in q.equips],
        "judge": [card_face(j) for j in q.judge],
        "marks": {k: stable_text(v) for k, v in sorted(q.marks.items())},
        "skills": [s.name for s in q.skills],
        "current": game.current is q if game.current is not None else False,
    }
    if viewer is None:
        out["piles"] = {name: [_pile_label(x) for x in items] for name, items in sorted(q.piles.items()) if items}
    else:
        out["piles"] = pile_view(q, game.players[viewer]) if q.piles else {}
    if own or sees_all:
        out["hand"] = [card_face(c) for c in q.hand]
    return out


def _pile_label(x: Any) -> str:
    return x.name if not isinstance(x, Card) and hasattr(x, "name") else x.label()


def table_state(game: Game, viewer: int | None) -> dict[str, Any]:
    """The whole table: every seat, the piles' sizes, the discard pile's top, the round and whose turn it is."""
    return {
        "viewer": viewer,
        "round": game.round,
        "phase": str(game.phase or ""),
        "current": game.current.seat if game.current is not None else None,
        "draw_pile": len(game.draw_pile),
        "discard_top": [card_face(c) for c in game.discard_pile[-5:]],
        "seats": [seat_state(game, q, viewer) for q in game.players],
        "result": _result(game),
    }


def _result(game: Game) -> dict[str, Any] | None:
    if game.result is None:
        return None
    winners, reason = game.result
    return {"winners": list(winners), "reason": reason, "seats": list(game.winners_seats)}
