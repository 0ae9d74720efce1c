"""The language concepts of the 林 work, checked below the scenarios: the engine promises (distance) and the
checker's diagnostics for the new constructs."""

from __future__ import annotations

import pytest

from helpers import STANDARD, program
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game


def _game(generals: list[str | None]) -> Game:
    prog = program(str(STANDARD))
    g = Game(prog, "identity", len(generals), 1, [RandomAgent(i) for i in range(len(generals))])
    for p, ident in zip(g.players, generals, strict=True):
        g.set_general(p, prog.generals[ident] if ident else None)
    return g


def _equip(g: Game, p, name: str) -> None:
    g.equip(p, next(c for c in g.draw_pile if c.name == name))


@pytest.mark.parametrize("general", ["machao", None])
def test_distance_read_by_a_rule_is_never_below_one(general: str | None) -> None:
    g = _game([general, None, None, None])
    a, b, c, _ = g.players
    _equip(g, a, "赤兔")  # −1 horse (and 马术): the raw sum is 0 (or −1)
    assert g.value("distance", a, b) == 1 and g.value("distance", a, c) == 1
    assert g.value("distance", a, a) == 0  # from a character to itself
    assert g.value("distance", b, a) == 1
