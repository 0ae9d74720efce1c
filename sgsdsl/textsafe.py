"""Text from rules files and logs, made safe to print on a terminal.

A string literal in a `.sgs` file (a prompt, a `log()` line, a scenario title) or a field of a game log can hold
any character, including ESC: printed as it is, `\\x1b]52;…` writes the reader's clipboard, `\\x1b]0;…` retitles
the window and `\\x1b[2J` clears the screen. Every printer of such text goes through `shown`, which writes each
control character (C0 but newline and tab, DEL, C1, and the invisible format characters such as bidi overrides)
as a visible escape, the way diagnostics already showed source lines.
"""

from __future__ import annotations

import unicodedata


def _escape(ch: str) -> str:
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def shown(text: object, newlines: bool = True) -> str:
    """TEXT (any value, as str) with every control or format character written as a visible escape. NEWLINES:
    keep line breaks (and tabs) as they are; False escapes them too (one line stays one line)."""
    s = str(text)
    if s.isprintable():  # the common case, checked at C speed
        return s
    keep = "\n\t" if newlines else ""
    return "".join(ch if ch.isprintable() or ch in keep or unicodedata.category(ch) == "Zs" else _escape(ch)
                   for ch in s)
