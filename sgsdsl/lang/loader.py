"""Read .sgs files safely and follow their imports; every failure is a diagnostic."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..bundled import rule_set_names as bundled_names
from . import ast
from .diagnostics import Diagnostic, Span
from .parse_cache import Shared, parse_cached
from .parser import parse_text
from .result_cache import Inputs, Resolution, Visit, text_digest
from .sources import display_path, import_hint, read_source, resolve_import

# What one load (a file and everything it imports, transitively) may read: docs/language.md, "Limits"
MAX_LOAD_FILES = 500
MAX_LOAD_CHARS = 16 * 1024 * 1024


@dataclass
class LoadResult:
    modules: list[ast.Module] = field(default_factory=list)  # dependencies first
    sources: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)  # what the answer depends on (`result_cache`)
    imports: list[Resolution] = field(default_factory=list)
    # each module (as named in `modules`) -> the modules its imports resolved to, in source order (what the
    # compiler links a module's generated code to)
    edges: dict[str, list[str]] = field(default_factory=dict)
    from_buffers: bool = False  # an editor's unsaved text was used somewhere

    def inputs(self) -> Inputs | None:
        """What this load read from disk, for the result cache; None when it cannot be replayed from files: a
        loader diagnostic (its answer depends on what is missing) or an editor buffer."""
        if self.diagnostics or self.from_buffers:
            return None
        return Inputs(tuple(self.visits), tuple(self.imports))


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
        visit_at = len(result.visits)
        result.visits.append(Visit(shown, str(path), str(real), ""))
        if real in stack:
            cycle = " → ".join(display_path(p, base) for p in stack[stack.index(real):] + [real])
            result.diagnostics.append(Diagnostic("SGS-E110", f"import cycle: {cycle}", at or Span.point(shown, 1, 1),
                                                 suggestion="move what both files need into a third file"))
            return
        if real in done:
            return
        if len(done) >= MAX_LOAD_FILES or sum(map(len, result.sources.values())) > MAX_LOAD_CHARS:
            result.diagnostics.append(Diagnostic(
                "SGS-E107", f"cannot read {shown}: a load reads at most {MAX_LOAD_FILES} files and "
                f"{MAX_LOAD_CHARS} characters in all (the imports go further)", at or Span.point(shown, 1, 1)))
            done[real] = None
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
        result.from_buffers |= buffer
        result.visits[visit_at] = Visit(shown, str(path), str(real), text_digest(text))
        module, diags = parse_cached(text, shown, parse_text, persist=not buffer, shared=shared)
        result.diagnostics.extend(diags)
        done[real] = module
        if module is None:
            return
        stack.append(real)
        targets = result.edges.setdefault(shown, [])
        for imp in module.imports:
            if not imp.path.strip():
                result.diagnostics.append(Diagnostic("SGS-E107", "an import needs a file name", imp.span))
                continue
            target, problem = resolve_import(real.parent, imp.path)
            if target is None:
                result.diagnostics.append(Diagnostic("SGS-E107", problem, _string_span(imp.span, text),
                                                     suggestion=import_hint(imp.path)))
                continue
            stem = Path(imp.path).stem
            if not target.exists() and imp.path == f"{stem}.sgs" and stem in bundled_names():
                # `import "standard.sgs"` in a designer's folder: the bundled set is imported by its name
                result.diagnostics.append(Diagnostic(
                    "SGS-E107", f"cannot find imported file {imp.path} beside this file", _string_span(imp.span, text),
                    suggestion=f"the bundled rule set is imported by name: import \"{stem}\""))
                continue
            result.imports.append(Resolution(str(real.parent), imp.path, str(target)))
            targets.append(display_path(target, base))
            visit(target, _string_span(imp.span, text))
        stack.pop()
        result.modules.append(module)

    for p in paths:
        visit(p, None)
    return result


def _string_span(span: Span, text: str) -> Span:
    """Narrow an import's span to its quoted file name, the token a missing-import error is about."""
    lines = text.split("\n")
    if span.line == span.end_line and 1 <= span.line <= len(lines):
        q = lines[span.line - 1].find('"', span.col - 1, span.end_col - 1)
        if q >= 0:
            return Span(span.file, span.line, q + 1, span.end_line, span.end_col)
    return span
