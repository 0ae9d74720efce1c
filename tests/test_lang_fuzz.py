"""Hypothesis against the front end: programs generated from the grammar and random mutations of the real
rules files must never raise; every diagnostic has a known code and a position inside its file.

The default suite runs a modest number of examples. The long run is opt-in: `pytest -m fuzz` (examples
from $SGS_FUZZ_EXAMPLES, default 10,000); the campaign `python scripts/fuzz_frontend.py --examples 100000` runs
these strategies (plus the hostile corpus) in worker processes with a per-input CPU limit.
"""

from __future__ import annotations

import os
import re
import tempfile
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from sgsdsl.api import check_paths
from sgsdsl.engine import registry as reg
from sgsdsl.lang.codes import CODES
from sgsdsl.lang.diagnostics import render_json, render_text
from sgsdsl.lang.parser import _literal_alternatives, _parser, grammar_text

ROOT = Path(__file__).resolve().parent.parent
SEEDS = {p.name: p.read_bytes() for p in [ROOT / "tests" / "fixtures" / "mini.sgs", *sorted(ROOT.glob("rules/*.sgs"))]}
SMALL = {k: v for k, v in SEEDS.items() if len(v) < 10_000}
FUZZ_EXAMPLES = int(os.environ.get("SGS_FUZZ_EXAMPLES", "10000"))
COMMON = dict(deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                                     HealthCheck.large_base_example])


# ---------------------------------------------------------------- strategies
@cache
def keywords() -> frozenset[str]:
    return frozenset(t.pattern.value for t in _parser().terminals if t.pattern.type == "str")


def _names() -> list[str]:
    """Names a program may use: the registry's vocabulary, Chinese names, and a few plain ones."""
    vocab = [*reg.TIMINGS, *reg.PRIMITIVES, *reg.ENGINE_VALUES, *reg.CONSTANTS, *reg.CARD_CATEGORIES,
             *reg.USE_CONTEXTS, *reg.SKILL_FLAGS, *reg.LIMIT_SCOPES, *reg.VIEW_SOURCES, *reg.CARD_HOOKS,
             *{n for scope in reg.SCOPE_NAMES.values() for n in scope}]
    return sorted({*vocab, "杀", "闪", "桃", "闪电", "关羽", "蜀", "魏", "lord", "rebel", "x", "y", "player", "int",
                   "hp", "suit", "amount", "target"} - keywords())


@cache
def grammar_programs() -> st.SearchStrategy[str]:
    """Programs from the grammar. Every terminal gets a trailing space so tokens never glue together."""
    names = _names()
    explicit: dict[str, st.SearchStrategy[str]] = {
        "IDENT": st.one_of(st.sampled_from(names),
                           st.from_regex(r"[a-z_][a-z0-9_]{0,5}", fullmatch=True).filter(
                               lambda s: s not in keywords())),
        "INT": st.integers(0, 20).map(str),
        "STRING": st.sampled_from(['""', '"standard.sgs"', '"x"', '"杀"', '"a\\"b"']),
        "FACE": st.builds(lambda s, r: s + r, st.sampled_from("♠♥♣♦"), st.sampled_from(
            ["A", "2", "7", "10", "J", "Q", "K"])),
        "SUIT": st.sampled_from("♠♥♣♦"),
        "COMMENT": st.sampled_from(["# note\n", "// 注释\n"]),
        "WS": st.sampled_from([" ", "\n", "\t", "\u3000"]),
    }
    alts = _literal_alternatives()
    for term in _parser().terminals:
        if term.name in explicit:
            continue
        spellings = [term.pattern.value] if term.pattern.type == "str" else alts.get(term.name, [])
        if spellings:
            explicit[term.name] = st.sampled_from(spellings)
    explicit = {k: v.map(lambda s: s + " ") for k, v in explicit.items()}
    # Hypothesis reads the grammar off the Lark object, which a parser loaded from the parse cache (Lark.load)
    # does not keep: generate from a Lark built from the grammar text (the same grammar, the same terminals)
    return from_lark(Lark(grammar_text(), parser="lalr", strict=True), start="start", explicit=explicit)


