"""No input may produce a Python traceback: every failure is a located diagnostic (issue 2's list)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.api import check_paths
from sgsdsl.lang.diagnostics import render_json, render_text
from sgsdsl.lang.parser import MAX_TREE_DEPTH, parse_text
from sgsdsl.lang.sources import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"


def codes_for(path: Path | str) -> list[str]:
    loaded = check_paths([str(path)])
    render_text(loaded.diagnostics, loaded.sources)  # rendering must not fail either
    render_json(loaded.diagnostics)
    return [d.code for d in loaded.diagnostics]


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return p


def test_empty_file_is_a_valid_empty_program(tmp_path: Path) -> None:
    assert codes_for(write(tmp_path, "empty.sgs", b"")) == []
    assert codes_for(write(tmp_path, "blank.sgs", "  \n\n# only a comment\n\u3000\n")) == []


def test_binary_garbage(tmp_path: Path) -> None:
    assert codes_for(write(tmp_path, "bin.sgs", bytes(range(256)) * 4)) == ["SGS-E105"]
    # no NUL, valid-looking bytes that are not UTF-8
    assert codes_for(write(tmp_path, "latin1.sgs", "card é".encode("latin-1"))) == ["SGS-E105"]


def test_control_characters_are_syntax_errors(tmp_path: Path) -> None:
    assert codes_for(write(tmp_path, "ctl.sgs", "card \x01\x02 x : basic {}")) == ["SGS-E101"]


def test_bom_is_ignored(tmp_path: Path) -> None:
    assert codes_for(write(tmp_path, "bom.sgs", "\ufeff" + MINI.read_text(encoding="utf-8"))) == []


def test_huge_file(tmp_path: Path) -> None:
    """A 5 MB file is refused at once (parsing runs at ~150 KB/s; rules files are tens of KB)."""
    big = write(tmp_path, "big.sgs", ("# " + "x" * 98 + "\n") * 50_000)
    assert big.stat().st_size > MAX_FILE_BYTES
    assert codes_for(big) == ["SGS-E106"]


def test_long_single_line_is_rendered_in_a_window(tmp_path: Path) -> None:
    p = write(tmp_path, "long.sgs", "value v() = " + "1 + " * 20_000 + "?")
    loaded = check_paths([str(p)])
    assert [d.code for d in loaded.diagnostics] == ["SGS-E101"]
    text = render_text(loaded.diagnostics, loaded.sources)
    assert max(len(line) for line in text.splitlines()) < 400


@pytest.mark.parametrize("shape", ["parens", "lists", "blocks", "not", "minus", "else_if", "cond", "attr"])
def test_ten_thousand_deep_nesting(tmp_path: Path, shape: str) -> None:
    n = 10_000
    body = {
        "parens": "value v() = " + "(" * n + "1" + ")" * n,
        "lists": "value v() = " + "[" * n + "]" * n,
        "blocks": "skill 甲 a { on game_start { " + "if true { " * n + "}" * n + " } }",
        "not": "value v() = " + "not " * n + "true",
        "minus": "value v() = " + "- " * n + "1",
        "else_if": "skill 甲 a { on game_start { if true { } " + "else if true { } " * n + "} }",
        "cond": "value v() = " + "if true then 1 else " * n + "1",
        "attr": "value v(p: player) = p" + ".hp" * n,
    }[shape]
    codes = codes_for(write(tmp_path, f"{shape}.sgs", body))
    assert codes and set(codes) <= {"SGS-E104", "SGS-E207"}, codes


def test_deep_but_sane_nesting_still_works() -> None:
    depth = MAX_TREE_DEPTH // 4
    module, diags = parse_text("value v() = " + "not " * depth + "true", "x.sgs")
    assert module is not None and diags == []


def test_missing_import_points_at_the_file_name(tmp_path: Path) -> None:
    p = write(tmp_path, "a.sgs", 'import "nope.sgs"\n')
    loaded = check_paths([str(p)])
    [d] = loaded.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("SGS-E107", 1, 8)


def test_import_cycle(tmp_path: Path) -> None:
    write(tmp_path, "a.sgs", 'import "b.sgs"\n')
    write(tmp_path, "b.sgs", 'import "a"\n')
    loaded = check_paths([str(tmp_path / "a.sgs")])
    assert [d.code for d in loaded.diagnostics] == ["SGS-E110"]
    assert "a.sgs → " in loaded.diagnostics[0].message and "b.sgs" in loaded.diagnostics[0].message


def test_import_of_a_directory_and_of_a_device(tmp_path: Path) -> None:
    (tmp_path / "sub.sgs").mkdir()
    p = write(tmp_path, "a.sgs", 'import "sub.sgs"\nimport "/dev/zero"\nimport ""\nimport "."\n')
    codes = codes_for(p)
    assert codes == ["SGS-E107"] * 4, codes


def test_directory_and_nonexistent_paths(tmp_path: Path) -> None:
    assert codes_for(tmp_path) == ["SGS-E100"]  # a folder with no .sgs files
    assert codes_for(tmp_path / "missing.sgs") == ["SGS-E100"]
    assert codes_for("x" * 5000) == ["SGS-E100"]  # a name too long for the OS
    assert codes_for("bad\x00name.sgs") == ["SGS-E100"]


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Root can read any file, so the refusal is simulated where the loader opens files."""
    import sgsdsl.lang.sources as loader_module

    p = write(tmp_path, "secret.sgs", "card 杀 sha : basic { copies ♠7 }")
    real_open = open

    def deny(path, *args, **kwargs):
        if str(path) == str(p):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(loader_module, "open", deny, raising=False)
    assert codes_for(p) == ["SGS-E100"]
    loaded = check_paths([str(p)])
    assert "Permission denied" in loaded.diagnostics[0].message


