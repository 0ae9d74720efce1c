"""Start-up caches (issue 15): Lark's tables and parsed files come back from the private cache folder, equal to
a fresh parse; untrusted or damaged entries and editor buffers are never read or written; the lazy CLI
registers every command module."""

from __future__ import annotations

import importlib
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from lark import Lark

from sgsdsl import cachedata, cli
from sgsdsl.api import check_each, check_paths
from sgsdsl.lang import parse_cache
from sgsdsl.lang.loader import load
from sgsdsl.lang.parser import grammar_text, parse_text

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path / "cache"))
    parse_cache._memo.clear()
    yield tmp_path / "cache" / "parse" / parse_cache.parser_digest()[:32]
    # the in-memory memo outlives the test's cache folder: a parse planted here (an empty module under mini.sgs's
    # key) would otherwise answer every later load of mini.sgs in this worker
    parse_cache._memo.clear()


def test_parsed_files_come_back_equal_from_the_disk_cache(cache: Path) -> None:
    fresh = load([MINI]).modules
    entries = list(cache.glob("*.ast"))
    assert len(entries) == 1 and entries[0].stat().st_mode & 0o777 == 0o600
    parse_cache._memo.clear()
    again = load([MINI]).modules
    assert again == fresh and again[0] is not fresh[0]


def test_untrusted_or_damaged_entries_are_misses(cache: Path) -> None:
    fresh = load([MINI]).modules
    entry = next(cache.glob("*.ast"))
    empty, _ = parse_text("", "planted.sgs")
    assert empty is not None and not empty.cards and fresh[0].cards
    key = entry.stem
    planted = cachedata.dumps((key, empty), parse_cache.AST_CLASSES)
    other_key = cachedata.dumps(("0" * 64, empty), parse_cache.AST_CLASSES)  # a renamed entry of another file
    for mode, data in ((0o666, planted), (0o600, b"\x80garbage"), (0o600, pickle.dumps(empty)),
                       (0o600, other_key)):  # writable by others; damaged; a pickle; another file's parse
        parse_cache._memo.clear()
        entry.write_bytes(data)
        entry.chmod(mode)
        assert load([MINI]).modules == fresh
    parse_cache._memo.clear()
    entry.write_bytes(planted)
    entry.chmod(0o600)  # the same bytes, trusted: read (so the cases above were refused, not re-parsed by luck)
    assert load([MINI]).modules == [empty]


