"""Files the CLI writes: logs and compiled modules are written atomically, never over something that is not a
regular file, with a clear error for unwritable paths; `compile -o` removes only what it wrote itself and
`compile --check` answers the same from any working directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import MINI, ROOT, STANDARD
from sgsdsl.cli import main
from sgsdsl.files import WriteRefused, write_text_atomic


def run(*args: str, cwd: Path | None = None):
    if cwd is None:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)
    return subprocess.run([sys.executable, "-m", "sgsdsl", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


SIM = ("simulate", str(MINI), "--players", "4", "--games", "1", "--engine", "interpreted", "--json", "--log")


def test_log_is_not_written_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "keep.txt"
    target.write_text("precious\n", encoding="utf-8")
    link = tmp_path / "game.jsonl"
    link.symlink_to(target)
    r = run(*SIM, str(link))
    assert r.exit_code == 1 and "symbolic link" in r.output and "Traceback" not in r.output
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "precious\n"


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_log_never_replaces_a_non_regular_file(tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        path = tmp_path / "pipe.jsonl"
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/null")  # refused before anything is written: the device stays a device
    else:
        path = tmp_path / "dir.jsonl"
        path.mkdir()
    before = os.lstat(path).st_mode
    r = run(*SIM, str(path))
    assert r.exit_code in (1, 2) and "Traceback" not in r.output, r.output
    assert os.lstat(path).st_mode == before


@pytest.mark.parametrize("where", ["missing-folder/x.jsonl", "a-file.txt/x.jsonl"])
def test_unwritable_log_path_is_a_clear_error(tmp_path: Path, where: str) -> None:
    (tmp_path / "a-file.txt").write_text("x", encoding="utf-8")
    r = run(*SIM, str(tmp_path / where))
    assert r.exit_code == 1 and "cannot write" in r.output and "Traceback" not in r.output


# --html and --parquet need their optional libraries (refused with exit 2 without them, before any path check)
EXPORTS = ["--csv"] + [flag for flag, lib in (("--html", "matplotlib"), ("--parquet", "pyarrow")) if find_spec(lib)]


@pytest.mark.parametrize("flag", EXPORTS)
@pytest.mark.parametrize("where", ["link", "a-file.txt/x", "missing-folder/x"])
def test_exports_refuse_links_and_unwritable_paths_before_playing(tmp_path: Path, flag: str, where: str) -> None:
    """--csv/--html/--parquet are written like --log: a symlink stays a symlink, an unwritable path is a clear
    error (exit 1, no traceback), found before any game is played."""
    target = tmp_path / "keep.txt"
    target.write_text("precious\n", encoding="utf-8")
    (tmp_path / "a-file.txt").write_text("x", encoding="utf-8")
    (tmp_path / "link").symlink_to(target)
    for cmd in (SIM[:-2], ("compare", "--games", "2", "--players", "4", "--b-option", "two_renegades=true")):
        r = run(*cmd, flag, str(tmp_path / where))
        assert r.exit_code == 1 and "Traceback" not in r.output, r.output
        assert "symbolic link" in r.output if where == "link" else "cannot write" in r.output
    assert (tmp_path / "link").is_symlink() and target.read_text(encoding="utf-8") == "precious\n"


def test_fmt_formats_a_linked_file_where_it_lives(tmp_path: Path) -> None:
    real = tmp_path / "real.sgs"
    real.write_text('import "x.sgs"\nvalue  v(p: player)   =  1\n', encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.sgs"
    link.symlink_to(real)
    r = run("fmt", str(link))
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and real.read_text(encoding="utf-8") == 'import "x.sgs"\nvalue v(p: player) = 1\n'
    assert oct(real.stat().st_mode & 0o777) == "0o640"


def test_atomic_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    p = tmp_path / "out.txt"
    write_text_atomic(p, "one\n")
    write_text_atomic(p, "two\n")
    assert p.read_text(encoding="utf-8") == "two\n" and [x.name for x in tmp_path.iterdir()] == ["out.txt"]
    with pytest.raises(WriteRefused):
        write_text_atomic(tmp_path / "nope" / "x.txt", "x")


def test_compile_into_an_unwritable_place_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    for out in ("/proc/sgsdsl-out", str(tmp_path / "file")):
        r = run("compile", str(MINI), "-o", out)
        assert r.exit_code in (1, 2) and "Traceback" not in r.output, r.output
        assert "cannot" in r.output or "not a folder" in r.output or "is a file" in r.output


def test_compile_refuses_a_symlink_where_a_module_goes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n", encoding="utf-8")
    (out / "mini.py").symlink_to(victim)
    r = run("compile", str(MINI), "-o", str(out))
    assert r.exit_code == 1 and "symbolic link" in r.output
    assert victim.read_text(encoding="utf-8") == "keep\n"


def test_compile_removes_only_files_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("compile", str(STANDARD), "-o", str(out)).exit_code == 0
    mine = out / "mine.py"  # a file the user keeps there, even one that looks generated
    mine.write_text((out / "standard.py").read_text(encoding="utf-8"), encoding="utf-8")
    edited = out / "standard.py"
    assert run("compile", str(MINI), "-o", str(out)).exit_code == 0
    assert mine.is_file() and not edited.exists()  # standard.py was ours, unchanged: gone
    # a module compile wrote and the user then edited is not removed either
    (out / "mini.py").write_text((out / "mini.py").read_text(encoding="utf-8") + "# my note\n", encoding="utf-8")
    assert run("compile", str(STANDARD), "-o", str(out)).exit_code == 0
    assert (out / "mini.py").is_file() and mine.is_file()
    manifest = json.loads((out / ".sgsdsl-compiled.json").read_text(encoding="utf-8"))
    assert sorted(manifest["files"]) == ["__init__.py", "standard.py"]


def test_compile_check_is_the_same_from_any_directory(tmp_path: Path) -> None:
    here = run("compile", "rules/", "-o", "generated/", "--check", cwd=ROOT)
    away = run("compile", str(ROOT / "rules"), "-o", str(ROOT / "generated"), "--check", cwd=tmp_path)
    assert here.returncode == away.returncode == 0, (here.stdout, away.stdout)


def test_compile_json_prints_only_json_on_stdout(tmp_path: Path) -> None:
    for extra in ([], ["--check"], ["--timings"]):
        p = run("compile", str(MINI), "-o", str(tmp_path / "out"), "--format", "json", *extra, cwd=tmp_path)
        assert p.returncode in (0, 1)
        assert json.loads(p.stdout) == {"diagnostics": []}, p.stdout
    assert "compiled" in run("compile", str(MINI), "-o", str(tmp_path / "o2"), "--format", "json",
                             cwd=tmp_path).stderr
