"""The checker: resolves every name against the program and the engine registry, checks the shapes and
types of definitions and reports precise diagnostics. It annotates the AST in place (`Name.ref`,
`Call.ref`), which makes the tree the checked program that the interpreter walks and the compiler lowers.

Every table here is derived from `sgsdsl.engine.registry` (timings, primitives, engine values,
attributes, constants, scope names): a primitive added there is known here without an edit.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import registry as reg
from . import ast, cancel
from .ast_walk import calls_in
from .cancel import CheckCancelled  # noqa: F401 - re-exported (the language server catches it)
from .check_body import BodyChecker, _counts
from .diagnostics import Span, did_you_mean, reset_suggestions
from .intent import AIMING_WORDS, Lexicon, infer_choice_words, infer_skill_words, skill_readings, unread_choices
from .scope import CheckedProgram, Symbols, _Scope  # noqa: F401 - re-exported
from .types import _UNKNOWN, GENDERS, NATURES, assignable, registry_types

MAX_SEATS = 100  # the most seats a mode may be for (docs/language.md, Limits)


MAX_DECK_CARDS = 2000  # copies of all cards together (docs/language.md, Limits)
MAX_PROCEDURE_DEPTH = 32  # procedure calls inside procedure calls (each is a nested run of the engine)


class Checker(BodyChecker):
    """Definitions, modes and the program as a whole (rule bodies: `BodyChecker`)."""

    # ------------------------------------------------------------ entry
    def poll(self) -> None:
        """Between definitions: stop if the work was cancelled (`cancel`; statements and expressions tick too)."""
        cancel.poll()

    def run(self) -> CheckedProgram:
        self.collect()
        for m in self.modules:  # values first: their types are needed where they are called
            for v in m.values:
                self.poll()
                self.check_value(v)
        for m in self.modules:
            for mc in m.more_copies:
                self.check_more_copies(mc, m)
        for m in self.modules:
            for pr in m.procedures:
                self.check_procedure(pr)
        self.procedure_cycles()
        for m in self.modules:
            self.poll()
            for c in m.cards:
                self.poll()
                self.check_card(c)
            for r in m.rules:
                for t in r.triggers:
                    self.trigger(t, "rule")
            for s in m.skills:
                self.poll()
                self.check_skill(s)
            for g in m.generals:
                self.poll()
                self.check_general(g)
            for mode in m.modes:
                self.check_mode(mode)
        self.never_fires()
        self.deck_size()
        if not any(d.severity == "error" for d in self.diags):  # (the reading needs every name resolved)
            self.unread_choices()
        self.diags.sort(key=lambda d: d.sort_key)
        return CheckedProgram(self.modules, self.sym, self.diags)

    def deck_size(self) -> None:
        """Every copy of every card is a card object in each game (shuffled, dealt, hashed at each decision of a
        recorded game): the whole deck has at most MAX_DECK_CARDS."""
        total = 0
        for m in self.modules:
            for c in m.cards:
                total += len(c.copies)
                if total > MAX_DECK_CARDS:
                    self.error("SGS-E241", f"the deck holds more than {MAX_DECK_CARDS} cards", c.name.span,
                               "a deck is a few hundred cards; remove copies")
                    return
            total += sum(len(mc.faces) for mc in m.more_copies)

    def _define(self, table: dict, key: str, node: ast.Node, what: str, span: Span) -> None:
        if key in table:
            prev = table[key]
            where = prev.name.span if isinstance(prev, ast.Definition | ast.ValueDef) else prev.span
            self.error("SGS-E201", f"{what} '{key}' is defined twice", span,
                       "rename one of them, or remove the copy", notes=(("first definition", where),))
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
                self.sym.kingdoms.update(k.text for k in g.kingdoms or [g.kingdom])
            for s in m.skills:
                self._define(self.sym.skills, s.ident.text, s, "skill", s.ident.span)
                if s.name.text != s.ident.text:
                    self._define(self.sym.skills, s.name.text, s, "skill", s.name.span)
            for mode in m.modes:
                self._define(self.sym.modes, mode.ident.text, mode, "mode", mode.ident.span)
                for r in mode.roles:
                    self.sym.roles.update(i.text for i in r.roles)
                self._replacing.update(r.by.text for r in mode.replacements if r.by is not None)
            for v in m.values:
                self._define(self.sym.values, v.name.text, v, "value", v.name.span)
            for pr in m.procedures:
                self._define(self.sym.procedures, pr.name.text, pr, "procedure", pr.name.span)
                if pr.name.text in reg.PRIMITIVES or pr.name.text in self.sym.values:
                    self.error("SGS-E201", f"procedure '{pr.name.text}' has the name of a function or value",
                               pr.name.span, "choose another name")
            for rule in m.rules:
                self._define(self.sym.rules, rule.ident.text, rule, "rule", rule.ident.span)
                if rule.name.text != rule.ident.text:
                    self._define(self.sym.rules, rule.name.text, rule, "rule", rule.name.span)
        # the order the engine looks skills up in (Program.skill_named): top-level, generals' and cards' by id
        gens = sorted((g for m in self.modules for g in m.generals), key=lambda g: g.ident.text)
        cards = sorted((c for m in self.modules for c in m.cards), key=lambda c: c.ident.text)
        for s in [*(s for m in self.modules for s in m.skills), *(s for g in gens for s in g.skills),
                  *(s for c in cards for s in c.skills)]:
            self.sym.any_skills.setdefault(s.ident.text, s)
            self.sym.any_skills.setdefault(s.name.text, s)
        for d in (x for m in self.modules for x in [*m.cards, *m.generals, *m.skills, *m.modes, *m.rules]):
            self.ascii_id(d)
            for s in getattr(d, "skills", []):
                self.ascii_id(s)
        declared = [name for m in self.modules for decl in m.kingdoms for name in decl.names]
        for k in declared:
            self.declare_kingdom(k)
        if declared:
            self.generals_kingdoms_declared(list(dict.fromkeys(k.text for k in declared)))

    def generals_kingdoms_declared(self, declared: list[str]) -> None:
        """Once a program declares its kingdoms (`kingdom 魏 蜀 吴 群`, as the bundled rules do), a general's kingdom
        must be one of them: `: 晋国` misspelt or invented is an error, not a new faction made in silence."""
        for g in (g for m in self.modules for g in m.generals):
            for k in g.kingdoms or [g.kingdom]:
                if k.text in declared:
                    continue
                best = did_you_mean(k.text, declared)
                self.error("SGS-E234", f"unknown kingdom '{k.text}'", k.span,
                           f"did you mean '{best}'?" if best else
                           f"the kingdoms are {' '.join(declared)}; a new one is declared with "
                           f"`kingdom {k.text}`")

    def declare_kingdom(self, k: ast.Ident) -> None:
        """`kingdom 神`: a name rules may use as a kingdom. It must not already name a card, general, skill or role
        (a name means one thing: the checker resolves cards first). Declaring one twice, or one a general has, is
        harmless."""
        for table, what in ((self.sym.cards, "card"), (self.sym.card_ids, "card"), (self.sym.generals, "general"),
                            (self.sym.general_ids, "general"), (self.sym.any_skills, "skill")):
            if k.text in table:
                self.error("SGS-E219", f"kingdom '{k.text}' has the name of a {what}", k.span,
                           "choose another name for the kingdom")
                return
        if k.text in self.sym.roles:
            self.error("SGS-E219", f"kingdom '{k.text}' has the name of a role", k.span,
                       "choose another name for the kingdom")
            return
        self.sym.kingdoms.add(k.text)

    def ascii_id(self, d: ast.Definition) -> None:
        if not d.ident.text.isascii():
            self.error("SGS-E211", f"the id '{d.ident.text}' must be ASCII", d.ident.span,
                       "write the Chinese name first and an ASCII id second, e.g. card 杀 sha")

    # ------------------------------------------------------------ definitions
    def param_types(self, params: list[ast.Param]) -> dict[str, str]:
        """The names a value's or procedure's parameters bind, by type (unknown types reported)."""
        known_types = registry_types()
        names = {}
        for p in params:
            if p.type.text not in known_types:
                self.unknown("SGS-E212", "type", p.type.text, p.type.span, known_types)
            names[p.name.text] = p.type.text
        return names

    def check_value(self, v: ast.ValueDef) -> None:
        names = self.param_types(v.params)
        spec = reg.ENGINE_VALUES.get(v.name.text)
        if spec is not None:
            declared = tuple(p.type.text for p in v.params)
            if len(v.params) != len(spec.params) or any(
                    not assignable(want, got) for want, got in zip(spec.param_types, declared, strict=False)):
                shape = ", ".join(f"{n}: {t}" for n, t in zip(spec.params, spec.param_types, strict=True))
                self.error("SGS-E304", f"the engine value '{v.name.text}' takes ({shape})", v.name.span,
                           f"write: value {v.name.text}({shape}) = …")
        if v.name.text in reg.PRIMITIVES and spec is None:
            self.error("SGS-E201", f"value '{v.name.text}' has the name of a built-in function",
                       v.name.span, "choose another name")
        scope = _Scope(names, kind="value", pure=True)
        t = self.expr(v.expr, scope)
        self._value_types[v.name.text] = t if t not in _UNKNOWN else (spec.type if spec else None)
        for b in (v.lower, v.upper):
            if b is not None:
                self.expect(b, "int", scope, "a bound")

    def check_procedure(self, pr: ast.ProcedureDef) -> None:
        """A procedure's body sees only its parameters (typed like a value's) and may use actions."""
        self.block(pr.body, _Scope(self.param_types(pr.params), kind="procedure"))

    def procedure_cycles(self) -> None:
        """A procedure that calls itself, directly or through others, might never end: SGS-E232."""
        calls: dict[str, list[str]] = {}
        for name, pr in self.sym.procedures.items():
            calls[name] = [c.func.text for c in calls_in(pr.body) if c.ref == "procedure"]  # set by the body check
        reported: set[str] = set()
        for start, pr in self.sym.procedures.items():
            stack, seen = list(calls[start]), set()
            while stack:
                n = stack.pop()
                if n == start:
                    if start not in reported:
                        reported.add(start)
                        self.error("SGS-E232", f"procedure '{start}' calls itself (directly or through other "
                                   "procedures), so it might never end", pr.name.span,
                                   "use a loop (for, repeat, while) inside one procedure instead")
                    break
                if n not in seen:
                    seen.add(n)
                    stack.extend(calls.get(n, []))
        if not reported:
            self.procedure_depth(calls)

    def procedure_depth(self, calls: dict[str, list[str]]) -> None:
        """Calls nest at most MAX_PROCEDURE_DEPTH deep (the call graph has no cycle here): SGS-E233."""
        depth: dict[str, int] = {}
        for name in calls:  # leaves first, without recursion: a procedure's depth once all it calls have theirs
            stack = [name]
            while stack:
                n = stack[-1]
                todo = [c for c in calls[n] if c not in depth]
                if todo:
                    stack.extend(todo)
                    continue
                stack.pop()
                depth[n] = 1 + max((depth[c] for c in calls[n]), default=0)
        for name, pr in self.sym.procedures.items():
            if depth[name] > MAX_PROCEDURE_DEPTH:
                self.error("SGS-E233", f"procedure '{name}' calls procedures {depth[name]} deep (at most "
                           f"{MAX_PROCEDURE_DEPTH})", pr.name.span, "call fewer procedures inside one another")
                return

    def check_more_copies(self, mc: ast.MoreCopies, module: ast.Module) -> None:
        """`copies NAME …` at the top level: the card must exist, and be defined in another file (an expansion
        adds copies to a card it imports; a card of this file lists all its faces in its own `copies`)."""
        d = self.card_name(mc.card, "card")
        if d is None:
            return
        self.sym.more_copies[d.ident.text] = self.sym.more_copies.get(d.ident.text, 0) + len(mc.faces)
        if any(c is d for c in module.cards):
            self.error("SGS-E213", f"'{d.name.text}' is defined in this file: write these faces in its own `copies` "
                       "line", mc.span, f"move them into card {d.name.text}'s `copies`",
                       notes=(("the card", d.name.span),))

    def check_card(self, c: ast.CardDef) -> None:
        cat = c.category.text
        if cat not in reg.CARD_CATEGORIES:
            self.unknown("SGS-E208", "card category", cat, c.category.span, reg.CARD_CATEGORIES)
        if (not c.copies and not self.sym.more_copies.get(c.ident.text)
                and c.name.text not in self._replacing and c.ident.text not in self._replacing):
            self.warn("SGS-W401", f"card '{c.name.text}' has no copies, so it is never in the deck", c.name.span,
                      "add a line such as: copies ♠7 ♥10")
        if c.attack_range is not None and cat != "weapon":
            self.error("SGS-E209", f"only weapons have a range; '{c.name.text}' is {cat}", c.category.span)
        if c.nature is not None and c.nature.text not in NATURES:
            self.unknown("SGS-E208", "damage nature", c.nature.text, c.nature.span, NATURES)
        if c.family is not None and c.family.text not in self.sym.cards:
            self.card_name(c.family, "card")
        for name, block in c.hooks:
            if name.text not in reg.CARD_HOOKS:
                self.unknown("SGS-E208", "card hook", name.text, name.span, reg.CARD_HOOKS)
            self.block(block, _Scope(reg.SCOPE_NAMES["card_hook"], kind="card_hook"))
        for u in c.uses:
            if u.context.text not in reg.USE_CONTEXTS:
                self.unknown("SGS-E208", "use context", u.context.text, u.context.span, reg.USE_CONTEXTS)
            if u.limit is not None:
                self.limit(u.limit, _Scope(reg.SCOPE_NAMES["use_limit"], kind="use_limit", pure=True))
            if u.where is not None:
                self.condition(u.where, _Scope(reg.SCOPE_NAMES["use_filter"], kind="use_filter", pure=True),
                               f"card '{c.name.text}' can never be used this way")
            if u.target is not None and u.target.kind == "range" and u.target.low > u.target.high:
                self.error("SGS-E209", f"target range {u.target.low}..{u.target.high} is empty", u.target.span)
            if u.body is not None:
                self.block(u.body, _Scope(reg.SCOPE_NAMES["effect"], kind="effect"))
        if c.effect is not None:
            self.block(c.effect, _Scope(reg.SCOPE_NAMES["effect"], kind="effect"))
        for s in c.skills:
            self.check_skill(s)
        self.hint_tags(c.tags)

    def hint_tags(self, tags: list[ast.Ident]) -> None:
        """Tags are free labels, but one that is a near miss of an AI hint word is almost surely a typo."""
        for t in tags:
            if t.text in reg.AI_HINTS:
                continue
            best = did_you_mean(t.text, reg.AI_HINTS)
            if best is not None:
                self.warn("SGS-W406", f"tag '{t.text}' is not an AI hint word, so agents ignore it", t.span,
                          f"did you mean '{best}'?")

    def limit(self, lim: ast.Limit, scope: _Scope) -> None:
        self.expect(lim.count, "int", scope, "a limit")
        if lim.scope.text not in reg.LIMIT_SCOPES:
            self.unknown("SGS-E208", "limit scope", lim.scope.text, lim.scope.span, reg.LIMIT_SCOPES)

    def check_general(self, g: ast.GeneralDef) -> None:
        if g.gender.text not in GENDERS:
            self.unknown("SGS-E208", "gender", g.gender.text, g.gender.span, GENDERS)
        if not 1 <= g.hp <= 20:
            self.error("SGS-E209", f"HP {g.hp} is out of range (1 to 20)", g.gender.span,
                       "the number after the gender is the general's HP")
        for s in g.skills:
            self.check_skill(s)
        for h in g.has:
            if h.text not in self.sym.skills:
                self.unknown("SGS-E202", "skill", h.text, h.span, self.sym.skills)

    def check_skill(self, s: ast.SkillDef) -> None:
        for f in s.flags:
            if f.text not in reg.SKILL_FLAGS:
                self.unknown("SGS-E208", "skill flag", f.text, f.span, reg.SKILL_FLAGS)
        self.check_awakening(s)
        for t in s.triggers:
            self.trigger(t, "trigger")
        for a in s.actives:
            kind = "granted" if a.granted else "active"
            scope = _Scope(reg.SCOPE_NAMES[kind], kind=kind)
            if a.limit is not None:
                self.limit(a.limit, scope.child(pure=True))
            if a.where is not None:
                self.condition(a.where, scope.child(pure=True), f"skill '{s.name.text}' can never be used")
            self.block(a.body, scope.child())
        for va in s.view_as:
            if va.card.text in reg.VIEW_CATEGORIES and va.card.text not in self.sym.cards \
                    and va.card.text not in self.sym.card_ids:
                pass  # a declaration of any card of the category (face down)
            elif self.card_ref(va.card):
                self._reachability.append((va.card, "converts cards into"))
            if va.source.text not in reg.VIEW_SOURCES:
                self.unknown("SGS-E208", "card source", va.source.text, va.source.span, reg.VIEW_SOURCES)
            if va.count < 0:
                self.error("SGS-E209", "a conversion needs 0 or more cards", va.span)
            if va.where is not None:
                self.condition(va.where, _Scope(reg.SCOPE_NAMES["view_filter"], kind="view_filter", pure=True),
                               "this conversion never accepts a card")
        for p in s.provides:
            if self.card_ref(p.card):
                self._reachability.append((p.card, "provides"))
            scope = _Scope(reg.SCOPE_NAMES["provide"], kind="provide")
            if p.where is not None:
                self.condition(p.where, scope.child(pure=True), "this provider never supplies a card")
            self.block(p.body, scope.child())
        for m in s.modifiers:
            self.modifier(m)
        self.hint_tags(s.tags)

    def check_awakening(self, s: ast.SkillDef) -> None:
        """An awakening skill (觉醒技) fires by itself when its condition holds: triggers only, none optional."""
        if not s.has_flag("awakening"):
            return
        others = [*s.actives, *s.view_as, *s.provides]
        if not s.triggers:
            self.error("SGS-E230", f"awakening skill '{s.name.text}' has no trigger, so it can never awaken",
                       s.name.span, "give it `on TIMING where CONDITION { … }` (e.g. on phase_start where …)")
        for t in s.triggers:
            if t.optional:
                self.error("SGS-E230", f"awakening skill '{s.name.text}' fires by itself: its trigger cannot be "
                           "`optional`", t.span, "drop `optional`; write the condition after `where`")
        for m in others:
            self.error("SGS-E230", f"awakening skill '{s.name.text}' can only have triggers (it is not used, it "
                       "awakens)", m.span, "move this member into another skill, or make it a `limited` skill")

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
            vtype: str | None = spec.type
        elif q in self.sym.values:
            v = self.sym.values[q]
            types = tuple(p.type.text for p in v.params)
            vtype = self._value_types.get(q)
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
        scope = _Scope(names, kind="modifier", pure=True)
        if m.op == "by":
            self.expect(m.value, "int", scope, f"'modify {q} by'")
        else:
            self.expect(m.value, vtype, scope, f"'modify {q} to'")
        if m.where is not None:
            self.condition(m.where, scope, "this modifier never applies")

    def trigger(self, t: ast.Trigger, kind: str) -> None:
        if t.timing.text not in reg.TIMINGS:
            self.unknown("SGS-E205", "timing", t.timing.text, t.timing.span, reg.TIMINGS)
        if kind == "rule" and t.optional:
            self.error("SGS-E214", "a rule's trigger cannot be `optional`: a rule has no owner to ask", t.span,
                       "drop `optional`, or make it a skill's trigger")
        scope_kind = {"mode": "mode_trigger", "rule": "rule_trigger"}.get(kind, "trigger")
        scope = _Scope(reg.SCOPE_NAMES[scope_kind], kind=kind)
        scope.timing = t.timing.text if t.timing.text in reg.TIMINGS else None
        if kind == "mode":
            scope.options = self._mode_options
        if t.limit is not None:
            if kind != "trigger":
                self.error("SGS-E231", f"a {kind}'s trigger cannot have a `limit`: a limit counts a skill owner's uses",
                           t.limit.span, "move the trigger into a skill, or count with mark(…) in its body")
            self.limit(t.limit, scope.child(pure=True))
        if t.where is not None:
            self.condition(t.where, scope.child(pure=True), f"this '{t.timing.text}' trigger never fires")
        self.block(t.body, scope.child())

    def mode_chain(self, m: ast.ModeDef, report: bool = False) -> list[ast.ModeDef]:
        """The modes `m` is made of, base first and `m` last (`mode x extends y`). An unknown base or a cycle
        ends the chain (reported, when `report`, at the `extends` name)."""
        chain = [m]
        while chain[0].base is not None:
            base = chain[0].base
            found = self.sym.modes.get(base.text)
            if found is None or found in chain:
                if report and found is None and chain[0] is m:
                    self.unknown("SGS-E202", "mode", base.text, base.span, self.sym.modes)
                elif report and found is not None and m.base is not None:
                    self.error("SGS-E218", f"mode '{m.ident.text}' extends itself (through '{m.base.text}')",
                               m.base.span, "a mode may extend another mode, never (through others) itself")
                break
            chain.insert(0, found)
        return chain

    def check_mode(self, m: ast.ModeDef) -> None:
        chain = self.mode_chain(m, report=True)
        self._mode_options = {o.name.text: "any" for md in chain for o in md.options}
        opt_scope = _Scope({}, kind="option", pure=True)
        for o in m.options:
            self.expr(o.default, opt_scope)
            if not _constant(o.default):  # read when the program is built: no game to ask, no budget to spend
                self.error("SGS-E240", f"option {o.name.text}'s default is not a constant", o.default.span,
                           "an option's default is true, false, a number or a word; set other values with "
                           "-o NAME=VALUE or a scenario's option line")
        players = next((md for md in reversed(chain) if md.players is not None), m)
        if players.players is None and chain[0].base is None:  # (a broken `extends` is reported above)
            self.error("SGS-E209", f"mode '{m.name.text}' does not say how many players it is for", m.name.span,
                       "add a line such as: players 4..10")
        elif m.players is not None and (m.players[0] > m.players[1] or m.players[0] < 2 or m.players[1] > MAX_SEATS):
            self.error("SGS-E209", f"player range {m.players[0]}..{m.players[1]} is not valid",
                       m.players_span or m.name.span, f"a game has 2 to {MAX_SEATS} seats")
        scope = _Scope(reg.SCOPE_NAMES.get("setup", {}), kind="setup")
        scope.options = self._mode_options
        counts = {r.players for md in chain[:-1] for r in md.roles if r.condition is None}
        for r in m.roles:
            if r.condition is not None:
                self.expr(r.condition, scope.child(pure=True))
            else:
                counts.add(r.players)
            if len(r.roles) != r.players:
                self.error("SGS-E209", f"roles for {r.players} players list {len(r.roles)} roles", r.span)
        has_roles = any(md.roles for md in chain)
        if players.players is not None and has_roles and (m.roles or m.players is not None) \
                and players.players[1] <= MAX_SEATS:
            missing = [n for n in range(players.players[0], players.players[1] + 1) if n not in counts]
            if missing:
                self.error("SGS-E209", f"mode '{m.name.text}' has no roles for {_counts(missing)} players",
                           m.players_span or m.name.span, "add a line such as: roles N { … } for each count")
        if m.leader is not None and m.leader.text not in self.sym.roles:
            self.unknown("SGS-E202", "role", m.leader.text, m.leader.span, self.sym.roles)
        if m.setup is not None:
            self.block(m.setup, scope.child())
        for t in m.triggers:
            self.trigger(t, "mode")
        win_scope = _Scope(reg.SCOPE_NAMES.get("win", {}), kind="win", pure=True)
        win_scope.options = self._mode_options
        for w in m.wins:
            self.roles(w.roles)
            self.condition(w.condition, win_scope.child(), "this win condition is never met")
        for what, span in m.repeated:
            self.error("SGS-E217", f"mode '{m.name.text}' has a second `{what}`; a mode has one", span,
                       f"merge the two into one `{what}` (only the first one counts)")
        if m.turn_order is not None:
            order_scope = _Scope(reg.SCOPE_NAMES["turn_order"], kind="turn_order")
            order_scope.options = self._mode_options
            self.block(m.turn_order, order_scope)
        self.check_replacements(m, scope)
        self.check_scores(m)
        self.check_camps(m)
        self.check_solos(m, chain)

    def check_camps(self, m: ast.ModeDef) -> None:
        """`camp NAME ROLE…`: the roles exist, each role is in one camp at most, camp names differ;
        `trigger_order` names a direction."""
        owner: dict[str, ast.CampDecl] = {}
        names: dict[str, ast.CampDecl] = {}
        for c in m.camps:
            self.roles(c.roles)
            if c.name.text in names:
                self.error("SGS-E201", f"camp '{c.name.text}' is defined twice", c.name.span,
                           "give each camp its own name", notes=(("first definition", names[c.name.text].span),))
            names.setdefault(c.name.text, c)
            for r in c.roles:
                if r.text in owner and owner[r.text] is not c:
                    self.error("SGS-E225", f"role '{r.text}' is in two camps", r.span,
                               "a role belongs to one camp: remove it from one of the lines",
                               notes=(("the other camp", owner[r.text].span),))
                owner.setdefault(r.text, c)
        t = m.trigger_order
        if t is not None and t.text not in reg.DIRECTIONS:
            self.unknown("SGS-E208", "direction", t.text, t.span, reg.DIRECTIONS)

    def check_solos(self, m: ast.ModeDef, chain: list[ast.ModeDef]) -> None:
        """`solo ROLE…`: the roles exist, none is named twice in the mode (or its bases), and none is in a camp:
        a camp makes its seats team-mates, `solo` makes each seat a side of its own."""
        before = {r.text: r for md in chain[:-1] for s in md.solos for r in s.roles}
        camps = {r.text: c for md in chain for c in md.camps for r in c.roles}
        seen: dict[str, ast.Ident] = dict(before)
        for s in m.solos:
            self.roles(s.roles)
            for r in s.roles:
                if r.text in seen:
                    self.error("SGS-E226", f"role '{r.text}' is already solo", r.span,
                               "name each solo role once", notes=(("first named here", seen[r.text].span),))
                elif r.text in camps:
                    self.error("SGS-E226", f"role '{r.text}' is solo but also in camp '{camps[r.text].name.text}'",
                               r.span, "a solo role's seats are each a side of their own: take it out of the "
                               "camp or drop it from `solo`", notes=(("the camp", camps[r.text].span),))
                seen.setdefault(r.text, r)
        for c in m.camps:  # a camp added by an extension over a base's solo role
            for r in c.roles:
                if r.text in before:
                    self.error("SGS-E226", f"role '{r.text}' is in camp '{c.name.text}' but solo in a base mode",
                               r.span, "a solo role's seats are each a side of their own: leave it out of the "
                               "camp", notes=(("solo here", before[r.text].span),))

    def roles(self, idents: list[ast.Ident]) -> None:
        for r in idents:
            if r.text not in self.sym.roles:
                self.unknown("SGS-E202", "role", r.text, r.span, self.sym.roles)

    def check_replacements(self, m: ast.ModeDef, scope: _Scope) -> None:
        """`replace A with B [if C]`: both cards exist, differ, and a line after an unconditional one for the same
        card never applies (the first line whose condition holds does)."""
        settled: dict[str, ast.ReplaceDecl] = {}
        for r in m.replacements:
            old = self.card_ref(r.card)
            new = self.card_ref(r.by) if r.by is not None else None
            if r.condition is not None:
                self.condition(r.condition, scope.child(pure=True), "this card is never replaced")
            if old is None or (new is None and r.by is not None):
                continue
            if old is new:
                self.error("SGS-E216", f"'{old.name.text}' is replaced with itself", (r.by or r.card).span,
                           "name another card after `with`")
            elif old.ident.text in settled:
                self.warn("SGS-W405", f"'{old.name.text}' is already replaced unconditionally above, so this line "
                          "never applies", r.span, "remove it, or give the line above an `if`",
                          notes=(("the line that applies", settled[old.ident.text].span),))
            elif r.condition is None:
                settled[old.ident.text] = r

    def check_scores(self, m: ast.ModeDef) -> None:
        """`score ROLE… = EXPR [when COND]`: roles exist, the value is a number, `player` is the seat scored. An `=`
        line for a role after an unconditional `=` line for it never applies (the first `=` that holds sets the
        base)."""
        settled: dict[tuple[str, str], ast.ScoreDecl] = {}
        for sc in m.scores:
            self.roles(sc.roles)
            word = "place" if sc.op == "place" else "score"
            scope = _Scope(reg.SCOPE_NAMES["score"], kind="score", pure=True)
            scope.options = self._mode_options
            self.expect(sc.value, "int", scope, f"a {word}")
            if sc.condition is not None:
                self.condition(sc.condition, scope.child(), f"this {word} line never applies")
            if sc.op not in ("=", "place"):
                continue
            shadow = [r for r in sc.roles if (word, r.text) in settled]
            if shadow and len(shadow) == len(sc.roles):
                first = settled[(word, shadow[0].text)]
                self.warn("SGS-W405", f"an unconditional `{word} {shadow[0].text} = …` line above already sets the "
                          f"{word}, so this line never applies", sc.span,
                          "put the line first, give the line above a `when`"
                          + (", or write += for a bonus" if word == "score" else ""),
                          notes=(("the line that applies", first.span),))
            if sc.condition is None:
                for r in sc.roles:
                    settled.setdefault((word, r.text), sc)

    # ------------------------------------------------------------ never fires
    def never_fires(self) -> None:
        """Warnings for definitions that are valid but can never take part in a game."""
        modes = [md for m in self.modules for md in m.modes]
        if modes and not any(md.leader is not None for md in modes):
            for s in self._all_skills():
                for f in s.flags:
                    if f.text == "leader":
                        self.warn("SGS-W402",
                                  f"'{s.name.text}' is a leader skill (主公技), but no loaded mode has a leader",
                                  f.span, "add `leader ROLE` to a mode, or drop the `leader` flag")
        if self._dynamic_ask:
            return  # some request names its card at run time: any card may be asked for
        for ident, what in self._reachability:
            d = self.sym.cards.get(ident.text) or self.sym.card_ids.get(ident.text)
            if d is None:
                continue
            family = d.family.text if d.family is not None else d.name.text
            usable = bool(d.uses) or d.category.text not in ("basic", "trick", "delayed")
            if not usable and family not in self._asked:
                self.warn("SGS-W404", f"this skill {what} {d.name.text}, but {d.name.text} has no `use` and no "
                          f"rule asks for it (respond, use_card_on…)", ident.span,
                          f"give {d.name.text} a `use` clause, or ask for it somewhere")

    def unread_choices(self) -> None:
        """SGS-W407 for each choice of characters that agents cannot aim: no words of its own, none from its skill's
        `tags`, and none read from what its rule does with the one chosen (lang/intent.py, which this reading runs as
        the build would: the words it gives are the ones the agents get). Skills, cards and procedures: a mode's
        choices (who goes first) are no one's help or harm."""
        values = self.sym.values
        lexicon = Lexicon.of(self.sym.cards.values(), self.sym.procedures.values())
        for s in self._all_skills():
            infer_skill_words(s, values, lexicon)
            if any(t.text in AIMING_WORDS for t in s.tags):
                continue
            for body, reading in skill_readings(s, lexicon):
                self._unread(body, f"skill '{s.name.text}'", reading)
        for m in self.modules:
            for c in m.cards:
                for hook in [c.effect, *(b for _, b in c.hooks)]:
                    infer_choice_words(hook, lexicon=lexicon)
                    self._unread(hook, f"card '{c.name.text}'", lexicon)
            for pr in m.procedures:  # (a procedure's choices hear no skill's words: its frame has none)
                infer_choice_words(pr.body, lexicon=lexicon)
                self._unread(pr.body, f"procedure '{pr.name.text}'", lexicon)

    def _unread(self, body: ast.Block | None, where: str, lexicon: Lexicon) -> None:
        for call, why in unread_choices(body, self.sym.values, lexicon):
            self.warn("SGS-W407", f"agents cannot tell whom this choice of characters in {where} is for: {why}, so "
                      "they take it as harmful", call.func.span,
                      'say it on the choice: tags: "help" (or "attack", "control"; "neutral" for neither)')

    def _all_skills(self) -> list[ast.SkillDef]:
        out: list[ast.SkillDef] = []
        for m in self.modules:
            out.extend(m.skills)
            for g in m.generals:
                out.extend(g.skills)
            for c in m.cards:
                out.extend(c.skills)
        return out

    def condition(self, e: ast.Expr, scope: _Scope, never: str) -> None:
        """A `where`/`when` condition: pure, and a literal `false` means the definition never fires."""
        self.expr(e, scope)
        if isinstance(e, ast.Lit) and e.kind == "bool" and e.value is False:
            self.warn("SGS-W403", f"the condition is always false: {never}", e.span,
                      "remove the definition, or write the real condition")


def check(modules: list[ast.Module], cancelled: Callable[[], bool] | None = None) -> CheckedProgram:
    """Check a loaded program. CANCELLED, polled as the check goes (`cancel`: between definitions and every few
    hundred statements and expressions), abandons it (CheckCancelled); so does the `cancel.cancellable` the check
    may already run under."""
    reset_suggestions()
    if cancelled is None:
        return Checker(modules).run()
    with cancel.cancellable(cancelled):
        return Checker(modules).run()



def _constant(e: ast.Expr) -> bool:
    """A literal true/false, number or word (a bare name), or a negated number: what an option's default may be."""
    if isinstance(e, ast.Unary) and e.op == "-":
        return isinstance(e.operand, ast.Lit) and e.operand.kind == "int"
    return isinstance(e, ast.Name) or (isinstance(e, ast.Lit) and e.kind in ("int", "bool", "str"))
