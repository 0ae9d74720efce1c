"""What the language server knows about one open document: the same load and check as `sgsdsl check` (so the
codes and spans are identical), plus an index of definitions and the helpers hover, completion and
go-to-definition read. No protocol types here: server.py translates."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from ..engine import registry as reg
from ..lang import ast
from ..lang.ast_walk import calls_in
from ..lang.cancel import cancellable
from ..lang.cancel import poll as cancel_poll
from ..lang.checker import check
from ..lang.diagnostics import Diagnostic, Span
from ..lang.docs import comment_above, faces
from ..lang.intent import Lexicon, infer_skill_words
from ..lang.loader import load
from ..lang.sources import display_path

_WORD = re.compile(r"\w+")


@dataclass
class Definition:
    kind: str  # card | general | skill | mode | value | procedure | rule
    node: ast.Node
    file: str  # the module's display path
    owner: str | None = None  # the general or card a nested skill belongs to


@dataclass
class Analysis:
    shown: str  # the document's path as diagnostics name it
    text: str
    diagnostics: list[Diagnostic]
    modules: list[ast.Module] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    defs: dict[str, Definition] = field(default_factory=dict)  # display name and id → definition

    @property
    def module(self) -> ast.Module | None:
        return next((m for m in self.modules if m.path == self.shown), None)


def analyze(path: Path, text: str, cancelled: Callable[[], bool] | None = None) -> Analysis:
    """Load and check `path` with `text` standing for its (possibly unsaved) contents. CANCELLED, asked every few
    hundred tokens, tree nodes, statements and expressions, abandons the work (CheckCancelled; see `cancel`)."""
    if cancelled is None:
        return _analyze(path, text)
    with cancellable(cancelled):
        return _analyze(path, text)


def _analyze(path: Path, text: str) -> Analysis:
    shown = display_path(path)
    result = load([path], overlay={path.resolve(): text})
    diags = list(result.diagnostics)
    if result.modules:
        cancel_poll()
        diags += check(result.modules).diagnostics
    diags.sort(key=lambda d: d.sort_key)
    a = Analysis(shown, text, diags, result.modules, result.sources)
    for m in result.modules:
        _index(a.defs, m)
    return a


def _index(defs: dict[str, Definition], m: ast.Module) -> None:
    def add(kind: str, node: ast.Node, owner: str | None = None) -> None:
        d = Definition(kind, node, m.path, owner)
        for key in (node.name.text, getattr(getattr(node, "ident", None), "text", None)):  # type: ignore[attr-defined]
            if key:
                defs.setdefault(key, d)

    for c in m.cards:
        add("card", c)
        for s in c.skills:
            add("skill", s, c.name.text)
    for g in m.generals:
        add("general", g)
        for s in g.skills:
            add("skill", s, g.name.text)
    for kind, items in (("skill", m.skills), ("mode", m.modes), ("value", m.values), ("procedure", m.procedures),
                        ("rule", m.rules)):
        for node in items:
            add(kind, node)


def word_at(text: str, line: int, col: int) -> tuple[str, int, int] | None:
    """The name under a 0-based position: (word, start col, end col)."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    for m in _WORD.finditer(lines[line]):
        if m.start() <= col <= m.end():
            return m.group(0), m.start(), m.end()
    return None


def contains(span: Span, line: int, col: int) -> bool:
    """Whether a 0-based position lies inside a span (1-based, end exclusive)."""
    return (span.line, span.col) <= (line + 1, col + 1) <= (span.end_line, span.end_col)


def timing_at(module: ast.Module | None, line: int, col: int) -> str | None:
    """The timing of the innermost trigger around a position (what `event` means there)."""
    if module is None:
        return None
    best: ast.Trigger | None = None
    for trig in _triggers(module):
        if contains(trig.span, line, col) and (best is None or (trig.span.line, trig.span.col) >
                                               (best.span.line, best.span.col)):
            best = trig
    return best.timing.text if best else None


def _triggers(m: ast.Module) -> list[ast.Trigger]:
    skills = [*m.skills, *(s for g in m.generals for s in g.skills), *(s for c in m.cards for s in c.skills)]
    return [*(t for s in skills for t in s.triggers), *(t for md in m.modes for t in md.triggers),
            *(t for r in m.rules for t in r.triggers)]


