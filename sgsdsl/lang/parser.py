"""Parse .sgs text into the typed AST; syntax problems become located diagnostics, never tracebacks."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..engine.runtime import INT_MAX as MAX_INT  # the language's numbers: -MAX_INT..MAX_INT (docs/language.md)
from . import ast, cancel
from .diagnostics import Diagnostic, Span
from .syntax_hints import CHAR_HINTS, Opener, familiar, keyword_hint, unclosed_opener

MAX_NESTING = 120  # brackets
MAX_TREE_DEPTH = 300  # parse-tree levels
MAX_SYNTAX_ERRORS = 25
RECOVERY_BUDGET_CHARS = 1_500_000  # recovery re-parses the file; cap the total work (~10 s worst case)
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return resources.files("sgsdsl.lang").joinpath("sgs.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser. Building its tables takes about 0.3 s, so a fresh process loads them from Lark's own
    cache, a private file in the user cache folder, or from the copy the package was installed with (`parse_cache`)."""
    from .parse_cache import LARK_OPTIONS, cached_lark

    return cached_lark(grammar_text(), **LARK_OPTIONS)


@lru_cache(maxsize=1)
def terminal_descriptions() -> dict[str, str]:
    """Human words for terminal names, so messages never show grammar internals (or regex syntax)."""
    words = {
        "IDENT": "a name",
        "INT": "a number",
        "STRING": "a string",
        "FACE": "a card face such as ♠7",
        "SUIT": "a suit",
        "COMMENT": "a comment",
        "WS": "a space",
        "$END": "end of file",
    }
    literals = _literal_alternatives()
    for term in _parser().terminals:
        if term.name in words:
            continue
        if term.pattern.type == "str":
            words[term.name] = f"'{term.pattern.value}'"
        elif term.name in literals:
            words[term.name] = " or ".join(f"'{a}'" for a in literals[term.name])
        else:
            words[term.name] = term.name.lower()
    return words


def _literal_alternatives() -> dict[str, list[str]]:
    """Terminals written as `NAME: "a" | "b"` in the grammar: their literal spellings."""
    out: dict[str, list[str]] = {}
    for m in re.finditer(r"^([A-Z_]+):\s*((?:\"[^\"]*\"\s*\|?\s*)+)$", grammar_text(), re.M):
        out[m.group(1)] = re.findall(r'"([^"]*)"', m.group(2))
    return out


_FIRST = ("RBRACE", "RPAR", "RSQB", "IDENT", "INT", "STRING", "FACE", "SUIT")


def _describe(names: set[str] | frozenset[str]) -> str:
    """The expected tokens, most useful first: closing brackets, then kinds of token, then keywords."""
    words = terminal_descriptions()
    ordered = [n for n in _FIRST if n in names] + sorted(n for n in names if n not in _FIRST)
    picked: list[str] = []
    for n in ordered:
        w = words.get(n, n.lower())
        if w not in picked:
            picked.append(w)
    if len(picked) > 8:
        picked = picked[:8] + ["…"]
    return ", ".join(picked)


def _span_of(file: str, meta_or_tok) -> Span:
    if isinstance(meta_or_tok, Token):
        t = meta_or_tok
        return Span(file, t.line or 1, t.column or 1, t.end_line or t.line or 1, t.end_column or (t.column or 1) + 1)
    m = meta_or_tok
    if getattr(m, "empty", True):
        return Span.point(file, 1, 1)
    return Span(file, m.line, m.column, m.end_line, m.end_column)


def _check_nesting(file: str, text: str) -> Diagnostic | None:
    """Reject absurd bracket nesting before Lark and the recursive transformer ever see it."""
    depth = 0
    line, col = 1, 0
    in_comment = in_string = False
    prev = ""
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, in_comment = line + 1, 0, False
            in_string = False
        elif in_comment:
            pass
        elif in_string:
            if ch == '"' and prev != "\\":
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "#" or (ch == "/" and prev == "/"):
            in_comment = True
        elif ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                return Diagnostic(
                    "SGS-E104",
                    f"nesting is deeper than {MAX_NESTING} levels",
                    Span.point(file, line, col),
                    suggestion="split the rule into smaller blocks or helper values",
                )
        elif ch in ")]}":
            depth = max(0, depth - 1)
        prev = ch
    return None


