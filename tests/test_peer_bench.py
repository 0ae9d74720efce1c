"""benchmarks/peer_ab.py end to end against a stand-in peer: a tiny `game/engine.py` with the peer's headless API
(the real peer is not bundled and tests never reach the network). No time is asserted: the sides, the ratios and
the protocol (the peer's own prints must not reach the answers) are what is checked."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from helpers import load_script

STAND_IN = '''
import logging, random

class GameEngine:
    """The peer's headless API, as peer_worker.py calls it; it talks on stdout and logs as the real one does."""

    def setup_headless_game(self, player_count, ai_difficulty="normal", seed=None):
        print("setting up", player_count, ai_difficulty)
        logging.getLogger("peer").warning("a log line")
        random.seed(seed)
        self.players = player_count
        self.level = ai_difficulty

    def run_headless_battle(self, max_rounds=100):
        {fail}
        rounds = random.randint(3, 9)
        print("the battle is over after", rounds)
        return {"winner": random.choice(["lord", "rebel"]), "rounds": rounds, "finished": True}
'''


def _peer_ab():
    return load_script("benchmarks/peer_ab.py", "sgsdsl_peer_ab")


def _stand_in(tmp_path: Path, fail: str = "") -> Path:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "game" / "engine.py").write_text(STAND_IN.replace("{fail}", fail or "pass"), encoding="utf-8")
    return tmp_path


def test_both_sides_are_timed_and_compared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    peer = _stand_in(tmp_path)
    assert _peer_ab().main([str(peer), "--games", "3", "--chunk", "2", "--players", "4", "--rounds", "2",
                            "--agents", "random", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert set(res["sides"]) == {"sgsdsl", "peer normal", "peer hard"}
    for side in res["sides"].values():
        assert side["games"] == 6 and side["games_per_s"] > 0 and side["turns_per_game"] > 0
        assert side["same_games_every_round"]
    for side in ("peer normal", "peer hard"):
        ratio = res["sgsdsl_over_peer"][side]
        assert ratio["ratio"] == res["sides"]["sgsdsl"]["games_per_s"] / res["sides"][side]["games_per_s"]
        assert len(ratio["rounds"]) == 2 and all(x > 0 for x in ratio["rounds"])
    assert res["target"] == 2.0 and res["native"] is False


def test_the_table_says_met_or_missed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    peer = _stand_in(tmp_path)
    assert _peer_ab().main([str(peer), "--games", "2", "--players", "4", "--rounds", "1", "--agents", "random",
                            "--difficulty", "easy"]) == 0
    out = capsys.readouterr().out
    assert "peer easy" in out and "target x2.0:" in out and ("met" in out or "missed" in out)


def test_a_folder_that_is_no_peer_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        _peer_ab().parse_args([str(tmp_path)])
    assert stop.value.code == 2
    assert "is not a checkout of the peer engine" in capsys.readouterr().err


def test_a_missing_interpreter_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    peer = _stand_in(tmp_path)
    with pytest.raises(SystemExit) as stop:
        _peer_ab().parse_args([str(peer), "--peer-python", str(tmp_path / "no-python")])
    assert stop.value.code == 2
    assert "no such interpreter" in capsys.readouterr().err


def test_a_peer_that_fails_mid_run_stops_the_run_by_name(tmp_path: Path) -> None:
    peer = _stand_in(tmp_path, fail="raise RuntimeError('the peer broke')")
    with pytest.raises(SystemExit, match="the benchmark worker 'peer normal' stopped"):
        _peer_ab().main([str(peer), "--games", "2", "--players", "4", "--rounds", "1", "--agents", "random",
                         "--difficulty", "normal", "--peer-python", sys.executable])
