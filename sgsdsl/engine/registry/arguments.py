"""Run-time checks of primitive arguments against their declared types.

The checker types every argument it can, but values of unknown type (first(), choose(), mark_value() …) and
programs that skipped the checker reach primitives too. Every primitive is wrapped (by `core.primitive`) so
that an argument of the wrong kind is a rule error naming the primitive and the parameter — never a Python
error deep in the engine, never a silently broken invariant. Domain checks (a count below zero, a card held
elsewhere, a dead receiver) live in the primitives themselves, with the helpers at the end of this module.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import wraps
from typing import Any

from ..errors import RuleError
from ..events import SCOPES, Event
from ..model import Card, Player, UseRecord, VirtualCard
from ..program import Frame, GeneralRule, SkillRule

INT_LIMIT = 1_000_000_000  # the language's numbers (engine.runtime.INT_MAX; not imported: runtime imports us)
# The longest list a rule may build or pass. A range `a..b` is lazy (`for` and `count` take any length), but
# where a primitive would hold, log or offer its items (first, minus, choose, mark …), a longer one is refused.
MAX_ITEMS = 100_000
_LIST_TYPES = ("list", "any", "item")
# Work over lists is paid for: a primitive given lists of N items in all spends N // ITEMS_PER_STEP steps of the
# game's budget (nothing for the short lists of a normal game), so a rule cannot buy unbounded work or memory
# with one step, e.g. `minus` of two 100,000-item lists in a loop (docs/language.md, "Limits").
ITEMS_PER_STEP = 64
_SIZED = (list, tuple, range)
_ANY_LENGTH = frozenset({"count"})  # primitives that only measure a list
# Entity parameters take none (a primitive may say what a missing one means); one that needs the entity and
# meets none gets a rule error naming the parameter, never Python's AttributeError.
_ENTITIES = frozenset({"player", "card", "general", "event", "use"})
_CARDS = (Card, VirtualCard)
_SEQ = (list, tuple)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and -INT_LIMIT <= v <= INT_LIMIT


def _cards_ok(v: Any) -> bool:
    if v is None or isinstance(v, _CARDS):
        return True
    return isinstance(v, _SEQ) and all(isinstance(c, _CARDS) for c in v)


# declared type -> (test, what it should be). None is accepted for every entity (the primitives say what a
# missing one means); numbers must be numbers. `list`, `bool`, `any` and `item` take anything (the primitives
# taking a list also take a single item).
_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "int": (_is_int, "a number in -1000000000..1000000000"),
    "player": (lambda v: v is None or type(v) is Player, "a player"),
    "players": (lambda v: v is None or (isinstance(v, _SEQ) and all(type(p) is Player for p in v)),
                "a list of players"),
    "card": (lambda v: v is None or isinstance(v, _CARDS), "a card"),
    "cards": (_cards_ok, "a card or a list of cards"),
    "general": (lambda v: v is None or type(v) is GeneralRule, "a general"),
    "event": (lambda v: v is None or type(v) is Event, "an event"),
    "use": (lambda v: v is None or type(v) is UseRecord, "a use"),
    "skill": (lambda v: v is None or isinstance(v, (SkillRule, str)), "a skill"),
}
# (a `card_test` parameter, a condition on a card written in the rule and asked later of any card: `judge(…, hoping:
# it.suit == ♥)`, has no run-time check: both back ends always pass what is written there as a function of the card)
_TEXT_KINDS = ("str", "family", "role", "kingdom", "gender", "phase", "nature", "color", "category", "suit", "zone")
for _t in _TEXT_KINDS:
    _CHECKS[_t] = (lambda v: v is None or isinstance(v, str), "a name or text")
_TEXT_TYPES: frozenset[type] = frozenset({type(None), str})
# declared type -> the exact types its test above always accepts: one set lookup answers most arguments, and only
# the rest (numbers, whose range counts, lists, subclasses) run the test
_PASSING: dict[str, frozenset[type]] = {
    "player": frozenset({type(None), Player}), "card": frozenset({type(None), Card, VirtualCard}),
    "general": frozenset({type(None), GeneralRule}), "event": frozenset({type(None), Event}),
    "use": frozenset({type(None), UseRecord}), "skill": frozenset({type(None), SkillRule, str}),
    "cards": frozenset({type(None), Card, VirtualCard}),
    **{t: _TEXT_TYPES for t in _TEXT_KINDS},
}


def kind_of(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "number" if _is_int(v) else "number out of range"
    for cls, word in ((str, "text"), (Player, "player"), (_CARDS, "card"), (Event, "event"),
                      (GeneralRule, "general"), (SkillRule, "skill"), (UseRecord, "use"), (_SEQ, "list")):
        if isinstance(v, cls):
            return word
    return "value"


def validated(name: str, params: tuple[Any, ...], fn: Callable[..., Any], variadic: bool) -> Callable[..., Any]:
    """fn, checking each argument against its parameter's declared type first."""
    checks = [(i, p.name, _CHECKS[p.type]) for i, p in enumerate(params) if p.type in _CHECKS]
    lists = {} if name in _ANY_LENGTH else {p.name: i for i, p in enumerate(params) if p.type in _LIST_TYPES}
    if not checks and not lists:
        return fn
    by_name = {pname: (i, check) for i, pname, check in checks}
    count = len(params)
    # the hot loop: position, the types that pass at once, and the test for the others
    tests = tuple((i, _PASSING.get(params[i].type, frozenset()), check[0]) for i, _, check in checks)
    ranges = tuple(lists.items())
    entities = tuple((p.name, i) for i, p in enumerate(params) if p.type in _ENTITIES)

    def refuse(i: int, v: Any) -> RuleError:
        _, pname, (_, want) = next(c for c in checks if c[0] == i)
        return RuleError(f"argument '{pname}' of {name}() must be {want}, not {kind_of(v)}")

    @wraps(fn)
    def run(f: Any, *args: Any, **kwargs: Any) -> Any:
        n = len(args)
        if n > count and not variadic:
            raise RuleError(f"{name}() takes at most {count} arguments, got {n}")
        for i, passing, test in tests:
            if i < n and type(args[i]) not in passing and not test(args[i]):
                raise refuse(i, args[i])
        if kwargs:
            for k, v in kwargs.items():
                spec = by_name.get(k)
                if spec is not None and not spec[1][0](v):
                    raise RuleError(f"argument '{k}' of {name}() must be {spec[1][1]}, not {kind_of(v)}")
        for pname, i in ranges:
            v = args[i] if i < n else kwargs.get(pname)
            if type(v) is range and len(v) > MAX_ITEMS:
                raise RuleError(f"argument '{pname}' of {name}() is a range of {len(v)} numbers; a list holds at "
                                f"most {MAX_ITEMS} items")
        try:
            return fn(f, *args, **kwargs) if kwargs else fn(f, *args)
        except TypeError as err:
            if err.__traceback__ is not None and err.__traceback__.tb_next is None:  # the call itself: bad names
                raise RuleError(f"{name}(): {err}") from None
            if str(err).endswith("expected; got None"):  # the native build's typed call refusing a missing one
                none_argument(name, entities, args, kwargs)
            raise
        except AttributeError as err:  # a missing character or card where this primitive needs one
            if "'NoneType'" in str(err):
                none_argument(name, entities, args, kwargs)
            raise

    run.unchecked = fn  # type: ignore[attr-defined]  # what compiled code calls when it proved the arguments
    return run


