"""Shared plumbing of `simulate` and `compare`: options that describe a variant, checked up front into a
`Variant` (bad input is a usage error, never a traceback), and the run with a progress bar."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..api import Loaded, bundled_rules_dir, check_paths, program_for
from ..engine.program import Program
from ..install_hint import install_extra
from ..lab.records import GameRecord
from ..lab.runner import BACKENDS, run
from ..lab.variant import Variant, designer_generals, remember_program, rules_digest
from ..lang.diagnostics import DiagnosticError, did_you_mean, render_text
from ..textsafe import shown
from .loading import fitting_players, setup_or_exit
from .paths import require_paths


@dataclass
class Prepared:
    variant: Variant
    program: Program
    digest: str
    loaded: Loaded | None = None  # the checked rules (a log's header binds them by digest)


def variant_options(f: Callable) -> Callable:
    """Options every balance command takes to describe how games are played and run."""
    for opt in reversed([
        click.option("--mode", default="identity", show_default=True, help="mode id"),
        click.option("--players", type=click.IntRange(2, 12), default=8, show_default=True),
        click.option("--seed", type=int, default=1, show_default=True, help="first game's seed; game i uses seed+i"),
        click.option("--round-cap", type=click.IntRange(1, 10_000), default=60, show_default=True),
        click.option("--engine", type=click.Choice(["compiled", "interpreted"]), default="compiled",
                     show_default=True),
        click.option("--agents", "agent_spec", default="random", show_default=True,
                     help="agent per seat: random, heuristic, search, search:N (N rollouts a decision), or a comma "
                          "list cycled over the seats"),
        click.option("--general", "pins", multiple=True, metavar="P0=caopi",
                     help="pin a general to a seat (repeatable)"),
        click.option("--pool", "pool_spec", default=None, metavar="FILE|IDS",
                     help="the generals on offer: a file of ids (one per line or comma separated) or a comma list"),
        click.option("--jobs", "-j", type=click.IntRange(1, 1024), default=None,
                     help="worker processes (default: all cores); the results never depend on it"),
        click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
                     help="local processes, or Ray (the `ray` extra)"),
        click.option("--address", default=None, help="Ray cluster address (default: start a local instance)"),
    ]):
        f = opt(f)
    return f


def prepare(paths: Sequence[str], engine: str, mode: str, players: int, opts: Sequence[str], round_cap: int,
            agents: tuple[str, ...], pins: Sequence[str], pool_spec: str | None, label: str = "A",
            fit_players: bool = False) -> Prepared:
    """Check the rules and every setting; exit with diagnostics (1) or a usage error (2) on bad input.
    `fit_players`: --players was not given, so a mode that cannot seat the default plays its own count."""
    require_paths(paths, rules=True)
    absolute = tuple(str(Path(p).resolve()) for p in paths)
    loaded = check_paths(list(absolute))
    errors = [d for d in loaded.diagnostics if d.severity == "error"]
    if errors:
        click.echo(render_text(errors, loaded.sources), err=True)
        raise SystemExit(1)
    try:
        program = program_for(loaded, engine)
    except DiagnosticError as err:
        click.echo(render_text(err.diagnostics, loaded.sources), err=True)
        raise SystemExit(1) from None
    if fit_players:
        players = fitting_players(program, mode, players)
    options = setup_or_exit(program, mode, players, tuple(opts))  # the one mode and option validator
    pinned = parse_pins(program, pins, players)
    pool = parse_pool(program, pool_spec, players) if pool_spec is not None else None
    v = Variant(absolute, mode, players, tuple(sorted(options.items())), engine, round_cap, agents,
                tuple(sorted(pinned.items())), pool, label, designer_generals(loaded, bundled_rules_dir()))
    remember_program(v, program)
    return Prepared(v, program, rules_digest(loaded.sources), loaded)


def display_names(program: Program) -> dict[str, str]:
    """General and skill idents -> "曹操 caocao", as the tables show them (the JSON keeps the idents)."""
    out = {k: f"{g.name} {k}" if g.name != k else k for k, g in program.generals.items()}
    skills = [*program.skills.values(), *(s for g in program.generals.values() for s in g.skills),
              *(s for c in program.cards.values() for s in c.skills)]
    for s in skills:
        out.setdefault(s.ident, f"{s.name} {s.ident}" if s.name != s.ident else s.ident)
    return out


def general_skills(program: Program) -> dict[str, list[str]]:
    """Each general's own skills (general ident -> skill idents), for the firings per seat that held one."""
    return {g: [s.ident for s in gen.skills] for g, gen in program.generals.items()}


def failure_headline(errors: Sequence[str], total: int, as_json: bool = False) -> None:
    """Lead with "N of M games failed: <the first one's error>" (on stderr when stdout is JSON)."""
    from ..lab.stats import failure_line
    from ..rule_errors import describe_text

    if errors:  # (with the rule's source line and a caret under its place, when the error names one)
        click.echo(shown(describe_text(failure_line(len(errors), total, errors[0]))), err=as_json)


def general_ident(program: Program, name: str, where: str) -> str:
    """A general by id or display name; a usage error with a suggestion otherwise."""
    name = name.strip()
    if name in program.generals:
        return name
    for ident, g in program.generals.items():
        if g.name == name:
            return ident
    known = list(program.generals) + [g.name for g in program.generals.values()]
    best = did_you_mean(name, known)
    hint = f"; did you mean {best!r}?" if best else ""
    raise click.UsageError(f"{where}: no general {name!r} in these rules{hint}")


