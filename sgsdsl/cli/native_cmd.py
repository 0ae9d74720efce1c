"""`sgsdsl native build|status|clean`: the engine's hot modules compiled with mypyc, for long simulations."""

from __future__ import annotations

import os
import time

import click

from .. import native


@click.group("native")
def native_group() -> None:
    """The native engine: the same games, faster (built with mypyc into the cache; used while it matches the
    engine's sources, unless SGSDSL_NATIVE=0)."""


@native_group.command("build")
def native_build() -> None:
    """Compile the engine's hot modules (about a minute; needs mypy, setuptools and a C compiler)."""
    started = time.perf_counter()
    click.echo(f"compiling {len(native.NATIVE_MODULES)} engine modules with mypyc (about a minute) ...", err=True)
    try:
        folder = native.build()
    except native.NativeBuildError as err:
        click.echo(f"error: {err}", err=True)
        raise SystemExit(1) from None
    except OSError as err:
        click.echo(f"error: cannot write the native build: {err.strerror or err}", err=True)
        raise SystemExit(1) from None
    click.echo(f"built {len(native.NATIVE_MODULES)} engine modules into {folder} "
               f"in {time.perf_counter() - started:.0f} s; later runs use them")


@native_group.command("status")
def native_status() -> None:
    """Whether a native build for this engine exists, and whether this process would use it."""
    folder, built = native.status()
    if not built:
        click.echo(f"no native build for this engine (it would go to {folder}); run: sgsdsl native build")
        return
    off = os.environ.get("SGSDSL_NATIVE", "") == "0"
    click.echo(f"native build at {folder}: " + ("present but switched off (SGSDSL_NATIVE=0)" if off else "in use"))


@native_group.command("clean")
def native_clean() -> None:
    """Remove every native build."""
    click.echo(f"removed {native.clean()} native build(s)")


COMMANDS = [native_group]
