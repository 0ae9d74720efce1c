"""Python's cycle collector pauses while a game plays, and skips what a batch of games has loaded.

A game allocates about a million short-lived containers (events, frames, option lists) while its own state
(players, cards, collaborators, dicts of counters) lives for the whole game. The collector keeps walking that live
state, and a measured 5–9% of a game's time went to it, though almost nothing a game leaves behind is a cycle
until the game itself is done (a finished game is one cycle of players, cards and collaborators, which the next
collection after the game frees). So the collector is off while `Game.run` plays and back on afterwards; a game
makes no garbage cycles that would pile up meanwhile, and a collection never changes a game (nothing in the
engine has a finalizer or a weak reference). A game with an agent that may wait on a person (`Agent.waits`: the
terminal) keeps it running: such a game lasts minutes, and whatever else the process does meanwhile is collected.

A process that plays a batch of games (the balance lab, the benchmarks) first settles: one collection, then
`gc.freeze()`, so that the collections between games no longer walk the rules, the parser and the checked program
it loaded for the whole run (x1.06–1.07 alone, interleaved on the same seeds; it overlaps the pause). Only batch
runs do this: frozen objects that later become garbage cycles are never collected, which a long-lived editor
server must not risk.
"""

from __future__ import annotations

import gc


def pause() -> bool:
    """Switch the collector off; whether it was on (and so is to be switched on again by `resume`)."""
    was_on = gc.isenabled()
    if was_on:
        gc.disable()
    return was_on


def resume(was_on: bool) -> None:
    if was_on:
        gc.enable()


def settle() -> None:
    """Before a batch of games: collect once, then let the collector leave everything alive now alone."""
    gc.collect()
    gc.freeze()
