"""What a folder of rules files means: the rule sets in it, read the way `sgsdsl check` reads them — each file with
what it imports. A file that another file of the folder imports is part of that file's set; the files nobody in the
folder imports are the sets' tops. `rules/` holds several (standard is imported by junzheng, 3v3, shan …; beta,
3v3, tongzhou and the house rules are tops), so a command that plays one set asks which.
"""

from __future__ import annotations

import re
from pathlib import Path

from .sources import expand_paths, resolve_import

_IMPORT = re.compile(r'^\s*import\s+"([^"\n]*)"', re.M)


def folder_tops(folder: Path) -> list[Path]:
    """The files of FOLDER (and its subfolders) that no other file there imports, sorted: one per rule set."""
    files, _ = expand_paths([str(folder)])
    real = {f.resolve(): f for f in files}
    imported: set[Path] = set()
    for f in files:
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for name in _IMPORT.findall(text):
            target, _ = resolve_import(f.parent, name)
            if target is not None:
                try:
                    imported.add(target.resolve())
                except (OSError, RuntimeError):
                    continue
    return sorted((f for r, f in real.items() if r not in imported), key=str)
