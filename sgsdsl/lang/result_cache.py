"""Whole results for unchanged inputs: what `check` found, and what `compile` generated, for one rules file.

A fresh `sgsdsl check rules/` spends most of its second checking what it checked last time (`standard.sgs` once
per file importing it). An entry here is keyed by what was asked (`check` or `compile`), the file as named, the
working directory and base the names are relative to, and a digest of sgsdsl's own code. It records every
file the load visited (as named, where that resolved to, and its text's digest) and every import it resolved
(folder, name, the file it meant). A load is a function of exactly those answers and the code, so when each
gives the same answer again, the stored result is what recomputing would give; one differing answer is a miss.

Loads with a loader diagnostic (an unreadable file, a missing or cyclic import) are never stored: their answers
depend on what is *not* on disk. Entries are trusted only as `cachedir` says; any problem is a miss.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..cachedir import cache_root, load_pickle, store_pickle, tree_digest
from .sources import read_source, resolve_import

ENTRY_FORMAT = 1
MAX_ENTRIES = 400  # per code digest; the oldest go first
_SUFFIXES = (".py", ".lark", ".j2")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of every source file of the sgsdsl package (bundled data aside): any edit to the parser, the
    checker, the engine's vocabulary or the compiler starts a fresh set of entries. Empty when the package has
    no sources to read (then nothing is cached)."""
    package = Path(__file__).resolve().parent.parent
    return tree_digest(package, _SUFFIXES, f"sgsdsl-results {ENTRY_FORMAT}", skip=("_bundled/",))


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Visit:
    """One file a load visited: as named in messages, the path it was reached by, where that resolved to, and the
    digest of the text read there (empty when the load had already read that file)."""

    shown: str
    path: str
    real: str
    sha: str


@dataclass(frozen=True)
class Resolution:
    """One `import "NAME"` in a file of FOLDER, and the file it meant."""

    folder: str
    name: str
    target: str


@dataclass(frozen=True)
class Inputs:
    """Everything a load's answer depends on outside sgsdsl's code."""

    visits: tuple[Visit, ...]
    imports: tuple[Resolution, ...]


def _entry_path(kind: str, root: Path, base: Path | None) -> Path | None:
    code = code_digest()
    if not code:
        return None
    key = hashlib.sha256("\0".join((kind, str(root), os.getcwd(), str(base), code)).encode(
        "utf-8", "surrogatepass")).hexdigest()
    return cache_root() / "results" / code[:24] / f"{kind}-{key[:40]}.pickle"


def lookup(kind: str, root: Path, base: Path | None = None) -> tuple[Any, dict[str, str]] | None:
    """(the stored result, the texts read: name as shown -> text) when every input answers as before; else None."""
    path = _entry_path(kind, root, base)
    entry = load_pickle(path) if path is not None else None
    if not (isinstance(entry, tuple) and len(entry) == 3 and entry[0] == ENTRY_FORMAT
            and isinstance(entry[1], Inputs)):
        return None
    _, inputs, result = entry
    sources = still_same(inputs)
    return (result, sources) if sources is not None else None


def still_same(inputs: Inputs) -> dict[str, str] | None:
    """The texts read, when every visit and import gives the same answer again; else None."""
    sources: dict[str, str] = {}
    for v in inputs.visits:
        try:
            if str(Path(v.path).resolve()) != v.real:
                return None
        except (OSError, RuntimeError, ValueError):
            return None
        if not v.sha:
            continue
        text, problem = read_source(Path(v.path), v.shown)
        if problem is not None or text is None or text_digest(text) != v.sha:
            return None
        sources[v.shown] = text
    for r in inputs.imports:
        target, _ = resolve_import(Path(r.folder), r.name)
        if target is None or str(target) != r.target:
            return None
    return sources


def store(kind: str, root: Path, base: Path | None, inputs: Inputs | None, result: Any) -> None:
    """Keep RESULT for these inputs (INPUTS None: the load cannot be cached). Failures only cost speed."""
    path = _entry_path(kind, root, base)
    if path is None or inputs is None:
        return
    store_pickle(path, (ENTRY_FORMAT, inputs, result))
    try:
        entries = sorted(path.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in entries[:-MAX_ENTRIES]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
