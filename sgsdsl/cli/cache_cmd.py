"""`sgsdsl cache dir|clean`: where designers' compiled rules are cached, and emptying that cache."""

from __future__ import annotations

import click

from ..compiler.cache import cache_root, clean_cache


@click.group("cache")
def cache_group() -> None:
    """The compile cache (`$SGSDSL_CACHE`, else the platform's user cache folder)."""


@cache_group.command("dir")
def cache_dir() -> None:
    """Print the cache folder."""
    click.echo(str(cache_root()))


@cache_group.command("clean")
def cache_clean() -> None:
    """Remove every compiled module, parsed file and stored check or compile result from the cache (all are
    rebuilt when next needed)."""
    root, removed = clean_cache()
    click.echo(f"removed {removed} cached module(s) from {root}")


COMMANDS = [cache_group]
