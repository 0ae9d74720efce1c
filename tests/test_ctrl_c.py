"""Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during a long `simulate` or `compare` on
worker processes: the command ends at once with one short line and exit 130, no traceback from it or its
workers, and no queued game is played first."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from studio_support import wait_for

ROOT = Path(__file__).resolve().parents[1]


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads a process's children from /proc")
@pytest.mark.parametrize("command", [["simulate", "--players", "4", "--games", "200000", "--jobs", "2"],
                                     ["compare", "--players", "4", "--games", "200000", "--jobs", "2",
                                      "--b-option", "two_renegades=true"]])
def test_ctrl_c_stops_a_run_on_workers_cleanly(tmp_path: Path, command: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SGSDSL_CACHE": str(tmp_path / "cache")}
    p = subprocess.Popen([sys.executable, "-m", "sgsdsl", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=tmp_path, env=env, start_new_session=True)
    try:
        wait_for(lambda: len(_children(p.pid)) >= 2 or p.poll() is not None, 120, "the workers to start")
        assert p.poll() is None, p.communicate()
        os.killpg(p.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the parent and every worker
        out, err = p.communicate(timeout=60)  # (200,000 games queued: a run that plays them on never ends here)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    assert p.returncode == 130, (p.returncode, err)
    assert err.strip() == "interrupted (Ctrl-C)", err
    assert "Traceback" not in out + err
