"""A `let` or `for` variable inside a block shares the body's one namespace: the checker types it that way."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.api import check_paths

HEAD = 'card 杀 sha : basic { copies ♠7 }\n'


def errors(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "rebind.sgs"
    path.write_text(HEAD + "skill 测 ce { on damaged { " + body + " } }\n", encoding="utf-8")
    return [d.code for d in check_paths([str(path)]).diagnostics if d.severity == "error"]


@pytest.mark.parametrize("body", [
    "let x = 1  if owner.hp > 0 { let x = owner }  draw(owner, x)",
    "let x = 1  if owner.hp > 0 { if owner.hp > 1 { let x = owner } }",
    "let p = owner  for p in 1..3 { draw(owner, p) }  draw(p, 1)",
    "let n = 2  for c in hand(owner) { for n in hand(owner) { discard([n], owner) } }  draw(owner, n)",
    "let x = 1  while owner.hp > 5 { let x = hand(owner) }",
])
def test_a_nested_rebinding_to_another_type_is_reported(tmp_path: Path, body: str) -> None:
    assert errors(tmp_path, body) == ["SGS-E308"]


@pytest.mark.parametrize("body", [
    "let x = 1  if owner.hp > 0 { let x = 2 }  draw(owner, x)",  # the same type: the standard 决斗 relies on it
    "let x = 1  let x = owner  draw(x, 1)",  # re-bound in its own block: typed in order
    "let xs = []  if owner.hp > 0 { let xs = hand(owner) }  discard(xs, owner)",  # a list and a list of cards
    "if owner.hp > 0 { let x = owner }  let x = 1  draw(owner, x)",  # a block's own name is gone after it
    "let c = 1  let n = [c for c in hand(owner)]  draw(owner, c)",  # a comprehension's variable is its own
])
def test_rebindings_that_keep_the_type_pass(tmp_path: Path, body: str) -> None:
    assert errors(tmp_path, body) == []


def test_a_rebinding_to_an_unknown_value_leaves_the_name_unjudged(tmp_path: Path) -> None:
    # after the block x is a number or whatever first() gives: the checker cannot say, so it does not complain
    body = "let x = 1  if owner.hp > 0 { let x = first([owner, 1]) }  draw(x, 1)"
    assert errors(tmp_path, body) == []
