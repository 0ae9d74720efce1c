"""A folder means what `check` reads in it: each file with what it imports. A command that plays one rule set
plays a folder's one set, and stops (exit 2) listing the sets when the folder holds several."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.lang.rule_sets import folder_tops

ROOT = Path(__file__).resolve().parent.parent


def test_the_bundled_folder_holds_six_sets() -> None:
    tops = [p.relative_to(ROOT / "rules").as_posix() for p in folder_tops(ROOT / "rules")]
    assert tops == ["3v3.sgs", "beta.sgs", "house/endgame.sgs", "house/protection.sgs", "house/seats_by_lot.sgs",
                    "tongzhou.sgs"]


@pytest.mark.parametrize("command", [["simulate", "--games", "1"], ["league", "--games", "1"],
                                     ["compare", "--games", "2"], ["play"]])
def test_a_folder_of_several_sets_is_a_usage_error_listing_them(command: list[str]) -> None:
    r = CliRunner().invoke(main, [command[0], str(ROOT / "rules"), *command[1:]])
    assert r.exit_code == 2, r.output
    assert "holds 6 independent rule sets" in r.output and "tongzhou.sgs" in r.output and "beta.sgs" in r.output
    assert f"pick one: sgsdsl {command[0]} " in r.output
    assert "defined twice" not in r.output


def test_a_folder_of_one_set_plays_its_top_file(tmp_path: Path) -> None:
    """A designer's folder: a general in one file importing a helper beside it — the folder is that one set
    (before, `simulate folder/` loaded both files at once)."""
    (tmp_path / "helper.sgs").write_text('import "standard"\n', encoding="utf-8")
    shutil.copy(ROOT / "docs" / "examples" / "maliang.sgs", tmp_path / "main.sgs")
    text = (tmp_path / "main.sgs").read_text(encoding="utf-8").replace('import "standard"', 'import "helper.sgs"')
    (tmp_path / "main.sgs").write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["simulate", str(tmp_path), "--games", "2", "--players", "4", "--json"])
    assert r.exit_code == 0, r.output
    assert "maliang" in r.output


def test_3v3_folder_plays_its_own_mode(tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "fixtures" / "3v3_seated.sgs", tmp_path / "seated.sgs")
    text = (tmp_path / "seated.sgs").read_text(encoding="utf-8")
    (tmp_path / "seated.sgs").write_text(text.replace("../../rules/3v3.sgs", str(ROOT / "rules" / "3v3.sgs")),
                                         encoding="utf-8")
    r = CliRunner().invoke(main, ["simulate", str(tmp_path), "--games", "1", "--players", "6"])
    assert r.exit_code == 0, r.output


def test_test_refuses_a_rules_file_saying_what_it_is(tmp_path: Path) -> None:
    (tmp_path / "moke.sgs").write_text('import "standard"\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["test", str(tmp_path / "moke.sgs")])
    assert r.exit_code == 2 and "is a rules file" in r.output and "rules: moke.sgs" in r.output, r.output
    assert "SCN-E100" not in r.output
