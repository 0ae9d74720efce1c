"""Scale-out on a real local Ray instance gives exactly the local records. Opt-in: `pytest -m ray` (needs
pip install -e '.[ray]'; starts and stops a local Ray instance, which takes some seconds)."""

from __future__ import annotations

import pytest

from helpers import STANDARD
from sgsdsl.lab.runner import run
from sgsdsl.lab.variant import Variant

pytestmark = pytest.mark.ray


def test_ray_backend_gives_the_local_results() -> None:
    pytest.importorskip("ray")
    v = Variant(paths=(str(STANDARD.resolve()),), players=6, agents=("heuristic", "random"))
    seeds = list(range(1, 41))
    local = run(v, seeds, jobs=1)
    on_ray = run(v, seeds, backend="ray")
    assert on_ray == local
    assert [r.seed for r in on_ray] == seeds


def test_ray_backend_plays_search_agents_as_locally() -> None:
    """Search agents keep their snapshots and rollouts inside each worker: Ray gives the local records."""
    pytest.importorskip("ray")
    v = Variant(paths=(str(STANDARD.resolve()),), players=5, agents=("search:4", "heuristic"), round_cap=3)
    seeds = list(range(1, 5))
    assert run(v, seeds, backend="ray") == run(v, seeds, jobs=1)
