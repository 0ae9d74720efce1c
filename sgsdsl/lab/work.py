"""The unit of work every backend shares: seeds cut into chunks, and the records of one chunk.

Its own module so that `runner` (which picks a backend) and `ray_backend` (one backend) both use it without
importing each other: `runner` imports `ray_backend` only when Ray is asked for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..engine import collector
from .records import GameRecord, play_record
from .variant import Variant, load_program

T = TypeVar("T")


def play_chunk(variant: Variant, seeds: Sequence[int]) -> list[GameRecord]:
    """A worker's unit: the records of these seeds (the program is loaded once per process)."""
    return play_tasks([(variant, s) for s in seeds])


def play_tasks(tasks: Sequence[tuple[Variant, int]]) -> list[GameRecord]:
    """A worker's unit when every game has its own variant (the balance lab's rotations): each program is loaded
    once per process, as in play_chunk."""
    collector.settle()  # (a forked worker inherits a settled heap; this collects what the last chunk left)
    return [play_record(load_program(variant), variant, seed) for variant, seed in tasks]


def chunks(seeds: Sequence[T], jobs: int) -> list[list[T]]:
    """Small enough that workers stay busy to the end, large enough that dispatch costs little."""
    size = max(1, min(50, len(seeds) // (jobs * 8) or 1))
    return [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]
