"""Abandoning a load and check midway: the language server's, when a newer edit makes the text it works on stale.

Whoever may cancel wraps the work in `cancellable(cancelled)`. The stages then count their work as they go — the
parser one unit a token, the tree conversion one a node, the checker one a statement or expression — with
`tick()`, and every POLL_EVERY units ask CANCELLED, raising CheckCancelled when it says so. So a check stops
within a bounded amount of work after the edit, even inside one enormous definition. Outside `cancellable`
(`sgsdsl check`, the compiler) `tick()` does nothing but look up a context variable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

POLL_EVERY = 256  # units of work between two questions to `cancelled`


class CheckCancelled(Exception):
    """The load or check was abandoned (its `cancelled` said so): the language server's text changed meanwhile."""


class Canceller:
    """Counts units of work and asks CANCELLED every POLL_EVERY of them."""

    def __init__(self, cancelled: Callable[[], bool]):
        self.cancelled = cancelled
        self.units = 0  # work done under this canceller (tests read it: the work a cancelled check did)
        self.polls = 0

    def tick(self, units: int = 1) -> None:
        before = self.units
        self.units += units
        if before // POLL_EVERY != self.units // POLL_EVERY:
            self.poll()

    def poll(self) -> None:
        self.polls += 1
        if self.cancelled():
            raise CheckCancelled


_current: ContextVar[Canceller | None] = ContextVar("sgsdsl_canceller", default=None)


@contextmanager
def cancellable(cancelled: Callable[[], bool]) -> Iterator[Canceller]:
    """Run the enclosed load and check so that they stop (CheckCancelled) soon after CANCELLED says so."""
    canceller = Canceller(cancelled)
    token = _current.set(canceller)
    try:
        yield canceller
    finally:
        _current.reset(token)


def current() -> Canceller | None:
    """The canceller of the work running in this thread, if any."""
    return _current.get()


def tick(units: int = 1) -> None:
    """Count UNITS of work; CheckCancelled if the running work is cancellable and was cancelled."""
    canceller = _current.get()
    if canceller is not None:
        canceller.tick(units)


def poll() -> None:
    """Ask now (between two stages or definitions)."""
    canceller = _current.get()
    if canceller is not None:
        canceller.poll()
