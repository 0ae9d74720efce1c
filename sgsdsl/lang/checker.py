"""The checker: resolves every name against the program and the engine registry, checks the shapes of
definitions and reports precise diagnostics. It annotates the AST in place (`Name.ref`, `Call.ref`),
which makes the tree the checked program that the interpreter walks and the compiler lowers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import registry as reg
from . import ast
from .diagnostics import Diagnostic, Span, did_you_mean

SUIT_SYMBOLS = ("♠", "♥", "♣", "♦")
GENDERS = ("male", "female")


@dataclass
class Symbols:
    """Every definition of the program, by display name and by id."""

    cards: dict[str, ast.CardDef] = field(default_factory=dict)  # display name -> def
    card_ids: dict[str, ast.CardDef] = field(default_factory=dict)
    generals: dict[str, ast.GeneralDef] = field(default_factory=dict)
    general_ids: dict[str, ast.GeneralDef] = field(default_factory=dict)
    skills: dict[str, ast.SkillDef] = field(default_factory=dict)  # top-level skills by id and name
    modes: dict[str, ast.ModeDef] = field(default_factory=dict)
    values: dict[str, ast.ValueDef] = field(default_factory=dict)
    kingdoms: set[str] = field(default_factory=set)
    roles: set[str] = field(default_factory=set)


@dataclass
class CheckedProgram:
    modules: list[ast.Module]
    symbols: Symbols
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


class _Scope:
    def __init__(self, names: dict[str, str], parent: _Scope | None = None, kind: str = ""):
        self.names = dict(names)
        self.parent = parent
        self.kind = kind or (parent.kind if parent else "")
        self.timing: str | None = parent.timing if parent else None
        self.options: dict[str, str] = parent.options if parent else {}
        self.in_loop = parent.in_loop if parent else False

    def lookup(self, name: str) -> str | None:
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> list[str]:
        out: list[str] = []
        s: _Scope | None = self
        while s is not None:
            out.extend(s.names)
            s = s.parent
        return out

    def child(self) -> _Scope:
        return _Scope({}, self)


class Checker:
    def __init__(self, modules: list[ast.Module]):
        self.modules = modules
        self.sym = Symbols()
        self.diags: list[Diagnostic] = []

    # ------------------------------------------------------------ reporting
    def error(self, code: str, message: str, span: Span, suggestion: str | None = None,
              notes: tuple[tuple[str, Span], ...] = ()) -> None:
        self.diags.append(Diagnostic(code, message, span, "error", suggestion, notes))

    def warn(self, code: str, message: str, span: Span, suggestion: str | None = None) -> None:
        self.diags.append(Diagnostic(code, message, span, "warning", suggestion))

    def unknown(self, code: str, what: str, name: str, span: Span, candidates) -> None:
        best = did_you_mean(name, candidates)
        self.error(code, f"unknown {what} '{name}'", span, f"did you mean '{best}'?" if best else None)

    # ------------------------------------------------------------ entry
    def run(self) -> CheckedProgram:
        self.collect()
        for m in self.modules:
            for v in m.values:
                self.check_value(v)
            for c in m.cards:
                self.check_card(c)
            for s in m.skills:
                self.check_skill(s)
            for g in m.generals:
                self.check_general(g)
            for mode in m.modes:
                self.check_mode(mode)
        self.diags.sort(key=lambda d: d.sort_key)
        return CheckedProgram(self.modules, self.sym, self.diags)

    def _define(self, table: dict, key: str, node: ast.Node, what: str, span: Span) -> None:
        if key in table:
            prev = table[key]
            self.error("SGS-E201", f"{what} '{key}' is defined twice", span,
                       notes=(("first definition", prev.span),))
        else:
            table[key] = node

    def collect(self) -> None:
        for m in self.modules:
            for c in m.cards:
                self._define(self.sym.cards, c.name.text, c, "card", c.name.span)
                self._define(self.sym.card_ids, c.ident.text, c, "card id", c.ident.span)
            for g in m.generals:
                self._define(self.sym.generals, g.name.text, g, "general", g.name.span)
                self._define(self.sym.general_ids, g.ident.text, g, "general id", g.ident.span)
                self.sym.kingdoms.add(g.kingdom.text)
            for s in m.skills:
                self._define(self.sym.skills, s.ident.text, s, "skill", s.ident.span)
                if s.name.text != s.ident.text:
                    self._define(self.sym.skills, s.name.text, s, "skill", s.name.span)
            for mode in m.modes:
                self._define(self.sym.modes, mode.ident.text, mode, "mode", mode.ident.span)
                for r in mode.roles:
                    self.sym.roles.update(i.text for i in r.roles)
            for v in m.values:
                if v.name.text in reg.ENGINE_VALUES:
                    spec = reg.ENGINE_VALUES[v.name.text]
                    if len(v.params) != len(spec.params):
                        self.error("SGS-E304", f"value '{v.name.text}' takes {len(spec.params)} parameters "
                                   f"({', '.join(spec.params)}), not {len(v.params)}", v.name.span)
                if v.name.text in reg.PRIMITIVES:
                    self.error("SGS-E202", f"value '{v.name.text}' has the name of a built-in function",
                               v.name.span, "choose another name")
                self._define(self.sym.values, v.name.text, v, "value", v.name.span)
        for g in (d for m in self.modules for d in m.generals):
            for i in (g.ident, g.name):
                if not i.text.isascii() and i is g.ident:
                    self.error("SGS-E208", f"the id '{i.text}' must be ASCII", i.span,
                               "write the Chinese name first and an ASCII id second")
        for d in (x for m in self.modules for x in [*m.cards, *m.skills, *m.modes]):
            if not d.ident.text.isascii():
                self.error("SGS-E208", f"the id '{d.ident.text}' must be ASCII", d.ident.span,
                           "write the Chinese name first and an ASCII id second")

    # ------------------------------------------------------------ definitions
    def check_value(self, v: ast.ValueDef) -> None:
        names = {}
        for p in v.params:
            names[p.name.text] = p.type.text
        scope = _Scope(names, kind="value")
        self.expr(v.expr, scope)
        for b in (v.lower, v.upper):
            if b is not None:
                self.expr(b, scope)

    def check_card(self, c: ast.CardDef) -> None:
        cat = c.category.text
        if cat not in reg.CARD_CATEGORIES:
            self.unknown("SGS-E208", "card category", cat, c.category.span, reg.CARD_CATEGORIES)
        if not c.copies:
            self.warn("SGS-W401", f"card '{c.name.text}' has no copies, so it is never in the deck", c.name.span,
                      "add a line such as: copies ♠7 ♥10")
        if c.attack_range is not None and cat != "weapon":
            self.error("SGS-E209", f"only weapons have a range; '{c.name.text}' is {cat}", c.span)
        if c.nature is not None and c.nature.text not in ("normal", "fire", "thunder"):
            self.unknown("SGS-E208", "damage nature", c.nature.text, c.nature.span, ["normal", "fire", "thunder"])
        if c.family is not None and c.family.text not in self.sym.cards:
            self.unknown("SGS-E202", "card", c.family.text, c.family.span, self.sym.cards)
        for name, block in c.hooks:
            if name.text not in reg.CARD_HOOKS:
                self.unknown("SGS-E208", "card hook", name.text, name.span, reg.CARD_HOOKS)
            self.block(block, _Scope(reg.SCOPE_NAMES["card_hook"], kind="card_hook"))
        if cat in ("basic", "trick", "delayed") and not c.uses and c.effect is None and c.family is None:
            pass  # a card only ever given in response (e.g. a dodge) needs neither
        for u in c.uses:
            if u.context.text not in reg.USE_CONTEXTS:
                self.unknown("SGS-E208", "use context", u.context.text, u.context.span, reg.USE_CONTEXTS)
            if u.limit is not None:
                self.limit(u.limit, _Scope(reg.SCOPE_NAMES["use_limit"], kind="use_limit"))
            if u.where is not None:
                self.expr(u.where, _Scope(reg.SCOPE_NAMES["use_filter"], kind="use_filter"))
            if u.target is not None and u.target.kind == "range" and u.target.low > u.target.high:
                self.error("SGS-E209", f"target range {u.target.low}..{u.target.high} is empty", u.target.span)
            if u.body is not None:
                self.block(u.body, _Scope(reg.SCOPE_NAMES["effect"], kind="effect"))
        if c.effect is not None:
            self.block(c.effect, _Scope(reg.SCOPE_NAMES["effect"], kind="effect"))
        for s in c.skills:
            self.check_skill(s)

    def limit(self, lim: ast.Limit, scope: _Scope) -> None:
        self.expr(lim.count, scope)
        if lim.scope.text not in reg.LIMIT_SCOPES:
            self.unknown("SGS-E208", "limit scope", lim.scope.text, lim.scope.span, reg.LIMIT_SCOPES)

    def check_general(self, g: ast.GeneralDef) -> None:
        if g.gender.text not in GENDERS:
            self.unknown("SGS-E208", "gender", g.gender.text, g.gender.span, GENDERS)
        if not 1 <= g.hp <= 20:
            self.error("SGS-E209", f"HP {g.hp} is out of range (1 to 20)", g.span)
        for s in g.skills:
            self.check_skill(s)
        for h in g.has:
            if h.text not in self.sym.skills:
                self.unknown("SGS-E202", "skill", h.text, h.span, self.sym.skills)

    def check_skill(self, s: ast.SkillDef) -> None:
        for f in s.flags:
            if f.text not in reg.SKILL_FLAGS:
                self.unknown("SGS-E208", "skill flag", f.text, f.span, reg.SKILL_FLAGS)
        for t in s.triggers:
            self.trigger(t, "trigger")
        for a in s.actives:
            scope = _Scope(reg.SCOPE_NAMES["active"], kind="active")
            if a.limit is not None:
                self.limit(a.limit, scope)
            if a.where is not None:
                self.expr(a.where, scope)
            self.block(a.body, scope.child())
        for va in s.view_as:
            self.card_ref(va.card)
            if va.source.text not in reg.VIEW_SOURCES:
                self.unknown("SGS-E208", "card source", va.source.text, va.source.span, reg.VIEW_SOURCES)
            if va.count < 1:
                self.error("SGS-E209", "a conversion needs at least one card", va.span)
            if va.where is not None:
                self.expr(va.where, _Scope(reg.SCOPE_NAMES["view_filter"], kind="view_filter"))
        for p in s.provides:
            self.card_ref(p.card)
            scope = _Scope(reg.SCOPE_NAMES["provide"], kind="provide")
            if p.where is not None:
                self.expr(p.where, scope)
            self.block(p.body, scope.child())
        for m in s.modifiers:
            self.modifier(m)

    def card_ref(self, ident: ast.Ident) -> ast.CardDef | None:
        d = self.sym.cards.get(ident.text) or self.sym.card_ids.get(ident.text)
        if d is None:
            self.unknown("SGS-E202", "card", ident.text, ident.span, self.sym.cards)
        return d

    def modifier(self, m: ast.Modifier) -> None:
        q = m.quantity.text
        if q in reg.ENGINE_VALUES:
            spec = reg.ENGINE_VALUES[q]
            types = spec.param_types
        elif q in self.sym.values:
            v = self.sym.values[q]
            types = tuple(p.type.text for p in v.params)
        else:
            self.unknown("SGS-E203", "value to modify", q, m.quantity.span,
                         list(reg.ENGINE_VALUES) + list(self.sym.values))
            return
        if len(m.params) != len(types):
            self.error("SGS-E204", f"'{q}' has {len(types)} parameters, the modifier names {len(m.params)}",
                       m.quantity.span)
        names = dict(reg.SCOPE_NAMES["modifier"])
        for p, t in zip(m.params, types, strict=False):
            names[p.text] = t
        scope = _Scope(names, kind="modifier")
        self.expr(m.value, scope)
        if m.where is not None:
            self.expr(m.where, scope)

    def trigger(self, t: ast.Trigger, kind: str) -> None:
        if t.timing.text not in reg.TIMINGS:
            self.unknown("SGS-E205", "timing", t.timing.text, t.timing.span, reg.TIMINGS)
        scope = _Scope(reg.SCOPE_NAMES["mode_trigger" if kind == "mode" else "trigger"], kind=kind)
        scope.timing = t.timing.text if t.timing.text in reg.TIMINGS else None
        if kind == "mode":
            scope.options = self._mode_options
        if t.where is not None:
            self.expr(t.where, scope)
        self.block(t.body, scope.child())

    def check_mode(self, m: ast.ModeDef) -> None:
        self._mode_options = {o.name.text: "any" for o in m.options}
        opt_scope = _Scope({}, kind="option")
        for o in m.options:
            self.expr(o.default, opt_scope)
        if m.players is None:
            self.error("SGS-E209", f"mode '{m.name.text}' does not say how many players it is for", m.name.span,
                       "add a line such as: players 4..10")
        elif m.players[0] > m.players[1] or m.players[0] < 2:
            self.error("SGS-E209", f"player range {m.players[0]}..{m.players[1]} is not valid", m.players_span or m.span)
        scope = _Scope({}, kind="setup")
        scope.options = self._mode_options
        counts = set()
        for r in m.roles:
            if r.condition is not None:
                self.expr(r.condition, scope)
            else:
                counts.add(r.players)
            if len(r.roles) != r.players:
                self.error("SGS-E209", f"roles for {r.players} players list {len(r.roles)} roles", r.span)
        if m.players is not None and m.roles:
            for n in range(m.players[0], m.players[1] + 1):
                if n not in counts:
                    self.error("SGS-E209", f"mode '{m.name.text}' has no roles for {n} players", m.span)
        if m.leader is not None and m.leader.text not in self.sym.roles:
            self.unknown("SGS-E202", "role", m.leader.text, m.leader.span, self.sym.roles)
        if m.setup is not None:
            self.block(m.setup, scope.child())
        for t in m.triggers:
            self.trigger(t, "mode")
        for w in m.wins:
            for r in w.roles:
                if r.text not in self.sym.roles:
                    self.unknown("SGS-E202", "role", r.text, r.span, self.sym.roles)
            self.expr(w.condition, scope.child())

    # ------------------------------------------------------------ statements
    def block(self, b: ast.Block, scope: _Scope) -> None:
        for s in b.stmts:
            self.stmt(s, scope)

    def stmt(self, s: ast.Stmt, scope: _Scope) -> None:
        if isinstance(s, ast.Let):
            t = self.expr(s.value, scope)
            scope.names[s.name.text] = t or "any"
        elif isinstance(s, ast.If):
            self.expr(s.test, scope)
            self.block(s.body, scope.child())
            if s.orelse is not None:
                self.block(s.orelse, scope.child())
        elif isinstance(s, ast.For):
            t = self.expr(s.iterable, scope)
            inner = scope.child()
            inner.in_loop = True
            inner.names[s.var.text] = _element(t)
            self.block(s.body, inner)
        elif isinstance(s, (ast.While, ast.Repeat)):
            self.expr(s.test if isinstance(s, ast.While) else s.count, scope)
            inner = scope.child()
            inner.in_loop = True
            self.block(s.body, inner)
        elif isinstance(s, ast.Assign):
            self.assign(s, scope)
        elif isinstance(s, ast.CallStmt):
            self.expr(s.call, scope)
        elif isinstance(s, ast.Break):
            if not scope.in_loop:
                self.error("SGS-E209", "'break' outside a loop", s.span, "use 'stop' to end the whole effect")

    def assign(self, s: ast.Assign, scope: _Scope) -> None:
        target = s.target
        obj_type = self.expr(target.obj, scope)
        self.expr(s.value, scope)
        field_name = target.name.text
        if obj_type and obj_type.startswith("event:"):
            tm = reg.TIMINGS.get(obj_type[6:])
            if tm is not None and field_name not in tm.mutable:
                what = f"the {field_name} of a {tm.name} event cannot be changed"
                hint = f"changeable here: {', '.join(sorted(tm.mutable))}" if tm.mutable else "nothing is changeable here"
                self.error("SGS-E302", what, target.name.span, hint)
        elif obj_type in reg.ATTRIBUTES:
            self.error("SGS-E302", f"the {field_name} of a {obj_type} cannot be assigned", target.name.span,
                       "use an action such as damage, recover or set_max_hp")

    # ------------------------------------------------------------ expressions
    def expr(self, e: ast.Expr, scope: _Scope) -> str | None:
        """Resolve names in e; return its type when known."""
        if isinstance(e, ast.Lit):
            return {"int": "int", "str": "str", "bool": "bool", "none": "none", "suit": "suit",
                    "face": "face"}[e.kind]
        if isinstance(e, ast.Name):
            return self.name(e, scope)
        if isinstance(e, ast.Attr):
            return self.attr(e, scope)
        if isinstance(e, ast.Call):
            return self.call(e, scope)
        if isinstance(e, ast.BinOp):
            lt = self.expr(e.left, scope)
            self.expr(e.right, scope)
            if e.op in ("+", "-", "*"):
                return lt if lt in ("int", "list", "players", "cards") else None
            return "bool"
        if isinstance(e, ast.Unary):
            self.expr(e.operand, scope)
            return "bool" if e.op == "not" else "int"
        if isinstance(e, ast.IsFamily):
            self.expr(e.operand, scope)
            d = self.card_ref(e.family)
            return "bool" if d else "bool"
        if isinstance(e, ast.RangeLit):
            self.expr(e.low, scope)
            self.expr(e.high, scope)
            return "range"
        if isinstance(e, ast.ListLit):
            types = {self.expr(i, scope) for i in e.items}
            return "list"
        if isinstance(e, ast.CondExpr):
            self.expr(e.test, scope)
            a = self.expr(e.then, scope)
            b = self.expr(e.orelse, scope)
            return a if a == b else None
        return None

    def name(self, e: ast.Name, scope: _Scope) -> str | None:
        n = e.ident
        t = scope.lookup(n)
        if t is not None:
            e.ref = ("local", n)
            if n == "event" and scope.timing:
                return "event:" + scope.timing
            return t
        if n in scope.options:
            e.ref = ("option", n)
            return "any"
        if n in reg.CONSTANTS:
            typ, value = reg.CONSTANTS[n]
            e.ref = ("const", value)
            return typ
        if n in self.sym.cards or n in self.sym.card_ids:
            d = self.sym.cards.get(n) or self.sym.card_ids[n]
            e.ref = ("card", d.name.text)
            return "family"
        if n in self.sym.generals or n in self.sym.general_ids:
            d = self.sym.generals.get(n) or self.sym.general_ids[n]
            e.ref = ("general", d.ident.text)
            return "general"
        if n in self.sym.roles:
            e.ref = ("const", n)
            return "role"
        if n in self.sym.kingdoms:
            e.ref = ("const", n)
            return "kingdom"
        pool = (scope.all_names() + list(scope.options) + list(reg.CONSTANTS) + list(self.sym.cards)
                + list(self.sym.generals) + list(self.sym.roles) + list(self.sym.kingdoms))
        hint = None
        if n in reg.TIMINGS or n in reg.PRIMITIVES or n in self.sym.values:
            hint = f"'{n}' is a function or timing; call it with (…)"
        best = did_you_mean(n, pool)
        self.error("SGS-E202", f"unknown name '{n}'", e.span, hint or (f"did you mean '{best}'?" if best else None))
        return None

    def attr(self, e: ast.Attr, scope: _Scope) -> str | None:
        t = self.expr(e.obj, scope)
        field_name = e.name.text
        if t is None or t in ("any", "item"):
            return None
        if t.startswith("event:"):
            tm = reg.TIMINGS[t[6:]]
            if field_name == "cancelled":
                return "bool"
            if field_name not in tm.fields:
                self.unknown("SGS-E206", f"field of a {tm.name} event", field_name, e.name.span, tm.fields)
                return None
            return tm.fields[field_name]
        if t == "event":
            return None
        attrs = reg.ATTRIBUTES.get(t)
        if attrs is None:
            if t in ("int", "bool", "str", "suit", "color", "nature", "phase", "role", "kingdom", "gender"):
                self.error("SGS-E207", f"a {t} has no field '{field_name}'", e.name.span)
            return None
        if field_name not in attrs:
            self.unknown("SGS-E207", f"field of a {t}", field_name, e.name.span, attrs)
            return None
        return attrs[field_name][0]

    def call(self, e: ast.Call, scope: _Scope) -> str | None:
        fname = e.func.text
        for a in e.args:
            self.expr(a, scope)
        for _, v in e.kwargs:
            self.expr(v, scope)
        if fname in self.sym.values or fname in reg.ENGINE_VALUES:
            e.ref = "value"
            if fname in self.sym.values:
                params = [p.name.text for p in self.sym.values[fname].params]
                typ = None
            else:
                params = list(reg.ENGINE_VALUES[fname].params)
                typ = reg.ENGINE_VALUES[fname].type
            if e.kwargs:
                self.error("SGS-E204", f"value '{fname}' takes positional arguments only", e.kwargs[0][0].span)
            if len(e.args) != len(params):
                self.error("SGS-E204", f"'{fname}' takes {len(params)} arguments ({', '.join(params)}), "
                           f"got {len(e.args)}", e.func.span)
            return typ
        prim = reg.PRIMITIVES.get(fname)
        if prim is None:
            pool = list(reg.PRIMITIVES) + list(self.sym.values) + list(reg.ENGINE_VALUES)
            self.unknown("SGS-E203", "function", fname, e.func.span, pool)
            return None
        e.ref = prim.kind
        if prim.kind == "action" and scope.kind in ("use_filter", "use_limit", "view_filter", "modifier", "value",
                                                     "option", "win"):
            self.error("SGS-E303", f"'{fname}' changes the game and cannot be used in a condition or value",
                       e.func.span, "move it into an effect block")
        required = [p for p in prim.params if p.required]
        if len(e.args) > len(prim.params):
            self.error("SGS-E204", f"'{fname}' takes at most {len(prim.params)} arguments, got {len(e.args)}",
                       e.func.span, _signature(prim))
        given = {p.name for p in prim.params[: len(e.args)]}
        names = {p.name for p in prim.params}
        for k, _ in e.kwargs:
            if k.text not in names:
                self.unknown("SGS-E204", f"argument of '{fname}'", k.text, k.span, names)
            elif k.text in given:
                self.error("SGS-E204", f"argument '{k.text}' of '{fname}' is given twice", k.span)
            given.add(k.text)
        missing = [p.name for p in required if p.name not in given]
        if missing:
            self.error("SGS-E204", f"'{fname}' is missing {', '.join(missing)}", e.func.span, _signature(prim))
        return prim.returns if prim.returns not in ("none", "item") else None


def _element(t: str | None) -> str:
    return {"players": "player", "cards": "card"}.get(t or "", "any")


def _signature(prim: reg.Primitive) -> str:
    parts = [p.name if p.required else f"{p.name}: …" for p in prim.params]
    return f"{prim.name}({', '.join(parts)})"


def check(modules: list[ast.Module]) -> CheckedProgram:
    return Checker(modules).run()

