"""Requests to agents that only count their options carry no labels when no log is kept — and change nothing.

`Agent.reads_options = False` (random and replay agents) lets a game that keeps no log skip making the labels,
tags and seats of its requests (`Decisions.blind`). The answers, hence the games, must be the very same as with
every label made: a game played with a log (labels made for it) and without one give the same answers.
"""

from __future__ import annotations

from typing import Any

import pytest

from sgsdsl.compiler.crosscheck import load_pair
from sgsdsl.engine.agents import RandomAgent, Request
from sgsdsl.engine.game import Game
from sgsdsl.sim import make_agents


class _Watching(RandomAgent):
    """A random agent that keeps every request it is asked (it still reads only their number)."""

    def __init__(self, seed: int, seen: list[Request]):
        super().__init__(seed)
        self.seen = seen

    def decide(self, request: Request, view: Any) -> list[int]:
        self.seen.append(request)
        return super().decide(request, view)


@pytest.mark.parametrize("engine", [0, 1])
def test_no_log_same_answers_as_with_a_log(engine: int) -> None:
    got = load_pair("standard")
    assert not isinstance(got, str), got
    program = got[engine]
    for seed in range(6):
        played = [Game(program, "identity", 8, seed, make_agents(("random",), 8, seed), record=record).run()
                  for record in (True, False)]
        assert played[0].answers == played[1].answers and played[0].result == played[1].result
        assert played[0].decisions == played[1].decisions > 100


def test_blank_labels_only_for_agents_that_do_not_read_them() -> None:
    got = load_pair("standard")
    assert not isinstance(got, str), got
    program = got[0]
    for record in (False, True):
        seen: list[Request] = []
        agents = [_Watching(seat, seen) for seat in range(5)]
        Game(program, "identity", 5, 3, agents, record=record).run()
        plays = [r for r in seen if r.kind == "play"]
        assert plays and all(len(r.options) >= 1 for r in plays)
        blank = all(label == "" for r in plays for label in r.options)
        assert blank is not record  # labels are made exactly when a log keeps them
        # the menus of answers too (responses, nullify windows, rescues): their cards and conversions are not
        # even labelled; only the closing "decline" / "pass" option keeps its text
        answers = [r for r in seen if r.kind in ("respond", "respond_for", "nullify", "rescue")]
        assert answers and all(r.options[-1] in ("decline", "pass") for r in answers)
        assert all(label == "" for r in answers for label in r.options[:-1]) is not record

    class Reading(_Watching):
        reads_options = True

    seen = []
    Game(program, "identity", 5, 3, [Reading(seat, seen) for seat in range(5)], record=False).run()
    assert all(r.options[-1] == "end play phase" for r in seen if r.kind == "play")
