"""Invariants over random games: cards conserved, HP in bounds, games end, logs replay."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import JUNZHENG, MINI, ROOT, STANDARD, play_checked, program
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


ALL41 = ROOT / "tests" / "fixtures" / "all41.sgs"  # standard + 军争 + 林 + 山
WHOLE_TURN = ("turn_over", "turn_skipped", "extra_turn", "pile", "pindian", "awaken", "limited")


def _all41_games(players: int, seeds: range) -> Counter:
    """Checked games with all 41 generals (piles, face-down turns and the turn log included); what they did."""
    prog = program(str(ALL41))
    seen: Counter = Counter()
    for seed in seeds:
        g = play_checked(prog, players, seed)
        assert len(g.cards) == 160
        seen["games"] += 1
        seen.update(str(e.get("e")) for e in g.log if e.get("e") in WHOLE_TURN)
        seen.update(f"general {e['general']}" for e in g.log if e.get("e") == "general" and e.get("general"))
    return seen


@pytest.mark.parametrize("players", [4, 8])
def test_all41_games_keep_invariants(players: int) -> None:
    seen = _all41_games(players, range(3))
    assert seen["games"] == 3


@pytest.mark.soak
def test_soak_all41() -> None:
    """2,030 games of all 41 generals (290 per player count, 4 to 10): every card in exactly one place, piles
    included; general cards unique; the face-down state the log tells matches every turn played or skipped."""
    seen: Counter = Counter()
    for players in range(4, 11):
        seen += _all41_games(players, range(290))
    generals = sorted(k for k in seen if k.startswith("general "))
    print(f"\nall41 soak: {seen['games']} games, 0 violations; generals played {len(generals)}; "
          + ", ".join(f"{k} {seen[k]}" for k in WHOLE_TURN))
    assert seen["games"] == 2030 and len(generals) == 41
    assert all(seen[k] > 0 for k in WHOLE_TURN), {k: seen[k] for k in WHOLE_TURN}


ALL57 = ROOT / "tests" / "fixtures" / "all57.sgs"  # + 风 + 火


def _all57_games(players: int, seeds: range) -> Counter:
    """Checked games with all 57 generals: invariants before every decision; who stayed alive at 0 HP (不屈) and
    how often a declared card (蛊惑) was voided."""
    prog = program(str(ALL57))
    seen: Counter = Counter()
    for seed in seeds:
        g = play_checked(prog, players, seed)
        assert len(g.cards) == 160
        seen["games"] += 1
        seen.update(str(e.get("e")) for e in g.log if e.get("e") in ("kept_alive", "declare", "declaration_void"))
        seen.update(f"general {e['general']}" for e in g.log if e.get("e") == "general" and e.get("general"))
    return seen


@pytest.mark.parametrize("players", [5, 8])
def test_all57_games_keep_invariants(players: int) -> None:
    assert _all57_games(players, range(3))["games"] == 3


@pytest.mark.soak
def test_soak_all57() -> None:
    """2,030 games of all 57 generals (290 per player count, 4 to 10), invariants checked before every decision."""
    seen: Counter = Counter()
    for players in range(4, 11):
        seen += _all57_games(players, range(290))
    generals = sorted(k for k in seen if k.startswith("general "))
    print(f"\nall57 soak: {seen['games']} games, 0 violations; generals played {len(generals)}; "
          + ", ".join(f"{k} {seen[k]}" for k in ("kept_alive", "declare", "declaration_void")))
    assert seen["games"] == 2030 and len(generals) == 57
    assert seen["kept_alive"] > 0 and seen["declaration_void"] > 0


def test_turn_log_check_finds_a_turn_played_face_down() -> None:
    from sgsdsl.engine.invariants import InvariantViolation, check_turn_log

    g = play_checked(program(str(MINI)), 4, 1)  # the mini rules never turn anyone over
    who = next(p for p in g.players if p.alive)
    g.log.append({"e": "turn_over", "player": who.label(), "face_down": True})
    with pytest.raises(InvariantViolation, match="log says otherwise"):
        check_turn_log(g)
    who.face_down = True
    check_turn_log(g)
    g.log.append({"e": "turn", "player": who.label(), "turn": 99})
    with pytest.raises(InvariantViolation, match="plays a turn face down"):
        check_turn_log(g)
    g.log.pop()
    g.log.append({"e": "turn_over", "player": who.label(), "face_down": who.face_down})
    with pytest.raises(InvariantViolation, match="state it was in"):
        check_turn_log(g)
