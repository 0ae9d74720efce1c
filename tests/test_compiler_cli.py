"""`sgsdsl compile`: deterministic output, `--check`, the committed `generated/`, and the designer cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.api import check_paths
from sgsdsl.cli import main
from sgsdsl.compiler import cache
from sgsdsl.compiler.project import compile_paths

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"


def _compile(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from sgsdsl.cli import main; main()", "compile", *args],
                          cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True)


def test_output_is_byte_identical_across_hash_seeds(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    shutil.copy(MINI, rules / "mini.sgs")
    a = _compile(["rules", "-o", "A"], tmp_path, {"PYTHONHASHSEED": "1"})
    b = _compile(["rules", "-o", "B"], tmp_path, {"PYTHONHASHSEED": "4242"})
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    files = sorted(p.name for p in (tmp_path / "A").glob("*.py"))
    assert files == ["__init__.py", "mini.py"]
    for name in files:
        assert (tmp_path / "A" / name).read_bytes() == (tmp_path / "B" / name).read_bytes()


def test_check_reports_a_stale_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(MINI, tmp_path / "mini.sgs")
    runner = CliRunner()
    assert runner.invoke(main, ["compile", "mini.sgs", "-o", "out"]).exit_code == 0
    ok = runner.invoke(main, ["compile", "mini.sgs", "-o", "out", "--check"])
    assert ok.exit_code == 0 and "is current" in ok.output
    (tmp_path / "mini.sgs").write_text(MINI.read_text(encoding="utf-8").replace("copies ♥5", "copies ♥5 ♦K"),
                                       encoding="utf-8")
    stale = runner.invoke(main, ["compile", "mini.sgs", "-o", "out", "--check"])
    assert stale.exit_code == 1
    assert "differs: out/mini.py (first at line" in stale.output and "differs: out/__init__.py" in stale.output


def test_compile_errors_exit_1_with_diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.sgs").write_text("card 杀 sha : basic { effect { draw(nobody, 1) } }", encoding="utf-8")
    res = CliRunner().invoke(main, ["compile", "bad.sgs", "-o", "out"])
    assert res.exit_code == 1 and "nobody" in res.output
    assert not (tmp_path / "out").exists()


def test_committed_generated_is_current() -> None:
    res = compile_paths([str(ROOT / "rules")])
    assert res.ok, "the bundled rules do not check: sgsdsl check rules/"
    from sgsdsl.compiler.project import stale_files

    here = os.getcwd()
    os.chdir(ROOT)  # generated/ is compiled from the repository root (display paths are relative)
    try:
        res = compile_paths(["rules"])
        problems = stale_files(res, Path("generated"))
    finally:
        os.chdir(here)
    assert not problems, f"generated/ is stale (run: sgsdsl compile rules/ -o generated/): {problems}"


def test_cache_compiles_designer_folders_outside_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path / "cache"))
    cache._loaded_modules.clear()
    loaded = check_paths([str(MINI)])
    program = cache.compiled_program(loaded)
    files = list((tmp_path / "cache").rglob("rules.py"))
    assert len(files) == 1
    assert program.cards["sha"].effect.__qualname__ == "Card_sha.effect"
    assert not list((ROOT / "sgsdsl").rglob("rules.py"))


def test_cache_is_safe_under_concurrent_runs(tmp_path: Path) -> None:
    code = ("import sys;from sgsdsl.api import check_paths;from sgsdsl.compiler.cache import compiled_program;"
            "from sgsdsl.sim import play_one;p=compiled_program(check_paths([sys.argv[1]]));"
            "print(play_one(p,'identity',4,3).turns)")
    env = {**os.environ, "SGSDSL_CACHE": str(tmp_path / "cache")}
    procs = [subprocess.Popen([sys.executable, "-c", code, str(MINI)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [e for _, e in outs]
    assert len({o for o, _ in outs}) == 1
    assert not list((tmp_path / "cache").rglob("*.tmp"))


def test_simulate_compiled_uses_generated_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path / "cache"))
    res = CliRunner().invoke(main, ["simulate", str(MINI), "--players", "4", "--games", "3", "--engine", "compiled",
                                    "--json"])
    assert res.exit_code == 0, res.output
    interp = CliRunner().invoke(main, ["simulate", str(MINI), "--players", "4", "--games", "3", "--engine",
                                       "interpreted", "--json"])
    a, b = json.loads(res.output), json.loads(interp.output)
    assert (a["settings"]["engine"], b["settings"]["engine"]) == ("compiled", "interpreted")
    assert a["stats"] == b["stats"]
