"""`sgsdsl fmt`: one canonical layout for .sgs files (see layout.py for the rules of the layout).

A formatted text is only ever returned after proving it parses to the same tree and the same AST as the
input, so a formatter bug can cost a refusal but never a silently changed rule.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from lark import Tree

from ..lang.diagnostics import Diagnostic, Span
from ..lang.parser import _parser, parse_text
from .layout import layout

__all__ = ["FormatResult", "format_text", "ast_shape"]


@dataclasses.dataclass
class FormatResult:
    text: str | None  # None when the input has syntax errors (or, defensively, formatting would change it)
    diagnostics: list[Diagnostic]


def ast_shape(node: Any) -> Any:
    """An AST with every source position removed, for comparing two parses of differently laid-out text."""
    if isinstance(node, Span):
        return None
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__,
                tuple((f.name, ast_shape(getattr(node, f.name))) for f in dataclasses.fields(node)
                      if f.name != "path"))
    if isinstance(node, list | tuple):
        return tuple(ast_shape(x) for x in node)
    if isinstance(node, dict):
        return tuple(sorted((k, ast_shape(v)) for k, v in node.items()))
    return node


def format_text(text: str, file: str = "<input>") -> FormatResult:
    """Format one file's text; syntax errors come back as the parser's diagnostics."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    module, diags = parse_text(text, file)
    if module is None:
        return FormatResult(None, diags)
    tree: Tree = _parser().parse(text)
    out = layout(text, tree)
    again, _ = parse_text(out, file)
    if again is None or ast_shape(again) != ast_shape(module) or _parser().parse(out) != tree:
        diag = Diagnostic("SGS-E000", "internal error in sgsdsl fmt: the layout would change the program; "
                          "the file was left as it is (please report it with the input)", Span.point(file, 1, 1))
        return FormatResult(None, [diag])
    return FormatResult(out, [])