def describe(a: Analysis, d: Definition) -> str:
    """Markdown for a definition: what hover shows and the catalogue reuses."""
    node = d.node
    text = comment_above(a.sources.get(d.file, ""), node.span.line)
    body = f"\n\n{text}" if text else ""
    if isinstance(node, ast.CardDef):
        extra = f"\n\ncopies ({len(node.copies)}): {faces(node)}" if node.copies else "\n\nno copies"
        return f"**{node.name.text}** `{node.ident.text}` — card, {node.category.text}{body}{extra}"
    if isinstance(node, ast.GeneralDef):
        skills = "\n".join(f"- **{s.name.text}**: {comment_above(a.sources.get(d.file, ''), s.span.line) or '—'}"
                           for s in node.skills)
        has = f"\n\nalso has: {', '.join(h.text for h in node.has)}" if node.has else ""
        return (f"**{node.name.text}** `{node.ident.text}` — general, {node.kingdom.text} {node.gender.text}, "
                f"{node.hp} HP{body}\n\n{skills}{has}")
    if isinstance(node, ast.SkillDef):
        flags = f" ({', '.join(f.text for f in node.flags)})" if node.flags else ""
        owner = f" of {d.owner}" if d.owner else ""
        values = {v.name.text: v for m in a.modules for v in m.values}
        read = infer_skill_words(node, values, _lexicon(a))  # (what agents read where the rule wrote no words)
        agents = (f"\n\nagents read it from its rule as `{' '.join(read)}` (write `tags` to say otherwise)"
                  if read else "")
        return f"**{node.name.text}** `{node.ident.text}` — skill{owner}{flags}{body}{agents}"
    if isinstance(node, ast.ValueDef):
        ps = ", ".join(f"{p.name.text}: {p.type.text}" for p in node.params)
        return f"**value** `{node.name.text}({ps})`{body}"
    if isinstance(node, ast.ProcedureDef):
        ps = ", ".join(f"{p.name.text}: {p.type.text}" for p in node.params)
        words = _lexicon(a).param_words(node)  # (what agents read of a character passed to it)
        said = "; ".join(f"`{param}` as `{word}`" for param, word in words.items())
        agents = f"\n\nagents read what it does to {said} (a choice passed there is aimed so)" if said else ""
        return f"**procedure** `{node.name.text}({ps})`{body}{agents}"
    other = cast(ast.Definition, node)  # a card, mode or rule: each has a display name
    return f"**{other.name.text}** — {d.kind}{body}"


def _lexicon(a: Analysis) -> Lexicon:
    """The reading's lexicon of the analysed program (its cards' families, its procedures)."""
    return Lexicon.of((c for m in a.modules for c in m.cards), (p for m in a.modules for p in m.procedures))


def timing_doc(name: str) -> str:
    t = reg.TIMINGS[name]
    fields = "\n".join(f"- `event.{k}`: {ty}" + (" (changeable)" if k in t.mutable else "")
                       for k, ty in t.fields.items()) or "- (no fields)"
    cancel = "cancellable" if t.cancellable else "not cancellable"
    return f"**on {name}** — {t.doc}\n\n{cancel}; event fields:\n{fields}"


def vocabulary_doc(word: str) -> str | None:
    """Documentation of a registry entry: a timing, action, function, engine value or constant."""
    if word in reg.TIMINGS:
        return timing_doc(word)
    if word in reg.PRIMITIVES:
        p = reg.PRIMITIVES[word]
        ps = ", ".join(f"{x.name}: {x.type}" + ("" if x.required else " = …") for x in p.params)
        ret = "" if p.returns in ("none", "") else f" → {p.returns}"
        return f"**{p.kind}** `{p.name}({ps})`{ret}\n\n{p.doc}"
    if word in reg.ENGINE_VALUES:
        v = reg.ENGINE_VALUES[word]
        ps = ", ".join(f"{n}: {t}" for n, t in zip(v.params, v.param_types, strict=True))
        return f"**engine value** `{v.name}({ps})` → {v.type}\n\n{v.doc}"
    if word in reg.CONSTANTS:
        return f"**constant** `{word}`: {reg.CONSTANTS[word][0]}"
    return None


