"""The reference interpreter: walks the checked AST directly. Simple and obviously correct over fast.

Every rule function it hands to the engine is a closure over an AST node; evaluation goes through the
same runtime helpers (`engine.runtime`) and primitives (`engine.registry`) the compiled code calls.
"""

from __future__ import annotations

from typing import Any

from ..engine import registry as reg
from ..engine import runtime as rt
from ..engine.errors import FLOW, BreakLoop, RuleError, StopEffect, locate
from ..engine.program import Frame
from ..lang import ast


def _where(node: ast.Node) -> str:
    return f"{node.span.file}:{node.span.line}:{node.span.col}"


class Interpreter:
    def __init__(self, generals: dict[str, Any]):
        self.generals = generals  # ident -> GeneralRule, filled by the builder

    # ------------------------------------------------------------ closures handed to the engine
    def block_fn(self, block: ast.Block):
        def run(frame: Frame) -> None:
            env = dict(frame.vars)
            self.exec_block(block, frame, env)

        return run

    def expr_fn(self, expr: ast.Expr):
        def run(frame: Frame) -> Any:
            try:
                return self.eval(expr, frame, dict(frame.vars))
            except FLOW:
                raise
            except Exception as err:
                raise locate(err, _where(expr))  # noqa: B904 - the .sgs location is the useful part

        return run

    # ------------------------------------------------------------ statements
    def exec_block(self, block: ast.Block, frame: Frame, env: dict[str, Any]) -> None:
        for stmt in block.stmts:
            self.exec(stmt, frame, env)

    def exec(self, s: ast.Stmt, frame: Frame, env: dict[str, Any]) -> None:
        """One statement; an error escaping it is located at its line, exactly as compiled code does."""
        try:
            self._exec(s, frame, env)
        except FLOW:
            raise
        except Exception as err:
            raise locate(err, _where(s))  # noqa: B904 - the .sgs location is the useful part

    def _exec(self, s: ast.Stmt, frame: Frame, env: dict[str, Any]) -> None:
        if isinstance(s, ast.CallStmt):
            self.eval(s.call, frame, env)
        elif isinstance(s, ast.Let):
            env[s.name.text] = self.eval(s.value, frame, env)
        elif isinstance(s, ast.If):
            if rt.truthy(self.eval(s.test, frame, env)):
                self.exec_block(s.body, frame, env)
            elif s.orelse is not None:
                self.exec_block(s.orelse, frame, env)
        elif isinstance(s, ast.For):
            items = self.eval(s.iterable, frame, env)
            for item in rt.iterate(items, _where(s), frame):
                rt.step(frame, _where(s))
                env[s.var.text] = item
                try:
                    self.exec_block(s.body, frame, env)
                except BreakLoop:
                    break
        elif isinstance(s, ast.While):
            count = 0
            while rt.truthy(self.eval(s.test, frame, env)):
                count += 1
                rt.loop_guard(count, _where(s))
                rt.step(frame, _where(s))
                try:
                    self.exec_block(s.body, frame, env)
                except BreakLoop:
                    break
        elif isinstance(s, ast.Repeat):
            n = self.eval(s.count, frame, env)
            for _ in rt.repeat_count(n, _where(s)):
                rt.step(frame, _where(s))
                try:
                    self.exec_block(s.body, frame, env)
                except BreakLoop:
                    break
        elif isinstance(s, ast.Assign):
            obj = self.eval(s.target.obj, frame, env)
            value = self.eval(s.value, frame, env)
            rt.set_attr(obj, s.target.name.text, s.op, value, _where(s))
        elif isinstance(s, ast.Stop):
            raise StopEffect()
        elif isinstance(s, ast.Break):
            raise BreakLoop()
        else:  # pragma: no cover - the parser produces no other statements
            raise RuleError(f"{_where(s)}: unknown statement")

    # ------------------------------------------------------------ expressions
    def eval(self, e: ast.Expr, frame: Frame, env: dict[str, Any]) -> Any:
        if isinstance(e, ast.Lit):
            return e.value
        if isinstance(e, ast.Name):
            kind, value = e.ref or ("local", e.ident)
            if kind == "local":
                if e.ident not in env:
                    raise RuleError(f"{_where(e)}: '{e.ident}' has no value here")
                return env[e.ident]
            if kind == "const" or kind == "card":
                return value
            if kind == "general" and value in self.generals:
                return self.generals[value]
            if kind == "skill":
                return frame.game.program.skill_named(value)
            if kind == "option":
                return frame.game.options.get(value)
            raise RuleError(f"{_where(e)}: unresolved name '{e.ident}'")
        if isinstance(e, ast.Attr):
            return rt.get_attr(self.eval(e.obj, frame, env), e.name.text, _where(e))
        if isinstance(e, ast.Call):
            tests = reg.card_tests(e.func.text) if e.ref not in ("value", "procedure") else frozenset()
            args = [self.card_test(a, frame, env) if i in tests else self.eval(a, frame, env)
                    for i, a in enumerate(e.args)]
            if e.ref == "value":
                return frame.game.dispatch.value(e.func.text, *args)
            if e.ref == "procedure":
                return rt.call_procedure(frame, e.func.text, args)
            kwargs = {k.text: self.card_test(v, frame, env) if k.text in tests else self.eval(v, frame, env)
                      for k, v in e.kwargs}
            prim = reg.PRIMITIVES.get(e.func.text)
            if prim is None:
                raise RuleError(f"{_where(e)}: unknown function '{e.func.text}'")
            return prim.impl(frame, *args, **kwargs)
        if isinstance(e, ast.BinOp):
            return self.binop(e, frame, env)
        if isinstance(e, ast.Unary):
            v = self.eval(e.operand, frame, env)
            return (not rt.truthy(v)) if e.op == "not" else rt.neg(v, _where(e))
        if isinstance(e, ast.IsFamily):
            return rt.is_family(self.eval(e.operand, frame, env), e.family.text)
        if isinstance(e, ast.RangeLit):
            return rt.inclusive_range(self.eval(e.low, frame, env), self.eval(e.high, frame, env), _where(e))
        if isinstance(e, ast.ListLit):
            return [self.eval(i, frame, env) for i in e.items]
        if isinstance(e, ast.ListComp):
            items = self.eval(e.iterable, frame, env)
            name = e.var.text
            missing = object()
            saved = env.get(name, missing)  # the variable lives only inside the comprehension
            out = []
            try:
                for item in rt.walk(frame, items, _where(e)):
                    env[name] = item
                    if e.cond is None or rt.truthy(self.eval(e.cond, frame, env)):
                        out.append(self.eval(e.elem, frame, env))
            finally:
                if saved is missing:
                    env.pop(name, None)
                else:
                    env[name] = saved
            return out
        if isinstance(e, ast.CondExpr):
            if rt.truthy(self.eval(e.test, frame, env)):
                return self.eval(e.then, frame, env)
            return self.eval(e.orelse, frame, env)
        raise RuleError(f"{_where(e)}: unknown expression")  # pragma: no cover

    def card_test(self, e: ast.Expr, frame: Frame, env: dict[str, Any]) -> Any:
        """A condition on a card (`hoping: it.suit == ♥`) as a function of the card, run later: with the names of
        its rule as they are then, and the card as `it`."""
        def holds(card: Any) -> bool:
            return rt.truthy(self.eval(e, frame, {**env, "it": card}))

        return holds

    def binop(self, e: ast.BinOp, frame: Frame, env: dict[str, Any]) -> Any:
        op = e.op
        if op == "and":
            return rt.truthy(self.eval(e.left, frame, env)) and rt.truthy(self.eval(e.right, frame, env))
        if op == "or":
            return rt.truthy(self.eval(e.left, frame, env)) or rt.truthy(self.eval(e.right, frame, env))
        a = self.eval(e.left, frame, env)
        b = self.eval(e.right, frame, env)
        if op == "==":
            return rt.equals(a, b)
        if op == "!=":
            return not rt.equals(a, b)
        if op == "in":
            return rt.contains(b, a, frame)
        if a is None or b is None:
            raise RuleError(f"{_where(e)}: '{op}' on none")
        if op == "+":
            return rt.add(a, b, _where(e), frame)
        if op == "-":
            return rt.sub(a, b, _where(e))
        if op == "*":
            return rt.mul(a, b, _where(e))
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        if op == ">=":
            return a >= b
        raise RuleError(f"{_where(e)}: unknown operator {op}")  # pragma: no cover
