"""The user cache folder and the rule for trusting what is in it (compiled modules, the parser, parsed files).

`$SGSDSL_CACHE`, else the platform's user cache folder from platformdirs (e.g. `~/.cache/sgsdsl`). What sgsdsl
reads back from it is run or unpickled, so an entry is used only when it is a regular file owned by this user
and writable by nobody else; anything else is ignored and rebuilt. A cache that cannot be written only costs
speed: every writer here swallows the failure.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
from pathlib import Path
from typing import Any

from .files import WriteRefused, write_bytes_atomic


def cache_root() -> Path:
    """`$SGSDSL_CACHE`, else the platform's user cache folder for sgsdsl."""
    env = os.environ.get("SGSDSL_CACHE")
    if env:
        return Path(env)
    try:
        import platformdirs
    except ImportError:  # an environment installed before the dependency was declared: the XDG rule
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sgsdsl"
    return Path(platformdirs.user_cache_dir("sgsdsl", appauthor=False))


def private_dir(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)


def trusted(path: Path) -> bool:
    """A regular file (not a link) of ours that nobody else may write."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o022:
        return False
    return not (hasattr(os, "getuid") and st.st_uid != os.getuid())


def load_pickle(path: Path) -> Any | None:
    """The object pickled at PATH when the file is trusted and readable; else None (a miss)."""
    if not trusted(path):
        return None
    try:
        with open(path, "rb") as fh:
            return pickle.load(fh)  # noqa: S301 - our own private cache entry, checked above
    except Exception:  # noqa: BLE001 - a truncated or stale entry is a cache miss, never an error
        return None


def store_pickle(path: Path, obj: Any) -> None:
    """Pickle OBJ to PATH atomically (owner-only); failures are ignored."""
    try:
        private_dir(path.parent)
        write_bytes_atomic(path, pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), mode=0o600)
    except (OSError, WriteRefused, pickle.PicklingError, RecursionError):
        pass


def tree_digest(folder: Path, suffixes: tuple[str, ...], salt: str, skip: tuple[str, ...] = ()) -> str:
    """A sha256 of SALT and every file under FOLDER whose name ends in one of SUFFIXES (by relative path, sorted;
    `__pycache__` and folders starting with one of SKIP left out): what a cache entry derived from that code is
    keyed by. Empty when there is no such file or one cannot be read (then nothing should be cached)."""
    h = hashlib.sha256(f"{salt}\n".encode())
    found = 0
    for path in sorted(folder.rglob("*"), key=lambda p: p.relative_to(folder).as_posix()):
        rel = path.relative_to(folder).as_posix()
        if path.suffix not in suffixes or "__pycache__" in rel or rel.startswith(skip):
            continue
        try:
            data = path.read_bytes()
        except OSError:
            return ""
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
        found += 1
    return h.hexdigest() if found else ""
