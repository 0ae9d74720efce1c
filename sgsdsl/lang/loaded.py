"""What loading rules files gives: the checked program (if any), the sources read, and every diagnostic.

Its own module, below both `sgsdsl.api` (which makes it) and `sgsdsl.compiler.cache` (which compiles it), so
neither has to import the other to name it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic

if TYPE_CHECKING:  # a name only: `sgsdsl check` answered from the result cache never imports the checker
    from .scope import CheckedProgram


@dataclass
class Loaded:
    checked: CheckedProgram | None
    sources: dict[str, str]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # each module -> the modules its imports resolved to (`LoadResult.edges`); empty when not known, and then
    # a compiled module holds the code of everything it imports instead of linking to it
    edges: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)
