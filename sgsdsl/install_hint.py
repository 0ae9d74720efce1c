"""How to install an optional extra, said the way that works where sgsdsl runs: `pip install -e '.[report]'` in a
checkout (an editable install of the repository), `pip install 'sgsdsl[report]'` for an installed wheel, which has
no `.` to install from."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def in_checkout() -> bool:
    """Is this sgsdsl the repository's own folder (a `pyproject.toml` beside the package), not an installed wheel?"""
    return (_PACKAGE.parent / "pyproject.toml").is_file() and not (_PACKAGE / "_bundled").is_dir()


def install_extra(extra: str) -> str:
    """The command that installs EXTRA (`report`, `parquet`, `ray`, `lsp`, `native`) here."""
    return f"pip install -e '.[{extra}]'" if in_checkout() else f"pip install 'sgsdsl[{extra}]'"
