"""Nothing is read outside what was asked (issue 31 item 3, and issue 32's bundled rule sets on a scenario's `rules:`
line): a scenario's `rules:` line is held to the rules of `import`; a symlink in a folder given to check, fmt or
docs is followed only to a .sgs file inside that folder; fmt rewrites nothing outside its folder; FIFOs in folders
given to test and docs are skipped, never waited on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"
SECRET = "root:x:0:0:the secret line\n"
SEATS = "seat P0: 刘备 lord\nseat P1: 孙权 rebel\nseat P2: 吕蒙\nseat P3: 甄姬\nexpect P0 alive\n"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "passwd"
    path.parent.mkdir()
    path.write_text(SECRET, encoding="utf-8")
    return path


@pytest.mark.parametrize("line", ["{secret}", "/", "link.sgs", "..", "{folder}"])
def test_a_scenario_rules_line_reads_only_rules_files(tmp_path: Path, secret: Path, line: str) -> None:
    folder = tmp_path / "scn"
    folder.mkdir()
    (folder / "link.sgs").symlink_to(secret)
    scenario = folder / "s.scenario"
    name = line.format(secret=secret, folder=ROOT / "rules")
    scenario.write_text(f"scenario: reads\nrules: {name}\n{SEATS}", encoding="utf-8")
    res = CliRunner().invoke(main, ["test", str(scenario)])
    assert res.exit_code == 2 and "SCN-E200" in res.output, res.output
    assert "secret" not in res.output and "root:x" not in res.output


def test_a_scenario_rules_line_names_bundled_rule_sets(tmp_path: Path) -> None:
    scenario = tmp_path / "s.scenario"
    scenario.write_text(f"scenario: bundled sets\nrules: standard, junzheng\n{SEATS}", encoding="utf-8")
    res = CliRunner().invoke(main, ["test", str(scenario)])
    assert res.exit_code == 0 and "PASS" in res.output, res.output


def test_links_in_folders_lead_only_to_rules_files_inside(tmp_path: Path, secret: Path) -> None:
    folder = tmp_path / "rules"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "real.sgs").write_text(MINI.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "inside.sgs").symlink_to(folder / "sub" / "real.sgs")  # inside the tree: followed
    (folder / "pw.sgs").symlink_to(secret)  # not a .sgs file
    outside = tmp_path / "outside" / "other.sgs"
    outside.write_text("card   杀 sha :  basic {\n  copies 1 ♠A\n}\n", encoding="utf-8")
    (folder / "out.sgs").symlink_to(outside)  # a .sgs file, but outside the folder
    (folder / "loop.sgs").symlink_to(folder / "loop.sgs")
    os.mkfifo(folder / "fifo.sgs")
    (folder / "up").symlink_to(tmp_path / "outside", target_is_directory=True)  # a linked folder: not walked
    for args in (["check", str(folder)], ["fmt", str(folder)], ["docs", str(folder), "-o", str(tmp_path / "site")],
                 ["compile", str(folder), "-o", str(tmp_path / "gen")]):
        res = CliRunner().invoke(main, args)
        assert res.exception is None or isinstance(res.exception, SystemExit), (args, res.output)
        assert "the secret line" not in res.output and "root:x" not in res.output, args
        for name, why in (("pw.sgs", "not a .sgs file"), ("out.sgs", "outside the folder"),
                          ("loop.sgs", "cannot be read"), ("fifo.sgs", "not a regular file")):
            assert f"skipped {folder / name}: " in res.output and why in res.output, (args, res.output)
    assert outside.read_text(encoding="utf-8").startswith("card   杀 sha :  basic")  # fmt left it alone


def test_fifos_in_scenario_folders_are_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "scn"
    folder.mkdir()
    os.mkfifo(folder / "wait.scenario")
    (folder / "ok.scenario").write_text(f"scenario: fine\n{SEATS}", encoding="utf-8")
    res = CliRunner().invoke(main, ["test", str(folder)])
    assert res.exit_code == 0 and "1 scenario(s): 1 passed" in res.output, res.output
    site = CliRunner().invoke(main, ["docs", "--scenarios", str(folder), "-o", str(tmp_path / "site")])
    assert site.exit_code == 0 and "1 scenario(s) read" in site.output, site.output