def _check_tree_depth(file: str, tree: Tree) -> Diagnostic | None:
    """Deep chains without brackets (`not not not …`, `else if` ladders) are measured on the tree,
    iteratively, so that no later recursive stage (transformer, checker, interpreter) can overflow."""
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            span = _span_of(file, node.meta)
            return Diagnostic(
                "SGS-E104",
                f"this expression or block nests more than {MAX_TREE_DEPTH} levels deep",
                Span.point(file, span.line, span.col),
                suggestion="split the rule into smaller blocks or helper values",
            )
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))
    return None


def _check_numbers(file: str, tree: Tree) -> Diagnostic | None:
    """Number literals outside the language's range, found before anything converts them (a literal of
    thousands of digits would otherwise cost time, or fail Python's int conversion limit)."""
    for tok in tree.scan_values(lambda t: isinstance(t, Token) and t.type == "INT"):
        if len(tok) > len(str(MAX_INT)) or int(tok) > MAX_INT:
            shown = tok if len(tok) <= 20 else f"{tok[:8]}…({len(tok)} digits)"
            return Diagnostic("SGS-E209", f"number {shown} is outside the language's range "
                              f"-{MAX_INT}..{MAX_INT}", Span.point(file, tok.line or 1, tok.column or 1),
                              suggestion="use `unlimited` for 'no limit'")
    return None


def parse_text(text: str, file: str) -> tuple[ast.Module | None, list[Diagnostic]]:
    """Parse one file's text. Returns the module (None on a syntax error) and its diagnostics.

    After a syntax error the parser resumes at the next top-level definition (a line that starts with
    `card`, `general`, `skill`, `mode`, `value`, `rule`, `copies` or `import` in column 1), so one run
    reports the syntax errors of several definitions. The module is None whenever there was any syntax
    error: checking a partial program would only add noise about names defined in the broken parts.
    """
    deep = _check_nesting(file, text)
    if deep:
        return None, [deep]
    diags: list[Diagnostic] = []
    work = text
    budget = RECOVERY_BUDGET_CHARS
    while True:
        budget -= len(work)
        try:
            tree = _parse_tree(work)
        except UnexpectedInput as err:
            d = _syntax_diagnostic(err, file, text)
            if diags and (d.span.line, d.span.col) <= (diags[-1].span.line, diags[-1].span.col):
                pass  # the same error again after blanking a smaller region: do not repeat it
            else:
                diags.append(d)
            if budget <= 0 or d.code == "SGS-E103" or len(diags) >= MAX_SYNTAX_ERRORS:
                return None, diags
            blanked = _blank_failed_definition(work, d.span.line, d.span.col)
            if blanked is None:
                return None, diags
            work = blanked
            continue
        except RecursionError:  # pragma: no cover - guarded by the nesting checks; kept as a last resort
            return None, diags + [_too_deep(file)]
        break
    if diags:
        return None, diags
    too_deep = _check_tree_depth(file, tree) or _check_numbers(file, tree)
    if too_deep:
        return None, [too_deep]
    try:
        module = _ToAst(file).transform(tree)
    except _AstError as err:
        return None, [err.diagnostic]
    except (RecursionError, VisitError) as err:
        if isinstance(err, VisitError) and not isinstance(err.orig_exc, RecursionError):
            raise
        return None, [_too_deep(file)]
    return module, []


def _parse_tree(text: str) -> Tree:
    """Lark's parse of TEXT; under a `cancel.cancellable` (the language server), token by token, so that a newer
    edit stops the parse of a large document midway (the same tree and the same errors either way)."""
    canceller = cancel.current()
    if canceller is None:
        return _parser().parse(text)
    steps = _parser().parse_interactive(text)
    token = None
    try:
        for token in steps.iter_parse():  # noqa: B007 - the last one places the end of the file
            canceller.tick()
        return steps.feed_eof(token)
    except UnexpectedInput as err:
        err.interactive_parser = steps  # (what `parse` gives its errors: the tokens the parser would accept)
        raise


def _too_deep(file: str) -> Diagnostic:
    return Diagnostic("SGS-E104", "the file nests too deeply to be processed", Span.point(file, 1, 1),
                      suggestion="split the rule into smaller blocks or helper values")


_TOP_LEVEL = re.compile(r"^(card|general|skill|mode|value|import|rule|copies)(?![\w])")


