"""The engine's draws (`engine.draws`) are the standard library's, number for number: the same games."""

from __future__ import annotations

import random

import pytest

from sgsdsl.engine.draws import sample_below, shuffle, uniform_below


def test_shuffle_equals_random_shuffle() -> None:
    for seed in range(100):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (0, 1, 2, 3, 7, 25, 108, 160):
            a, b = list(range(n)), list(range(n))
            shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b
        assert ours.getrandbits(32) == theirs.getrandbits(32)  # and the generators stay in step


def test_sample_below_equals_random_sample() -> None:
    for seed in range(100):
        ours, theirs = random.Random(seed), random.Random(seed)
        # both of the standard library's ways: a pool (n within its set size) and a set of picks (n beyond it)
        for n, k in ((1, 1), (2, 2), (6, 3), (21, 4), (22, 4), (22, 5), (40, 6), (45, 6), (46, 6), (300, 30), (5, 0)):
            assert sample_below(ours, n, k) == theirs.sample(range(n), k)
        assert ours.getrandbits(32) == theirs.getrandbits(32)


def test_uniform_below_equals_randrange() -> None:
    for seed in range(100):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 8, 9, 31, 32, 33, 1000, 2**40 + 3):
            assert uniform_below(ours.getrandbits, n) == theirs.randrange(n)


def test_refusals() -> None:
    with pytest.raises(ValueError, match="no option"):
        uniform_below(random.Random(0).getrandbits, 0)
    with pytest.raises(ValueError, match="larger than population"):
        sample_below(random.Random(0), 3, 4)
