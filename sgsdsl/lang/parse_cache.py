"""Start-up caches: Lark's parse tables, and the parsed AST of unchanged files.

A fresh `sgsdsl check` used to spend about 0.3 s building the LALR tables and about 0.1 s per 30 KB parsing
files it had parsed before (and `check rules/` parses `standard.sgs` once per file importing it). Both are
cached in `<cache folder>/parse/<digest>/`, where the digest covers the grammar, the parser and AST code, the
Lark version and the Python version, so a change to any of them starts a fresh folder:

- `lark.json` is Lark's own serialized parser (`Lark.memo_serialize`, what `Lark.save` would pickle), as JSON;
  installing the package writes the same tables into the package (`sgsdsl/lang/_tables/lark.json`, by
  `setup.py`), so even a process with an empty cache loads them instead of building them (about 0.2 s of a cold
  `check`); they are used only while the digest they record is this grammar's, parser's and Lark's;
- `<sha>.ast` is an `ast.Module` in the cache's JSON format (`sgsdsl.cachedata`), keyed by the file's name and
  text, for files that parsed without any diagnostic (errors are always recomputed). The entry records its key
  too, so a renamed entry never serves one file's parse for another. An editor's unsaved buffers are never
  written to disk.

Neither is a pickle: reading an entry cannot run code.

Every load returns fresh objects (the checker annotates the AST), entries are trusted only as `cachedir`
says, and any problem is a cache miss.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark

from .. import cachedata
from ..cachedir import cache_root, read_entry, usable_dir, write_entry
from . import ast, cancel
from .diagnostics import Diagnostic, Span

# how the LALR parser is built (parser.py's `_parser`; the packaged tables are built with the same)
LARK_OPTIONS: dict[str, Any] = {"parser": "lalr", "strict": True, "propagate_positions": True,
                                "maybe_placeholders": False}
PACKAGED_TABLES = Path(__file__).resolve().parent / "_tables" / "lark.json"
MAX_AST_ENTRIES = 200  # on disk; the oldest go first
_MEMO_ENTRIES = 32  # in process, as entry bytes (a fresh copy per use)
_memo: OrderedDict[str, bytes] = OrderedDict()


def _node_classes(cls: type) -> list[type]:
    subs: list[type] = cls.__subclasses__()
    return [cls, *(c for sub in subs for c in _node_classes(sub))]


AST_CLASSES = cachedata.registry([*_node_classes(ast.Node), Span])


@lru_cache(maxsize=1)
def parser_digest() -> str:
    """What a cached parser or AST depends on."""
    import lark

    here = Path(__file__).resolve().parent
    h = hashlib.sha256(f"{lark.__version__} {sys.version_info[:2]}".encode())
    for name in ("sgs.lark", "parser.py", "ast.py", "parse_cache.py"):
        h.update(name.encode())
        try:
            h.update((here / name).read_bytes())
        except OSError:  # an install without sources: nothing to key a disk cache on, so none is kept
            return ""
    return h.hexdigest()


def _folder() -> Path | None:
    digest = parser_digest()
    if not digest:
        return None
    folder = cache_root() / "parse" / digest[:32]
    return folder if usable_dir(folder) else None


def cached_lark(grammar: str, **options: Any) -> Lark:
    """Lark(grammar, **options), its tables loaded from the cache when a trusted entry is there, else from the ones
    the package was installed with (the data `Lark.save` would pickle, kept as JSON and handed to Lark's loader as
    a dict). The folder's digest covers the grammar and the options live here and in parser.py, so an entry always
    matches what would be built; the packaged tables record that digest and are used only while it holds."""
    folder = _folder()
    path = folder / "lark.json" if folder is not None else None
    blob = read_entry(path) if path is not None else None
    for entry in (_entry(blob), packaged_tables()):
        if entry is not None:
            try:
                return Lark.load(entry)  # Lark.load takes the dict as well as a file
            except Exception:  # noqa: BLE001, S112 - a bad entry is rebuilt below
                continue
    parser = Lark(grammar, **options)
    if path is not None:
        try:
            write_entry(path, _tables_blob(parser))
        except (TypeError, ValueError):
            pass
    return parser


def _entry(blob: bytes | None) -> Any | None:
    if blob is None:
        return None
    try:
        return cachedata.loads(blob, {})
    except ValueError:
        return None


def _tables_blob(parser: Lark, digest: str = "") -> bytes:
    """PARSER's tables in the cache's JSON format (DIGEST: the grammar's, recorded in the packaged copy)."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = parser.memo_serialize([TerminalDef, Rule])
    entry: dict[str, Any] = {"data": data, "memo": memo}
    if digest:
        entry["digest"] = digest
    return cachedata.dumps(entry, {})


def packaged_tables() -> Any | None:
    """The tables written into the package when it was installed, if they were built from this grammar, parser
    and Lark: trusted as the package's own Python files are (a regular file nobody else may write), read as data."""
    try:
        st = os.lstat(PACKAGED_TABLES)
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o022:
            return None
        entry = _entry(PACKAGED_TABLES.read_bytes())
    except OSError:
        return None
    if not isinstance(entry, dict) or not parser_digest() or entry.pop("digest", None) != parser_digest():
        return None
    return entry


def write_packaged_tables(target: Path) -> None:
    """Build the parser's tables and write them, with the digest they hold for, to TARGET (setup.py: into the
    package being built). Raises OSError when TARGET cannot be written."""
    grammar = (Path(__file__).resolve().parent / "sgs.lark").read_text(encoding="utf-8")
    blob = _tables_blob(Lark(grammar, **LARK_OPTIONS), parser_digest())
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(blob)
    os.chmod(target, 0o644)


class Shared:
    """Modules handed out again, as they are, to checks whose checked programs are thrown away (`check_each`
    checks `standard.sgs` once per file importing it). The checker's only annotations, `Name.ref` and
    `Call.ref`, are cleared before each reuse, so every check sees the tree a fresh parse gives."""

    def __init__(self) -> None:
        self.modules: dict[str, tuple[ast.Module, list[ast.Name | ast.Call]]] = {}

    def get(self, key: str) -> ast.Module | None:
        got = self.modules.get(key)
        if got is None:
            return None
        module, annotated = got
        for node in annotated:
            node.ref = None
        return module

    def put(self, key: str, module: ast.Module) -> None:
        annotated: list[ast.Name | ast.Call] = []
        stack: list[Any] = [module]
        while stack:
            o = stack.pop()
            if isinstance(o, (list, tuple)):
                stack.extend(o)
            elif isinstance(o, ast.Node):
                if isinstance(o, (ast.Name, ast.Call)):
                    annotated.append(o)
                stack.extend(v for v in vars(o).values() if isinstance(v, (list, tuple, ast.Node)))
        self.modules[key] = (module, annotated)


def parse_cached(text: str, file: str, parse: Callable[[str, str], tuple[ast.Module | None, list[Diagnostic]]],
                 persist: bool = True, shared: Shared | None = None) -> tuple[ast.Module | None, list[Diagnostic]]:
    """parse(text, file), or a fresh copy of its earlier result for the same name and text (SHARED: the same
    module again, see `Shared`). PERSIST: also look in, and write to, the on-disk cache (False for editor
    buffers)."""
    key = hashlib.sha256(f"{parser_digest()}\0{file}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
    again = shared.get(key) if shared is not None else None
    if again is not None:
        return again, []
    module, diags = _parse_cached(key, text, file, parse, persist)
    if shared is not None and module is not None and not diags:
        shared.put(key, module)
    return module, diags


def _parse_cached(key: str, text: str, file: str,
                  parse: Callable[[str, str], tuple[ast.Module | None, list[Diagnostic]]],
                  persist: bool) -> tuple[ast.Module | None, list[Diagnostic]]:
    blob = _memo.get(key)
    folder = _folder() if persist and blob is None else None
    if blob is None and folder is not None:
        blob = read_entry(folder / f"{key}.ast")
    if blob is not None:
        try:
            entry = cachedata.loads(blob, AST_CLASSES)
        except ValueError:  # a damaged entry is a miss
            entry = None
        # the entry names the key it was stored under: a renamed or copied entry is a miss
        if isinstance(entry, tuple) and len(entry) == 2 and entry[0] == key and isinstance(entry[1], ast.Module):
            _remember(key, blob)
            return entry[1], []
    module, diags = parse(text, file)
    if module is None or diags:
        return module, diags
    cancel.poll()  # (a stale editor check stops before encoding a large module for the memo)
    try:
        blob = cachedata.dumps((key, module), AST_CLASSES)
    except (TypeError, ValueError, RecursionError):
        return module, diags
    _remember(key, blob)
    if folder is not None:
        _store(folder, key, blob)
    return module, diags


def _remember(key: str, blob: bytes) -> None:
    _memo[key] = blob
    _memo.move_to_end(key)
    while len(_memo) > _MEMO_ENTRIES:
        _memo.popitem(last=False)


def _store(folder: Path, key: str, blob: bytes) -> None:
    if not write_entry(folder / f"{key}.ast", blob):
        return
    try:
        entries = sorted(folder.glob("*.ast"), key=lambda p: p.stat().st_mtime)
        for old in entries[:-MAX_AST_ENTRIES]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
