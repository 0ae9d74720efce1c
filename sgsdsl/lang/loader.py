"""Read .sgs files safely and follow their imports; every failure is a diagnostic."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from .. import bundled
from . import ast
from .diagnostics import Diagnostic, Span, did_you_mean
from .parse_cache import Shared, parse_cached
from .parser import parse_text

# Parsing runs at roughly 150 KB/s, so a bigger file would stall CI for seconds per megabyte; real rules
# files are tens of kilobytes. Refuse early with a diagnostic instead.
MAX_FILE_BYTES = 1024 * 1024


@dataclass
class LoadResult:
    modules: list[ast.Module] = field(default_factory=list)  # dependencies first
    sources: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def display_path(path: Path, base: Path | None = None) -> str:
    """Paths in messages: relative to BASE (default: the working directory)."""
    try:
        return os.path.relpath(path, base) if base is not None else os.path.relpath(path)
    except ValueError:
        return str(path)


def read_source(path: Path, shown: str, at: Span | None = None,
                missing_code: str = "SGS-E100") -> tuple[str | None, Diagnostic | None]:
    """Read one file as UTF-8 text; anything else (a folder, a device, binary data, a huge file) is a
    diagnostic. Only regular files are opened, and never more than the size limit is read, so a path such
    as /dev/zero cannot hang the checker."""
    where = at or Span.point(shown, 1, 1)
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            return None, Diagnostic(missing_code, f"{shown} is a directory, not a .sgs file", where,
                                    suggestion="name a .sgs file inside it")
        if not stat.S_ISREG(st.st_mode):
            return None, Diagnostic(missing_code, f"{shown} is not a regular file", where)
        if st.st_size > MAX_FILE_BYTES:
            return None, Diagnostic("SGS-E106", f"{shown} is {st.st_size} bytes; the limit is {MAX_FILE_BYTES}",
                                    where, suggestion="split it into several files that import each other")
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        what = "imported file" if at is not None else "file"
        return None, Diagnostic(missing_code, f"cannot find {what} {shown}", where)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        return None, Diagnostic(missing_code, f"cannot read {shown}: {reason}", where)
    if len(data) > MAX_FILE_BYTES:
        return None, Diagnostic("SGS-E106", f"{shown} is larger than the limit of {MAX_FILE_BYTES} bytes", where)
    if b"\x00" in data:
        nul = data.index(b"\x00")
        return None, Diagnostic("SGS-E105", f"{shown} is a binary file, not .sgs text (a NUL byte)",
                                _point_at(shown, data, nul))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return None, Diagnostic("SGS-E105", f"invalid UTF-8 (byte 0x{data[err.start]:02x})",
                                _point_at(shown, data, err.start), suggestion="save the file as UTF-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None


def _point_at(shown: str, data: bytes, offset: int) -> Span:
    """The line and character column of a byte offset (the bytes before it decoded leniently)."""
    before = data[:offset]
    line = before.count(b"\n") + 1
    col = len(before.split(b"\n")[-1].decode("utf-8", "replace")) + 1
    return Span.point(shown, line, col)


def load(paths: list[Path], overlay: dict[Path, str] | None = None, base: Path | None = None,
         shared: Shared | None = None) -> LoadResult:
    """Load files and, transitively, what they import. A module appears once, after its imports.
    `overlay` maps resolved paths to texts used instead of the files (an editor's unsaved buffers).
    Files are named relative to BASE (default: the working directory) in modules and diagnostics. SHARED: reuse
    modules across loads whose checked programs are discarded (`parse_cache.Shared`)."""
    result = LoadResult()
    done: dict[Path, ast.Module | None] = {}
    stack: list[Path] = []

    def visit(path: Path, at: Span | None) -> None:
        shown = display_path(path, base)
        try:
            real = path.resolve()
        except (OSError, RuntimeError, ValueError) as err:
            code = "SGS-E107" if at is not None else "SGS-E100"
            result.diagnostics.append(Diagnostic(code, f"cannot read {shown}: {err}", at or Span.point(shown, 1, 1)))
            return
        if real in stack:
            cycle = " → ".join(display_path(p, base) for p in stack[stack.index(real):] + [real])
            result.diagnostics.append(Diagnostic("SGS-E110", f"import cycle: {cycle}", at or Span.point(shown, 1, 1),
                                                 suggestion="move what both files need into a third file"))
            return
        if real in done:
            return
        buffer = overlay is not None and real in overlay
        text: str | None
        if overlay is not None and real in overlay:
            text, unreadable = overlay[real], None
        else:
            text, unreadable = read_source(path, shown, at, "SGS-E107" if at is not None else "SGS-E100")
        if unreadable is not None:
            result.diagnostics.append(unreadable)
            done[real] = None
            return
        assert text is not None
        result.sources[shown] = text
        module, diags = parse_cached(text, shown, parse_text, persist=not buffer, shared=shared)
        result.diagnostics.extend(diags)
        done[real] = module
        if module is None:
            return
        stack.append(real)
        for imp in module.imports:
            if not imp.path.strip():
                result.diagnostics.append(Diagnostic("SGS-E107", "an import needs a file name", imp.span))
                continue
            target, problem = resolve_import(real.parent, imp.path)
            if target is None:
                result.diagnostics.append(Diagnostic("SGS-E107", problem, _string_span(imp.span, text),
                                                     suggestion=_import_hint(imp.path)))
                continue
            visit(target, _string_span(imp.span, text))
        stack.pop()
        result.modules.append(module)

    for p in paths:
        visit(p, None)
    return result


def resolve_import(folder: Path, name: str) -> tuple[Path | None, str]:
    """The file an `import "NAME"` in FOLDER means, or why it names none.

    A bare word names a bundled rule set (`import "standard"`) when one is called so, else `NAME.sgs`
    beside the importing file; anything else is a path relative to that file. Only `.sgs` rules files can
    be imported (after following symlinks too), so an import can never make the checker read, and echo in
    its diagnostics, some other file."""
    if "\x00" in name:
        return None, "an import names a file, and a file name has no NUL character"
    if name.isidentifier():
        found = bundled.rule_set(name)
        if found is not None:
            return found, ""
        if not (folder / f"{name}.sgs").exists():
            return None, f"cannot find imported file {name}.sgs, and no bundled rule set is called {name!r}"
    try:
        target = folder / name
        if not target.suffix:
            target = target.with_suffix(".sgs")
        real_suffix = target.resolve().suffix
    except (OSError, RuntimeError, ValueError):
        return None, f"'{name}' is not a file name"
    if target.suffix != ".sgs" or real_suffix != ".sgs":
        return None, f"'{name}' is not a .sgs rules file; only rules files can be imported"
    return target, ""


def _import_hint(name: str) -> str | None:
    known = bundled.rule_set_names()
    if not known:
        return None
    close = did_you_mean(name, known)
    return (f"did you mean {close!r}? " if close else "") + f"bundled rule sets: {', '.join(repr(k) for k in known)}"


def _string_span(span: Span, text: str) -> Span:
    """Narrow an import's span to its quoted file name, the token a missing-import error is about."""
    lines = text.split("\n")
    if span.line == span.end_line and 1 <= span.line <= len(lines):
        q = lines[span.line - 1].find('"', span.col - 1, span.end_col - 1)
        if q >= 0:
            return Span(span.file, span.line, q + 1, span.end_line, span.end_col)
    return span


def expand_paths(args: list[str]) -> tuple[list[Path], list[Diagnostic]]:
    """Files as given; folders contribute their *.sgs files, sorted. Bad paths become diagnostics."""
    files: list[Path] = []
    diags: list[Diagnostic] = []
    for a in args:
        try:
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
        except (OSError, ValueError) as err:
            diags.append(Diagnostic("SGS-E100", f"cannot read {a!r}: {err}", Span.point(a, 1, 1)))
    return files, diags
