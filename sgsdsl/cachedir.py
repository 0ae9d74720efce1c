"""The user cache folder and the rule for trusting what is in it (compiled modules, the parser, parsed files).

`$SGSDSL_CACHE`, else the platform's user cache folder from platformdirs (e.g. `~/.cache/sgsdsl`). Compiled
rules and the native build read back from it are *run*, so the cache is used only when nobody else can change
it (a shared team or CI folder must not become a way to run another user's code in ours):

- every folder from the cache root down must be this user's own and writable by nobody else; a missing one is
  made private (0700), an existing one that fails is refused with a message (once) and the command runs
  without the cache, instead of adopting it;
- folders are walked by file descriptor, each opened without following a symlink and checked with `fstat`;
  an entry is opened with `O_NOFOLLOW` and the *opened* file is checked (a regular file of ours, not
  writable by others), so nothing can be swapped in between the check and the read.

The data entries (the parser's tables, parsed files, stored results) are JSON (`sgsdsl.cachedata`), which
cannot run code even if all of the above failed. A cache that cannot be written only costs speed: every writer
here swallows the failure.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import cachedata
from .files import WriteRefused, write_bytes_atomic

MAX_ENTRY_BYTES = 64 * 2**20  # a bigger entry is not ours to read
_POSIX = os.name == "posix" and os.open in os.supports_dir_fd and hasattr(os, "getuid")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_warned: set[str] = set()


class CacheRefused(Exception):
    """A cache folder that exists but is not safe to use; the message says why and how to fix it."""


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


def _problem(st: os.stat_result, what: str) -> str | None:
    """Why a file or folder with this status is not ours to trust, or None."""
    if _POSIX and st.st_uid != os.getuid():
        return f"{what} belongs to another user (uid {st.st_uid})"
    if st.st_mode & 0o022:
        return f"{what} is writable by its group or by others (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def _refuse(path: Path, why: str) -> CacheRefused:
    err = CacheRefused(f"not using the cache folder {path}: {why}; sgsdsl runs without its cache (slower). Make it "
                       f"private (chmod go-w, owned by you) or point SGSDSL_CACHE at a folder of your own")
    if str(path) not in _warned:
        _warned.add(str(path))
        print(f"sgsdsl: warning: {err}", file=sys.stderr)
    return err


def _parts(folder: Path) -> tuple[Path, tuple[str, ...]]:
    root = cache_root()
    rel = folder.relative_to(root).parts  # ValueError: not in the cache
    if any(p in ("", ".", "..") for p in rel):
        raise ValueError(f"{folder} is not a cache folder")
    return root, rel


@contextmanager
def _walk(folder: Path, create: bool) -> Iterator[int | None]:
    """A descriptor of FOLDER (in the cache), every folder from the root down checked on the way (made private when
    missing and CREATE); None when a folder is missing or cannot be opened. Raises CacheRefused for a folder of
    someone else's or one that others may write, and for a symlink below the root."""
    root, rel = _parts(folder)
    fds: list[int] = []
    try:
        if create:
            try:
                root.mkdir(parents=True, exist_ok=True, mode=0o700)
            except (OSError, ValueError):
                yield None
                return
        try:
            fd = os.open(root, os.O_RDONLY | _DIRECTORY)
        except (OSError, ValueError):
            yield None
            return
        fds.append(fd)
        here = root
        why = _problem(os.fstat(fd), "it")
        if why:
            raise _refuse(root, why)
        for name in rel:
            here = here / name
            try:
                fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=fds[-1])
            except FileNotFoundError:
                if not create:
                    yield None
                    return
                try:
                    os.mkdir(name, 0o700, dir_fd=fds[-1])
                    fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=fds[-1])
                except OSError:
                    yield None
                    return
            except OSError as err:
                if stat.S_ISLNK(os.lstat(name, dir_fd=fds[-1]).st_mode):
                    raise _refuse(here, "it is a symbolic link") from None
                raise _refuse(here, f"it cannot be opened as a folder ({err.strerror})") from None
            fds.append(fd)
            why = _problem(os.fstat(fd), "it")
            if why:
                raise _refuse(here, why)
        yield fds[-1]
    finally:
        for fd in fds:
            os.close(fd)


