"""The negative corpus: every file in tests/bad/ states, in its first line, the diagnostic it must produce
(`# expect: SGS-E202 at 3:15`); the test fails when the code, the line or the caret column differs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgsdsl.api import check_paths
from sgsdsl.lang.diagnostics import render_text

BAD = Path(__file__).parent / "bad"
EXPECT = re.compile(rb"^# expect: (SGS-[EW]\d{3}) at (\d+):(\d+)\s*$")
FILES = sorted(BAD.glob("*.sgs"))


def expectation(path: Path) -> tuple[str, int, int]:
    first = path.read_bytes().split(b"\n", 1)[0]
    m = EXPECT.match(first)
    assert m, f"{path.name}: the first line must be '# expect: SGS-Exxx at LINE:COL'"
    return m.group(1).decode(), int(m.group(2)), int(m.group(3))


def test_corpus_is_not_empty() -> None:
    assert len(FILES) >= 30


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_bad_file_yields_its_stated_diagnostic(path: Path) -> None:
    code, line, col = expectation(path)
    loaded = check_paths([str(path)])
    mine = [d for d in loaded.diagnostics if Path(d.span.file).resolve() == path.resolve()]
    found = [(d.code, d.span.line, d.span.col) for d in mine]
    assert (code, line, col) in found, (
        f"expected {code} at {line}:{col}, got {found}\n" + render_text(loaded.diagnostics, loaded.sources))
    # the rendered form never fails and carries the caret line
    text = render_text(loaded.diagnostics, loaded.sources)
    assert f"[{code}]" in text
    if path.suffix == ".sgs" and code.startswith("SGS-E"):
        assert not loaded.ok


def test_file_names_start_with_their_code() -> None:
    """Keeps the corpus navigable: E202_something.sgs holds an SGS-E202 case."""
    for path in FILES:
        code, _, _ = expectation(path)
        assert path.name.startswith(code.removeprefix("SGS-") + "_"), path.name
