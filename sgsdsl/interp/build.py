"""Turn a checked program into engine rule objects.

The structure (which rule objects exist, with which fields) is decided here once, by `StructureBuilder`,
and shared by both back ends: the reference interpreter hands it closures over AST nodes, the compiler
hands it placeholders that it later prints as references to generated methods. Only *how a rule
function is made* differs (`FunctionMaker`), so the two can never disagree about structure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..engine.program import (
    ActiveRule,
    CardRule,
    Frame,
    GeneralRule,
    GlobalRule,
    ModeRule,
    ModifierRule,
    ProcedureRule,
    Program,
    ProvideRule,
    ReplaceRule,
    ScoreRule,
    SkillRule,
    TriggerRule,
    UseRule,
    ValueRule,
    ViewAsRule,
    default_uses,
)
from ..engine.registry import event_fields
from ..lang import ast
from ..lang.checker import CheckedProgram
from ..lang.intent import Lexicon, grant_words, infer_choice_words, infer_skill_words, subject_field
from .interpreter import Interpreter
from .reach import (
    TRIGGER_BOUND,
    cancels_event,
    first_seat_choice,
    first_seat_costs,
    lowers_amount,
    own_judge_hope,
    phases_skipped,
    wards_owner,
)


@dataclass(frozen=True)
class Site:
    """Where a rule function sits in the program: its owning definition and its slot there.

    `owner` is (kind, key) with kind card | skill | general | mode | value | rule and a key unique per kind
    (inline skills are keyed by `inline_skill_key`); `slot` is made of fixed words and
    indices only (e.g. "use0_filter"); `scope` is the checker's scope kind (which names the engine
    binds); `params` are extra names bound from arguments (value and modifier parameters).
    """

    owner: tuple[str, str]
    slot: str
    scope: str
    params: tuple[str, ...] = ()
    # names the engine always binds to a character, card, use or list (never none) for this very function,
    # beyond what its scope always binds: worked out from its definition (`effect_bound`)
    bound: frozenset[str] = frozenset()


class FunctionMaker(Protocol):
    def __call__(self, node: ast.Block | ast.Expr, site: Site) -> Any: ...


class DirectMaker(Protocol):
    def __call__(self, node: ast.Block | ast.Expr, site: Site, names: tuple[str, ...]) -> Any: ...


class InterpretedFunctions:
    """The reference back end: every rule function is a closure that walks its AST node."""

    def __init__(self) -> None:
        self.generals: dict[str, GeneralRule] = {}
        self.interp = Interpreter(self.generals)

    def __call__(self, node: ast.Block | ast.Expr, site: Site) -> Any:
        if isinstance(node, ast.Block):
            return self.interp.block_fn(node)
        return self.interp.expr_fn(node)


def owner_arg(where: ast.Expr | None, params: tuple[str, ...]) -> int | None:
    """The position of the parameter P when a modifier's condition starts with `P == owner` or `owner == P`
    (its first conjunct, evaluated first): any other argument makes it false, with nothing else evaluated
    (comparing with a character is identity), so the engine need not call it then."""
    e = _first_equality(where)
    if e is None or "owner" in params:
        return None
    names = [x.ident for x in (e.left, e.right) if isinstance(x, ast.Name) and x.ref == ("local", x.ident)]
    if len(names) != 2 or "owner" not in names:
        return None
    other = names[0] if names[1] == "owner" else names[1]
    return params.index(other) if other in params else None


def literal_value(e: ast.Expr) -> tuple[Any] | None:
    """(v,) when the expression is a literal number or truth value (or its negation): what it always evaluates to."""
    if isinstance(e, ast.Lit) and e.kind in ("int", "bool") and type(e.value) in (int, bool):
        return (e.value,)
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.Lit) and e.operand.kind == "int" \
            and type(e.operand.value) is int:
        return (-e.operand.value,)
    if isinstance(e, ast.Name) and e.ref is not None and e.ref[0] == "const" and type(e.ref[1]) in (int, bool):
        return (e.ref[1],)  # a named constant (`unlimited`)
    return None


def _first_equality(where: ast.Expr | None) -> ast.BinOp | None:
    """The condition's first conjunct (evaluated first), when it is an `==`."""
    e = where
    while isinstance(e, ast.BinOp) and e.op == "and":
        e = e.left
    return e if isinstance(e, ast.BinOp) and e.op == "==" else None


