"""A variant: everything needed to rebuild a batch of games in any process (rules, mode, options, seats)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.program import Program


@dataclass(frozen=True)
class Variant:
    paths: tuple[str, ...]  # rule files (absolute), as given to the loader
    mode: str = "identity"
    players: int = 8
    options: tuple[tuple[str, Any], ...] = ()  # sorted (name, value)
    engine: str = "compiled"
    round_cap: int = 60
    agents: tuple[str, ...] = ("random",)
    pinned: tuple[tuple[int, str], ...] = ()  # (seat, general ident)
    pool: tuple[str, ...] | None = None  # general idents on offer (None: all)
    label: str = "A"
    designer: tuple[str, ...] = field(default=(), compare=False)  # general idents from files outside rules/
    # restricted play (`sgsdsl balance`): (role, k, general) pins a general to the k-th seat dealt that role, and
    # (general, skills) bars those skills from whoever holds that general
    role_pins: tuple[tuple[str, int, str], ...] = ()
    barred: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def settings(self) -> dict[str, Any]:
        """Every setting, for JSON exports and for saying what differs between two variants."""
        return {"rules": list(self.paths), "mode": self.mode, "players": self.players,
                "options": dict(self.options), "engine": self.engine, "round_cap": self.round_cap,
                "agents": list(self.agents), "pinned": {f"P{s}": g for s, g in self.pinned},
                "pool": list(self.pool) if self.pool is not None else None,
                **({"role_pins": [list(x) for x in self.role_pins]} if self.role_pins else {}),
                **({"barred": {g: list(s) for g, s in self.barred}} if self.barred else {})}


_PROGRAMS: dict[tuple[tuple[str, ...], str], Program] = {}


def load_program(variant: Variant) -> Program:
    """The variant's Program, loaded once per process (workers rebuild it from the rule files)."""
    key = (variant.paths, variant.engine)
    prog = _PROGRAMS.get(key)
    if prog is None:
        from ..api import check_paths, program_for

        loaded = check_paths(list(variant.paths))
        if not loaded.ok:
            raise ValueError(f"the rules {', '.join(variant.paths)} do not check")
        prog = program_for(loaded, variant.engine)
        _PROGRAMS[key] = prog
    return prog


def remember_program(variant: Variant, program: Program) -> None:
    """Seed this process's cache with a program already built (forked workers inherit it)."""
    _PROGRAMS[(variant.paths, variant.engine)] = program


def rules_digest(sources: dict[str, str]) -> str:
    """A digest of every rules text the variant read (imports included), in path order."""
    h = hashlib.sha256()
    for name in sorted(sources):
        h.update(name.encode() + b"\0" + sources[name].encode() + b"\0")
    return h.hexdigest()[:16]


def designer_generals(loaded: Any, bundled: Path) -> tuple[str, ...]:
    """Generals defined in files outside the bundled rules folder: a designer's own, reported apart."""
    out: list[str] = []
    if loaded.checked is None:
        return ()
    root = bundled.resolve()
    for m in loaded.checked.modules:
        p = Path(m.path).resolve()
        if root == p.parent or root in p.parents:
            continue
        out.extend(g.ident.text for g in m.generals)
    return tuple(sorted(out))
