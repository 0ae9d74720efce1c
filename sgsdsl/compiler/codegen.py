"""Generate one Python module from a checked program.

The structure comes from the interpreter's `StructureBuilder` (shared, so both back ends build the same
rule objects); here its function slots are recorded instead of closed over, lowered to Python methods
(`lower.py`), and the resulting object graph is printed as constructor calls. Jinja2 (StrictUndefined)
renders only the skeleton; every piece of code it places was produced and escaped in Python.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from ..engine import program as pg
from ..interp.build import Site, StructureBuilder, inline_skill_key
from ..lang import ast
from ..lang.checker import CheckedProgram
from ..lang.diagnostics import Diagnostic, Span
from . import GENERATOR_VERSION
from .lower import CompileError, FunctionLowerer, comment_path, direct_signature, literal
from .names import Namespace, mangle, module_name
from .templating import render

INDENT = "    "
_HOIST = ("CardRule", "SkillRule", "GeneralRule", "ModeRule", "ValueRule", "GlobalRule")  # one statement each
BODY_INDENT = 3  # class > def > try


def source_key(checked: CheckedProgram, sources: dict[str, str]) -> str:
    """The identity of a program's sources: generator version and every module's path (relative to the entry
    file's folder) and text, in load order."""
    return paths_key([m.path for m in checked.modules], sources)


def paths_key(paths: list[str], sources: dict[str, str]) -> str:
    """`source_key` of the load of PATHS (in load order, the entry last)."""
    h = hashlib.sha256()
    h.update(f"sgsdsl-generator {GENERATOR_VERSION}\n".encode())
    home = os.path.dirname(paths[-1]) if paths else ""
    for path in paths:
        text = sources.get(path, "")
        # paths relative to the entry file's folder: the same key from any working directory
        for part in (os.path.relpath(path, home or ".").replace(os.sep, "/"), text):
            data = part.encode("utf-8", "surrogatepass")
            h.update(len(data).to_bytes(8, "big"))
            h.update(data)
    return "sha256:" + h.hexdigest()


def load_order(edges: dict[str, list[str]], entry: str) -> list[str]:
    """The modules a load of ENTRY alone gives, dependencies first, in the loader's order (EDGES: each module's
    resolved imports, `LoadResult.edges`): what ENTRY's own compiled module was compiled from."""
    out: list[str] = []
    seen: set[str] = set()

    def visit(path: str) -> None:
        if path in seen:
            return
        seen.add(path)
        for target in edges.get(path, ()):
            visit(target)
        out.append(path)

    visit(entry)
    return out


@dataclass(frozen=True)
class Link:
    """An imported rules file whose compiled module a generated module imports (`from . import MODULE`) instead
    of holding its code: that module's name in the package, and the source key of its own load."""

    module: str
    key: str

    @property
    def alias(self) -> str:
        return f"_L_{self.module}"


def plan_links(modules: list[str], edges: dict[str, list[str]], sources: dict[str, str],
               usable: Callable[[str, Link], bool] = lambda path, link: True) -> dict[str, Link]:
    """The imports of a load (MODULES in load order, the entry last) that its module links to: each one whose own
    compiled module is USABLE, named by its file stem (the first of two files with one name only)."""
    if not modules or not edges:
        return {}
    taken = {module_name(PurePath(modules[-1]).stem)}
    links: dict[str, Link] = {}
    for path in modules[:-1]:
        name = module_name(PurePath(path).stem)
        if name in taken:
            continue
        link = Link(name, paths_key(load_order(edges, path), sources))
        if usable(path, link):
            taken.add(name)
            links[path] = link
    return links


@dataclass(frozen=True)
class FnSlot:
    """A placeholder the structure builder holds where a rule function will be: `Class.method`."""

    cls: str
    method: str


@dataclass
class _Class:
    name: str
    kind: str
    key: str
    node: ast.Definition | ast.ValueDef | ast.ProcedureDef
    link: Link | None  # defined in a linked module: referred to there, not generated here
    # (method name, node, site, the names a direct method is called with after `frame`, or None)
    methods: list[tuple[str, ast.Block | ast.Expr, Site, tuple[str, ...] | None]] = field(default_factory=list)


@dataclass
class Generated:
    text: str
    source_key: str
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


class ModuleGenerator:
    def __init__(self, checked: CheckedProgram, sources: dict[str, str], links: dict[str, Link] | None = None):
        self.checked = checked
        self.sources = sources
        self.links = links or {}  # module path -> the compiled module its definitions are taken from
        self.module_ns = Namespace("definition")
        self.classes: dict[tuple[str, str], _Class] = {}
        self.diagnostics: list[Diagnostic] = []
        self.primitives: dict[str, str] = {}
        self.direct_calls: dict[str, str] = {}  # primitives called without their argument checks

    # ------------------------------------------------------------ classes
    def add_class(self, kind: str, key: str, node: ast.Definition | ast.ValueDef | ast.ProcedureDef,
                  span: Span, module: str) -> None:
        prefix = {"card": "Card_", "skill": "Skill_", "general": "General_", "mode": "Mode_", "value": "Value_",
                  "rule": "Rule_", "procedure": "Proc_"}[kind]
        name = prefix + "__".join(mangle(part) for part in key.split("."))
        assert name.isidentifier() and name.isascii()
        self.module_ns.claim(name, f"{kind} {key}", span)
        if (kind, key) in self.classes:  # the checker reports duplicates; keep the first
            return
        self.classes[(kind, key)] = _Class(name, kind, key, node, self.links.get(module))

    @staticmethod
    def ref(cls: _Class) -> str:
        """How this module's code names a class: its own, or the linked module's."""
        return f"{cls.link.alias}.{cls.name}" if cls.link is not None else cls.name

    def collect_classes(self) -> None:
        """Classes in a fixed order where every class a general refers to is defined before it."""
        mods = self.checked.modules
        for m in mods:
            for s in m.skills:
                self.add_class("skill", s.ident.text, s, s.ident.span, m.path)
        for m in mods:
            for c in m.cards:
                self.add_class("card", c.ident.text, c, c.ident.span, m.path)
                for i, s in enumerate(c.skills):
                    self.add_class("skill", inline_skill_key(c.ident.text, c.skills, i), s, s.ident.span, m.path)
            for v in m.values:
                self.add_class("value", v.name.text, v, v.name.span, m.path)
            for pr in m.procedures:
                self.add_class("procedure", pr.name.text, pr, pr.name.span, m.path)
        for m in mods:
            for g in m.generals:
                for i, s in enumerate(g.skills):
                    self.add_class("skill", inline_skill_key(g.ident.text, g.skills, i), s, s.ident.span, m.path)
                self.add_class("general", g.ident.text, g, g.ident.span, m.path)
            for md in m.modes:
                self.add_class("mode", md.ident.text, md, md.ident.span, m.path)
            for r in m.rules:
                self.add_class("rule", r.ident.text, r, r.ident.span, m.path)

    def make(self, node: ast.Block | ast.Expr, site: Site) -> FnSlot:
        cls = self.classes[site.owner]
        assert site.slot.isidentifier() and site.slot.isascii()
        if any(name == site.slot for name, _, _, _ in cls.methods):  # every site is built exactly once
            raise CompileError(Diagnostic("SGS-E503", f"rule function {site.owner[1]}.{site.slot} built twice",
                                          node.span))
        cls.methods.append((site.slot, node, site, None))
        return FnSlot(self.ref(cls), site.slot)

    def direct(self, node: ast.Block | ast.Expr, site: Site, names: tuple[str, ...]) -> FnSlot | None:
        """The same rule function as `make` builds, compiled a second time as a direct method `SLOT_d(frame,
        *names)` that the engine calls without building a bindings dict (None when it reads other names)."""
        if not direct_signature(node, site, names):
            return None
        cls = self.classes[site.owner]
        cls.methods.append((site.slot + "_d", node, site, names))
        return FnSlot(self.ref(cls), site.slot + "_d")

    # ------------------------------------------------------------ methods
    def method(self, name: str, node: ast.Block | ast.Expr, site: Site,
               direct: tuple[str, ...] | None = None) -> dict[str, str]:
        lowered = FunctionLowerer(site, self.primitives, self.module_ns, self.direct_calls, direct).lower(node)
        self.diagnostics.extend(lowered.diagnostics)
        lines = []
        for ind, code, comment in lowered.lines:
            text = INDENT * (BODY_INDENT + ind) + code
            lines.append(f"{text}  {comment}" if comment else text)
        comment = f"# {comment_path(node.span.file)}:{node.span.line}:{node.span.col}"
        return {"name": name, "comment": comment, "body": "\n".join(lines),
                "params": "".join(f", {p}" for p in lowered.params)}

    def class_ctx(self, cls: _Class) -> dict[str, Any]:
        node = cls.node
        attrs: list[tuple[str, str]] = []
        if isinstance(node, (ast.ValueDef, ast.ProcedureDef)):
            attrs.append(("name", repr(node.name.text)))
            doc = f"{cls.kind} {node.name.text}"
        else:
            attrs.append(("ident", repr(node.ident.text)))
            attrs.append(("name", repr(node.name.text)))
            doc = f"{cls.kind} {node.name.text} {node.ident.text}"
        span = node.span
        attrs.append(("source", repr(f"{span.file}:{span.line}")))
        if isinstance(node, ast.GeneralDef):
            refs = [self.ref(self.classes[("skill", inline_skill_key(cls.key, node.skills, i))])
                    for i in range(len(node.skills))]
            for h in node.has:
                d = self.checked.symbols.skills.get(h.text)
                if d is not None:
                    refs.append(self.ref(self.classes[("skill", d.ident.text)]))
            attrs.append(("skills", "(" + "".join(f"{r}, " for r in refs) + ")"))
        methods = []
        for name, n, site, direct in cls.methods:
            try:
                methods.append(self.method(name, n, site, direct))
            except CompileError as err:
                self.diagnostics.append(err.diagnostic)
        return {"name": cls.name, "doc": repr(doc + f" ({span.file}:{span.line})"), "attrs": attrs,
                "methods": methods}

    # ------------------------------------------------------------ entry
    def generate(self, title: str) -> Generated:
        key = source_key(self.checked, self.sources)
        self.collect_classes()
        structure = "    raise RuntimeError('not compiled')"
        try:
            program = StructureBuilder(self.checked, self.make, direct=self.direct).build()
            program.source_hash = key
            structure = _Printer().program(program)
        except CompileError as err:
            self.diagnostics.append(err.diagnostic)
        classes = [self.class_ctx(c) for c in self.classes.values() if c.link is None]
        links = sorted({(link.alias, link.module, repr(link.key), comment_path(path))
                        for path, link in self.links.items()}, key=lambda t: t[1])
        for alias, _, _, path in links:
            self.module_ns.claim(alias, f"the compiled module of {path}", None)
        self.diagnostics.extend(self.module_ns.diagnostics)
        sources = tuple((m.path, "sha256:" + hashlib.sha256(self.sources.get(m.path, "").encode()).hexdigest())
                        for m in self.checked.modules)
        header = "\n".join([
            f"# Generated by sgsdsl compile (generator {GENERATOR_VERSION}). Do not edit.",
            f"# source: {key}",
            *(f"# from: {comment_path(path)} ({digest})" for path, digest in sources),
        ])
        text = render(
            "module.py.j2", header=header, title=repr(title), generator_version=repr(GENERATOR_VERSION),
            source_key=repr(key), sources=repr(sources),
            primitives=[(py, repr(name)) for name, py in sorted(self.primitives.items())],
            direct=[(py, repr(name)) for name, py in sorted(self.direct_calls.items())], links=links,
            classes=classes, structure=structure)
        return Generated(text, key, sorted(self.diagnostics, key=lambda d: d.sort_key))


class _Printer:
    """Prints the rule-object graph as Python; shared objects (a skill two generals have) become variables."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}
        self.names: dict[int, str] = {}
        self.lines: list[str] = []
        self.keep: list[Any] = []  # keeps ids stable while printing

    def count(self, obj: Any) -> None:
        stack = [obj]
        while stack:
            o = stack.pop()
            if dataclasses.is_dataclass(o) and not isinstance(o, type) and not isinstance(o, FnSlot):
                self.counts[id(o)] = self.counts.get(id(o), 0) + 1
                self.keep.append(o)
                if self.counts[id(o)] > 1:
                    continue
                stack.extend(getattr(o, f.name) for f in dataclasses.fields(o))
            elif isinstance(o, (list, tuple)):
                stack.extend(o)
            elif isinstance(o, dict):
                for k, v in o.items():
                    stack.extend((k, v))

    def program(self, program: pg.Program) -> str:
        self.count(program)
        expr = self.value(program)
        return "\n".join([*(INDENT + line for line in self.lines), f"{INDENT}return {expr}"])

    def value(self, o: Any) -> str:
        if isinstance(o, FnSlot):
            return f"{o.cls}.{o.method}"
        if o is None or isinstance(o, (bool, int, str)):
            return literal(o)
        if isinstance(o, tuple):
            return "(" + "".join(self.value(x) + ", " for x in o) + ")"
        if isinstance(o, list):
            return "[" + ", ".join(self.value(x) for x in o) + "]"
        if isinstance(o, dict):
            return "{" + ", ".join(f"{self.value(k)}: {self.value(v)}" for k, v in o.items()) + "}"
        if isinstance(o, (frozenset, set)):
            items = sorted(self.value(x) for x in o)  # never iterate a set into output unsorted
            return "frozenset((" + "".join(i + ", " for i in items) + "))"
        if isinstance(o, range):
            return f"range({o.start}, {o.stop}, {o.step})"
        if dataclasses.is_dataclass(o) and not isinstance(o, type):
            known = self.names.get(id(o))
            if known is not None:
                return known
            cls = type(o)
            if getattr(pg, cls.__name__, None) is not cls:
                raise CompileError(Diagnostic("SGS-E503", f"cannot compile a {cls.__name__} value",
                                              Span.point("<compiler>", 1, 1)))
            args = ", ".join(f"{f.name}={self.value(getattr(o, f.name))}" for f in dataclasses.fields(o) if f.init)
            code = f"_pg.{cls.__name__}({args})"
            if self.counts.get(id(o), 0) > 1 or cls.__name__ in _HOIST:
                name = f"_o{len(self.names) + 1}"
                self.names[id(o)] = name
                self.lines.append(f"{name} = {code}")
                return name
            return code
        raise CompileError(Diagnostic("SGS-E503", f"cannot compile a {type(o).__name__} value",
                                      Span.point("<compiler>", 1, 1)))


def generate_module(checked: CheckedProgram, sources: dict[str, str], title: str = "",
                    links: dict[str, Link] | None = None) -> Generated:
    """Python source for one checked program (deterministic: same input, same bytes). LINKS: imported modules
    whose definitions are taken from their own compiled modules (`plan_links`); every other definition's code is
    generated here."""
    return ModuleGenerator(checked, sources, links).generate(title or ", ".join(m.path for m in checked.modules))
