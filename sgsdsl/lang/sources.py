"""Reading rules files and resolving their imports: the file-system half of loading, without the parser.

Kept apart from `loader.py` (which parses) so that what only needs to know which files a load reads, and
what it would find there, such as the result cache, does not pay for importing Lark.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .. import bundled
from .diagnostics import Diagnostic, Span, did_you_mean

# Parsing runs at roughly 150 KB/s, so a bigger file would stall CI for seconds per megabyte; real rules
# files are tens of kilobytes. Refuse early with a diagnostic instead.
MAX_FILE_BYTES = 1024 * 1024


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


def import_hint(name: str) -> str | None:
    known = bundled.rule_set_names()
    if not known:
        return None
    close = did_you_mean(name, known)
    return (f"did you mean {close!r}? " if close else "") + f"bundled rule sets: {', '.join(repr(k) for k in known)}"


MAX_FOLDER_FILES = 5000  # .sgs files taken from one folder given on the command line (docs/language.md)


def _folder_files(folder: Path, diags: list[Diagnostic]) -> list[Path]:
    """The *.sgs files under FOLDER, sorted (`walk_files`); each file skipped is a diagnostic."""
    found, skipped = walk_files(folder, ".sgs")
    diags.extend(Diagnostic("SGS-E100", f"skipped {path}: {why}", Span.point(str(path), 1, 1)) for path, why in skipped)
    return found


def walk_files(folder: Path, suffix: str, limit: int = MAX_FOLDER_FILES) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The files named *SUFFIX under FOLDER, sorted, and those skipped with why. Nothing outside the folder is read:
    folders are walked without following links, a linked file is taken only when it is a regular SUFFIX file
    inside the folder tree, and a FIFO or device is skipped (with a reason, never the content of what it points
    at). At most LIMIT files are taken."""
    root = folder.resolve()
    found: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    for here, dirs, names in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in sorted(names):
            if not name.endswith(suffix):
                continue
            path = Path(here) / name
            why = _refusal(path, root, suffix)
            if not why and len(found) >= limit:
                why = f"the folder {folder} holds more than {limit} {suffix} files (the limit)"
            if why:
                skipped.append((path, why))
            else:
                found.append(path)
    return sorted(found), skipped


def _refusal(path: Path, root: Path, suffix: str) -> str:
    """Why an entry of a folder walk must not be read ("" when it may)."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            real = Path(os.path.realpath(path, strict=True))
            if real.suffix != suffix:
                return f"a symbolic link to a file that is not a {suffix} file"
            if not real.is_relative_to(root):
                return "a symbolic link to a file outside the folder"
            st = os.stat(real)
        if not stat.S_ISREG(st.st_mode):
            return "not a regular file (a FIFO, device or folder)"
    except (OSError, RuntimeError, ValueError) as err:
        return f"cannot be read ({getattr(err, 'strerror', None) or err})"
    return ""


def expand_paths(args: list[str]) -> tuple[list[Path], list[Diagnostic]]:
    """Files as given; folders contribute their *.sgs files, sorted. Bad paths become diagnostics."""
    files: list[Path] = []
    diags: list[Diagnostic] = []
    for a in args:
        try:
            p = Path(a)
            if p.is_dir():
                found = _folder_files(p, diags)
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
