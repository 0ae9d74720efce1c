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
    assert sum(line.endswith("  below zero") for line in text.splitlines()) == 1
    assert "(chance alone puts about one skill in forty below zero at 95%: 0.1 of 3;" in text


def _figure(diff: float, low: float, high: float) -> dict:
    return {"figure": "all roles", "diff": diff, "low": low, "high": high, "significant": low > 0 or high < 0}


def test_a_row_below_zero_is_played_again_on_fresh_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--confirm plays each named row again (`balance --without SKILL`) on the seeds after the sweep's and says
    whether it is below zero again; the report says how many rows chance alone would name."""
    mod = script()
    sweep = {"settings": {"players": 5}, "seeds": [1, 4],
             "results": [{"overall": {"diff": -0.04}, "restricted": {"kurou": [_figure(-0.2, -0.3, -0.1)]}}]}
    (tmp_path / "huanggai.json").write_text(json.dumps(sweep))  # (as if played: a row below zero)
    args = ["--rules", "standard", "--generals", "huanggai", "--players", "5", "--games", "4", "--jobs", "1",
            "--confirm", "3", "--out", str(tmp_path)]
    assert mod.main(args) == 0
    out = capsys.readouterr().out
    assert "worth significantly less than nothing: kurou (huanggai)" in out and "chance alone" in out
    again = json.loads((tmp_path / "huanggai.kurou.confirm.json").read_text())
    assert again["seeds"] == [5, 7] and again["without"] == ["kurou"]  # (fresh seeds, after the sweep's 1-4)
    line = next(x for x in out.splitlines() if x.startswith("fresh seeds, 3 games: kurou (huanggai)"))
    assert line.endswith(("below zero again: a finding", "not confirmed: chance"))
    with pytest.raises(SystemExit, match="other settings"):  # (kept: a confirmation of another length is refused)
        mod.main([*args[:-4], "--confirm", "4", "--out", str(tmp_path)])


def test_the_report_says_which_rows_fresh_seeds_confirm() -> None:
    mod = script()
    rows = [mod.Worth("a", "bad", -0.06, -0.1, -0.02, True, -0.04), mod.Worth("b", "drawback", -0.1, -0.2, -0.05,
                                                                              True, -0.1)]
    again = [mod.Worth("a", "bad", -0.01, -0.03, 0.01, False, -0.04),
             mod.Worth("b", "drawback", -0.12, -0.15, -0.09, True, -0.1)]
    text = mod.report(rows, again, 2000)
    assert "fresh seeds, 2000 games: bad (a) -1.0 (-3.0…+1.0): not confirmed: chance" in text
    assert "fresh seeds, 2000 games: drawback (b) -12.0 (-15.0…-9.0): below zero again: a finding" in text
    assert "chance" not in mod.report(rows[:0])


def test_a_designers_files_are_swept_by_the_generals_they_define(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Given a designer's files, the sweep weighs the generals they define (played from them), not the bundled
    ones they import; a file that defines none, or is missing, is refused."""
    mod = script()
    design = tmp_path / "design.sgs"
    design.write_text('import "standard"\ngeneral 换心者 huanxin : 吴 female 4 {\n  skill 换心 huanxin_skill {\n'
                      '    active limit 1 per phase { swap_cards(owner, choose(owner, others(owner))) }\n  }\n}\n',
                      encoding="utf-8")
    out = tmp_path / "out"
    assert mod.main([str(design), "--players", "5", "--games", "4", "--jobs", "1", "--out", str(out)]) == 0
    assert {p.name for p in out.iterdir()} == {"huanxin.json"}
    assert " huanxin_skill " in capsys.readouterr().out
    assert json.loads((out / "huanxin.json").read_text())["settings"]["players"] == 5
    with pytest.raises(SystemExit):
        mod.main([str(tmp_path / "missing.sgs"), "--out", str(out)])
    bare = tmp_path / "bare.sgs"
    bare.write_text('import "standard"\n', encoding="utf-8")
    with pytest.raises(SystemExit):
        mod.main([str(bare), "--out", str(out)])
