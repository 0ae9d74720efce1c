"""`sgsdsl simulate` and `sgsdsl replay` end to end, through the click runner and subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from helpers import MINI
from sgsdsl.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_simulate_prints_table_and_is_repeatable() -> None:
    args = ["simulate", str(MINI), "--players", "5", "--games", "20", "--seed", "3", "--json",
            "--engine", "interpreted"]
    a, b = run(*args), run(*args)
    assert a.exit_code == 0, a.output
    assert a.output == b.output
    data = json.loads(a.output)
    assert data["games"] == 20 and data["errors"] == 0
    assert sum(data["wins"].values()) + sum(data["draws"].values()) == 20


def test_simulate_table_form() -> None:
    r = run("simulate", str(MINI), "--players", "4", "--games", "5", "--engine", "interpreted")
    assert r.exit_code == 0
    assert "engine errors" in r.output and "games/s" in r.output


def test_simulate_is_independent_of_hash_seed(tmp_path: Path) -> None:
    outs = []
    for hs in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hs)
        p = subprocess.run([sys.executable, "-m", "sgsdsl.cli", "simulate", str(MINI), "--players", "5", "--games",
                            "10", "--json", "--engine", "interpreted", "--log", str(tmp_path / f"g{hs}.jsonl")],
                           env=env, capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout)
    assert outs[0] == outs[1]
    assert (tmp_path / "g0.jsonl").read_bytes() == (tmp_path / "g12345.jsonl").read_bytes()


def test_replay_verifies_and_detects_divergence(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    r = run("simulate", str(MINI), "--players", "5", "--games", "1", "--seed", "9", "--log", str(log),
            "--engine", "interpreted")
    assert r.exit_code == 0
    ok = run("replay", str(log), "--engine", "interpreted")
    assert ok.exit_code == 0 and "replay ok" in ok.output
    lines = log.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        entry = json.loads(line)
        if "ask" in entry and len(entry["options"]) > 1:
            entry["answer"] = [(entry["answer"][0] + 1) % len(entry["options"])]
            lines[i] = json.dumps(entry, ensure_ascii=False, sort_keys=True)
            break
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = run("replay", str(log), "--engine", "interpreted")
    assert bad.exit_code == 1
    assert "divergence" in bad.output


def test_bad_usage_is_exit_2() -> None:
    assert run("simulate", str(MINI), "--players", "1").exit_code == 2
    assert run("simulate", str(MINI), "--players", "9", "--engine", "interpreted").exit_code == 2
    assert run("simulate", str(MINI), "--option", "nonsense").exit_code == 2
    assert run("simulate", str(MINI), "--option", "x=1", "--players", "4", "--engine", "interpreted").exit_code == 2


def test_replay_rejects_garbage(tmp_path: Path) -> None:
    p = tmp_path / "x.jsonl"
    p.write_text("not json\n", encoding="utf-8")
    r = run("replay", str(p))
    assert r.exit_code == 1 and "not a valid log" in r.output and ":1: not a JSON line" in r.output


def test_simulate_bundled_rule_sets_standard_and_junzheng() -> None:
    """`--rules standard,junzheng` loads the 160-card deck (junzheng imports standard: one program) and gives the
    same games as naming rules/junzheng.sgs directly."""
    from helpers import JUNZHENG

    by_name = run("simulate", "--rules", "standard,junzheng", "--players", "6", "--games", "4", "--seed", "2",
                  "--json")
    by_path = run("simulate", str(JUNZHENG), "--players", "6", "--games", "4", "--seed", "2", "--json")
    assert by_name.exit_code == 0, by_name.output
    a, b = json.loads(by_name.output), json.loads(by_path.output)
    assert a["settings"]["rules"] != b["settings"]["rules"]  # the files named differ, the games do not
    assert (a["stats"], a["wins"], a["rules_digest"]) == (b["stats"], b["wins"], b["rules_digest"])
    assert a["errors"] == 0
