"""Helpers shared by the interpreter and the compiled rules, so both evaluate expressions identically."""

from __future__ import annotations

from typing import Any

from .errors import RuleError
from .model import Card, VirtualCard


def get_attr(obj: Any, name: str, where: str = "") -> Any:
    """Read a field of a player, card, use record or event; reading a field of nothing is a rule error."""
    if obj is None:
        raise RuleError(f"{where}: cannot read '{name}' of none" if where else f"cannot read '{name}' of none")
    try:
        return getattr(obj, name)
    except AttributeError:
        raise RuleError(f"{where}: {type(obj).__name__} has no field '{name}'") from None


def set_attr(obj: Any, name: str, op: str, value: Any, where: str = "") -> None:
    if obj is None:
        raise RuleError(f"{where}: cannot change '{name}' of none")
    if op == "+=":
        value = getattr(obj, name) + value
    elif op == "-=":
        value = getattr(obj, name) - value
    setattr(obj, name, value)


def is_family(obj: Any, family: str) -> bool:
    """`x is NAME`: the card (or converted card) is the named card or belongs to its family."""
    if not isinstance(obj, (Card, VirtualCard)):
        return False
    return obj.name == family or obj.family == family


def contains(container: Any, item: Any) -> bool:
    if container is None:
        return False
    if isinstance(container, range):
        return isinstance(item, int) and item in container
    return any(x is item or (not hasattr(x, "__dict__") and x == item) for x in container)


def add(a: Any, b: Any) -> Any:
    if isinstance(a, list) or isinstance(b, list):
        return list(a or []) + list(b or [])
    return a + b


def equals(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is b
    if hasattr(a, "__dict__") or hasattr(b, "__dict__") or hasattr(a, "__slots__"):
        return a is b
    return a == b


def truthy(v: Any) -> bool:
    if isinstance(v, (list, tuple)):
        return len(v) > 0
    return bool(v)


def inclusive_range(lo: int, hi: int) -> range:
    return range(lo, hi + 1)


MAX_LOOP = 1000


def loop_guard(count: int, where: str) -> None:
    if count > MAX_LOOP:
        raise RuleError(f"{where}: a loop ran more than {MAX_LOOP} times")