def none_argument(name: str, entities: tuple[tuple[str, int], ...], args: tuple[Any, ...],
                  kwargs: dict[str, Any]) -> None:
    """Raise "argument X of NAME() is none" for the first character or card argument that is none, if any: what
    a primitive that needed it failed on, as a rule error (the same on the Python engine, where reading it fails,
    and on the native build, where passing it to a typed function does)."""
    n = len(args)
    missing = [pname for pname, i in entities if (args[i] if i < n else kwargs.get(pname, 0)) is None]
    if missing:
        raise RuleError(f"argument '{missing[0]}' of {name}() is none") from None


def wrong_argument(name: str, params: tuple[str, ...], types: tuple[str, ...], args: tuple[Any, ...]) -> None:
    """Raise the argument error `validated` would for the first argument not of its declared kind, if any: for
    calls checked only once they failed (engine values, asked hundreds of times a game, are not checked first)."""
    for pname, typ, v in zip(params, types, args, strict=False):
        check = _CHECKS.get(typ)
        if check is not None and not check[0](v):
            raise RuleError(f"argument '{pname}' of {name}() must be {check[1]}, not {kind_of(v)}") from None


# What a value proven at compile time (by the compiler, from literals and the names the engine always binds)
# satisfies: a proven kind is never none and never a range. `skill` parameters also take a skill's name.
_PROVEN_FOR = {"int": ("int",), "player": ("player",), "card": ("card",), "general": ("general",),
               "event": ("event",), "use": ("use",), "skill": ("skill", "str")}


