"""`sgsdsl replay`: strict logs (header types, encodings, regular files), rules bound by digest, the first
diverging decision reported, and replays that work from any directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import MINI
from sgsdsl.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("log")
    rules = folder / "rules" / "mini.sgs"
    rules.parent.mkdir()
    shutil.copy(MINI, rules)
    log = folder / "game.jsonl"
    r = run("simulate", str(rules), "--players", "4", "--games", "1", "--seed", "5", "--engine", "interpreted",
            "--log", str(log))
    assert r.exit_code == 0, r.output
    return log


def copy_log(recorded: Path, tmp_path: Path) -> Path:
    shutil.copytree(recorded.parent, tmp_path / "c")
    return tmp_path / "c" / recorded.name


def lines_of(log: Path) -> list[dict]:
    return [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]


def write_lines(log: Path, lines: list[dict]) -> None:
    log.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")


def test_header_binds_rules_by_digest_and_relative_paths(recorded: Path) -> None:
    header = lines_of(recorded)[0]
    assert header["sgsdsl_log"] == 2 and header["rules"] == ["rules/mini.sgs"]
    assert header["rules_digest"].startswith("sha256:") and len(header["rules_digest"]) == 71


def test_replay_works_from_any_directory(recorded: Path, tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "sgsdsl", "replay", str(recorded), "--engine", "interpreted"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "replay ok" in p.stdout, p.stderr


def test_log_made_with_other_rules_is_refused(recorded: Path, tmp_path: Path) -> None:
    log = copy_log(recorded, tmp_path)
    rules = log.parent / "rules" / "mini.sgs"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# one more comment\n", encoding="utf-8")
    r = run("replay", str(log), "--engine", "interpreted")
    assert r.exit_code == 1 and "made with other rules" in r.output


def test_first_diverging_decision_is_reported(recorded: Path, tmp_path: Path) -> None:
    log = copy_log(recorded, tmp_path)
    lines = lines_of(log)
    asks = [i for i, e in enumerate(lines) if "ask" in e and len(e["options"]) > 1]
    i = asks[2]
    lines[i]["answer"] = [(lines[i]["answer"][0] + 1) % len(lines[i]["options"])]
    write_lines(log, lines)
    r = run("replay", str(log), "--engine", "interpreted")
    n = sum(1 for e in lines[:i + 1] if "ask" in e)  # the changed decision is number n; n+1 diverges first
    assert r.exit_code == 1 and "divergence" in r.output
    assert f"decision {n + 1} " in r.output or f"decision {n + 1}:" in r.output, (n, r.output)


BAD_HEADERS = {
    "rules not a list": {"rules": 5},
    "rules of numbers": {"rules": [1]},
    "players a string": {"players": "4"},
    "players a bool": {"players": True},
    "players too many": {"players": 10**9},
    "seed a float": {"seed": 1.5},
    "seed huge": {"seed": 10**30},
    "options a string": {"options": "abc"},
    "options nested": {"options": {"x": [1]}},
    "option misspelt value": {"options": {"two_renegades": "flase"}},
    "mode a number": {"mode": 3},
    "round cap zero": {"round_cap": 0},
    "digest missing": {"rules_digest": None},
    "old version": {"sgsdsl_log": 1},
    "version a string": {"sgsdsl_log": "2"},
    "pinned an unknown general": {"pinned": {"0": "nobody"}},
    "pinned a seat too far": {"pinned": {"9": "caocao"}},
    "pinned seats as words": {"pinned": {"P0": "caocao"}},
    "pool of numbers": {"pool": [1, 2]},
}


@pytest.mark.parametrize("name", sorted(BAD_HEADERS))
def test_malformed_header_is_a_clear_error(recorded: Path, tmp_path: Path, name: str) -> None:
    log = copy_log(recorded, tmp_path)
    lines = lines_of(log)
    lines[0].update(BAD_HEADERS[name])
    write_lines(log, lines)
    r = run("replay", str(log), "--engine", "interpreted")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "not a valid log" in r.output or "divergence" in r.output, r.output


@pytest.mark.parametrize("content", [b"\xff\xfe{}\n", b"", b"[]\n", b"{}\n", b'{"sgsdsl_log": 2}\n',
                                     b"[" * 100_000 + b"\n", b'{"a": 1' + b"9" * 5000 + b"}\n"])
def test_garbage_and_bad_encodings_are_clear_errors(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "x.jsonl"
    p.write_bytes(content)
    r = run("replay", str(p))
    assert r.exit_code == 1 and "not a valid log" in r.output, r.output


def test_bad_decision_line_is_located(recorded: Path, tmp_path: Path) -> None:
    log = copy_log(recorded, tmp_path)
    lines = lines_of(log)
    i = next(i for i, e in enumerate(lines) if "ask" in e)
    lines[i]["answer"] = [True]
    write_lines(log, lines)
    r = run("replay", str(log))
    assert r.exit_code == 1 and f":{i + 1}: decision field 'answer'" in r.output


def test_replay_refuses_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    p = subprocess.run([sys.executable, "-m", "sgsdsl", "replay", str(fifo)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 1 and "not a regular file" in p.stderr
