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


def test_parse_errors_point_at_their_cause() -> None:
    """The unclosed `{` is reported at itself (not at the next `skill`), a reassigned local says locals are
    immutable and what to do instead, and a misspelt keyword gets a "did you mean"."""
    from sgsdsl.lang.parser import parse_text

    unclosed = ("general 墨客 moke : 蜀 male 3 {\n  skill 赠予 zengyu {\n    on turn_start {\n      if true {\n"
                "        draw(owner, 1)\n    }\n  }\n  skill 回春 huichun { on turn_end { draw(owner, 1) } }\n}\n")
    _, diags = parse_text(unclosed, "u.sgs")
    assert render_text(diags, {"u.sgs": unclosed}).splitlines()[:5] == [
        "u.sgs:4:15: error[SGS-E108]: '{' is never closed",
        "    4 |       if true {",
        "      |               ^",
        "  = help: add the '}' that closes `if true {` (line 4); indent it like that line",
        "  = note: the parser noticed at line 8: 'skill' cannot stand there at u.sgs:8:3"]
    _, diags = parse_text("rule 计 r { on turn_start { let n = 0\n n = n + 1 } }\n", "r.sgs")
    assert diags[0].code == "SGS-E109" and diags[0].message.startswith("'n' cannot be reassigned: local names")
    assert diags[0].suggestion and "let n2 = " in diags[0].suggestion and "mark(" in diags[0].suggestion
    _, diags = parse_text("rule 计 r { on turn_start optinal { draw(current(), 1) } }\n", "k.sgs")
    assert diags[0].code == "SGS-E102" and diags[0].suggestion == "did you mean 'optional'?"
    _, diags = parse_text("genral 曹操 caocao : 魏 male 4 { }\n", "g.sgs")
    assert diags[0].suggestion == "did you mean 'general'?", diags


@pytest.mark.parametrize(("body", "hint"), [
    ("if true && false { draw(current(), 1) }", "write `and`"),
    ("if !true { draw(current(), 1) }", "write `not` for negation"),
    ("if true { draw(current(), 1) } elif false { draw(current(), 2) }", "this language writes `else if`"),
    ("log('hi')", 'strings are written in double quotes: "text"'),
    ("if True { draw(current(), 1) }", "this language writes `true`"),
    ("let x = null", "this language writes `none`"),
    ("let x = len(players())", "this language writes `count`"),
])
def test_habits_from_other_languages_get_the_words_of_this_one(tmp_path, body: str, hint: str) -> None:
    from sgsdsl.api import check_paths

    path = tmp_path / "h.sgs"
    path.write_text(f"rule 测 t {{\n  on turn_start {{\n    {body}\n  }}\n}}\n", encoding="utf-8")
    found = [d.suggestion or "" for d in check_paths([str(path)]).diagnostics]
    assert any(hint in s for s in found), found


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
