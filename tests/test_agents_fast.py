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
