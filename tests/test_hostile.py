"""The language is a sandbox: every escape attempt in tests/hostile/ gets a located diagnostic at check time,
and — with the checker bypassed, on both engines — is inert at run time (a located rule error at most)."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from sgsdsl.api import check_paths
from sgsdsl.compiler.codegen import generate_module
from sgsdsl.engine import model
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.errors import EngineError
from sgsdsl.engine.game import Game
from sgsdsl.engine.program import Program
from sgsdsl.interp.build import build_program
from sgsdsl.lang import ast

HOSTILE = Path(__file__).resolve().parent / "hostile"
FILES = sorted(HOSTILE.glob("*.sgs"))
ORIGINAL_COLOR_OF = model.color_of


def unchecked_programs(path: Path, tmp_path: Path, mutate=None) -> dict[str, Program]:
    """Both engines' Programs of a file whose diagnostics are ignored (an attacker skipping `sgsdsl check`)."""
    loaded = check_paths([str(path)])
    assert loaded.checked is not None
    if mutate is not None:
        mutate(loaded.checked)
    gen = generate_module(loaded.checked, loaded.sources)
    py = tmp_path / f"hostile_{path.stem}.py"
    py.write_text(gen.text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(py.stem, py)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {"compiled": mod.build_program(), "interpreted": build_program(loaded.checked)}


def play(prog: Program, seed: int = 1) -> str | None:
    """Play a short game; the engine error's message, or None. Any other exception fails the test."""
    agents = [RandomAgent(seed * 10 + i) for i in range(4)]
    try:
        Game(prog, "identity", 4, seed, agents, round_cap=4).run()
    except EngineError as err:
        return str(err)
    return None


def assert_inert(tmp_path: Path, error: str | None, stem: str) -> None:
    assert not (tmp_path / "SENTINEL").exists(), "the payload ran"
    assert model.color_of is ORIGINAL_COLOR_OF, "the payload rewrote engine code"
    if error is not None:  # refused: located at the hostile file's line
        assert error.startswith(f"tests/hostile/{stem}.sgs:") or f"hostile/{stem}.sgs:" in error.split(" ")[0], error


def test_corpus_is_there() -> None:
    assert len(FILES) >= 7


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_check_reports_located_errors(path: Path) -> None:
    loaded = check_paths([str(path)])
    errors = [d for d in loaded.diagnostics if d.severity == "error"]
    assert errors, f"{path.name} passed the checker"
    for d in errors:
        assert d.code in ("SGS-E207", "SGS-E302", "SGS-E301"), (d.code, d.message)
        assert Path(d.span.file).name == path.name and d.span.line > 0, d


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_unchecked_run_is_inert_on_both_engines(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    progs = unchecked_programs(path, tmp_path)
    errors = {}
    for engine, prog in progs.items():
        errors[engine] = play(prog)
        assert_inert(tmp_path, errors[engine], path.stem)
    assert errors["compiled"] == errors["interpreted"]  # both engines refuse identically


def test_the_escape_is_refused_at_its_first_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for prog in unchecked_programs(HOSTILE / "rce_via_marks.sgs", tmp_path).values():
        error = play(prog)
        assert error is not None and "rce_via_marks.sgs:8" in error and "has no field '__init__'" in error


def _rename_fields(checked) -> None:
    """A hand-built AST: every field read becomes a dunder, every call an unknown function, past the checker."""
    names = iter(["__class__", "__dict__", "__globals__", "label", "hand", "marks", "_secret"] * 50)
    stack: list[object] = list(checked.modules)
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ast.Attr):
            node.name = dataclasses.replace(node.name, text=next(names))
        if isinstance(node, ast.Assign):
            node.target.name = dataclasses.replace(node.target.name, text="__class__")
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__)


def test_hand_built_ast_cannot_reach_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "legit.sgs"
    mini = Path(__file__).resolve().parent / "fixtures" / "mini.sgs"
    src.write_text(mini.read_text(encoding="utf-8").replace(
        "  on died where", "  on turn_start { event.player.hp = 1 }\n  on died where"), encoding="utf-8")
    progs = unchecked_programs(src, tmp_path, _rename_fields)
    results = {engine: play(prog) for engine, prog in progs.items()}
    for error in results.values():
        assert error is not None and error.startswith(str(src.name)) or "legit.sgs:" in (error or ""), error
        assert "has no field" in error or "cannot be changed" in error, error
    assert results["compiled"] == results["interpreted"]


def test_every_declared_kind_of_value_has_its_class() -> None:
    """A type with fields in ATTRIBUTES is readable at run time only once its class is in VALUE_CLASSES."""
    from sgsdsl.engine import registry as reg

    assert set(reg.ATTRIBUTES) == set(reg.VALUE_CLASSES.values())
