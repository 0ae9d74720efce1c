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
