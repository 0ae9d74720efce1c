"""Compile one rules file with its imports: load, check, generate. The heavy half of `compile_paths`, imported
only when the result cache has no answer for the file."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ..lang.checker import check
from ..lang.loader import load
from ..lang.parse_cache import Shared
from ..lang.result_cache import Inputs
from .codegen import generate_module, plan_links
from .output import FileOutput


@dataclass
class Compiled:
    output: FileOutput
    sources: dict[str, str]
    inputs: Inputs | None
    seconds: tuple[float, float, float]  # parse, check, generate


def compile_file(f: Path, shared: Shared | None = None) -> Compiled:
    """Load, check and generate F. SHARED: modules handed out again to the next file's load (this file's
    checked program is discarded once its module text is made, as `parse_cache.Shared` requires)."""
    t0 = time.perf_counter()
    # named from the file's parent folder (`rules/standard.sgs`), so the modules are the same text whatever the
    # working directory: `compile --check` gives one answer from anywhere
    loaded = load([f], base=f.resolve().parent.parent, shared=shared)
    t1 = time.perf_counter()
    diags = list(loaded.diagnostics)
    if not loaded.modules or any(d.severity == "error" for d in loaded.diagnostics):
        return Compiled(FileOutput(tuple(diags)), loaded.sources, loaded.inputs(), (t1 - t0, 0.0, 0.0))
    checked = check(loaded.modules)
    t2 = time.perf_counter()
    diags += checked.diagnostics
    if not checked.ok:
        return Compiled(FileOutput(tuple(diags)), loaded.sources, loaded.inputs(), (t1 - t0, t2 - t1, 0.0))
    entry = loaded.modules[-1]
    # every imported file is compiled into the same package, so its module is imported, not repeated here
    links = plan_links([m.path for m in loaded.modules], loaded.edges, loaded.sources)
    gen = generate_module(checked, loaded.sources, entry.path, links)
    t3 = time.perf_counter()
    diags += gen.diagnostics
    real = {v.shown: v.real for v in loaded.visits}
    out = FileOutput(tuple(diags), entry.path, gen.text, gen.source_key, tuple(sorted(real[p] for p in links)))
    return Compiled(out, loaded.sources, loaded.inputs(), (t1 - t0, t2 - t1, t3 - t2))
