"""`sgsdsl docs RULES -o site/`: a static, searchable HTML catalogue of the rules (cards, generals, skills,
modes), with each skill linked to the scenarios that cover it.

Everything is in the files written: the page carries its own CSS and search script (no network, no
framework), so the folder can be opened from disk or served anywhere. `index.html?q=曹操` opens with the
search filled in, which is also how the browser test drives the search.
"""

from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.registry.core import VIEW_CATEGORIES
from ..files import write_text_atomic
from ..interp.reach import (
    ACTION_BOUND,
    TRIGGER_BOUND,
    cancels_event,
    first_seat_choice,
    lowers_amount,
    phases_skipped,
    seat_choices,
    tagged_choices,
    written_hopes,
)
from ..lang import ast
from ..lang.ast_walk import fixed_seat, kwarg
from ..lang.docs import comment_above, faces, span_text
from ..lang.intent import Lexicon, infer_skill_words, read_from_rule
from ..lang.sources import walk_files

_STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;margin:0;color:#222;background:#faf8f4}
header{position:sticky;top:0;background:#7a1f1f;color:#fff;padding:.8em 1.2em;display:flex;gap:1em;align-items:center}
header h1{font-size:1.2em;margin:0}header input{flex:1;font-size:1em;padding:.4em;border-radius:4px;border:0}
nav{padding:.5em 0}nav a{margin-right:1.2em}#count{font-size:.9em;opacity:.85}
main{padding:0 1.2em 2em}section h2{border-bottom:2px solid #7a1f1f;padding-top:.6em}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(22em,1fr));gap:.8em}
.entry{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.6em .9em}
.entry h3{margin:.1em 0 .3em;font-size:1.05em}.id{color:#888;font-size:.8em;font-family:monospace}
.meta{color:#555;font-size:.9em}.text{margin:.4em 0}.faces{font-family:monospace;font-size:.85em;color:#444}
.skill{border-top:1px dashed #ddd;margin-top:.4em;padding-top:.3em}.skill b{color:#7a1f1f}
.agents{color:#555;font-size:.85em}
.scen a{font-size:.8em;margin-right:.5em}table{border-collapse:collapse;margin:.4em 0}
td,th{border:1px solid #ccc;padding:.2em .5em;font-size:.9em;text-align:left}
.k-魏{border-left:5px solid #3465a4}.k-蜀{border-left:5px solid #cc0000}.k-吴{border-left:5px solid #4e9a06}
.k-群{border-left:5px solid #75507b}pre{background:#fff;border:1px solid #ddd;padding:1em;overflow:auto}
"""

_SCRIPT = """
const box = document.getElementById('q');
const entries = Array.from(document.querySelectorAll('.entry'));
function apply() {
  const words = box.value.trim().toLowerCase().split(/\\s+/).filter(Boolean);
  let shown = 0;
  for (const e of entries) {
    const hay = e.dataset.search;
    const hit = words.every(w => hay.includes(w));
    e.hidden = !hit;
    if (hit) shown++;
  }
  for (const s of document.querySelectorAll('section')) {
    s.hidden = !s.querySelector('.entry:not([hidden])');
  }
  document.getElementById('count').textContent = shown + ' of ' + entries.length;
}
box.addEventListener('input', apply);
const q = new URLSearchParams(location.search).get('q');
if (q) box.value = q;
apply();
"""


@dataclass
class Scenario:
    path: str  # relative to the scenarios folder, with forward slashes
    rule: str
    covers: list[str]
    text: str

    @property
    def page(self) -> str:
        return "scenarios/" + re.sub(r"[^\w.-]", "_", self.path) + ".html"


@dataclass
class Site:
    files: dict[str, str] = field(default_factory=dict)  # relative path → text


def read_scenarios(folder: Path | None) -> list[Scenario]:
    """Scenario files (tests/scenarios/**/*.scenario) with their `rule:` and `covers:` lines."""
    if folder is None or not folder.is_dir():
        return []
    out: list[Scenario] = []
    found, skipped = walk_files(folder, ".scenario")
    for f, why in skipped:  # a FIFO would hang the build, a link outside the folder read elsewhere
        print(f"skipped {f}: {why}", file=sys.stderr)
    for p in found:
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        rule = next((ln[5:].strip() for ln in text.splitlines() if ln.startswith("rule:")), "")
        covers = next((ln[7:].split() for ln in text.splitlines() if ln.startswith("covers:")), [])
        out.append(Scenario(p.relative_to(folder).as_posix(), rule, covers, text))
    return out


def covering(skill: str, scenarios: list[Scenario]) -> list[Scenario]:
    """The scenarios whose `rule:` line names the skill (or that list it under `covers:`)."""
    return [s for s in scenarios if skill in s.covers or re.search(rf"(?<!\w){re.escape(skill)}(?!\w)", s.rule)]


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _search(*parts: object) -> str:
    return _e(" ".join(str(p) for p in parts if p).lower())


class _Builder:
    def __init__(self, modules: list[ast.Module], sources: dict[str, str], scenarios: list[Scenario],
                 values: dict[str, ast.ValueDef]):
        self.modules = modules
        self.values = values
        self.lexicon = Lexicon.of((c for m in modules for c in m.cards), (p for m in modules for p in m.procedures))
        self.owners: dict[str, str] = {}  # anchor → the first file defining it
        for m in modules:
            for kind, items in (("card", m.cards), ("general", m.generals), ("skill", m.skills), ("mode", m.modes)):
                for node in items:
                    self.owners.setdefault(f"{kind}-{node.ident.text}", m.path)
        self.sources = sources
        self.scenarios = scenarios
        # every card's ident and name: a conversion naming none of them but a category declares face down
        self.card_names = {n for m in modules for c in m.cards for n in (c.ident.text, c.name.text)}
        self.linked: set[str] = set()

    def text(self, module: ast.Module, node: ast.Node) -> str:
        return comment_above(self.sources.get(module.path, ""), node.span.line)

    def skill(self, module: ast.Module, s: ast.SkillDef) -> tuple[str, str]:
        text = self.text(module, s)
        flags = f" <span class=meta>({_e(', '.join(f.text for f in s.flags))})</span>" if s.flags else ""
        scen = covering(s.name.text, self.scenarios)
        self.linked.update(x.page for x in scen)
        links = "".join(f'<a href="{_e(x.page)}" title="{_e(x.rule)}">▶ {_e(x.path)}</a>' for x in scen)
        agents = self.for_agents(module, s)
        html_ = (f'<div class=skill id="skill-{_e(s.ident.text)}"><b>{_e(s.name.text)}</b> '
                 f'<span class=id>{_e(s.ident.text)}</span>{flags}<div class=text>{_e(text) or "—"}</div>'
                 + (f"<div class=agents>for agents: {agents}</div>" if agents else "")
                 + (f"<div class=scen>scenarios: {links}</div>" if links else "") + "</div>")
        return html_, f"{s.name.text} {s.ident.text} {text}"

    def for_agents(self, module: ast.Module, s: ast.SkillDef) -> str:
        """What an agent reads of the skill: its hints, and for each action or optional trigger that names
        characters, the list it is shown beforehand (docs/language.md, "AI hints") or that it is shown none; and for
        an optional trigger that cancels its event outright, that a yes does (the phase it skips, `Request.skips`, and
        the phases it skips besides); for a face-down declaration (`view_as basic …`), that agents are told which
        declarations can be made true; and each choice that carries its own words (`tags:`, `hints:`)."""
        src = self.sources.get(module.path, "")
        parts = [f"tags {_e(' '.join(t.text for t in s.tags))}"] if s.tags else []
        read = infer_skill_words(s, self.values, self.lexicon)  # (what agents read where the rule wrote no words)
        if read:
            parts.append(f"read from its rule as <code>{_e(' '.join(read))}</code>")
        members = [("action", a.body, ACTION_BOUND) for a in s.actives if not a.granted]
        members += [("optional trigger", t.body, TRIGGER_BOUND) for t in s.triggers if t.optional]
        for kind, body, bound in members:
            if next(seat_choices(body, self.values), None) is None and fixed_seat(body, self.values) is None:
                continue
            reach = first_seat_choice(body, self.values, bound)
            parts.append(f"{kind} aims within <code>{_e(span_text(src, reach.span))}</code>" if reach is not None
                         else f"{kind}: whom it names is known only as it runs")
        if any(v.card.text in VIEW_CATEGORIES and v.card.text not in self.card_names for v in s.view_as):
            parts.append("declares face down: the menu marks a declaration it can make true <code>genuine</code>")
        for t in s.triggers:
            if t.optional and cancels_event(t.body):
                timing = t.timing.text
                also = "".join(f" and its <code>{_e(p)}</code> phase" for p in phases_skipped(t.body))
                parts.append(f"optional trigger: a yes skips the phase it is asked before{also}"
                             if timing == "before_phase"
                             else f"optional trigger: a yes cancels its <code>{_e(timing)}</code>{also}")
            elif t.optional and (lowered := lowers_amount(t.body)):
                parts.append(f"optional trigger: a yes lowers its <code>{_e(t.timing.text)}</code>'s amount by "
                             f"{lowered}")
        bodies = [a.body for a in s.actives] + [t.body for t in s.triggers]
        parts += self.choice_words(src, bodies)
        return " · ".join(parts)

    @staticmethod
    def choice_words(src: str, bodies: list[ast.Block]) -> list[str]:
        """Each choice that carries its own words for agents (`tags:`, `hints:`), named by its prompt; then each
        judgement that says what its character hopes for (`hoping:`)."""
        out = []
        for body in bodies:
            for call, tags, hints in tagged_choices(body):
                prompt = next((v for k, v in call.kwargs if k.text == "prompt"), None)
                name = (f"“{_e(prompt.value)}”" if isinstance(prompt, ast.Lit) and isinstance(prompt.value, str)
                        else f"<code>{_e(call.func.text)}</code>")
                said = tags.value if isinstance(tags, ast.Lit) and isinstance(tags.value, str) else \
                    span_text(src, tags.span) if tags is not None else ""
                tagged = "read from its rule as" if tags is not None and read_from_rule(call, tags) else "tagged"
                costs, befalls = kwarg(call, "costs"), kwarg(call, "befalls")
                words = ([f"{tagged} <code>{_e(said)}</code>"] if tags is not None else []) \
                    + ([_Builder.hints_said(src, call, hints)] if hints is not None else []) \
                    + ([_Builder.per_option_said(src, call, costs, "costs")] if costs is not None else []) \
                    + ([_Builder.per_option_said(src, call, befalls, "befalls")] if befalls is not None else [])
                out.append(f"choice {name}: {' and '.join(words)}")
            for call, hope in written_hopes(body):
                out.append(f"{_e(call.func.text)} hoping <code>{_e(span_text(src, hope.span))}</code>")
        return out

    @staticmethod
    def hints_said(src: str, call: ast.Call, hints: ast.Expr) -> str:
        """A choice's per-option hints as written, or as read from its options' branches (given at the call)."""
        if read_from_rule(call, hints) and isinstance(hints, ast.ListLit):
            read = ", ".join(f'"{h.value}"' for h in hints.items if isinstance(h, ast.Lit))
            return f"hints read from its rule as <code>[{_e(read)}]</code>"
        return f"hints <code>{_e(span_text(src, hints.span))}</code>"

    @staticmethod
    def per_option_said(src: str, call: ast.Call, given: ast.Expr, key: str) -> str:
        """A choice's per-option `costs:` or `befalls:` as written, or as read from its rule (given at the call: what
        the rule works out from the option chosen, its price or the characters it befalls, per option)."""
        if read_from_rule(call, given) and isinstance(given, ast.ListComp):
            return f"{key} read from its rule as <code>{_e(span_text(src, given.elem.span))}</code> for each"
        return f"{key} <code>{_e(span_text(src, given.span))}</code>"

    def card(self, module: ast.Module, c: ast.CardDef) -> str:
        text = self.text(module, c)
        parts = [self.skill(module, s) for s in c.skills]
        extra = []
        if c.attack_range is not None:
            extra.append(f"range {c.attack_range}")
        if c.tags:
            extra.append("tags " + " ".join(t.text for t in c.tags))
        faces_ = faces(c)
        bodies = ([c.effect] if c.effect is not None else []) + [b for _, b in c.hooks]
        agents = " · ".join(self.choice_words(self.sources.get(module.path, ""), bodies))
        return (f'<article class=entry id="{_e(self.key(module, "card", c.ident.text))}" data-search="'
                f'{_search("card", c.name.text, c.ident.text, c.category.text, text, *(p[1] for p in parts))}">'
                f'<h3>{_e(c.name.text)} <span class=id>{_e(c.ident.text)}</span></h3>'
                f'<div class=meta>{_e(c.category.text)} · {len(c.copies)} '
                f'{"copy" if len(c.copies) == 1 else "copies"}{" · " + _e(", ".join(extra)) if extra else ""}</div>'
                f'<div class=text>{_e(text) or "—"}</div><div class=faces>{_e(faces_)}</div>'
                + (f"<div class=agents>for agents: {agents}</div>" if agents else "")
                + "".join(p[0] for p in parts) + "</article>")

    def general(self, module: ast.Module, g: ast.GeneralDef) -> str:
        text = self.text(module, g)
        parts = [self.skill(module, s) for s in g.skills]
        has = f'<div class=meta>also has: {_e(", ".join(h.text for h in g.has))}</div>' if g.has else ""
        return (f'<article class="entry k-{_e(g.kingdom.text)}" id="{_e(self.key(module, "general", g.ident.text))}" '
                f'data-search="'
                f'{_search("general", g.name.text, g.ident.text, g.kingdom.text, text, *(p[1] for p in parts))}">'
                f'<h3>{_e(g.name.text)} <span class=id>{_e(g.ident.text)}</span></h3>'
                f'<div class=meta>{_e(g.kingdom.text)} · {_e(g.gender.text)} · {g.hp} HP</div>'
                + (f"<div class=text>{_e(text)}</div>" if text else "") + "".join(p[0] for p in parts) + has
                + "</article>")

    def mode(self, module: ast.Module, m: ast.ModeDef) -> str:
        src = self.sources.get(module.path, "")
        text = self.text(module, m)
        rows = "".join(f"<tr><td>{r.players}</td><td>{_e(span_text(src, r.condition.span)) if r.condition else ''}"
                       f"</td><td>{_e(' '.join(x.text for x in r.roles))}</td></tr>" for r in m.roles)
        opts = "".join(f"<tr><td>{_e(o.name.text)}</td><td>{_e(span_text(src, o.default.span))}</td>"
                       f"<td>{_e(self.text(module, o))}</td></tr>" for o in m.options)
        players = f"{m.players[0]}–{m.players[1]} players" if m.players else ""
        leader = f" · leader: {_e(m.leader.text)}" if m.leader else ""
        base = getattr(m, "base", None)  # a variant: `mode X x extends BASE`
        leader += f" · extends {_e(base.text)}" if isinstance(base, ast.Ident) else ""
        solo = [r.text for line in m.solos for r in line.roles]
        leader += f" · each seat alone (solo): {_e(' '.join(solo))}" if solo else ""
        return (f'<article class=entry id="{_e(self.key(module, "mode", m.ident.text))}" data-search="'
                f'{_search("mode", m.name.text, m.ident.text, text, *(o.name.text for o in m.options))}">'
                f'<h3>{_e(m.name.text)} <span class=id>{_e(m.ident.text)}</span></h3>'
                f"<div class=meta>{players}{leader}</div>" + (f"<div class=text>{_e(text)}</div>" if text else "")
                + (f"<table><tr><th>players</th><th>if</th><th>roles</th></tr>{rows}</table>" if rows else "")
                + (f"<table><tr><th>option</th><th>default</th><th>meaning</th></tr>{opts}</table>" if opts else "")
                + "</article>")

    def index(self, title: str) -> str:
        """One block per rules file (a folder may hold independent rule sets), each with its cards by category,
        generals, loose skills and modes."""
        sections: list[tuple[str, str, list[str]]] = []
        for mod in self.modules:
            stem = Path(mod.path).name
            cats: dict[str, list[str]] = {}
            for c in mod.cards:
                cats.setdefault(c.category.text, []).append(self.card(mod, c))
            for cat, items in cats.items():
                sections.append((f"{stem}-cards-{cat}", f"{stem} · cards: {cat} ({len(items)})", items))
            gens = [self.general(mod, g) for g in mod.generals]
            sections.append((f"{stem}-generals", f"{stem} · generals ({len(gens)})", gens))
            loose = []
            for s in mod.skills:
                body, search = self.skill(mod, s)
                loose.append(f'<article class=entry id="{_e(self.key(mod, "skill", s.ident.text))}" '
                             f'data-search="{_search("skill", search)}">{body}</article>')
            sections.append((f"{stem}-skills", f"{stem} · skills ({len(loose)})", loose))
            modes = [self.mode(mod, m) for m in mod.modes]
            sections.append((f"{stem}-modes", f"{stem} · modes ({len(modes)})", modes))
        nav = "".join(f'<a href="#{_e(sid)}">{_e(t.split(" (")[0])}</a>' for sid, t, items in sections if items)
        body = "".join(f'<section id="{_e(sid)}"><h2>{_e(t)}</h2><div class=grid>{"".join(items)}</div></section>'
                       for sid, t, items in sections if items)
        return _page(title, f'<header><h1>{_e(title)}</h1><input id=q type=search placeholder="search: 曹操, 杀, '
                            f'rebel, 魏 …" autofocus><span id=count></span></header><main><nav>{nav}</nav>{body}'
                            f"</main><script>{_SCRIPT}</script>")

    def key(self, mod: ast.Module, kind: str, ident: str) -> str:
        """An entry's anchor: the kind and id, with the file's name when another file defines the same id."""
        plain = f"{kind}-{ident}"
        return plain if self.owners.get(plain) == mod.path else f"{kind}-{Path(mod.path).stem}-{ident}"


def _page(title: str, body: str, root: str = "") -> str:
    return (f'<!doctype html><html lang=zh><head><meta charset=utf-8><title>{_e(title)}</title>'
            f'<meta name=viewport content="width=device-width,initial-scale=1"><style>{_STYLE}</style></head>'
            f"<body>{body}</body></html>\n")


def build_site(modules: list[ast.Module], sources: dict[str, str], scenarios: list[Scenario], title: str,
               values: dict[str, ast.ValueDef] | None = None) -> Site:
    """The site for checked modules (each file once, dependencies first); VALUES: the programs' `value`
    definitions by name (what a skill's list of characters may call)."""
    b = _Builder(modules, sources, scenarios, values or {})
    site = Site({"index.html": b.index(title)})
    for s in scenarios:
        if s.page in b.linked:
            site.files[s.page] = _page(s.path, f'<header><h1>{_e(s.path)}</h1><a href="../index.html" '
                                                f'style="color:#ffd">← catalogue</a></header><main><p>{_e(s.rule)}</p>'
                                                f"<pre>{_e(s.text)}</pre></main>")
    site.files = dict(sorted(site.files.items()))
    return site


def write_site(site: Site, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for rel, text in site.files.items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(target, text)
