"""Compiled calls that skip a primitive's argument checks are exactly the calls that would pass them.

The compiler calls a primitive's implementation directly (`_D_` names in generated code) when every checked
argument is a literal or a name the engine always binds in that kind of rule body (`lower.ALWAYS_BOUND`).
Here games are played with each such call routed back through the checks, plus a check that no entity argument
is none: a contract the engine broke (a frame binding none, a filter run with another frame) fails this test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sgsdsl.api import check_paths
from sgsdsl.compiler.cache import compiled_module
from sgsdsl.compiler.crosscheck import ROOT, RULE_SETS
from sgsdsl.compiler.lower import ALWAYS_BOUND
from sgsdsl.engine import registry as reg
from sgsdsl.engine.registry.arguments import _CHECKS, proven_call, unchecked
from sgsdsl.engine.registry.core import Param
from sgsdsl.interp.build import card_effect_bound, clause_effect_bound
from sgsdsl.sim import play_one

_ENTITIES = {"player", "card", "general", "event", "use", "skill"}


def _strict(name: str, calls: list[str]) -> Any:
    prim = reg.PRIMITIVES[name]
    params = prim.params

    def call(f: Any, *args: Any, **kwargs: Any) -> Any:
        named = {**{p.name: a for p, a in zip(params, args, strict=False)}, **kwargs}
        for p in params:
            if p.type in _ENTITIES and p.name in named:
                assert named[p.name] is not None, f"{name}(): '{p.name}' is none in a call proven to bind it"
        calls.append(name)
        return prim.impl(f, *args, **kwargs)  # the checked wrapper: a wrong kind is a rule error, failing the game

    return call


@pytest.fixture
def strict_direct_calls() -> Iterator[tuple[dict[str, Any], list[str]]]:
    mods: dict[str, Any] = {}
    saved: list[tuple[Any, str, Any]] = []
    calls: list[str] = []
    for rules in ("standard", "all41", "tongzhou"):
        mod = compiled_module(check_paths([str(ROOT / RULE_SETS[rules])]))
        mods[rules] = mod
        for key, value in list(vars(mod).items()):
            if key.startswith("_D_"):
                name = next(n for n, prim in reg.PRIMITIVES.items() if unchecked(prim.impl) is value)
                saved.append((mod, key, value))
                setattr(mod, key, _strict(name, calls))
    try:
        yield mods, calls
    finally:
        for mod, key, value in saved:
            setattr(mod, key, value)


def test_direct_calls_pass_the_checks_they_skip(strict_direct_calls) -> None:
    mods, calls = strict_direct_calls
    for rules, mod in mods.items():
        program = mod.build_program()
        mode = "identity" if "identity" in program.modes else sorted(program.modes)[0]
        for seed in range(4):
            game = play_one(program, mode, 8 if rules != "tongzhou" else program.modes[mode].players[0], seed,
                            agents=("heuristic",) if seed % 2 else ("random",))
            assert game.result is not None
    assert len(calls) > 1000 and len(set(calls)) >= 10  # the direct calls were exercised


def _bound_check(fn: Any, scope: str, seen: set[str]) -> Any:
    if fn is None:
        return None
    names = ALWAYS_BOUND[scope]
    types = reg.SCOPE_NAMES[scope]

    def run(frame: Any) -> Any:
        for name in names:
            if name in frame.vars:  # an unbound name is the rule's error, the same on both paths
                value = frame.vars[name]
                assert value is not None and _CHECKS[types[name]][0](value), f"{scope}: {name} = {value!r}"
                seen.add(scope)
        return fn(frame)

    return run


def _direct_check(fn: Any, scope: str, names: tuple[str, ...], seen: set[str]) -> Any:
    """The same promise for a direct function, called with the values of NAMES after its frame."""
    if fn is None:
        return None
    promised = ALWAYS_BOUND[scope]
    types = reg.SCOPE_NAMES[scope]

    def run(frame: Any, *args: Any) -> Any:
        assert len(args) >= len(names) and not frame.vars, f"{scope}: direct call with {args!r}, {frame.vars!r}"
        for name, value in zip(names, args, strict=False):
            if name in promised:
                assert value is not None and _CHECKS[types[name]][0](value), f"{scope}: {name} = {value!r}"
                seen.add(scope)
        return fn(frame, *args)

    return run


def _effect_check(fn: Any, promised: frozenset[str], seen: set[str]) -> Any:
    """A card effect's promise (`interp.build.clause_effect_bound`, `card_effect_bound`): those names never none."""
    if fn is None:
        return None
    types = reg.SCOPE_NAMES["effect"]

    def run(frame: Any) -> Any:
        for name in promised:
            value = frame.vars.get(name)
            assert value is not None and _CHECKS[types[name]][0](value), f"effect: {name} = {value!r}"
            seen.add("effect")
        return fn(frame)

    return run


