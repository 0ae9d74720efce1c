"""Running a studio: the rules loaded and watched, the app served by uvicorn on a loopback socket.

`start_studio` binds the socket itself (port 0 picks a free one) so the address, and with it the session
token's URL and the allowed Host header, are known before the first request. Tests and the soak script run
it in a thread with `Served.stop()`; the CLI runs it until Ctrl-C.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn

from ..sim import make_agents
from .app import Studio, create_app
from .session import Hub
from .workspace import Watcher, Workspace


@dataclass
class Served:
    studio: Studio
    server: uvicorn.Server
    watcher: Watcher
    thread: threading.Thread | None = None

    def stop(self) -> None:
        """End the event streams first (each finishes its response), then the server: uvicorn's graceful shutdown
        then has nothing to cancel, so it prints no traceback."""
        self.studio.hub.close(STREAMS_END)
        self.server.should_exit = True
        self.watcher.stop.set()
        self.studio.sessions.stop_current()
        if self.thread is not None:
            self.thread.join(10)


class StudioServer(uvicorn.Server):
    """uvicorn's server, whose Ctrl-C (or SIGTERM) ends the studio's event streams before the server stops."""

    def __init__(self, config: uvicorn.Config, hub: Hub):
        super().__init__(config)
        self.hub = hub

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if not self.should_exit:  # (the first signal; from a signal handler: wake the streams, do not wait)
            threading.Thread(target=self.hub.close, args=(0,), daemon=True).start()
        super().handle_exit(sig, frame)


# seconds Served.stop waits for the open event streams to finish (each ends at once: it is woken)
STREAMS_END = 2.0


def _agents(kind: str, players: int, seed: int) -> list[Any]:
    return make_agents((kind,), players, seed)


def bind_loopback(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 only (never every interface): port 0 takes a free port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def start_studio(workspace: Workspace, rule_args: list[str], rule_names: str, logs: list[Path], log_dir: Path,
                 defaults: dict[str, Any], port: int = 0, in_thread: bool = False,
                 token: str | None = None) -> tuple[Served, socket.socket]:
    """Load the rules, bind, and make the server (started in a thread when IN_THREAD)."""
    sock = bind_loopback(port)
    actual = sock.getsockname()[1]
    studio = Studio(workspace, _agents, rule_args, rule_names, logs, log_dir, defaults, actual, token)
    app = create_app(studio)
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=2)
    server = StudioServer(config, studio.hub)
    watcher = Watcher(workspace, studio.publish_rules)
    watcher.start()
    studio.publish_rules()
    studio.publish_logs()
    served = Served(studio, server, watcher)
    if in_thread:
        served.thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True,
                                         name="studio-server")
        served.thread.start()
    return served, sock
