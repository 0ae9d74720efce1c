"""`sgsdsl fmt`: the canonical layout keeps every program's meaning and every comment, and is a fixed point.

The properties run over every bundled file, over programs generated from the grammar, and over real files
with comments inserted at random places; a few pinned examples show the layout itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_lang_fuzz import COMMON, grammar_programs

from sgsdsl.cli import main
from sgsdsl.fmt import ast_shape, format_text
from sgsdsl.lang.parser import _parser, parse_text

ROOT = Path(__file__).resolve().parent.parent
# Only the source folders: walking the whole checkout races with caches and scratch folders other test
# processes create and delete while this module is collected.
BUNDLED = sorted(p for top in ("rules", "tests", "docs", "examples") for p in (ROOT / top).rglob("*.sgs")
                 if not {"bad", "generated", "__pycache__"} & set(p.relative_to(ROOT).parts))
COMMENT = re.compile(r"(#|//)[^\n]*")


def comments(text: str) -> list[str]:
    """Comment texts in order (strings never hold '#', so a regex over the text is exact here)."""
    return [m.group(0).rstrip() for m in COMMENT.finditer(text)]


def assert_formats_faithfully(text: str) -> str:
    before, diags = parse_text(text, "x.sgs")
    assert before is not None, diags
    result = format_text(text, "x.sgs")
    assert result.text is not None, result.diagnostics
    after, diags = parse_text(result.text, "x.sgs")
    assert after is not None, (diags, result.text)
    assert ast_shape(after) == ast_shape(before)
    assert _parser().parse(result.text) == _parser().parse(text)
    assert format_text(result.text, "x.sgs").text == result.text, "not idempotent"
    assert comments(result.text) == comments(text)
    return result.text


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_bundled_files_keep_their_ast_and_are_a_fixed_point(path: Path) -> None:
    assert_formats_faithfully(path.read_text(encoding="utf-8"))


@settings(max_examples=60, **COMMON)
@given(grammar_programs())
def test_generated_programs_keep_their_ast(text: str) -> None:
    module, _ = parse_text(text, "x.sgs")
    assume(module is not None)
    assert_formats_faithfully(text)


SMALL_FILES = [p for p in BUNDLED if p.stat().st_size < 12_000]


@st.composite
def commented(draw: st.DrawFn) -> str:
    """A bundled file with comments put into random gaps between tokens (before a newline or a space)."""
    text = draw(st.sampled_from(SMALL_FILES)).read_text(encoding="utf-8")
    gaps = [m.start() for m in re.finditer(r"(?<=[^\s#/])[ \n]", text) if not _in_string_or_comment(text, m.start())]
    picks = sorted(set(draw(st.lists(st.sampled_from(gaps), min_size=1, max_size=6))), reverse=True)
    for i, at in enumerate(picks):
        text = text[:at] + f" # note {i}\n" + text[at:]
    return text


def _in_string_or_comment(text: str, at: int) -> bool:
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return line.count('"') % 2 == 1 or "#" in line or "//" in line


@settings(max_examples=25, **COMMON)
@given(commented())
def test_comments_anywhere_are_kept(text: str) -> None:
    assert_formats_faithfully(text)


MESSY = """\
# head comment


card   杀 sha:basic{copies ♠7   ♠8 # trailing
  use play target one other where in_attack_range( user ,it )
  effect {


    # before a statement
    if not has_mark(use,"x")
         or - 1 < 0 { damage(target, 1, source: user) }  # after
    let xs = [ 1,2 ] + [ ]
    # before the brace
  }
}
mode m m { players 4 .. 5
roles 4 { lord rebel rebel renegade } }
# tail
"""

MESSY_FORMATTED = """\
# head comment

card 杀 sha : basic {
  copies ♠7 ♠8  # trailing
  use play target one other where in_attack_range(user, it)
  effect {
    # before a statement
    if not has_mark(use, "x")
        or -1 < 0 { damage(target, 1, source: user) }  # after
    let xs = [1, 2] + []
    # before the brace
  }
}
mode m m {
  players 4..5
  roles 4 { lord rebel rebel renegade }
}
# tail
"""


def test_pinned_layout() -> None:
    assert assert_formats_faithfully(MESSY) == MESSY_FORMATTED


def test_cli_check_diff_and_write(tmp_path: Path) -> None:
    runner = CliRunner()
    ugly = tmp_path / "a.sgs"
    ugly.write_text(MESSY, encoding="utf-8")
    neat = tmp_path / "b.sgs"
    neat.write_text(MESSY_FORMATTED, encoding="utf-8")
    res = runner.invoke(main, ["fmt", "--check", str(tmp_path)])
    assert res.exit_code == 1 and "would reformat" in res.output and "a.sgs" in res.output
    res = runner.invoke(main, ["fmt", "--diff", str(ugly)])
    assert res.exit_code == 0 and "+card 杀 sha : basic {" in res.output
    assert ugly.read_text(encoding="utf-8") == MESSY  # --diff writes nothing
    res = runner.invoke(main, ["fmt", str(tmp_path)])
    assert res.exit_code == 0 and "reformatted 1" in res.output
    assert ugly.read_text(encoding="utf-8") == MESSY_FORMATTED
    assert runner.invoke(main, ["fmt", "--check", str(tmp_path)]).exit_code == 0


def test_cli_leaves_broken_files_alone(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgs"
    bad.write_text("card 杀 sha : basic {\n  copies ♠7\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["fmt", str(bad)])
    assert res.exit_code == 1 and "SGS-E108" in res.output
    # a file that does not parse is not counted as formatted
    assert "1 file(s): reformatted 0, 0 already formatted, 1 left untouched (not parsed)" in res.output
    # a path that names nothing is a usage error (exit 2, no made-up location), and nothing is formatted
    res = CliRunner().invoke(main, ["fmt", str(bad), str(tmp_path / "missing.sgs")])
    assert res.exit_code == 2 and "cannot find" in res.output and "missing.sgs:1:1" not in res.output
    assert bad.read_text(encoding="utf-8") == "card 杀 sha : basic {\n  copies ♠7\n"
