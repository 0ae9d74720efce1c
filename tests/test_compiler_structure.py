"""The compiled module builds the same rule objects as the interpreter's builder (functions aside)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from sgsdsl.compiler.crosscheck import load_pair


def shape(o: Any, path: str, out: list[tuple[str, Any]], seen: dict[int, str]) -> None:
    """Flatten an object graph: data as is, functions as a marker, shared objects as references."""
    if callable(o) and not isinstance(o, type) and not dataclasses.is_dataclass(o):
        out.append((path, "<fn>"))
    elif dataclasses.is_dataclass(o) and not isinstance(o, type):
        if id(o) in seen:
            out.append((path, f"<same as {seen[id(o)]}>"))
            return
        seen[id(o)] = path
        for f in dataclasses.fields(o):
            if f.name != "source_hash":
                shape(getattr(o, f.name), f"{path}.{f.name}", out, seen)
    elif isinstance(o, dict):
        out.append((path, f"<dict {list(o)}>"))
        for k, v in o.items():
            shape(v, f"{path}[{k!r}]", out, seen)
    elif isinstance(o, (list, tuple)):
        out.append((path, f"<{type(o).__name__} {len(o)}>"))
        for i, v in enumerate(o):
            shape(v, f"{path}[{i}]", out, seen)
    else:
        out.append((path, o))


@pytest.mark.parametrize("rules", ["mini", "standard"])
def test_same_structure(rules: str) -> None:
    got = load_pair(rules)
    if isinstance(got, str):
        pytest.skip(got)
    compiled, interpreted = got
    a: list = []
    b: list = []
    shape(compiled, "program", a, {})
    shape(interpreted, "program", b, {})
    assert a == b
    assert compiled.source_hash.startswith("sha256:")
