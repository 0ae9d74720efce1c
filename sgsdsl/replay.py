"""Replay a logged game: same rules, seed and answers; every decision's state hash must match."""

from __future__ import annotations

import json
from pathlib import Path

from .api import check_paths, program_for
from .cli.loading import rule_paths
from .engine.agents import ReplayAgent
from .engine.errors import EngineError
from .engine.game import Game


class ReplayMismatch(Exception):
    pass


def read_log(path: Path) -> tuple[dict, list[dict]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        raise ReplayMismatch(f"{path} is empty")
    try:
        header = json.loads(lines[0])
        entries = [json.loads(x) for x in lines[1:] if x.strip()]
    except json.JSONDecodeError as err:
        raise ReplayMismatch(f"{path}:{err.lineno}: not a JSON line ({err.msg})") from None
    if not isinstance(header, dict) or header.get("sgsdsl_log") != 1:
        raise ReplayMismatch(f"{path}: the first line is not an sgsdsl log header")
    return header, entries


def replay_file(path: Path, engine: str) -> int:
    header, entries = read_log(path)
    try:
        players = int(header["players"])
        seed = int(header["seed"])
        mode = str(header["mode"])
        round_cap = int(header.get("round_cap", 60))
        pinned = {int(k): str(v) for k, v in (header.get("pinned") or {}).items()}
        pool = header.get("pool")
        asks = [e for e in entries if isinstance(e, dict) and "ask" in e]
        answers = [list(e["answer"]) for e in asks]
    except (KeyError, TypeError, ValueError) as err:
        raise ReplayMismatch(f"{path}: the log header or a decision is malformed ({err})") from None
    loaded = check_paths(rule_paths(header.get("rules", []), header.get("rule_names", "")))
    if not loaded.ok:
        raise ReplayMismatch("the log's rules no longer check cleanly")
    program = program_for(loaded, engine)
    agent = ReplayAgent(answers)
    game = Game(program, mode, players, seed, [agent] * players, header.get("options") or {},
                round_cap=round_cap, record=True, pinned=pinned, pool=pool)
    try:
        game.run()
    except EngineError as err:
        raise ReplayMismatch(f"decision {agent.pos}: {err}") from None
    replayed = [e for e in game.log if "ask" in e]
    for i, (want, got) in enumerate(zip(asks, replayed, strict=False)):
        if want["hash"] != got["hash"] or want["options"] != got["options"]:
            raise ReplayMismatch(f"decision {i + 1} (seat {want['ask']}, {want['kind']}): recorded hash "
                                 f"{want['hash']}, replayed {got['hash']}")
    if len(asks) != len(replayed):
        raise ReplayMismatch(f"the log has {len(asks)} decisions, the replay made {len(replayed)}")
    json_log = [json.loads(json.dumps(e, ensure_ascii=False, sort_keys=True)) for e in game.log]
    if json_log != entries:
        first = next(i for i, (a, b) in enumerate(zip(json_log, entries, strict=False)) if a != b) \
            if any(a != b for a, b in zip(json_log, entries, strict=False)) else min(len(json_log), len(entries))
        raise ReplayMismatch(f"event {first + 1} differs from the log")
    return len(asks)
