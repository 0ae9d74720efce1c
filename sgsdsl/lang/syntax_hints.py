"""Syntax errors at their cause. The parser notices a missing `}` only where the text stops making sense (often
at the next `skill`, or at the end of the file), far from the `{` that was never closed; this module finds that
opener from the file's brackets and indentation, so the diagnostic can point at it.

A closing bracket that starts its line closes the innermost open bracket of its kind whose line is indented as
much as it is; the openers it passes over are the unclosed ones. Only consulted once parsing has failed.
"""

from __future__ import annotations

from dataclasses import dataclass

_PAIRS = {")": "(", "]": "[", "}": "{"}


@dataclass(frozen=True)
class Opener:
    char: str
    line: int
    col: int
    indent: int  # the indentation of the opener's line
    head: str  # the start of the opener's line, for the message ("if count(hand(owner)) > 2")


def unclosed_opener(text: str, stop_line: int | None = None, stop_col: int = 1) -> Opener | None:
    """The bracket that was opened and never closed, reading `text` up to (stop_line, stop_col) (the whole text
    when stop_line is None): the first one a closer's indentation passed over, else (at the end of the text) the
    innermost one still open. None when the brackets read balance."""
    stack: list[Opener] = []
    skipped: list[Opener] = []
    lines = text.split("\n")
    for ln, line in enumerate(lines, start=1):
        if stop_line is not None and ln > stop_line:
            break
        indent = len(line) - len(line.lstrip(" \t"))
        first = indent  # index of the first non-blank character
        in_string = False
        for i, ch in enumerate(line):
            if stop_line is not None and ln == stop_line and i + 1 >= stop_col:
                break
            if in_string:
                in_string = ch != '"' or line[i - 1] == "\\"
                continue
            if ch == '"':
                in_string = True
            elif ch == "#":
                break
            elif ch in "([{":
                stack.append(Opener(ch, ln, i + 1, indent, line.strip()[:60]))
            elif ch in _PAIRS:
                at = _match(stack, _PAIRS[ch], indent if i == first else None)
                if at is None:
                    continue  # a stray closer: the parser says so itself
                skipped.extend(stack[at + 1:])
                del stack[at:]
    if skipped:
        return skipped[0]
    if stop_line is None and stack:
        return stack[-1]
    return None


def _match(stack: list[Opener], kind: str, indent: int | None) -> int | None:
    """Index of the opener a closer closes: of its kind, and (for a closer that starts its line) the innermost
    one whose line is indented like the closer's, else the innermost of its kind."""
    same_kind = [i for i in range(len(stack) - 1, -1, -1) if stack[i].char == kind]
    if not same_kind:
        return None
    if indent is not None:
        for i in same_kind:
            if stack[i].indent == indent:
                return i
    return same_kind[0]


def keyword_hint(word: str, keywords: list[str]) -> str | None:
    """'did you mean …?' for a misspelt keyword (`optinal` where `optional` may stand); None when none is close."""
    from .diagnostics import did_you_mean

    best = did_you_mean(word, keywords) if word.isascii() and word.isidentifier() else None
    return f"did you mean '{best}'?" if best and best != word else None


# Words from other languages a newcomer writes first, and the language's own (`len` → count): the checker and the
# parser suggest these before any spelling match ("did you mean 'red'?" for `True` helps nobody).
FAMILIAR = {"True": "true", "False": "false", "null": "none", "None": "none", "nil": "none", "len": "count",
            "length": "count", "size": "count", "print": "log", "elif": "else if", "elsif": "else if",
            "this": "owner", "me": "owner", "random": "random_pick"}
# characters other languages use for what this one spells as words or otherwise
CHAR_HINTS = {"&": "write `and` (the operators are words: and, or, not)", "|": "write `or` (the operators are words: "
              "and, or, not)", "!": "write `not` for negation (`!=` is 'not equal')",
              "'": 'strings are written in double quotes: "text"'}


def familiar(word: str) -> str | None:
    """'write `count` here' for a word another language uses; None for any other word."""
    mine = FAMILIAR.get(word)
    return f"this language writes `{mine}`" if mine else None
