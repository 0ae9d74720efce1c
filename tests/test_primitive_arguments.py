"""Engine primitives validate their arguments: an out-of-domain call is a rule error naming the .sgs line, the
same on both engines — never a silently broken invariant. Also: win() and end_phase() do what they say."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from helpers import MINI, ROOT, program, rule_file, run_both_engines
from sgsdsl.api import check_paths
from sgsdsl.compiler.codegen import generate_module

REFUSED = [
    ("random_generals(-1)", "random_generals' count cannot be negative"),
    ("move_to_judge(first(hand(event.player)), event.player)", "is not in a judge area"),
    ("let d = next_alive(event.player) set_max_hp(d, 0) obtain(d, top_cards(1))", "obtain's player P"),
    ("let d = next_alive(event.player) set_max_hp(d, 0) give(event.player, d, hand(event.player))",
     "give's receiver P"),
    ("give(event.player, next_alive(event.player), hand(next_alive(event.player)))", "is not P0:"),
    ("draw(mark_value(none, \"x\"), 1)", "argument 'player' of draw() must be a player, not number"),
    ("draw(event.player, 0 - 1)", "draw's count cannot be negative"),
    ("draw(event.player, 100000)", "more than the"),
    ("damage(event.player, 0 - 2)", "damage's amount cannot be negative"),
    ("mark(first(hand(event.player)), \"x\")", "marks are kept on a player"),
    ("skip_phase(event.player, mark_value(none, \"x\"))", "argument 'phase' of skip_phase() must be"),
    ("return_generals([event.player])", "is not a general"),
    ("win(\"nobody\")", "is not a role in this game"),
    ("end_phase()", "end_phase() ends a play phase, but this is the none phase"),
    ('put_on_pile(event.player, "p", 3)', "only cards and general cards go on a pile"),
    ('put_on_pile(event.player, "p", next_alive(event.player))', "only cards and general cards go on a pile"),
    ('mark(none, "n", used_count(event.player, 杀, "闪"))', "used_count's scope must be phase, turn, round, game"),
    ('mark(none, "n", skill_uses(event.player, "wusheng", "闪"))', "skill_uses's scope must be phase"),
    ('mark(none, "n", count(skills_of(mark_value(none, "x"))))', "skills_of takes a general or a player, not number"),
    ("mark(none, \"n\", count(hand(mark_value(none, \"p\"))))", "argument 'player' of hand() must be a player, not"),
    ("let x = choose_many(event.player, players(), min: 0 - 1)", "choose_many's min cannot be negative"),
    ("let x = choose_many(event.player, players(), min: 3, max: 1)", "choose_many's max (1) is below its min (3)"),
    ("draw(event.player, count(take(players(), 0 - 1)))", "take: the count must be a number 0 or more, not -1"),
]


@pytest.mark.parametrize(("body", "needle"), REFUSED, ids=[b[:40] for b, _ in REFUSED])
def test_out_of_domain_calls_are_located_rule_errors(tmp_path: Path, body: str, needle: str) -> None:
    timing = "game_start" if "end_phase" in body else "turn_start"
    result = run_both_engines(rule_file(tmp_path, body, timing=timing))
    error, _ = result["compiled"]
    assert error is not None and needle in error, error
    assert "b.sgs:" in error  # located at the rule's line


def test_max_hp_zero_kills(tmp_path: Path) -> None:
    game = run_both_engines(rule_file(tmp_path, "set_max_hp(next_alive(first(players())), 0)", timing="game_start"))
    log = game["game"].log
    assert any(e.get("e") == "max_hp" and e.get("max_hp") == 0 for e in log)
    assert any(e.get("e") == "death" or e.get("e") == "died" for e in log) or not all(
        p.alive for p in game["game"].players)


def test_win_ends_the_game_for_the_roles(tmp_path: Path) -> None:
    game = run_both_engines(rule_file(tmp_path, "win([rebel, renegade])"))["game"]
    assert game.result == (("rebel", "renegade"), "win")


def test_end_phase_ends_the_play_phase(tmp_path: Path) -> None:
    body = "if event.phase == play { end_phase() }"
    game = run_both_engines(rule_file(tmp_path, body, timing="phase_start"))["game"]
    kinds = [e.get("kind") or e.get("request") for e in game.log if e.get("e") == "ask"]
    assert "play" not in kinds and not any(e.get("e") == "use" for e in game.log)
    assert game.result is not None


def test_generated_code_has_no_syntax_warning(tmp_path: Path) -> None:
    src = tmp_path / "w.sgs"
    src.write_text(f'import "{(ROOT / "tests" / "fixtures" / "mini.sgs").as_posix()}"\n'
                   'rule 警告 warn { on turn_start { if 1 == none or "x" != none or none == none or [1] == none '
                   'or ♠ != none or 杀 == none { log("a") } } }\n', encoding="utf-8")
    sources = [generate_module(check_paths([str(src)]).checked, {}).text]
    sources += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "generated").glob("*.py"))]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for i, text in enumerate(sources):
            compile(text, f"gen{i}.py", "exec")


def test_no_primitive_leaks_a_python_error_when_given_none() -> None:
    """Every primitive, called with none for each entity parameter it requires (the others plausible) in a
    finished game: a result or a rule error naming the parameter, never an AttributeError from the engine."""
    from sgsdsl.engine import registry as reg
    from sgsdsl.engine.agents import RandomAgent
    from sgsdsl.engine.errors import BreakLoop, EngineError, StopEffect
    from sgsdsl.engine.game import Game
    from sgsdsl.engine.program import Frame

    game = Game(program(str(MINI), "interpreted"), "identity", 4, 1, [RandomAgent(i) for i in range(4)], round_cap=1)
    game.run()
    p0 = game.players[0]
    card = [*p0.hand, *game.draw_pile, *game.discard_pile][0]
    sample = {"player": p0, "players": [p0], "card": card, "cards": [card], "int": 1, "str": "x", "bool": True,
              "family": "杀", "suit": "♠", "color": "red", "nature": "normal", "phase": "play", "role": "rebel",
              "kingdom": "魏", "gender": "male", "category": "basic", "zone": "hand", "list": [1], "any": 1}
    leaks, tried = [], 0
    for prim in reg.PRIMITIVES.values():
        required = [p for p in prim.params if p.required]
        for k, target in enumerate(required):
            if target.type not in ("player", "card", "general", "event", "use"):
                continue
            tried += 1
            args = [None if j == k else sample.get(p.type) for j, p in enumerate(required)]
            try:
                prim.impl(Frame(game, {"owner": p0, "event": None}), *args)
            except (EngineError, StopEffect, BreakLoop) as err:
                assert not isinstance(err, EngineError) or "Error:" not in str(err), (prim.name, str(err))
            except Exception as err:  # noqa: BLE001 - every leak is listed
                leaks.append(f"{prim.name} with {target.name}=none: {type(err).__name__}: {err}")
    assert tried > 20 and not leaks, leaks



def test_no_engine_value_leaks_a_python_error_when_given_none() -> None:
    """The same for the engine's values (`distance(a, b)`, `attack_range(p)` …, called like functions by rules):
    none for a character or card is a rule error naming the argument — also where a skill modifies the value."""
    from sgsdsl.engine.agents import RandomAgent
    from sgsdsl.engine.errors import EngineError
    from sgsdsl.engine.game import Game
    from sgsdsl.engine.registry import ENGINE_VALUES

    prog = program(str(ROOT / "rules" / "standard.sgs"), "interpreted")
    game = Game(prog, "identity", 4, 1, [RandomAgent(i) for i in range(4)], round_cap=1)
    p0 = game.players[0]
    game.set_general(p0, prog.generals["machao"])  # 马术 modifies distance: the chain runs too
    card = game.draw_pile[0]
    sample = {"player": p0, "card": card}
    leaks, tried = [], 0
    for spec in ENGINE_VALUES.values():
        for k, (pname, ptype) in enumerate(zip(spec.params, spec.param_types, strict=True)):
            if ptype not in sample:
                continue
            tried += 1
            args = [None if j == k else sample.get(t) for j, t in enumerate(spec.param_types)]
            try:
                game.dispatch.value(spec.name, *args)
            except EngineError as err:
                assert f"argument '{pname}' of {spec.name}() is none" in str(err), (spec.name, str(err))
            except Exception as err:  # noqa: BLE001 - every leak is listed
                leaks.append(f"{spec.name} with {pname}=none: {type(err).__name__}: {err}")
    assert tried > 8 and not leaks, leaks

def test_triggers_setting_off_triggers_end_in_a_rule_error(tmp_path: Path) -> None:
    """Cards passed on at every loss of cards: each move sets off the next; the game ends with a located rule
    error about nesting (the event depth limit or Python's recursion limit), never a raw RecursionError."""
    result = run_both_engines(rule_file(tmp_path, "obtain(next_alive(current()), event.cards)", timing="lost_cards"))
    error, _ = result["compiled"]
    assert error is not None and "b.sgs:" in error and "nest" in error and "RecursionError" not in error, error


# ------------------------------------------------------------------ every primitive's argument checks, both engines
def _argument_cases() -> list[tuple[str, int]]:
    """(primitive, index of a parameter whose declared type the run-time check tests): every such pair."""
    from sgsdsl.engine.registry import PRIMITIVES
    from sgsdsl.engine.registry.arguments import _CHECKS

    return [(name, i) for name, prim in sorted(PRIMITIVES.items()) if not prim.contexts
            for i, p in enumerate(prim.params) if p.type in _CHECKS]


def _wrong_value(kind: str) -> tuple[str, str]:
    """A value of the wrong kind for a parameter of this type, laundered through a mark so that `check` cannot
    see it (marks hold any value): the value's source and what the engine calls it."""
    return ('"text"', "text") if kind == "int" else ("7", "number")


@pytest.mark.parametrize(("name", "index"), _argument_cases(), ids=[f"{n}-{i}" for n, i in _argument_cases()])
def test_every_argument_check_is_a_located_rule_error_on_both_engines(tmp_path: Path, name: str,
                                                                       index: int) -> None:
    """Each checked parameter of each primitive, given a value of the wrong kind: the same rule error on both
    engines, naming the parameter and the primitive, located at the call's line and column in the .sgs file."""
    from sgsdsl.engine.registry import ENGINE_VALUES, PRIMITIVES
    from sgsdsl.engine.registry.arguments import _CHECKS

    prim = PRIMITIVES[name]
    args = []
    for i, p in enumerate(prim.params):
        if i == index:
            args.append('mark_value(none, "w")')
        elif not p.required and i > index:
            break
        else:  # none passes every entity and text check; numbers need a number
            args.append("1" if p.type == "int" else "none")
    source, kind = _wrong_value(prim.params[index].type)
    call = f"{name}({', '.join(args)})"
    body = f'mark(none, "w", {source})\n    {"let x = " if prim.returns else ""}{call}'
    path = rule_file(tmp_path, body)
    error, _ = run_both_engines(path)["compiled"]
    param = prim.params[index]
    value = ENGINE_VALUES.get(name)  # a rule naming an engine value asks the value (its parameter names)
    pname = value.params[index] if value is not None else param.name
    want = f"argument '{pname}' of {name}() must be {_CHECKS[param.type][1]}, not {kind}"
    assert error is not None and want in error, (call, error)
    line = path.read_text(encoding="utf-8").splitlines().index(f"    {'let x = ' if prim.returns else ''}{call} }}")
    assert f"b.sgs:{line + 1}:5" in error, error
