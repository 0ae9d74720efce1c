"""Scale-out on Ray (optional extra: pip install -e '.[ray]'). Ray schedules the chunks; each task rebuilds
the variant's program from its rule files, so every worker needs sgsdsl and the same rule files (see README)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..install_hint import install_extra
from .records import GameRecord
from .variant import Variant
from .work import chunks, play_chunk


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


def _ray() -> Any:
    try:
        import ray
    except ImportError as err:
        raise RayUnavailable(f"--backend ray needs Ray: {install_extra('ray')}") from err
    return ray


def run_ray(variant: Variant, seeds: Sequence[int], address: str | None,
            progress: Callable[[int], None] | None = None) -> list[GameRecord]:
    """The records of these seeds, in seed order, computed by Ray tasks (a local instance when no address)."""
    ray = _ray()
    started = False
    if not ray.is_initialized():
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        except Exception as err:  # Ray raises several kinds here (connection, runtime env, version)
            raise RayUnavailable(f"cannot start or reach Ray{' at ' + address if address else ''}: {err}") from err
        started = True
    try:
        task = ray.remote(play_chunk)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        parts = chunks(seeds, max(1, cpus))
        refs = [task.remote(variant, part) for part in parts]
        order = {ref: i for i, ref in enumerate(refs)}
        done: dict[int, list[GameRecord]] = {}
        pending = list(refs)
        finished = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                done[order[ref]] = ray.get(ref)
                finished += len(done[order[ref]])
            if progress:
                progress(finished)
        return [r for i in range(len(parts)) for r in done[i]]
    finally:
        if started:
            ray.shutdown()