def unchecked(impl: Callable[..., Any]) -> Callable[..., Any]:
    """The implementation behind a primitive's checked wrapper (itself when nothing is checked)."""
    return getattr(impl, "unchecked", impl)


def proven_call(name: str, params: tuple[Any, ...], impl: Callable[..., Any], variadic: bool,
                args: list[str | None], kwargs: dict[str, str | None]) -> bool:
    """True when a call whose arguments have these proven kinds (None: unknown) passes every check `validated`
    makes and binds the implementation's signature, so calling `unchecked(impl)` directly is the same call:
    every checked parameter gets a value of its kind (never none, so no 'argument is none' rewrite either),
    no list parameter gets a range, and no arity or keyword error can happen."""
    fn = unchecked(impl)
    if len(args) > len(params) and not variadic:
        return False
    by_name = {p.name: p for p in params}
    given = [(params[i] if i < len(params) else None, k) for i, k in enumerate(args)]
    for pname, k in kwargs.items():
        if pname not in by_name:
            return False
        given.append((by_name[pname], k))
    for param, kind in given:
        if param is None:
            continue
        typ = param.type
        if typ in _PROVEN_FOR:
            if kind not in _PROVEN_FOR[typ]:
                return False
        elif typ in _CHECKS:  # text-like names
            if _CHECKS[typ][1] != "a name or text" or kind != "str":
                return False
        elif typ in _LIST_TYPES and name not in _ANY_LENGTH and kind is None:
            return False
    try:
        inspect.signature(fn).bind(None, *args, **kwargs)
    except TypeError:
        return False
    return True


# ---------------------------------------------------------------- domain checks used by the primitives
def count_arg(n: int, what: str, most: int | None = None) -> int:
    """A count (cards, HP, generals …): at least 0, at most `most` when given."""
    if n < 0:
        raise RuleError(f"{what} cannot be negative ({n})")
    if most is not None and n > most:
        raise RuleError(f"{what} is {n}, more than the {most} this game allows")
    return n


def scope_arg(scope: Any, what: str) -> str:
    """A counting scope (phase, turn, round, game): a typo is a rule error, not a missing table."""
    if scope not in SCOPES:
        raise RuleError(f"{what}'s scope must be {', '.join(SCOPES)}, not {scope!r}")
    return scope


def alive_arg(p: Player | None, what: str) -> Player:
    """A character that must be present and alive (a receiver of cards, a target of a judge-area move)."""
    if p is None:
        raise RuleError(f"{what} is none")
    if not p.alive:
        raise RuleError(f"{what} {p.label()} is dead")
    return p


def spend_walked(f: Any, items: int, what: str) -> None:
    """Spend the game's budget for a list comprehension's walk over ITEMS items of a list: an item is 1/ITEMS_PER_STEP
    of a step, the fraction carried from one walk to the next (`GameState.walked`), so that short lists walked
    again and again pay as one long one does; exhausted: a rule error. (A range is walked at a step an item:
    `runtime.walk`.)"""
    g = getattr(f, "game", None)
    if g is None:
        return
    walked = g.walked + items
    g.walked = walked % ITEMS_PER_STEP
    cost = walked // ITEMS_PER_STEP
    if not cost:
        return
    g.steps += cost
    if g.steps > g.step_budget:
        raise RuleError(f"{what}: the game's step budget ({g.step_budget} rule steps, loop rounds, value calls and "
                        f"list work at {ITEMS_PER_STEP} items a step) is exhausted: a rule does unbounded work")


