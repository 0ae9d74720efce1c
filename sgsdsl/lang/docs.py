"""What rules files say about themselves for people: the comment above a definition (its printed text, by the
rules files' habit), a card's faces, the source text of a span. Shared by the language server's hover and the
HTML catalogue, so both show the same words."""

from __future__ import annotations

from . import ast
from .diagnostics import Span

_RULE_CHARS = set("═─=-— ")


def comment_above(source: str, line: int) -> str:
    """The comment lines right above a 1-based line (ruler lines such as `# ════ cards` end the block)."""
    lines = source.split("\n")
    out: list[str] = []
    i = line - 2
    while i >= 0 and lines[i].strip().startswith(("#", "//")):
        text = lines[i].strip().lstrip("#/").strip()
        if text[:4] and set(text[:4]) <= _RULE_CHARS:
            break
        out.insert(0, text)
        i -= 1
    return "\n".join(out)


def faces(card: ast.CardDef) -> str:
    ranks = {1: "A", 11: "J", 12: "Q", 13: "K"}
    return " ".join(f.suit + ranks.get(f.rank, str(f.rank)) for f in card.copies)


def span_text(source: str, span: Span) -> str:
    """The source text a span covers (end column exclusive)."""
    lines = source.split("\n")
    if not 1 <= span.line <= len(lines):
        return ""
    if span.line == span.end_line:
        return lines[span.line - 1][span.col - 1 : span.end_col - 1]
    parts = [lines[span.line - 1][span.col - 1 :], *lines[span.line : span.end_line - 1],
             lines[span.end_line - 1][: span.end_col - 1] if span.end_line <= len(lines) else ""]
    return " ".join(p.strip() for p in parts)
