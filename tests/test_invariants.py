"""Invariants over random games: cards conserved, HP in bounds, games end, logs replay."""

from __future__ import annotations

import pytest

from helpers import JUNZHENG, MINI, STANDARD, play_checked, program
from sgsdsl.engine.agents import ReplayAgent
from sgsdsl.engine.game import Game


@pytest.mark.parametrize("seed", range(6))
def test_mini_games_keep_invariants(seed: int) -> None:
    g = play_checked(program(str(MINI)), 4 + seed % 2, seed)
    assert g.result is not None
    winners, reason = g.result
    assert reason in ("win", "round_cap", "deck_exhausted")
    assert bool(winners) == (reason == "win")


@pytest.mark.parametrize("players", range(4, 11))
def test_standard_games_keep_invariants(players: int) -> None:
    prog = program(str(STANDARD))
    for seed in range(2):
        g = play_checked(prog, players, 100 * players + seed)
        assert g.result is not None
        assert len(g.cards) >= 108


@pytest.mark.parametrize("players", range(4, 11))
def test_junzheng_games_keep_invariants(players: int) -> None:
    """The 160-card deck (standard + 军争): every card conserved, chains and natures within the invariants."""
    prog = program(str(JUNZHENG))
    for seed in range(2):
        g = play_checked(prog, players, 700 + 100 * players + seed)
        assert g.result is not None
        assert len(g.cards) == 160


def test_log_replays_to_same_hashes() -> None:
    prog = program(str(MINI))
    g = play_checked(prog, 5, 7)
    answers = [e["answer"] for e in g.log if "ask" in e]
    replay = Game(prog, "identity", 5, 7, [ReplayAgent(answers)] * 5, record=True).run()
    assert replay.hashes == g.hashes
    assert replay.log == g.log


@pytest.mark.soak
@pytest.mark.parametrize("players", range(4, 11))
def test_soak_standard(players: int) -> None:
    prog = program(str(STANDARD))
    for seed in range(300):
        play_checked(prog, players, seed, record=False)


@pytest.mark.soak
@pytest.mark.parametrize("players", range(4, 11))
def test_soak_junzheng(players: int) -> None:
    """1,050 games with the 160-card deck (150 per player count), invariants checked before every decision."""
    prog = program(str(JUNZHENG))
    for seed in range(150):
        g = play_checked(prog, players, seed, record=False)
        assert len(g.cards) == 160
