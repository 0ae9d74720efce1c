"""Turn a checked program into engine rule objects whose functions are interpreter closures."""

from __future__ import annotations

from ..engine.program import (
    ActiveRule,
    CardRule,
    Frame,
    GeneralRule,
    ModeRule,
    ModifierRule,
    Program,
    ProvideRule,
    SkillRule,
    TriggerRule,
    UseRule,
    ValueRule,
    ViewAsRule,
    default_uses,
)
from ..lang import ast
from ..lang.checker import CheckedProgram
from .interpreter import Interpreter


class _Builder:
    def __init__(self, checked: CheckedProgram):
        self.checked = checked
        self.generals: dict[str, GeneralRule] = {}
        self.interp = Interpreter(self.generals)
        self.card_ids = {d.name.text: d.ident.text for d in checked.symbols.cards.values()}

    def fn(self, node):
        if node is None:
            return None
        if isinstance(node, ast.Block):
            return self.interp.block_fn(node)
        return self.interp.expr_fn(node)

    def card_ident(self, ident: ast.Ident) -> str:
        d = self.checked.symbols.cards.get(ident.text) or self.checked.symbols.card_ids[ident.text]
        return d.ident.text

    def skill(self, s: ast.SkillDef) -> SkillRule:
        return SkillRule(
            ident=s.ident.text,
            name=s.name.text,
            flags=frozenset(f.text for f in s.flags),
            triggers=[self.trigger(t) for t in s.triggers],
            actives=[
                ActiveRule(self.fn(a.limit.count) if a.limit else None, a.limit.scope.text if a.limit else None,
                           self.fn(a.where), self.fn(a.body), i)
                for i, a in enumerate(s.actives)
            ],
            view_as=[ViewAsRule(self.card_ident(v.card), v.count, v.source.text, self.fn(v.where)) for v in s.view_as],
            provides=[ProvideRule(self.card_ident(p.card), self.fn(p.where), self.fn(p.body)) for p in s.provides],
            modifiers=[
                ModifierRule(m.quantity.text, tuple(p.text for p in m.params), m.op, self.fn(m.value), self.fn(m.where))
                for m in s.modifiers
            ],
        )

    def trigger(self, t: ast.Trigger) -> TriggerRule:
        return TriggerRule(t.timing.text, self.fn(t.where), t.optional, self.fn(t.body),
                           f"{t.span.file}:{t.span.line}")

    def card(self, c: ast.CardDef) -> CardRule:
        family = c.family.text if c.family is not None else c.name.text
        uses = []
        for u in c.uses:
            spec = u.target or ast.TargetSpec(u.span, "self" if c.category.text not in ("basic", "trick") else "none")
            uses.append(UseRule(
                context=u.context.text,
                limit=self.fn(u.limit.count) if u.limit else None,
                limit_scope=u.limit.scope.text if u.limit else None,
                target_kind=spec.kind, low=spec.low, high=spec.high, other=spec.other,
                filter=self.fn(u.where), effect=self.fn(u.body), line=f"{u.span.file}:{u.span.line}",
            ))
        if not uses:
            uses = default_uses(c.category.text)
        return CardRule(
            ident=c.ident.text, name=c.name.text, category=c.category.text, family=family,
            nature=c.nature.text if c.nature else "normal", attack_range=c.attack_range,
            copies=[(f.suit, f.rank) for f in c.copies], uses=uses, effect=self.fn(c.effect),
            hooks={name.text: self.fn(block) for name, block in c.hooks},
            skills=[self.skill(s) for s in c.skills], tags=frozenset(t.text for t in c.tags),
        )

    def build(self) -> Program:
        cards, skills, modes, values = {}, {}, {}, {}
        mods = self.checked.modules
        for m in mods:
            for s in m.skills:
                skills[s.ident.text] = self.skill(s)
        for m in mods:
            for c in m.cards:
                cards[c.ident.text] = self.card(c)
            for v in m.values:
                values[v.name.text] = ValueRule(v.name.text, tuple(p.name.text for p in v.params), self.fn(v.expr),
                                                self.fn(v.lower), self.fn(v.upper))
            for g in m.generals:
                own = [self.skill(s) for s in g.skills]
                shared = [skills[_skill_key(self.checked, h.text)] for h in g.has]
                self.generals[g.ident.text] = GeneralRule(g.ident.text, g.name.text, g.kingdom.text, g.gender.text,
                                                          g.hp, own + shared)
            for md in m.modes:
                modes[md.ident.text] = self.mode(md)
        return Program(cards, dict(self.generals), skills, modes, values)

    def mode(self, md: ast.ModeDef) -> ModeRule:
        options = {}
        for o in md.options:
            options[o.name.text] = self.interp.eval(o.default, Frame(None, {}), {})  # type: ignore[arg-type]
        return ModeRule(
            ident=md.ident.text, name=md.name.text, players=md.players or (2, 10), options=options,
            roles=[(r.players, self.fn(r.condition), tuple(i.text for i in r.roles)) for r in md.roles],
            leader=md.leader.text if md.leader else None, setup=self.fn(md.setup),
            triggers=[self.trigger(t) for t in md.triggers],
            wins=[(tuple(i.text for i in w.roles), self.fn(w.condition)) for w in md.wins],
        )


def _skill_key(checked: CheckedProgram, name: str) -> str:
    return checked.symbols.skills[name].ident.text


def build_program(checked: CheckedProgram) -> Program:
    return _Builder(checked).build()
