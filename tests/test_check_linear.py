"""Check time grows linearly with the file: a long `else if` chain costs no more per token than the bundled
rules, and doubling it roughly doubles the work. Work is counted as Python function calls under cProfile:
deterministic, so the test measures the algorithm and never the machine's load (no clock is read)."""

from __future__ import annotations

import cProfile
import pstats
import re
from pathlib import Path

import pytest

from helpers import MINI, STANDARD
from sgsdsl.api import check_paths
from sgsdsl.lang import loader


@pytest.fixture(autouse=True)
def _no_parse_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time parsing and checking themselves: the start-up cache would hand back earlier parses."""
    monkeypatch.setattr(loader, "parse_cached", lambda text, file, parse, **_: parse(text, file))


def chain(n: int) -> str:
    lines = ['    if count(players()) == 0 { log("0") }']
    lines += [f'    else if count(players()) == {i} {{ log("{i}") }}' for i in range(1, n)]
    return f'import "{MINI.as_posix()}"\nrule 链 chain {{\n  on turn_start {{\n' + "\n".join(lines) + "\n  }\n}\n"


def tokens(text: str) -> int:
    """About how many tokens: words and symbols, comments left out."""
    return sum(len(re.findall(r"\w+|[^\s\w]", line.split("#")[0])) for line in text.splitlines())


def check_work(path: Path) -> int:
    """Function calls made while checking the file (its imports included), after one warm-up check: the first
    check in a process also pays one-time set-up (grammar tables, memoised imports)."""
    check_paths([str(path)])
    profile = cProfile.Profile()
    profile.enable()
    loaded = check_paths([str(path)])
    profile.disable()
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    return pstats.Stats(profile).total_calls


def test_else_if_chains_check_in_linear_time(tmp_path: Path) -> None:
    work, size = {}, {}
    for n in (15, 60, 240):
        path = tmp_path / f"chain{n}.sgs"
        path.write_text(chain(n), encoding="utf-8")
        work[n], size[n] = check_work(path), tokens(path.read_text(encoding="utf-8"))
    # the cost of each added branch, past the shared import: the same for a short and a 4x longer chain
    # (quadratic growth would make the second about 5x the first)
    short = (work[60] - work[15]) / (size[60] - size[15])
    long = (work[240] - work[60]) / (size[240] - size[60])
    assert long < 1.5 * short, (short, long)
    # and no more than a small multiple of the bundled rules' cost per token
    standard = check_work(STANDARD) / tokens(STANDARD.read_text(encoding="utf-8"))
    assert long < 3.0 * standard, (long, standard)


def test_a_chain_too_deep_for_the_tree_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.sgs"
    path.write_text(chain(600), encoding="utf-8")
    errors = [d for d in check_paths([str(path)]).diagnostics if d.severity == "error"]
    assert errors and errors[0].code == "SGS-E104" and errors[0].span.line > 1
