"""Game set-up through the CLI and scenario files: one validator for modes and typed options everywhere,
strict numbers at the `play` prompt, validated scenario HP, and the exit codes of odd paths."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import MINI, ROOT, STANDARD
from sgsdsl.cli import main
from sgsdsl.cli.vocab_cmd import vocabulary
from sgsdsl.engine.agents import Request
from sgsdsl.modes import SetupError, check_setup
from sgsdsl.terminal import parse_answer

CAMPS = ROOT / "tests" / "fixtures" / "camps.sgs"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize("value", ["flase", "maybe", "1", "", "truee"])
def test_boolean_option_takes_only_true_or_false(value: str) -> None:
    for cmd in (["simulate", "--games", "1"], ["play"]):
        r = run(*cmd, "--players", "5", "--option", f"two_renegades={value}", input="q\n")
        assert r.exit_code == 2 and "two_renegades" in r.output and "boolean" in r.output, r.output


@pytest.mark.parametrize("value,expected", [("true", True), ("FALSE", False), ("yes", True), ("off", False)])
def test_boolean_option_words(value: str, expected: bool) -> None:
    from helpers import program

    prog = program(str(STANDARD))
    assert check_setup(prog, "identity", 5, {"two_renegades": value}) == {"two_renegades": expected}


def test_typed_values_must_have_the_exact_type() -> None:
    from helpers import program

    prog = program(str(STANDARD))
    for bad in (1, "maybe", None, [True]):
        with pytest.raises(SetupError):
            check_setup(prog, "identity", 5, {"two_renegades": bad})
    with pytest.raises(SetupError, match="did you mean 'two_renegades'"):
        check_setup(prog, "identity", 5, {"two_renegade": "true"})
    with pytest.raises(SetupError, match="unknown mode 'identiy'.*did you mean 'identity'"):
        check_setup(prog, "identiy", 5, {})
    with pytest.raises(SetupError, match="for 4-10 players"):
        check_setup(prog, "identity", 3, {})


def test_play_accepts_only_ascii_digits() -> None:
    req = Request(0, "choose", "pick", ("a", "b", "c"), 1, 2)
    for raw in ("²", "٣", "1²", "๑", "9" * 5000):
        assert parse_answer(raw, req)[1] is not None, raw
    r = run("play", "--players", "4", input="²\n٣\nq\n")
    assert r.exit_code == 1 and "not accepted" in r.output and "game abandoned" in r.output
    assert "engine error" not in r.output


SCENARIO = """scenario: options and hp
rules: {rules}
mode: camps
option dragon_boat = {value}
seat P0: 曹操 {hp}
seat P1: 曹操
seat P2: 曹操
seat P3: 曹操
seat P4: 曹操
seat P5: 曹操
expect P0 alive
"""


@pytest.mark.parametrize("value,hp,ok", [("true", "hp 3/4", True), ("flase", "hp 3/4", False),
                                         ("2", "hp 3/4", False), ("false", "hp 0/4", False),
                                         ("false", "hp 5/4", False), ("false", "hp 1/0", False),
                                         ("false", "hp -1", False), ("false", "hp " + "9" * 5000, False)])
def test_scenario_options_and_hp_are_validated(tmp_path: Path, value: str, hp: str, ok: bool) -> None:
    sc = tmp_path / "x.scenario"
    sc.write_text(SCENARIO.format(rules=CAMPS, value=value, hp=hp), encoding="utf-8")
    r = run("test", str(sc))
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output
    if ok:
        assert "MALFORMED" not in r.output, r.output
    else:
        assert r.exit_code == 2 and "MALFORMED" in r.output and "x.scenario:" in r.output, r.output


def test_test_on_an_empty_folder_exits_1(tmp_path: Path) -> None:
    r = run("test", str(tmp_path))
    assert r.exit_code == 1 and "no .scenario files" in r.output


@pytest.mark.parametrize("cmd", [["check"], ["compile", "-o", "out"], ["simulate"], ["play"], ["test"], ["fmt"],
                                 ["fmt", "--check"], ["league"]])
def test_a_missing_path_exits_2_without_a_made_up_location(tmp_path: Path, cmd: list[str]) -> None:
    missing = str(tmp_path / "nope.sgs")
    r = run(*cmd[:1], missing, *cmd[1:])
    assert r.exit_code == 2 and "cannot find" in r.output and "nope.sgs:1:1" not in r.output, r.output


def test_every_timing_in_vocab_has_a_description() -> None:
    timings = vocabulary()["timings"]
    assert timings and all(t["doc"].strip() for t in timings), [t["name"] for t in timings if not t["doc"].strip()]
    md = run("vocab").output
    rows = [line for line in md.splitlines() if line.startswith("| `") and line.count("|") == 6]
    assert len(rows) >= len(timings) and all(not line.rstrip(" |").endswith("|") for line in rows)


def test_mini_rules_still_simulate_with_typed_options() -> None:
    r = run("simulate", str(CAMPS), "--mode", "camps", "--players", "6", "--games", "1",
            "--option", "dragon_boat=false", "--engine", "interpreted", "--json")
    assert r.exit_code == 0, r.output
    assert run("simulate", str(MINI), "--players", "4", "--games", "1", "--option", "x", "--json").exit_code == 2


def test_dash_o_means_output_wherever_it_exists() -> None:
    """`-o` is the output folder of compile and docs; the lab commands spell their mode options `--option` (it
    meant option in four commands and output in two)."""
    from click.testing import CliRunner

    from sgsdsl.cli import main

    for cmd in ("compile", "docs"):
        assert "-o, --out" in CliRunner().invoke(main, [cmd, "--help"]).output
    for cmd in ("simulate", "compare", "league", "play", "balance", "studio"):
        out = CliRunner().invoke(main, [cmd, "--help"]).output
        assert "--option" in out and "-o," not in out, cmd


@pytest.mark.parametrize("cmd", ["simulate", "compare", "league", "play", "balance"])
def test_dash_o_for_an_option_says_what_to_write(cmd: str) -> None:
    from click.testing import CliRunner

    from sgsdsl.cli import main

    r = CliRunner().invoke(main, [cmd, "-o", "two_renegades=true"])
    assert r.exit_code == 2 and "--option two_renegades=true" in r.output, r.output


@pytest.mark.parametrize("cmd", [["check"], ["fmt"], ["compile", "-o", "out"], ["simulate"], ["league"]])
def test_a_scenario_given_as_rules_says_to_run_it_with_test(tmp_path: Path, cmd: list[str]) -> None:
    from click.testing import CliRunner

    from sgsdsl.cli import main

    sc = tmp_path / "a.scenario"
    sc.write_text("scenario: x\n", encoding="utf-8")
    r = CliRunner().invoke(main, [cmd[0], str(sc), *cmd[1:]])
    assert r.exit_code == 2 and f"run it with `sgsdsl test {sc}`" in r.output, r.output
