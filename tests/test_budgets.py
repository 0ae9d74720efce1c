"""Budgets: numbers in range, lazy ranges, a per-game step budget and bounded nesting — a hostile or buggy rule
ends its game with a located rule error (the same on both engines), never a hang or an unbounded allocation."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from helpers import rule_file as write
from helpers import run_both_engines as run_both
from sgsdsl.api import check_paths
from sgsdsl.engine import runtime
from sgsdsl.engine.events import STEP_BUDGET


def test_nested_repeat_exhausts_the_step_budget(tmp_path: Path) -> None:
    path = write(tmp_path, 'repeat 1000 { repeat 1000 { repeat 1000 { log("x") } } }')
    error, steps = run_both(path)["compiled"]
    assert error is not None and f"{path.name}:4:" in error  # located: the file, the line (and the column)
    assert "step budget" in error and steps == STEP_BUDGET + 1


def test_a_value_defined_by_itself_is_a_located_error(tmp_path: Path) -> None:
    path = write(tmp_path, "mark(none, \"n\", f(1))", "value f(n: int) = f(n + 1)")
    error, _ = run_both(path)["compiled"]
    assert error is not None and "b.sgs:" in error and ("deep" in error or "step budget" in error)


def test_ranges_are_lazy(tmp_path: Path) -> None:
    assert isinstance(runtime.inclusive_range(1, 10**9), range)
    path = write(tmp_path, 'for i in 1..1000000000 { if i > 3 { break } } mark(none, "n", count(1..1000000000))')
    tracemalloc.start()
    try:
        run_both(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20  # a list of 10^9 ints would be gigabytes


def test_a_long_walk_spends_steps_not_memory(tmp_path: Path) -> None:
    path = write(tmp_path, "for i in 1..1000000000 { }")
    error, steps = run_both(path)["interpreted"]
    assert error is not None and "step budget" in error and steps == STEP_BUDGET + 1


@pytest.mark.parametrize("body", ['mark(none, "n", count([i for i in 1..1000000000 if i < 0]))',
                                  'mark(none, "n", count([[j for j in 1..1000] for i in 1..1000]))'])
def test_comprehensions_spend_steps_not_memory(tmp_path: Path, body: str) -> None:
    """A comprehension walks lazily and pays a step per item: a billion items end at the budget, located."""
    tracemalloc.start()
    try:
        result = run_both(write(tmp_path, body))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    error, steps = result["compiled"]
    assert error is not None and "step budget" in error and "b.sgs:" in error and steps == STEP_BUDGET + 1
    assert peak < 200 * 2**20


@pytest.mark.parametrize("body", ['mark(none, "n", first(1..1000000000))',
                                  'mark(none, "n", count(minus(1..1000000000, [])))',
                                  'mark(none, "n", count(minus([1], 1..1000000000)))',
                                  'mark(none, "b", all(1..1000000000))',
                                  'mark(none, "r", 1..1000000000)',
                                  'let x = choose(event.player, 1..1000000000)'])
def test_a_long_range_is_refused_where_a_list_is_held(tmp_path: Path, body: str) -> None:
    """`count` and `for` take a range of any length; a primitive that would hold, log or offer its items
    refuses one longer than a list may be (instead of building a billion-item list)."""
    error, _ = run_both(write(tmp_path, body))["compiled"]
    assert error is not None and "a list holds at most 100000 items" in error and "b.sgs:" in error


@pytest.mark.parametrize("body", ["mark(none, \"n\", 1000000000 + 1)", "mark(none, \"n\", 0 - 1000000000 - 1)",
                                  "mark(none, \"n\", 1000000000) mark(none, \"m\", mark_value(none, \"n\") * 2)"])
def test_arithmetic_stays_in_range(tmp_path: Path, body: str) -> None:
    error, _ = run_both(write(tmp_path, body))["compiled"]
    assert error is not None and "outside the language's range" in error and "b.sgs:" in error


def test_huge_literals_and_player_counts_are_located_check_errors(tmp_path: Path) -> None:
    for text, needle in (("value v(p: player) = " + "9" * 5000, "outside the language's range"),
                         ("value v(p: player) = 1000000001", "outside the language's range"),
                         ("mode 测试 m {\n  players 2..999999999\n  roles 2 { lord rebel }\n  win lord when true\n}",
                          "player range")):
        path = tmp_path / "n.sgs"
        path.write_text(text + "\n", encoding="utf-8")
        tracemalloc.start()
        try:
            loaded = check_paths([str(path)])
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        errors = [d for d in loaded.diagnostics if d.severity == "error"]
        assert errors and needle in errors[0].message and errors[0].code == "SGS-E209"
        assert errors[0].span.line >= 1 and peak < 100 * 2**20


# issue 31: work over lists is paid for in proportion to the items, so one step cannot buy unbounded work
LIST_BOMBS = {
    "minus": "repeat 1000 { repeat 1000 { let x = minus(1..100000, 1..100000) } }",
    "in": "let big = [c for c in 1..60000] repeat 1000 { repeat 1000 { if 0 in big { log(\"x\") } } }",
    "plus": "let big = [c for c in 1..60000] repeat 1000 { repeat 1000 { let y = big + [] } }",
    "for": "let big = [c for c in 1..60000] repeat 1000 { repeat 1000 { for x in big { break } } }",
    "choose": "repeat 1000 { repeat 1000 { let c = choose(event.player, 1..1000) } }",
}


def test_a_comprehension_over_a_short_list_is_list_work(tmp_path: Path) -> None:
    """A comprehension over a list pays 1/64 of a step an item (a range: a step an item), the fraction carried: a
    question asked of a pile again and again (不屈's distinct ranks, 9 cards: 90 items, at every event while its
    owner is below 1 HP) no longer ends a long game at the budget, and short lists walked without end still do."""
    ranks = 'let cards = [c for c in 1..9] repeat 100 { repeat 10 { mark(none, "d", ' \
            'all([count([d for d in cards if d == c]) == 1 for c in cards])) } }'
    error, steps = run_both(write(tmp_path, ranks))["compiled"]
    assert error is None
    # per turn: 9 steps for the range, 1,100 repeat rounds, 1,000 walks of 90 items (about 1,406 steps; a step an
    # item would be 90,000, and the budget gone in the second turn)
    game = run_both(write(tmp_path, ranks))["game"]
    assert steps <= game.turns * (9 + 1_100 + 1_407) + 2_000  # (and the rest of the game's rules)
    bomb = 'let short = [c for c in 1..63] repeat 1000 { repeat 1000 { ' \
           'mark(none, "n", count([[x for x in short] for y in short])) } }'
    error, steps = run_both(write(tmp_path, bomb))["compiled"]
    assert error is not None and "step budget" in error and "list work" in error and steps > STEP_BUDGET


@pytest.mark.parametrize("bomb", sorted(LIST_BOMBS))
def test_list_work_spends_the_budget(tmp_path: Path, bomb: str) -> None:
    error, steps = run_both(write(tmp_path, LIST_BOMBS[bomb]))["compiled"]
    assert error is not None and "step budget" in error and "list work" in error, error
    assert steps > STEP_BUDGET


def test_a_choice_of_too_many_options_is_refused(tmp_path: Path) -> None:
    error, _ = run_both(write(tmp_path, "let c = choose(event.player, 1..100000)"))["compiled"]
    assert error is not None and "choose offers 100000 options; a choice offers at most 1000" in error


def test_minus_keeps_its_identity_semantics(tmp_path: Path) -> None:
    from sgsdsl.engine.registry import PRIMITIVES

    minus = PRIMITIVES["minus"].impl
    a, b = object(), object()
    assert minus(None, [a, b, a], [a]) == [b]
    assert minus(None, [1, 2, 3], range(2, 3)) == [1, 3]  # small ints are the same objects
    big = 10**6 + 1
    assert minus(None, [big], [big]) == []


def test_recorded_games_bound_what_they_log_and_hash(tmp_path: Path) -> None:
    long_line = "x" * 2001
    error, _ = run_both(write(tmp_path, f'log("{long_line}")'))["compiled"]
    assert error is not None and "a log line holds at most 2000" in error
    many = "y" * 2000
    error, _ = run_both(write(tmp_path, f'repeat 1000 {{ log("{many}") }}'))["compiled"]
    assert error is not None and "log() text passed 1000000 characters" in error
    error, _ = run_both(write(tmp_path, 'mark(event.player, "big", [c for c in 1..1001])'))["compiled"]
    assert error is not None and "a mark holds at most 1000" in error


def test_replay_show_reads_a_log_line_by_line(tmp_path: Path) -> None:
    from sgsdsl.narrate import show_log
    from sgsdsl.replay import LogError

    log = tmp_path / "game.jsonl"
    log.write_text('{"sgsdsl_log": 2}\n', encoding="utf-8")
    with pytest.raises(LogError):
        list(show_log(log))  # a header short of fields: refused before any line is told
    lines = show_log(Path(__file__).parent / "fixtures" / "no-such.jsonl")
    with pytest.raises(LogError, match="cannot read"):
        next(lines)


@pytest.mark.parametrize("signal", ["GameOver", "StopEffect", "BreakLoop"])
def test_an_agent_raising_the_engines_control_flow_is_named(signal: str) -> None:
    from sgsdsl.api import program_for
    from sgsdsl.engine import errors
    from sgsdsl.engine.agents import Agent, RandomAgent
    from sgsdsl.engine.game import Game

    class Rogue(Agent):
        name = "rogue"

        def decide(self, request, view):  # type: ignore[no-untyped-def]
            raise errors.GameOver(("rebel",), "I say so") if signal == "GameOver" else getattr(errors, signal)()

    loaded = check_paths([str(Path(__file__).parent / "fixtures" / "mini.sgs")])
    for engine in ("interpreted", "compiled"):
        game = Game(program_for(loaded, engine), "identity", 4, 1, [RandomAgent(0), Rogue(), RandomAgent(2),
                                                                   RandomAgent(3)], round_cap=3)
        with pytest.raises(errors.AgentMisbehaved, match=f"agent rogue at seat 1 raised {signal}"):
            game.run()
        assert game.result is None or "I say so" not in str(game.result)


def test_extra_turns_granted_without_end_are_a_located_error(tmp_path: Path) -> None:
    """A rule that grants an extra turn at every phase start grants them without end: it stops where it grants, at
    its own line, not when the step budget runs out somewhere in the engine with no line to name."""
    from sgsdsl.engine.events import MAX_EXTRA_TURNS

    path = write(tmp_path, "extra_turn(event.player) extra_turn(event.player)", timing="phase_start")
    error, steps = run_both(path)["compiled"]
    assert error is not None and "b.sgs:4:" in error and f"more than {MAX_EXTRA_TURNS} extra turns" in error
    assert steps < STEP_BUDGET


def test_a_few_extra_turns_a_turn_are_played(tmp_path: Path) -> None:
    """Three extra turns granted in one ordinary turn are all played (the count starts again each ordinary turn)."""
    path = write(tmp_path, "if not is_extra_turn() { extra_turn(event.player) extra_turn(event.player) "
                           "extra_turn(event.player) }")
    result = run_both(path)
    error, _ = result["compiled"]
    assert error is None
    log = result["game"].log  # type: ignore[attr-defined]
    extra = sum(e.get("e") == "extra_turn" for e in log)
    assert extra == 3 * (sum(e.get("e") == "turn" for e in log) - extra) > 0  # (a "turn" entry for every turn)
