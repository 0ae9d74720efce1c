"""The random agent's one-option shortcut draws what `random.sample` would: the same answers, the same games."""

from __future__ import annotations

import random

import pytest

from sgsdsl.engine.agents import RandomAgent, Request


def test_one_option_answers_equal_sample() -> None:
    for seed in range(200):
        fast, slow = RandomAgent(seed), random.Random(seed)
        for n in (1, 2, 3, 7, 21, 22, 40, 300):
            req = Request(0, "play", "p", tuple(str(i) for i in range(n)))
            assert fast.decide(req, {}) == sorted(slow.sample(range(n), 1))
        # and the generator stays in step for what follows (a multi-option answer)
        req = Request(0, "choose", "p", tuple("abcdef"), 2, 2)
        assert fast.decide(req, {}) == sorted(slow.sample(range(6), 2))


def test_below_and_ranged_answers_equal_randrange_and_randint() -> None:
    for seed in range(100):
        fast, slow = RandomAgent(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 8, 9, 31, 32, 33, 1000):
            assert fast.below(n) == slow.randrange(n)
        # a range of sizes (lo < hi): randint(lo, hi) picks the size, then sample() the options
        req = Request(0, "choose", "p", tuple("abcdefg"), 1, 4)
        k = slow.randint(1, 4)
        assert fast.decide(req, {}) == sorted(slow.sample(range(7), k))


def test_below_refuses_an_empty_choice() -> None:
    with pytest.raises(ValueError, match="no option"):
        RandomAgent(0).below(0)


class _AskedEveryTime(RandomAgent):
    """The random agent with its own decide: the engine asks it every time (Agent.uniform_bits is left unset)."""

    def decide(self, request: Request, view: object) -> list[int]:
        self.asked = getattr(self, "asked", 0) + 1
        return super().decide(request, view)


def test_the_engine_draws_the_random_agents_one_option_answers_as_decide_would() -> None:
    """Decisions.ask draws a random agent's one-of-n answers itself (Agent.uniform_bits), without a request or a
    call of decide: the games are the ones an agent asked every time plays, log, state hashes and answers alike."""
    from sgsdsl.api import check_paths
    from sgsdsl.compiler.cache import compiled_program
    from sgsdsl.engine.game import Game
    from sgsdsl.sim import agent_seed

    assert RandomAgent(1).uniform_bits is not None and _AskedEveryTime(1).uniform_bits is None
    program = compiled_program(check_paths(["rules/standard.sgs"]))
    for seed in range(3):
        games = []
        for kind in (RandomAgent, _AskedEveryTime):
            agents = [kind(agent_seed(seed, i)) for i in range(8)]
            games.append((Game(program, "identity", 8, seed, agents, record=True).run(), agents))
        (drawn, _), (asked, watched) = games
        assert drawn.log == asked.log and drawn.hashes == asked.hashes and drawn.answers == asked.answers
        assert drawn.result == asked.result and sum(a.asked for a in watched) == asked.decisions > 100
