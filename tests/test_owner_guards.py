"""`owner_arg`, `owner_field`: a modifier whose condition starts `P == owner`, a trigger whose condition starts
`event.F == owner`, is skipped without a call for other arguments / other characters' events.

The skip must be exactly what evaluating the condition would give: only the first conjunct counts (a later one
runs after others that may fail), only `==` between the parameter and the skill's own `owner`, never when a
parameter is itself named owner. The standard rules' horses, 诸葛连弩 and 空城 are such modifiers; the engine's
games with them are checked unchanged by the fingerprint/cross-check runs, and here the analysis itself.
"""

from __future__ import annotations

from sgsdsl.interp.build import owner_arg, owner_field
from sgsdsl.lang import ast
from sgsdsl.lang.diagnostics import Span
from tests.helpers import STANDARD, program

_S = Span.point("<test>", 1, 1)


def name(n: str) -> ast.Name:
    return ast.Name(_S, n, ("local", n))


def op(o: str, a: ast.Expr, b: ast.Expr) -> ast.BinOp:
    return ast.BinOp(_S, o, a, b)


def test_owner_arg_reads_the_first_conjunct_only() -> None:
    params = ("a", "b")
    assert owner_arg(op("==", name("b"), name("owner")), params) == 1
    assert owner_arg(op("==", name("owner"), name("a")), params) == 0
    assert owner_arg(op("and", op("==", name("a"), name("owner")), name("x")), params) == 0
    assert owner_arg(op("and", name("x"), op("==", name("a"), name("owner"))), params) is None  # x runs first
    assert owner_arg(op("!=", name("a"), name("owner")), params) is None
    assert owner_arg(op("==", name("a"), name("b")), params) is None
    assert owner_arg(op("==", name("c"), name("owner")), params) is None  # not a parameter
    assert owner_arg(op("==", name("a"), name("owner")), ("a", "owner")) is None  # owner is the argument
    const = ast.Name(_S, "owner", ("const", "owner"))
    assert owner_arg(op("==", name("a"), const), params) is None
    assert owner_arg(None, params) is None


def test_standard_horses_are_guarded() -> None:
    prog = program(str(STANDARD))
    horses = [m for s in prog.skills.values() for m in s.modifiers if m.quantity == "distance"]
    horses += [m for c in prog.cards.values() for s in c.skills for m in s.modifiers if m.quantity == "distance"]
    assert horses and all(m.owner_arg in (0, 1) for m in horses)


def attr(obj: ast.Expr, field: str) -> ast.Attr:
    return ast.Attr(_S, obj, ast.Ident(_S, field))


def test_owner_field_reads_the_first_conjunct_only() -> None:
    ev = name("event")
    assert owner_field(op("==", attr(ev, "player"), name("owner"))) == "player"
    assert owner_field(op("==", name("owner"), attr(ev, "target"))) == "target"
    assert owner_field(op("and", op("==", attr(ev, "user"), name("owner")), name("x"))) == "user"
    assert owner_field(op("and", name("x"), op("==", attr(ev, "user"), name("owner")))) is None
    assert owner_field(op("==", attr(ev, "no_such_field"), name("owner"))) is None  # the read's own error
    assert owner_field(op("==", attr(name("x"), "player"), name("owner"))) is None  # not the event
    assert owner_field(op("!=", attr(ev, "player"), name("owner"))) is None
    assert owner_field(None) is None


def test_standard_triggers_are_guarded() -> None:
    prog = program(str(STANDARD))
    triggers = [t for g in prog.generals.values() for s in g.skills for t in s.triggers]
    assert sum(t.owner_field is not None for t in triggers) >= 10
    assert all(t.owner_field is None for r in prog.rules.values() for t in r.triggers)  # no owner there
