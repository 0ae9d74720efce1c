"""The report's charts, drawn by matplotlib (optional extra `report`) as inline SVG: no script, no network,
and the same figures give the same bytes (fixed hash salt, no date, text kept as text so CJK names render
with the browser's fonts)."""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..install_hint import install_extra
from .export import ExportError
from .stats import Rate

BAR = "#4a7fb5"
LINE = "#1f4e8c"
BAND = "#c9daf0"
_RC = {"svg.hashsalt": "sgsdsl", "svg.fonttype": "none", "font.size": 9, "font.family": "DejaVu Sans"}


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg", force=True)
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise ExportError(f"--html needs matplotlib for its charts: {install_extra('report')}") from err
    return plt


@contextmanager
def _drawing(plt: Any) -> Iterator[None]:
    """The charts' settings. Names in CJK (曹操) stay text in the SVG and the browser's fonts draw them; matplotlib's
    own font only sizes them, and would say so once per glyph."""
    with plt.rc_context(_RC), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        yield


def _svg(fig: Any) -> str:
    """The figure as an inline <svg> element (no XML prolog, no metadata block)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    return re.sub(r' xmlns:xlink="[^"]*"', "", text).replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)


def rate_chart(rates: dict[str, Rate], title: str = "") -> str:
    """Horizontal bars (win rate) with the Wilson 95% interval as an error bar, one row per name."""
    if not rates:
        return ""
    plt = _pyplot()
    names = list(rates)
    values = [rates[n].rate for n in names]
    lows = [max(0.0, rates[n].rate - rates[n].interval[0]) for n in names]  # rounding can go a hair below 0
    highs = [max(0.0, rates[n].interval[1] - rates[n].rate) for n in names]
    with _drawing(plt):
        fig, ax = plt.subplots(figsize=(7.0, 0.7 + 0.24 * len(names)))
        try:
            ys = list(range(len(names)))
            ax.barh(ys, values, color=BAR, height=0.7)
            ax.errorbar(values, ys, xerr=[lows, highs], fmt="none", ecolor="#111", elinewidth=1.2, capsize=2.5)
            ax.set_yticks(ys, names)
            ax.invert_yaxis()
            ax.set_xlim(0, 1)
            ax.xaxis.set_major_formatter(lambda x, _pos: f"{100 * x:.0f}%")
            ax.grid(axis="x", color="#ddd")
            ax.set_axisbelow(True)
            ax.set_xlabel("win rate (bar) and 95% Wilson interval (whisker)")
            if title:
                ax.set_title(title)
            fig.tight_layout()
            return _svg(fig)
        finally:
            plt.close(fig)


def convergence_chart(points: Sequence[tuple[int, float, float, float]], label: str) -> str:
    """The headline win rate (line) and its 95% interval (band) against the number of games played."""
    if not points:
        return ""
    plt = _pyplot()
    n = [p[0] for p in points]
    with _drawing(plt):
        fig, ax = plt.subplots(figsize=(7.0, 2.8))
        try:
            ax.fill_between(n, [p[2] for p in points], [p[3] for p in points], color=BAND, label="95% interval")
            ax.plot(n, [p[1] for p in points], color=LINE, linewidth=1.8, label=f"win rate of {label}")
            ax.set_ylim(0, 1)
            ax.set_xlim(0, n[-1])
            ax.yaxis.set_major_formatter(lambda y, _pos: f"{100 * y:.0f}%")
            ax.set_xlabel("games played")
            ax.grid(color="#eee")
            ax.legend(loc="upper right", frameon=False)
            fig.tight_layout()
            return _svg(fig)
        finally:
            plt.close(fig)


def diff_chart(diffs: Sequence[Any]) -> str:
    """Paired differences B − A (points, in percentage points) with their 95% intervals, against a zero line:
    an interval that does not cross zero is a significant change."""
    rows = [d for d in diffs if d.kind == "rate"]
    if not rows:
        return ""
    plt = _pyplot()
    with _drawing(plt):
        fig, ax = plt.subplots(figsize=(7.0, 0.8 + 0.3 * len(rows)))
        try:
            ys = list(range(len(rows)))
            xs = [100 * d.diff for d in rows]
            err = [[max(0.0, 100 * (d.diff - d.low)) for d in rows], [max(0.0, 100 * (d.high - d.diff)) for d in rows]]
            colours = ["#bb0000" if d.significant else LINE for d in rows]
            ax.axvline(0, color="#888", linewidth=1)
            for i, colour in enumerate(colours):  # one colour per row: significant rows stand out
                ax.errorbar([xs[i]], [ys[i]], xerr=[[err[0][i]], [err[1][i]]], fmt="none", ecolor=colour,
                            elinewidth=1.4, capsize=3)
            ax.scatter(xs, ys, color=colours, zorder=3, s=18)
            ax.set_yticks(ys, [d.figure for d in rows])
            ax.invert_yaxis()
            ax.grid(axis="x", color="#eee")
            ax.set_xlabel("B − A in percentage points, with its 95% interval (red: significant)")
            fig.tight_layout()
            return _svg(fig)
        finally:
            plt.close(fig)


KIND_COLOURS = ("#1f4e8c", "#c26a00", "#2e7d32")


def verdict_chart(rows: Sequence[str], series: Sequence[tuple[str, Sequence[Any]]], tolerance: float,
                  xlabel: str) -> str:
    """One row per role: for each agent kind a point (the paired difference, in percentage points) and its 95%
    interval, against a zero line and the ±tolerance band of "even". A row's points sit a little apart by kind, so
    two kinds that agree are seen agreeing."""
    if not rows or not series:
        return ""
    plt = _pyplot()
    with _drawing(plt):
        fig, ax = plt.subplots(figsize=(7.0, 1.0 + 0.42 * len(rows) * max(1, len(series))))
        try:
            if tolerance > 0:
                ax.axvspan(-100 * tolerance, 100 * tolerance, color="#eeeeee",
                           label=f"even (±{100 * tolerance:.0f})")
            ax.axvline(0, color="#888", linewidth=1)
            step = 0.6 / max(1, len(series))
            for i, (kind, diffs) in enumerate(series):
                colour = KIND_COLOURS[i % len(KIND_COLOURS)]
                ys = [r + (i - (len(series) - 1) / 2) * step for r in range(len(diffs))]
                xs = [100 * d.diff for d in diffs]
                err = [[max(0.0, 100 * (d.diff - d.low)) for d in diffs],
                       [max(0.0, 100 * (d.high - d.diff)) for d in diffs]]
                ax.errorbar(xs, ys, xerr=err, fmt="o", color=colour, ecolor=colour, elinewidth=1.4, capsize=3,
                            markersize=4, label=f"{kind} agents")
            ax.set_yticks(list(range(len(rows))), list(rows))
            ax.invert_yaxis()
            ax.grid(axis="x", color="#eee")
            ax.set_axisbelow(True)
            ax.set_xlabel(xlabel)
            ax.legend(loc="best", frameon=False, fontsize=8)
            fig.tight_layout()
            return _svg(fig)
        finally:
            plt.close(fig)
