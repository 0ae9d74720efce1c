"""Spread seeds over workers and gather the records in seed order, so the results never depend on how many
workers ran them or where: one process, a process pool (concurrent.futures), or a Ray instance or cluster."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

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
    # a Pool, not a ProcessPoolExecutor: leaving it (done, an error or Ctrl-C) terminates its workers at once, so an
    # interrupted run does not play every queued game first, and nothing is left to fail at exit
    with _ctrl_c_held():  # a Ctrl-C while the workers fork would be swallowed by the fork's hooks: held till after
        pool = multiprocessing.Pool(jobs, initializer=_ignore_ctrl_c)
    with pool:
        results = pool.imap_unordered(_play_part, enumerate(parts))
        while len(done) < len(parts):
            try:
                i, records = results.next(timeout=0.5)  # (waking now and then: a Ctrl-C is acted on at once)
            except multiprocessing.TimeoutError:
                continue
            done[i] = records
            finished += len(records)
            if progress:
                progress(finished)
    return [r for i in range(len(parts)) for r in done[i]]


def _play_part(item: tuple[int, list[tuple[Variant, int]]]) -> tuple[int, list[GameRecord]]:
    index, part = item
    return index, play_tasks(part)


def _ignore_ctrl_c() -> None:
    """In each worker: Ctrl-C reaches the whole process group, and a worker interrupted while it waits for work
    prints a traceback of its own; the parent ends the workers instead (leaving the Pool terminates them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # forked while the parent held it


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C is held back while the block runs and delivered when it ends: a KeyboardInterrupt raised inside
    os.fork's after-fork hooks is printed and dropped ("Exception ignored"), and the run would go on."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
