"""Checking rule bodies: statements and expressions, their names, calls and types."""

from __future__ import annotations

from ..engine import registry as reg
from . import ast
from .cancel import tick
from .check_base import CheckerBase
from .diagnostics import Span, did_you_mean
from .scope import Symbols, _Scope
from .syntax_hints import familiar
from .types import _ELEMENT, COLLECTIONS, STRINGY, _article, _known, assignable, comparable


class BodyChecker(CheckerBase):
    """Statements and expressions: resolves names (annotating the AST) and infers types where known."""

    def block(self, b: ast.Block, scope: _Scope) -> None:
        for s in b.stmts:
            self.stmt(s, scope)

    def stmt(self, s: ast.Stmt, scope: _Scope) -> None:
        tick()  # (a check the editor's next edit made stale stops inside one long definition too)
        if isinstance(s, ast.Let):
            t = self.expr(s.value, scope)
            self.rebind(s.name.text, t, scope, s.name.span, "'let'")
            scope.names[s.name.text] = t or "any"
        elif isinstance(s, ast.If):
            self.expr(s.test, scope)
            self.block(s.body, scope.child())
            if s.orelse is not None:
                self.block(s.orelse, scope.child())
        elif isinstance(s, ast.For):
            t = self.expr(s.iterable, scope)
            if _known(t) is not None and _known(t) not in COLLECTIONS:
                self.error("SGS-E305", f"'for' walks a list, but this is {_article(_known(t) or '')}",
                           s.iterable.span)
            inner = scope.child()
            inner.in_loop = True
            element = _ELEMENT.get(t or "", "any")
            self.rebind(s.var.text, element, inner, s.var.span, "'for'")
            inner.names[s.var.text] = element
            self.block(s.body, inner)
        elif isinstance(s, ast.While):
            self.expr(s.test, scope)
            inner = scope.child()
            inner.in_loop = True
            self.block(s.body, inner)
        elif isinstance(s, ast.Repeat):
            self.expect(s.count, "int", scope, "'repeat'")
            inner = scope.child()
            inner.in_loop = True
            self.block(s.body, inner)
        elif isinstance(s, ast.Assign):
            self.assign(s, scope)
        elif isinstance(s, ast.CallStmt):
            self.expr(s.call, scope)
        elif isinstance(s, ast.Break):
            if not scope.in_loop:
                self.error("SGS-E210", "'break' outside a loop", s.span, "use 'stop' to end the whole effect")

    def rebind(self, name: str, new: str | None, scope: _Scope, span: Span, what: str) -> None:
        """A body's names are one namespace at run time: a `let` or loop variable inside a block that re-binds
        an outer name keeps its value after the block, so the outer name's type must allow it."""
        if name in scope.names:
            return  # re-bound in its own block: typed from here on, in order
        home = scope.parent
        while home is not None and name not in home.names:
            home = home.parent
        if home is None:
            return  # a new name
        old = home.names[name]
        if old == new:
            return
        if _known(old) is not None and _known(new) is not None and not (
                assignable(old, new) or assignable(new, old)):
            self.error("SGS-E308", f"this {what} re-binds '{name}' ({_article(_known(old) or '')} outside this "
                       f"block) to {_article(_known(new) or '')}, and '{name}' keeps the new value after the block",
                       span, "use another name for the value inside the block")
        elif _known(old) is None or _known(new) is None:
            home.names[name] = "any"  # either one after the block: nothing the checker can judge

    def assign(self, s: ast.Assign, scope: _Scope) -> None:
        target = s.target
        obj_type = self.expr(target.obj, scope)
        value_type = self.expr(s.value, scope)
        field_name = target.name.text
        if self.private(field_name, target.name.span):
            return
        if obj_type and obj_type.startswith("event:"):
            tm = reg.TIMINGS.get(obj_type[6:])
            if tm is None:
                return
            if field_name not in tm.fields and field_name != "cancelled":
                self.unknown("SGS-E206", f"field of a {tm.name} event", field_name, target.name.span, tm.fields)
            elif field_name not in tm.mutable:
                what = f"the {field_name} of a {tm.name} event cannot be changed"
                hint = (f"changeable here: {', '.join(sorted(tm.mutable))}" if tm.mutable
                        else "nothing is changeable here")
                if field_name == "cancelled":
                    hint = "use cancel(event)"
                self.error("SGS-E302", what, target.name.span, hint)
            else:
                want = tm.fields[field_name]
                if s.op != "=" and _known(want) not in (None, "int"):
                    self.error("SGS-E305", f"'{s.op}' needs a number, but {field_name} is {_article(want)}",
                               target.name.span)
                elif not assignable(want, value_type):
                    self.error("SGS-E301", f"{field_name} is {_article(want)}, not {_article(value_type or '')}",
                               s.value.span)
        elif obj_type is None or obj_type in ("any", "item", "event"):
            # a value of unknown type (first(), choose(), mark_value()…): only a field something lets rules change
            writable = reg.writable_fields()
            if field_name not in writable:
                self.error("SGS-E302", f"'{field_name}' is not a field any rule may change", target.name.span,
                           f"changeable fields (of some timing's event): {', '.join(sorted(writable))}")
        else:
            spec = reg.ATTRIBUTES.get(obj_type, {}).get(field_name)
            if spec is None or not spec[1]:
                self.error("SGS-E302", f"the {field_name} of {_article(obj_type)} cannot be assigned",
                           target.name.span, "use an action such as damage, recover or set_max_hp")
            elif not assignable(spec[0], value_type):
                self.error("SGS-E301", f"{field_name} is {_article(spec[0])}, not {_article(value_type or '')}",
                           s.value.span)

    def private(self, field_name: str, span) -> bool:
        """Names starting with `_` are never fields (the sandbox's rule); report and say so."""
        if field_name.startswith("_"):
            self.error("SGS-E207", f"'{field_name}' is not a field: names starting with '_' are never fields",
                       span, "fields are listed by `sgsdsl vocab`")
            return True
        return False

    # ------------------------------------------------------------ expressions
    def expect(self, e: ast.Expr, want: str | None, scope: _Scope, what: str) -> str | None:
        """Check e and that its type fits `want`."""
        t = self.expr(e, scope)
        if want is not None and not assignable(want, t):
            self.error("SGS-E301", f"{what} needs {_article(want)}, not {_article(_known(t) or '')}", e.span)
        return t

    def expr(self, e: ast.Expr, scope: _Scope) -> str | None:
        """Resolve names in e; return its type when known."""
        tick()
        if isinstance(e, ast.Lit):
            return {"int": "int", "str": "str", "bool": "bool", "none": "none", "suit": "suit",
                    "face": "face"}.get(e.kind)
        if isinstance(e, ast.Name):
            return self.name(e, scope)
        if isinstance(e, ast.Attr):
            return self.attr(e, scope)
        if isinstance(e, ast.Call):
            return self.call(e, scope)
        if isinstance(e, ast.BinOp):
            return self.binop(e, scope)
        if isinstance(e, ast.Unary):
            t = self.expr(e.operand, scope)
            if e.op == "-":
                if _known(t) not in (None, "int"):
                    self.error("SGS-E305", f"'-' needs a number, not {_article(_known(t) or '')}", e.operand.span)
                return "int"
            return "bool"
        if isinstance(e, ast.IsFamily):
            t = self.expr(e.operand, scope)
            if _known(t) is not None and _known(t) != "card":
                hint = "compare with == instead" if _known(t) in STRINGY else None
                self.error("SGS-E306", f"'is {e.family.text}' tests a card, but this is {_article(_known(t) or '')}",
                           e.operand.span, hint)
            self.card_name(e.family, "card family")
            return "bool"
        if isinstance(e, ast.RangeLit):
            self.expect(e.low, "int", scope, "a range")
            self.expect(e.high, "int", scope, "a range")
            return "range"
        if isinstance(e, ast.ListLit):
            item_types = [_known(self.expr(i, scope)) for i in e.items]
            self._item_types[id(e)] = item_types
            types = set(item_types)
            if types == {"player"}:
                return "players"
            if types == {"card"}:
                return "cards"
            return "list"
        if isinstance(e, ast.ListComp):
            t = self.expr(e.iterable, scope)
            if _known(t) is not None and _known(t) not in COLLECTIONS:
                self.error("SGS-E305", f"a list comprehension walks a list, but this is {_article(_known(t) or '')}",
                           e.iterable.span)
            inner = scope.child()
            inner.names[e.var.text] = _ELEMENT.get(t or "", "any")
            if e.cond is not None:
                self.expr(e.cond, inner)
            et = _known(self.expr(e.elem, inner))
            return {"player": "players", "card": "cards"}.get(et or "", "list")
        if isinstance(e, ast.CondExpr):
            self.expr(e.test, scope)
            a = self.expr(e.then, scope)
            b = self.expr(e.orelse, scope)
            if a == b:
                return a
            return a if b == "none" else b if a == "none" else None
        return None

    def binop(self, e: ast.BinOp, scope: _Scope) -> str | None:
        lt = self.expr(e.left, scope)
        rt = self.expr(e.right, scope)
        lk, rk = _known(lt), _known(rt)
        op = e.op
        if op in ("and", "or"):
            return "bool"
        if op in ("==", "!="):
            if not comparable(lt, rt):
                hint = None
                if {lk, rk} == {"card", "family"}:
                    hint = "test a card's kind with `is`, e.g. card is 杀"
                elif "color" in (lk, rk) and "suit" in (lk, rk):
                    hint = "compare a colour with red/black, a suit with ♠ ♥ ♣ ♦"
                self.error("SGS-E305", f"comparing {_article(lk or '')} with {_article(rk or '')} is never "
                           f"{'true' if op == '==' else 'false'}", e.span, hint)
            return "bool"
        if op in ("<", "<=", ">", ">="):
            for side, k in ((e.left, lk), (e.right, rk)):
                if k not in (None, "int"):
                    self.error("SGS-E305", f"'{op}' compares numbers, not {_article(k)}", side.span)
            return "bool"
        if op == "in":
            if rk is not None and rk not in COLLECTIONS:
                self.error("SGS-E305", f"'in' needs a list or range on its right, not {_article(rk)}", e.right.span)
            elif rk in _ELEMENT and not comparable(lt, _ELEMENT[rk]):
                self.error("SGS-E305", f"{_article(lk or '')} is never in {_article(rk)}", e.left.span)
            return "bool"
        # + - *
        if lk == "int" and rk == "int":
            return "int"
        if op == "+" and lk in COLLECTIONS and rk in COLLECTIONS:
            return lk if lk == rk else "list"
        if lk is not None and rk is not None:
            if op == "+" and "str" in (lk, rk):
                self._text_plus(lk, rk, e.span)
                return None
            self.error("SGS-E305", f"'{op}' cannot combine {_article(lk)} and {_article(rk)}", e.span)
            return None
        if "int" in (lk, rk):
            return "int"
        if op == "+" and (lk in COLLECTIONS or rk in COLLECTIONS):
            return "list"
        return None

    def _text_plus(self, lk: str, rk: str, span: Span) -> None:
        """`"a" + "b"`: say what `+` does, and that text is written whole (the language has no text joining)."""
        self.error("SGS-E305", f"'+' adds numbers or joins two lists; it does not join text (here {_article(lk)} "
                   f"and {_article(rk)})", span,
                   "the language has no way to join texts: write the whole text as one literal, e.g. \"ab\"; "
                   "to keep a value for later, give it to a mark: mark(p, \"name\", x)")

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
            g = self.sym.generals.get(n) or self.sym.general_ids[n]
            e.ref = ("general", g.ident.text)
            return "general"
        if n in self.sym.any_skills:
            e.ref = ("skill", self.sym.any_skills[n].ident.text)
            return "skill"
        if n in self.sym.roles:
            e.ref = ("const", n)
            return "role"
        if n in self.sym.kingdoms:
            e.ref = ("const", n)
            return "kingdom"
        pool = (scope.all_names() + list(scope.options) + list(reg.CONSTANTS) + list(self.sym.cards)
                + list(self.sym.generals) + list(self.sym.roles) + list(self.sym.kingdoms)
                + [k for k, d in self.sym.any_skills.items() if k == d.name.text])
        hint = None
        if n in reg.TIMINGS:
            hint = f"'{n}' is a timing: write `on {n} {{ … }}` in a skill"
        elif n in reg.PRIMITIVES or n in self.sym.values or n in reg.ENGINE_VALUES:
            hint = f"'{n}' is a function: call it with ({', '.join(_param_names(self.sym, n))})"
        best = did_you_mean(n, pool)
        hint = hint or familiar(n)
        self.error("SGS-E202", f"unknown name '{n}'", e.span, hint or (f"did you mean '{best}'?" if best else None))
        return None

    def attr(self, e: ast.Attr, scope: _Scope) -> str | None:
        t = self.expr(e.obj, scope)
        field_name = e.name.text
        if self.private(field_name, e.name.span):
            return None
        if t is None or t in ("any", "item", "event"):
            # a value of unknown type (first(), choose(), mark_value()…) or an event of unknown timing: only a
            # field some value (some timing) declares; the engine checks the rest at run time
            pool = reg.event_fields() if t == "event" else reg.all_fields()
            if field_name not in pool:
                best = did_you_mean(field_name, sorted(pool))
                self.error("SGS-E207", f"no {'event' if t == 'event' else 'value'} has a field '{field_name}'",
                           e.name.span, f"did you mean '{best}'?" if best else None)
            return None
        if t.startswith("event:"):
            tm = reg.TIMINGS[t[6:]]
            if field_name == "cancelled":
                return "bool"
            if field_name not in tm.fields:
                fields = ", ".join(tm.fields) or "none"
                best = did_you_mean(field_name, tm.fields)
                self.error("SGS-E206", f"a {tm.name} event has no field '{field_name}'", e.name.span,
                           f"did you mean '{best}'?" if best else f"its fields: {fields}")
                return None
            return tm.fields[field_name]
        attrs = reg.ATTRIBUTES.get(t)
        if attrs is None:
            self.error("SGS-E207", f"{_article(t)} has no field '{field_name}'", e.name.span)
            return None
        if field_name not in attrs:
            self.unknown("SGS-E207", f"field of a {t}", field_name, e.name.span, attrs)
            return None
        return attrs[field_name][0]

    def call(self, e: ast.Call, scope: _Scope) -> str | None:
        fname = e.func.text
        tests = reg.card_tests(fname)
        arg_types = [self.expr(a, self.card_test_scope(scope) if i in tests else scope) for i, a in enumerate(e.args)]
        kw_types = [self.expr(v, self.card_test_scope(scope) if k.text in tests else scope) for k, v in e.kwargs]
        if fname in self.sym.values or fname in reg.ENGINE_VALUES:
            e.ref = "value"
            if fname in self.sym.values:
                params = [(p.name.text, p.type.text) for p in self.sym.values[fname].params]
                typ = self._value_types.get(fname)
            else:
                spec = reg.ENGINE_VALUES[fname]
                params = list(zip(spec.params, spec.param_types, strict=True))
                typ = spec.type
            if e.kwargs:
                self.error("SGS-E204", f"value '{fname}' takes positional arguments only", e.kwargs[0][0].span)
            if len(e.args) != len(params):
                self.error("SGS-E204", f"'{fname}' takes {len(params)} arguments "
                           f"({', '.join(n for n, _ in params)}), got {len(e.args)}", e.func.span)
            for (pname, ptype), a, at in zip(params, e.args, arg_types, strict=False):
                self.arg_type(fname, pname, ptype, a, at)
            return typ
        if fname in self.sym.procedures and fname not in reg.PRIMITIVES:
            self.procedure_call(e, arg_types, scope)
            return None  # a procedure is an action: it has no value
        prim = reg.PRIMITIVES.get(fname)
        if prim is not None and prim.contexts and scope.kind not in prim.contexts:
            places = " or ".join(reg.SCOPE_PLACES.get(k, k) for k in prim.contexts)
            self.error("SGS-E215", f"'{fname}' can only be used in {places}", e.func.span,
                       "take_turn plays a whole turn: call it from the mode's turn_order"
                       if fname == "take_turn" else None)
        if prim is None:
            pool = list(reg.PRIMITIVES) + list(self.sym.values) + list(reg.ENGINE_VALUES) + list(self.sym.procedures)
            hint = None
            if fname in self.sym.cards or fname in self.sym.generals or fname in scope.all_names():
                hint = f"'{fname}' is not a function; drop the parentheses"
            best = did_you_mean(fname, pool)
            self.error("SGS-E203", f"unknown function '{fname}'", e.func.span,
                       hint or familiar(fname) or (f"did you mean '{best}'?" if best else None))
            return None
        e.ref = prim.kind
        if prim.kind == "action" and scope.pure:
            self.error("SGS-E303", f"'{fname}' changes the game and cannot be used in a condition or value",
                       e.func.span, "move it into an effect block")
        required = [p for p in prim.params if p.required]
        if len(e.args) > len(prim.params) and not prim.variadic:
            self.error("SGS-E204", f"'{fname}' takes at most {len(prim.params)} arguments, got {len(e.args)}",
                       e.func.span, _signature(prim))
        given = {p.name for p in prim.params[: len(e.args)]}
        by_name = {p.name: p for p in prim.params}
        for p, a, at in zip(prim.params, e.args, arg_types, strict=False):
            self.arg_type(fname, p.name, p.type, a, at, prim.kind == "action")
        for (k, v), vt in zip(e.kwargs, kw_types, strict=True):
            if k.text not in by_name:
                self.unknown("SGS-E204", f"argument of '{fname}'", k.text, k.span, by_name)
                continue
            if k.text in given:
                self.error("SGS-E204", f"argument '{k.text}' of '{fname}' is given twice", k.span)
            given.add(k.text)
            self.arg_type(fname, k.text, by_name[k.text].type, v, vt, prim.kind == "action")
        missing = [p.name for p in required if p.name not in given]
        if missing:
            self.error("SGS-E204", f"'{fname}' is missing {', '.join(missing)}", e.func.span, _signature(prim))
        if fname in ("choose", "choose_many"):
            self.option_hints(e)
        if fname == "cancel" and e.args:
            et = arg_types[0]
            if et and et.startswith("event:"):
                tm = reg.TIMINGS.get(et[6:])
                if tm is not None and not tm.cancellable:
                    cancellable = ", ".join(sorted(t.name for t in reg.TIMINGS.values() if t.cancellable))
                    self.error("SGS-E307", f"a {tm.name} event cannot be cancelled", e.func.span,
                               f"cancellable timings: {cancellable}")
        return _result_type(prim, e, arg_types, kw_types)

    @staticmethod
    def card_test_scope(scope: _Scope) -> _Scope:
        """Where a condition on a card is checked (`judge(…, hoping: it.suit == ♥)`): a condition (no actions) with
        the card as `it`."""
        inner = scope.child(pure=True)
        inner.names.update(reg.SCOPE_NAMES["card_test"])
        return inner

    def option_hints(self, e: ast.Call) -> None:
        """A choice's `hints:`, `costs:` and `befalls:` written out: one text (number, list) per item when both are
        written as lists (SGS-E204); and in the hints and in the choice's own `tags:`, hint words that look misspelt
        (SGS-W406, as for `tags`)."""
        own = next((v for k, v in e.kwargs if k.text == "tags"), None)
        if isinstance(own, ast.Lit) and own.kind == "str":
            self.hint_words(own)
        items = e.args[1] if len(e.args) > 1 else next((v for k, v in e.kwargs if k.text == "items"), None)
        for key, what, none in (("costs", "cost(s)", "one number per item (0 for none)"),
                                ("befalls", "list(s) of characters", "one list per item ([] for none)")):
            given = next((v for k, v in e.kwargs if k.text == key), None)
            if isinstance(given, ast.ListLit) and isinstance(items, ast.ListLit) \
                    and len(items.items) != len(given.items):
                self.error("SGS-E204", f"'{e.func.text}' has {len(items.items)} item(s) but {len(given.items)} "
                           f"{what}: give {none}", given.span)
            if isinstance(given, ast.ListLit):
                self.option_items(e.func.text, key, given)
        hints = next((v for k, v in e.kwargs if k.text == "hints"), None)
        if not isinstance(hints, ast.ListLit):
            return
        if isinstance(items, ast.ListLit) and len(items.items) != len(hints.items):
            self.error("SGS-E204", f"'{e.func.text}' has {len(items.items)} item(s) but {len(hints.items)} hint "
                       "text(s): give one text per item (\"\" for none)", hints.span)
        for h in hints.items:
            if isinstance(h, ast.Lit) and h.kind == "str":
                self.hint_words(h)

    def option_items(self, fname: str, key: str, given: ast.ListLit) -> None:
        """Each item of a written `costs:` list is a number; each of `befalls:` a list of characters (SGS-E301),
        what the rule would otherwise refuse only when the choice is asked."""
        for item, t in zip(given.items, self._item_types.get(id(given), []), strict=False):
            if key == "costs" and t not in (None, "int"):
                self.error("SGS-E301", f"costs of '{fname}' are numbers of cards, one per item, not {_article(t)}",
                           item.span, "e.g. costs: [0, p.hp]")
            elif key == "befalls" and t is not None and t not in ("players", "list"):
                self.error("SGS-E301", f"befalls of '{fname}' are lists of characters, one per item, not {_article(t)}",
                           item.span, "e.g. befalls: [[owner], [q for q in players() if q.kingdom == 魏]]")
            elif key == "befalls" and isinstance(item, ast.ListLit):
                wrong = next(((i, u) for i, u in zip(item.items, self._item_types.get(id(item), []), strict=False)
                              if u not in (None, "player")), None)
                if wrong is not None:
                    self.error("SGS-E301", f"befalls of '{fname}' list characters, not {_article(wrong[1] or '')}",
                               wrong[0].span, "one list of characters per item ([] for none)")

    def hint_words(self, text: ast.Lit) -> None:
        """SGS-W406 for each word of a written hint text that is not an AI hint word."""
        for word in str(text.value).split():
            if word in reg.AI_HINTS:
                continue
            best = did_you_mean(word, reg.AI_HINTS)
            self.warn("SGS-W406", f"hint '{word}' is not an AI hint word, so agents ignore it", text.span,
                      f"did you mean '{best}'?" if best else f"hint words: {', '.join(sorted(reg.AI_HINTS))}")

    def procedure_call(self, e: ast.Call, arg_types: list[str | None], scope: _Scope) -> None:
        """`NAME(args)` of a procedure: positional arguments, one per parameter; an action (not in conditions)."""
        fname = e.func.text
        pr = self.sym.procedures[fname]
        e.ref = "procedure"
        if scope.pure:
            self.error("SGS-E303", f"procedure '{fname}' changes the game and cannot be used in a condition or value",
                       e.func.span, "call it from an effect block")
        if e.kwargs:
            self.error("SGS-E204", f"procedure '{fname}' takes positional arguments only", e.kwargs[0][0].span)
        if len(e.args) != len(pr.params):
            self.error("SGS-E204", f"'{fname}' takes {len(pr.params)} arguments "
                       f"({', '.join(p.name.text for p in pr.params)}), got {len(e.args)}", e.func.span)
        for p, a, at in zip(pr.params, e.args, arg_types, strict=False):
            self.arg_type(fname, p.name.text, p.type.text, a, at, True)
        return None

    def arg_type(self, fname: str, pname: str, want: str, arg: ast.Expr, got: str | None,
                 asks: bool = False) -> None:
        """Check one argument's type. `asks`: the callee is an action, so a card family it is given is a
        card some rule asks for or uses (what W404 needs to know)."""
        if want == "skill" and isinstance(arg, ast.Lit) and arg.kind == "str" and arg.value not in self.sym.any_skills:
            self.unknown("SGS-E202", "skill", arg.value, arg.span,
                         [k for k, d in self.sym.any_skills.items() if k == d.name.text])
        if want == "family" and asks:
            if isinstance(arg, ast.Name) and arg.ref is not None and arg.ref[0] == "card":
                self._asked.add(arg.ref[1])
            elif not (isinstance(arg, ast.Lit) and arg.kind == "none"):
                self._dynamic_ask = True
        if want == "card_test":  # a condition: true or false, of the card `it`
            if _known(got) not in (None, "bool"):
                self.error("SGS-E301", f"argument '{pname}' of '{fname}' is a condition on the card `it` (true or "
                           f"false), not {_article(_known(got) or '')}", arg.span,
                           f"e.g. {pname}: it.suit == ♥")
            return
        if not assignable(want, got):
            hint = None
            if want == "player" and _known(got) == "players":
                hint = "this is a list of players; pick one, e.g. first(…)"
            elif want == "family" and _known(got) == "card":
                hint = "pass the card's name, e.g. 杀, or use card.family"
            self.error("SGS-E301", f"argument '{pname}' of '{fname}' must be {_article(want)}, "
                       f"not {_article(_known(got) or '')}", arg.span, hint)


