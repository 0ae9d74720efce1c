"""Writing files the CLI produces (logs, compiled modules, cache entries) without ever damaging anything.

A file is written to a temporary name in its own folder and renamed over the target, so a reader sees the
old file or the new one, never half of one. Only a missing path or a regular file is ever replaced: a
device node, a FIFO, a symlink or a folder at the path is refused, so `--log /dev/sda` or a symlink planted
where a log goes cannot make sgsdsl overwrite something else. Every failure is a `WriteRefused` with a
message fit for the user (no traceback).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path


class WriteRefused(Exception):
    """The path cannot or must not be written; the message says why."""


def check_writable(path: Path) -> None:
    """Refuse PATH unless it is absent or a regular file (not a symlink) in an existing, writable folder."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as err:
        raise WriteRefused(f"cannot write {path}: {err.strerror or err}") from None
    except ValueError as err:  # a NUL in the name
        raise WriteRefused(f"cannot write {path!r}: {err}") from None
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            raise WriteRefused(f"refusing to write {path}: it is a symbolic link (remove it or name another file)")
        if stat.S_ISDIR(st.st_mode):
            raise WriteRefused(f"cannot write {path}: it is a folder")
        if not stat.S_ISREG(st.st_mode):
            raise WriteRefused(f"refusing to write {path}: it is not a regular file (a device, FIFO or socket)")
    folder = path.parent
    if not folder.is_dir():
        raise WriteRefused(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise WriteRefused(f"cannot write {path}: the folder {folder} is not writable")


def write_text_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """Write TEXT (UTF-8, LF) to PATH via a temporary file in the same folder, then rename it into place."""
    write_bytes_atomic(path, text.encode("utf-8"), mode)


def write_lines_atomic(path: Path, lines: Iterable[str], mode: int = 0o644) -> None:
    """Write each of LINES (UTF-8, each followed by LF) to PATH as `write_bytes_atomic` does, one at a time: a big
    game log is never held as one string."""
    write_bytes_atomic(path, (line.encode("utf-8") + b"\n" for line in lines), mode)


def write_bytes_atomic(path: Path, data: bytes | Iterable[bytes], mode: int = 0o644) -> None:
    """Write DATA (bytes, or chunks of them) to PATH via a temporary file in the same folder, then rename it."""
    check_writable(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise WriteRefused(f"cannot write {path}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, bytes):
                fh.write(data)
            else:
                for chunk in data:
                    fh.write(chunk)
        os.chmod(tmp, mode)
        check_writable(path)  # still absent or a regular file just before the rename
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise WriteRefused(f"cannot write {path}: {err.strerror or err}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_regular_text(path: Path, limit: int) -> str:
    """The UTF-8 text of a regular file of at most LIMIT bytes (no FIFO, device or folder is opened).
    Raises `ValueError` with a message fit for the user."""
    try:
        st = os.stat(path)
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from None
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{path} is not a regular file")
    if st.st_size > limit:
        raise ValueError(f"{path} is {st.st_size} bytes; the limit is {limit}")
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from None
    if len(data) > limit:
        raise ValueError(f"{path} is larger than the limit of {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path} is not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start})") from None


def regular_text_lines(path: Path, limit: int) -> Iterator[str]:
    """The lines of a regular UTF-8 file of at most LIMIT bytes, read as they are needed (a big game log is
    never held whole). Raises `ValueError` with a message fit for the user, also midway."""
    try:
        st = os.stat(path)
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from None
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{path} is not a regular file")
    if st.st_size > limit:
        raise ValueError(f"{path} is {st.st_size} bytes; the limit is {limit}")
    seen = 0
    try:
        with open(path, "rb") as fh:
            for raw in fh:
                seen += len(raw)
                if seen > limit:
                    raise ValueError(f"{path} is larger than the limit of {limit} bytes")
                try:
                    yield raw.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError as err:
                    at = seen - len(raw) + err.start
                    raise ValueError(f"{path} is not UTF-8 text (byte 0x{raw[err.start]:02x} at offset {at})") from None
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from None
