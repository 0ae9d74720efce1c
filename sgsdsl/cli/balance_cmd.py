"""`sgsdsl balance GENERAL [RULES…]`: is this general too strong, too weak or about right, and in which role?

Paired games against a baseline (the pool's average general, or `--against`), the general rotated over the roles;
restricted play (`--without SKILL`); the same verdict under a second agent kind (robustness). The statistics are
the lab's (`sgsdsl.lab.balance`, `compare.paired`); this module reads the options and prints."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from ..engine.errors import EngineError
from ..engine.game import Game
from ..engine.registry.setup import role_table
from ..lab.balance import (
    GENERAL,
    VERDICT,
    Failure,
    KindResult,
    Plan,
    category,
    contribution_words,
    evaluate,
    failures,
    label,
    points,
    robustness,
    robustness_line,
    role_rotation,
    role_words,
)
from ..lab.compare import Diff
from ..lab.export import versions
from ..lab.records import GameRecord
from ..lab.runner import run_tasks
from ..lab.variant import Variant
from ..lang.ast_walk import called_procedures
from ..lang.diagnostics import Diagnostic, did_you_mean
from ..lang.sources import display_path
from ..rule_errors import describe_text
from ..sim import make_agents
from ..textsafe import shown
from .lab_common import (
    Prepared,
    display_names,
    engine_note,
    general_ident,
    parse_agents,
    parse_pool,
    prepare,
    require_exports,
    write_outputs,
)
from .loading import rule_paths
from .paths import no_dash_o

# exit codes (README, docs/balance.md): 0 a verdict; 1 games failed (or bad rules); 2 a usage error
EXIT_FAILED = 1


@click.command("balance")
@no_dash_o
@click.argument("general")
@click.argument("rules", nargs=-1)
@click.option("--rules", "rule_names", default="", help="bundled rule sets, comma separated (standard,junzheng)")
@click.option("--against", default=None, metavar="GENERAL",
              help="the baseline: this general in the same seat [default: the pool's average general]")
@click.option("--without", "without", multiple=True, metavar="SKILL",
              help="restricted play: also play the general with this skill barred (repeatable, one arm each)")
@click.option("--each-skill", "each_skill", is_flag=True,
              help="restricted play for every skill of the general, one arm each: which skill carries it, and which "
                   "the agents misplay (a skill worth less than nothing)")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=400, show_default=True,
              help="paired seeds, spread evenly over the roles (each played once per arm and agent kind)")
@click.option("--until-ci", "until_ci", type=click.FloatRange(0.0, 1.0, min_open=True), default=None, metavar="W",
              help="keep doubling the games until every role's interval (general − baseline, under every agent "
                   "kind) is narrower than W (0.1 = 10 points) or --max-games is reached")
@click.option("--max-games", type=click.IntRange(1, 10_000_000), default=100_000, show_default=True)
@click.option("--even-within", "tolerance", type=click.FloatRange(0.0, 100.0), default=5.0, show_default=True,
              metavar="POINTS", help="a difference whose interval lies within ±POINTS is 'even'; beyond it, 'too "
                                     "strong' or 'too weak'")
@click.option("--option", "opts", multiple=True, help="mode option, name=value (repeatable)")
@click.option("--mode", default="identity", show_default=True, help="mode id (it must deal roles)")
@click.option("--players", type=click.IntRange(2, 12), default=8, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="first seed; seed j is seed+j")
@click.option("--round-cap", type=click.IntRange(1, 10_000), default=60, show_default=True)
@click.option("--engine", type=click.Choice(["compiled", "interpreted"]), default="compiled", show_default=True)
@click.option("--agents", "agent_spec", default="heuristic", show_default=True,
              help="the agents of the verdict (a kind, or a comma list cycled over the seats)")
@click.option("--robust-agents", "robust_spec", default="random", show_default=True,
              help="a second agent kind to check the verdict with; 'none' to skip the check")
@click.option("--pool", "pool_spec", default=None, metavar="FILE|IDS",
              help="the generals on offer and the baselines [default: every general of the rules outside your own "
                   "files]")
@click.option("--jobs", "-j", type=click.IntRange(1, 1024), default=None,
              help="worker processes (default: all cores); the results never depend on it")
@click.option("--json", "as_json", is_flag=True, help="print every setting, versions and figures as JSON")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="one row per game and arm (CSV)")
@click.option("--html", "--report", "html_path", type=click.Path(dir_okay=False),
              help="write an HTML report (charts per role, restricted-play table, robustness line)")
def balance_cmd(general, rules, rule_names, against, without, each_skill, games, until_ci, max_games, tolerance, opts,
                mode, players, seed, round_cap, engine, agent_spec, robust_spec, pool_spec, jobs, as_json, csv_path,
                html_path) -> None:
    """Is GENERAL too strong, too weak or about right, and in which role? Paired games against a baseline."""
    require_exports(csv_path, None, html_path)
    kinds = [parse_agents(agent_spec)]
    if robust_spec.strip().lower() != "none":
        second = parse_agents(robust_spec)
        if second != kinds[0]:
            kinds.append(second)
    paths = rule_paths(list(rules), rule_names, f"balance {general}")
    prep = prepare(paths, engine, mode, players, opts, round_cap, kinds[0], (), None)
    program = prep.program
    plan = make_plan(prep, general, against, without, pool_spec, players, each_skill)
    tol = tolerance / 100
    start = time.perf_counter()
    runs: dict[str, dict[str, list[GameRecord]]] = {",".join(k): {arm: [] for arm in plan.arms()} for k in kinds}
    target = games
    while True:
        done = len(runs[",".join(kinds[0])][GENERAL])
        play_more(plan, prep.variant, kinds, runs, seed, range(done, target), jobs)
        results = [evaluate(plan, key, arms) for key, arms in runs.items()]
        if until_ci is None or target >= max_games or max(r.max_width() for r in results) < until_ci:
            break
        target = min(max_games, target * 2)
    seconds = time.perf_counter() - start
    failed = failures(plan, runs)
    names = display_names(program)
    baseline = names.get(plan.against, plan.against) if plan.against else "the baseline"
    notes = unaimed_choices(prep, plan.general)
    doc = document(prep, plan, results, failed, seed, target, until_ci, tol, seconds)
    doc["unaimed_choices"] = [{"file": where.rsplit(":", 2)[0], "line": d.span.line, "col": d.span.col,
                               "message": d.message} for d, where in notes]
    meta = {"general": names.get(plan.general, plan.general),
            "baseline": baseline if plan.against else "the pool's average general", "mode": mode, "players": players,
            "paired seeds": f"{seed}–{seed + target - 1}", "agents": " · ".join(r.agents for r in results),
            "rules digest": prep.digest, "seconds": f"{seconds:.0f}"}

    def html() -> str:
        from ..lab.report import balance_report

        return balance_report(plan, results, failed, meta, names, tol, baseline, [note_text(d, where)
                                                                                   for d, where in notes])

    tables = [(f"{key}/{arm}", recs) for key, arms in runs.items() for arm, recs in arms.items()]
    write_outputs(tables, csv_path, None, html_path, html)
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False, sort_keys=True))
    else:
        print_verdict(plan, results, failed, names, tol, baseline, seconds, prep.variant, seed, target)
        for d, where in notes:
            click.echo(f"note: {shown(note_text(d, where))}")
    raise SystemExit(EXIT_FAILED if failed else 0)


def note_text(d: Diagnostic, where: str) -> str:
    return (f"{where}: {d.message}; the verdict measures how the agents play it too: write its `tags:` "
            "(sgsdsl explain SGS-W407)")


def unaimed_choices(prep: Prepared, general: str) -> list[tuple[Diagnostic, str]]:
    """The general's choices of characters that agents cannot aim (SGS-W407, which `check` reports and a balance
    run would otherwise drop with every warning), each with where it is (FILE:LINE:COL): a designer asking whether
    the general is too strong learns that the agents take such a choice as harmful, right or wrong."""
    loaded = prep.loaded
    if loaded is None or loaded.checked is None:
        return []
    defs = [g for m in loaded.checked.modules for g in m.generals if g.ident.text == general]
    spans = [s for g in defs for s in (g.span, *(k.span for k in g.skills))]  # (a skill it names may be elsewhere)
    # (and the procedures its skills call, in turn: their choices are its choices)
    spans += [pr.span for pr in called_procedures(defs, loaded.checked.symbols.procedures)]
    out = []
    for d in loaded.diagnostics:
        if d.code == "SGS-W407" and any(d.span.file == s.file and s.line <= d.span.line <= s.end_line for s in spans):
            out.append((d, f"{display_path(Path(d.span.file))}:{d.span.line}:{d.span.col}"))
    return out


def make_plan(prep: Prepared, general: str, against: str | None, without: tuple[str, ...], pool_spec: str | None,
              players: int, each_skill: bool = False) -> Plan:
    """The general, baseline, pool, roles and barred skills, every one checked (a usage error otherwise); with
    EACH_SKILL, every skill of the general is barred in an arm of its own (after those named, in the order written)."""
    program = prep.program
    v = prep.variant
    ident = general_ident(program, general, "GENERAL")
    base = general_ident(program, against, "--against") if against else None
    if base == ident:
        raise click.UsageError(f"--against {against}: that is the general under test")
    if pool_spec is not None:
        offered = parse_pool(program, pool_spec, players)
    else:
        offered = tuple(g for g in sorted(program.generals) if g not in v.designer)
    pool = tuple(g for g in offered if g != ident)
    if len(pool) < players:  # the seed's baseline leaves the pool; the other seats need players - 1
        raise click.UsageError(f"the pool has {len(pool)} generals besides {ident}; {players} players need at least "
                               f"{players}")
    owned = program.generals[ident].skills
    barred = []
    for name in without:
        skill = next((s for s in owned if name in (s.ident, s.name)), None)
        if skill is None:
            known = [s.ident for s in owned] + [s.name for s in owned]
            best = did_you_mean(name, known)
            has = ", ".join(f"{s.name} {s.ident}" for s in owned) or "none"
            raise click.UsageError(f"--without {name}: {ident} has no such skill (its skills: {has})"
                                   + (f"; did you mean {best!r}?" if best else ""))
        if skill.ident not in barred:
            barred.append(skill.ident)
    if each_skill:
        if not owned:
            raise click.UsageError(f"--each-skill: {ident} has no skills to bar")
        barred.extend(s.ident for s in owned if s.ident not in barred)
    try:
        probe = Game(program, v.mode, players, 0, make_agents(("random",), players, 0), dict(v.options))
        roles = role_table(probe)
    except EngineError as err:
        raise click.UsageError(f"mode {v.mode}: {err}; balance rotates a general over the roles a mode deals") from None
    return Plan(ident, pool, role_rotation(roles), base, tuple(barred))


def play_more(plan: Plan, base: Variant, kinds: list[tuple[str, ...]], runs: dict[str, dict[str, list[GameRecord]]],
              seed: int, indices: range, jobs: int | None) -> None:
    """Play seeds `indices` in every arm under every agent kind (one batch: the workers stay busy throughout)."""
    tasks: list[tuple[Variant, int]] = []
    slots: list[tuple[str, str]] = []
    for kind in kinds:
        kv = Variant(base.paths, base.mode, base.players, base.options, base.engine, base.round_cap, kind,
                     designer=base.designer)
        for arm in plan.arms():
            for j in indices:
                tasks.append((plan.variant(kv, arm, j), seed + j))
                slots.append((",".join(kind), arm))
    engine_note(len(tasks))
    for (key, arm), record in zip(slots, run_tasks(tasks, jobs), strict=True):
        runs[key][arm].append(record)


def document(prep: Prepared, plan: Plan, results: list[KindResult], failed: Failure | None, seed: int, games: int,
             until_ci: float | None, tol: float, seconds: float) -> dict[str, Any]:
    main = results[0]
    assert main.overall is not None
    return {
        "general": plan.general, "against": plan.against, "pool": list(plan.pool), "roles": dict(plan.roles),
        "without": list(plan.without), "seeds": [seed, seed + games - 1], "until_ci": until_ci,
        "even_within": tol, "seconds": round(seconds, 1),
        "failed": ({"games": failed.failed, "of": failed.total, "first": failed.first} if failed else None),
        "verdict": VERDICT[category(main.overall, tol)],
        "results": [r.as_dict() for r in results],
        "robustness": robustness_line(results, tol) if len(results) > 1 else None,
        "settings": {**prep.variant.settings(), "agents": [r.agents for r in results]},
        "rules_digest": prep.digest, "versions": versions(),
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def verdict_table(title: str, diffs: list[Diff], tol: float, baseline: str) -> Table:
    t = Table(title=title, title_justify="left")
    for col, just in (("role", "left"), ("general", "right"), (baseline, "right"), ("points", "right"),
                      ("95% CI", "right"), ("verdict", "left")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for d in diffs:
        t.add_row(d.figure, _pct(d.b), _pct(d.a), points(d.diff), f"{points(d.low)}…{points(d.high)}",
                  label(d, tol), style="bold" if d.significant else None)
    return t


def restricted_table(title: str, result: KindResult, names: dict[str, str]) -> Table:
    t = Table(title=title, title_justify="left")
    for col, just in (("skill barred", "left"), ("role", "left"), ("with it", "right"), ("without", "right"),
                      ("worth (points)", "right"), ("95% CI", "right"), ("significant", "left")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for skill, diffs in result.restricted.items():
        for d in diffs:
            t.add_row(names.get(skill, skill), d.figure, _pct(d.b), _pct(d.a), points(d.diff),
                      f"{points(d.low)}…{points(d.high)}", "yes" if d.significant else "no",
                      style="bold" if d.significant else None)
    return t


def print_verdict(plan: Plan, results: list[KindResult], failed: Failure | None, names: dict[str, str], tol: float,
                  baseline: str, seconds: float, v: Variant, seed: int, games: int) -> None:
    """The headline first (failures, then the verdict), then a table per agent kind, restricted play, robustness."""
    who = names.get(plan.general, plan.general)
    if failed:
        click.echo(shown(describe_text(failed.headline())))
    main = results[0]
    if main.games == 0:
        return  # nothing finished: no tables of nothing
    assert main.overall is not None
    click.echo(f"VERDICT: {who} is {VERDICT[category(main.overall, tol)]}: "
               f"{role_words(main.overall, tol, baseline)}")
    for d in main.roles:
        click.echo(f"  - {role_words(d, tol, baseline)}")
    against = names.get(plan.against, plan.against) if plan.against else "the pool's average general"
    click.echo(f"balance · {who} against {against} · {main.games} paired seeds ({seed}–{seed + games - 1}), the "
               f"roles in turn · mode {v.mode} · {v.players} players · {seconds:.1f} s")
    click.echo("seats the general sat in (its role's seat in each deal): "
               + " · ".join(f"P{k} {n}" for k, n in sorted(main.seats.items())))
    console = Console()
    for r in results:
        console.print(verdict_table(f"{r.agents} agents: the general's win rate minus {baseline}'s, per role",
                                    r.roles + ([r.overall] if r.overall else []), tol, baseline))
    if plan.without:
        click.echo("Restricted play: what each skill is worth to the general (its win rate with it minus without "
                   "it, same seeds)")
        for skill in plan.without:
            overall = main.restricted[skill][-1]
            click.echo(f"  - {contribution_words(names.get(skill, skill), overall)}")
            if skill in main.identical:
                click.echo(f"    ({names.get(skill, skill)} changed no game: barring it played every game "
                           f"exactly as before)")
        for r in results:
            console.print(restricted_table(f"{r.agents} agents: restricted play", r, names))
    if len(results) > 1:
        click.echo(robustness_line(results, tol))
        for d1, d2 in zip(results[0].roles, results[1].roles, strict=True):
            click.echo(f"  - {d1.figure}: {robustness(d1, d2, (results[0].agents, results[1].agents))}")
    else:
        click.echo("robustness not checked (--robust-agents none)")


COMMANDS = [balance_cmd]
