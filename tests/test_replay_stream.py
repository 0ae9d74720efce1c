"""`replay` reads a log entry by entry: its memory does not grow with the log's length, and a log that is cut
short, corrupt deep inside or tampered with is still reported where it goes wrong (file and line)."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.cli import main
from sgsdsl.replay import LogError, ReplayMismatch, replay_file

# a mode where nobody is ever hurt: every game is a draw at its round cap, so the log's length is the cap's
CALM = """\
card 闪 shan : basic { copies ♥2 ♥3 ♥4 ♥5 ♦2 ♦3 ♦4 ♦5 ♠2 ♠3 ♠4 ♠5 ♣2 ♣3 ♣4 ♣5 }
general 刘备 liubei : 蜀 male 4 { }
general 孙权 sunquan : 吴 male 4 { }

mode 静 calm {
  players 2..2
  roles 2 { lord rebel }
  leader lord
  setup {
    deal_roles()
    for p in players() {
      let g = choose(p, random_generals(1))
      set_general(p, g)
      draw(p, 4)
    }
  }
  win lord when count(players()) == 0
}
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("calm")
    (folder / "calm.sgs").write_text(CALM, encoding="utf-8")
    out = {}
    for rounds in (60, 600):
        log = folder / f"calm{rounds}.jsonl"
        r = run("simulate", str(folder / "calm.sgs"), "--mode", "calm", "--players", "2", "--games", "1",
                "--round-cap", str(rounds), "--log", str(log))
        assert r.exit_code == 0, r.output
        out[rounds] = log
    return out


def lines_of(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines()


def _variant(tmp_path: Path, lines: list[str]) -> Path:
    """A copy of a log with other LINES, next to its rules."""
    log = tmp_path / "calm.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "calm.sgs").write_text(CALM, encoding="utf-8")
    return log


def test_memory_does_not_grow_with_the_log(logs: dict[int, Path]) -> None:
    small, large = logs[60], logs[600]
    assert len(lines_of(large)) > 9 * len(lines_of(small))  # ten times the entries
    replay_file(small, "compiled")  # rules loaded and cached: what is measured next is the replay
    peaks = []
    for log in (small, large):
        tracemalloc.start()
        try:
            n, _ = replay_file(log, "compiled")
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert n > 0
    # holding the log (as replay did) makes the peak grow about tenfold; read as it goes, it stays put
    assert peaks[1] < 1.5 * peaks[0], peaks


def test_the_cli_replays_a_long_log(logs: dict[int, Path]) -> None:
    r = run("replay", str(logs[600]))
    assert r.exit_code == 0 and r.output.startswith("replay ok: "), r.output + r.stderr


def test_a_changed_event_is_located(logs: dict[int, Path], tmp_path: Path) -> None:
    lines = lines_of(logs[60])
    at = len(lines) * 2 // 3
    at = next(i for i in range(at, len(lines)) if "ask" not in json.loads(lines[i]))
    entry = json.loads(lines[at])
    entry["tampered"] = 1
    lines[at] = json.dumps(entry, ensure_ascii=False)
    log = _variant(tmp_path, lines)
    with pytest.raises(ReplayMismatch, match=rf"event {at} \(log line {at + 1}\) differs from the log"):
        replay_file(log, "compiled")


def test_a_truncated_log_is_reported(logs: dict[int, Path], tmp_path: Path) -> None:
    lines = lines_of(logs[60])
    asks = sum(1 for x in lines if '"ask"' in x)
    cut = [i for i, x in enumerate(lines) if '"ask"' in x][asks // 2]
    log = _variant(tmp_path, lines[:cut])  # ends just before a decision
    r = run("replay", str(log))
    assert r.exit_code == 1 and "Traceback" not in r.stderr
    assert f"decision {asks // 2 + 1}: the replay asks seat" in r.stderr and f"log ends after {asks // 2}" in r.stderr


def test_a_log_with_more_than_the_game_is_reported(logs: dict[int, Path], tmp_path: Path) -> None:
    lines = lines_of(logs[60])
    first_ask = next(x for x in lines if '"ask"' in x)
    log = _variant(tmp_path, [*lines, first_ask, first_ask])
    asks = sum(1 for x in lines if '"ask"' in x)
    with pytest.raises(ReplayMismatch, match=rf"the log has {asks + 2} decisions, the replay made {asks}"):
        replay_file(log, "compiled")
    log = _variant(tmp_path, [*lines, json.dumps({"e": "extra"})])
    with pytest.raises(ReplayMismatch, match=rf"event {len(lines)} \(log line {len(lines) + 1}\) differs"):
        replay_file(log, "compiled")


def test_a_corrupt_line_deep_in_the_log_is_located(logs: dict[int, Path], tmp_path: Path) -> None:
    lines = lines_of(logs[60])
    at = len(lines) - 5
    lines[at] = lines[at][: len(lines[at]) // 2]  # half a line: not JSON
    log = _variant(tmp_path, lines)
    with pytest.raises(LogError, match=rf"calm.jsonl:{at + 1}: not a JSON line"):
        replay_file(log, "compiled")
    r = run("replay", str(log))
    assert r.exit_code == 1 and f"not a valid log: {log}:{at + 1}: not a JSON line" in r.stderr, r.stderr


def test_a_flood_of_events_in_a_log_is_not_read_on(logs: dict[int, Path], tmp_path: Path) -> None:
    """A log with 20,000 made-up events before a decision: the replay stops at the first one (the game logged fewer
    before asking), without reading on to the decision and holding them all."""
    lines = lines_of(logs[60])
    at = next(i for i, x in enumerate(lines) if '"ask"' in x) + 1
    flood = [json.dumps({"e": "note", "text": "x" * 200})] * 20_000
    replay_file(_variant(tmp_path, lines), "compiled")  # rules loaded and cached first
    peaks = []
    for flooded in (False, True):
        log = _variant(tmp_path, [*lines[:at], *flood, *lines[at:]] if flooded else lines)
        tracemalloc.start()
        try:
            if flooded:
                with pytest.raises(ReplayMismatch, match=rf"^event {at} \(log line {at + 1}\) differs from the log$"):
                    replay_file(log, "compiled")
            else:
                replay_file(log, "compiled")
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[1] < 1.5 * peaks[0], peaks  # (held, the flood is over 4 MB of dicts)
