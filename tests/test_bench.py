"""benchmarks/bench.py works end to end on a tiny run (issue 15): every table, the targets and the JSON line.
No time is asserted; the figures only have to be there and be numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import ROOT, load_script


def _script(name: str):
    """benchmarks/NAME.py loaded as a module (the folder is no package)."""
    return load_script(f"benchmarks/{name}.py", f"sgsdsl_{name}")


def _bench():
    return _script("bench")


def test_tiny_bench_run_prints_every_figure_and_records_a_json_line(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    record = tmp_path / "results.jsonl"
    args = ["--players", "4", "--games", "2", "--heuristic-games", "1", "--memory-games", "1", "--eval-reps", "1",
            "--no-startup", "--profile", "1", "--record", str(record)]
    assert bench.main(args) == 0  # both engines played the same games
    out = capsys.readouterr().out
    # the profile by its pstats columns, not by which function leads (that depends on the load)
    for text in ("games/s", "turns/s", "decisions/s", "compiled / interpreted", "per decision", "memory held",
                 "rule evaluation alone", "issue 15 targets", "memory flat", "top functions", "tottime"):
        assert text in out, text
    rec = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    assert rec["commit"] and rec["machine"]["python"] and rec["args"]["players"] == [4]
    games = rec["figures"]["games"]["4"]
    assert games["same_games"] and games["compiled"]["games"] == 2 and games["compiled"]["games_per_s"] > 0
    assert rec["targets"]["heuristic / random CPU per decision"]["measured"].endswith("x")
    # the next run can show this one as its baseline
    assert bench.baseline_record(record, rec["commit"]) == rec
    t = bench.target_rows({"figures": {**rec["figures"], "games": {"8": games}}})
    assert [r[0] for r in t][:3] == ["compiled games/s, 8 players, one core, Python engine",
                                     "compiled turns/s, 8 players, one core, Python engine",
                                     "compiled / interpreted games/s, 8 players, Python engine"]


@pytest.mark.parametrize("args", [["--heuristic-games", "0"], ["--games", "-1"], ["--players", "x"],
                                  ["--eval-reps", "0"], ["--native", "-2"]])
def test_bad_counts_are_refused_by_name(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        _bench().parse_args(args)
    assert stop.value.code == 2
    assert f"argument {args[0]}" in capsys.readouterr().err


def _ab():
    return _script("ab")


def test_ab_run_of_a_checkout_against_itself_plays_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/ab.py end to end on a tiny run: two worker processes, the same seeds, both engines."""
    assert _ab().main([str(ROOT), str(ROOT), "--games", "3", "--chunk", "2", "--players", "4", "--rounds", "2",
                       "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert [r["players"] for r in runs] == [4]
    res = runs[0]
    assert set(res["compiled_over_interpreted"]) == {"before", "after"}
    for engine in ("compiled", "interpreted"):
        r = res["engines"][engine]
        assert r["same_games"] and r["before"]["games_per_s"] > 0 and r["after"]["decisions_per_s"] > 0
        assert r["ratio"] == r["after"]["games_per_s"] / r["before"]["games_per_s"]
        assert len(r["round_ratios"]) == 2 and all(x > 0 for x in r["round_ratios"])


def test_ab_refuses_a_folder_that_is_no_checkout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        _ab().parse_args([str(tmp_path)])
    assert stop.value.code == 2
    assert "is not an sgsdsl checkout" in capsys.readouterr().err


@pytest.mark.parametrize(("sides", "env", "expected"), [
    ("after", "0", {"before": "0", "after": "1"}),
    ("before", "1", {"before": "1", "after": "0"}),
    (None, "1", {"before": "1", "after": "1"}),
    (None, "0", {"before": "0", "after": "0"}),
])
def test_ab_native_sides_pick_each_workers_engine(sides: str | None, env: str, expected: dict[str, str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`--native after` times the old checkout as Python against this one's native build, in one alternating run."""
    ab = _ab()
    asked: dict[str, str] = {}

    def spawn(code: Path, flag: str, hash_seed: int | None = None) -> tuple[str, bool]:
        asked["before" if code == Path("/b") else "after"] = flag
        return str(code), flag == "1"

    def alternate(workers, engines, *rest) -> dict:
        return {(w, e): {"cpu": 1.0, "turns": 10, "decisions": 20, "digests": ["d"]}
                for w in workers for e in engines}

    monkeypatch.setenv("SGSDSL_NATIVE", env)
    monkeypatch.setattr(ab, "spawn_worker", spawn)
    monkeypatch.setattr(ab, "alternate", alternate)
    res = ab.compare(Path("/b"), Path("/a"), ("compiled",), "identity", 8, 1, 1, 1, "random", 1, sides)
    assert asked == expected
    assert res["native"] == {side: flag == "1" for side, flag in expected.items()}


def test_ab_option_reaches_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    """`--option two_renegades=true` (the compare's second arm) is played by both workers: other games than
    without it (one more renegade dealt), the same on both sides, and named in the table's title."""
    common = [str(ROOT), str(ROOT), "--games", "2", "--chunk", "2", "--players", "8", "--rounds", "1", "--engines",
              "compiled", "--agents", "heuristic"]
    ab = _ab()
    outcomes = {}
    for extra in ([], ["--option", "two_renegades=true"]):
        assert ab.main([*common, *extra, "--json"]) == 0
        run = json.loads(capsys.readouterr().out)["runs"][0]
        assert run["options"] == extra[1:]
        r = run["engines"]["compiled"]
        assert r["same_games"]
        outcomes[bool(extra)] = (r["after"]["turns_per_s"] * r["after"]["cpu_s"],
                                 r["after"]["decisions_per_s"] * r["after"]["cpu_s"])
    assert outcomes[True] != outcomes[False]
    assert ab.main([*common, "--option", "two_renegades=true"]) == 0
    assert "two_renegades=true" in capsys.readouterr().out


@pytest.mark.parametrize(("option", "message"), [
    ("two_renegades", "expected KEY=VALUE"),
    ("nosuch=1", "has no option 'nosuch'"),
    ("two_renegades=maybe", "is a boolean"),
])
def test_ab_refuses_a_bad_option_before_any_worker(option: str, message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        _ab().parse_args([str(ROOT), "--option", option])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--option" in err and message in err and "Traceback" not in err


def test_ab_table_per_player_count_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """Several --players counts: one table each and the before → after summary with compiled / interpreted."""
    assert _ab().main([str(ROOT), str(ROOT), "--games", "1", "--players", "4", "5", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "4 players" in out and "5 players" in out
    assert "compiled / interpreted" in out and "x →" in out


def test_profile_games_prints_the_time_by_file_and_the_top_functions(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/profile_games.py on one tiny run: the timing line and both tables are there (no time asserted)."""
    from sgsdsl import native

    assert _script("profile_games").main(["--games", "1", "--players", "4", "--top", "5"]) == 0
    out = capsys.readouterr().out
    for text in ("games/s", "µs a turn", "own time by source file", "top functions by tottime"):
        assert text in out, text
    table = out.split("own time by source file", 1)[1].split("top functions", 1)[0]
    assert table.count(" %  ") == 5, table
    if not native.active():  # (on the native build the engine's modules are C: whether one of its few Python files
        # is among the top five of one game is chance)
        assert "sgsdsl/engine/" in table, table