def test_errors_and_editor_buffers_are_not_cached(cache: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgs"
    bad.write_text("card {", encoding="utf-8")
    assert load([bad]).diagnostics
    assert not list(cache.glob("*.ast"))
    good = tmp_path / "good.sgs"
    good.write_text("", encoding="utf-8")
    load([good], overlay={good.resolve(): MINI.read_text(encoding="utf-8")})
    assert not list(cache.glob("*.ast"))


def test_lark_tables_load_from_the_cache(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_cache, "PACKAGED_TABLES", tmp_path / "none.json")  # (an install without them)
    options = parse_cache.LARK_OPTIONS
    built = parse_cache.cached_lark(grammar_text(), **options)
    assert (cache / "lark.json").is_file()
    loaded = parse_cache.cached_lark(grammar_text(), **options)
    text = MINI.read_text(encoding="utf-8")
    assert loaded.parse(text) == built.parse(text) == Lark(grammar_text(), **options).parse(text)
    (cache / "lark.json").write_bytes(b"damaged")
    assert parse_cache.cached_lark(grammar_text(), **options).parse(text) == built.parse(text)


def test_the_tables_installed_with_the_package_serve_an_empty_cache(cache: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """setup.py writes the tables into the package: a first check loads them instead of building them, but only
    while they are this grammar's (the digest they record) and nobody else may write them."""
    packaged = tmp_path / "pkg" / "_tables" / "lark.json"
    monkeypatch.setattr(parse_cache, "PACKAGED_TABLES", packaged)
    parse_cache.write_packaged_tables(packaged)
    assert packaged.stat().st_mode & 0o777 == 0o644
    text = MINI.read_text(encoding="utf-8")
    fresh = Lark(grammar_text(), **parse_cache.LARK_OPTIONS).parse(text)
    built: list[int] = []

    class Counting(Lark):
        def __init__(self, *args: object, **kwargs: object) -> None:
            built.append(1)
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(parse_cache, "Lark", Counting)
    assert parse_cache.cached_lark(grammar_text(), **parse_cache.LARK_OPTIONS).parse(text) == fresh
    assert built == [] and not (cache / "lark.json").exists()  # loaded, not built
    blob = packaged.read_bytes()
    stale = blob.replace(parse_cache.parser_digest().encode(), b"0" * 64)
    for data, mode in ((stale, 0o644), (blob, 0o666), (b"damaged", 0o644)):  # other grammar; writable; damaged
        packaged.write_bytes(data)
        packaged.chmod(mode)
        (cache / "lark.json").unlink(missing_ok=True)
        assert parse_cache.cached_lark(grammar_text(), **parse_cache.LARK_OPTIONS).parse(text) == fresh
    assert built == [1, 1, 1]  # built anew each time


def test_every_command_module_is_registered_lazily() -> None:
    folder = Path(cli.__file__).parent
    for path in sorted(folder.glob("*_cmd.py")):
        module = importlib.import_module(f"sgsdsl.cli.{path.stem}")
        for cmd in getattr(module, "COMMANDS", []):
            assert cli._LAZY.get(cmd.name) == path.stem, f"{cmd.name} from {path.stem} is not in cli._LAZY"


def test_no_disk_cache_without_the_parser_sources(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_cache, "parser_digest", lambda: "")
    assert load([MINI]).modules and parse_cache._folder() is None
    assert not (cache.parent.parent / "parse").exists() or not list(cache.parent.parent.rglob("*.ast"))


def _each_alone(folder: Path) -> list:
    """What check_each reports, computed without shared modules: every file checked on its own."""
    seen, out = set(), []
    for f in sorted(folder.rglob("*.sgs")):
        for d in check_paths([str(f)]).diagnostics:
            key = (d.code, d.severity, d.message, d.span)
            if key not in seen:
                seen.add(key)
                out.append(d)
    return sorted(out, key=lambda d: d.sort_key)


def test_check_each_shares_imported_modules_without_changing_a_diagnostic(cache: Path, tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "base.sgs").write_text(MINI.read_text(encoding="utf-8"), encoding="utf-8")
    # files that import the shared one and break in different ways: names resolved in one program and not in
    # another must not leak from one check into the next
    (folder / "a.sgs").write_text('import "base"\nrule 甲 a { on turn_start { draw(nobody, 1) } }\n', encoding="utf-8")
    (folder / "b.sgs").write_text('import "base"\ncard 杀 sha2 : basic { copies ♠2 }\n'
                                  'rule 乙 b { on turn_start { if 杀 == 杀 { log("x") } } }\n', encoding="utf-8")
    (folder / "c.sgs").write_text('import "base"\nrule 丙 c { on turn_start { draw(current, frob()) } }\n',
                                  encoding="utf-8")
    for where in (folder, ROOT / "rules"):
        got = check_each([str(where)]).diagnostics
        assert got == _each_alone(where)
    assert check_each([str(folder)]).diagnostics, "the broken files are reported"


def test_shared_modules_come_back_as_a_fresh_parse_leaves_them(cache: Path) -> None:
    shared = parse_cache.Shared()
    text = MINI.read_text(encoding="utf-8")
    first, _ = parse_cache.parse_cached(text, "mini.sgs", parse_text, shared=shared)
    assert first is not None
    annotated = shared.modules[next(iter(shared.modules))][1]
    assert annotated and all(n.ref is None for n in annotated)
    for n in annotated:
        n.ref = "stale"
    again, diags = parse_cache.parse_cached(text, "mini.sgs", parse_text, shared=shared)
    assert again is first and not diags and all(n.ref is None for n in annotated)
    assert again == parse_text(text, "mini.sgs")[0]
