"""Whole turns: turning a character over (翻面), extra turns and skipped turns.

A turn that would start can be skipped as a whole (no phases, no turn_start or turn_end): a face-down
character turns face up instead, and a character with a pending `skip_turn` loses that turn. Extra turns are
queued and played right after the turn in progress, one after another.
"""

from __future__ import annotations

from .events import Event
from .model import PHASES, Player


class TurnFlow:
    """Face up / face down, extra turns and skipped turns; mixed into Game."""

    extra_queue: list[Player]
    extra_now: bool

    def turn_over(self, p: Player) -> None:
        """Toggle face up / face down (a dead character is not turned)."""
        if not p.alive:
            return
        p.face_down = not p.face_down
        self.emit_log("turn_over", player=p.label(), face_down=p.face_down)
        self.emit("turned_over", Event("turned_over", player=p, face_down=p.face_down))

    def queue_extra_turn(self, p: Player) -> None:
        self.extra_queue.append(p)
        self.emit_log("extra_turn_gained", player=p.label())

    def skip_turn(self, p: Player) -> None:
        p.skip_turns += 1
        self.emit_log("skip_turn", player=p.label())

    def turn_skipped(self, p: Player) -> bool:
        """Called when p's turn would start: true (and the turn is skipped) when p is face down or owes a
        skipped turn. A face-down character turns face up; one skip is used up."""
        reason = None
        if p.skip_turns > 0:
            p.skip_turns -= 1
            reason = "skipped"
        if p.face_down:
            reason = reason or "face_down"
            self.current = p
            self.emit_log("turn_skipped", player=p.label(), reason=reason)
            self.turn_over(p)
            return True
        if reason is not None:
            self.emit_log("turn_skipped", player=p.label(), reason=reason)
            return True
        return False

    def play_extra_turns(self) -> None:
        """The extra turns gained so far, each right after the previous one (an extra turn may gain more)."""
        while self.extra_queue:
            p = self.extra_queue.pop(0)
            if not p.alive:
                continue
            self.emit_log("extra_turn", player=p.label())
            saved = self.extra_now
            self.extra_now = True
            try:
                self._play_turn(p, PHASES)
            finally:
                self.extra_now = saved
