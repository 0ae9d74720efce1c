"""scripts/agent_ladder.py plays every seed in both seat orders, so each agent kind fills every seat and every role
equally often, and prints its tables for any two kinds the CLI's --agents accepts."""

from __future__ import annotations

from types import ModuleType

import pytest

from helpers import STANDARD, load_script


def ladder() -> ModuleType:
    return load_script("scripts/agent_ladder.py", "agent_ladder")


def test_both_seat_orders_cover_every_seat_and_role() -> None:
    mod = ladder()
    rung = mod.tally(players=5, games=6, jobs=1, seed=3, rules=(str(STANDARD.resolve()),),
                     kinds=("heuristic", "random"))
    counts = rung.per_role
    assert {kind for kind, _ in counts} == {"heuristic", "random"}
    assert sum(n for _, n in counts.values()) == 2 * 6 * 5
    for role, seats in (("lord", 6), ("rebel", 12)):  # 5 players: 1 lord, 1 loyalist, 2 rebels, 1 renegade
        assert counts[("heuristic", role)][1] == counts[("random", role)][1] == seats
    assert all(0 <= k <= n for k, n in counts.values())
    assert len(rung.paired) == 6 and all(-1 <= d <= 1 for d in rung.paired)
    assert set(rung.alone) == {"heuristic", "random"} and all(len(v) == 6 for v in rung.alone.values())
    assert all(r.agents == ("random",) * 5 for r in rung.alone["random"])


def test_the_script_prints_its_tables_and_times_each_kind(capsys: pytest.CaptureFixture[str]) -> None:
    mod = ladder()
    code = mod.main(["--a", "heuristic", "--b", "random", "--players", "5", "--games", "4", "--jobs", "1",
                     "--rules", "standard", "--cost-games", "1", "--expect", "nothing"])
    out = capsys.readouterr().out
    assert code == 0
    assert "| lord |" in out and "| renegade |" in out and "paired by seed" in out
    assert "| heuristic | " in out and "µs per decision" in out and "average rounds" in out


def test_an_unknown_kind_is_refused_plainly() -> None:
    mod = ladder()
    with pytest.raises(SystemExit, match="--a/--b"):
        mod.main(["--a", "oracle", "--b", "random"])
