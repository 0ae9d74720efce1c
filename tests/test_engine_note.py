"""A long `simulate`, `compare` or `balance` run on the Python engine says so once when a native build could have run
it (a stale build loses a factor of two to three with nothing else to show for it); it stays quiet when the native
engine runs, when SGSDSL_NATIVE=0 asked for the Python one, and for short runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import STANDARD
from sgsdsl import native
from sgsdsl.cli import lab_common, main

STALE = "the build made when the package was installed is for other engine sources"


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch):
    """Set which engine in_use reports and whether SGSDSL_NATIVE is 0; short runs count as long ones."""
    monkeypatch.setattr(lab_common, "SLOW_ENGINE_NOTE_GAMES", 2)
    monkeypatch.setattr(lab_common, "_engine_noted", False)

    def choose(is_native: bool, switched_off: bool) -> None:
        folder = Path("/nowhere") if is_native else None
        monkeypatch.setattr(native, "in_use", lambda: native.Choice(is_native, folder, "native" if is_native
                                                                    else STALE))
        if switched_off:
            monkeypatch.setenv("SGSDSL_NATIVE", "0")
        else:
            monkeypatch.delenv("SGSDSL_NATIVE", raising=False)
    return choose


def simulate(games: int) -> str:
    done = CliRunner().invoke(main, ["simulate", str(STANDARD), "--players", "5", "--games", str(games), "--jobs", "1",
                                     "--json"])
    assert done.exit_code == 0, done.output
    return done.stderr


def test_a_stale_build_is_named_once(engine) -> None:
    engine(False, False)
    first = simulate(3)
    assert "note: these games run on the Python engine" in first and STALE in first
    assert "note:" not in simulate(3)  # (once a process)


def test_quiet_when_native_runs_or_python_was_asked_for(engine) -> None:
    engine(True, False)
    assert "note:" not in simulate(3)
    engine(False, True)
    assert "note:" not in simulate(3)


def test_quiet_for_a_short_run(engine) -> None:
    engine(False, False)
    assert "note:" not in simulate(1)


def test_balance_names_it_too(engine, tmp_path: Path) -> None:
    engine(False, False)
    done = CliRunner().invoke(main, ["balance", "caocao", str(STANDARD), "--players", "5", "--games", "2",
                                     "--robust-agents", "none", "--jobs", "1"])
    assert done.exit_code == 0, done.output
    assert STALE in done.stderr
