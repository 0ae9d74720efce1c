"""The unit of work every backend shares: seeds cut into chunks, and the records of one chunk.

Its own module so that `runner` (which picks a backend) and `ray_backend` (one backend) both use it without
importing each other: `runner` imports `ray_backend` only when Ray is asked for."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import collector
from .records import GameRecord, play_record
from .variant import Variant, load_program


def play_chunk(variant: Variant, seeds: Sequence[int]) -> list[GameRecord]:
    """A worker's unit: the records of these seeds (the program is loaded once per process)."""
    program = load_program(variant)
    collector.settle()  # (a forked worker inherits a settled heap; this collects what the last chunk left)
    return [play_record(program, variant, s) for s in seeds]


def chunks(seeds: Sequence[int], jobs: int) -> list[list[int]]:
    """Small enough that workers stay busy to the end, large enough that dispatch costs little."""
    size = max(1, min(50, len(seeds) // (jobs * 8) or 1))
    return [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]
