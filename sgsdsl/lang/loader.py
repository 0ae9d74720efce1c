"""Read .sgs files safely and follow their imports; every failure is a diagnostic."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from . import ast
from .diagnostics import Diagnostic, Span
from .parser import parse_text

MAX_FILE_BYTES = 16 * 1024 * 1024


@dataclass
class LoadResult:
    modules: list[ast.Module] = field(default_factory=list)  # dependencies first
    sources: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def display_path(path: Path) -> str:
    """Paths in messages: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def read_source(path: Path, shown: str, at: Span | None = None) -> tuple[str | None, Diagnostic | None]:
    where = at or Span.point(shown, 1, 1)
    if path.is_dir():
        return None, Diagnostic("SGS-E100", f"{shown} is a directory, not a .sgs file", where)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, Diagnostic("SGS-E106", f"{shown} is {size} bytes; the limit is {MAX_FILE_BYTES}", where)
        data = path.read_bytes()
    except FileNotFoundError:
        return None, Diagnostic("SGS-E100", f"cannot find file {shown}", where)
    except OSError as err:
        return None, Diagnostic("SGS-E100", f"cannot read {shown}: {err.strerror or err}", where)
    if b"\x00" in data:
        return None, Diagnostic("SGS-E105", f"{shown} is a binary file, not .sgs text", where)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[: err.start]
        line = before.count(b"\n") + 1
        col = len(before.split(b"\n")[-1].decode("utf-8", "replace")) + 1
        return None, Diagnostic("SGS-E105", f"invalid UTF-8 (byte 0x{data[err.start]:02x})", Span.point(shown, line, col))
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None


def load(paths: list[Path]) -> LoadResult:
    """Load files and, transitively, what they import. A module appears once, after its imports."""
    result = LoadResult()
    done: dict[Path, ast.Module | None] = {}
    stack: list[Path] = []

    def visit(path: Path, at: Span | None) -> None:
        real = path.resolve()
        shown = display_path(path)
        if real in stack:
            cycle = " → ".join(display_path(p) for p in stack[stack.index(real):] + [real])
            result.diagnostics.append(Diagnostic("SGS-E110", f"import cycle: {cycle}", at or Span.point(shown, 1, 1)))
            return
        if real in done:
            return
        text, err = read_source(path, shown, at)
        if err is not None:
            result.diagnostics.append(err)
            done[real] = None
            return
        assert text is not None
        result.sources[shown] = text
        module, diags = parse_text(text, shown)
        result.diagnostics.extend(diags)
        done[real] = module
        if module is None:
            return
        stack.append(real)
        for imp in module.imports:
            target = (real.parent / imp.path)
            if not target.suffix:
                target = target.with_suffix(".sgs")
            visit(target, imp.span)
        stack.pop()
        result.modules.append(module)

    for p in paths:
        visit(p, None)
    return result


def expand_paths(args: list[str]) -> tuple[list[Path], list[Diagnostic]]:
    """Files as given; folders contribute their *.sgs files, sorted."""
    files: list[Path] = []
    diags: list[Diagnostic] = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            found = sorted(p.rglob("*.sgs"))
            if not found:
                diags.append(Diagnostic("SGS-E100", f"folder {a} holds no .sgs files", Span.point(a, 1, 1)))
            files.extend(found)
        elif p.exists():
            files.append(p)
        else:
            diags.append(Diagnostic("SGS-E100", f"cannot find {a}", Span.point(a, 1, 1)))
    return files, diags
