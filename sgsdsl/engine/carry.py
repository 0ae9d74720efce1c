"""What a game carries over from the games before it, in a league (`sgsdsl league`).

A league is a run of games by the same people. Each person keeps a number (0..N-1) for the whole league;
in a game, seat i holds person `persons[i]` (the identity unless the mode draws seats by lot). Rules keep
memory across games with `remember`/`recall` (per person, or league-wide): the generic mechanism behind
house rules such as first-out protection. A single game starts with an empty memory and forgets it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LEAGUE_KEY = "shared"  # the memory entry for league-wide values (`remember(none, …)`)
# what may be remembered: plain values only (a card or a character means nothing in the next game)
REMEMBERABLE = (bool, int, str, type(None))


@dataclass
class Carry:
    """A league's memory (person number or LEAGUE_KEY -> name -> value) and the person who is to lead this
    game (gets the mode's leader role when roles are dealt), or None to deal every role at random."""

    memory: dict[Any, dict[str, Any]] = field(default_factory=dict)
    leader_person: int | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled for search snapshots (engine/snapshots.py): the native build's classes need their constructor
        return Carry, (self.memory, self.leader_person)

    def slot(self, person: int | None) -> dict[str, Any]:
        return self.memory.setdefault(LEAGUE_KEY if person is None else person, {})

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """The memory as plain sorted data (for logs and JSON)."""
        return {str(k): dict(sorted(v.items())) for k, v in sorted(self.memory.items(), key=lambda kv: str(kv[0]))
                if v}
