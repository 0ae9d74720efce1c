"""Logs in the studio: a recorded game re-run once, with the table kept at every decision, to step through.

The re-run is `sgsdsl replay`'s: the log's rules are checked and must have the digest it was recorded with,
and every decision is verified against its recorded state hash as it is replayed. The frames keep the
spectator's table (every hand shown: a replay is a review), the narration added since the previous frame,
the decision and its answer, and the state hash, which is the recorded one because the replay checked it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.agents import Request
from ..narrate import narrate, transcript
from ..replay import CheckingReplayAgent, LogError, ReplayDiverged, prepare_replay, run_replay
from .table import table_state

# a replay keeps one table per decision: a log with more decisions than this is refused, not loaded
MAX_FRAMES = 20_000


@dataclass
class Frame:
    table: dict[str, Any]
    lines: list[str]  # narration since the previous frame
    decision: str  # who was asked what, and the recorded answer ("" for the last frame)
    hash: str


@dataclass
class Replay:
    name: str
    summary: str
    frames: list[Frame] = field(default_factory=list)

    def frame(self, index: int) -> dict[str, Any]:
        """Frame INDEX with the whole narration up to it (the page redraws from nothing when it jumps)."""
        index = max(0, min(index, len(self.frames) - 1))
        lines = [line for f in self.frames[: index + 1] for line in f.lines]
        f = self.frames[index]
        return {"name": self.name, "summary": self.summary, "index": index, "count": len(self.frames),
                "table": f.table, "narration": lines[-300:], "decision": f.decision, "hash": f.hash}


class _FramingAgent(CheckingReplayAgent):
    """`replay`'s checking agent that also keeps the table as it stood at each decision (and so the game's log)."""

    def __init__(self, path: Path, frames: list[Frame]):
        super().__init__(path, keep_log=True)
        self.frames = frames
        self.read = 0

    def decide(self, request: Request, view: Any) -> list[int]:
        if self.pos >= MAX_FRAMES:  # a frame per decision is kept: a longer log is refused, not loaded
            raise ReplayDiverged(LogError(f"{self.path}: more decisions than the studio steps through ({MAX_FRAMES})"))
        answer = super().decide(request, view)  # checks the seat, the options, the state hash and the events first
        assert self.game is not None
        fresh = self.game.log[self.read:]
        self.read = len(self.game.log)
        self.frames.append(Frame(table_state(self.game, None), transcript(fresh, None, decisions=False),
                                 narrate(self.want, None) or "", self.want["hash"]))
        return answer


def open_log(path: Path, name: str) -> Replay:
    """Re-run the log at PATH, keeping a frame per decision; LogError / ReplayMismatch say what is wrong."""
    setup = prepare_replay(path, "compiled")
    frames: list[Frame] = []
    agent = _FramingAgent(path, frames)
    game = run_replay(setup, agent)
    frames.append(Frame(table_state(game, None), transcript(game.log[agent.read:], None, decisions=False),
                        "", game.choices.state_hash()))
    h = setup.header
    result = f" — {', '.join(game.result[0]) or 'a draw'}" if game.result else ""
    return Replay(name, f"{h.mode}, {h.players} players, seed {h.seed}, {agent.pos} decisions{result}", frames)


def log_lines(header: dict[str, Any], log: list[dict[str, Any]]) -> str:
    """A log as `write_log` writes it (header, then every entry), for the studio's own games."""
    lines = [json.dumps(header, ensure_ascii=False, sort_keys=True)]
    lines += [json.dumps(entry, ensure_ascii=False, sort_keys=True) for entry in log]
    return "\n".join(lines) + "\n"
