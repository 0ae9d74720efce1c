"""Text from rules files and logs, made safe to print on a terminal.

A string literal in a `.sgs` file (a prompt, a `log()` line, a scenario title) or a field of a game log can hold
any character, including ESC: printed as it is, `\\x1b]52;…` writes the reader's clipboard, `\\x1b]0;…` retitles
the window and `\\x1b[2J` clears the screen. Every printer of such text goes through `shown`, which writes each
control character (C0 but newline and tab, DEL, C1, and the invisible format characters such as bidi overrides)
as a visible escape, the way diagnostics already showed source lines.
"""

from __future__ import annotations

import re


def _escape(ch: str) -> str:
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


# C0 but newline and tab, DEL, C1, and the invisible format characters a terminal or a bidi-aware viewer acts on
# (soft hyphen, Arabic letter mark, zero-width and direction marks and overrides, line and paragraph separators,
# word joiners and invisible operators, the byte order mark, interlinear annotations, surrogates, tag characters)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
                      "\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff\U000e0000-\U000e007f]")
_CONTROL_LINE = re.compile(_CONTROL.pattern[:-1] + "\n\t]")


def shown(text: object, newlines: bool = True) -> str:
    """TEXT (any value, as str) with every control or format character written as a visible escape. NEWLINES:
    keep line breaks (and tabs) as they are; False escapes them too (one line stays one line)."""
    s = str(text)
    pattern = _CONTROL if newlines else _CONTROL_LINE
    if pattern.search(s) is None:  # the common case, at C speed
        return s
    return pattern.sub(lambda m: _escape(m.group()), s)


_CARD_ID = re.compile(r"(?<=[0-9AJQK])#\d+")


def without_ids(text: str) -> str:
    """A card's label as people read it: no engine ids (`杀♠7#12` is 杀♠7), and a card made of no cards (one a
    skill provides: 护驾's 闪) by its name alone rather than with an empty `[]`. Logs and answers keep the ids."""
    return _CARD_ID.sub("", text).replace("[]", "")
