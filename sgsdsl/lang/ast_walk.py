"""Walks over a rule's text shared by the readings made of it before it runs: where a skill's action could be aimed
(interp/reach.py), what a choice of characters is for (lang/intent.py), and the checker's note on a choice agents
cannot read. Each asks the same questions of the tree: a call's argument by name, whether a name is the skill's
owner, whether an expression is a list of characters by its form, and a body's calls in the order they run.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from ..engine.registry import PRIMITIVES
from . import ast

# requests whose first argument chooses and whose second are the items chosen among
CHOICES = ("choose", "choose_many")


def kwarg(call: ast.Call, name: str) -> ast.Expr | None:
    return next((v for k, v in call.kwargs if k.text == name), None)


def is_owner(e: ast.Expr) -> bool:
    return isinstance(e, ast.Name) and e.ident == "owner" and e.ref == ("local", "owner")


def is_seats(e: ast.Expr, values: Mapping[str, ast.ValueDef], depth: int = 0) -> bool:
    """Whether the expression is a list of characters by its form: a function or value returning them, such a list
    filtered (`[p for p in others(owner) if …]`), less others, or joined to another."""
    if depth > 8:
        return False
    if isinstance(e, ast.Call) and e.ref == "function":
        prim = PRIMITIVES.get(e.func.text)
        if prim is not None and prim.returns == "players":
            return True
        return e.func.text == "minus" and bool(e.args) and is_seats(e.args[0], values, depth + 1)
    if isinstance(e, ast.Call) and e.ref == "value":
        d = values.get(e.func.text)
        return d is not None and is_seats(d.expr, values, depth + 1)
    if isinstance(e, ast.ListComp):
        return isinstance(e.elem, ast.Name) and e.elem.ident == e.var.text and is_seats(e.iterable, values, depth + 1)
    if isinstance(e, ast.BinOp) and e.op == "+":
        return is_seats(e.left, values, depth + 1) and is_seats(e.right, values, depth + 1)
    if isinstance(e, ast.CondExpr):
        return is_seats(e.then, values, depth + 1) and is_seats(e.orelse, values, depth + 1)
    return False


# functions that return one of the list they are given
_PICKS_ONE = frozenset({"first", "last"})


def is_seat(e: ast.Expr, values: Mapping[str, ast.ValueDef], depth: int = 0) -> bool:
    """Whether the expression is one character by its form: a function or value returning one, or the first of a
    list of characters (`first(alive_with_role(lord))`)."""
    if depth > 8 or not isinstance(e, ast.Call):
        return False
    if e.ref == "value":
        d = values.get(e.func.text)
        return d is not None and is_seat(d.expr, values, depth + 1)
    if e.ref != "function":
        return False
    prim = PRIMITIVES.get(e.func.text)
    if prim is not None and prim.returns == "player":
        return True
    return e.func.text in _PICKS_ONE and len(e.args) == 1 and is_seats(e.args[0], values, depth + 1)


def fixed_seat(body: ast.Block, values: Mapping[str, ast.ValueDef]) -> ast.Let | None:
    """In a body that chooses no character, its first own statement binding a name to one character by its form
    (`let lp = first(alive_with_role(lord))`): whom the body then helps or harms is known before it runs."""
    for call in calls(body):
        items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
        if call.func.text in CHOICES and items is not None and is_seats(items, values):
            return None
    return next((stmt for stmt in body.stmts if isinstance(stmt, ast.Let) and is_seat(stmt.value, values)), None)


def calls(node: ast.Node) -> Iterator[ast.Call]:
    """The calls in a body, in the order they run: statements in turn, a call's arguments before the call."""
    for part in parts(node):
        yield from calls(part)
    if isinstance(node, ast.Call):
        yield node


def parts(node: ast.Node) -> list:
    """A statement's or expression's parts, in the order they are evaluated (a loop's body after what it loops
    over, a list comprehension's element and filter after its list)."""
    if isinstance(node, ast.Block):
        return list(node.stmts)
    if isinstance(node, ast.Call):
        return [*node.args, *(v for _, v in node.kwargs)]
    if isinstance(node, ast.CallStmt):
        return [node.call]
    if isinstance(node, (ast.Let, ast.Assign)):
        return [node.value]
    if isinstance(node, ast.If):
        return [node.test, node.body] + ([node.orelse] if node.orelse is not None else [])
    if isinstance(node, ast.For):
        return [node.iterable, node.body]
    if isinstance(node, ast.While):
        return [node.test, node.body]
    if isinstance(node, ast.Repeat):
        return [node.count, node.body]
    if isinstance(node, ast.Attr):
        return [node.obj]
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, (ast.Unary, ast.IsFamily)):
        return [node.operand]
    if isinstance(node, ast.RangeLit):
        return [node.low, node.high]
    if isinstance(node, ast.ListLit):
        return list(node.items)
    if isinstance(node, ast.ListComp):
        return [node.iterable, node.elem] + ([node.cond] if node.cond is not None else [])
    if isinstance(node, ast.CondExpr):
        return [node.test, node.then, node.orelse]
    return []


def calls_in(node: object) -> list[ast.Call]:
    """Every call anywhere under a node (a module, a definition, a body), in source order: a generic walk over the
    tree's dataclass fields, for readers that look at every call rather than at a body's running order."""
    out: list[ast.Call] = []
    stack: list[object] = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, ast.Call):
            out.append(x)
        if isinstance(x, (list, tuple)):
            stack.extend(reversed(x))
        elif isinstance(x, ast.Node):
            stack.extend(reversed([getattr(x, f) for f in x.__dataclass_fields__ if f != "span"]))
    return out


def called_procedures(nodes: Iterable[ast.Node], procedures: Mapping[str, ast.ProcedureDef]) -> list[ast.ProcedureDef]:
    """The procedures that calls under NODES run, and those their bodies call in turn, each once, in the order
    first reached (a checked program: a call of a procedure carries `ref == "procedure"`)."""
    out: dict[str, ast.ProcedureDef] = {}
    pending = [c.func.text for n in nodes for c in calls_in(n) if c.ref == "procedure"]
    pending.reverse()
    while pending:
        name = pending.pop()
        pr = procedures.get(name)
        if pr is None or name in out:
            continue
        out[name] = pr
        pending += reversed([c.func.text for c in calls_in(pr.body) if c.ref == "procedure"])
    return list(out.values())
