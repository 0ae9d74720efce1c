"""Game logs: write one (`simulate --log`), read one strictly, and replay it decision by decision.

A log is JSON lines: a header (how to re-run the game, and the digest of the rules it was played with),
then every event and decision. `replay` refuses a log whose header or lines are malformed, whose file is
not a regular UTF-8 file, or whose rules are not the ones it was recorded with (the digest differs); then
it re-plays the recorded answers and compares each decision's state hash as it goes, stopping at the first
decision that diverges. The rules files named in a header are relative to the log's folder, so a replay
works from any working directory.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import bundled
from .api import Loaded, check_paths, program_for
from .engine.agents import Agent, Request
from .engine.errors import EngineError, GameAborted
from .engine.game import Game
from .files import regular_text_lines, write_lines_atomic
from .modes import SetupError, check_setup
from .rule_errors import one_line

LOG_VERSION = 2
MAX_LOG_BYTES = 256 * 1024 * 1024
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_SEED_LIMIT = 2**63


class ReplayMismatch(Exception):
    """The replay does not reproduce the log (or the log's rules are not the ones it was made with)."""


class LogError(ReplayMismatch):
    """The file is not a well-formed sgsdsl log; the message says where and why."""


@dataclass(frozen=True)
class LogHeader:
    rules: list[str]
    rule_names: list[str]
    mode: str
    players: int
    seed: int
    options: dict[str, Any]
    round_cap: int
    rules_digest: str
    pinned: dict[int, str]  # seat -> general (simulate --general)
    pool: list[str] | None  # the generals on offer (simulate --pool)
    abandoned: str | None = None  # why the game stopped before its end (`play --log` of a game left unfinished)


def rules_digest(loaded: Loaded) -> str:
    """The identity of the rules a game ran: every loaded module's text, in load order (paths left out, so
    moving the files keeps the digest; changing a character changes it)."""
    assert loaded.checked is not None
    h = hashlib.sha256(b"sgsdsl rules\n")
    for m in loaded.checked.modules:
        data = loaded.sources.get(m.path, "").encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return "sha256:" + h.hexdigest()


def log_header(loaded: Loaded, log_path: Path, rules: list[str], rule_names: str, **game: Any) -> dict[str, Any]:
    """The header line of a log written to LOG_PATH: rules files relative to the log's folder."""
    folder = log_path.resolve().parent
    rel = [os.path.relpath(Path(r).resolve(), folder).replace(os.sep, "/") for r in rules]
    names = [n.strip() for n in rule_names.split(",") if n.strip()]
    return {"sgsdsl_log": LOG_VERSION, "rules": rel, "rule_names": names, "rules_digest": rules_digest(loaded),
            **game}


def write_log(game: Game, path: Path, header: dict[str, Any]) -> None:
    """The header, then every event and decision, one JSON object per line; written atomically (see files)."""
    entries = (json.dumps(entry, ensure_ascii=False, sort_keys=True) for entry in game.log)
    write_lines_atomic(path, itertools.chain([json.dumps(header, ensure_ascii=False, sort_keys=True)], entries))


# ------------------------------------------------------------------ reading


def read_log(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header (as written) and entries of a log, every field checked; `LogError` says what is wrong and
    where. `parse_header` gives the header's typed form. (This holds the whole log: `replay` and `replay --show`
    read it as they go, with `iter_log`.)"""
    lines = iter_log(path)
    header = next(lines)
    return header, list(lines)


def iter_log(path: Path) -> Generator[dict[str, Any], None, None]:
    """The header (checked), then each entry of a log (checked), read from the file as they are needed: `replay`
    and `replay --show` go through a log of any size in little memory. `LogError` says what is wrong and where."""
    return (obj for _, obj in numbered_log(path))


def numbered_log(path: Path) -> Generator[tuple[int, dict[str, Any]], None, None]:
    """`iter_log` with each entry's line number in the file (for messages that say where a log differs)."""
    first = True
    try:
        for no, line in enumerate(regular_text_lines(path, MAX_LOG_BYTES), 1):
            if not line.strip():
                if first:
                    raise LogError(f"{path} is empty (or its first line is), not an sgsdsl log")
                continue
            try:
                obj = json.loads(line)
            except (ValueError, RecursionError) as err:
                reason = err.msg if isinstance(err, json.JSONDecodeError) else "not readable JSON"
                raise LogError(f"{path}:{no}: not a JSON line ({reason})") from None
            if not isinstance(obj, dict):
                raise LogError(f"{path}:{no}: each line of a log is a JSON object")
            if first:
                parse_header(path, obj)
                first = False
            elif "ask" in obj:
                _decision(path, no, obj)
            yield no, obj
    except ValueError as err:
        raise LogError(str(err)) from None
    if first:
        raise LogError(f"{path} is empty (or its first line is), not an sgsdsl log")


def parse_header(path: Path, h: dict[str, Any]) -> LogHeader:
    version = h.get("sgsdsl_log")
    if type(version) is not int:
        raise LogError(f"{path}:1: the first line is not an sgsdsl log header")
    if version != LOG_VERSION:
        raise LogError(f"{path}:1: log format {version} is not supported (this sgsdsl reads format {LOG_VERSION}; "
                       "older logs do not record the digest of their rules: record the game again)")

    def field(name: str, ok: Any, what: str) -> Any:
        value = h.get(name)
        if not ok(value):
            raise LogError(f"{path}:1: header field {name!r} must be {what}, not {_short(value)}")
        return value

    rules = field("rules", lambda v: isinstance(v, list) and all(isinstance(x, str) and x and "\0" not in x
                                                                     for x in v), "a list of file names")
    names = field("rule_names", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
                  "a list of bundled rule set names")
    mode = field("mode", lambda v: isinstance(v, str) and v, "a mode name")
    players = field("players", lambda v: type(v) is int and 2 <= v <= 12, "an integer from 2 to 12")
    seed = field("seed", lambda v: type(v) is int and -_SEED_LIMIT < v < _SEED_LIMIT, "an integer")
    options = field("options", lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and type(x) in (bool, int, str) for k, x in v.items()), "an object of option values")
    round_cap = field("round_cap", lambda v: type(v) is int and 1 <= v <= 10_000, "an integer from 1 to 10000")
    digest = field("rules_digest", lambda v: isinstance(v, str) and _DIGEST.fullmatch(v), "sha256:<64 hex digits>")
    pinned = field("pinned", lambda v: v is None or isinstance(v, dict) and all(
        isinstance(k, str) and k.isascii() and k.isdigit() and len(k) < 3 and isinstance(x, str)
        for k, x in v.items()), "an object of seat numbers and generals")
    pool = field("pool", lambda v: v is None or isinstance(v, list) and all(isinstance(x, str) for x in v),
                 "a list of generals")
    abandoned = field("abandoned", lambda v: v is None or isinstance(v, str) and 0 < len(v) <= 200,
                      "the reason the game was abandoned")
    return LogHeader(rules, names, mode, players, seed, options, round_cap, digest,
                     {int(k): x for k, x in (pinned or {}).items()}, pool, abandoned)


