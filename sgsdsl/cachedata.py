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

Registry = dict[str, tuple[type, tuple[str, ...]]]


def registry(classes: Iterable[type]) -> Registry:
    """The allow-list for `loads`: each dataclass by its name, with its field names in order."""
    out: Registry = {}
    for cls in classes:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        out[cls.__name__] = (cls, tuple(f.name for f in dataclasses.fields(cls)))
    return out


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
        if len(d) == 1:
            if "t" in d and type(d["t"]) is list:
                return tuple(d["t"])
            if "d" in d and type(d["d"]) is list:
                try:
                    return {k: v for k, v in d["d"]}
                except (TypeError, ValueError):
                    raise ValueError("a malformed dict in a cache entry") from None
        elif len(d) == 2 and type(d.get("c")) is str and type(d.get("v")) is list:
            known = allowed.get(d["c"])
            if known is not None and len(known[1]) == len(d["v"]):
                cls, names = known
                obj: Any = object.__new__(cls)
                for name, value in zip(names, d["v"], strict=True):
                    object.__setattr__(obj, name, value)  # frozen dataclasses too; no __init__ runs
                return obj
        raise ValueError("a cache entry holds something outside its format")

    try:
        return json.loads(data.decode("utf-8", "surrogatepass"), object_hook=hook)
    except (UnicodeDecodeError, RecursionError, TypeError) as err:
        raise ValueError(f"an unreadable cache entry: {err}") from None
