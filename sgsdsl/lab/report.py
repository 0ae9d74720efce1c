"""A self-contained HTML report (no script, no network): tables of every figure and inline SVG charts (drawn by
matplotlib, see charts.py) of win rates with their intervals and of the headline figure converging as games
accumulate."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from .balance import VERDICT, category, contribution_words, label, points, robustness, robustness_line, role_words
from .charts import convergence_chart, diff_chart, rate_chart, verdict_chart
from .compare import Comparison, Diff
from .stats import Rate, Stats, failure_line

STYLE = """
body{font-family:system-ui,'Noto Sans CJK SC',sans-serif;margin:2em;color:#222;max-width:1100px}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th{background:#f2f2f2}td:first-child,th:first-child{text-align:left}.sig{font-weight:bold;color:#b00}
.meta{color:#555}svg{display:block;margin:.5em 0;max-width:100%;height:auto}.designer{background:#fff6d5}
"""


def draws_text(draws: dict[str, int]) -> str:
    """`round cap 11, exhausted deck 2` (or `none`): the draws by reason, as words, never a Python dict."""
    return ", ".join(f"{reason.replace('_', ' ')} {n}" for reason, n in sorted(draws.items())) or "none"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate_table(title: str, rates: dict[str, Rate], designer: Sequence[str] = (), cls: str = "",
                names: dict[str, str] | None = None, expected: dict[str, float] | None = None) -> str:
    """With `expected` (a general's rate from its roles alone), two columns more: that rate and the points above it."""
    rows = []
    for name, r in rates.items():
        lo, hi = r.interval
        mark = ' class="designer"' if name in designer else ""
        shown = (names or {}).get(name, name)
        given = (expected or {}).get(name)
        extra = "" if expected is None else ("<td></td><td></td>" if given is None else
                                             f"<td>{_pct(given)}</td><td>{100 * (r.rate - given):+.1f}</td>")
        rows.append(f"<tr{mark}><td>{escape(shown)}{' (designer)' if mark else ''}</td><td>{r.k}</td><td>{r.n}</td>"
                    f"<td>{_pct(r.rate)}</td><td>{_pct(lo)} – {_pct(hi)}</td>{extra}</tr>")
    more = "" if expected is None else "<th>by its roles</th><th>points over its roles</th>"
    return (f'<h2>{escape(title)}</h2><table class="{cls}"><tr><th>{escape(title.split()[-1])}</th><th>wins</th>'
            f"<th>of</th><th>win rate</th><th>95% interval (Wilson)</th>{more}</tr>{''.join(rows)}</table>")


def _diff_table(title: str, diffs: Sequence[Diff]) -> str:
    rows = []
    for d in diffs:
        def fmt(x: float, d: Diff = d) -> str:
            return _pct(x) if d.kind == "rate" else f"{x:.2f}"

        def sign(x: float, d: Diff = d) -> str:
            x = round(x, 3 if d.kind == "rate" else 2) + 0.0  # never "-0.0"
            return ("+" if x > 0 else "") + fmt(x)

        cls = ' class="sig"' if d.significant else ""
        rows.append(f"<tr><td>{escape(d.figure)}</td><td>{fmt(d.a)}</td><td>{fmt(d.b)}</td><td{cls}>{sign(d.diff)}"
                    f"</td><td>{sign(d.low)} … {sign(d.high)}</td><td>{'yes' if d.significant else 'no'}</td></tr>")
    return (f"<h2>{escape(title)}</h2><table><tr><th>figure</th><th>A</th><th>B</th><th>B − A</th>"
            f"<th>95% interval</th><th>significant</th></tr>{''.join(rows)}</table>")


def page(title: str, meta: dict[str, Any], body: str) -> str:
    info = "".join(f"<tr><td>{escape(str(k))}</td><td>{escape(str(v))}</td></tr>" for k, v in meta.items())
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>"
            f'<table class="meta">{info}</table>{body}</body></html>\n')


def simulate_report(stats: Stats, meta: dict[str, Any], convergence: Sequence[tuple[int, float, float, float]],
                    headline: str, names: dict[str, str] | None = None) -> str:
    names = names or {}
    generals = {names.get(g, g): r for g, r in stats.generals.items()}
    failed = [f'<p class="sig" id="failed">{escape(failure_line(len(stats.errors), stats.games, stats.errors[0]))}'
              "</p>"] if stats.errors else []
    if not stats.finished:  # no tables of nothing
        return page("sgsdsl balance report", meta, "".join(failed))
    body = [*failed,
            _rate_table("Win rate per side", stats.sides), rate_chart(stats.sides),
            f"<h2>Convergence: win rate of {escape(headline)} as games accumulate</h2>",
            convergence_chart(convergence, headline),
            _rate_table("Win rate per role", stats.roles), rate_chart(stats.roles),
            _rate_table("Win rate per general", stats.generals, stats.designer, names=names, expected=stats.expected),
            rate_chart(generals),
            *([_rate_table("Win rate per agent and role", stats.agents)] if stats.agents else []),
            _rate_table("Win rate per seat", stats.seats), _rate_table("Win rate per kingdom", stats.kingdoms)]
    held = stats.per_holder
    skills = "".join(f"<tr><td>{escape(names.get(k, k))}</td><td>{v:.3f}</td>"
                     f"<td>{'' if k not in held else format(held[k], '.3f')}</td></tr>"
                     for k, v in stats.skills.items())
    body.append("<h2>Skill firings per game</h2><table><tr><th>skill</th><th>per game</th><th>per seat that held it"
                f"</th></tr>{skills}</table>")
    lo, hi = stats.rounds_ci
    body.append(f"<h2>Game length</h2><p>average rounds {stats.rounds:.2f} (95% interval {lo:.2f} – {hi:.2f}), "
                f"average turns {stats.turns:.2f}; draws {escape(draws_text(stats.draws))}; engine errors "
                f"{len(stats.errors)}</p>")
    return page("sgsdsl balance report", meta, "".join(body))


def compare_report(cmp: Comparison, changed: Sequence[str], meta: dict[str, Any], a: Stats, b: Stats,
                   note: str = "") -> str:
    errors = a.errors + b.errors
    failed = [f'<p class="sig" id="failed">{escape(failure_line(len(errors), a.games + b.games, errors[0]))}</p>'
              ] if errors else []
    if not cmp.games:  # no seed finished under both: no tables of nothing
        return page("sgsdsl variant comparison", meta, "".join(failed))
    body = [*failed,
            *([f'<p class="sig" id="identical">{escape(note)}</p>'] if note else []),
            "<h2>What changed from A to B</h2><ul>" + "".join(f"<li>{escape(c)}</li>" for c in changed) + "</ul>",
            _diff_table("Win rate per side (paired, B − A)", cmp.headline),
            diff_chart(cmp.headline),
            "<h2>Win rate per side: A</h2>" + rate_chart(a.sides),
            "<h2>Win rate per side: B</h2>" + rate_chart(b.sides),
            _diff_table("Win rate per role (paired, B − A)", cmp.roles),
            _diff_table("Game length (paired, B − A)", cmp.length)]
    return page("sgsdsl variant comparison", meta, "".join(body))


def balance_report(plan: Any, results: Sequence[Any], failed: Any, meta: dict[str, Any], names: dict[str, str],
                   tolerance: float, baseline: str, notes: Sequence[str] = ()) -> str:
    """The designer's verdict: the headline, a chart and a table per agent kind of the general's win rate minus
    the baseline's per role, the restricted-play table, and the robustness line. NOTES, under the verdict: what
    the designer should know of it (a choice the agents cannot aim, SGS-W407)."""
    who = names.get(plan.general, plan.general)
    body: list[str] = []
    if failed:
        body.append(f'<p class="sig" id="failed">{escape(failed.headline())}</p>')
    main = results[0]
    if main.games:
        body.append(f'<h2>Verdict</h2><p id="verdict"><b>{escape(who)} is '
                    f"{escape(VERDICT[category(main.overall, tolerance)])}</b>: "
                    f"{escape(role_words(main.overall, tolerance, baseline))}</p><ul>"
                    + "".join(f"<li>{escape(role_words(d, tolerance, baseline))}</li>" for d in main.roles) + "</ul>")
        if notes:
            body.append('<ul id="notes">' + "".join(f"<li>note: {escape(n)}</li>" for n in notes) + "</ul>")
        rows = [d.figure for d in main.roles] + ["all roles"]
        body.append(f"<h2>The general's win rate minus {escape(baseline)}'s, per role</h2>")
        body.append(verdict_chart(rows, [(r.agents, r.roles + [r.overall]) for r in results], tolerance,
                                  "general − baseline, percentage points, with 95% intervals"))
        for r in results:
            body.append(_verdict_table(f"{r.agents} agents", r.roles + [r.overall], tolerance, baseline))
        if plan.without:
            body.append("<h2>Restricted play: what each skill is worth</h2><ul>"
                        + "".join(f"<li>{escape(contribution_words(names.get(s, s), main.restricted[s][-1]))}</li>"
                                  for s in plan.without) + "</ul>")
            body.append(_restricted_table(results, names))
            for s in plan.without:
                body.append(f"<h3>What {escape(names.get(s, s))} is worth, per role</h3>")
                body.append(verdict_chart(rows, [(r.agents, r.restricted[s]) for r in results], 0.0,
                                          "with it − without it, percentage points, with 95% intervals"))
        if len(results) > 1:
            kinds = (results[0].agents, results[1].agents)
            body.append(f'<h2>Robustness to the agents</h2><p id="robustness">'
                        f"{escape(robustness_line(results, tolerance))}</p><ul>"
                        + "".join(f"<li>{escape(d1.figure)}: {escape(robustness(d1, d2, kinds))}</li>"
                                  for d1, d2 in zip(results[0].roles, results[1].roles, strict=True)) + "</ul>")
    return page(f"sgsdsl balance: {who}", meta, "".join(body))


def _sig(d: Diff) -> str:
    return ' class="sig"' if d.significant else ""


def _verdict_table(title: str, diffs: Sequence[Diff], tolerance: float, baseline: str) -> str:
    rows = "".join(
        f"<tr><td>{escape(d.figure)}</td><td>{_pct(d.b)}</td><td>{_pct(d.a)}</td>"
        f"<td{_sig(d)}>{points(d.diff)}</td>"
        f"<td>{points(d.low)} … {points(d.high)}</td><td>{escape(label(d, tolerance))}</td></tr>" for d in diffs)
    return (f'<h2>{escape(title)}</h2><table class="verdict"><tr><th>role</th><th>general</th>'
            f"<th>{escape(baseline)}</th><th>points</th><th>95% interval</th><th>verdict</th></tr>{rows}</table>")


def _restricted_table(results: Sequence[Any], names: dict[str, str]) -> str:
    rows = []
    for r in results:
        for skill, diffs in r.restricted.items():
            for d in diffs:
                rows.append(f"<tr><td>{escape(r.agents)}</td><td>{escape(names.get(skill, skill))}</td>"
                            f"<td>{escape(d.figure)}</td><td>{_pct(d.b)}</td><td>{_pct(d.a)}</td>"
                            f"<td{_sig(d)}>{points(d.diff)}</td>"
                            f"<td>{points(d.low)} … {points(d.high)}</td>"
                            f"<td>{'yes' if d.significant else 'no'}</td></tr>")
    return ('<table class="restricted"><tr><th>agents</th><th>skill barred</th><th>role</th><th>with it</th>'
            "<th>without</th><th>worth (points)</th><th>95% interval</th><th>significant</th></tr>"
            + "".join(rows) + "</table>")
