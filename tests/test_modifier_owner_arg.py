"""`owner_arg`: a modifier whose condition starts `P == owner` is skipped without a call for other arguments.

The skip must be exactly what evaluating the condition would give: only the first conjunct counts (a later one
runs after others that may fail), only `==` between the parameter and the skill's own `owner`, never when a
parameter is itself named owner. The standard rules' horses, 诸葛连弩 and 空城 are such modifiers; the engine's
games with them are checked unchanged by the fingerprint/cross-check runs, and here the analysis itself.
"""

from __future__ import annotations

from sgsdsl.interp.build import owner_arg
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