def _blank_failed_definition(text: str, line: int, col: int) -> str | None:
    """Recovery: blank (keep newlines, so positions stay) the top-level definition holding the error,
    up to the next top-level line. None when there is nothing left to skip."""
    lines = text.split("\n")
    tops = [i + 1 for i, ln in enumerate(lines) if _TOP_LEVEL.match(ln)]
    before = [t for t in tops if t < line or (t == line and col > 1)]
    start = before[-1] if before else 1
    after = [t for t in tops if t > start and (t > line or (t == line and col == 1))]
    if not after:
        return None
    stop = after[0]
    chunk = lines[start - 1 : stop - 1]
    if not any(ln.strip() for ln in chunk):
        return None
    blanked = ["".join("\n" if ch == "\n" else " " for ch in ln) for ln in chunk]
    return "\n".join(lines[: start - 1] + blanked + lines[stop - 1 :])


def _syntax_diagnostic(err: UnexpectedInput, file: str, text: str) -> Diagnostic:
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream if err.pos_in_stream is not None else -1
        ch = text[pos] if 0 <= pos < len(text) else "?"
        shown = f"'{ch}'" if ch.isprintable() and not ch.isspace() else f"U+{ord(ch):04X}"
        return Diagnostic(
            "SGS-E101",
            f"unexpected character {shown}; expected {_describe(err.allowed or set())}",
            Span.point(file, err.line, err.column),
            suggestion=_char_hint(ch),
        )
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        lines = text.split("\n")
        line = len(lines)
        col = len(lines[-1]) + 1
        expected = set(err.expected if isinstance(err, UnexpectedEOF) else err.accepts or err.expected)
        opener = unclosed_opener(text) if expected & _CLOSERS else None
        if opener is not None:
            return _unclosed(file, opener, Span.point(file, line, col), "the file ends")
        return Diagnostic(
            "SGS-E103",
            f"unexpected end of file; expected {_describe(expected)}",
            Span.point(file, line, col),
            suggestion="a block or definition is not closed: add the missing '}'" if "RBRACE" in expected else None,
        )
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    expected = set(err.accepts or err.expected)
    if expected & _CLOSERS:
        opener = unclosed_opener(text, tok.line, tok.column)
        if opener is not None:
            return _unclosed(file, opener, _span_of(file, tok), f"'{tok}' cannot stand there")
    if tok.type in ("ASSIGN", "AUG_ASSIGN") and expected <= _AFTER_A_NAME:
        return _local_assignment(file, tok, text)
    value = str(tok)
    shown = value if len(value) <= 40 else value[:39] + "…"
    noun = _token_noun(tok.type)
    what = f"{noun} '{shown}'" if noun else f"'{shown}'"
    hint = None
    if expected <= {"IDENT"} and noun == "keyword":
        hint = f"'{value}' is a keyword and cannot be used as a name"
    elif tok.type == "IDENT" and "COLON" in expected and len(expected) <= 2:
        hint = "a definition needs a display name and an ASCII id before ':', e.g. card 杀 sha : basic"
    elif tok.type == "ASSIGN" and "CMP_OP" in expected:
        hint = "to compare, write '=='"
    elif tok.type == "SUIT" and "FACE" in expected:
        hint = "a card face is a suit and a rank: A 2 3 … 10 J Q K, e.g. ♥Q"
    elif tok.type == "INT" and "FACE" in expected:
        hint = "write the suit before the rank, e.g. ♠7"
    elif tok.type == "IDENT":
        hint = familiar(value) or keyword_hint(value, _keywords(expected))
    if hint is None:  # `elif x {`: the word before is the familiar one
        before = re.search(r"(\w+)\s*$", text.split("\n")[(tok.line or 1) - 1][: (tok.column or 1) - 1])
        hint = familiar(before.group(1)) if before else None
    return Diagnostic(
        "SGS-E102",
        f"unexpected {what}; expected {_describe(expected)}",
        _span_of(file, tok),
        suggestion=hint,
    )


_CLOSERS = frozenset({"RBRACE", "RPAR", "RSQB"})
# what may follow a name that starts a statement (a call, a field): `=` there assigns to the name itself
_AFTER_A_NAME = frozenset({"DOT", "LPAR"})


def _unclosed(file: str, opener: Opener, noticed: Span, why: str) -> Diagnostic:
    """SGS-E108 at the bracket never closed, with where the parser noticed (often far below it)."""
    close = {"(": ")", "[": "]", "{": "}"}[opener.char]
    return Diagnostic(
        "SGS-E108",
        f"'{opener.char}' is never closed",
        Span.point(file, opener.line, opener.col),
        suggestion=f"add the '{close}' that closes `{opener.head}` (line {opener.line}); indent it like that line",
        notes=((f"the parser noticed at line {noticed.line}: {why}", noticed),),
    )


