"""What compiling one rules file gives: the record `compile_paths` assembles and the result cache keeps."""

from __future__ import annotations

from dataclasses import dataclass

from ..lang.diagnostics import Diagnostic


@dataclass(frozen=True)
class FileOutput:
    """What compiling one file gives (what the result cache keeps): its diagnostics and, when it compiled, the
    load's entry module path, the module text, its source key and the files (resolved paths) whose compiled
    modules it imports, which the package must hold too."""

    diagnostics: tuple[Diagnostic, ...]
    entry: str | None = None
    text: str | None = None
    source_key: str | None = None
    links: tuple[str, ...] = ()
