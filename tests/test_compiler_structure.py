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
            # (`*_direct`: the compiler's second form of a rule function, absent from interpreted programs; a
            # modifier's owner constant and a trigger's field guard are likewise worked out for compiled programs only)
            if f.name not in ("source_hash", "owner_constant", "constant", "field_guard") \
                    and not f.name.endswith("_direct"):
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
    assert not isinstance(got, str), got
    compiled, interpreted = got
    a: list = []
    b: list = []
    shape(compiled, "program", a, {})
    shape(interpreted, "program", b, {})
    assert a == b
    assert compiled.source_hash.startswith("sha256:")


def test_only_the_compiled_program_has_direct_functions() -> None:
    """Pure rule functions that read only the names the engine binds get a direct form in compiled programs
    (called without a bindings dict); the interpreter, the simple reference, has none."""
    got = load_pair("standard")
    assert not isinstance(got, str), got
    compiled, interpreted = got
    sha_c, sha_i = compiled.cards["sha"].uses[0], interpreted.cards["sha"].uses[0]
    assert sha_c.filter_direct is not None and sha_c.limit_direct is not None
    assert sha_i.filter_direct is None and sha_i.limit_direct is None
    horses = [m for c in compiled.cards.values() for s in c.skills for m in s.modifiers if m.quantity == "distance"]
    assert horses and all(m.condition_direct is not None and m.value_direct is not None for m in horses)
    triggers = [t for s in compiled.skills.values() for t in s.triggers if t.condition is not None]
    triggers += [t for g in compiled.generals.values() for s in g.skills for t in s.triggers if t.condition]
    assert any(t.condition_direct is not None for t in triggers)
    assert all(v.base_direct is not None for v in compiled.values.values())
    assert all(v.base_direct is None for v in interpreted.values.values())


def test_field_guards_are_compiled_only_and_read_the_leading_tests() -> None:
    """A trigger whose condition starts with event-field tests, one of them `event.F == text`, carries (F, text) in
    compiled programs only (the engine then skips dispatching an event none of a timing's listeners accepts); a
    condition whose text test comes after another kind of test carries none."""
    got = load_pair("standard")
    assert not isinstance(got, str), got
    compiled, interpreted = got

    def guards(program: Any) -> dict[str, list[Any]]:
        return {s.ident: [t.field_guard for t in s.triggers]
                for g in program.generals.values() for s in g.skills}

    got_c, got_i = guards(compiled), guards(interpreted)
    assert got_c["luoshen"] == [("phase", "prepare")]  # event.player == owner and event.phase == prepare
    assert got_c["biyue"] == [("phase", "finish")]
    assert got_c["keji"][0] is None  # event.user == owner and event.card is 杀 and …: no text test in front
    assert all(g is None for gs in got_i.values() for g in gs)
