"""The cache's data format: JSON that can describe sgsdsl's own records and nothing that runs.

Cache entries used to be pickles, and unpickling a file someone else planted runs their code. JSON cannot run
anything; what it lacks is spelt as tagged objects, so every JSON object in an entry is one of:

- `{"t": [...]}` a tuple, `{"d": [[key, value], ...]}` a dict (keys of any kind, order kept);
- `{"c": "Name", "v": [...]}` an instance of a dataclass the *reader* names in its allow-list (the values in
  field order): the class is never looked up by a name the file chooses, only picked from that list.

Anything else (another class, a set, a function) cannot be written: `dumps` raises `TypeError` and the caller
simply does not cache. `loads` raises `ValueError` on anything it does not recognise: a miss for the caller.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from typing import Any

# per class name: the class, its field names in order, and whether `loads` may make it by calling it
Registry = dict[str, tuple[type, tuple[str, ...], bool]]


def registry(classes: Iterable[type]) -> Registry:
    """The allow-list for `loads`: each dataclass by its name, with its field names in order."""
    out: Registry = {}
    for cls in classes:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        names = tuple(f.name for f in dataclasses.fields(cls))
        out[cls.__name__] = (cls, names, _plain_init(cls, names))
    return out


def _plain_init(cls: type, names: tuple[str, ...]) -> bool:
    """Whether calling CLS with its field values does nothing but store them: the `__init__` dataclasses wrote
    (made from a string, not a file), taking exactly the fields, with no `__post_init__`. Such an instance is made by
    that call, a third faster to read than one filled attribute by attribute, and with the same attributes."""
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    return (code is not None and code.co_filename == "<string>" and not hasattr(cls, "__post_init__")
            and code.co_varnames[1:code.co_argcount] == names and code.co_kwonlyargcount == 0)


def dumps(obj: Any, allowed: Registry) -> bytes:
    """OBJ as the tagged JSON above (UTF-8). Raises TypeError for anything outside the format or ALLOWED."""
    return json.dumps(_encode(obj, allowed), ensure_ascii=False, separators=(",", ":"),
                      check_circular=False).encode("utf-8", "surrogatepass")


def _encode(obj: Any, allowed: Registry) -> Any:
    plain = (bool, int, float, str, type(None))

    def enc(o: Any, depth: int) -> Any:
        t = type(o)
        if t in plain:
            return o
        if depth > _MAX_DEPTH:
            raise TypeError("a cache entry nests too deep")
        if t is list:
            return [x if type(x) in plain else enc(x, depth + 1) for x in o]
        if t is tuple:
            return {"t": [x if type(x) in plain else enc(x, depth + 1) for x in o]}
        if t is dict:
            return {"d": [[enc(k, depth + 1), enc(v, depth + 1)] for k, v in o.items()]}
        known = allowed.get(t.__name__)
        if known is None or known[0] is not t:
            raise TypeError(f"a cache entry cannot hold a {t.__module__}.{t.__qualname__}")
        names = known[1]
        if getattr(o, "__dict__", None) is not None and len(vars(o)) != len(names):
            raise TypeError(f"a {t.__name__} with attributes beyond its fields cannot be cached")
        values = [getattr(o, n) for n in names]
        return {"c": t.__name__, "v": [x if type(x) in plain else enc(x, depth + 1) for x in values]}

    return enc(obj, 0)


_MAX_DEPTH = 400  # within Python's recursion limit (the parser refuses deeper nesting long before)


def loads(data: bytes, allowed: Registry) -> Any:
    """What `dumps` wrote; classes only from ALLOWED. Raises ValueError for anything else."""
    def hook(d: dict[str, Any]) -> Any:
        c = d.get("c")  # (the instances first: most objects in an entry are)
        if c is not None:
            values = d.get("v")
            known = allowed.get(c) if type(c) is str else None
            if len(d) == 2 and known is not None and type(values) is list and len(known[1]) == len(values):
                cls, names, plain = known
                if plain:
                    return cls(*values)
                obj: Any = object.__new__(cls)
                for name, value in zip(names, values, strict=True):
                    object.__setattr__(obj, name, value)  # frozen dataclasses too; no __init__ runs
                return obj
        elif len(d) == 1:
            if type(items := d.get("t")) is list:
                return tuple(items)
            if type(pairs := d.get("d")) is list:
                try:
                    return {k: v for k, v in pairs}
                except (TypeError, ValueError):
                    raise ValueError("a malformed dict in a cache entry") from None
        raise ValueError("a cache entry holds something outside its format")

    try:
        return json.loads(data.decode("utf-8", "surrogatepass"), object_hook=hook)
    except (UnicodeDecodeError, RecursionError, TypeError) as err:
        raise ValueError(f"an unreadable cache entry: {err}") from None
