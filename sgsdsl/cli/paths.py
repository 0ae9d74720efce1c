"""Path arguments: the one check every command that takes rules files makes first.

Its own module, free of the engine and the checker, so that `sgsdsl check` and `sgsdsl compile` can answer
from the result cache without importing them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click


def require_paths(paths: Sequence[str]) -> None:
    """A path argument that names nothing is a usage error (exit 2), reported without a made-up location."""
    for p in paths:
        try:
            found = Path(p).exists()
        except (OSError, ValueError):
            found = False
        if not found:
            raise click.UsageError(f"cannot find {p!r} (no such file or folder)")
