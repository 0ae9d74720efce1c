"""Paired comparison of two variants: the same seeds under both, so the difference of each figure is measured
game by game (its interval is much narrower than that of two independent runs)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .records import GameRecord
from .stats import Z95, Rate, mean_interval, sides_seen


@dataclass(frozen=True)
class Diff:
    """B − A for one figure: the two values, the paired difference and its 95% interval."""

    figure: str
    a: float
    b: float
    diff: float
    low: float
    high: float
    kind: str = "rate"  # rate (a proportion) | mean (rounds)

    @property
    def significant(self) -> bool:
        return self.low > 0 or self.high < 0

    @property
    def width(self) -> float:
        return self.high - self.low

    def as_dict(self) -> dict[str, Any]:
        return {"figure": self.figure, "a": round(self.a, 4), "b": round(self.b, 4), "diff": round(self.diff, 4),
                "low": round(self.low, 4), "high": round(self.high, 4), "significant": self.significant,
                "kind": self.kind}


@dataclass
class Comparison:
    games: int
    headline: list[Diff] = field(default_factory=list)  # sides
    roles: list[Diff] = field(default_factory=list)
    length: list[Diff] = field(default_factory=list)
    designer: dict[str, tuple[Rate | None, Rate | None]] = field(default_factory=dict)
    errors: tuple[int, int] = (0, 0)

    def max_width(self) -> float:
        return max((d.width for d in self.headline), default=0.0)

    def as_dict(self) -> dict[str, Any]:
        return {"games": self.games, "errors": list(self.errors),
                "sides": [d.as_dict() for d in self.headline], "roles": [d.as_dict() for d in self.roles],
                "length": [d.as_dict() for d in self.length],
                "designer_generals": {g: [r.as_dict() if r else None for r in pair]
                                      for g, pair in self.designer.items()}}


def paired(figure: str, xs: Sequence[float], ys: Sequence[float], kind: str = "rate") -> Diff:
    """The mean of y − x over the paired games, with its 95% interval."""
    d = [y - x for x, y in zip(xs, ys, strict=True)]
    m, lo, hi = mean_interval(d)
    n = max(1, len(xs))
    return Diff(figure, sum(xs) / n, sum(ys) / n, m, lo, hi, kind)


def paired_binary(figure: str, xs: Sequence[float], ys: Sequence[float]) -> Diff:
    """The mean of y − x over paired 0/1 outcomes, with the Agresti–Min interval (half a game added to each of the
    four outcome pairs): unlike the plain paired interval it is never of zero width when few pairs disagree (10
    games all lost in both arms say little), as Wilson's is not for a single rate."""
    n = len(xs)
    up = sum(1 for x, y in zip(xs, ys, strict=True) if y > x)  # pairs where y won and x did not
    down = sum(1 for x, y in zip(xs, ys, strict=True) if x > y)
    diff = (up - down) / n if n else 0.0
    m = n + 2
    centre = (up - down) / m
    var = max(0.0, ((up + 0.5) + (down + 0.5) - (up - down) ** 2 / m) / (m * m))
    half = Z95 * math.sqrt(var)
    low, high = max(-1.0, min(diff, centre - half)), min(1.0, max(diff, centre + half))
    k = max(1, n)
    return Diff(figure, sum(xs) / k, sum(ys) / k, diff, low, high)


def _per_game(records: Sequence[GameRecord], test: Callable[[GameRecord], bool]) -> list[float]:
    return [1.0 if test(r) else 0.0 for r in records]


def _side_won(side: str) -> Callable[[GameRecord], bool]:
    return lambda r: r.side == side


def _role_share(records: Sequence[GameRecord], role: str) -> list[float]:
    """Per game, the share of the role's seats that won (0 or 1, but a half when one of two solo seats wins);
    0 where the role is not dealt."""
    out = []
    for r in records:
        won, of = r.role_result(role)
        out.append(won / of if of else 0.0)
    return out


def general_rate(records: Sequence[GameRecord], general: str) -> Rate | None:
    k = n = 0
    for r in records:
        for seat, g in enumerate(r.generals):
            if g == general:
                n += 1
                k += r.won(seat)
    return Rate(k, n) if n else None


def compare(a: Sequence[GameRecord], b: Sequence[GameRecord], sides: Sequence[str],
            designer: Sequence[str] = ()) -> Comparison:
    """B − A per side, per role and for the game length, over the seeds both variants finished."""
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x.reason != "error" and y.reason != "error"]
    xa = [p[0] for p in pairs]
    yb = [p[1] for p in pairs]
    out = Comparison(len(pairs), errors=(sum(r.reason == "error" for r in a), sum(r.reason == "error" for r in b)))
    for side in sides_seen(xa + yb, sides):
        out.headline.append(paired(f"win: {side}", _per_game(xa, _side_won(side)), _per_game(yb, _side_won(side))))
    draw_a = _per_game(xa, lambda r: not r.winners)
    draw_b = _per_game(yb, lambda r: not r.winners)
    if any(draw_a) or any(draw_b):
        out.headline.append(paired("draw", draw_a, draw_b))
    roles = sorted({role for r in xa + yb for role in r.roles})
    for role in roles:
        # a role missing from a game (a variant without it) counts as not winning there
        out.roles.append(paired(f"role wins: {role}", _role_share(xa, role), _role_share(yb, role)))
    out.length.append(paired("rounds", [float(r.rounds) for r in xa], [float(r.rounds) for r in yb], "mean"))
    out.length.append(paired("turns", [float(r.turns) for r in xa], [float(r.turns) for r in yb], "mean"))
    for g in designer:
        out.designer[g] = (general_rate(xa, g), general_rate(yb, g))
    return out


def what_changed(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Plain sentences for every setting that differs from A to B (rule files, options, seats, pool…)."""
    lines: list[str] = []
    ra, rb = a.get("rules", []), b.get("rules", [])
    for path in rb:
        if path not in ra:
            lines.append(f"B adds the rules file {path}")
    for path in ra:
        if path not in rb:
            lines.append(f"B drops the rules file {path}")
    oa, ob = a.get("options", {}), b.get("options", {})
    for k in sorted(set(oa) | set(ob)):
        if oa.get(k) != ob.get(k):
            lines.append(f"option {k}: {_show(oa.get(k, 'default'))} in A, {_show(ob.get(k, 'default'))} in B")
    for key in ("mode", "players", "engine", "round_cap", "agents", "pinned", "pool"):
        if a.get(key) != b.get(key):
            lines.append(f"{key}: {_show(a.get(key))} in A, {_show(b.get(key))} in B")
    return lines or ["nothing: A and B have the same settings (an A/A check: every difference should be 0)"]


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "all"
    if isinstance(v, dict):
        return ", ".join(f"{k}={x}" for k, x in v.items()) or "none"
    if isinstance(v, list):
        return ",".join(map(str, v)) or "none"
    return str(v)