def _is_local(e: ast.Expr, name: str) -> bool:
    return isinstance(e, ast.Name) and e.ident == name and e.ref == ("local", name)


def owner_field(where: ast.Expr | None) -> str | None:
    """F when a skill trigger's condition starts `event.F == owner` (or `owner == event.F`) for a field every
    event read may name: the engine then skips the trigger, without a call, when the event has that field and
    it holds another character (comparing with a character is identity); anything else runs the condition."""
    e = _first_equality(where)
    if e is None:
        return None
    for attr, other in ((e.left, e.right), (e.right, e.left)):
        if isinstance(attr, ast.Attr) and _is_local(attr.obj, "event") and _is_local(other, "owner") \
                and attr.name.text in event_fields():
            return attr.name.text
    return None


def field_guard(where: ast.Expr | None) -> tuple[str, str] | None:
    """(F, V) when a trigger's condition starts with tests of the event's fields alone, one of them `event.F == V`
    for a name or text V (`event.phase == prepare`), the others `event.G == owner`: the condition is false for an
    event whose F holds other text, whoever owns the trigger, so a timing none of whose listeners accepts that text
    need not be dispatched at all (`GameState.timing_guards`). Only the leading tests count: a later one is not
    reached when an earlier conjunct fails or raises."""
    conjuncts: list[ast.Expr] = []
    e = where
    while isinstance(e, ast.BinOp) and e.op == "and":
        conjuncts.append(e.right)
        e = e.left
    if e is None:
        return None
    conjuncts.append(e)
    for c in reversed(conjuncts):  # (in the order they are evaluated)
        if not (isinstance(c, ast.BinOp) and c.op == "=="):
            return None
        for attr, other in ((c.left, c.right), (c.right, c.left)):
            if not (isinstance(attr, ast.Attr) and _is_local(attr.obj, "event")
                    and attr.name.text in event_fields()):
                continue
            if _is_local(other, "owner"):
                break
            text = _text_value(other)
            if text is not None:
                return attr.name.text, text
        else:
            return None
    return None


def _text_value(e: ast.Expr) -> str | None:
    """The text a literal or named constant always is (`"x"`, `prepare`), else None."""
    if isinstance(e, ast.Lit) and e.kind == "str" and type(e.value) is str:
        return e.value
    if isinstance(e, ast.Name) and e.ref is not None and e.ref[0] == "const" and type(e.ref[1]) is str:
        return e.ref[1]
    return None


# What the engine binds in a card's effects (CardUse.use_card, recast, resolve_delayed), never none: the card, and
# the list of targets, always; the user and owner wherever a character uses the card (every use but a delayed
# trick's judgement, which has no user); the use record in a use (a recast has none); the target where each
# target gets its own run (every target kind but "none", and a delayed trick's judgement of its holder).
_EFFECT_ALWAYS = frozenset({"card", "targets", "owner"})


def clause_effect_bound(context: str, target_kind: str) -> frozenset[str]:
    """The names a use clause's own effect always has (CardUse.recast for a recast clause, else use_card)."""
    if context == "recast":
        return _EFFECT_ALWAYS | {"user"}
    return _EFFECT_ALWAYS | {"user", "use"} | ({"target"} if target_kind != "none" else set())


def card_effect_bound(category: str, kinds: list[str]) -> frozenset[str]:
    """The names a card's shared effect always has: used under the clauses without an effect of their own (their
    target KINDS), and, for a delayed trick, judged with no user (CardUse.resolve_delayed)."""
    bound = _EFFECT_ALWAYS | {"use"}
    if category != "delayed":
        bound |= {"user"}
    if all(kind != "none" for kind in kinds):
        bound |= {"target"}
    return frozenset(bound)


