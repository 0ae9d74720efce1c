"""The layout engine of `sgsdsl fmt`: a canonical text from the Lark parse tree and the comments between tokens.

It knows the grammar only through generic shapes, so new rules and keywords format without changes here:
- a tree that is a child of the file, or a direct child between a `{` and `}` of its parent, is an *item*
  (a definition, member or statement): it starts on its own line, indented two spaces per enclosing group;
- a group with two or more items is laid out one item per line; a group with one item stays on one line when
  the author wrote it so (`effect { recover(target, 1) }`); a group of bare tokens (`roles 4 { lord rebel }`)
  and an empty group stay inline;
- inside an item, spaces follow token kinds (none inside brackets, before `,` or after a unary sign, around
  `.` and `..`, between a name and its `(`; one elsewhere), and the author's line breaks are kept as
  continuation lines indented four spaces (plus two per open bracket), as gofmt keeps them;
- comments stay where they were: at the end of a line, or on their own line at the indent of what follows;
  blank lines between items are kept (at most one), never at the start or end of a group.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TypeGuard

from lark import Token, Tree

INDENT = "  "
CONTINUATION = "    "
_COMMENT = re.compile(r"(#|//)[^\n]*")
_OPEN = ("LPAR", "LSQB")
_CLOSE = ("RPAR", "RSQB")


@dataclass
class _Group:
    """A brace pair that is a direct child of one tree node."""

    depth: int  # indent level of the item owning the braces
    items: int = 0
    lbrace: Token | None = None
    rbrace: Token | None = None
    expanded: bool = False


@dataclass
class _Leaf:
    tok: Token
    parent: Tree
    index: int  # position among parent's children
    depth: int  # indent level of the item holding this token
    item: bool = False  # the first token of an item
    group: _Group | None = None  # for braces
    within: _Group | None = None  # for the first token of an item: the group holding it (None: the file)


@dataclass
class _Comment:
    text: str
    newlines_before: int  # newlines between the previous token (or comment) and this comment
    trailing: bool  # on the same line as the token before it


@dataclass
class _Out:
    lines: list[str] = field(default_factory=list)
    cur: str | None = None  # the line being built (None: nothing started)

    def newline(self, indent: str, blank: bool = False) -> None:
        if self.cur is not None:
            self.lines.append(self.cur.rstrip())
        if blank and self.lines:
            self.lines.append("")
        self.cur = indent

    def add(self, text: str, sep: str = "") -> None:
        if self.cur is None:
            self.cur = text
        elif self.cur.strip():
            self.cur += sep + text
        else:
            self.cur += text

    def text(self) -> str:
        if self.cur is not None:
            self.lines.append(self.cur.rstrip())
        while self.lines and not self.lines[-1]:
            self.lines.pop()
        return "\n".join(self.lines) + "\n" if self.lines else ""


def _is(node: object, kind: str) -> TypeGuard[Token]:
    return isinstance(node, Token) and node.type == kind


def flatten(tree: Tree) -> list[_Leaf]:
    """Every token of the tree in order, annotated with its item depth, item starts and brace groups."""
    out: list[_Leaf] = []

    def walk(node: Tree, depth: int, pending: bool, root: bool, within: _Group | None = None) -> None:
        kids = node.children
        group: _Group | None = None
        inline_tokens = False
        for i, child in enumerate(kids):
            if _is(child, "LBRACE"):
                group = _Group(depth, lbrace=child)
                close = next((j for j in range(i + 1, len(kids)) if _is(kids[j], "RBRACE")), len(kids))
                inline_tokens = any(_is(kids[j], "COMMA") for j in range(i + 1, close))
                out.append(_Leaf(child, node, i, depth, pending, group, within if pending else None))
                pending = False
            elif _is(child, "RBRACE") and group is not None:
                group.rbrace = child
                out.append(_Leaf(child, node, i, depth, False, group))
                group = None
            elif isinstance(child, Tree):
                if root:
                    walk(child, 0, True, False)
                elif group is not None and not inline_tokens:
                    group.items += 1
                    walk(child, depth + 1, True, False, group)
                else:
                    walk(child, depth, pending, False, within)
                    pending = False
            else:
                out.append(_Leaf(child, node, i, depth, pending, None, within if pending else None))
                pending = False

    walk(tree, 0, False, True)
    for leaf in out:
        g = leaf.group
        if g is not None and leaf.tok is g.lbrace:
            same_line = g.rbrace is not None and g.lbrace.line == g.rbrace.line
            g.expanded = g.items >= 2 or (g.items == 1 and not same_line)
    return out


def _comments(gap: str, after_token: bool) -> list[_Comment]:
    found: list[_Comment] = []
    pos = 0
    for m in _COMMENT.finditer(gap):
        nl = gap.count("\n", pos, m.start())
        found.append(_Comment(m.group(0).rstrip(), nl, after_token and not found and nl == 0))
        pos = m.end()
    return found


def _space(prev: _Leaf, cur: _Leaf) -> str:
    """The separator between two tokens on one line, from their kinds alone."""
    p, c = prev.tok.type, cur.tok.type
    if p in ("LPAR", "LSQB", "DOT", "DOTDOT") or c in ("RPAR", "RSQB", "COMMA", "DOT", "DOTDOT"):
        return ""
    if c == "COLON":
        return " " if any(_is(k, "LBRACE") for k in cur.parent.children) else ""
    if c == "LPAR" and p == "IDENT":
        return ""
    if p == "ADD_OP" and prev.index == 0 and len(prev.parent.children) > 1:
        return ""  # a sign: -1
    if prev.group is not None and prev.group is cur.group and not prev.group.expanded:
        return ""  # {}
    return " "


def layout(text: str, tree: Tree) -> str:
    """The canonical text of a parsed file (`text` is the source `tree` was parsed from)."""
    leaves = flatten(tree)
    out = _Out()
    parens = 0
    prev: _Leaf | None = None
    prev_end = 0
    for leaf in leaves:
        gap = text[prev_end : leaf.tok.start_pos]
        comments = _comments(gap, prev is not None)
        g = leaf.group
        closes_expanded = g is not None and leaf.tok is g.rbrace and g.expanded
        after_open = prev is not None and prev.group is not None and prev.tok is prev.group.lbrace
        if leaf.item and (leaf.within is None or leaf.within.expanded):
            kind, indent = "item", INDENT * leaf.depth
        elif closes_expanded:
            kind, indent = "close", INDENT * leaf.depth
        elif leaf.tok.type == "LBRACE" or (prev is not None and prev.tok.type == "RBRACE"):
            kind, indent = "join", ""
        elif prev is not None and "\n" in gap:
            kind, indent = "cont", ""
        else:
            kind, indent = "join", ""
        if kind in ("cont", "join"):
            opening = 1 if leaf.tok.type in _CLOSE else 0
            indent = INDENT * leaf.depth + CONTINUATION + INDENT * max(0, parens - opening)
        comment_indent = INDENT * (leaf.depth + 1) if closes_expanded else indent
        for c in comments:
            if c.trailing:
                out.add(c.text, "  ")
            else:
                out.newline(comment_indent, blank=c.newlines_before >= 2 and not after_open)
                out.add(c.text)
            after_open = False
        if comments:
            last = list(_COMMENT.finditer(gap))[-1]
            tail_newlines = gap.count("\n", last.end())
            if kind == "join":
                kind = "cont"
        else:
            tail_newlines = gap.count("\n")
        if prev is None:
            if comments:
                out.newline(indent, blank=tail_newlines >= 2)
            out.add(leaf.tok.value)
        elif kind == "item":
            out.newline(indent, blank=tail_newlines >= 2 and not after_open)
            out.add(leaf.tok.value)
        elif kind in ("close", "cont"):
            out.newline(indent)
            out.add(leaf.tok.value)
        else:
            out.add(leaf.tok.value, _space(prev, leaf))
        if leaf.tok.type in _OPEN:
            parens += 1
        elif leaf.tok.type in _CLOSE:
            parens = max(0, parens - 1)
        prev, prev_end = leaf, leaf.tok.end_pos or 0  # (our tokens always carry positions)
    for c in _comments(text[prev_end:], prev is not None):
        if c.trailing:
            out.add(c.text, "  ")
        else:
            out.newline("", blank=c.newlines_before >= 2 and prev is not None)
            out.add(c.text)
    return out.text()
