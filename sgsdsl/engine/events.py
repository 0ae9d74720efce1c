"""Events and the small pieces every part of the runtime shares."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import BreakLoop, StopEffect
from .program import Frame

NULLIFIABLE = ("trick", "delayed")
SCOPES = ("phase", "turn", "round", "game")
MAX_PLAY_ACTIONS = 60
UNLIMITED = 10**6
# Each game's step budget: loop rounds, trigger runs and value evaluations of the rules together. A normal game
# spends a few thousand; a rule that loops or recurses without end exhausts it in about a second.
STEP_BUDGET = 150_000
# How many extra turns may be granted after one ordinary turn (their own included): no rule of the game needs more
# than a few; a rule that grants one at every phase start grants them without end, and is stopped where it grants.
MAX_EXTRA_TURNS = 100
# How deep events may nest (a trigger whose effect fires its own timing again, and again…).
MAX_EVENT_DEPTH = 40


class Event:
    """The data of one timing; handlers read and (for mutable fields) change it."""

    def __init__(self, name: str, **fields: Any):
        self.name = name
        self.cancelled = False
        self.__dict__.update(fields)

    def __repr__(self) -> str:
        return f"Event({self.name})"

    if TYPE_CHECKING:  # an event's fields are its timing's (registry.timings): read as Any by the type checker
        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...


def truthy(v: Any) -> bool:
    """What counts as true in the language: a non-empty list, a non-zero number, a non-empty text, any entity."""
    if isinstance(v, (list, tuple, range)):
        return len(v) > 0
    return bool(v)


def run_rule(fn, frame: Frame) -> Any:
    """Run one rule function; `stop` ends it quietly."""
    try:
        return fn(frame)
    except StopEffect:
        return None
    except BreakLoop:
        return None
