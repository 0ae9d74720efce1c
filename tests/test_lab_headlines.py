"""Honest headlines in the lab: failed games lead the output (and no empty tables follow), identical variants
are called identical (exit 3), the designer's general is always reported, and tables name generals (曹操)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import STANDARD
from sgsdsl.cli import main


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """Rules whose every game fails at the first turn with a rule error."""
    path = tmp_path / "broken.sgs"
    path.write_text(f'import "{STANDARD.resolve()}"\nrule 坏 r_bad {{ on turn_start {{ damage(first([]), 1) }} }}\n',
                    encoding="utf-8")
    return path


def test_simulate_leads_with_the_failures_and_prints_no_empty_tables(broken: Path) -> None:
    r = invoke("simulate", str(broken), "--games", "3", "--players", "5", "--jobs", "1")
    assert r.exit_code == 1
    first = r.stdout.splitlines()[0]
    assert first.startswith("3 of 3 games failed: ") and first.endswith(
        "broken.sgs:2:32: rule error: damage's target is none (game seed 1, after 5 decisions)")
    assert "damage(first([]), 1)" in r.stdout.splitlines()[1] and "^^^^^^" in r.stdout.splitlines()[2]
    assert "┏" not in r.stdout and "0.0–100.0%" not in r.stdout
    j = invoke("simulate", str(broken), "--games", "2", "--players", "5", "--jobs", "1", "--json")
    assert j.exit_code == 1 and json.loads(j.stdout)["errors"] == 2  # stdout stays JSON; the headline is on stderr
    assert j.stderr.startswith("2 of 2 games failed: ") and "(game seed 1, after 5 decisions)" in j.stderr


def test_compare_and_league_lead_with_the_failures(broken: Path) -> None:
    c = invoke("compare", "--b-file", str(broken), "--games", "3", "--players", "5", "--jobs", "1")
    assert c.exit_code == 1
    assert c.stdout.splitlines()[0].startswith("3 of 6 games failed: ")
    assert c.stdout.splitlines()[0].endswith("rule error: damage's target is none (game seed 1, after 5 decisions)")
    assert "┏" not in c.stdout  # no seed finished under both variants
    lg = invoke("league", str(broken), "--players", "5", "--games", "2")
    assert lg.exit_code == 1
    assert lg.stdout.splitlines()[0].startswith("2 of 2 games failed: game 1 (seed 1): ")
    assert "damage's target is none" in lg.stdout.splitlines()[0]
    assert "standings" not in lg.stdout


def test_compare_of_identical_games_says_so_and_exits_3() -> None:
    r = invoke("compare", "--players", "5", "--games", "6", "--jobs", "1")
    assert r.exit_code == 3
    assert r.stdout.startswith("A and B played identical games")
    assert "┏" not in r.stdout  # no tables of zeros
    assert "A and B are the same" in r.stderr and "an A/A check of 6 paired games" in r.stderr  # said before playing
    doc = json.loads(invoke("compare", "--players", "5", "--games", "4", "--jobs", "1", "--json").stdout)
    assert doc["identical_games"] is True
    differ = invoke("compare", "--players", "6", "--games", "6", "--b-option", "two_renegades=true", "--jobs", "1")
    assert differ.exit_code == 0 and "identical" not in differ.stdout and "A/A" not in differ.stderr


def test_the_designers_general_is_reported_with_no_detail_and_tables_show_names(tmp_path: Path) -> None:
    design = tmp_path / "mine.sgs"
    design.write_text(f'import "{STANDARD.resolve()}"\ngeneral 测试 ceshi : 群 male 4 {{ has mashu }}\n',
                      encoding="utf-8")
    r = invoke("simulate", str(design), "--players", "5", "--games", "4", "--general", "P2=ceshi", "--no-detail",
               "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "designer's generals" in r.stdout and "测试 ceshi (designer)" in r.stdout
    assert "win rate per general" not in r.stdout
    unseated = invoke("simulate", str(design), "--players", "5", "--games", "1", "--pool",
                      "caocao,liubei,sunquan,guanyu,zhangfei,zhaoyun", "--no-detail", "--jobs", "1")
    assert "测试 ceshi never sat down" in unseated.stdout and "sgsdsl balance ceshi" in unseated.stdout
    full = invoke("simulate", "--players", "5", "--games", "4", "--jobs", "1")
    assert "曹操 caocao" in full.stdout and "caocao " not in full.stdout.replace("曹操 caocao", "")


def test_reports_of_failed_runs_lead_with_the_failure_and_hold_no_tables(broken: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    sim, cmp = tmp_path / "sim.html", tmp_path / "cmp.html"
    assert invoke("simulate", str(broken), "--games", "2", "--players", "5", "--jobs", "1", "--html",
                  str(sim)).exit_code == 1
    assert invoke("compare", "--b-file", str(broken), "--games", "2", "--players", "5", "--jobs", "1", "--html",
                  str(cmp)).exit_code == 1
    for path, line in ((sim, "2 of 2 games failed: "), (cmp, "2 of 4 games failed: ")):
        html = path.read_text(encoding="utf-8")
        assert line in html and "<svg" not in html and "<h2>" not in html