TOKEN = re.compile(r"\s+|\w+|\S")


@st.composite
def mutated(draw: st.DrawFn, seeds: dict[str, bytes]) -> bytes:
    """A real rules file with a few token-level edits, a truncation, or inserted garbage (text or bytes)."""
    name = draw(st.sampled_from(sorted(seeds)))
    toks = TOKEN.findall(seeds[name].decode("utf-8"))
    garbage: list[tuple[float, bytes]] = []
    for op in draw(st.lists(st.sampled_from(["delete", "duplicate", "swap", "replace", "truncate", "text", "bytes"]),
                            min_size=1, max_size=4)):
        if not toks:
            break
        i = draw(st.integers(0, len(toks) - 1))
        if op == "delete":
            del toks[i]
        elif op == "duplicate":
            toks.insert(i, toks[i])
        elif op == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "replace":
            toks[i] = toks[draw(st.integers(0, len(toks) - 1))]
        elif op == "truncate":
            del toks[i:]
        elif op == "text":
            toks.insert(i, draw(st.text(min_size=1, max_size=6)))
        else:
            garbage.append((draw(st.floats(0, 1)), draw(st.binary(min_size=1, max_size=6))))
    data = "".join(toks).encode("utf-8", "surrogatepass")
    for where, junk in garbage:
        k = int(where * len(data))
        data = data[:k] + junk + data[k:]
    return data


# ---------------------------------------------------------------- the property
_WORK = Path(tempfile.mkdtemp(prefix="sgs-fuzz-"))


def assert_front_end_survives(data: bytes) -> None:
    path = _WORK / "fuzz.sgs"
    path.write_bytes(data)
    loaded = check_paths([str(path)])
    render_text(loaded.diagnostics, loaded.sources)
    render_json(loaded.diagnostics)
    fallback = data.decode("utf-8", "replace").removeprefix("\ufeff")
    for d in loaded.diagnostics:
        assert d.code in CODES and d.code != "SGS-E000", d
        text = loaded.sources.get(d.span.file)
        if text is None:
            text = fallback
        lines = text.split("\n")
        assert 1 <= d.span.line <= len(lines), (d, len(lines))
        assert 1 <= d.span.col <= len(lines[d.span.line - 1]) + 1, (d, lines[d.span.line - 1][:80])
        assert (d.span.end_line, d.span.end_col) >= (d.span.line, d.span.col), d


# ---------------------------------------------------------------- default suite: modest counts
@settings(max_examples=40, **COMMON)
@given(grammar_programs())
def test_grammar_programs(text: str) -> None:
    assert_front_end_survives(text.encode("utf-8"))


@settings(max_examples=60, **COMMON)
@given(mutated(SMALL))
def test_mutated_small_files(data: bytes) -> None:
    assert_front_end_survives(data)


@settings(max_examples=20, **COMMON)
@given(mutated(SEEDS))
def test_mutated_rules_files(data: bytes) -> None:
    assert_front_end_survives(data)


def test_generated_programs_often_parse() -> None:
    """The generator is useful only if it reaches the checker: most generated programs must parse."""
    from hypothesis import find

    from sgsdsl.lang.parser import parse_text

    example = find(grammar_programs(), lambda s: "card" in s and parse_text(s, "g.sgs")[0] is not None,
                   settings=settings(max_examples=200, **COMMON))
    assert "card" in example


# ---------------------------------------------------------------- opt-in long run
@pytest.mark.fuzz
@settings(max_examples=FUZZ_EXAMPLES, **COMMON)
@given(st.one_of(grammar_programs().map(lambda s: s.encode("utf-8")), mutated(SMALL), mutated(SEEDS)))
def test_fuzz_front_end_long(data: bytes) -> None:
    assert_front_end_survives(data)
