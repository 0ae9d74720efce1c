"""Helpers shared by the interpreter and the compiled rules, so both evaluate expressions identically.

This is also the sandbox's one door: rules reach a value's fields only through `get_attr`/`set_attr`, which
allow exactly the fields the registry declares (`registry.core.ATTRIBUTES` per value class, a timing's
`fields`/`mutable` for events), so even a program that never went through the checker cannot reach a
Python attribute (a dunder, a method, a back-reference to the game). Numbers stay in `INT_MIN..INT_MAX`,
lists under `MAX_ITEMS`, and every loop round and rule call spends one step of the game's budget.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import registry as _reg
from .errors import RuleError
from .events import Event, truthy  # noqa: F401 - truthy: part of this module's interface
from .model import Card, Player, UseRecord, VirtualCard
from .registry.arguments import ITEMS_PER_STEP, MAX_ITEMS, spend_items, spend_walked

# The range of numbers in the language (documented in docs/language.md; the checker refuses literals outside).
INT_MIN = -1_000_000_000
INT_MAX = 1_000_000_000
# The longest list a rule may build (`+` of lists; a range passed where a list is used) lives with the
# argument checks, which refuse longer ranges: MAX_ITEMS.

_READ: dict[type, frozenset[str]] = {
    cls: frozenset(_reg.ATTRIBUTES.get(name, {})) for cls, name in _reg.VALUE_CLASSES.items()
}
_WRITE: dict[type, dict[str, str]] = {
    cls: {f: t for f, (t, w) in _reg.ATTRIBUTES.get(name, {}).items() if w} for cls, name in _reg.VALUE_CLASSES.items()
}
_EVENT_READ = _reg.event_fields()


def _at(where: str, text: str) -> RuleError:
    return RuleError(f"{where}: {text}" if where else text)


def kind_of(obj: Any) -> str:
    """The language's name for a value's type, for messages."""
    if obj is None:
        return "none"
    if isinstance(obj, Event):
        return "event"
    name = _reg.VALUE_CLASSES.get(type(obj))
    if name is not None:
        return name
    if isinstance(obj, bool):
        return "true/false value"
    if isinstance(obj, int):
        return "number"
    if isinstance(obj, str):
        return "text"
    if isinstance(obj, (list, tuple, range)):
        return "list"
    return "value"


def get_attr(obj: Any, name: str, where: str = "") -> Any:
    """Read a declared field of a player, card, use record, general or event; anything else is a rule error."""
    fields = _READ.get(type(obj))
    if fields is not None:
        if name in fields:
            try:
                return getattr(obj, name)
            except AttributeError:
                pass
    elif type(obj) is Event:
        if name in _EVENT_READ:
            d = obj.__dict__
            if name in d:
                return d[name]
    elif obj is None:
        raise _at(where, f"cannot read '{name}' of none")
    raise _at(where, f"{'an' if kind_of(obj)[0] in 'aeiou' else 'a'} {kind_of(obj)} has no field '{name}'")


def _event_timing(ev: Event) -> Any:
    return _reg.TIMINGS.get(ev.__dict__.get("timing") or ev.name)


def _fits(typ: str, value: Any) -> bool:
    """May `value` be stored in a field of declared type `typ`?"""
    if typ == "int":
        return isinstance(value, int) and INT_MIN <= value <= INT_MAX
    if typ == "bool":
        return isinstance(value, bool)
    if typ == "player":  # none too: a damage may lose its source (a rule making a dead character its source)
        return value is None or type(value) is Player
    if typ == "card":
        return type(value) in (Card, VirtualCard)
    if typ in _STRINGY:
        return isinstance(value, str)
    return value is None or isinstance(value, (int, str, Player, Card, VirtualCard, list))


_STRINGY = frozenset({"str", "family", "role", "kingdom", "gender", "phase", "nature", "color", "category", "suit",
                      "zone"})


def set_attr(obj: Any, name: str, op: str, value: Any, where: str = "") -> None:
    """Assign a field the registry declares writable (for an event: mutable at the timing it is at)."""
    if obj is None:
        raise _at(where, f"cannot change '{name}' of none")
    typ: str | None = None
    if type(obj) is Event:
        tm = _event_timing(obj)
        if tm is not None and name in tm.mutable and name in obj.__dict__:
            typ = tm.fields.get(name, "any")
    else:
        typ = _WRITE.get(type(obj), {}).get(name)
    if typ is None:
        raise _at(where, f"the {name} of {'an' if kind_of(obj)[0] in 'aeiou' else 'a'} {kind_of(obj)} cannot be "
                  "changed here")
    if op == "+=":
        value = add(getattr(obj, name), value, where)
    elif op == "-=":
        value = sub(getattr(obj, name), value, where)
    if not _fits(typ, value):
        raise _at(where, f"{name} must be {'an' if typ[0] in 'aeiou' else 'a'} {typ}, not {kind_of(value)}")
    setattr(obj, name, value)


def is_family(obj: Any, family: str) -> bool:
    """`x is NAME`: the card (or converted card) is the named card or belongs to its family."""
    if not isinstance(obj, (Card, VirtualCard)):
        return False
    return obj.name == family or obj.family == family


def contains(container: Any, item: Any, frame: Any = None) -> bool:
    if container is None:
        return False
    if isinstance(container, range):
        return isinstance(item, int) and item in container
    if not isinstance(container, (list, tuple)):
        raise RuleError(f"'in' needs a list or range on its right, not {kind_of(container)}")
    if len(container) >= ITEMS_PER_STEP:
        spend_items(frame, len(container), "'in'")
    return any(x is item or (not hasattr(x, "__dict__") and not isinstance(x, _BY_IDENTITY) and x == item)
               for x in container)


def number(v: Any, where: str = "") -> int:
    """v, if it is a number in the language's range; else a rule error."""
    if not isinstance(v, int):
        raise _at(where, f"expected a number, got {kind_of(v)}")
    if not INT_MIN <= v <= INT_MAX:
        raise _at(where, f"number {v} is outside the language's range {INT_MIN}..{INT_MAX}")
    return v


