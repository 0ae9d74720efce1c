"""Diagnostics: every finding the front end reports, with a stable code and a source span.

Kept separate from the parser and checker so that every stage (and the CLI) reports the same way.
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..textsafe import shown


@dataclass(frozen=True, order=True)
class Span:
    """A region of a source file; lines and columns are 1-based, `end_col` is exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    @staticmethod
    def point(file: str, line: int, col: int) -> Span:
        return Span(file, line, col, line, col + 1)


@dataclass(frozen=True)
class Diagnostic:
    """One finding. `code` is stable across releases (SGS-E1xx syntax, E2xx names, E3xx types...)."""

    code: str
    message: str
    span: Span
    severity: str = "error"
    suggestion: str | None = None
    notes: tuple[tuple[str, Span], ...] = field(default=())

    @property
    def sort_key(self) -> tuple:
        return (self.span.file, self.span.line, self.span.col, self.code, self.message)


class DiagnosticError(Exception):
    """Raised to abort a stage with diagnostics already collected."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


# Names compared for "did you mean" hints in one check (reset by `reset_suggestions`, which each check and parse
# calls): each hint compares the unknown name with every known one, so a file with thousands of unknown names
# among thousands of known ones would take quadratic time. Past this much work, no more hints: near-linear.
SUGGESTION_WORK = 1_000_000
_suggestion_work = [0]


def reset_suggestions() -> None:
    _suggestion_work[0] = 0


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The closest known name, for "did you mean …" hints; None when nothing is close (or the check has spent
    its SUGGESTION_WORK)."""
    if _suggestion_work[0] > SUGGESTION_WORK:
        return None
    pool = sorted(set(candidates))
    _suggestion_work[0] += len(pool)
    if not pool:
        return None
    matches = difflib.get_close_matches(name, pool, n=1, cutoff=0.5)
    if matches:
        return matches[0]
    # Short Chinese names: a one-character difference falls below difflib's ratio.
    for cand in pool:
        if len(cand) == len(name) and 2 <= len(name) <= 4 and sum(a != b for a, b in zip(cand, name, strict=True)) == 1:
            return cand
        if name in cand or cand in name:
            if abs(len(cand) - len(name)) <= 2:
                return cand
    return None


def render_text(diags: Iterable[Diagnostic], sources: dict[str, str]) -> str:
    """Human form: `file:line:col: error[CODE]: message`, the source line, and a caret under the span."""
    out: list[str] = []
    lines: dict[str, list[str]] = {}  # each file split once, not once per diagnostic (thousands of them)
    for d in sorted(diags, key=lambda d: d.sort_key):
        s = d.span
        out.append(f"{s.file}:{s.line}:{s.col}: {d.severity}[{d.code}]: {d.message}")
        if s.file not in lines and s.file in sources:
            lines[s.file] = sources[s.file].split("\n")
        out.extend(_excerpt(s, lines))
        if d.suggestion:
            out.append(f"  = help: {d.suggestion}")
        for note, nspan in d.notes:
            out.append(f"  = note: {note} at {nspan.file}:{nspan.line}:{nspan.col}")
    return shown("\n".join(out))  # messages may quote a string literal: never terminal controls


def excerpt(s: Span, sources: dict[str, str]) -> list[str]:
    """The source line and a caret line under the span, from the text of its file (run-time rule errors)."""
    text = sources.get(s.file)
    return [] if text is None else _excerpt(s, {s.file: text.split("\n")})


def _excerpt(s: Span, files: dict[str, list[str]]) -> list[str]:
    """The source line and a caret line under the span, both measured in terminal columns (CJK = 2)."""
    lines = files.get(s.file)
    if lines is None:
        return []
    if not 1 <= s.line <= len(lines):
        return []
    src = _printable(lines[s.line - 1])
    col = min(max(s.col, 1), len(src) + 1)
    end = s.end_col if s.end_line == s.line else len(src) + 1
    end = min(max(end, col + 1), len(src) + 2)
    if len(src) > 200:  # keep giant lines readable: a window around the column
        start = max(0, col - 80)
        src = src[start : start + 160]
        col -= start
        end = min(end - start, len(src) + 2)
    pad = _display_width(src[: col - 1])
    width = max(1, _display_width(src[col - 1 : end - 1]))
    gutter = f"{s.line:>5} | "
    return [(gutter + src).rstrip(), " " * 5 + " | " + " " * pad + "^" * min(width, 120)]


def _printable(line: str) -> str:
    """One display cell per non-printable character, so garbage input cannot break the caret alignment."""
    return "".join(ch if ch.isprintable() else " " for ch in line)


def _display_width(text: str) -> int:
    """Terminal columns: wide (CJK, full-width) characters take two, combining marks none."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def render_json(diags: Iterable[Diagnostic]) -> str:
    """Machine form for CI: one JSON document with a list of findings."""
    items = [
        {
            "code": d.code,
            "severity": d.severity,
            "message": d.message,
            "file": d.span.file,
            "line": d.span.line,
            "col": d.span.col,
            "end_line": d.span.end_line,
            "end_col": d.span.end_col,
            "suggestion": d.suggestion,
            "notes": [
                {"message": note, "file": ns.file, "line": ns.line, "col": ns.col} for note, ns in d.notes
            ],
        }
        for d in sorted(diags, key=lambda d: d.sort_key)
    ]
    return json.dumps({"diagnostics": items}, ensure_ascii=False, indent=2)
