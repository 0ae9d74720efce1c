"""Golden tests: the exact rendered text (and JSON) of a few diagnostics. A change here is a change in
what designers read, so it should be deliberate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sgsdsl.api import check_paths
from sgsdsl.lang.diagnostics import Diagnostic, Span, render_json, render_text


def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, src: str, name: str = "g.sgs") -> tuple[str, str]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(src, encoding="utf-8")
    loaded = check_paths([name])
    return render_text(loaded.diagnostics, loaded.sources), render_json(loaded.diagnostics)


SRC = """\
card 闪电 shandian : delayed { copies ♠A  use play target self  effect { discard(card) } }
skill 测试 ceshi {
  on damaged where 闪电x == event.card.name { draw(event.target, 1) }
  on damaged where event.target == ♠ { event.amount += 1 }
}
"""

TEXT = """\
g.sgs:3:20: error[SGS-E202]: unknown name '闪电x'
    3 |   on damaged where 闪电x == event.card.name { draw(event.target, 1) }
      |                    ^^^^^
  = help: did you mean '闪电'?
g.sgs:4:20: error[SGS-E305]: comparing a player with a suit is never true
    4 |   on damaged where event.target == ♠ { event.amount += 1 }
      |                    ^^^^^^^^^^^^^^^^^"""


def test_text_with_cjk_caret_and_suggestion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text, _ = run(tmp_path, monkeypatch, SRC)
    assert text == TEXT


def test_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, js = run(tmp_path, monkeypatch, SRC)
    assert json.loads(js) == {"diagnostics": [
        {"code": "SGS-E202", "severity": "error", "message": "unknown name '闪电x'", "file": "g.sgs",
         "line": 3, "col": 20, "end_line": 3, "end_col": 23, "suggestion": "did you mean '闪电'?", "notes": []},
        {"code": "SGS-E305", "severity": "error", "message": "comparing a player with a suit is never true",
         "file": "g.sgs", "line": 4, "col": 20, "end_line": 4, "end_col": 37, "suggestion": None, "notes": []},
    ]}
    assert "闪电x" in js  # not \\u escapes: CI logs stay readable


def test_syntax_error_names_the_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text, _ = run(tmp_path, monkeypatch, "card 杀 sha basic { copies ♠7 }\n")
    assert text == """\
g.sgs:1:12: error[SGS-E102]: unexpected name 'basic'; expected ':'
    1 | card 杀 sha basic { copies ♠7 }
      |             ^^^^^
  = help: a definition needs a display name and an ASCII id before ':', e.g. card 杀 sha : basic"""


def test_duplicate_with_note_and_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text, js = run(tmp_path, monkeypatch, "card 杀 sha : basic { copies ♠7 }\ncard 杀 sha2 : basic { }\n")
    assert text == """\
g.sgs:2:6: error[SGS-E201]: card '杀' is defined twice
    2 | card 杀 sha2 : basic { }
      |      ^^
  = help: rename one of them, or remove the copy
  = note: first definition at g.sgs:1:6
g.sgs:2:6: warning[SGS-W401]: card '杀' has no copies, so it is never in the deck
    2 | card 杀 sha2 : basic { }
      |      ^^
  = help: add a line such as: copies ♠7 ♥10"""
    assert json.loads(js)["diagnostics"][0]["notes"] == [
        {"message": "first definition", "file": "g.sgs", "line": 1, "col": 6}]


def test_caret_under_wide_characters_before_the_span() -> None:
    src = "  杀杀杀 x"
    d = Diagnostic("SGS-E202", "m", Span("f.sgs", 1, 7, 1, 8))
    assert render_text([d], {"f.sgs": src}).splitlines()[2] == "      | " + " " * 9 + "^"  # 2 + 3×2 + 1 columns


def test_missing_source_renders_header_only() -> None:
    d = Diagnostic("SGS-E100", "cannot find x.sgs", Span.point("x.sgs", 1, 1))
    assert render_text([d], {}) == "x.sgs:1:1: error[SGS-E100]: cannot find x.sgs"


def test_text_plus_text_says_what_plus_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`"a" + "b"` (issue 32): the message says what `+` does and how text is written, not just that two texts
    cannot be combined."""
    text, _ = run(tmp_path, monkeypatch, 'skill 记 ji { on damaged { mark(owner, "n", "a" + "b") } }\n')
    assert text == """\
g.sgs:1:44: error[SGS-E305]: '+' adds numbers or joins two lists; it does not join text (here a text and a text)
    1 | skill 记 ji { on damaged { mark(owner, "n", "a" + "b") } }
      |                                             ^^^^^^^^^
  = help: the language has no way to join texts: write the whole text as one literal, e.g. "ab"; to keep a value \
for later, give it to a mark: mark(p, "name", x)"""
