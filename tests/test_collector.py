"""The cycle collector is off while a game plays (engine/collector.py), back on afterwards, and changes nothing."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.engine.agents import RandomAgent, Request
from sgsdsl.engine.errors import IllegalAnswer
from sgsdsl.engine.game import Game
from sgsdsl.engine.invariants import CheckingAgent
from sgsdsl.narrate import NarratedAgent, Narrator
from sgsdsl.sim import play_one
from sgsdsl.terminal import TerminalAgent


@pytest.fixture
def collector_state() -> Iterator[None]:
    was_on = gc.isenabled()
    try:
        yield
    finally:
        (gc.enable if was_on else gc.disable)()


class Watching(RandomAgent):
    """A random agent noting, at every decision, whether the collector is on."""

    def __init__(self, seed: int, seen: list[bool]):
        super().__init__(seed)
        self.seen = seen

    def decide(self, request: Request, view: Any) -> list[int]:
        self.seen.append(gc.isenabled())
        return super().decide(request, view)


class Wrong(RandomAgent):
    def decide(self, request: Request, view: Any) -> list[int]:
        return [-5]


def test_off_during_a_game_on_after_it_and_the_same_games(collector_state: None) -> None:
    program = interpreted_program(check_paths(["rules/standard.sgs"]))
    gc.enable()
    seen: list[bool] = []
    Game(program, "identity", 4, 3, [Watching(30 + i, seen) for i in range(4)]).run()
    assert seen and not any(seen) and gc.isenabled()
    # a game that ends in an error puts the collector back on as well
    with pytest.raises(IllegalAnswer):
        Game(program, "identity", 4, 3, [Wrong(i) for i in range(4)]).run()
    assert gc.isenabled()
    # whatever the collector does, a seed plays the same game
    on = play_one(program, "identity", 5, 11, record=True)
    gc.disable()
    off = play_one(program, "identity", 5, 11, record=True)
    assert not gc.isenabled()  # switched off by the caller: a game leaves it off
    assert on.log == off.log and on.hashes == off.hashes


class Waiting(Watching):
    """As a person at the terminal: decide() may wait (Agent.waits)."""

    waits = True


def test_a_game_with_an_agent_that_waits_keeps_the_collector_running(collector_state: None) -> None:
    program = interpreted_program(check_paths(["rules/standard.sgs"]))
    gc.enable()
    seen: list[bool] = []
    agents = [Waiting(40, seen)] + [Watching(41 + i, []) for i in range(3)]
    Game(program, "identity", 4, 3, agents).run()
    assert seen and all(seen) and gc.isenabled()
    # the wrappers of a person's agent say so too
    person = TerminalAgent(lambda prompt: "q", lambda text: None)
    assert person.waits and CheckingAgent(person, {}).waits
    assert NarratedAgent(person, Narrator(0), lambda text: None).waits
    assert not CheckingAgent(RandomAgent(1), {}).waits
