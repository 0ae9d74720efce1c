"""The random draws of a game and of the random agent, spelled out as `random.Random` makes them.

`Random.shuffle`, `sample` and `randrange` are Python-level methods: each number they draw costs two Python calls
(`_randbelow`, then `getrandbits`), a few hundred times a game (the deck, the general pool, a discard pile shuffled
back, a hidden hand to pick from, the random agent's answers). These functions draw the very same numbers from the
generator's `getrandbits` (so games stay the same, seed for seed: `tests/test_draws.py` holds them to the standard
library's), and the native build compiles them, loop and all. Spelled out here, the draws also stay the same on a
Python whose methods would draw otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import ceil, log
from typing import Any


def uniform_below(bits: Callable[[int], int], n: int) -> int:
    """A uniform number in 0..n-1 drawn as `Random.randrange(n)` draws it: rejection sampling of n's bit length
    from BITS, a generator's getrandbits."""
    if n < 1:
        raise ValueError(f"no option to choose from ({n})")
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """Shuffle X in place as `rng.shuffle(x)` does (Fisher–Yates from the last item down)."""
    bits = rng.getrandbits
    i = len(x) - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]
        i -= 1


def sample_below(rng: random.Random, n: int, k: int) -> list[int]:
    """K distinct numbers of 0..n-1 in the order `rng.sample(range(n), k)` picks them."""
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    bits = rng.getrandbits
    result: list[int] = []
    setsize = 21  # (the standard library's threshold between its two ways, which draw differently)
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if n <= setsize:
        pool = list(range(n))
        for i in range(k):
            j = uniform_below(bits, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for _ in range(k):
            j = uniform_below(bits, n)
            while j in selected:
                j = uniform_below(bits, n)
            selected.add(j)
            result.append(j)
    return result
