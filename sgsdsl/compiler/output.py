"""What compiling one rules file gives: the record `compile_paths` assembles and the result cache keeps."""

from __future__ import annotations

from dataclasses import dataclass

from ..lang.diagnostics import Diagnostic


@dataclass(frozen=True)
class FileOutput:
    """What compiling one file gives (what the result cache keeps): its diagnostics and, when it compiled, the
    load's entry module path, the module text and its source key."""

    diagnostics: tuple[Diagnostic, ...]
    entry: str | None = None
    text: str | None = None
    source_key: str | None = None
