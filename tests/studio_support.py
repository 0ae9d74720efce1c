"""A studio served in a thread on a temp folder, for the studio's API and browser tests."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sgsdsl.cli.loading import rule_paths
from sgsdsl.studio.serve import Served, start_studio
from sgsdsl.studio.workspace import Workspace

FIXTURE = Path(__file__).parent / "fixtures" / "studio" / "design.sgs"


@contextmanager
def running_studio(folder: Path, defaults: dict[str, Any] | None = None, logs: list[Path] | None = None,
                   with_design: bool = True) -> Iterator[Served]:
    """A studio on a copy of the test design (or the standard edition alone), stopped at the end."""
    files: list[str] = []
    if with_design:
        design = folder / "design.sgs"
        shutil.copy(FIXTURE, design)
        files = [str(design)]
    ws = Workspace(rule_paths(files, ""), [Path(f).resolve() for f in files])
    assert ws.reload(), ws.diagnostics
    settings = {"mode": "identity", "players": 4, "seat": 0, "seed": 7, "opponents": "random", "general": "",
                "pool": "", "options": ""}
    settings.update(defaults or {})
    served, _sock = start_studio(ws, files, "", logs or [], folder / "logs", settings, 0, in_thread=True)
    wait_for(lambda: served.server.started, 20, "the server to start")
    try:
        yield served
    finally:
        served.stop()


def wait_for(condition: Callable[[], Any], seconds: float, what: str) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = condition()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def game_state(served: Served) -> dict[str, Any] | None:
    return served.studio.hub.snapshot()[1].get("game")