def test_several_syntax_errors_are_reported_in_order(tmp_path: Path) -> None:
    src = (
        "card 杀 sha : basic { copies ♠7 ; }\n"
        "card 闪 shan basic { copies ♥2 }\n"
        "card 桃 tao : basic { copies ♥3 }\n"
        "general 关羽 guanyu : 蜀 male { }\n"
    )
    loaded = check_paths([str(write(tmp_path, "multi.sgs", src))])
    got = [(d.code, d.span.line) for d in loaded.diagnostics]
    assert got == [("SGS-E101", 1), ("SGS-E102", 2), ("SGS-E102", 4)]


def test_several_checker_errors_sorted_by_position(tmp_path: Path) -> None:
    src = (
        "skill 甲 a { on damagd { draw(owner, 1) } }\n"
        "skill 乙 b { on damaged { drw(owner, 1) } }\n"
        "skill 丙 c { on damaged where owner.hpp > 1 { draw(owner) } }\n"
    )
    loaded = check_paths([str(write(tmp_path, "multi.sgs", src))])
    got = [(d.code, d.span.line, d.span.col) for d in loaded.diagnostics]
    assert got == sorted(got, key=lambda x: (x[1], x[2]))
    assert [c for c, _, _ in got] == ["SGS-E205", "SGS-E203", "SGS-E207", "SGS-E204"]


def test_recovery_is_bounded(tmp_path: Path) -> None:
    """Thousands of broken definitions: at most MAX_SYNTAX_ERRORS reports (fewer on a big file, where the
    re-parsing budget runs out first), and quickly."""
    import time

    from sgsdsl.lang.parser import MAX_SYNTAX_ERRORS

    src = "".join(f"card 卡{i} c{i} : basic {{ copies ♠7 ; }}\n" for i in range(3000))
    start = time.monotonic()
    codes = codes_for(write(tmp_path, "many.sgs", src))
    assert time.monotonic() - start < 20
    assert 5 <= len(codes) <= MAX_SYNTAX_ERRORS and set(codes) == {"SGS-E101"}
    small = "".join(f"card 卡{i} c{i} : basic {{ copies ♠7 ; }}\n" for i in range(100))
    assert codes_for(write(tmp_path, "some.sgs", small)) == ["SGS-E101"] * MAX_SYNTAX_ERRORS
