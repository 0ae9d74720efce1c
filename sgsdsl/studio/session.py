"""One game at a time in the studio: played in a thread of its own, watched by the page.

The engine asks its agents and waits for their answers, so the game runs in a worker thread. The person's
seat is a `WebAgent`: at each request it publishes the table (taken in the game's thread) and the question,
then blocks until the page answers, validating the answer exactly as `play` does (`terminal.parse_answer`).
Other seats are ordinary agents; in watch mode every seat is, paced so a person can follow.

Everything the page sees goes through `Hub.publish` as plain data. A newer game cancels the older one: its
agents raise `GameAborted` at their next decision, so no thread outlives the game it played.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine.agents import Agent, Request
from ..engine.errors import EngineError, GameAborted
from ..engine.game import Game
from ..narrate import transcript
from ..rule_errors import one_line
from ..terminal import PlayerQuit, parse_answer
from .table import table_state

# the narration kept per game (older lines are dropped: a soak of many games must not grow without bound)
NARRATION_LINES = 600
# the narration sent with each update (the page shows the most recent lines)
NARRATION_SENT = 300


class Cancelled(GameAborted):
    """The studio started another game, or is shutting down."""


@dataclass
class GameSetup:
    """What a game is started with; `seat` None is watch mode (agents play every seat)."""

    mode: str
    players: int
    seed: int
    options: dict[str, Any]
    opponents: str
    seat: int | None = 0
    pinned: dict[int, str] = field(default_factory=dict)
    pool: list[str] | None = None
    round_cap: int = 60
    delay: float = 0.0  # watch mode: seconds between decisions


class Hub:
    """The latest state for each topic, and a version counter the page's event streams wait on. Closing it (the
    studio stopping) wakes every stream and tells it to end, so the server never has a stream to cut off."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.version = 0
        self.state: dict[str, Any] = {}
        self.closed = False
        self.streams = 0  # event streams open now

    def publish(self, **parts: Any) -> None:
        with self._cond:
            self.state.update(parts)
            self.version += 1
            self._cond.notify_all()

    def snapshot(self) -> tuple[int, dict[str, Any]]:
        with self._cond:
            return self.version, dict(self.state)

    def wait_newer(self, seen: int, timeout: float) -> int:
        """Block until the version passes SEEN, the hub closes, or TIMEOUT seconds pass; the current version."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > seen or self.closed, timeout=timeout)
            return self.version

    def stream_opened(self) -> None:
        with self._cond:
            self.streams += 1

    def stream_closed(self) -> None:
        with self._cond:
            self.streams -= 1
            self._cond.notify_all()

    def close(self, wait: float) -> bool:
        """End every event stream: wake them, and wait up to WAIT seconds for them to finish their responses.
        Whether none is left open."""
        with self._cond:
            self.closed = True
            self._cond.notify_all()
            return self._cond.wait_for(lambda: self.streams == 0, timeout=wait)


class _Followed:
    """The game's narration, read on from where it stopped, in the person's words (or a spectator's)."""

    def __init__(self, viewer: int | None):
        self.viewer = viewer
        self.pos = 0
        self.lines: collections.deque[str] = collections.deque(maxlen=NARRATION_LINES)

    def catch_up(self, log: list[dict[str, Any]]) -> None:
        fresh = log[self.pos:]
        self.pos = len(log)
        self.lines.extend(transcript(fresh, self.viewer, decisions=False))


class GameRun:
    """A game being played in its own thread, publishing to a hub."""

    def __init__(self, hub: Hub, program: Any, setup: GameSetup, make_agents: Callable[..., list[Agent]],
                 game_id: int, on_finish: Callable[[GameRun], None] | None = None):
        self.hub = hub
        self.setup = setup
        self.game_id = game_id
        self.cancelled = threading.Event()
        self._answers: collections.deque[list[int]] = collections.deque()
        self._answer_ready = threading.Condition()
        self.pending: Request | None = None
        self.asked = 0  # questions put to the person so far (the page tells a new question from an old one)
        self.follow = _Followed(setup.seat)
        self.error: str | None = None
        self.on_finish = on_finish
        agents = make_agents(setup.opponents, setup.players, setup.seed)
        if setup.seat is not None:
            agents[setup.seat] = WebAgent(self)
        self.agents = [_Paced(a, self) for a in agents]
        self.game = Game(program, setup.mode, setup.players, setup.seed, self.agents, setup.options,
                         round_cap=setup.round_cap, record=True, pinned=setup.pinned or None, pool=setup.pool)
        self.thread = threading.Thread(target=self._run, name=f"studio-game-{game_id}", daemon=True)

    # ------------------------------------------------------------ the game's thread
    def start(self) -> None:
        self.publish(None)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.game.run()
        except (Cancelled, PlayerQuit):
            return
        except EngineError as err:
            self.error = f"the game stopped on a rule error: {one_line(err)}"
        except Exception as err:  # noqa: BLE001 - a studio must report a broken game, not die with its thread
            self.error = f"the game stopped on an internal error: {type(err).__name__}: {err}"
        if self.cancelled.is_set():
            return
        self.publish(None)
        if self.on_finish is not None:
            self.on_finish(self)

    def publish(self, request: Request | None) -> None:
        """The table, the question (if any) and the narration so far, as the page will draw them."""
        self.follow.catch_up(self.game.log)
        self.pending = request
        question = None
        if request is not None:
            self.asked += 1
            question = {"number": self.asked, "prompt": request.prompt, "kind": request.kind,
                        "options": list(request.options), "low": request.low, "high": request.high,
                        "seat": request.seat}
        self.hub.publish(game={
            "id": self.game_id, "watch": self.setup.seat is None, "seat": self.setup.seat, "seed": self.setup.seed,
            "mode": self.setup.mode, "players": self.setup.players, "table": table_state(self.game, self.setup.seat),
            "question": question, "narration": list(self.follow.lines)[-NARRATION_SENT:], "error": self.error,
            "finished": self.game.result is not None or self.error is not None,
        })

    def wait_answer(self, request: Request) -> list[int]:
        self.publish(request)
        with self._answer_ready:
            while not self._answers:
                if self.cancelled.is_set():
                    raise Cancelled("a newer game started")
                self._answer_ready.wait(timeout=0.5)
            return self._answers.popleft()

    # ------------------------------------------------------------ the server's side
    def answer(self, picks: list[int]) -> str | None:
        """Hand the page's answer to the waiting game: None when taken, else why it is not legal (as `play`)."""
        request = self.pending
        if request is None:
            return "no question is waiting for an answer"
        _, problem = parse_answer(" ".join(str(p) for p in picks), request)
        if problem is not None:
            return problem
        with self._answer_ready:
            self._answers.append(sorted(picks))
            self._answer_ready.notify_all()
        return None

    def cancel(self) -> None:
        self.cancelled.set()
        with self._answer_ready:
            self._answer_ready.notify_all()

    def join(self, timeout: float) -> None:
        if self.thread.is_alive():
            self.thread.join(timeout)


class WebAgent(Agent):
    """The person at the page: answers come from the browser."""

    name = "human"
    waits = True

    def __init__(self, run: GameRun):
        self.run = run

    def decide(self, request: Request, view: Any) -> list[int]:
        return self.run.wait_answer(request)


class _Paced(Agent):
    """Any seat's agent, made cancellable; in watch mode it also publishes the table and waits a moment."""

    def __init__(self, inner: Agent, run: GameRun):
        self.inner = inner
        self.run = run
        self.name = inner.name
        self.reads_view = inner.reads_view
        self.view_cards = inner.view_cards
        self.reads_options = True  # the log the narration reads is kept anyway
        self.waits = True

    def decide(self, request: Request, view: Any) -> list[int]:
        if self.run.cancelled.is_set():
            raise Cancelled("a newer game started")
        if self.run.setup.seat is None:  # watch mode: show each decision, at the chosen speed
            self.run.publish(None)
            if self.run.setup.delay > 0:
                self.run.cancelled.wait(self.run.setup.delay)
                if self.run.cancelled.is_set():
                    raise Cancelled("a newer game started")
        return self.inner.decide(request, view)


class Sessions:
    """The one current game of a studio (starting a game cancels the one before)."""

    def __init__(self, hub: Hub, make_agents: Callable[..., list[Agent]]):
        self.hub = hub
        self.make_agents = make_agents
        self.current: GameRun | None = None
        self.counter = 0
        self.lock = threading.Lock()
        self.finished_logs: collections.deque[tuple[int, GameSetup, list[dict[str, Any]]]] = (
            collections.deque(maxlen=5))

    def start(self, program: Any, setup: GameSetup) -> GameRun:
        with self.lock:
            self.stop_current()
            self.counter += 1
            run = GameRun(self.hub, program, setup, self.make_agents, self.counter, on_finish=self._finished)
            self.current = run
        run.start()
        return run

    def _finished(self, run: GameRun) -> None:
        self.finished_logs.append((run.game_id, run.setup, run.game.log))

    def stop_current(self) -> None:
        run = self.current
        if run is not None:
            run.cancel()
            run.join(5.0)
        self.current = None

    def wait_finished(self, timeout: float) -> bool:
        """For tests and the soak: whether the current game ended within TIMEOUT seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            run = self.current
            if run is None or not run.thread.is_alive():
                return True
            run.join(0.1)
        return False
