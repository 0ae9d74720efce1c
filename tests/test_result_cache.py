"""The result cache (issue 15, start-up): `check` and `compile` answered from stored results give exactly what
recomputing gives, and any change to what a load depends on (a file's text, where an import or a symlink leads,
a file that was missing) is a miss. An unchanged `sgsdsl check` does not import the parser or the checker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sgsdsl.checking import check_each
from sgsdsl.compiler.project import compile_paths
from sgsdsl.lang import parse_cache, result_cache

ROOT = Path(__file__).resolve().parent.parent
MINI = (ROOT / "tests" / "fixtures" / "mini.sgs").read_text(encoding="utf-8")
WARNS = 'card 无 wu : basic { effect { draw(user, 1) } }\n'  # SGS-W401: no copies
BROKEN = 'card 坏 huai : basic { copies ♠A  effect { draw(nobody, 1) } }\n'  # an unknown name


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path / "cache"))
    parse_cache._memo.clear()
    return tmp_path / "cache" / "results"


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.rglob("*.json"))


def _report(folder: Path) -> tuple[list, dict[str, str]]:
    got = check_each([str(folder)])
    return [(d.code, d.severity, d.message, d.span) for d in got.diagnostics], got.sources


def _project(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "base.sgs").write_text(MINI, encoding="utf-8")
    (folder / "extra.sgs").write_text('import "base.sgs"\n' + WARNS, encoding="utf-8")
    return folder


def test_a_stored_check_is_what_checking_again_gives(cache: Path, tmp_path: Path, monkeypatch) -> None:
    folder = _project(tmp_path)
    (folder / "broken.sgs").write_text('import "base.sgs"\n' + BROKEN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    fresh = _report(Path("rules"))
    assert {c for c, *_ in fresh[0]} >= {"SGS-W401"} and any(s == "error" for _, s, *_ in fresh[0])
    assert len(_entries(cache)) == 3  # one a file; diagnostics from the checker are stored with the rest
    again = _report(Path("rules"))
    assert again == fresh
    monkeypatch.setattr("sgsdsl.lang.checker.check", _refuse)  # the second answer came from the cache alone
    assert _report(Path("rules")) == fresh


def _refuse(*_args, **_kwargs):
    raise AssertionError("checked again although nothing changed")


def test_an_edited_import_is_checked_again(cache: Path, tmp_path: Path) -> None:
    folder = _project(tmp_path)
    before, _ = _report(folder)
    assert not any(s == "error" for _, s, *_ in before)
    (folder / "base.sgs").write_text(MINI + BROKEN, encoding="utf-8")
    after, sources = _report(folder)
    assert any(s == "error" for _, s, *_ in after)
    assert BROKEN in next(t for name, t in sources.items() if name.endswith("base.sgs"))


def test_a_file_that_was_missing_is_found_once_it_exists(cache: Path, tmp_path: Path) -> None:
    user = tmp_path / "user.sgs"
    user.write_text('import "helper"\n' + MINI, encoding="utf-8")
    assert any(d.code == "SGS-E107" for d in check_each([str(user)]).diagnostics)
    assert not _entries(cache), "a load with a missing import is never stored"
    (tmp_path / "helper.sgs").write_text(WARNS, encoding="utf-8")
    codes = {d.code for d in check_each([str(user)]).diagnostics}
    assert "SGS-E107" not in codes and "SGS-W401" in codes


def test_a_retargeted_symlink_is_a_miss_even_to_the_same_text(cache: Path, tmp_path: Path) -> None:
    for name in ("one.sgs", "two.sgs"):
        (tmp_path / name).write_text(WARNS, encoding="utf-8")
    link = tmp_path / "helper.sgs"
    link.symlink_to(tmp_path / "one.sgs")
    user = tmp_path / "user.sgs"
    user.write_text('import "helper"\n' + MINI, encoding="utf-8")
    check_each([str(user)])
    assert result_cache.lookup("check", user) is not None
    link.unlink()
    link.symlink_to(tmp_path / "two.sgs")
    assert result_cache.lookup("check", user) is None


def test_untrusted_entries_are_ignored(cache: Path, tmp_path: Path) -> None:
    folder = _project(tmp_path)
    fresh, _ = _report(folder)
    for entry in _entries(cache):
        entry.chmod(0o666)
    assert result_cache.lookup("check", folder / "extra.sgs") is None
    assert _report(folder)[0] == fresh


def test_a_stored_compile_is_what_compiling_again_gives(cache: Path, tmp_path: Path) -> None:
    folder = _project(tmp_path)
    fresh = compile_paths([str(folder)])
    assert fresh.ok and fresh.timings.cached == 0 and len(fresh.files) == 3
    again = compile_paths([str(folder)])
    assert again.timings.cached == 2
    assert (again.files, again.diagnostics, again.sources) == (fresh.files, fresh.diagnostics, fresh.sources)
    (folder / "extra.sgs").write_text('import "base.sgs"\n' + WARNS + WARNS.replace("无 wu", "空 kong"),
                                      encoding="utf-8")
    edited = compile_paths([str(folder)])
    assert edited.timings.cached == 1 and edited.files["extra.py"] != fresh.files["extra.py"]
    assert edited.files["base.py"] == fresh.files["base.py"]


def test_the_bundled_compile_from_the_cache_matches_generated(cache: Path) -> None:
    compile_paths([str(ROOT / "rules")])
    again = compile_paths([str(ROOT / "rules")])
    assert again.timings.cached == len(again.files) - 1
    for name, text in again.files.items():
        assert (ROOT / "generated" / name).read_text(encoding="utf-8") == text, name


def test_an_unchanged_check_imports_neither_parser_nor_checker(tmp_path: Path) -> None:
    env = {**os.environ, "SGSDSL_CACHE": str(tmp_path / "cache")}
    command = [sys.executable, "-X", "importtime", "-m", "sgsdsl", "check", str(ROOT / "rules")]
    first = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    second = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert first.stdout == second.stdout and "0 error(s)" in second.stdout
    assert "sgsdsl.lang.checker" in first.stderr and " lark" in first.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in second.stderr.splitlines() if "|" in line}
    assert "lark" not in imported and "sgsdsl.lang.checker" not in imported and "sgsdsl.engine" not in imported
