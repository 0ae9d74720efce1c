"""Win rates with Wilson 95% intervals per side, role, general, seat and kingdom; skill firings; game length.

Sides and roles are counted per game (did that side win this game); generals, seats and kingdoms per seat
(did the seat holding it win). Per-seat counts within one game are correlated (two loyalists win together),
so their intervals are a little optimistic; per-game figures are exact binomial proportions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .records import GameRecord

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    """k successes out of n, with its Wilson 95% interval."""

    k: int
    n: int

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)

    @property
    def width(self) -> float:
        lo, hi = self.interval
        return hi - lo

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"wins": self.k, "n": self.n, "rate": round(self.rate, 4), "low": round(lo, 4), "high": round(hi, 4)}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval: sensible near 0 and 1 and for small n (unlike the normal approximation)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval (for paired differences and game lengths)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


def failure_line(failed: int, total: int, first: str) -> str:
    """The headline every lab command leads with when games failed: how many, and the first one's own error."""
    return f"{failed} of {total} games failed: {first}"


def mode_sides(wins: Iterable[Sequence[str]]) -> list[str]:
    """The mode's declared winner sides, in `win`-line order, each once: the rows every summary shows."""
    out: list[str] = []
    for roles in wins:
        side = "+".join(roles)
        if side not in out:
            out.append(side)
    return out


def sides_seen(records: Iterable[GameRecord], sides: Sequence[str]) -> list[str]:
    """The declared sides, with a solo role dealt to several seats split into one side per seat (`renegade #1`,
    `renegade #2`, in its place), as the records name their winners."""
    seen = {r.side for r in records if r.winners}
    out: list[str] = []
    for side in sides:
        split = sorted((s for s in seen if s.startswith(side + " #")), key=lambda s: int(s.rsplit("#", 1)[1]))
        if split:
            out += split + ([side] if side in seen else [])
        else:
            out.append(side)
    return out + sorted(seen - set(out))


@dataclass
class Stats:
    games: int = 0
    errors: list[str] = field(default_factory=list)
    draws: dict[str, int] = field(default_factory=dict)
    sides: dict[str, Rate] = field(default_factory=dict)
    roles: dict[str, Rate] = field(default_factory=dict)
    generals: dict[str, Rate] = field(default_factory=dict)
    seats: dict[str, Rate] = field(default_factory=dict)
    kingdoms: dict[str, Rate] = field(default_factory=dict)
    skills: dict[str, float] = field(default_factory=dict)  # firings per game, over finished games
    # a general's skill: firings per game of each seat that held a general with it (the figure to read a skill of a
    # general seated in a fifth of the games by; cards' and granted skills have none)
    per_holder: dict[str, float] = field(default_factory=dict)
    # per general, the win rate its seats' roles would give (each role's rate per seat in these games): the
    # general's own rate above or below it is the general's, not its roles' (a lord wins more than a renegade)
    expected: dict[str, float] = field(default_factory=dict)
    rounds: float = 0.0
    turns: float = 0.0
    rounds_ci: tuple[float, float] = (0.0, 0.0)
    designer: tuple[str, ...] = ()
    scores: dict[str, float] = field(default_factory=dict)  # role -> average score (modes with `score` lines)
    # modes with `place` lines: "camp · place N" -> how often (over finished games)
    places: dict[str, Rate] = field(default_factory=dict)
    agents: dict[str, Rate] = field(default_factory=dict)  # "agent · role" -> per seat, when agents are mixed

    @property
    def finished(self) -> int:
        return self.games - len(self.errors)

    def headline(self) -> dict[str, Rate]:
        """The figures `--until-ci` watches and charts lead with: win rate per side."""
        return dict(self.sides)

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games, "errors": len(self.errors), "draws": dict(sorted(self.draws.items())),
            "sides": {k: v.as_dict() for k, v in self.sides.items()},
            "roles": {k: v.as_dict() for k, v in self.roles.items()},
            "generals": {k: v.as_dict() for k, v in self.generals.items()},
            "seats": {k: v.as_dict() for k, v in self.seats.items()},
            "kingdoms": {k: v.as_dict() for k, v in self.kingdoms.items()},
            "skills_per_game": {k: round(v, 4) for k, v in self.skills.items()},
            "skills_per_holder": {k: round(v, 4) for k, v in self.per_holder.items()},
            "generals_expected": {k: round(v, 4) for k, v in self.expected.items()},
            "avg_rounds": round(self.rounds, 3), "avg_rounds_ci": [round(x, 3) for x in self.rounds_ci],
            "avg_turns": round(self.turns, 3),
            "designer_generals": list(self.designer),
            **({"avg_score": dict(self.scores)} if self.scores else {}),
            **({"places": {k: v.as_dict() for k, v in self.places.items()}} if self.places else {}),
            **({"agents": {k: v.as_dict() for k, v in self.agents.items()}} if self.agents else {}),
        }


