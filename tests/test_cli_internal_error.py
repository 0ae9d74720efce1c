"""A bug inside sgsdsl (not bad input) still ends a command with one line and exit code 70, never a traceback;
SGSDSL_TRACEBACK=1 shows the traceback for the bug report."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import INTERNAL_ERROR, main

ROOT = Path(__file__).resolve().parent.parent


def _broken(*_args: object, **_kwargs: object) -> object:
    raise SyntaxError("invalid syntax", ("rules.py", 3, 1, "x = = 1\n"))


def test_an_internal_failure_is_one_line_and_exit_70(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("sgsdsl.cli.compile_cmd.compile_paths", _broken)
    monkeypatch.delenv("SGSDSL_TRACEBACK", raising=False)
    result = CliRunner().invoke(main, ["compile", str(ROOT / "rules" / "standard.sgs"), "-o", str(tmp_path / "g")])
    assert result.exit_code == INTERNAL_ERROR
    assert "internal error (SyntaxError: invalid syntax" in result.output
    assert "please report it" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "g").exists()


def test_the_traceback_is_shown_when_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("sgsdsl.cli.compile_cmd.compile_paths", _broken)
    monkeypatch.setenv("SGSDSL_TRACEBACK", "1")
    result = CliRunner().invoke(main, ["compile", str(ROOT / "rules" / "standard.sgs"), "-o", str(tmp_path / "g")])
    assert result.exit_code == INTERNAL_ERROR
    assert "Traceback" in result.output and "_broken" in result.output


def test_usage_errors_stay_click_errors() -> None:
    result = CliRunner().invoke(main, ["simulate", "--players", "zero"])
    assert result.exit_code == 2
    assert "internal error" not in result.output


def test_a_reader_gone_away_ends_quietly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`sgsdsl … | head`: the closed pipe is no internal error, just the end (exit code 141, as for SIGPIPE)."""
    from sgsdsl.cli import BROKEN_PIPE

    def closed(*_args: object, **_kwargs: object) -> object:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("sgsdsl.cli.compile_cmd.compile_paths", closed)
    result = CliRunner().invoke(main, ["compile", str(ROOT / "rules" / "standard.sgs"), "-o", str(tmp_path / "g")])
    assert result.exit_code == BROKEN_PIPE
    assert "internal error" not in result.output and "Traceback" not in result.output