def _decision(path: Path, no: int, e: dict[str, Any]) -> None:
    checks = (("ask", lambda v: type(v) is int and 0 <= v < 12, "a seat number"),
              ("kind", lambda v: isinstance(v, str), "a word"),
              ("options", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of labels"),
              ("answer", lambda v: isinstance(v, list) and all(type(x) is int for x in v), "a list of option numbers"),
              ("hash", lambda v: isinstance(v, str), "a state hash"))
    for name, ok, what in checks:
        if not ok(e.get(name)):
            raise LogError(f"{path}:{no}: decision field {name!r} must be {what}, not {_short(e.get(name))}")
    wrong = [i for i in e["answer"] if not 0 <= i < len(e["options"])]
    if wrong:  # a tampered log: an answer that was never offered
        raise LogError(f"{path}:{no}: the answer names option {wrong[0]}, but the decision offered "
                       f"{len(e['options'])} option(s) (0 to {len(e['options']) - 1})")


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if value is not None else "missing"
    return text if len(text) <= 40 else text[:40] + "…"


# ------------------------------------------------------------------ replaying


class ReplayDiverged(GameAborted):
    """Raised by the replaying agent (from inside the game, which lets only its control flow through) when the
    replay stops: ERROR is what to report, a ReplayMismatch or a LogError of a line read on the way."""

    def __init__(self, error: ReplayMismatch):
        super().__init__(str(error))
        self.error = error


class CheckingReplayAgent(Agent):
    """Answers with the recorded answers, read from the log as the game asks for them. At each decision it first
    checks that the game asks what the log says it asked, in the same state (hash), so a divergence is reported at
    the decision where it happens; then that every event the game logged since the previous decision is the
    log's. Only the entries between two decisions are held: unless KEEP_LOG, the game's own log is emptied as it
    is compared, so a replay's memory does not grow with the length of the log (what the studio keeps per frame,
    it keeps itself)."""

    name = "replay"

    def __init__(self, path: Path, keep_log: bool = False):
        self.path = path
        self.keep_log = keep_log
        self.entries = numbered_log(path)
        next(self.entries)  # the header: prepare_replay read it already
        self.pending: list[tuple[int, dict[str, Any]]] = []  # read from the log, not yet compared with the game's
        self.compared = 0  # entries of the game's log found equal to the log's so far
        self.seen = 0  # how much of game.log is compared (it is emptied as it goes unless keep_log)
        self.pos = 0  # decisions answered
        self.log_ended = False  # the log is read to its end (where the game asked one more: an abandoned game)
        self.want: dict[str, Any] = {}  # the last decision answered, as the log has it
        self.game: Game | None = None

    def decide(self, request: Request, view: Any) -> list[int]:
        try:
            return self._decide(request)
        except ReplayMismatch as err:  # (the game turns any other exception raised in a rule into a rule error)
            raise ReplayDiverged(err) from None

    def _decide(self, request: Request) -> list[int]:
        k = self.pos
        assert self.game is not None
        fresh = len(self.game.log) - self.seen  # the log has as many entries before this decision, or differs
        nxt = self._read_to_decision(fresh + 1)
        if nxt is None and self.log_ended:
            raise ReplayMismatch(f"decision {k + 1}: the replay asks seat {request.seat} ({request.kind}) but the "
                                 f"log ends after {k} decisions")
        if nxt is None:  # more events than the game's before its next decision: read no further
            raise ReplayMismatch(f"event {self.compared + fresh + 1} (log line {self.pending[fresh][0]}) differs "
                                 "from the log")
        want = nxt[1]
        head = f"decision {k + 1} (seat {want['ask']}, {want['kind']})"
        if (request.seat, request.kind, list(request.options)) != (want["ask"], want["kind"], want["options"]):
            raise ReplayMismatch(f"{head}: the replay asks seat {request.seat} ({request.kind}) with options "
                                 f"{list(request.options)[:6]}, the log {want['options'][:6]}")
        got = self.game.choices.state_hash()
        if got != want["hash"]:
            raise ReplayMismatch(f"{head}: recorded state hash {want['hash']}, replayed {got}")
        self.compare(upto=len(self.pending) - 1)  # the events before it (the decision itself: next time)
        self.pos += 1
        self.want = want
        return list(want["answer"])

    def _read_to_decision(self, limit: int) -> tuple[int, dict[str, Any]] | None:
        """Read the log on to its next decision, which ends `pending`; None if the log ends first (`log_ended`) or
        `pending` reaches LIMIT entries first (the game made fewer: a tampered log is not read on and held)."""
        while len(self.pending) < limit:
            item = next(self.entries, None)
            if item is None:
                self.log_ended = True
                return None
            self.pending.append(item)
            if "ask" in item[1]:
                return item
        return None

    def compare(self, upto: int) -> None:
        """Compare what the game logged since the last time with the first UPTO pending entries of the log (all of
        them must be matched); ReplayMismatch at the first entry that differs."""
        assert self.game is not None
        log = self.game.log
        fresh = log[self.seen:]
        for i in range(max(len(fresh), upto)):
            mine = _as_json(fresh[i]) if i < len(fresh) else None
            theirs = self.pending[i][1] if i < upto else None
            if mine != theirs:
                at = self.pending[i] if i < upto else self.pending[upto] if upto < len(self.pending) else None
                where = f" (log line {at[0]})" if at else " (after the log's last line)"
                raise ReplayMismatch(f"event {self.compared + i + 1}{where} differs from the log")
        self.compared += upto
        del self.pending[:upto]
        if self.keep_log:
            self.seen = len(log)
        else:  # nothing reads these back during a replay: the engine only appends to them
            log.clear()
            self.game.hashes.clear()
            self.game.answers.clear()

    def finish(self) -> None:
        """The game is over (or, in the log of an abandoned game, stopped where the log does): the rest of the log
        must be the events the game logged since the last decision, and no more decisions."""
        assert self.game is not None
        if not self.log_ended and self._read_to_decision(len(self.game.log) - self.seen + 1) is not None:
            more = 1 + sum(1 for _, e in self.entries if "ask" in e)  # (counted as read, not held)
            raise ReplayMismatch(f"the log has {self.pos + more} decisions, the replay made {self.pos}")
        self.compare(upto=len(self.pending))


def _as_json(entry: dict[str, Any]) -> Any:
    """An entry of the game's log as it reads back from a log file."""
    return json.loads(json.dumps(entry, ensure_ascii=False, sort_keys=True))


@dataclass
class ReplaySetup:
    """A log made ready to re-run: where it is, its header, and its rules' program (the digest checked) and
    options. Its entries stay in the file until the replay reads them."""

    path: Path
    header: LogHeader
    program: Any
    options: dict[str, Any]

    def game(self, agent: CheckingReplayAgent) -> Game:
        """The logged game, set up again with AGENT answering for every seat (and watching the state hash)."""
        h = self.header
        game = Game(self.program, h.mode, h.players, h.seed, [agent] * h.players, self.options,
                    round_cap=h.round_cap, record=True, pinned=h.pinned, pool=h.pool)
        agent.game = game
        return game


def prepare_replay(path: Path, engine: str) -> ReplaySetup:
    """Read the header of the log at PATH and load the rules it names; LogError / ReplayMismatch say what does not
    fit."""
    lines = iter_log(path)
    try:
        header = parse_header(path, next(lines))
    finally:
        lines.close()
    loaded = check_paths(_rule_files(path, header))
    if not loaded.ok:
        raise ReplayMismatch("the log's rules files no longer check cleanly (run `sgsdsl check` on them)")
    digest = rules_digest(loaded)
    if digest != header.rules_digest:
        raise ReplayMismatch(f"the log was made with other rules (digest {header.rules_digest[:19]}…, these rules "
                             f"{digest[:19]}…); a replay needs the rules it was recorded with")
    program = program_for(loaded, engine)
    try:
        options = check_setup(program, header.mode, header.players, header.options)
    except SetupError as err:
        raise LogError(f"{path}:1: {err}") from None
    unknown = [g for g in [*header.pinned.values(), *(header.pool or [])] if g not in program.generals]
    if unknown:
        raise LogError(f"{path}:1: the log names general {unknown[0]!r}, which its rules do not define")
    if any(seat >= header.players for seat in header.pinned):
        raise LogError(f"{path}:1: the log pins a general to a seat beyond its {header.players} players")
    return ReplaySetup(path, header, program, options)


def run_replay(setup: ReplaySetup, agent: CheckingReplayAgent) -> Game:
    """Re-play the logged answers through AGENT, reading the log as the game goes; ReplayMismatch (or LogError, for
    a line that is not a log's) at the first decision or event that differs. The log of an abandoned game (its
    header says `abandoned`) replays up to where it stops, and every event logged until then must match."""
    game = setup.game(agent)
    try:
        try:
            game.run()
        except ReplayDiverged as err:
            # an abandoned game's log ends at the decision it was left on: running out of answers there is its end
            if not (setup.header.abandoned and agent.log_ended):
                raise err.error from None
        except EngineError as err:
            raise ReplayMismatch(f"decision {agent.pos}: the replay failed: {one_line(err)}") from None
        agent.finish()
    finally:
        agent.entries.close()  # (the file, at once)
    return game


def replay_file(path: Path, engine: str) -> tuple[int, str]:
    """Replay the log at PATH, reading it entry by entry; the number of decisions verified and the state hash at
    the last one (what the studio's replay shows there). Raises LogError or ReplayMismatch."""
    setup = prepare_replay(path, engine)
    agent = CheckingReplayAgent(path)
    run_replay(setup, agent)
    return agent.pos, str(agent.want.get("hash", ""))


def _rule_files(path: Path, header: LogHeader) -> list[str]:
    """The header's rules: files relative to the log's folder, then bundled sets by name (standard if none)."""
    folder = path.resolve().parent
    files = [str(folder / r) for r in header.rules]
    for name in header.rule_names:
        found = bundled.rule_set(name)
        if found is None:
            raise LogError(f"{path}:1: no bundled rule set {name!r}; bundled: {', '.join(bundled.rule_set_names())}")
        files.append(str(found))
    missing = [f for f in files if not Path(f).is_file()]
    if missing:
        raise ReplayMismatch(f"the log's rules file {missing[0]} is missing")
    return files or [str(bundled.rules_dir() / "standard.sgs")]
