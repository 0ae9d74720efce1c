"""Engine primitives validate their arguments: an out-of-domain call is a rule error naming the .sgs line, the
same on both engines — never a silently broken invariant. Also: win() and end_phase() do what they say."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from helpers import ROOT, rule_file, run_both_engines
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