# a skill firing more often than this per round of play is reported by `simulate`, a general's skill counted per
# seat that held it, any other over all games: an owner takes one turn a round, and the busiest skills of the bundled
# rules fire at most 1.2 times a round per holder with heuristic agents (享乐, 制衡, 蛊惑 1.75 when it bluffed every
# turn) and 2.2 with random ones (蛊惑, with fifteen conversions on every menu), while the 激将 loop gave 4-7 a round
# over all games (docs/balance.md, "Runaway loops")
LOOP_WARN_PER_ROUND = 3.0


def implausible_skills(stats: Stats) -> list[tuple[str, float, float, bool]]:
    """(skill, firings per game, firings per round, whether per seat holding it) of each skill above
    LOOP_WARN_PER_ROUND, most frequent first: a general's skill counted per seat that held it (a loop of a general
    seated in a fifth of the games is not diluted fivefold), any other skill over all games."""
    if stats.rounds <= 0:
        return []
    out = []
    for name, per_game in stats.skills.items():
        held = name in stats.per_holder
        figure = stats.per_holder[name] if held else per_game
        if figure / stats.rounds > LOOP_WARN_PER_ROUND:
            out.append((name, figure, figure / stats.rounds, held))
    return sorted(out, key=lambda x: (-x[1], x[0]))


def _per_holder(ok: Sequence[GameRecord], fired: dict[str, int],
                holders: Mapping[str, Iterable[str]]) -> dict[str, float]:
    """Firings per game of each seat that held a general with the skill, for the skills that fired."""
    owned = {g: set(skills) for g, skills in holders.items()}
    held: dict[str, int] = {}
    for r in ok:
        for gen in r.generals:
            for sk in owned.get(gen, ()):
                held[sk] = held.get(sk, 0) + 1
    return {k: v / held[k] for k, v in sorted(fired.items()) if held.get(k)}


def _expected(ok: Sequence[GameRecord]) -> dict[str, float]:
    """Per general, the mean over its seats of its role's win rate per seat in these games."""
    per_role: dict[str, list[int]] = {}
    for r in ok:
        for seat, role in enumerate(r.roles):
            e = per_role.setdefault(role, [0, 0])
            e[0] += r.won(seat)
            e[1] += 1
    base = {role: w / t for role, (w, t) in per_role.items()}
    seated: dict[str, dict[str, int]] = {}  # general -> role -> seats (counts, so the sum's order is fixed)
    for r in ok:
        for gen, role in zip(r.generals, r.roles, strict=False):
            if gen:
                roles = seated.setdefault(gen, {})
                roles[role] = roles.get(role, 0) + 1
    return {g: sum(k * base[role] for role, k in sorted(roles.items())) / sum(roles.values())
            for g, roles in sorted(seated.items())}


def _rates(counts: dict[str, list[int]]) -> dict[str, Rate]:
    return {k: Rate(w, n) for k, (w, n) in sorted(counts.items())}