def add(a: Any, b: Any, where: str = "", frame: Any = None) -> Any:
    if isinstance(a, (list, range)) or isinstance(b, (list, range)):
        if not all(x is None or isinstance(x, (list, tuple, range)) for x in (a, b)):
            raise _at(where, f"'+' cannot combine {kind_of(a)} and {kind_of(b)}")
        if len(a or ()) + len(b or ()) > MAX_ITEMS:
            raise _at(where, f"a list would hold more than {MAX_ITEMS} items")
        spend_items(frame, len(a or ()) + len(b or ()), where or "'+'")
        return list(a or []) + list(b or [])
    if isinstance(a, int) and isinstance(b, int):
        return number(a + b, where)
    raise _at(where, f"'+' cannot combine {kind_of(a)} and {kind_of(b)}")


def sub(a: Any, b: Any, where: str = "") -> int:
    if isinstance(a, int) and isinstance(b, int):
        return number(a - b, where)
    raise _at(where, f"'-' cannot combine {kind_of(a)} and {kind_of(b)}")


def mul(a: Any, b: Any, where: str = "") -> int:
    if isinstance(a, int) and isinstance(b, int):
        return number(a * b, where)
    raise _at(where, f"'*' cannot combine {kind_of(a)} and {kind_of(b)}")


def neg(a: Any, where: str = "") -> int:
    if isinstance(a, int):
        return number(-a, where)
    raise _at(where, f"'-' needs a number, not {kind_of(a)}")


# the engine's entities compare by identity, also when a native build (sgsdsl/native.py) compiled their classes
# and so took away the __dict__ and __slots__ the tests below otherwise go by (a use record is a dataclass:
# `==` would compare its fields)
_BY_IDENTITY = (Player, Card, VirtualCard, UseRecord, Event)


def equals(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is b
    if hasattr(a, "__dict__") or hasattr(b, "__dict__") or hasattr(a, "__slots__") or \
            isinstance(a, _BY_IDENTITY) or isinstance(b, _BY_IDENTITY):
        return a is b
    return a == b


def inclusive_range(lo: Any, hi: Any, where: str = "") -> range:
    """`lo..hi`: a lazy range (never a list), bounds in the language's range."""
    return range(number(lo, where), number(hi, where) + 1)


def iterate(items: Any, where: str = "", frame: Any = None) -> Any:
    """What `for` walks: a range lazily, a list as a copy (the body may change the original; the copy is paid
    for, see `spend_items`)."""
    if items is None:
        return ()
    if isinstance(items, range):
        return items
    if isinstance(items, (list, tuple)):
        if len(items) >= ITEMS_PER_STEP:
            spend_items(frame, len(items), where or "'for'")
        return list(items)
    raise _at(where, f"'for' walks a list, but this is {kind_of(items)}")


def walk(frame: Any, items: Any, where: str = "") -> Iterator[Any]:
    """What a list comprehension walks: a range lazily, spending one step of the game's budget per item, so
    `[i for i in 1..1000000000]` ends at the budget with a located error instead of filling memory; a list (of
    bounded length: cards, characters, a list built with `+`) as a copy, paid for as list work, 1/64 of a step an
    item (`spend_walked`): a rule that asks the same question of a pile again and again (不屈's distinct ranks, at
    every event while its owner is below 1 HP) spent a whole step an item and ended a long game at the budget.
    Both engines walk comprehensions through here."""
    if items is None:
        return
    if isinstance(items, range):
        for item in items:
            step(frame, where)
            yield item
        return
    if not isinstance(items, (list, tuple)):
        raise _at(where, f"a list comprehension walks a list, but this is {kind_of(items)}")
    spend_walked(frame, len(items), where)
    yield from list(items)


def repeat_count(n: Any, where: str = "") -> range:
    """What `repeat N` runs: N rounds (none or below zero: none), at most MAX_LOOP."""
    if n is None:
        return range(0)
    return range(max(0, min(number(n, where), MAX_LOOP)))


MAX_LOOP = 1000


def loop_guard(count: int, where: str) -> None:
    if count > MAX_LOOP:
        raise RuleError(f"{where}: a loop ran more than {MAX_LOOP} times")


def step(frame: Any, where: str) -> None:
    """Spend one step of the game's budget (a loop round, a rule run, a value); exhausted: a rule error."""
    spend(getattr(frame, "game", None), where)


def spend(g: Any, where: str) -> None:
    """step() for the engine, which holds the game rather than a frame."""
    if g is not None:
        g.steps += 1
        if g.steps > g.step_budget:
            raise RuleError(f"{where}: the game's step budget ({g.step_budget} rule steps, loop rounds and value "
                            "calls) is exhausted: a rule loops or recurses without end")


def call_procedure(frame: Any, name: str, args: list[Any]) -> None:
    """Run a `procedure` with only its parameters bound; `stop` inside it leaves the procedure."""
    from .events import run_rule
    from .program import Frame

    proc = frame.game.program.procedures[name]
    run_rule(proc.body, Frame(frame.game, dict(zip(proc.params, args, strict=True))))
