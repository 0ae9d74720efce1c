"""`sgsdsl native build|status|clean`: the engine's hot modules compiled with mypyc, for long simulations."""

from __future__ import annotations

import time

import click

from .. import native


@click.group("native")
def native_group() -> None:
    """The native engine: the same games, faster (built with mypyc when the package is installed, or into the
    cache by `native build`; used while it matches the engine's sources, unless SGSDSL_NATIVE=0)."""


@native_group.command("build")
def native_build() -> None:
    """Compile the engine's hot modules (one to two minutes; needs mypy, setuptools and a C compiler; with GCC
    profile-guided, unless SGSDSL_NATIVE_PGO=0)."""
    started = time.perf_counter()
    click.echo(f"compiling {len(native.sources())} engine and agent modules with mypyc (one to two minutes) ...",
               err=True)
    try:
        folder = native.build()
    except native.NativeBuildError as err:
        click.echo(f"error: {err}", err=True)
        raise SystemExit(1) from None
    except OSError as err:
        click.echo(f"error: cannot write the native build: {err.strerror or err}", err=True)
        raise SystemExit(1) from None
    click.echo(f"built {len(native.sources())} engine and agent modules into {folder} "
               f"in {time.perf_counter() - started:.0f} s; later runs use them")


@native_group.command("status")
def native_status() -> None:
    """Which engine this process runs (native or Python) and why; where a cache build would go."""
    import sgsdsl.engine.dispatch  # noqa: F401 - importing the engine makes the choice in_use() reports

    choice = native.in_use()
    engine = "native (mypyc)" if choice.native else "Python"
    click.echo(f"engine: {engine}: {choice.why}")
    if choice.folder is not None:
        guided = " (profile-guided: compiled again with what seeded games measured)" \
            if native.profile_guided(choice.folder) else ""
        click.echo(f"build: {choice.folder}{guided}")
    if choice.native:  # (the agents' modules come from the same build: one group, one digest)
        from ..ai import heuristic

        compiled = not str(getattr(heuristic, "__file__", "")).endswith(".py")
        click.echo(f"agents (role belief, heuristic agent): {'compiled with it' if compiled else 'Python'}")
    folder, built = native.status()
    if choice.folder != folder:
        click.echo(f"cache build for these engine sources: {folder} ({'present' if built else 'none'})")


@native_group.command("clean")
def native_clean() -> None:
    """Remove every native build."""
    click.echo(f"removed {native.clean()} native build(s)")


COMMANDS = [native_group]
