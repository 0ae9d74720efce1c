"""Long explanations of diagnostic codes (`sgsdsl explain CODE`), read from codes.md beside this module.

The titles stay in codes.py (one line each, used in every message); the explanations with their wrong and
right examples live in Markdown so they read well both in the terminal and in the repository.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .codes import CODES

_SECTION = re.compile(r"^## ((?:SGS|SCN)-[A-Z]\d+)\n(.*?)(?=^#{1,2} |\Z)", re.S | re.M)
_EXAMPLE = re.compile(r"^(wrong|right):\n```(\w+)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Explanation:
    code: str
    title: str
    meaning: str
    wrong: str
    right: str
    language: str  # "sgs" rules or "scenario" text the tests check; "sh": a command, for codes no text causes


@lru_cache(maxsize=1)
def explanations() -> dict[str, Explanation]:
    text = resources.files("sgsdsl.lang").joinpath("codes.md").read_text(encoding="utf-8")
    out: dict[str, Explanation] = {}
    for m in _SECTION.finditer(text):
        code, body = m.group(1), m.group(2)
        examples = {kind: (lang, src) for kind, lang, src in _EXAMPLE.findall(body)}
        if set(examples) != {"wrong", "right"}:
            continue
        meaning = body[: body.index("wrong:\n")].strip()
        lang = examples["wrong"][0]
        out[code] = Explanation(code, CODES.get(code, ""), meaning, examples["wrong"][1], examples["right"][1], lang)
    return out


def normalize(code: str) -> str:
    """Accept `E206`, `e206`, `206`, `SGS-E206` or `SCN-E113` (a bare code is the SGS one, or the only one)."""
    c = code.strip().upper()
    if c.startswith(("SGS-", "SCN-")):
        return c
    if c.isdigit():
        matches = [k for k in CODES if k[5:] == c]
        return matches[0] if len(matches) == 1 else f"SGS-E{c}" if f"SGS-E{c}" in CODES else f"SGS-{c}"
    if f"SGS-{c}" not in CODES and f"SCN-{c}" in CODES:
        return f"SCN-{c}"
    return f"SGS-{c}"


def render(e: Explanation) -> str:
    def block(src: str) -> str:
        return "\n".join("    " + line for line in src.rstrip("\n").split("\n"))

    return (f"{e.code}: {e.title}\n\n{e.meaning}\n\nWrong:\n{block(e.wrong)}\n\nRight:\n{block(e.right)}\n")