def _local_assignment(file: str, tok: Token, text: str) -> Diagnostic:
    """SGS-E109: `n = n + 1` — a name made with `let` (or a loop's variable) is fixed; say what to do instead."""
    line = text.split("\n")[(tok.line or 1) - 1]
    before = re.search(r"(\w+)\s*$", line[: (tok.column or 1) - 1])
    name = before.group(1) if before else "n"
    return Diagnostic(
        "SGS-E109",
        f"'{name}' cannot be reassigned: local names (`let`, a loop's variable) are immutable",
        _span_of(file, tok),
        suggestion=f"make a new name (`let {name}2 = …`), compute the value in one expression (`count(…)`, "
                   f"`sum(…)`, `if … then … else …`), or keep a running value in a mark "
                   f"(`mark(owner, \"{name}\", mark_value(owner, \"{name}\") + 1)`)",
    )


def _keywords(expected: set[str]) -> list[str]:
    """The keywords among the expected terminals ('optional', 'where' …), spelt as written."""
    words = terminal_descriptions()
    out = []
    for term in expected:
        w = words.get(term, "")
        if w.startswith("'") and w.endswith("'") and w[1:-1].replace("_", "").isalpha():
            out.append(w[1:-1])
    return out


def _token_noun(term: str) -> str:
    """What a token is, for 'unexpected name 'basic''; punctuation is shown bare."""
    nouns = {"IDENT": "name", "INT": "number", "STRING": "string", "FACE": "card face", "SUIT": "suit"}
    if term in nouns:
        return nouns[term]
    word = terminal_descriptions().get(term, "")
    return "keyword" if word[1:-1].replace("_", "").isalpha() else ""


def _char_hint(ch: str) -> str | None:
    fixes = {"“": '"', "”": '"', "（": "(", "）": ")", "，": ",", "：": ":", "｛": "{", "｝": "}", "；": "a newline"}
    if ch in fixes:
        return f"full-width '{ch}': write {fixes[ch]!s} instead"
    if ch == ";":
        return "statements need no ';': put them on separate lines or after a space"
    return CHAR_HINTS.get(ch)


class _AstError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _toks(children, *types: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type in types]


