"""`check_each`: every rules file checked on its own with what it imports, answered from the result cache where
nothing it depends on has changed.

The parser and the checker are imported only on a miss, so an unchanged `sgsdsl check rules/` costs reading and
hashing its files, not a second of parsing and checking."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .lang import result_cache
from .lang.diagnostics import Diagnostic
from .lang.loaded import Loaded
from .lang.sources import expand_paths

if TYPE_CHECKING:  # names only: the parser is imported on a miss
    from .lang.parse_cache import Shared


def check_each(args: list[str]) -> Loaded:
    """Check every file named or found on its own, with what it imports — the way `compile` makes one module per
    file — so independent rule sets (rules/beta.sgs beside rules/standard.sgs) may share a folder. A diagnostic
    reached from several files is reported once. The result holds no checked program (there may be several)."""
    files, diags = expand_paths(args)
    if not files:  # nothing to check: what was wrong with the arguments
        return Loaded(None, {}, sorted(diags, key=lambda d: d.sort_key))
    sources: dict[str, str] = {}
    seen: set[tuple] = set()
    out = list(diags)
    shared: Shared | None = None
    for f in files:
        found = _cached(f)
        if found is None:
            from .lang.parse_cache import Shared as _Shared

            # the checked programs are discarded: a file imported by several is parsed once
            shared = shared or _Shared()
            found = _check_one(f, shared)
        texts, one = found
        sources.update(texts)
        for d in one:
            key = (d.code, d.severity, d.message, d.span)
            if key not in seen:
                seen.add(key)
                out.append(d)
    out.sort(key=lambda d: d.sort_key)
    return Loaded(None, sources, out)


def _cached(f: Path) -> tuple[dict[str, str], list[Diagnostic]] | None:
    hit = result_cache.lookup("check", f)
    if hit is None:
        return None
    diags, texts = hit
    if not (isinstance(diags, list) and all(isinstance(d, Diagnostic) for d in diags)):
        return None
    return texts, diags


def _check_one(f: Path, shared: Shared) -> tuple[dict[str, str], list[Diagnostic]]:
    from .lang.checker import check
    from .lang.loader import load

    result = load([f], shared=shared)
    diags = list(result.diagnostics)
    if result.modules:
        diags += check(result.modules).diagnostics
    diags.sort(key=lambda d: d.sort_key)
    result_cache.store("check", f, None, result.inputs(), diags)
    return result.sources, diags
