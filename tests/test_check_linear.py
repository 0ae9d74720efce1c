"""Check time grows linearly with the file: a long `else if` chain costs no more per token than the bundled
rules, and doubling it roughly doubles the time (loose ratios of best-of-2 timings, never absolute times)."""

from __future__ import annotations

import re
import time
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


def best_check_time(path: Path) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        loaded = check_paths([str(path)])
        best = min(best, time.perf_counter() - start)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    return best


def test_else_if_chains_check_in_linear_time(tmp_path: Path) -> None:
    per_token = {}
    for n in (60, 240):
        path = tmp_path / f"chain{n}.sgs"
        path.write_text(chain(n), encoding="utf-8")
        per_token[n] = best_check_time(path) / tokens(path.read_text(encoding="utf-8"))
    mini_cost = best_check_time(MINI) / tokens(MINI.read_text(encoding="utf-8"))
    standard = best_check_time(STANDARD) / tokens(STANDARD.read_text(encoding="utf-8"))
    # per token, a 4x longer chain costs about the same (quadratic growth would make it ~4x)
    assert per_token[240] < 2.0 * per_token[60], per_token
    # and no more than a small multiple of the bundled rules (which import nothing larger than themselves)
    assert per_token[240] < 3.0 * max(standard, mini_cost), (per_token, standard)


def test_a_chain_too_deep_for_the_tree_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.sgs"
    path.write_text(chain(600), encoding="utf-8")
    errors = [d for d in check_paths([str(path)]).diagnostics if d.severity == "error"]
    assert errors and errors[0].code == "SGS-E104" and errors[0].span.line > 1