def parse_pins(program: Program, pins: Sequence[str], players: int) -> dict[int, str]:
    out: dict[int, str] = {}
    for spec in pins:
        seat_text, eq, name = spec.partition("=")
        seat_text = seat_text.strip().upper().removeprefix("P")
        if not eq or not re.fullmatch(r"[0-9]{1,3}", seat_text):  # ASCII digits: int() refuses "²"
            raise click.UsageError(f"--general takes SEAT=GENERAL such as P0=caopi, not {spec!r}")
        seat = int(seat_text)
        if seat >= players:
            raise click.UsageError(f"--general {spec}: there are only seats P0-P{players - 1}")
        if seat in out:
            raise click.UsageError(f"--general {spec}: seat P{seat} is pinned twice")
        ident = general_ident(program, name, f"--general {spec}")
        if ident in out.values():
            raise click.UsageError(f"--general {spec}: {ident} is already pinned to another seat")
        out[seat] = ident
    return out


def parse_pool(program: Program, spec: str, players: int) -> tuple[str, ...]:
    path = Path(spec)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise click.UsageError(f"--pool {spec}: cannot read the file ({err})") from None
        words = [w for line in text.splitlines() for w in line.split("#", 1)[0].replace(",", " ").split()]
        where = f"--pool {spec}"
    else:
        words = [w for w in spec.split(",") if w.strip()]
        where = "--pool"
    idents = sorted({general_ident(program, w, where) for w in words})
    if len(idents) < players:
        raise click.UsageError(f"{where}: {len(idents)} generals cannot seat {players} players")
    return tuple(idents)


def parse_agents(spec: str) -> tuple[str, ...]:
    from ..sim import AGENT_HELP, AgentKindError, agent_budget

    kinds = tuple(k.strip() for k in spec.split(",") if k.strip())
    if not kinds:
        raise click.UsageError(f"--agents takes {AGENT_HELP} (comma separated), not {spec!r}")
    for k in kinds:
        try:
            agent_budget(k)
        except AgentKindError as err:
            raise click.UsageError(f"--agents {spec}: {err}") from None
    return kinds


def require_exports(csv_path: str | None, parquet_path: str | None, html_path: str | None) -> None:
    """Refuse, before any game is played, an export whose optional library is not installed (exit 2) or whose
    path cannot or must not be written (a symlink, a device, a missing folder: exit 1)."""
    from importlib.util import find_spec

    from ..files import WriteRefused, check_writable

    for path, module, extra, flag in ((parquet_path, "pyarrow", "parquet", "--parquet"),
                                      (html_path, "matplotlib", "report", "--html")):
        if path and find_spec(module) is None:
            raise click.UsageError(f"{flag} needs {module}: {install_extra(extra)}")
    for path in filter(None, (csv_path, parquet_path, html_path)):
        try:
            check_writable(Path(path))
        except WriteRefused as err:
            raise click.ClickException(str(err)) from None


def write_outputs(tables: Sequence[tuple[str, Sequence[GameRecord]]], csv_path: str | None,
                  parquet_path: str | None, html_path: str | None, html: Callable[[], str]) -> None:
    """The requested exports, each written whole or not at all; a failure is a clear error (exit 1)."""
    from ..compiler.cache import write_atomic
    from ..files import WriteRefused
    from ..lab.export import ExportError, write_csv, write_parquet

    try:
        if csv_path:
            write_csv(Path(csv_path), tables)
        if parquet_path:
            write_parquet(Path(parquet_path), tables)
        if html_path:
            write_atomic(Path(html_path), html())
    except (ExportError, OSError, WriteRefused) as err:
        click.echo(shown(f"error: {err}"), err=True)
        raise SystemExit(1) from None



# a run of this many games or more on the Python engine, where a native build could run it, says so (`engine_note`)
SLOW_ENGINE_NOTE_GAMES = 100
_engine_noted = False


def engine_note(games: int) -> None:
    """Say once, on stderr, that a long run plays on the Python engine while a native build could play it two to
    three times faster, and why (the engine was edited since the build, say): the games are the same either way, so
    nothing else would tell. Quiet when SGSDSL_NATIVE=0 asked for the Python engine."""
    global _engine_noted
    if _engine_noted or games < SLOW_ENGINE_NOTE_GAMES:
        return
    from .. import (
        engine,  # noqa: F401  (importing the engine makes the choice in_use reports)
        native,
    )

    choice = native.in_use()
    if choice.native or os.environ.get("SGSDSL_NATIVE", "") == "0":
        return
    _engine_noted = True
    click.echo(f"note: these games run on the Python engine, two to three times slower than a native build would "
               f"(the same games): {choice.why}", err=True)


def play(variant: Variant, seeds: Sequence[int], jobs: int | None, backend: str, address: str | None,
         what: str = "simulating") -> list[GameRecord]:
    """Run the seeds, with a progress bar on a terminal for long runs; Ray problems are usage errors."""
    from ..lab.ray_backend import RayUnavailable

    engine_note(len(seeds))
    console = Console(stderr=True)
    try:
        if len(seeds) >= 50 and sys.stderr.isatty():
            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
            with Progress(*columns, console=console, transient=True) as bar:
                task = bar.add_task(what, total=len(seeds))
                return run(variant, seeds, jobs, backend, address, lambda n: bar.update(task, completed=n))
        return run(variant, seeds, jobs, backend, address)
    except RayUnavailable as err:
        raise click.UsageError(str(err)) from None