def _wrap_program(program: Any, seen: set[str]) -> None:
    """Every rule function of the scopes in ALWAYS_BOUND checks the names it is promised; so does every card
    effect the names its definition promises."""
    for card in program.cards.values():
        card.effect = _effect_check(card.effect, card_effect_bound(
            card.category, [u.target_kind for u in card.uses if u.effect is None and u.context != "recast"]), seen)
        for use in card.uses:
            use.effect = _effect_check(use.effect, clause_effect_bound(use.context, use.target_kind), seen)
            use.filter = _bound_check(use.filter, "use_filter", seen)
            use.limit = _bound_check(use.limit, "use_limit", seen)
            use.filter_direct = _direct_check(use.filter_direct, "use_filter", ("user", "card", "it", "owner"), seen)
            use.limit_direct = _direct_check(use.limit_direct, "use_limit", ("user", "card", "owner"), seen)
    skills = {id(s): s for g in program.generals.values() for s in g.skills}
    skills.update({id(s): s for s in program.skills.values()})
    skills.update({id(s): s for c in program.cards.values() for s in c.skills})
    for s in skills.values():
        for t in s.triggers:
            t.condition, t.body, t.limit = (_bound_check(f, "trigger", seen) for f in (t.condition, t.body, t.limit))
            t.condition_direct = _direct_check(t.condition_direct, "trigger", ("owner", "event", "skill"), seen)
        for a in s.actives:
            scope = "granted" if a.granted else "active"
            a.condition, a.body, a.limit = (_bound_check(f, scope, seen) for f in (a.condition, a.body, a.limit))
        for va in s.view_as:
            va.filter = _bound_check(va.filter, "view_filter", seen)
        for pr in s.provides:
            pr.condition, pr.body = (_bound_check(f, "provide", seen) for f in (pr.condition, pr.body))
        for m in s.modifiers:
            m.condition, m.value = (_bound_check(f, "modifier", seen) for f in (m.condition, m.value))
            m.condition_direct, m.value_direct = (_direct_check(f, "modifier", ("owner", "skill"), seen)
                                                  for f in (m.condition_direct, m.value_direct))


def test_the_engine_binds_what_always_bound_promises() -> None:
    """The contract itself, whether or not a rule passes those names to a primitive."""
    seen: set[str] = set()
    for rules in ("all41", "tongzhou"):
        program = compiled_module(check_paths([str(ROOT / RULE_SETS[rules])])).build_program()
        _wrap_program(program, seen)
        mode = "identity" if "identity" in program.modes else sorted(program.modes)[0]
        for seed in range(4):
            players = 8 if rules != "tongzhou" else program.modes[mode].players[0]
            play_one(program, mode, players, seed, agents=("heuristic",) if seed % 2 else ("random",))
    assert seen >= {"use_filter", "use_limit", "trigger", "active", "view_filter", "modifier", "effect"}


def test_effect_promises_follow_the_clauses() -> None:
    assert clause_effect_bound("play", "one") >= {"user", "target", "use", "card", "targets"}
    assert "target" not in clause_effect_bound("play", "none")  # a targetless clause's effect runs once, untargeted
    assert clause_effect_bound("recast", "none") == {"user", "card", "owner", "targets"}  # a recast is no use
    assert "user" not in card_effect_bound("delayed", ["one"])  # judged with no user
    assert "target" in card_effect_bound("delayed", ["one"]) and "target" in card_effect_bound("trick", [])
    assert "target" not in card_effect_bound("trick", ["one", "none"])


def test_proven_call_refuses_what_the_checks_might_refuse() -> None:
    params = (Param("p", "player"), Param("n", "int", 1, False), Param("xs", "list", None, False))

    def impl(f: Any, p: Any, n: int = 1, xs: Any = None) -> None:
        return None

    assert proven_call("x", params, impl, False, ["player", "int"], {})
    assert proven_call("x", params, impl, False, ["player"], {"xs": "card"})
    assert not proven_call("x", params, impl, False, [None], {})  # maybe none
    assert not proven_call("x", params, impl, False, ["card"], {})  # another kind
    assert not proven_call("x", params, impl, False, ["player", "bool"], {})  # true is a number to the checks
    assert not proven_call("x", params, impl, False, ["player"], {"xs": None})  # maybe a long range
    assert not proven_call("x", params, impl, False, ["player"], {"m": "int"})  # no such parameter
    assert not proven_call("x", params, impl, False, ["player", "int", "card", "int"], {})  # too many
    assert not proven_call("x", params, impl, False, [], {})  # p missing: Python's error, rewritten by the wrapper


def test_equality_with_an_always_bound_entity_is_identity() -> None:
    """Why `x == owner` compiles to `x is owner` (lower.IDENTITY_KINDS): runtime.equals agrees for any x."""
    from sgsdsl.compiler.lower import IDENTITY_KINDS
    from sgsdsl.engine.events import Event
    from sgsdsl.engine.model import Card, Player, UseRecord, VirtualCard
    from sgsdsl.engine.runtime import equals

    prog = compiled_module(check_paths([str(ROOT / RULE_SETS["standard"])])).build_program()
    rule = prog.cards["sha"]
    p, q = Player(0), Player(1)
    card, other = Card(1, rule, "♠", 7), Card(2, rule, "♠", 7)  # same face: still two cards
    virtual = VirtualCard(rule, (card,), None)
    event = Event("x", player=p)
    use = UseRecord(p, card, q, [q], "play")
    samples = {"player": p, "card": card, "event": event, "use": use}
    assert set(samples) == IDENTITY_KINDS
    others = [None, 0, 1, True, "P0", [], [p], q, p, other, virtual, card, Event("x", player=p), event,
              UseRecord(p, card, q, [q], "play"), use, prog.generals[sorted(prog.generals)[0]]]
    for value in samples.values():
        for x in others:
            assert equals(x, value) == (x is value) and equals(value, x) == (value is x), (x, value)
