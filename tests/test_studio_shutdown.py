"""Stopping the studio while a page's event stream is open: the stream is ended (its response finished) before
the server stops, so uvicorn has nothing to cancel and prints no traceback; Ctrl-C on `sgsdsl studio` ends it
with a short message and exit 0."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from studio_support import running_studio, wait_for

ROOT = Path(__file__).resolve().parents[1]


class Reader:
    """An event stream read in a thread, as the page's EventSource does; how it ended."""

    def __init__(self, url: str):
        self.lines: list[str] = []
        self.ended: str | None = None
        self.thread = threading.Thread(target=self._read, args=(url,), daemon=True)
        self.thread.start()

    def _read(self, url: str) -> None:
        try:
            with httpx.stream("GET", url, timeout=None) as r:
                for line in r.iter_lines():
                    self.lines.append(line)
            self.ended = "cleanly"
        except httpx.HTTPError as err:
            self.ended = f"{type(err).__name__}: {err}"


def test_stopping_with_an_open_stream_ends_it_cleanly(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    with running_studio(tmp_path) as served:
        hub = served.studio.hub
        reader = Reader(f"http://127.0.0.1:{served.studio.port}/api/events?t={served.studio.token}")
        wait_for(lambda: any(x.startswith("event: state") for x in reader.lines), 20, "the first update")
        wait_for(lambda: hub.streams == 1, 20, "the stream to count as open")
    # (running_studio's exit is Served.stop)
    assert hub.closed and hub.streams == 0
    reader.thread.join(20)
    assert reader.ended == "cleanly", reader.ended  # a finished response, not a connection cut mid-body
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception in ASGI" not in err and "CancelledError" not in err, err


def test_a_stream_opened_while_stopping_ends_at_once(tmp_path: Path) -> None:
    with running_studio(tmp_path) as served:
        assert served.studio.hub.close(5)  # as Served.stop does first: no stream open, none left
        reader = Reader(f"http://127.0.0.1:{served.studio.port}/api/events?t={served.studio.token}")
        reader.thread.join(20)
        assert reader.ended == "cleanly" and served.studio.hub.streams == 0  # the page's reconnection: ended too


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_on_the_studio_command_is_clean(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SGSDSL_CACHE": str(tmp_path / "cache")}
    p = subprocess.Popen([sys.executable, "-m", "sgsdsl", "studio", "--no-browser", "--port", "0", "--log-dir",
                          str(tmp_path / "logs")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=tmp_path, env=env)
    try:
        first = p.stdout.readline() if p.stdout else ""
        found = re.search(r"(http://127\.0\.0\.1:\d+)/\?t=(\S+)", first)
        assert found, first
        reader = Reader(f"{found.group(1)}/api/events?t={found.group(2)}")
        wait_for(lambda: any(x.startswith("event: state") for x in reader.lines), 30, "the first update")
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    reader.thread.join(20)
    assert p.returncode == 0, (p.returncode, err)
    assert "studio stopped" in out and "Traceback" not in err and "Exception in ASGI" not in err, err
    assert "Aborted" not in err and reader.ended == "cleanly", (err, reader.ended)
