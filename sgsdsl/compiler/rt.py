"""What generated modules import besides the engine: error location and a few exact-semantics helpers.

Evaluation itself goes through `sgsdsl.engine.runtime` (the same helpers the interpreter calls); this
module only adds what compiled code needs on top: turning a Python error raised in generated code into a
`RuleError` that names the `.sgs` line (via the `# file.sgs:line:col` comments), and the interpreter's exact
messages for the few checks compiled code inlines.
"""

from __future__ import annotations

import io
import linecache
import re
import tokenize
from functools import lru_cache
from typing import Any

from ..engine import registry as _reg
from ..engine import runtime as _ert
from ..engine.errors import FLOW, RuleError, locate  # noqa: F401 - FLOW: what generated code lets through
from ..engine.registry.arguments import unchecked as _unchecked

_COMMENT = re.compile(r"^# (.+):(\d+):(\d+)$")
MARK = "__sgsdsl_generated__"


class Unset:
    """The value of a name the engine did not bind for this rule function (reading it is a rule error)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unset>"


UNSET = Unset()


def linked(module: Any, key: str) -> None:
    """Refuse a linked module compiled from other sources than the module importing it was compiled against."""
    if getattr(module, "SOURCE_KEY", None) != key:
        raise ImportError(f"the compiled module {getattr(module, '__name__', module)} is out of date for the "
                          "module importing it; recompile the rules (sgsdsl compile)")


def unbound(where: str, name: str) -> Any:
    """Exactly the interpreter's error for reading a name the frame does not hold."""
    raise RuleError(f"{where}: '{name}' has no value here")


def none_operand(where: str, op: str) -> Any:
    raise RuleError(f"{where}: '{op}' on none")


def primitive(name: str):
    """The implementation of a registry primitive, looked up once when a generated module is imported."""
    prim = _reg.PRIMITIVES.get(name)
    if prim is None:
        raise ImportError(f"generated code calls '{name}', which the engine registry no longer has; "
                          "recompile the rules (sgsdsl compile)")
    return prim.impl


def unchecked(name: str):
    """A primitive's implementation without its argument checks, for calls whose arguments the compiler proved
    (`lower.ALWAYS_BOUND`, `registry.arguments.proven_call`)."""
    return _unchecked(primitive(name))


def general(frame: Any, ident: str) -> Any:
    """A general named in a rule: the one of the program this game runs (as the interpreter does)."""
    return frame.game.program.generals[ident]


def skill(frame: Any, ident: str) -> Any:
    """A skill named in a rule: the one of the program this game runs (as the interpreter does)."""
    return frame.game.program.skill_named(ident)


@lru_cache(maxsize=64)
def _source_map(filename: str) -> dict[int, str]:
    """Generated line -> "file.sgs:line:col", read from the real comment tokens of a generated file."""
    text = "".join(linecache.getlines(filename))
    out: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                m = _COMMENT.match(tok.string)
                if m:
                    out[tok.start[0]] = f"{m.group(1)}:{m.group(2)}:{m.group(3)}"
    except (tokenize.TokenError, SyntaxError):  # pragma: no cover - generated files always tokenize
        pass
    return out


def sgs_location(tb: Any) -> str | None:
    """The .sgs line of the innermost generated frame in a traceback."""
    found: tuple[str, int] | None = None
    while tb is not None:
        if tb.tb_frame.f_globals.get(MARK):
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return None
    smap = _source_map(found[0])
    line = found[1]
    while line > 0:
        if line in smap:
            return smap[line]
        line -= 1
    return None


def located(err: BaseException) -> BaseException:
    """The exception to raise for `err` escaping a generated rule function.

    Engine errors keep their message (so compiled and interpreted games fail identically) and get a note
    naming the .sgs line; any other Python error becomes a RuleError that starts with the .sgs line.
    """
    return locate(err, sgs_location(err.__traceback__))


def contains_ab(item: Any, container: Any, frame: Any = None) -> bool:
    """`item in container` with the operands evaluated in source order (left first)."""
    return _ert.contains(container, item, frame)
