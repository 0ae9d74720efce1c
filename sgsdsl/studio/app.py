"""The studio's web application: a Starlette app with a Server-Sent Events stream and a few JSON commands.

Why Starlette and SSE: Starlette is a small, well-kept ASGI toolkit (routing, requests, responses, a test
client) served by uvicorn; the page needs one stream of updates from the server (the table, the question, the
narration, the rules' diagnostics) and a handful of commands to the server (answer, start, save), which is
exactly SSE (sse-starlette: pings, disconnects, reconnection by the browser's EventSource) plus plain POSTs.
WebSockets would add a second protocol and origin handling for no gain.

Safety: the server binds to loopback only (the CLI); every request must carry the session's random token
(the `t` query parameter, or the `X-Studio-Token` header), must be addressed to this server's own host (a
rebound DNS name is refused) and, when a browser says where it comes from, come from the page's own origin.
It serves its three static files, and reads only the rules it was started with and the logs it was given or
wrote itself. Every text from rules or logs reaches the page as JSON data, which the page writes as text,
never as markup (the Content-Security-Policy forbids inline script as a second wall).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
import click
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..files import write_text_atomic
from ..modes import SetupError, check_setup, parse_assignments
from ..replay import LogError, ReplayMismatch, log_header
from .replays import Replay, log_lines, open_log
from .session import GameSetup, Hub, Sessions
from .workspace import Workspace

_STATIC = {"studio.js": "text/javascript", "studio.css": "text/css"}
_SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the token is in the page's URL
    "Cache-Control": "no-store",
}
# the largest JSON command body the server reads
MAX_BODY = 64 * 1024


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Studio:
    """The state behind the web app: the rules, the current game, the logs it knows, the session token."""

    def __init__(self, workspace: Workspace, make_agents: Callable[..., list[Any]], rule_args: list[str],
                 rule_names: str, logs: list[Path], log_dir: Path, defaults: dict[str, Any], port: int,
                 token: str | None = None):
        self.workspace = workspace
        self.hub = Hub()
        self.sessions = Sessions(self.hub, make_agents)
        self.rule_args = rule_args
        self.rule_names = rule_names
        self.logs: dict[str, Path] = {}
        for p in logs:
            self._know_log(p)
        self.log_dir = log_dir
        self.defaults = defaults
        self.port = port
        self.token = token or secrets.token_urlsafe(24)
        self.replay: Replay | None = None
        self.last_setup: GameSetup | None = None
        self.game_rules_version = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?t={self.token}"

    def _know_log(self, path: Path) -> str:
        name = path.name
        while name in self.logs and self.logs[name] != path:
            name = "_" + name
        self.logs[name] = path
        return name

    # ------------------------------------------------------------ publishing
    def publish_rules(self, clean: bool | None = None) -> None:
        status = self.workspace.status()
        status["changed"] = self.workspace.version != self.game_rules_version and self.last_setup is not None
        self.hub.publish(rules=status)

    def publish_logs(self) -> None:
        self.hub.publish(logs=sorted(self.logs))

    # ------------------------------------------------------------ commands
    def start(self, body: dict[str, Any]) -> dict[str, Any]:
        program = self.workspace.program
        if program is None:
            raise Refused(409, "the rules do not check cleanly: fix the errors shown, then start")
        setup = self._setup(program, body)
        self.game_rules_version = self.workspace.version
        self.last_setup = setup
        self.sessions.start(program, setup)
        self.publish_rules()
        return {"ok": True, "seed": setup.seed}

    def restart(self) -> dict[str, Any]:
        """The last game again from its start, with the rules as they are now (same seed, same seats)."""
        if self.last_setup is None:
            raise Refused(409, "no game has been started yet")
        program = self.workspace.program
        if program is None or not self.workspace.status()["ok"]:
            raise Refused(409, "the rules do not check cleanly: fix the errors shown, then restart")
        setup = self.last_setup
        if setup.mode not in program.modes:
            raise Refused(409, f"the rules no longer define mode {setup.mode!r}")
        self.game_rules_version = self.workspace.version
        self.sessions.start(program, setup)
        self.publish_rules()
        return {"ok": True, "seed": setup.seed}

    def _setup(self, program: Any, body: dict[str, Any]) -> GameSetup:
        from ..cli.lab_common import general_ident

        d = {**self.defaults, **{k: v for k, v in body.items() if v not in (None, "")}}
        try:
            mode = _text(d.get("mode"), "mode")
            players = _int(d.get("players"), "players", 2, 12)
            seed = _int(d.get("seed"), "seed", -(2**62), 2**62)
            watch = bool(d.get("watch"))
            seat = None if watch else _int(d.get("seat", 0), "seat", 0, players - 1)
            opponents = _text(d.get("opponents"), "opponents")
            from ..sim import AGENT_KINDS
            if opponents not in AGENT_KINDS:
                raise Refused(400, f"opponents: no agent kind {opponents!r} ({', '.join(AGENT_KINDS)})")
            raw_options = d.get("options") or ""
            assignments = parse_assignments([w for w in _text(raw_options, "options").split() if w])
            options = check_setup(program, mode, players, assignments)
            pinned: dict[int, str] = {}
            general = str(d.get("general") or "").strip()
            if general and seat is not None:
                pinned[seat] = general_ident(program, general, "general")
            pool_text = str(d.get("pool") or "").strip()
            pool = sorted({general_ident(program, w, "pool") for w in pool_text.replace(",", " ").split()}) or None
            if pool is not None and len(pool) < players:
                raise Refused(400, f"pool: {len(pool)} generals cannot seat {players} players")
            delay = float(d.get("delay", 0.3)) if watch else 0.0
            if not 0.0 <= delay <= 10.0:
                raise Refused(400, "delay: between 0 and 10 seconds")
            round_cap = _int(d.get("round_cap", 60), "round_cap", 1, 10_000)
        except SetupError as err:
            raise Refused(400, str(err)) from None
        except click.UsageError as err:
            raise Refused(400, err.format_message()) from None
        except (TypeError, ValueError) as err:
            raise Refused(400, f"bad set-up: {err}") from None
        return GameSetup(mode, players, seed, options, opponents, seat, pinned, pool, round_cap, delay)

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        picks = body.get("picks")
        if not isinstance(picks, list) or not all(type(p) is int for p in picks) or len(picks) > 1000:
            raise Refused(400, "picks: a list of option numbers")
        run = self.sessions.current
        if run is None:
            raise Refused(409, "no game is running")
        problem = run.answer(picks)
        if problem is not None:
            raise Refused(400, f"not accepted: {problem}")
        return {"ok": True}

    def save_log(self) -> dict[str, Any]:
        """The last finished game's log, written to the log folder, and listed for replay."""
        if not self.sessions.finished_logs:
            raise Refused(409, "no game has finished yet")
        game_id, setup, log = self.sessions.finished_logs[-1]
        loaded = self.workspace.loaded
        assert loaded is not None
        path = self.log_dir / f"studio-seed{setup.seed}-game{game_id}.jsonl"
        agents = [setup.opponents if i != setup.seat else "human" for i in range(setup.players)]
        header = log_header(loaded, path, self.rule_args, self.rule_names, mode=setup.mode, agents=agents,
                            players=setup.players, seed=setup.seed, options=setup.options,
                            round_cap=setup.round_cap, pinned={str(k): v for k, v in setup.pinned.items()} or None,
                            pool=setup.pool, human_seat=setup.seat)
        try:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            write_text_atomic(path, log_lines(header, log))
        except (OSError, ValueError) as err:
            raise Refused(500, f"cannot write the log: {err}") from None
        name = self._know_log(path)
        self.publish_logs()
        return {"ok": True, "name": name}

    def open_replay(self, body: dict[str, Any]) -> dict[str, Any]:
        name = body.get("name")
        if not isinstance(name, str) or name not in self.logs:
            raise Refused(404, "no such log (the studio opens the logs it was given and the ones it saved)")
        try:
            self.replay = open_log(self.logs[name], name)
        except (LogError, ReplayMismatch) as err:
            raise Refused(400, str(err)) from None
        return self.replay.frame(0)

    def replay_frame(self, index: str | None) -> dict[str, Any]:
        if self.replay is None:
            raise Refused(409, "no log is open")
        if index is None or not index.lstrip("-").isascii() or not index.lstrip("-").isdigit() or len(index) > 9:
            raise Refused(400, "i: a frame number")
        return self.replay.frame(int(index))

    def setup_info(self) -> dict[str, Any]:
        info = dict(self.workspace.info)
        info["defaults"] = {k: v for k, v in self.defaults.items()}
        return info


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > 2000:
        raise Refused(400, f"{what}: a short text")
    return value


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isascii() and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if type(value) is not int or not low <= value <= high:
        raise Refused(400, f"{what}: a whole number from {low} to {high}")
    return value


