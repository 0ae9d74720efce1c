"""`sgsdsl explain`: every code has an explanation whose wrong example produces it and whose right one does not."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.api import check_paths
from sgsdsl.cli import main
from sgsdsl.compiler.project import compile_paths
from sgsdsl.lang.codes import CODES
from sgsdsl.lang.explain import explanations

OTHER = "card 闪 shan : basic { copies ♥2 }\n"


def codes_of(tmp_path: Path, text: str, compiled: bool) -> tuple[set[str], set[str]]:
    """(all codes, error codes) of `text` checked (or compiled) as example.sgs beside other.sgs."""
    (tmp_path / "other.sgs").write_text(OTHER, encoding="utf-8")
    example = tmp_path / "example.sgs"
    example.write_text(text, encoding="utf-8")
    diags = compile_paths([str(example)]).diagnostics if compiled else check_paths([str(example)]).diagnostics
    return {d.code for d in diags}, {d.code for d in diags if d.severity == "error"}


def test_every_code_has_an_explanation() -> None:
    missing = sorted(set(CODES) - set(explanations()))
    assert not missing, f"add a section with wrong/right examples to sgsdsl/lang/codes.md for {missing}"
    assert not set(explanations()) - set(CODES), "codes.md explains a code that codes.py does not list"


@pytest.mark.parametrize("code", sorted(c for c, e in explanations().items() if e.language == "sgs"))
def test_examples_produce_and_avoid_the_code(code: str, tmp_path: Path) -> None:
    e = explanations()[code]
    compiled = code.startswith("SGS-E5")
    wrong, _ = codes_of(tmp_path, e.wrong, compiled)
    assert code in wrong, f"the wrong example of {code} gives {sorted(wrong)}"
    right, right_errors = codes_of(tmp_path, e.right, compiled)
    assert code not in right and not right_errors, f"the right example of {code} gives {sorted(right)}"


def test_command_examples_only_where_no_text_can_cause_the_code() -> None:
    commands = {c for c, e in explanations().items() if e.language not in ("sgs", "scenario")}
    assert commands == {"SGS-E000", "SGS-E100", "SGS-E104", "SGS-E105", "SGS-E106", "SGS-E503", "SCN-E201"}
    for c in commands:
        assert explanations()[c].language == "sh"


@pytest.mark.parametrize("code", sorted(c for c, e in explanations().items() if e.language == "scenario"))
def test_scenario_examples_produce_and_avoid_the_code(code: str, tmp_path: Path) -> None:
    """A scenario code's wrong example, run by `sgsdsl test`, is malformed with that code; its right one is not
    malformed at all."""
    e = explanations()[code]
    runner = CliRunner()
    for text, wanted in ((e.wrong, True), (e.right, False)):
        path = tmp_path / "example.scenario"
        path.write_text(text, encoding="utf-8")
        res = runner.invoke(main, ["test", str(path)])
        assert (f"[{code}]" in res.output) == wanted, (code, wanted, res.output)
        assert (res.exit_code == 2) == wanted, (code, res.output)


def test_explain_knows_the_scenario_codes() -> None:
    res = CliRunner().invoke(main, ["explain", "SCN-E113"])
    assert res.exit_code == 0 and res.output.startswith("SCN-E113: an `expect` line that cannot be read")
    assert "expect P1 health 3" in res.output
    assert CliRunner().invoke(main, ["explain", "scn-e204"]).output.startswith("SCN-E204: ")
    assert CliRunner().invoke(main, ["explain", "E108"]).output.startswith("SGS-E108: ")  # the SGS code first


def test_cli() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["explain", "e206"])
    assert res.exit_code == 0
    assert res.output.startswith("SGS-E206: the event of this timing has no such field")
    assert "Wrong:\n    skill 测 ce { on damaged where event.victim" in res.output and "Right:" in res.output
    listing = runner.invoke(main, ["explain"])
    assert listing.exit_code == 0 and len(listing.output.splitlines()) == len(CODES)
    bad = runner.invoke(main, ["explain", "SGS-E999"])
    assert bad.exit_code == 2 and "no diagnostic code 'SGS-E999'" in bad.output