class StructureBuilder:
    """Walks the checked AST in a fixed order and builds the rule objects; functions come from `make`."""

    def __init__(self, checked: CheckedProgram, make: FunctionMaker, generals: dict[str, GeneralRule] | None = None,
                 direct: DirectMaker | None = None):
        self.checked = checked
        self.make = make
        # the compiler also makes direct functions (program.py: the `*_direct` fields); the interpreter does not
        self.make_direct = direct
        self.generals: dict[str, GeneralRule] = generals if generals is not None else {}
        self._const_interp = Interpreter(self.generals)
        # what using a card of each family on a character does to it, and the procedures a call is read through,
        # for reading choices (lang/intent.py)
        self.lexicon = Lexicon.of(checked.symbols.cards.values(), checked.symbols.procedures.values())

    def fn(self, node: ast.Block | ast.Expr | None, owner: tuple[str, str], slot: str, scope: str,
           params: tuple[str, ...] = (), bound: frozenset[str] = frozenset()) -> Any:
        if node is None:
            return None
        return self.make(node, Site(owner, slot, scope, params, bound))

    def direct(self, node: ast.Block | ast.Expr | None, owner: tuple[str, str], slot: str, scope: str,
               names: tuple[str, ...], params: tuple[str, ...] = ()) -> Any:
        """The direct form of the function `fn` makes for the same slot (called with the values of NAMES after a
        frame that carries only the game), or None: no node, an interpreting back end, or a function that reads
        other names."""
        if node is None or self.make_direct is None:
            return None
        return self.make_direct(node, Site(owner, slot, scope, params), names)

    def card_ident(self, ident: ast.Ident) -> str:
        d = self.checked.symbols.cards.get(ident.text) or self.checked.symbols.card_ids[ident.text]
        return d.ident.text

    def view_targets(self, card: ast.Ident) -> list[tuple[str, bool]]:
        """(card ident, declared) of a conversion: the card it names, or for a category (`view_as basic …`) every
        card of the program in it, in definition order (trick: the non-delayed tricks), declared face down."""
        sym = self.checked.symbols
        if card.text in sym.cards or card.text in sym.card_ids:
            return [(self.card_ident(card), False)]
        return [(c.ident.text, True) for m in self.checked.modules for c in m.cards if c.category.text == card.text]

    def skill(self, s: ast.SkillDef, key: str | None = None) -> SkillRule:
        own = ("skill", key or s.ident.text)
        values = self.checked.symbols.values
        inferred = infer_skill_words(s, values, self.lexicon)  # (before any function is made of its bodies)
        actives = []
        for i, a in enumerate(s.actives):
            kind = "granted" if a.granted else "active"
            actives.append(ActiveRule(
                self.fn(a.limit.count, own, f"active{i}_limit", kind) if a.limit else None,
                a.limit.scope.text if a.limit else None,
                self.fn(a.where, own, f"active{i}_where", kind),
                self.fn(a.body, own, f"active{i}_body", kind), i, a.granted,
                None if a.granted else self.fn(first_seat_choice(a.body, values), own, f"active{i}_reach", kind),
                None if a.granted else self.fn(first_seat_costs(a.body, values), own, f"active{i}_reach_costs",
                                               kind)))
        modifiers = []
        for i, m in enumerate(s.modifiers):
            params = tuple(p.text for p in m.params)
            names = ("owner", "skill", *params)
            where_d = self.direct(m.where, own, f"modifier{i}_where", "modifier", names, params)
            value_d = self.direct(m.value, own, f"modifier{i}_value", "modifier", names, params)
            both = value_d is not None and (m.where is None or where_d is not None)  # direct as a whole or not
            at = owner_arg(m.where, params)
            fixed = literal_value(m.value)  # (compiled rules only, like the direct functions)
            modifiers.append(ModifierRule(
                m.quantity.text, params, m.op,
                self.fn(m.value, own, f"modifier{i}_value", "modifier", params),
                self.fn(m.where, own, f"modifier{i}_where", "modifier", params), at,
                where_d if both else None, value_d if both else None,
                both and at is not None and _first_equality(m.where) is m.where and fixed is not None,
                fixed[0] if both and fixed is not None else None))
        return SkillRule(
            ident=s.ident.text,
            name=s.name.text,
            flags=frozenset(f.text for f in s.flags),
            triggers=[self.trigger(t, own, f"trigger{i}", "trigger", i) for i, t in enumerate(s.triggers)],
            actives=actives,
            view_as=[ViewAsRule(ident, v.count, v.source.text, where, declared)
                     for i, v in enumerate(s.view_as)
                     for where in [self.fn(v.where, own, f"view_as{i}_where", "view_filter")]
                     for ident, declared in self.view_targets(v.card)],
            provides=[ProvideRule(self.card_ident(p.card), self.fn(p.where, own, f"provide{i}_where", "provide"),
                                  self.fn(p.body, own, f"provide{i}_body", "provide"))
                      for i, p in enumerate(s.provides)],
            modifiers=modifiers,
            tags=frozenset([*(t.text for t in s.tags), *inferred]),
            grant_tags=frozenset(grant_words(s, self.lexicon)),
        )

    def trigger(self, t: ast.Trigger, owner: tuple[str, str], slot: str, scope: str, index: int = 0) -> TriggerRule:
        return TriggerRule(t.timing.text, self.fn(t.where, owner, slot + "_where", scope), t.optional,
                           self.fn(t.body, owner, slot + "_body", scope), f"{t.span.file}:{t.span.line}",
                           self.fn(t.limit.count, owner, slot + "_limit", scope) if t.limit else None,
                           t.limit.scope.text if t.limit else None, index,
                           owner_field(t.where) if scope == "trigger" else None,
                           self.direct(t.where, owner, slot + "_where", scope,
                                       ("owner", "event", "skill") if scope == "trigger" else ("owner", "event")),
                           # (compiled rules only, like the direct functions: the interpreter dispatches every
                           # event its listeners hear, so the cross-check tests the shortcut)
                           field_guard(t.where) if self.make_direct is not None else None,
                           self.fn(first_seat_choice(t.body, self.checked.symbols.values, TRIGGER_BOUND), owner,
                                   slot + "_reach", scope) if t.optional and scope == "trigger" else None,
                           t.optional and scope == "trigger" and cancels_event(t.body),
                           lowers_amount(t.body) if t.optional and scope == "trigger" else 0,
                           phases_skipped(t.body) if t.optional and scope == "trigger" else (),
                           scope == "trigger" and wards_owner(t, owner_field(t.where)),
                           subject_field(t) if t.optional and scope == "trigger" else None)

    def card(self, c: ast.CardDef) -> CardRule:
        own = ("card", c.ident.text)
        # (a card's `tags` say what the card does to its targets; a choice in its effect is aimed by its own words,
        # or by what the effect does with the one chosen: read once, before any function is made of the bodies)
        for body in [c.effect, *(b for _, b in c.hooks)]:
            infer_choice_words(body, lexicon=self.lexicon)
        family = c.family.text if c.family is not None else c.name.text
        uses = []
        kinds = [(u.target or ast.TargetSpec(u.span, "self" if c.category.text not in ("basic", "trick") else "none"))
                 for u in c.uses]
        for i, u in enumerate(c.uses):
            spec = kinds[i]
            uses.append(UseRule(
                context=u.context.text,
                limit=self.fn(u.limit.count, own, f"use{i}_limit", "use_limit") if u.limit else None,
                limit_scope=u.limit.scope.text if u.limit else None,
                target_kind=spec.kind, low=spec.low, high=spec.high, other=spec.other,
                filter=self.fn(u.where, own, f"use{i}_filter", "use_filter"),
                effect=self.fn(u.body, own, f"use{i}_effect", "effect",
                               bound=clause_effect_bound(u.context.text, spec.kind)),
                line=f"{u.span.file}:{u.span.line}",
                filter_direct=self.direct(u.where, own, f"use{i}_filter", "use_filter",
                                          ("user", "card", "it", "owner")),
                limit_direct=self.direct(u.limit.count, own, f"use{i}_limit", "use_limit", ("user", "card", "owner"))
                if u.limit else None,
            ))
        if not uses:
            uses = default_uses(c.category.text)
        return CardRule(
            ident=c.ident.text, name=c.name.text, category=c.category.text, family=family,
            nature=c.nature.text if c.nature else "normal", attack_range=c.attack_range,
            copies=[(f.suit, f.rank) for f in c.copies + self.more_copies(c)], uses=uses,
            effect=self.fn(c.effect, own, "effect", "effect", bound=card_effect_bound(
                c.category.text, [k.kind for u, k in zip(c.uses, kinds, strict=True)
                                  if u.body is None and u.context.text != "recast"])),
            hooks={name.text: self.fn(block, own, f"hook{i}", "card_hook") for i, (name, block) in enumerate(c.hooks)},
            skills=[self.skill(s, inline_skill_key(c.ident.text, c.skills, i)) for i, s in enumerate(c.skills)],
            tags=frozenset(t.text for t in c.tags),
            judge_hope=self.fn(own_judge_hope(c.effect), own, "judge_hope", "card_test"),
        )

    def more_copies(self, c: ast.CardDef) -> list[ast.Face]:
        """Faces that top-level `copies NAME …` lines add to this card, in load order."""
        out: list[ast.Face] = []
        for m in self.checked.modules:
            for mc in m.more_copies:
                d = self.checked.symbols.cards.get(mc.card.text) or self.checked.symbols.card_ids.get(mc.card.text)
                if d is c:
                    out.extend(mc.faces)
        return out

    def rule(self, r: ast.RuleDef) -> GlobalRule:
        own = ("rule", r.ident.text)
        return GlobalRule(r.ident.text, r.name.text,
                          [self.trigger(t, own, f"trigger{i}", "rule_trigger") for i, t in enumerate(r.triggers)])

    def value(self, v: ast.ValueDef) -> ValueRule:
        own = ("value", v.name.text)
        params = tuple(p.name.text for p in v.params)
        parts = [(v.expr, "base"), (v.lower, "lower"), (v.upper, "upper")]
        direct = [self.direct(node, own, slot, "value", params, params) for node, slot in parts]
        if any(node is not None and d is None for (node, _), d in zip(parts, direct, strict=True)):
            direct = [None, None, None]  # direct as a whole or not at all
        return ValueRule(v.name.text, params, self.fn(v.expr, own, "base", "value", params),
                         self.fn(v.lower, own, "lower", "value", params),
                         self.fn(v.upper, own, "upper", "value", params), *direct)

    def build(self) -> Program:
        cards: dict[str, CardRule] = {}
        skills: dict[str, SkillRule] = {}
        modes: dict[str, ModeRule] = {}
        values: dict[str, ValueRule] = {}
        rules: dict[str, GlobalRule] = {}
        mods = self.checked.modules
        for m in mods:
            for s in m.skills:
                skills[s.ident.text] = self.skill(s)
        for m in mods:
            for c in m.cards:
                cards[c.ident.text] = self.card(c)
            for v in m.values:
                values[v.name.text] = self.value(v)
            for g in m.generals:
                own = [self.skill(s, inline_skill_key(g.ident.text, g.skills, i)) for i, s in enumerate(g.skills)]
                shared = [skills[_skill_key(self.checked, h.text)] for h in g.has]
                self.generals[g.ident.text] = GeneralRule(g.ident.text, g.name.text, g.kingdom.text, g.gender.text,
                                                          g.hp, own + shared,
                                                          [k.text for k in g.kingdoms or [g.kingdom]])
            for r in m.rules:
                rules[r.ident.text] = self.rule(r)
        defs = {md.ident.text: md for m in mods for md in m.modes}
        for ident in defs:
            self.mode_with_bases(ident, defs, modes)
        modes = {md.ident.text: modes[md.ident.text] for m in mods for md in m.modes}  # definition order
        procedures: dict[str, ProcedureRule] = {}
        for m in mods:
            for pr in m.procedures:
                params = tuple(p.name.text for p in pr.params)
                infer_choice_words(pr.body, lexicon=self.lexicon)  # (its choices hear no skill's words)
                procedures[pr.name.text] = ProcedureRule(
                    pr.name.text, params, self.fn(pr.body, ("procedure", pr.name.text), "body", "procedure", params))
        return Program(cards, dict(self.generals), skills, modes, values, rules=rules, procedures=procedures)

    def mode_with_bases(self, ident: str, defs: dict[str, ast.ModeDef], done: dict[str, ModeRule]) -> ModeRule:
        """A mode's rule, its base's members merged in (`extends`; the checker refused unknown bases and
        cycles). The base's rule objects are shared, not copied, so both back ends build the same thing."""
        if ident not in done:
            md = defs[ident]
            own = self.mode(md)
            done[ident] = own if md.base is None else extend_mode(self.mode_with_bases(md.base.text, defs, done),
                                                                  own, md)
        return done[ident]

    def option_default(self, expr: ast.Expr) -> Any:
        """Option defaults are evaluated once, when the program is built (by both back ends alike)."""
        return self._const_interp.eval(expr, Frame(None, {}), {})

    def mode(self, md: ast.ModeDef) -> ModeRule:
        own = ("mode", md.ident.text)
        options = {}
        for o in md.options:
            options[o.name.text] = self.option_default(o.default)
        return ModeRule(
            ident=md.ident.text, name=md.name.text, players=md.players or (2, 10), options=options,
            roles=[(r.players, self.fn(r.condition, own, f"roles{i}_if", "setup"), tuple(x.text for x in r.roles))
                   for i, r in enumerate(md.roles)],
            leader=md.leader.text if md.leader else None, setup=self.fn(md.setup, own, "setup", "setup"),
            triggers=[self.trigger(t, own, f"trigger{i}", "mode_trigger") for i, t in enumerate(md.triggers)],
            wins=[(tuple(x.text for x in w.roles), self.fn(w.condition, own, f"win{i}", "win"))
                  for i, w in enumerate(md.wins)],
            turn_order=self.fn(md.turn_order, own, "turn_order", "turn_order"),
            replacements=[ReplaceRule(self.card_ident(r.card), self.card_ident(r.by) if r.by is not None else None,
                                      self.fn(r.condition, own, f"replace{i}_if", "setup"))
                          for i, r in enumerate(md.replacements)],
            scores=[ScoreRule(tuple(x.text for x in sc.roles), sc.op, self.fn(sc.value, own, f"score{i}", "score"),
                              self.fn(sc.condition, own, f"score{i}_when", "score"), f"{sc.span.file}:{sc.span.line}")
                    for i, sc in enumerate(md.scores)],
            camps={c.name.text: tuple(x.text for x in c.roles) for c in md.camps},
            trigger_order=md.trigger_order.text if md.trigger_order else "counter_clockwise",
            solo=tuple(dict.fromkeys(r.text for s in md.solos for r in s.roles)),
        )


