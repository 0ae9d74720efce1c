"""Whole results for unchanged inputs: what `check` found, and what `compile` generated, for one rules file.

A fresh `sgsdsl check rules/` spends most of its second checking what it checked last time (`standard.sgs` once
per file importing it). An entry here is keyed by what was asked (`check` or `compile`), the file as named, the
working directory and base the names are relative to, and a digest of sgsdsl's own code. It records every
file the load visited (as named, where that resolved to, and its text's digest) and every import it resolved
(folder, name, the file it meant). A load is a function of exactly those answers and the code, so when each
gives the same answer again, the stored result is what recomputing would give; one differing answer is a miss.

Loads with a loader diagnostic (an unreadable file, a missing or cyclic import) are never stored: their answers
depend on what is *not* on disk. Entries are trusted only as `cachedir` says; any problem is a miss. An entry is
JSON (`sgsdsl.cachedata`, never a pickle) and records the key its name was made from, so a renamed or copied entry
never answers for another file.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import cachedata
from ..cachedir import cache_root, load_data, store_data, tree_digest
from .diagnostics import Diagnostic, Span
from .sources import read_source, resolve_import

ENTRY_FORMAT = 2
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


def _entry(kind: str, root: Path, base: Path | None) -> tuple[Path, str] | None:
    """Where the entry for this question lives, and the key (what was asked) it must record."""
    code = code_digest()
    if not code:
        return None
    key = "\0".join((f"format {ENTRY_FORMAT}", kind, str(root), os.getcwd(), str(base), code))
    name = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return cache_root() / "results" / code[:24] / f"{kind}-{name[:40]}.json", key


def _classes(extra: tuple[type, ...]) -> cachedata.Registry:
    return cachedata.registry([Visit, Resolution, Inputs, Diagnostic, Span, *extra])


def lookup(kind: str, root: Path, base: Path | None = None,
           classes: tuple[type, ...] = ()) -> tuple[Any, dict[str, str]] | None:
    """(the stored result, the texts read: name as shown -> text) when every input answers as before; else None.
    CLASSES: the dataclasses a result may hold besides diagnostics."""
    where = _entry(kind, root, base)
    entry = load_data(where[0], _classes(classes), where[1]) if where is not None else None
    if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], Inputs)):
        return None
    inputs, result = entry
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


def store(kind: str, root: Path, base: Path | None, inputs: Inputs | None, result: Any,
          classes: tuple[type, ...] = ()) -> None:
    """Keep RESULT for these inputs (INPUTS None: the load cannot be cached). Failures only cost speed."""
    where = _entry(kind, root, base)
    if where is None or inputs is None:
        return
    path, key = where
    store_data(path, (inputs, result), _classes(classes), key)
    try:
        entries = sorted(path.parent.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for old in entries[:-MAX_ENTRIES]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
