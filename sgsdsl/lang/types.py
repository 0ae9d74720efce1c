"""Value types of the checker: which types the registry names, and which may be passed or compared."""

from __future__ import annotations

from functools import lru_cache

from ..engine import registry as reg

SUIT_SYMBOLS = ("♠", "♥", "♣", "♦")
GENDERS = tuple(n for n, (t, _) in reg.CONSTANTS.items() if t == "gender")
NATURES = tuple(n for n, (t, _) in reg.CONSTANTS.items() if t == "nature")


# Type names are the strings the registry uses ("player", "cards", "int"...). The checker only judges
# the ones it understands; anything else (a type a later registry adds) is accepted, never a false alarm.
STRINGY = frozenset({"str", "family", "role", "kingdom", "gender", "phase", "nature", "color", "category", "suit",
                     "zone"})
COLLECTIONS = frozenset({"list", "players", "cards", "range"})
ENTITIES = frozenset({"player", "card", "general", "use", "event", "face"})
UNDERSTOOD = STRINGY | COLLECTIONS | ENTITIES | {"int", "bool"}
_UNKNOWN = (None, "any", "item", "none")
_ELEMENT = {"players": "player", "cards": "card", "range": "int"}


@lru_cache(maxsize=1)
def registry_types() -> frozenset[str]:
    """Every type name the registry mentions: what a value parameter may be declared as."""
    names: set[str] = set(reg.ATTRIBUTES)
    for attrs in reg.ATTRIBUTES.values():
        names.update(t for t, _ in attrs.values())
    for prim in reg.PRIMITIVES.values():
        names.update(p.type for p in prim.params)
        names.add(prim.returns)
    for tm in reg.TIMINGS.values():
        names.update(tm.fields.values())
    for ev in reg.ENGINE_VALUES.values():
        names.update(ev.param_types)
        names.add(ev.type)
    names.update(t for t, _ in reg.CONSTANTS.values())
    for scope in reg.SCOPE_NAMES.values():
        names.update(scope.values())
    return frozenset(names - {"none", "item"})


def _base(t: str | None) -> str | None:
    return "event" if t is not None and t.startswith("event:") else t


def _known(t: str | None) -> str | None:
    """The type if the checker can judge it, else None."""
    b = _base(t)
    return b if b in UNDERSTOOD else None


def assignable(expected: str | None, actual: str | None) -> bool:
    """May a value of type `actual` be passed where `expected` is wanted? Unknown means yes."""
    e, a = _known(expected), _known(actual)
    if e is None or a is None or actual in _UNKNOWN or e == a:
        return True
    if e == "str":
        return a in STRINGY  # names of cards, roles, kingdoms… are text too
    if e in STRINGY:
        return a == "str" or (e == "family" and a == "family")
    if e == "cards":
        return a in ("card", "list")
    if e == "list":
        return a in COLLECTIONS
    if e == "players":
        return a == "list"
    return False


def comparable(a: str | None, b: str | None) -> bool:
    """Can `a == b` ever be true? Unknown types and `none` compare with anything."""
    x, y = _known(a), _known(b)
    if x is None or y is None or a == "none" or b == "none" or x == y:
        return True
    if x in STRINGY and y in STRINGY:
        return "str" in (x, y)
    return x in COLLECTIONS and y in COLLECTIONS


def _article(t: str) -> str:
    word = {"players": "list of players", "cards": "list of cards", "str": "text", "int": "number",
            "bool": "true/false value", "family": "card name", "event": "event"}.get(t, t)
    return ("an " if word[0] in "aeiou" else "a ") + word
