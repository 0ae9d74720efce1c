"""The cache can't be made to run someone else's code (issue 31 item 1): its data entries are JSON, never pickles;
every folder from the cache root down must be the user's own and writable by nobody else, or the cache is refused
with a message; entries are opened without following links and checked once open; an entry answers only for the
key it was stored under; `cache clean` removes only what sgsdsl wrote. With root, another user (nobody) plants
the entries."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl import cachedata, cachedir
from sgsdsl.api import check_paths
from sgsdsl.cli import main
from sgsdsl.compiler import cache
from sgsdsl.lang import parse_cache, result_cache
from sgsdsl.lang.diagnostics import Span
from sgsdsl.lang.loader import load

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"
SETPRIV = shutil.which("setpriv")
AS_NOBODY = [SETPRIV or "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path / "cache"))
    parse_cache._memo.clear()
    cache._loaded_modules.clear()
    cachedir._warned.clear()
    return tmp_path / "cache"


def test_the_data_format_holds_only_what_the_reader_allows() -> None:
    allowed = cachedata.registry([Span])
    value = {"a": (1, [Span("f", 1, 2, 3, 4)], None), 2: {"t": "not a tag"}}
    assert cachedata.loads(cachedata.dumps(value, allowed), allowed) == value
    with pytest.raises(TypeError):
        cachedata.dumps({1, 2}, allowed)  # a set: outside the format
    blob = cachedata.dumps(Span("f", 1, 2, 3, 4), allowed)
    with pytest.raises(ValueError, match="outside its format"):
        cachedata.loads(blob, {})  # a class the reader did not allow
    with pytest.raises(ValueError):
        cachedata.loads(pickle.dumps(Span("f", 1, 2, 3, 4)), allowed)


@dataclasses.dataclass(frozen=True, slots=True)
class _Slotted:
    a: int
    b: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class _Frozen:
    a: int
    inner: _Slotted


def test_frozen_and_slotted_records_come_back_equal() -> None:
    """`loads` makes a record by calling the `__init__` dataclasses wrote for it, or sets its attributes one by one;
    either way a frozen or slotted record comes back equal."""
    allowed = cachedata.registry([_Slotted, _Frozen])
    value = [_Frozen(1, _Slotted(2, (3, 4))), _Slotted(5, ())]
    back = cachedata.loads(cachedata.dumps(value, allowed), allowed)
    assert back == value and type(back[0].inner) is _Slotted and not hasattr(back[1], "__dict__")


@dataclasses.dataclass
class _Checked:
    a: int
    seen: list[int] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        self.seen.append(self.a)


@dataclasses.dataclass
class _OwnInit:
    a: int

    def __init__(self, a: int) -> None:
        self.a = a * 10


def test_only_a_plain_dataclass_init_is_called_on_load() -> None:
    """A class whose `__init__` is the one dataclasses wrote is made by calling it (a third faster to read, and its
    attributes stored as an instance's usually are); one with a `__post_init__` or its own `__init__` is filled
    attribute by attribute, and that code never runs on load."""
    allowed = cachedata.registry([Span, _Checked, _OwnInit])
    assert allowed["Span"][2] and not allowed["_Checked"][2] and not allowed["_OwnInit"][2]
    value = [Span("f", 1, 2, 3, 4), _Checked(7), _OwnInit(3)]
    assert value[1].seen == [7] and value[2].a == 30
    back = cachedata.loads(cachedata.dumps(value, allowed), allowed)
    assert back[0] == value[0] and back[1].seen == [7] and back[2].a == 30  # (no __post_init__, no __init__ ran)


def test_no_entry_is_a_pickle(root: Path) -> None:
    check_paths([str(MINI)])
    CliRunner().invoke(main, ["check", str(MINI)])
    entries = [p for p in root.rglob("*") if p.is_file()]
    assert entries and all(not p.read_bytes().startswith(b"\x80") for p in entries)
    assert {p.suffix for p in entries} <= {".json", ".ast"}


def test_a_folder_others_may_write_is_refused_not_adopted(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root.mkdir(mode=0o700)
    root.chmod(0o777)
    assert load([MINI]).modules
    err = capsys.readouterr().err
    assert f"not using the cache folder {root}" in err and "writable by its group or by others" in err
    assert not list(root.iterdir())  # nothing written into it
    root.chmod(0o700)
    (root / "parse").mkdir(mode=0o775)  # a folder below the root, group-writable
    (root / "parse").chmod(0o775)
    parse_cache._memo.clear()
    assert load([MINI]).modules and not list((root / "parse").iterdir())
    assert "parse: it is writable by its group" in capsys.readouterr().err


def test_a_symlinked_folder_or_entry_is_not_followed(root: Path, tmp_path: Path) -> None:
    fresh = load([MINI]).modules
    folder = root / "parse" / parse_cache.parser_digest()[:32]
    entry = next(folder.glob("*.ast"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    moved = elsewhere / "entry"
    entry.rename(moved)
    entry.symlink_to(moved)  # the entry a link to a file of ours: not followed
    assert cachedir.read_entry(entry) is None and cachedir.read_entry(moved) is None  # (outside the cache)
    parse_cache._memo.clear()
    assert load([MINI]).modules == fresh
    shutil.move(str(folder), str(elsewhere / "parse"))
    folder.symlink_to(elsewhere / "parse")  # a folder a link: not followed either
    assert not cachedir.usable_dir(folder, create=False)


def test_a_renamed_result_entry_answers_for_nobody(root: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.sgs", tmp_path / "b.sgs"
    a.write_text(MINI.read_text(encoding="utf-8"), encoding="utf-8")
    b.write_text(MINI.read_text(encoding="utf-8") + "\ncard 无 wu: basic {\n  copies 1 ♠A\n}\n", encoding="utf-8")
    check_paths([str(a)])
    from sgsdsl.checking import check_each

    check_each([str(a)])
    stored = sorted((root / "results").rglob("check-*.json"))
    assert len(stored) == 1
    where = result_cache._entry("check", b, None)
    assert where is not None
    shutil.copy(stored[0], where[0])
    assert result_cache.lookup("check", b) is None


def test_a_compiled_module_moved_to_another_folder_is_not_run(root: Path) -> None:
    loaded = check_paths([str(MINI)])
    cache.cached_module(loaded)
    path = next(root.rglob("rules.py"))
    text = path.read_text(encoding="utf-8")
    first, _, body = text.partition("\n")
    other = root / ("f" * 40)
    other.mkdir(mode=0o700)
    (other / "rules.py").write_text(text, encoding="utf-8")
    (other / "rules.py").chmod(0o600)
    key = next(line for line in body.splitlines() if line.startswith("# source: "))[len("# source: "):]
    assert cache._verified(path, key, path.parent.name) == text
    assert cache._verified(other / "rules.py", key, other.name) is None


def test_cache_clean_removes_only_what_sgsdsl_wrote(root: Path) -> None:
    loaded = check_paths([str(MINI)])
    cache.cached_module(loaded)
    CliRunner().invoke(main, ["check", str(MINI)])
    digest_folder = next(root.rglob("rules.py")).parent
    mine = [root / "notes.txt", root / "parse" / "keep.txt", digest_folder / "keep.txt",
            root / ("a" * 40) / "precious.sgs", root / "results" / "precious.json"]
    for p in mine:
        p.parent.mkdir(mode=0o700, exist_ok=True)
        p.write_text("mine\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["cache", "clean"])
    assert res.exit_code == 0, res.output
    assert all(p.read_text(encoding="utf-8") == "mine\n" for p in mine)
    left = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert left == sorted(p.relative_to(root).as_posix() for p in mine)


# ---------------------------------------------------------------------------------------------- two users
@pytest.fixture
def shared() -> Iterator[Path]:
    """A folder both users can reach and make folders in, as /tmp (pytest's own temp folders are root's alone)."""
    if not hasattr(os, "getuid") or os.getuid() != 0 or SETPRIV is None:
        pytest.skip("playing a second user needs root and setpriv")
    folder = Path(tempfile.mkdtemp(prefix="sgsdsl-two-users-"))
    folder.chmod(0o1777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _as_nobody(script: str) -> None:
    subprocess.run([*AS_NOBODY, "sh", "-ec", script], check=True, capture_output=True, timeout=60)


def _victim(cache_folder: Path, sentinel: Path) -> subprocess.CompletedProcess[str]:
    """Root compiles and runs the mini rules with SGSDSL_CACHE at CACHE_FOLDER, in a fresh process."""
    code = ("from sgsdsl.api import check_paths; from sgsdsl.compiler.cache import compiled_program;"
            f"compiled_program(check_paths([{str(MINI)!r}])); print('ran:', {str(sentinel)!r} and "
            f"__import__('os').path.exists({str(sentinel)!r}))")
    env = {**os.environ, "SGSDSL_CACHE": str(cache_folder), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_another_users_cache_is_never_run(shared: Path, root: Path) -> None:
    # root's own compile gives the entry's name and a module text the planted one imitates, payload added
    module = cache.cached_module(check_paths([str(MINI)]))
    real = Path(module.__file__ or "")
    digest = real.parent.name
    body = real.read_text(encoding="utf-8").partition("\n")[2]
    sentinel = shared / "SENTINEL"
    body += f"\nimport pathlib\npathlib.Path({str(sentinel)!r}).write_text('ran')\n"
    sha = hashlib.sha256(body.encode("utf-8")).hexdigest()
    (shared / "planted.py").write_text(f"{cache._DIGEST_LINE}{sha} in {digest}\n{body}", encoding="utf-8")
    (shared / "planted.py").chmod(0o644)

    # 1. nobody's own cache, made to look private (0700 folders, a 0600 file): it is not root's
    theirs = shared / "theirs"
    _as_nobody(f"umask 077; mkdir -p {theirs}/{digest}; cp {shared}/planted.py {theirs}/{digest}/rules.py")
    assert (theirs / digest / "rules.py").stat().st_uid != 0
    done = _victim(theirs, sentinel)
    assert done.returncode == 0, done.stderr
    assert "ran: False" in done.stdout and not sentinel.exists()
    assert f"not using the cache folder {theirs}: it belongs to another user" in done.stderr

    # 2. a team folder anyone may write, where root's own entries live: refused as a whole, so nobody's swap of a
    # folder (here done before the run; the race needs no better timing) is never read
    team = shared / "team"
    team.mkdir()
    team.chmod(0o777)
    first = _victim(team, sentinel)
    assert "writable by its group or by others" in first.stderr and not list(team.iterdir())
    _as_nobody(f"mkdir -p {team}/{digest}; cp {shared}/planted.py {team}/{digest}/rules.py; "
               f"chmod 600 {team}/{digest}/rules.py; ln -s {team}/{digest}/rules.py {team}/link.py")
    done = _victim(team, sentinel)
    assert done.returncode == 0 and "ran: False" in done.stdout and not sentinel.exists(), done.stderr

    # 3. the planted text itself would run if the cache trusted it: the check above is what stops it
    private = shared / "private"
    private.mkdir(mode=0o700)
    (private / digest).mkdir(mode=0o700)
    shutil.copy(shared / "planted.py", private / digest / "rules.py")
    (private / digest / "rules.py").chmod(0o600)
    done = _victim(private, sentinel)
    assert "ran: True" in done.stdout, done.stdout + done.stderr


def test_a_native_build_loads_only_what_its_manifest_lists(root: Path) -> None:
    import json

    from sgsdsl import native

    folder = native.build_dir()
    (folder / "sgsdsl" / "engine").mkdir(parents=True, mode=0o700)
    for p in (root, *folder.parents):
        if p == root.parent:
            break
        p.chmod(0o700)
    (folder / "sgsdsl" / "engine" / "fake.py").write_text("# listed\n", encoding="utf-8")
    (folder / native.MANIFEST).write_text(json.dumps({"digest": native.engine_digest(),
                                                      "files": ["sgsdsl/engine/fake.py"], "libraries": {}}))
    for p in [folder, *folder.rglob("*")]:
        p.chmod(0o700 if p.is_dir() else 0o600)
    assert native._usable(folder) is not None
    planted = folder / "sgsdsl" / "engine" / "events.py"
    planted.write_text("raise SystemExit('planted')\n", encoding="utf-8")
    planted.chmod(0o600)
    assert native._usable(folder) is None  # a module the manifest does not list: the whole build is refused
    planted.unlink()
    (folder / "sgsdsl" / "engine").chmod(0o770)
    assert native._usable(folder) is None  # a folder of the build others may write
    (folder / "sgsdsl" / "engine").chmod(0o700)
    assert native.clean() == 1 and not folder.exists()
