"""How an error that stopped a game is shown: the `.sgs` place of the rule that raised it, the source line with
a caret under it (as `check` shows a diagnostic), and the game that hit it (seed, decision number).

Both engines record the place as `file.sgs:line:col` (the interpreter from the AST, compiled code from its
source-map comments, read only once an error is raised) and `Game.run` records the game; this module only
formats. One line (`one_line`) goes into records and JSON; `describe` adds the excerpt for a person.
"""

from __future__ import annotations

import re
from pathlib import Path

from .bundled import rules_dir
from .engine.errors import game_of, where_of
from .lang.diagnostics import Span, excerpt

# `file.sgs:line:col: ` at the start of a message (runtime helpers name their own, more precise place)
_LEADING = re.compile(r"^(?P<file>[^\n]+?\.sgs):(?P<line>\d+):(?P<col>\d+): ")
# the first `file.sgs:line:col` anywhere in a one-line report
_ANYWHERE = re.compile(r"(?P<file>[^\s:(\[]+\.sgs):(?P<line>\d+):(?P<col>\d+)")
_WORD = re.compile(r"\w+")


def one_line(err: BaseException) -> str:
    """`file.sgs:line:col: rule error: message (game seed S, after D decisions)`; without a place or a game
    where none is known."""
    message = str(err)
    m = _LEADING.match(message)
    where = None
    if m:
        where, message = f"{m['file']}:{m['line']}:{m['col']}", message[m.end():]
    else:
        where = where_of(err)
    game = game_of(err)
    suffix = f" (game seed {game[0]}, after {game[1]} decision{'' if game[1] == 1 else 's'})" if game else ""
    return f"{where}: rule error: {message}{suffix}" if where else f"{message}{suffix}"


def describe(err: BaseException, sources: dict[str, str] | None = None) -> str:
    """The error for a person: its one line, then the rule's source line with a caret under the place."""
    return describe_text(one_line(err), sources)


def describe_text(text: str, sources: dict[str, str] | None = None) -> str:
    """A one-line report (from `one_line`, perhaps stored in a game record) with the excerpt of the first
    `.sgs` place it names added under it; unchanged when it names none or the file cannot be read."""
    m = _ANYWHERE.search(text)
    if not m:
        return text
    file, line, col = m["file"], int(m["line"]), int(m["col"])
    source = (sources or {}).get(file)
    if source is None:
        source = _read(file)
    if source is None:
        return text
    lines = source.split("\n")
    width = 1
    if 1 <= line <= len(lines):
        word = _WORD.match(lines[line - 1], col - 1)
        width = len(word.group()) if word else 1
    return "\n".join([text, *excerpt(Span(file, line, col, line, col + width), {file: source})])


def _read(file: str) -> str | None:
    """The text of a rules file named as the engine names it: relative to here, or a bundled `rules/…` path."""
    for path in (Path(file), rules_dir().parent / file):
        try:
            if path.is_file():
                return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    return None
