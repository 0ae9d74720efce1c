"""`sgsdsl check` and `sgsdsl vocab` through click's CliRunner: exit codes 0/1/2 and the JSON form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import check_cmd, main
from sgsdsl.engine import registry as reg

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"
BAD = ROOT / "tests" / "bad"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_clean_file_exits_0() -> None:
    r = invoke("check", str(MINI))
    assert r.exit_code == 0, r.output
    assert r.output.strip().endswith("checked 1 file(s): 0 error(s), 0 warning(s)")


def test_bundled_rules_exit_0() -> None:
    r = invoke("check", str(ROOT / "rules"))
    assert r.exit_code == 0, r.output


def test_errors_exit_1_and_warnings_alone_exit_0() -> None:
    r = invoke("check", str(BAD / "E202_unknown_card.sgs"))
    assert r.exit_code == 1
    assert "error[SGS-E202]" in r.output and "did you mean '闪电'?" in r.output
    r = invoke("check", str(BAD / "W401_no_copies.sgs"))
    assert r.exit_code == 0 and "warning[SGS-W401]" in r.output


def test_json_for_ci() -> None:
    r = invoke("check", "--format", "json", str(BAD / "E205_unknown_timing.sgs"), str(MINI))
    assert r.exit_code == 1
    data = json.loads(r.output)
    [d] = data["diagnostics"]
    assert d["code"] == "SGS-E205" and d["line"] == 2 and d["col"] == 17
    assert d["suggestion"] == "did you mean 'damaged'?"
    assert set(d) == {"code", "severity", "message", "file", "line", "col", "end_line", "end_col", "suggestion",
                      "notes"}


def test_json_clean_is_an_empty_list() -> None:
    r = invoke("check", "--format", "json", str(MINI))
    assert r.exit_code == 0 and json.loads(r.output) == {"diagnostics": []}


def test_whole_bad_folder_reports_every_file_sorted() -> None:
    r = invoke("check", "--format", "json", str(BAD))
    assert r.exit_code == 1
    diags = json.loads(r.output)["diagnostics"]
    keys = [(d["file"], d["line"], d["col"]) for d in diags]
    assert keys == sorted(keys)
    assert {d["code"] for d in diags} >= {"SGS-E101", "SGS-E202", "SGS-W404"}


@pytest.mark.parametrize("args", [["check"], ["check", "--format", "xml", "x.sgs"], ["check", "--nope", "x"],
                                  ["nosuchcommand"], ["vocab", "--format", "yaml"]])
def test_usage_errors_exit_2(args: list[str]) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    assert "Usage:" in r.output


def test_missing_path_exits_2_and_empty_directory_exits_1(tmp_path: Path) -> None:
    r = invoke("check", str(tmp_path / "nope.sgs"))
    assert r.exit_code == 2 and "cannot find" in r.output and ":1:1" not in r.output
    r = invoke("check", str(tmp_path))
    assert r.exit_code == 1 and "holds no .sgs files" in r.output


def test_internal_error_is_a_diagnostic(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(paths):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(check_cmd, "check_each", boom)
    r = CliRunner().invoke(main, ["check", str(MINI)])
    assert r.exit_code == 1
    assert "SGS-E000" in r.stdout
    assert "Traceback" not in r.output


def test_vocab_markdown_lists_the_registry() -> None:
    r = invoke("vocab")
    assert r.exit_code == 0
    for name in list(reg.TIMINGS) + list(reg.PRIMITIVES) + list(reg.ENGINE_VALUES) + list(reg.CONSTANTS):
        assert f"`{name}" in r.output, name


def test_vocab_json_is_derived_from_the_registry() -> None:
    r = invoke("vocab", "--format", "json")
    v = json.loads(r.output)
    assert [t["name"] for t in v["timings"]] == list(reg.TIMINGS)
    assert {a["name"] for a in v["actions"]} == {p.name for p in reg.PRIMITIVES.values() if p.kind == "action"}
    assert {a["name"] for a in v["functions"]} == {p.name for p in reg.PRIMITIVES.values() if p.kind == "function"}
    assert [e["name"] for e in v["engine_values"]] == list(reg.ENGINE_VALUES)
    dmg = next(t for t in v["timings"] if t["name"] == "taking_damage")
    assert dmg["cancellable"] is True and "amount" in dmg["mutable"] and dmg["fields"]["target"] == "player"
