"""Spread seeds over workers and gather the records in seed order, so the results never depend on how many
workers ran them or where: one process, a process pool (concurrent.futures), or a Ray instance or cluster."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from ..engine import collector
from .records import GameRecord, play_record
from .variant import Variant, load_program
from .work import chunks, play_tasks

BACKENDS = ("local", "ray")
Progress = Callable[[int], None]


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - platforms without affinity
        return max(1, os.cpu_count() or 1)


def run(variant: Variant, seeds: Sequence[int], jobs: int | None = None, backend: str = "local",
        address: str | None = None, progress: Progress | None = None) -> list[GameRecord]:
    """Every seed's record, in the order of `seeds`, whatever the backend and the number of jobs."""
    jobs = jobs or default_jobs()
    if backend == "ray":
        from .ray_backend import run_ray

        return run_ray(variant, seeds, address, progress)
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    return run_tasks([(variant, s) for s in seeds], jobs, progress)


def run_tasks(tasks: Sequence[tuple[Variant, int]], jobs: int | None = None,
              progress: Progress | None = None) -> list[GameRecord]:
    """Every (variant, seed) game's record, in the order given, on local processes: the games of one run may each
    have their own variant (seats, pins, barred skills), as long as they share a few rule sets."""
    jobs = jobs or default_jobs()
    for variant in {v.paths + (v.engine,): v for v, _ in tasks}.values():
        load_program(variant)  # once here: forked workers inherit it (settled, so they share its pages too)
    collector.settle()
    if jobs == 1 or len(tasks) < 2:
        out: list[GameRecord] = []
        for variant, s in tasks:
            out.append(play_record(load_program(variant), variant, s))
            if progress:
                progress(len(out))
        return out
    parts = chunks(tasks, jobs)
    done: dict[int, list[GameRecord]] = {}
    finished = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(play_tasks, part): i for i, part in enumerate(parts)}
        for fut in as_completed(futures):
            done[futures[fut]] = fut.result()
            finished += len(done[futures[fut]])
            if progress:
                progress(finished)
    return [r for i in range(len(parts)) for r in done[i]]
