"""scripts/heuristic_vs_random.py plays every seed in both seat orders, so each agent kind fills every seat and
every role equally often."""

from __future__ import annotations

import importlib.util

from helpers import ROOT, STANDARD


def test_both_seat_orders_cover_every_seat_and_role() -> None:
    spec = importlib.util.spec_from_file_location("hvr", ROOT / "scripts" / "heuristic_vs_random.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    counts = mod.tally(players=5, games=6, jobs=1, seed=3, rules=str(STANDARD.resolve()))
    assert {kind for kind, _ in counts} == {"heuristic", "random"}
    assert sum(n for _, n in counts.values()) == 2 * 6 * 5
    for role, seats in (("lord", 6), ("rebel", 12)):  # 5 players: 1 lord, 1 loyalist, 2 rebels, 1 renegade
        assert counts[("heuristic", role)][1] == counts[("random", role)][1] == seats
    assert all(0 <= k <= n for k, n in counts.values())
