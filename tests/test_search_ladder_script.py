"""scripts/search_ladder.py: seeds per player count, each rung saved as it finishes, and rungs of separate runs
pooled into one paired difference and one per-role table."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from helpers import ROOT, load_script


def ladder() -> ModuleType:
    sys.path.insert(0, str(ROOT / "scripts"))  # (it imports agent_ladder as the script does)
    return load_script("scripts/search_ladder.py", "search_ladder")


def test_seeds_per_player_count() -> None:
    mod = ladder()
    assert mod.seeds_per_rung("40", [5, 8]) == {5: 40, 8: 40}
    assert mod.seeds_per_rung("5:90,8:45", [5, 8]) == {5: 90, 8: 45}
    with pytest.raises(SystemExit, match="no seed count for 8"):
        mod.seeds_per_rung("5:90", [5, 8])
    with pytest.raises(SystemExit, match="players:seeds"):
        mod.seeds_per_rung("5:x", [5])


def _rung(paired: list[float], wins: int) -> dict:
    return {"rules": "standard", "players": 5, "seed": 1, "kinds": ["search", "heuristic"], "paired": paired,
            "seconds": 1.0, "per_role": [["search", "lord", wins, 10], ["heuristic", "lord", 10 - wins, 10]]}


def test_pool_reads_saved_rungs_and_judges_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mod = ladder()
    ahead = tmp_path / "ahead.jsonl"
    ahead.write_text("\n".join(json.dumps(_rung([0.2, 0.4, 0.2, 0.2], 6)) for _ in range(2)) + "\n")
    assert mod.main(["--pool", str(ahead)]) == 0
    out = capsys.readouterr().out
    assert "over 8 seed-rungs: +25.0 points" in out and "significant" in out
    assert "| lord | 12/20 = 60.0%" in out
    worse = tmp_path / "worse.jsonl"
    worse.write_text(json.dumps(_rung([0.2, 0.4, 0.2, 0.2], 0)) + "\n" + json.dumps(_rung([0.2, 0.2, 0.4], 1)))
    assert mod.main(["--pool", str(worse)]) == 1  # ahead overall, but worse as lord
    assert "**worse**" in capsys.readouterr().out
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(SystemExit, match="no rungs"):
        mod.main(["--pool", str(empty)])


def test_a_short_run_saves_its_rung(tmp_path: Path) -> None:
    mod = ladder()
    out = tmp_path / "rungs.jsonl"
    mod.main(["--a", "search:2", "--players", "5", "--games", "5:1", "--rules", "standard", "--jobs", "1",
              "--out", str(out)])
    (rung,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert rung["players"] == 5 and rung["kinds"] == ["search:2", "heuristic"] and len(rung["paired"]) == 1
    assert sum(m for kind, _, _, m in rung["per_role"] if kind == "search:2") == 5  # each kind sat every seat once