@v_args(meta=True)
class _ToAst(Transformer):
    """Lark tree → dataclasses. Keyword tokens are dropped; names keep their spans."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file

    def _call_userfunc(self, tree: Tree, new_children: list | None = None) -> object:  # Lark's hook, per node
        cancel.tick()  # (before Lark's wrapper, which would turn CheckCancelled into a VisitError)
        return super()._call_userfunc(tree, new_children)

    # helpers
    def sp(self, meta) -> Span:
        return _span_of(self.file, meta)

    def ident(self, tok: Token) -> ast.Ident:
        return ast.Ident(_span_of(self.file, tok), str(tok))

    def idents(self, children) -> list[ast.Ident]:
        return [self.ident(t) for t in _toks(children, "IDENT")]

    def nodes(self, children, cls):
        return [c for c in children if isinstance(c, cls)]

    def one(self, children, cls):
        found = self.nodes(children, cls)
        return found[0] if found else None

    # ------------------------------------------------------------ top level
    def start(self, meta, children):
        m = ast.Module(self.sp(meta), self.file)
        for c in children:
            if isinstance(c, ast.Import):
                m.imports.append(c)
            elif isinstance(c, ast.CardDef):
                m.cards.append(c)
            elif isinstance(c, ast.GeneralDef):
                m.generals.append(c)
            elif isinstance(c, ast.SkillDef):
                m.skills.append(c)
            elif isinstance(c, ast.ModeDef):
                m.modes.append(c)
            elif isinstance(c, ast.ValueDef):
                m.values.append(c)
            elif isinstance(c, ast.RuleDef):
                m.rules.append(c)
            elif isinstance(c, ast.MoreCopies):
                m.more_copies.append(c)
            elif isinstance(c, ast.ProcedureDef):
                m.procedures.append(c)
            elif isinstance(c, ast.KingdomDecl):
                m.kingdoms.append(c)
        return m

    def kingdom_decl(self, meta, children):
        return ast.KingdomDecl(self.sp(meta), self.idents(children))

    def procedure_def(self, meta, children):
        params = self.one(children, list) or []
        return ast.ProcedureDef(self.sp(meta), self.idents(children)[0], params, self.one(children, ast.Block))

    def more_copies(self, meta, children):
        return ast.MoreCopies(self.sp(meta), self.idents(children)[0], self.copies(meta, children)[1])

    def rule_def(self, meta, children):
        ids = self.idents(children)
        return ast.RuleDef(self.sp(meta), ids[0], ids[1], triggers=self.nodes(children, ast.Trigger))

    def import_decl(self, meta, children):
        raw = str(_toks(children, "STRING")[0])
        return ast.Import(self.sp(meta), _unquote(raw))

    # ------------------------------------------------------------ cards
    def card_def(self, meta, children):
        ids = self.idents(children)
        card = ast.CardDef(self.sp(meta), ids[0], ids[1], category=ids[2])
        for c in children:
            if isinstance(c, tuple) and c[0] == "copies":
                card.copies.extend(c[1])
            elif isinstance(c, tuple) and c[0] == "range":
                card.attack_range = c[1]
            elif isinstance(c, tuple) and c[0] == "nature":
                card.nature = c[1]
            elif isinstance(c, tuple) and c[0] == "family":
                card.family = c[1]
            elif isinstance(c, tuple) and c[0] == "tags":
                card.tags.extend(c[1])
            elif isinstance(c, tuple) and c[0] == "hook":
                card.hooks.append((c[1], c[2]))
            elif isinstance(c, ast.UseClause):
                card.uses.append(c)
            elif isinstance(c, ast.Block):
                card.effect = c
            elif isinstance(c, ast.SkillDef):
                c.owner_kind = "card"
                card.skills.append(c)
        return card

    def copies(self, meta, children):
        faces = []
        for t in _toks(children, "FACE"):
            rank_text = str(t)[1:]
            rank = RANKS.get(rank_text) or int(rank_text)
            faces.append(ast.Face(_span_of(self.file, t), str(t)[0], rank))
        return ("copies", faces)

    def range_decl(self, meta, children):
        return ("range", int(_toks(children, "INT")[0]))

    def nature_decl(self, meta, children):
        return ("nature", self.idents(children)[0])

    def family_decl(self, meta, children):
        return ("family", self.idents(children)[0])

    def tag_decl(self, meta, children):
        return ("tags", self.idents(children))

    def card_hook(self, meta, children):
        return ("hook", self.idents(children)[0], self.one(children, ast.Block))

    def effect_clause(self, meta, children):
        return self.one(children, ast.Block)

    def use_clause(self, meta, children):
        ctx = self.idents(children)[0]
        where = self.one(children, _Where)
        return ast.UseClause(
            self.sp(meta),
            ctx,
            self.one(children, ast.Limit),
            self.one(children, ast.TargetSpec),
            where.expr if where else None,
            self.one(children, ast.Block),
        )

    def limit_clause(self, meta, children):
        expr = self.one(children, ast.Expr)
        return ast.Limit(self.sp(meta), expr, self.idents(children)[-1])

    def target_clause(self, meta, children):
        spec = self.one(children, ast.TargetSpec)
        spec.span = self.sp(meta)
        return spec

    def target_self(self, meta, children):
        return ast.TargetSpec(self.sp(meta), "self")

    def target_none(self, meta, children):
        return ast.TargetSpec(self.sp(meta), "none", 0, 0)

    def target_one(self, meta, children):
        return ast.TargetSpec(self.sp(meta), "one", 1, 1, bool(_toks(children, "OTHER")))

    def target_all(self, meta, children):
        return ast.TargetSpec(self.sp(meta), "all", 0, 0, bool(_toks(children, "OTHER")))

    def target_range(self, meta, children):
        lo, hi = (int(t) for t in _toks(children, "INT"))
        return ast.TargetSpec(self.sp(meta), "range", lo, hi, bool(_toks(children, "OTHER")))

    def where_clause(self, meta, children):
        return _Where(self.one(children, ast.Expr))

    # ------------------------------------------------------------ generals & skills
    def general_def(self, meta, children):
        ids = self.idents(children)
        g = ast.GeneralDef(
            self.sp(meta), ids[0], ids[1], kingdom=ids[2], gender=ids[-1], hp=int(_toks(children, "INT")[0]),
            kingdoms=ids[2:-1],
        )
        for c in children:
            if isinstance(c, ast.SkillDef):
                c.owner_kind = "general"
                g.skills.append(c)
            elif isinstance(c, tuple) and c[0] == "has":
                g.has.append(c[1])
        return g

    def has_decl(self, meta, children):
        return ("has", self.idents(children)[0])

    def skill_flag(self, meta, children):
        return ("flag", self.idents(children)[0])

    def skill_def(self, meta, children):
        ids = self.idents(children)
        flags = [c[1] for c in children if isinstance(c, tuple) and c[0] == "flag"]
        s = ast.SkillDef(self.sp(meta), ids[0], ids[1], flags=flags)
        for c in children:
            if isinstance(c, ast.Trigger):
                s.triggers.append(c)
            elif isinstance(c, ast.Active):
                s.actives.append(c)
            elif isinstance(c, ast.ViewAs):
                s.view_as.append(c)
            elif isinstance(c, ast.Provide):
                s.provides.append(c)
            elif isinstance(c, ast.Modifier):
                s.modifiers.append(c)
            elif isinstance(c, tuple) and c[0] == "tags":
                s.tags.extend(c[1])
        return s

    def trigger(self, meta, children):
        where = self.one(children, _Where)
        return ast.Trigger(
            self.sp(meta),
            self.idents(children)[0],
            where.expr if where else None,
            bool(_toks(children, "OPTIONAL")),
            self.one(children, ast.Block),
            self.one(children, ast.Limit),
        )

    def active(self, meta, children):
        where = self.one(children, _Where)
        return ast.Active(
            self.sp(meta), self.one(children, ast.Limit), where.expr if where else None, self.one(children, ast.Block)
        )

    def grant(self, meta, children):
        act = self.active(meta, children)
        act.granted = True
        return act

    def view_as(self, meta, children):
        ids = self.idents(children)
        where = self.one(children, _Where)
        return ast.ViewAs(self.sp(meta), ids[0], int(_toks(children, "INT")[0]), ids[1], where.expr if where else None)

    def provide(self, meta, children):
        where = self.one(children, _Where)
        return ast.Provide(
            self.sp(meta), self.idents(children)[0], where.expr if where else None, self.one(children, ast.Block)
        )

    def modifier(self, meta, children):
        ids = self.idents(children)
        params = self.one(children, list) or []
        where = self.one(children, _Where)
        value = next(c for c in children if isinstance(c, ast.Expr))
        op = str(_toks(children, "MOD_OP")[0])
        return ast.Modifier(self.sp(meta), ids[0], params, op, value, where.expr if where else None)

    def param_names(self, meta, children):
        return self.idents(children)

    # ------------------------------------------------------------ values & modes
    def value_def(self, meta, children):
        params = self.one(children, list) or []
        exprs = [c for c in children if isinstance(c, ast.Expr)]
        lower = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "min"), None)
        upper = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "max"), None)
        return ast.ValueDef(self.sp(meta), self.idents(children)[0], params, exprs[0], lower, upper)

    def params(self, meta, children):
        return [c for c in children if isinstance(c, ast.Param)]

    def param(self, meta, children):
        ids = self.idents(children)
        return ast.Param(self.sp(meta), ids[0], ids[1])

    def lower_bound(self, meta, children):
        return ("min", self.one(children, ast.Expr))

    def upper_bound(self, meta, children):
        return ("max", self.one(children, ast.Expr))

    def mode_def(self, meta, children):
        ids = self.idents(children)
        m = ast.ModeDef(self.sp(meta), ids[0], ids[1], base=ids[2] if _toks(children, "EXTENDS") else None)
        seen: set[str] = set()
        for c in children:
            if isinstance(c, tuple) and c[0] in ("players", "leader", "setup", "turn_order", "trigger_order"):
                if c[0] in seen:  # a member that may appear once: the first counts, the checker reports the repeat
                    m.repeated.append((c[0], c[-1]))
                    continue
                seen.add(c[0])
            if isinstance(c, tuple) and c[0] == "players":
                m.players, m.players_span = c[1], c[2]
            elif isinstance(c, ast.OptionDecl):
                m.options.append(c)
            elif isinstance(c, ast.RolesDecl):
                m.roles.append(c)
            elif isinstance(c, tuple) and c[0] == "leader":
                m.leader = c[1]
            elif isinstance(c, tuple) and c[0] == "setup":
                m.setup = c[1]
            elif isinstance(c, tuple) and c[0] == "turn_order":
                m.turn_order = c[1]
            elif isinstance(c, tuple) and c[0] == "trigger_order":
                m.trigger_order = c[1]
            elif isinstance(c, ast.CampDecl):
                m.camps.append(c)
            elif isinstance(c, ast.SoloDecl):
                m.solos.append(c)
            elif isinstance(c, ast.Trigger):
                m.triggers.append(c)
            elif isinstance(c, ast.WinDecl):
                m.wins.append(c)
            elif isinstance(c, ast.ReplaceDecl):
                m.replacements.append(c)
            elif isinstance(c, ast.ScoreDecl):
                m.scores.append(c)
        return m

    def players_decl(self, meta, children):
        lo, hi = (int(t) for t in _toks(children, "INT"))
        return ("players", (lo, hi), self.sp(meta))

    def option_decl(self, meta, children):
        return ast.OptionDecl(self.sp(meta), self.idents(children)[0], self.one(children, ast.Expr))

    def roles_decl(self, meta, children):
        return ast.RolesDecl(
            self.sp(meta), int(_toks(children, "INT")[0]), self.one(children, ast.Expr), self.idents(children)
        )

    def leader_decl(self, meta, children):
        return ("leader", self.idents(children)[0], self.sp(meta))

    def setup_decl(self, meta, children):
        return ("setup", self.one(children, ast.Block), self.sp(meta))

    def turn_order_decl(self, meta, children):
        return ("turn_order", self.one(children, ast.Block), self.sp(meta))

    def replace_decl(self, meta, children):
        ids = self.idents(children)
        return ast.ReplaceDecl(self.sp(meta), ids[0], ids[1] if len(ids) > 1 else None, self.one(children, ast.Expr))

    def camp_decl(self, meta, children):
        ids = self.idents(children)
        return ast.CampDecl(self.sp(meta), ids[0], ids[1:])

    def solo_decl(self, meta, children):
        return ast.SoloDecl(self.sp(meta), self.idents(children))

    def trigger_order_decl(self, meta, children):
        return ("trigger_order", self.idents(children)[0], self.sp(meta))

    def score_decl(self, meta, children):
        op = str(_toks(children, "ASSIGN", "AUG_ASSIGN")[0])
        exprs = [c for c in children if isinstance(c, ast.Expr)]
        return ast.ScoreDecl(self.sp(meta), self.idents(children), op, exprs[0], exprs[1] if len(exprs) > 1 else None)

    def place_decl(self, meta, children):
        exprs = [c for c in children if isinstance(c, ast.Expr)]
        return ast.ScoreDecl(self.sp(meta), self.idents(children), "place", exprs[0],
                             exprs[1] if len(exprs) > 1 else None)

    def win_decl(self, meta, children):
        return ast.WinDecl(self.sp(meta), self.idents(children), self.one(children, ast.Expr))

    # ------------------------------------------------------------ statements
    def block(self, meta, children):
        return ast.Block(self.sp(meta), [c for c in children if isinstance(c, ast.Stmt)])

    def let_stmt(self, meta, children):
        return ast.Let(self.sp(meta), self.idents(children)[0], self.one(children, ast.Expr))

    def if_stmt(self, meta, children):
        test = self.one(children, ast.Expr)
        blocks = self.nodes(children, ast.Block)
        nested = self.one(children, ast.If)
        orelse = blocks[1] if len(blocks) > 1 else (ast.Block(nested.span, [nested]) if nested else None)
        return ast.If(self.sp(meta), test, blocks[0], orelse)

    def for_stmt(self, meta, children):
        return ast.For(
            self.sp(meta), self.idents(children)[0], self.one(children, ast.Expr), self.one(children, ast.Block)
        )

    def while_stmt(self, meta, children):
        return ast.While(self.sp(meta), self.one(children, ast.Expr), self.one(children, ast.Block))

    def repeat_stmt(self, meta, children):
        return ast.Repeat(self.sp(meta), self.one(children, ast.Expr), self.one(children, ast.Block))

    def assign_stmt(self, meta, children):
        target = self.one(children, ast.Attr)
        op = str(_toks(children, "ASSIGN", "AUG_ASSIGN")[0])
        value = [c for c in children if isinstance(c, ast.Expr)][-1]
        return ast.Assign(self.sp(meta), target, op, value)

    def lvalue(self, meta, children):
        ids = self.idents(children)
        node: ast.Expr = ast.Name(ids[0].span, ids[0].text)
        for i in ids[1:]:
            node = ast.Attr(Span(self.file, node.span.line, node.span.col, i.span.end_line, i.span.end_col), node, i)
        return node

    def call_stmt(self, meta, children):
        return ast.CallStmt(self.sp(meta), children[0])

    def stop_stmt(self, meta, children):
        return ast.Stop(self.sp(meta))

    def break_stmt(self, meta, children):
        return ast.Break(self.sp(meta))

    # ------------------------------------------------------------ expressions
    def cond_expr(self, meta, children):
        e = [c for c in children if isinstance(c, ast.Expr)]
        return ast.CondExpr(self.sp(meta), e[0], e[1], e[2])

    def bool_op(self, meta, children):
        e = [c for c in children if isinstance(c, ast.Expr)]
        op = str(_toks(children, "OR", "AND")[0])
        return ast.BinOp(self.sp(meta), op, e[0], e[1])

    def not_op(self, meta, children):
        return ast.Unary(self.sp(meta), "not", self.one(children, ast.Expr))

    def compare(self, meta, children):
        e = [c for c in children if isinstance(c, ast.Expr)]
        return ast.BinOp(self.sp(meta), str(_toks(children, "CMP_OP")[0]), e[0], e[1])

    def member(self, meta, children):
        e = [c for c in children if isinstance(c, ast.Expr)]
        return ast.BinOp(self.sp(meta), "in", e[0], e[1])

    def is_family(self, meta, children):
        return ast.IsFamily(self.sp(meta), self.one(children, ast.Expr), self.idents(children)[-1])

    def range_lit(self, meta, children):
        e = [c for c in children if isinstance(c, ast.Expr)]
        return ast.RangeLit(self.sp(meta), e[0], e[1])

    def arith(self, meta, children):
        e = [c for c in children if isinstance(c, ast.Expr)]
        return ast.BinOp(self.sp(meta), str(_toks(children, "ADD_OP", "MUL_OP")[0]), e[0], e[1])

    def neg(self, meta, children):
        sign = str(_toks(children, "ADD_OP")[0])
        operand = self.one(children, ast.Expr)
        return operand if sign == "+" else ast.Unary(self.sp(meta), "-", operand)

    def attr(self, meta, children):
        return ast.Attr(self.sp(meta), self.one(children, ast.Expr), self.idents(children)[-1])

    def int_lit(self, meta, children):
        return ast.Lit(self.sp(meta), "int", int(children[0]))

    def str_lit(self, meta, children):
        return ast.Lit(self.sp(meta), "str", _unquote(str(children[0])))

    def face_lit(self, meta, children):
        t = str(children[0])
        return ast.Lit(self.sp(meta), "face", (t[0], RANKS.get(t[1:]) or int(t[1:])))

    def suit_lit(self, meta, children):
        return ast.Lit(self.sp(meta), "suit", str(children[0]))

    def true_lit(self, meta, children):
        return ast.Lit(self.sp(meta), "bool", True)

    def false_lit(self, meta, children):
        return ast.Lit(self.sp(meta), "bool", False)

    def none_lit(self, meta, children):
        return ast.Lit(self.sp(meta), "none", None)

    def paren(self, meta, children):
        return self.one(children, ast.Expr)

    def name(self, meta, children):
        return ast.Name(self.sp(meta), str(children[0]))

    def list_comp(self, meta, children):
        e = [c for c in children if isinstance(c, ast.Expr)]
        return ast.ListComp(self.sp(meta), e[0], self.idents(children)[0], e[1], e[2] if len(e) > 2 else None)

    def list_lit(self, meta, children):
        return ast.ListLit(self.sp(meta), [c for c in children if isinstance(c, ast.Expr)])

    def call(self, meta, children):
        func = self.ident(children[0])
        args: list[ast.Expr] = []
        kwargs: list[tuple[ast.Ident, ast.Expr]] = []
        for c in children:
            if isinstance(c, list):
                for a in c:
                    if isinstance(a, tuple):
                        kwargs.append(a)
                    else:
                        args.append(a)
        return ast.Call(self.sp(meta), func, args, kwargs)

    def args(self, meta, children):
        return [c for c in children if not isinstance(c, Token)]

    def arg(self, meta, children):
        return self.one(children, ast.Expr)

    def kwarg(self, meta, children):
        return (self.idents(children)[0], self.one(children, ast.Expr))

    def __default__(self, data, children, meta):
        if len(children) == 1:
            return children[0]
        return Tree(data, children, meta)


class _Where:
    def __init__(self, expr: ast.Expr):
        self.expr = expr


_ESCAPES = {'"': '"', "n": "\n", "\\": "\\"}


def _unquote(raw: str) -> str:
    """Decode a string literal in one pass, so an escaped backslash never starts another escape."""
    body = raw[1:-1]
    return re.sub(r'\\(["n\\])', lambda m: _ESCAPES[m.group(1)], body)
