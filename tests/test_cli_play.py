"""`sgsdsl play`: a human answers by number; bad answers are refused with a reason, never a traceback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from helpers import MINI
from sgsdsl.cli import main
from sgsdsl.engine.agents import Request
from sgsdsl.terminal import PlayerQuit, parse_answer


def play(stdin: str, *args: str):
    return CliRunner().invoke(main, ["play", str(MINI), "--players", "4", *args], input=stdin,
                              catch_exceptions=False)


def test_a_whole_game_by_always_answering_zero() -> None:
    r = play("0\n" * 4000, "--round-cap", "2", "--seat", "2")
    assert r.exit_code == 0, r.output
    assert "game over" in r.output and "your hand" in r.output


def test_bad_answers_are_refused_then_quit() -> None:
    r = play("x\n99\n0 0\nq\n", "--seed", "3")
    assert r.exit_code == 1
    assert "not accepted: answer with option numbers" in r.output
    assert "not accepted: there is no option 99" in r.output
    assert "game abandoned (quit)" in r.output


def test_end_of_input_abandons_the_game() -> None:
    r = play("", "--seed", "3")
    assert r.exit_code == 1 and "game abandoned" in r.output


def test_seat_must_exist() -> None:
    assert play("", "--seat", "7").exit_code == 2


def test_parse_answer() -> None:
    req = Request(0, "choose", "pick", ("a", "b", "c"), 1, 2)
    assert parse_answer("2 0", req) == ([0, 2], None)
    assert parse_answer("1,2", req) == ([1, 2], None)
    assert parse_answer("", req)[1] == "choose 1 to 2"
    assert parse_answer("0 1 2", req)[1] == "choose 1 to 2"
    assert parse_answer("-1", req)[1].startswith("answer with option numbers")
    with pytest.raises(PlayerQuit):
        parse_answer("quit", req)


def test_play_your_own_general_read_its_skills_and_keep_an_abandoned_log(tmp_path) -> None:
    """--general and --pool as in simulate; `? NAME` shows a skill's text; the log of an abandoned game is kept,
    marked abandoned, and replays up to where it stops."""
    import json

    from helpers import STANDARD

    log = tmp_path / "left.jsonl"
    pool = "caocao,liubei,sunquan,guanyu,zhangfei,zhaoyun,machao,huangyueying"
    r = CliRunner().invoke(main, ["play", str(STANDARD), "--players", "5", "--general", "P0=刘备", "--pool", pool,
                                  "--log", str(log)], input="? 仁德\n? zhangfei\n? 无名\n0\n0\nq\n",
                           catch_exceptions=False)
    assert r.exit_code == 1
    assert "仁德 (rende, 刘备): 仁德：出牌阶段，你可以将任意张手牌交给其他角色" in r.output
    assert "咆哮 (paoxiao, 张飞)" in r.output and "no skill or general '无名'" in r.output
    assert "* P0 刘备" in r.output and "game abandoned (quit)" in r.output
    assert "choose your general" not in r.output  # (P0's general is pinned: its pick would be dropped)
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["abandoned"] == "quit" and header["pinned"] == {"0": "liubei"} and "zhaoyun" in header["pool"]
    rep = CliRunner().invoke(main, ["replay", str(log)], catch_exceptions=False)
    assert rep.exit_code == 0 and rep.output.startswith("replay ok: ") and "abandoned there (quit)" in rep.output
    shown = CliRunner().invoke(main, ["replay", str(log), "--show"], catch_exceptions=False)
    assert shown.output.rstrip().endswith("(the game was abandoned here: quit)")
    # a log cut short without saying so is still refused
    lines = log.read_text(encoding="utf-8").splitlines()
    plain = dict(header)
    del plain["abandoned"]
    log.write_text("\n".join([json.dumps(plain, ensure_ascii=False), *lines[1:]]) + "\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["replay", str(log)], catch_exceptions=False).exit_code == 1


def test_play_refuses_bad_pins_and_pools() -> None:
    assert play("", "--general", "P9=nobody").exit_code == 2
    assert play("", "--pool", "nobody").exit_code == 2
