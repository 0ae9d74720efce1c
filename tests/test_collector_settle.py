"""A batch of games settles the heap first (engine/collector.settle): the same records, the loaded rules frozen."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from sgsdsl.engine import collector
from sgsdsl.lab.runner import run
from sgsdsl.lab.variant import Variant


@pytest.fixture
def thawed() -> Iterator[None]:
    gc.unfreeze()
    try:
        yield
    finally:
        gc.unfreeze()


def test_settle_freezes_what_is_alive_and_changes_no_record(thawed: None, monkeypatch: pytest.MonkeyPatch) -> None:
    variant = Variant(paths=(str(Path("rules/standard.sgs").resolve()),), players=5)
    settled = run(variant, range(1, 7), jobs=1)
    assert gc.get_freeze_count() > 10_000  # the rules, the parser and the checked program, at least
    gc.unfreeze()
    monkeypatch.setattr(collector, "settle", lambda: None)
    plain = run(variant, range(1, 7), jobs=1)
    assert gc.get_freeze_count() == 0
    assert [r.as_dict() for r in settled] == [r.as_dict() for r in plain]