def hover(a: Analysis, line: int, col: int) -> tuple[str, tuple[int, int]] | None:
    """Markdown for the name under a position and its column range."""
    found = word_at(a.text, line, col)
    if found is None:
        return None
    word, start, end = found
    before = a.text.split("\n")[line][:start]
    timing = timing_at(a.module, line, col)
    if timing in reg.TIMINGS and (word == "event" or before.endswith("event.")):
        fields = reg.TIMINGS[timing].fields
        if word != "event" and word in fields:
            return f"`event.{word}`: {fields[word]} (at `on {timing}`)\n\n" + timing_doc(timing), (start, end)
        return timing_doc(timing), (start, end)
    if word in a.defs:
        return describe(a, a.defs[word]), (start, end)
    doc = vocabulary_doc(word)
    return (doc, (start, end)) if doc else None


def completions(a: Analysis, line: int, col: int) -> list[tuple[str, str, str]]:
    """(label, kind, detail) for what may be written at a position."""
    before = a.text.split("\n")[line][:col] if line < len(a.text.split("\n")) else ""
    stem = re.sub(r"\w*$", "", before)
    if stem.endswith("event."):
        timing = timing_at(a.module, line, col)
        if timing in reg.TIMINGS:
            return [(k, "field", f"{ty} (on {timing})") for k, ty in reg.TIMINGS[timing].fields.items()]
        return []
    if re.search(r"\bon\s+$", stem):
        return [(t.name, "timing", t.doc) for t in reg.TIMINGS.values()]
    out = [(name, d.kind, d.kind + (f" of {d.owner}" if d.owner else ""))
           for name, d in a.defs.items() if d.node.name.text == name]  # type: ignore[attr-defined]
    for p in reg.PRIMITIVES.values():
        out.append((p.name, "action" if p.kind == "action" else "function", p.doc))
    out += [(v.name, "value", v.doc) for v in reg.ENGINE_VALUES.values()]
    out += [(n, "constant", ty) for n, (ty, _) in reg.CONSTANTS.items()]
    out += [(t.name, "timing", t.doc) for t in reg.TIMINGS.values()]
    return out


def definition_at(a: Analysis, line: int, col: int) -> Span | None:
    """Where the name (or the imported file) under a position is defined."""
    mod = a.module
    if mod is not None:
        for imp in mod.imports:
            if contains(imp.span, line, col):
                target = Path(a.shown).resolve().parent / imp.path
                target = target if target.suffix else target.with_suffix(".sgs")
                return Span(str(target), 1, 1, 1, 1) if target.is_file() else None
    found = word_at(a.text, line, col)
    if found is None or found[0] not in a.defs:
        return None
    d = a.defs[found[0]]
    span = d.node.name.span  # type: ignore[attr-defined]
    return Span(str(Path(d.file).resolve()), span.line, span.col, span.end_line, span.end_col)


def symbols(module: ast.Module | None) -> list[tuple[str, str, ast.Node, list[tuple[str, str, ast.Node]]]]:
    """(name, kind, node, children) for the document outline."""
    if module is None:
        return []
    out: list[tuple[str, str, ast.Node, list[tuple[str, str, ast.Node]]]] = []
    for c in module.cards:
        out.append((c.name.text, "card", c, [(s.name.text, "skill", s) for s in c.skills]))
    for g in module.generals:
        out.append((g.name.text, "general", g, [(s.name.text, "skill", s) for s in g.skills]))
    out += [(s.name.text, "skill", s, []) for s in module.skills]
    out += [(m.name.text, "mode", m, []) for m in module.modes]
    out += [(v.name.text, "value", v, []) for v in module.values]
    out += [(p.name.text, "procedure", p, []) for p in module.procedures]
    out += [(r.name.text, "rule", r, []) for r in module.rules]
    out.sort(key=lambda s: (s[2].span.line, s[2].span.col))
    return out


AIM_WORDS = ("help", "attack", "control", "neutral")  # the words a quick fix offers a choice agents cannot aim


def choice_closing(a: Analysis, name: Span) -> tuple[int, int] | None:
    """Where the choice whose function name is at NAME (as SGS-W407 marks it) closes: the 0-based line and column
    of its `)`, before which the quick fix writes `, tags: "…"`. None when no call of the document is named there."""
    call = next((c for c in calls_in(a.module) if c.func.span == name), None) if a.module is not None else None
    return (call.span.end_line - 1, call.span.end_col - 2) if call is not None else None
