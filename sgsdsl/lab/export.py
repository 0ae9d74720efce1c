"""Exports: one row per game (CSV, Parquet) and the run's settings, versions, rules digest and figures (JSON).

Every file is written whole or not at all (a temporary file renamed into place)."""

from __future__ import annotations

import csv
import io
import platform
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from ..compiler.cache import write_atomic
from ..files import WriteRefused, write_bytes_atomic
from ..install_hint import install_extra
from .records import GameRecord


class ExportError(RuntimeError):
    """An export cannot be written (a missing optional library, an unwritable path)."""


def rows(records: Sequence[GameRecord], variant: str = "") -> tuple[list[str], list[list[Any]]]:
    """The game table: fixed columns, then per seat general/role/kingdom/agent, then one count column per skill."""
    seats = max((len(r.roles) for r in records), default=0)
    skills = sorted({s for r in records for s in r.skills})
    head = (["variant"] if variant else []) + ["seed", "reason", "winners", "winner_seats", "rounds", "turns",
                                               "decisions"]
    for i in range(seats):
        head += [f"p{i}_general", f"p{i}_role", f"p{i}_kingdom", f"p{i}_agent"]
    head += [f"skill_{s}" for s in skills] + ["error"]
    body: list[list[Any]] = []
    for r in records:
        row: list[Any] = ([variant] if variant else []) + [
            r.seed, r.reason, "+".join(r.winners), " ".join(map(str, r.winner_seats)), r.rounds, r.turns,
            r.decisions]
        for i in range(seats):
            agent = r.agents[i] if i < len(r.agents) else ""
            row += [r.generals[i], r.roles[i], r.kingdoms[i], agent] if i < len(r.roles) else ["", "", "", ""]
        row += [r.skills.get(s, 0) for s in skills] + [r.error]
        body.append(row)
    return head, body


def write_csv(path: Path, tables: Sequence[tuple[str, Sequence[GameRecord]]]) -> None:
    """One CSV; with two variants (compare) a `variant` column tells them apart."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    header_done = False
    for label, records in tables:
        head, body = rows(records, label)
        if not header_done:
            w.writerow(head)
            header_done = True
        w.writerows(body)
    _write_text(path, buf.getvalue())


def write_parquet(path: Path, tables: Sequence[tuple[str, Sequence[GameRecord]]]) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as err:
        raise ExportError(f"--parquet needs pyarrow: {install_extra('parquet')}") from err
    frames = []
    for label, records in tables:
        head, body = rows(records, label)
        frames.append(pa.table({h: [row[i] for row in body] for i, h in enumerate(head)}))
    table = pa.concat_tables(frames, promote_options="default") if len(frames) > 1 else frames[0]
    buf = pa.BufferOutputStream()
    pq.write_table(table, buf)
    try:
        write_bytes_atomic(path, buf.getvalue().to_pybytes())
    except WriteRefused as err:
        raise ExportError(str(err)) from None


def versions() -> dict[str, str]:
    """What produced the figures: sgsdsl, Python and the platform."""
    try:
        own = metadata.version("sgsdsl")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
        own = "unknown"
    from ..compiler import GENERATOR_VERSION

    return {"sgsdsl": own, "generator": str(GENERATOR_VERSION), "python": platform.python_version(),
            "platform": platform.platform(terse=True)}


def _write_text(path: Path, text: str) -> None:
    try:
        write_atomic(path, text)
    except WriteRefused as err:
        raise ExportError(str(err)) from None
    except OSError as err:
        raise ExportError(f"cannot write {path}: {err.strerror or err}") from err
