"""The random agent's one-option shortcut draws what `random.sample` would: the same answers, the same games."""

from __future__ import annotations

import random

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
