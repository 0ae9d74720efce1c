"""`sgsdsl compare`: two variants on the same seeds (paired) — rule files, option sets, or a designer's file with
and without — and for each figure the difference B − A, its 95% interval and whether it is significant."""

from __future__ import annotations

import json
import math
import time
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..lab.compare import Comparison, Diff, compare, what_changed
from ..lab.export import versions
from ..lab.records import GameRecord
from ..lab.report import compare_report
from ..lab.stats import Stats, mode_sides, summarise
from .lab_common import (
    Prepared,
    display_names,
    failure_headline,
    general_skills,
    parse_agents,
    play,
    prepare,
    require_exports,
    variant_options,
    write_outputs,
)
from .loading import rule_paths
from .paths import no_dash_o


class _FiniteRange(click.FloatRange):
    """A FloatRange that also refuses nan (which passes every comparison, so `--until-ci nan` never stopped)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        out = super().convert(value, param, ctx)
        if out is not None and not math.isfinite(out):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return out


FINITE_WIDTH = _FiniteRange(0.0, 1.0, min_open=True)


@click.command("compare")
@no_dash_o
@click.argument("rules", nargs=-1)
@click.option("--rules", "rule_names", default="", help="bundled rule sets both variants use (standard,junzheng)")
@click.option("--option", "opts", multiple=True, help="mode option for both variants, name=value")
@click.option("--a-option", "a_opts", multiple=True, help="mode option for variant A only (repeatable)")
@click.option("--b-option", "b_opts", multiple=True, help="mode option for variant B only (repeatable)")
@click.option("--a-file", "a_files", multiple=True, help="a rules file only variant A loads (repeatable)")
@click.option("--b-file", "b_files", multiple=True, help="a rules file only variant B loads (repeatable)")
@click.option("--with", "with_file", default=None, metavar="FILE",
              help="a designer's file: B loads it, A does not (same as --b-file FILE)")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=1000, show_default=True,
              help="paired games (each seed played under both variants)")
@click.option("--until-ci", "until_ci", type=FINITE_WIDTH, default=None,
              metavar="W", help="keep doubling the games until every headline interval is narrower than W (0.04 "
                                "= 4 points) or --max-games is reached")
@click.option("--max-games", type=click.IntRange(1, 10_000_000), default=100_000, show_default=True)
@variant_options
@click.option("--json", "as_json", is_flag=True, help="print every setting, versions, digests and figures as JSON")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="one row per game and variant (CSV)")
@click.option("--parquet", "parquet_path", type=click.Path(dir_okay=False), help="the same rows as Parquet")
@click.option("--html", "--report", "html_path", type=click.Path(dir_okay=False), help="write an HTML report")
def compare_cmd(rules, rule_names, opts, a_opts, b_opts, a_files, b_files, with_file, games, until_ci, max_games,
                mode, players, seed, round_cap, engine, agent_spec, pins, pool_spec, jobs, backend, address,
                as_json, csv_path, parquet_path, html_path) -> None:
    """Play the same seeds under variants A and B and report what changed, with paired 95% intervals."""
    require_exports(csv_path, parquet_path, html_path)
    agents = parse_agents(agent_spec)
    b_files = tuple(b_files) + ((with_file,) if with_file else ())
    common = rule_paths(list(rules), rule_names, "compare") if rules or rule_names or not (a_files or b_files) else []
    if not common and not a_files:
        common_a = rule_paths([], "")
    else:
        common_a = list(common)
    paths_a = common_a + [f for f in a_files if f not in common_a]
    paths_b = (common or rule_paths([], "")) + [f for f in b_files if f not in common]
    a = prepare(paths_a, engine, mode, players, tuple(opts) + tuple(a_opts), round_cap, agents, pins, pool_spec, "A")
    b = prepare(paths_b, engine, mode, players, tuple(opts) + tuple(b_opts), round_cap, agents, pins, pool_spec, "B")
    sides = mode_sides([roles for roles, _ in a.program.modes[mode].wins]
                       + [roles for roles, _ in b.program.modes[mode].wins])
    designer = tuple(sorted(set(a.variant.designer) | set(b.variant.designer)))
    if a.variant.settings() == b.variant.settings() and a.digest == b.digest and not as_json:
        # (not an error: an A/A run checks the harness; but a bare `sgsdsl compare` should not leave one waiting)
        click.echo(f"A and B are the same (no --a-option, --b-option, --a-file, --b-file or --with): an A/A check "
                   f"of {games} paired games, which should come out identical", err=True)
    start = time.perf_counter()
    ra: list[GameRecord] = []
    rb: list[GameRecord] = []
    target = games
    while True:
        seeds = list(range(seed + len(ra), seed + target))
        ra += play(a.variant, seeds, jobs, backend, address, "variant A")
        rb += play(b.variant, seeds, jobs, backend, address, "variant B")
        result = compare(ra, rb, sides, designer)
        if until_ci is None or result.max_width() < until_ci or target >= max_games:
            break
        target = min(max_games, target * 2)
    seconds = time.perf_counter() - start
    changed = what_changed(a.variant.settings(), b.variant.settings())
    sa = summarise(ra, sides, designer, general_skills(a.program))
    sb = summarise(rb, sides, designer, general_skills(b.program))
    doc = document(a, b, result, changed, ra, sa, sb, until_ci)
    meta = {"paired games": result.games, "seeds": f"{seed}–{seed + len(ra) - 1}", "mode": mode,
            "players": players, "agents": ",".join(agents), "rules digest A": a.digest, "rules digest B": b.digest}
    errors = [r.error for r in ra + rb if r.reason == "error"]
    same = not errors and ra == rb
    doc["identical_games"] = same
    write_outputs([("A", ra), ("B", rb)], csv_path, parquet_path, html_path,
                  lambda: compare_report(result, changed, meta, sa, sb, IDENTICAL if same else ""))
    failure_headline(errors, len(ra) + len(rb), as_json)
    if same and not as_json:  # (the JSON says it: "identical_games": true)
        click.echo(IDENTICAL)
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, sort_keys=True))
    elif result.games:  # (no seed finished under both: no tables of nothing)
        print_comparison(result, changed, doc, seconds, until_ci, display_names(b.program), tables=not same)
    raise SystemExit(EXIT_FAILED if errors else EXIT_IDENTICAL if same else 0)


# exit codes (README, docs/balance.md): 0 compared; 1 games failed (or bad rules); 2 a usage error; 3 A and B played
# identical games, so the comparison says nothing about the change
EXIT_FAILED = 1
EXIT_IDENTICAL = 3
IDENTICAL = ("A and B played identical games: every seed gave the same winners, length, decisions and skill firings "
             f"under both, so every difference is 0 (exit {EXIT_IDENTICAL}). The change never came into play, or it "
             "changes nothing these agents see.")


def document(a: Prepared, b: Prepared, result: Comparison, changed: list[str], ra: list[GameRecord], sa: Stats,
             sb: Stats, until_ci: float | None) -> dict:
    return {"changed": changed, "comparison": result.as_dict(), "until_ci": until_ci,
            "A": {"settings": a.variant.settings(), "rules_digest": a.digest, "stats": sa.as_dict()},
            "B": {"settings": b.variant.settings(), "rules_digest": b.digest, "stats": sb.as_dict()},
            "seeds": [ra[0].seed, ra[-1].seed] if ra else [], "versions": versions()}


def _cells(d: Diff) -> list[str]:
    if d.kind == "rate":
        def f(x: float) -> str:
            return f"{100 * x:.1f}%"

        def s(x: float) -> str:
            return f"{round(100 * x, 1) + 0.0:+.1f}"  # + 0.0: never "-0.0"
    else:
        def f(x: float) -> str:
            return f"{x:.2f}"

        def s(x: float) -> str:
            return f"{round(x, 2) + 0.0:+.2f}"
    return [d.figure, f(d.a), f(d.b), s(d.diff), f"{s(d.low)} … {s(d.high)}", "yes" if d.significant else "no"]


def _table(title: str, diffs: list[Diff]) -> Table:
    t = Table(title=title, title_justify="left")
    for col, just in (("figure", "left"), ("A", "right"), ("B", "right"), ("B − A", "right"), ("95% CI", "right"),
                      ("significant", "left")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for d in diffs:
        t.add_row(*_cells(d), style="bold" if d.significant else None)
    return t


def print_comparison(result: Comparison, changed: list[str], doc: dict[str, Any], seconds: float,
                     until_ci: float | None, names: dict[str, str] | None = None, tables: bool = True) -> None:
    st = doc["A"]["settings"]
    click.echo(f"compare · {result.games} paired games (seeds {doc['seeds'][0]}–{doc['seeds'][-1]}) · mode "
               f"{st['mode']} · {st['players']} players · agents {','.join(st['agents'])} · {seconds:.1f} s")
    click.echo("What changed from A to B:")
    for line in changed:
        click.echo(f"  - {line}")
    if not tables:  # identical games: tables of zeros say nothing the headline did not
        return
    console = Console()
    console.print(_table("win rate per side (percentage points, B − A)", result.headline))
    console.print(_table("win rate per role", result.roles))
    console.print(_table("game length", result.length))
    for g, (ra, rb) in result.designer.items():
        def show(r) -> str:
            if r is None:
                return "not in play"
            lo, hi = r.interval
            return f"{100 * r.rate:.1f}% ({100 * lo:.1f}–{100 * hi:.1f}%, {r.n} seats)"

        click.echo(f"designer's general {(names or {}).get(g, g)}: A {show(ra)} · B {show(rb)}")
        seats = max(r.n if r else 0 for r in (ra, rb))
        if seats < result.games / 2:
            click.echo(f"  ({g} sat in {seats} of {result.games} games; to rate it in every game, role by role, "
                       f"run `sgsdsl balance {g} FILE`)")
    width = result.max_width()
    verdict = "significant" if any(d.significant for d in result.headline) else "no significant"
    click.echo(f"widest headline interval {100 * width:.1f} points"
               + (f" (target {100 * until_ci:.1f})" if until_ci else "")
               + f" · {verdict} change in who wins" + (f" · engine errors A {result.errors[0]}, B {result.errors[1]}"
                                                       if any(result.errors) else ""))


COMMANDS = [compare_cmd]
