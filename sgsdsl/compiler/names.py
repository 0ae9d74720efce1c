"""Identifier safety for generated code.

Every name that reaches generated Python is derived here: user text becomes a stable ASCII name with a
fixed prefix (so it can never be a keyword, a builtin or one of the generator's own `_names`), and a
`Namespace` reports two different source names that would land on the same Python name.
"""

from __future__ import annotations

import hashlib
import keyword
import re

from ..lang.diagnostics import Diagnostic, Span

_SAFE = re.compile(r"[A-Za-z0-9_]")
MAX_NAME = 60  # longer mangled names are cut and completed with a hash of the full text


def mangle(text: str) -> str:
    """A stable ASCII rendering of `text`: [A-Za-z0-9_] kept, anything else as `_xHEX_`.

    Not injective on purpose-built inputs (a name literally spelled `_x4e00_` meets `一`); `Namespace`
    turns such a meeting into a diagnostic instead of silently merging two names.
    """
    out = "".join(ch if _SAFE.fullmatch(ch) else f"_x{ord(ch):x}_" for ch in text)
    if len(out) > MAX_NAME:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        out = out[:40] + "_h" + digest
    return out


def py_name(prefix: str, text: str) -> str:
    """`prefix` + mangled text; the prefix is a lowercase/capitalised word so the result is a valid name."""
    name = prefix + mangle(text)
    assert name.isidentifier() and name.isascii() and not keyword.iskeyword(name), name
    return name


def is_plain_attr(text: str) -> bool:
    """Whether `text` can be written as `obj.text` / `name=` in Python as is (ASCII, no keyword, no dunder)."""
    return (text.isascii() and text.isidentifier() and not keyword.iskeyword(text)
            and not text.startswith("_"))


class Namespace:
    """One Python namespace (module globals, a class body, a function's locals)."""

    def __init__(self, what: str):
        self.what = what
        self.owners: dict[str, tuple[str, Span | None]] = {}
        self.diagnostics: list[Diagnostic] = []
        self._reported: set[tuple[str, str]] = set()

    def claim(self, py: str, source: str, span: Span | None) -> str:
        prev = self.owners.get(py)
        if prev is None:
            self.owners[py] = (source, span)
        elif prev[0] != source and (py, source) not in self._reported:
            self._reported.add((py, source))
            here = span or prev[1] or Span.point("<compiler>", 1, 1)
            notes = (("the other name", prev[1]),) if prev[1] is not None else ()
            self.diagnostics.append(Diagnostic(
                "SGS-E501",
                f"{self.what} names '{_short(prev[0])}' and '{_short(source)}' both become the Python name "
                f"'{_short(py)}' in generated code",
                here, "error", "rename one of them", notes))
        return py


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "…"


def module_name(stem: str) -> str:
    """The Python module name for a rules file stem (`standard` -> `standard`)."""
    if stem.isascii() and stem.isidentifier() and not stem.startswith("_") and not keyword.iskeyword(stem):
        return stem
    return py_name("rules_", stem)
