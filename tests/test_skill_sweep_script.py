"""scripts/skill_sweep.py bars each skill of each general in turn (`balance --each-skill`), keeps one JSON a general
so that a stopped sweep goes on, refuses a folder played with other settings, and names the skills worth
significantly less than nothing (the misplays it is for: 苦肉 was one, docs/balance.md "Fifteenth pass")."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script


def script() -> ModuleType:
    return load_script("scripts/skill_sweep.py", "skill_sweep")


def test_a_sweep_keeps_a_file_a_general_and_goes_on_where_it_stopped(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    mod = script()
    args = ["--rules", "standard", "--generals", "huanggai,caocao", "--players", "5", "--games", "4", "--jobs", "1",
            "--out", str(tmp_path)]
    assert mod.main(args) == 0
    out = capsys.readouterr().out
    assert {p.name for p in tmp_path.iterdir()} == {"huanggai.json", "caocao.json"}
    for skill in ("kurou", "jianxiong", "hujia"):
        assert f" {skill} " in out
    assert "3 skills measured" in out
    before = (tmp_path / "caocao.json").stat().st_mtime_ns
    assert mod.main(args) == 0  # (read again, not played again)
    assert (tmp_path / "caocao.json").stat().st_mtime_ns == before
    with pytest.raises(SystemExit, match="other settings"):
        mod.main([*args[:-2], "--games", "5", "--out", str(tmp_path)])
    with pytest.raises(SystemExit):
        mod.main(["--rules", "standard", "--generals", "nobody", "--out", str(tmp_path)])


def test_a_skill_worth_significantly_less_than_nothing_is_named(tmp_path: Path) -> None:
    mod = script()

    def figure(diff: float, low: float, high: float) -> dict:
        return {"figure": "all roles", "diff": diff, "low": low, "high": high, "significant": low > 0 or high < 0}

    for general, skills in (("a", {"good": figure(0.05, 0.01, 0.09), "bad": figure(-0.06, -0.1, -0.02)}),
                            ("b", {"unsure": figure(-0.03, -0.07, 0.01)})):
        (tmp_path / f"{general}.json").write_text(json.dumps(
            {"results": [{"overall": {"diff": -0.04}, "restricted": {k: [v] for k, v in skills.items()}}]}))
    rows = mod.worths(tmp_path, ["a", "b", "missing"])
    assert [(w.general, w.skill) for w in rows] == [("a", "bad"), ("b", "unsure"), ("a", "good")]
    text = mod.report(rows)
    assert "worth significantly less than nothing: bad (a)" in text
    assert text.count("below zero") == 1