def create_app(studio: Studio) -> Starlette:
    """The routes; each checks host, origin and token before anything else."""
    allowed_hosts = {f"127.0.0.1:{studio.port}", f"localhost:{studio.port}"}
    allowed_origins = {f"http://{h}" for h in allowed_hosts}

    def guard(request: Request) -> None:
        if request.headers.get("host", "") not in allowed_hosts:
            raise Refused(403, "this studio answers only at its own loopback address")
        origin = request.headers.get("origin")
        if origin is not None and origin not in allowed_origins:
            raise Refused(403, "requests from other sites are refused")
        given = request.query_params.get("t") or request.headers.get("x-studio-token") or ""
        if not secrets.compare_digest(given.encode(), studio.token.encode()):
            raise Refused(403, "open the studio with the address it printed (it carries the session token)")

    def refusal(err: Refused) -> Response:
        return JSONResponse({"error": err.message}, status_code=err.status, headers=_SECURITY_HEADERS)

    async def body_of(request: Request) -> dict[str, Any]:
        if request.method != "POST":
            raise Refused(405, "POST only")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise Refused(413, "the request is too large")
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            raise Refused(400, "the request body is not JSON") from None
        if not isinstance(data, dict):
            raise Refused(400, "the request body is a JSON object")
        return data

    def command(handler: Callable[[Studio, dict[str, Any]], dict[str, Any]]) -> Callable[..., Any]:
        async def endpoint(request: Request) -> Response:
            try:
                guard(request)
                body = await body_of(request)
                result = await anyio.to_thread.run_sync(handler, studio, body)
            except Refused as err:
                return refusal(err)
            return JSONResponse(result, headers=_SECURITY_HEADERS)
        return endpoint

    async def index(request: Request) -> Response:
        try:
            guard(request)
        except Refused as err:
            return PlainTextResponse(err.message, status_code=err.status, headers=_SECURITY_HEADERS)
        page = resources.files("sgsdsl.studio").joinpath("static/index.html").read_text(encoding="utf-8")
        return Response(page, media_type="text/html; charset=utf-8", headers=_SECURITY_HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return PlainTextResponse("not found", status_code=404, headers=_SECURITY_HEADERS)
        data = resources.files("sgsdsl.studio").joinpath(f"static/{name}").read_bytes()
        return Response(data, media_type=_STATIC[name], headers=_SECURITY_HEADERS)

    async def setup(request: Request) -> Response:
        try:
            guard(request)
        except Refused as err:
            return refusal(err)
        return JSONResponse(studio.setup_info(), headers=_SECURITY_HEADERS)

    async def frame(request: Request) -> Response:
        try:
            guard(request)
            result = studio.replay_frame(request.query_params.get("i"))
        except Refused as err:
            return refusal(err)
        return JSONResponse(result, headers=_SECURITY_HEADERS)

    async def events(request: Request) -> Response:
        try:
            guard(request)
        except Refused as err:
            return refusal(err)

        async def stream() -> Any:
            # ends when the studio stops (`Hub.close`): the response is then finished, not cut off by the server
            hub = studio.hub
            hub.stream_opened()
            try:
                seen = -1
                while not hub.closed:
                    version, state = hub.snapshot()
                    if version != seen:
                        seen = version
                        yield {"event": "state", "data": json.dumps(state, ensure_ascii=False)}
                    await anyio.to_thread.run_sync(hub.wait_newer, seen, 10.0, abandon_on_cancel=True)
            finally:
                hub.stream_closed()

        return EventSourceResponse(stream(), ping=15, headers=_SECURITY_HEADERS)

    routes = [
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/setup", setup),
        Route("/api/events", events),
        Route("/api/frame", frame),
        Route("/api/start", command(Studio.start), methods=["POST"]),
        Route("/api/restart", command(lambda s, b: s.restart()), methods=["POST"]),
        Route("/api/answer", command(Studio.answer), methods=["POST"]),
        Route("/api/save-log", command(lambda s, b: s.save_log()), methods=["POST"]),
        Route("/api/replay", command(Studio.open_replay), methods=["POST"]),
    ]
    return Starlette(routes=routes)
