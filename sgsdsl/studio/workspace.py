"""The rules a studio plays: loaded and checked as `check` does, watched on disk, and described for the page.

A save that checks clean becomes the next program (the running game keeps the rules it started with, and
the page offers to restart with the new ones, same seed); a save with errors keeps the last good program
and publishes the diagnostics: code, file:line:col, the source line with its caret and "did you mean", in
the same words `check` prints.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from ..api import Loaded, check_paths, program_for
from ..engine.program import Program
from ..lang import ast
from ..lang.diagnostics import Diagnostic, DiagnosticError, render_text
from ..lang.docs import comment_above, faces


def diagnostic_json(d: Diagnostic, sources: dict[str, str]) -> dict[str, Any]:
    """One finding for the page: its fields and the text block `check` prints for it."""
    return {"code": d.code, "severity": d.severity, "message": d.message, "file": d.span.file,
            "line": d.span.line, "col": d.span.col, "suggestion": d.suggestion or "",
            "text": render_text([d], sources)}


def catalogue(loaded: Loaded) -> dict[str, Any]:
    """Every card's, skill's and general's printed text (the comment above its definition, as the catalogue and
    the language server's hover read it), by display name, for the page's hover texts."""
    cards: dict[str, str] = {}
    skills: dict[str, str] = {}
    generals: dict[str, dict[str, Any]] = {}
    modes: dict[str, dict[str, Any]] = {}
    checked = loaded.checked
    for m in checked.modules if checked is not None else ():
        source = loaded.sources.get(m.path, "")

        def skill(s: ast.SkillDef, source: str = source) -> None:
            skills.setdefault(s.name.text, comment_above(source, s.span.line))

        for c in m.cards:
            text = comment_above(source, c.span.line)
            cards.setdefault(c.name.text, f"{text}\n{faces(c)}".strip())
            for s in c.skills:
                skill(s)
        for s in m.skills:
            skill(s)
        for g in m.generals:
            generals.setdefault(g.ident.text, {"name": g.name.text, "kingdom": g.kingdom.text if g.kingdom else "",
                                               "hp": g.hp, "skills": [s.name.text for s in g.skills],
                                               "text": comment_above(source, g.span.line)})
            for s in g.skills:
                skill(s)
        for mode in m.modes:
            modes.setdefault(mode.ident.text, {"name": mode.name.text,
                                               "players": list(mode.players) if mode.players else None})
    return {"cards": cards, "skills": skills, "generals": generals, "modes": modes}


class Workspace:
    """The rules files of a studio, the last program that checked clean, and what the last check found."""

    def __init__(self, paths: list[str], watched: list[Path]):
        self.paths = paths
        self.watched = watched  # the designer's own files (bundled rules do not change under a studio)
        self.lock = threading.Lock()
        self.version = 0  # +1 at every clean load: a game knows which rules it started with
        self.loaded: Loaded | None = None
        self.program: Program | None = None
        self.diagnostics: list[dict[str, Any]] = []
        self.info: dict[str, Any] = {}

    def reload(self) -> bool:
        """Check the files again; True when they are clean (and the program was rebuilt from them)."""
        loaded = check_paths(self.paths)
        errors = [d for d in loaded.diagnostics if d.severity == "error"]
        program = None
        if not errors:
            try:
                program = program_for(loaded, "compiled")
            except DiagnosticError as err:
                errors = list(err.diagnostics)
        with self.lock:
            self.diagnostics = [diagnostic_json(d, loaded.sources) for d in errors[:50]]
            if program is None:
                return False
            self.loaded, self.program = loaded, program
            self.version += 1
            self.info = self._describe(loaded, program)
            return True

    def status(self) -> dict[str, Any]:
        with self.lock:
            return {"version": self.version, "ok": not self.diagnostics, "diagnostics": list(self.diagnostics),
                    "files": [p.name for p in self.watched]}

    def _describe(self, loaded: Loaded, program: Program) -> dict[str, Any]:
        from ..sim import AGENT_KINDS

        modes = {ident: {"name": m.name, "players": list(m.players), "options": {k: _plain(v) for k, v in
                                                                                   sorted(m.options.items())}}
                 for ident, m in sorted(program.modes.items())}
        generals = [{"id": ident, "name": g.name, "kingdom": g.kingdom, "hp": g.hp}
                    for ident, g in sorted(program.generals.items())]
        return {"modes": modes, "generals": generals, "agents": list(AGENT_KINDS), "catalogue": catalogue(loaded)}


def _plain(value: Any) -> Any:
    return value if isinstance(value, (bool, int, str)) else str(value)


class Watcher:
    """Re-checks the workspace when one of its files changes on disk (watchfiles: the platform's file events,
    with a polling fallback), and calls ON_CHANGE after each re-check."""

    def __init__(self, workspace: Workspace, on_change: Any):
        self.workspace = workspace
        self.on_change = on_change
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="studio-watch", daemon=True)

    def start(self) -> None:
        if self.workspace.watched:
            self.thread.start()

    def _run(self) -> None:
        from watchfiles import watch

        folders = sorted({str(p.parent) for p in self.workspace.watched})
        names = {p.resolve() for p in self.workspace.watched}
        for changes in watch(*folders, stop_event=self.stop, debounce=200, step=50, rust_timeout=500,
                             yield_on_timeout=False, recursive=False):
            if any(Path(path).resolve() in names or path.endswith(".sgs") for _, path in changes):
                clean = self.workspace.reload()
                self.on_change(clean)