def usable_dir(folder: Path, create: bool = True) -> bool:
    """Whether FOLDER (in the cache) exists, or now exists when CREATE, and is safe, with every folder above it up
    to the cache root (a refusal is warned about once, never raised)."""
    if not _POSIX:
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError:
            return False
        return folder.is_dir()
    try:
        with _walk(folder, create) as fd:
            return fd is not None
    except (CacheRefused, OSError, ValueError):
        return False


def private_dir(folder: Path) -> None:
    """Make FOLDER (in the cache) and the folders above it, private; raise OSError when it cannot be used."""
    if not usable_dir(folder, create=True):
        raise OSError(f"the cache folder {folder} cannot be used")


def read_entry(path: Path, limit: int = MAX_ENTRY_BYTES) -> bytes | None:
    """The bytes of a trusted cache entry (a regular file of ours that nobody else may write, in safe folders,
    reached without following a symlink); None for anything else (a miss)."""
    if not _POSIX:
        return _read_plain(path, limit)
    try:
        with _walk(path.parent, create=False) as dir_fd:
            if dir_fd is None:
                return None
            fd = os.open(path.name, os.O_RDONLY | _NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
            with os.fdopen(fd, "rb") as fh:
                st = os.fstat(fh.fileno())
                if not stat.S_ISREG(st.st_mode) or _problem(st, "") or st.st_size > limit:
                    return None
                return fh.read(limit + 1)[:limit]
    except (CacheRefused, OSError, ValueError):
        return None


def _read_plain(path: Path, limit: int) -> bytes | None:
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o022 or st.st_size > limit:
            return None
        return path.read_bytes()
    except (OSError, ValueError):
        return None


def trusted(path: Path) -> bool:
    """Whether PATH is an entry `read_entry` would read."""
    if not _POSIX:
        return _read_plain(path, MAX_ENTRY_BYTES) is not None
    try:
        with _walk(path.parent, create=False) as dir_fd:
            if dir_fd is None:
                return False
            st = os.stat(path.name, dir_fd=dir_fd, follow_symlinks=False)
            return stat.S_ISREG(st.st_mode) and _problem(st, "") is None
    except (CacheRefused, OSError, ValueError):
        return False


def write_entry(path: Path, data: bytes) -> bool:
    """Write DATA to the cache entry PATH (owner-only, atomically) when its folders are safe; whether it was."""
    try:
        if not usable_dir(path.parent, create=True):
            return False
        write_bytes_atomic(path, data, mode=0o600)
        return True
    except (OSError, WriteRefused):
        return False


def load_data(path: Path, allowed: cachedata.Registry, key: str) -> Any | None:
    """The value stored at PATH by `store_data` under this KEY (what the entry's name was made from), else None:
    a renamed or copied entry never answers for another key."""
    blob = read_entry(path)
    if blob is None:
        return None
    try:
        entry = cachedata.loads(blob, allowed)
    except ValueError:
        return None
    if not (isinstance(entry, tuple) and len(entry) == 2 and entry[0] == key):
        return None
    return entry[1]


def store_data(path: Path, obj: Any, allowed: cachedata.Registry, key: str) -> None:
    """Keep OBJ at PATH under KEY (see `load_data`); anything that cannot be stored is simply not cached."""
    try:
        blob = cachedata.dumps((key, obj), allowed)
    except (TypeError, ValueError, RecursionError):
        return
    write_entry(path, blob)


def clean(folder: Path, folders: re.Pattern[str], names: set[str], pattern: re.Pattern[str] | None = None) -> int:
    """In FOLDER (of the cache, when it is safe): in each subfolder whose name FOLDERS matches, remove the regular
    files sgsdsl writes there (named in NAMES or matched by PATTERN, and their temporary names), then the
    subfolder if nothing else is left. Nothing else is touched, nothing followed. How many subfolders went."""
    if not usable_dir(folder, create=False):
        return 0
    gone = 0
    for sub in sorted(folder.iterdir()):
        try:
            if not folders.fullmatch(sub.name) or not stat.S_ISDIR(os.lstat(sub).st_mode):
                continue
            for f in sorted(sub.iterdir()):
                name = f.name[1:].rsplit(".", 2)[0] if f.name.startswith(".") and f.name.endswith(".tmp") else f.name
                ours = name in names or (pattern is not None and pattern.fullmatch(name))
                if ours and stat.S_ISREG(os.lstat(f).st_mode):
                    f.unlink()
            sub.rmdir()
            gone += 1
        except OSError:  # something else is in it, or it went meanwhile: left as it is
            continue
    return gone


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