def _result_type(prim: reg.Primitive, e: ast.Call, arg_types: list[str | None],
                 kw_types: list[str | None]) -> str | None:
    """What a call of a primitive gives. One that returns an `item` gives an element of its `items` argument
    (`first(players())` is a player, `choose(p, hand(p))` a card); one that returns a list and takes `items`
    gives a list of the same kind (`minus`, `without`, `choose_many`). Unknown when the list's kind is."""
    if prim.returns not in ("item", "list"):
        return prim.returns if prim.returns != "none" else None
    names = [p.name for p in prim.params]
    items: str | None = None
    if "items" in names and names.index("items") < len(arg_types):
        items = arg_types[names.index("items")]
    for (k, _), t in zip(e.kwargs, kw_types, strict=True):
        if k.text == "items":
            items = t
    if "items" not in names:
        return prim.returns if prim.returns == "list" else None
    if prim.returns == "item":
        return _ELEMENT.get(items or "")
    return items if items in ("players", "cards") else "list"


def _param_names(sym: Symbols, n: str) -> list[str]:
    """Takes the symbols, not the Checker, so this module need not import the class that mixes it in."""
    if n in reg.PRIMITIVES:
        return [p.name for p in reg.PRIMITIVES[n].params if p.required]
    if n in sym.values:
        return [p.name.text for p in sym.values[n].params]
    if n in reg.ENGINE_VALUES:
        return list(reg.ENGINE_VALUES[n].params)
    return []


def _counts(ns: list[int]) -> str:
    return ", ".join(str(n) for n in ns[:6]) + (" …" if len(ns) > 6 else "")


def _signature(prim: reg.Primitive) -> str:
    parts = [p.name if p.required else f"{p.name}: …" for p in prim.params]
    return f"{prim.name}({', '.join(parts)})"