def spend_items(f: Any, items: int, what: str) -> None:
    """Spend the game's budget for work over ITEMS list items (see ITEMS_PER_STEP); exhausted: a rule error."""
    cost = items // ITEMS_PER_STEP
    g = getattr(f, "game", None)
    if not cost or g is None:
        return
    g.steps += cost
    if g.steps > g.step_budget:
        raise RuleError(f"{what}: the game's step budget ({g.step_budget} rule steps, loop rounds, value calls and "
                        f"list work at {ITEMS_PER_STEP} items a step) is exhausted: a rule does unbounded work")


def charged(name: str, params: tuple[Any, ...], fn: Callable[..., Any]) -> Callable[..., Any]:
    """FN, first spending budget for the items of the lists it is given (both engines call this: the checked
    wrapper and compiled code's proven calls alike). FN itself when it takes no list."""
    positions = tuple(i for i, p in enumerate(params) if p.type in ("list", "any", "cards", "players"))
    if not positions:
        return fn

    @wraps(fn)
    def run(f: Any, *args: Any, **kwargs: Any) -> Any:
        n = 0
        for i in positions:
            if i < len(args) and type(args[i]) in _SIZED:
                n += len(args[i])
        for v in kwargs.values():
            if type(v) in _SIZED:
                n += len(v)
        if n >= ITEMS_PER_STEP:
            spend_items(f, n, f"{name}()")
        return fn(f, *args, **kwargs)

    if positions == (0,) and len(params) == 1 and params[0].name == "items":
        return _charged_single(name, fn)
    return run if len(positions) != 1 else _charged_one(name, positions[0], fn, run)


def _charged_single(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`charged` for a primitive whose one parameter is its list, `items` (count, first …, called in filters and
    conditions thousands of times a game): a call of two fixed arguments, which makes no tuple or dict of them."""

    @wraps(fn)
    def run_single(f: Any, items: Any) -> Any:
        if type(items) in _SIZED and len(items) >= ITEMS_PER_STEP:
            spend_items(f, len(items), f"{name}()")
        return fn(f, items)

    return run_single


def _charged_one(name: str, at: int, fn: Callable[..., Any], general: Callable[..., Any]) -> Callable[..., Any]:
    """`charged` for a primitive with one list parameter (count, first …), at position AT: a call without keywords
    is charged the same without the loops (these are called thousands of times a game, in filters and conditions);
    one with keywords goes the GENERAL way. (Its own function: the native build compiles a closure that calls a
    sibling closure wrongly.)"""

    @wraps(fn)
    def run_one(f: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            return general(f, *args, **kwargs)
        if at < len(args):
            v = args[at]
            if type(v) in _SIZED and len(v) >= ITEMS_PER_STEP:
                spend_items(f, len(v), f"{name}()")
        return fn(f, *args)

    return run_one


# ---------------------------------------------------------------- helpers the primitives share
# (here, not in core: compiled in the native build, they are C calls from the primitives, hundreds a game)
def _cards(x: Any) -> list[Any]:
    if x is None:
        return []
    if isinstance(x, (Card, VirtualCard)):
        return [x]
    return list(x)


def _need(x: Any, what: str) -> Any:
    if x is None:
        raise RuleError(f"{what} is none")
    return x


def _g(f: Frame):
    return f.game


def _holder(f: Frame, holder: Any) -> Any:
    """What a mark is kept on: a player, a use, an event, or the game (holder none); else a rule error."""
    if holder is None:
        return f.game
    if type(holder) in (Player, UseRecord, Event):
        return holder
    raise RuleError(f"marks are kept on a player, a use, an event or the game (none), not on {str(holder)[:40]!r}")


def _marks_of(target: Any) -> dict[str, Any]:
    """The marks of a holder; an event gets its mark table on first use (events live for one timing chain)."""
    if isinstance(target, Event):
        return target.__dict__.setdefault("marks", {})
    return target.marks