def summarise(records: Sequence[GameRecord], sides: Sequence[str], designer: Sequence[str] = (),
              holders: Mapping[str, Iterable[str]] | None = None) -> Stats:
    """Aggregate records (in any order: the result depends only on the multiset of records). `holders`: each
    general's skills (general ident -> skill idents), for the firings per seat that held one."""
    st = Stats(games=len(records), designer=tuple(designer))
    ok = [r for r in records if r.reason != "error"]
    sides = sides_seen(ok, sides)
    st.errors = [r.error for r in records if r.reason == "error"]
    side_wins = {s: 0 for s in sides}
    roles: dict[str, list[int]] = {}
    generals: dict[str, list[int]] = {}
    seats: dict[str, list[int]] = {}
    kingdoms: dict[str, list[int]] = {}
    skills: dict[str, int] = {}
    scores: dict[str, list[int]] = {}
    agents: dict[str, list[int]] = {}
    placed: dict[str, int] = {}
    mixed = len({a for r in ok for a in r.agents}) > 1
    for r in ok:
        if r.winners:
            side_wins[r.side] = side_wins.get(r.side, 0) + 1
        else:
            st.draws[r.reason] = st.draws.get(r.reason, 0) + 1
        for role in sorted(set(r.roles)):
            e = roles.setdefault(role, [0, 0])
            won, of = r.role_result(role)
            e[0] += won
            e[1] += of
        for seat, (gen, kingdom) in enumerate(zip(r.generals, r.kingdoms, strict=True)):
            won = int(r.won(seat))
            for table, key in ((generals, gen), (seats, f"P{seat}"), (kingdoms, kingdom)):
                if key:
                    e = table.setdefault(key, [0, 0])
                    e[0] += won
                    e[1] += 1
        for sk, n in r.skills.items():
            skills[sk] = skills.get(sk, 0) + n
        if mixed:
            for seat, (kind, role) in enumerate(zip(r.agents, r.roles, strict=False)):
                e = agents.setdefault(f"{kind} · {role}", [0, 0])
                e[0] += r.won(seat)
                e[1] += 1
        for camp, place in r.standings:
            key = f"{camp} · place {place}"
            placed[key] = placed.get(key, 0) + 1
        for role, score in zip(r.roles, r.scores, strict=False):
            e = scores.setdefault(role, [0, 0])
            e[0] += score
            e[1] += 1
    n = len(ok)
    st.sides = {s: Rate(k, n) for s, k in side_wins.items()}
    st.roles = _rates(roles)
    st.generals = _rates(generals)
    st.seats = dict(sorted(_rates(seats).items(), key=lambda kv: int(kv[0][1:])))
    st.kingdoms = _rates(kingdoms)
    st.skills = {k: v / max(1, n) for k, v in sorted(skills.items())}
    st.per_holder = _per_holder(ok, skills, holders or {})
    st.expected = _expected(ok)
    lengths = [float(r.rounds) for r in ok]
    st.rounds, lo, hi = mean_interval(lengths)
    st.rounds_ci = (lo, hi)
    st.turns = sum(r.turns for r in ok) / max(1, n)
    st.agents = _rates(agents)
    st.scores = {role: round(total / k, 2) for role, (total, k) in sorted(scores.items()) if k}
    st.places = {k: Rate(v, n) for k, v in sorted(placed.items(), key=lambda kv: (kv[0].rsplit(" ", 1)[1], kv[0]))}
    return st


def convergence(records: Sequence[GameRecord], side: str, points: int = 40) -> list[tuple[int, float, float, float]]:
    """(games, rate, low, high) of one side's win rate as games accumulate, in seed order: the chart that shows
    whether more games would still move the figure."""
    ok = [r for r in records if r.reason != "error"]
    if not ok:
        return []
    step = max(1, len(ok) // points)
    out = []
    k = 0
    for i, r in enumerate(ok, 1):
        k += r.side == side
        if i % step == 0 or i == len(ok):
            lo, hi = wilson(k, i)
            out.append((i, k / i, lo, hi))
    return out