def extend_mode(base: ModeRule, own: ModeRule, md: ast.ModeDef) -> ModeRule:
    """`mode X extends BASE`: options, roles lines and triggers add to the base's (an option or a roles line
    of the extension wins); `win`, `score` and `replace` lines of the extension are tried before the base's;
    `players`, `leader`, `setup`, `turn_order` and `trigger_order` replace the base's when the extension has them;
    camps add to the base's (a camp of the extension wins), and so do solo roles."""
    return ModeRule(
        ident=own.ident, name=own.name, players=own.players if md.players is not None else base.players,
        options={**base.options, **own.options}, roles=base.roles + own.roles,
        leader=own.leader if md.leader is not None else base.leader,
        setup=own.setup if md.setup is not None else base.setup,
        triggers=base.triggers + own.triggers, wins=own.wins + base.wins,
        turn_order=own.turn_order if md.turn_order is not None else base.turn_order,
        replacements=own.replacements + base.replacements, scores=own.scores + base.scores,
        camps={**base.camps, **own.camps},
        trigger_order=own.trigger_order if md.trigger_order is not None else base.trigger_order,
        solo=tuple(dict.fromkeys(base.solo + own.solo)))


def inline_skill_key(owner: str, skills: list[ast.SkillDef], index: int) -> str:
    """The key of a skill defined inside a general or card: "<owner>.<id>", made unique by position when the
    owner defines two skills with one id (the checker allows it; each is still its own skill)."""
    ident = skills[index].ident.text
    key = f"{owner}.{ident}"
    if sum(1 for s in skills if s.ident.text == ident) > 1:
        key += f"~{index}"
    return key


def _skill_key(checked: CheckedProgram, name: str) -> str:
    return checked.symbols.skills[name].ident.text


def build_program(checked: CheckedProgram) -> Program:
    """The interpreted Program: the shared structure with closures over the AST."""
    make = InterpretedFunctions()
    return StructureBuilder(checked, make, make.generals).build()
