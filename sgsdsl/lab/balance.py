"""A designer's balance verdict: one general against a baseline, per role, on paired games.

Each seed is played in several *arms* that differ only in one seat: the general under test sits there (arm
`general`), a baseline general sits there (arm `baseline`), or the general sits there with one skill barred (arm
`without:SKILL`, restricted play). Everything else is the seed's: the deck, the role deal, the other seats' offers
(the pool is the same list in every arm, see `plan_pool`), the agents' streams. So the difference between two arms
is measured game by game (`compare.paired_binary`), with a much narrower interval than two independent runs.

The seat is chosen by role, not by number (`Variant.role_pins`): seed j puts the general in role j mod R, so each
role gets the same share of the games whatever its count at the table, and the seat that role falls to rotates
with the seed's deal. The baseline of seed j is the pool's general (j div R) mod |pool| — the average general of
the pool, played through the same roles — or one named general (`--against`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .compare import Diff, paired_binary
from .records import GameRecord
from .stats import failure_line
from .variant import Variant

GENERAL = "general"
BASELINE = "baseline"
WITHOUT = "without:"


@dataclass(frozen=True)
class Plan:
    """What one balance run plays: the general, its baseline, the pool, the roles it rotates over, barred skills."""

    general: str
    pool: tuple[str, ...]  # the other generals on offer (the general itself left out); the baselines come from it
    roles: tuple[tuple[str, int], ...]  # each role the mode deals at this count, with how many seats hold it
    against: str | None = None  # a named baseline; None: the pool's average general
    without: tuple[str, ...] = ()  # skill idents, one restricted arm each

    def arms(self) -> list[str]:
        return [GENERAL, BASELINE, *(WITHOUT + s for s in self.without)]

    def slot(self, j: int) -> tuple[str, int, str]:
        """Seed j's (role, k-th seat of that role, baseline general)."""
        role, count = self.roles[j % len(self.roles)]
        turn = j // len(self.roles)
        baseline = self.against or self.pool[turn % len(self.pool)]
        return role, turn % count, baseline

    def variant(self, base: Variant, arm: str, j: int) -> Variant:
        """The arm's variant for seed j. Every arm's pool is the pool less seed j's baseline, so the generals left
        to offer the other seats are one list in every arm (the same shuffle, the same offers)."""
        role, k, baseline = self.slot(j)
        who = baseline if arm == BASELINE else self.general
        barred = ((self.general, (arm[len(WITHOUT):],)),) if arm.startswith(WITHOUT) else ()
        pool = tuple(g for g in self.pool if g != baseline)
        return replace(base, pool=pool, pinned=(), role_pins=((role, k, who),), barred=barred)


def role_rotation(roles: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """Each distinct role of a deal, in order of first appearance, with its count."""
    out: dict[str, int] = {}
    for r in roles:
        out[r] = out.get(r, 0) + 1
    return tuple(out.items())


def seat_of(record: GameRecord, general: str, role: str) -> int | None:
    """The seat where GENERAL sat in ROLE, if it did."""
    for seat, (g, r) in enumerate(zip(record.generals, record.roles, strict=False)):
        if g == general and r == role:
            return seat
    return None


@dataclass
class ArmGames:
    """One arm's records under one agent kind, in seed order."""

    arm: str
    records: list[GameRecord] = field(default_factory=list)


@dataclass(frozen=True)
class Failure:
    """Games that did not give a result: engine errors, or a general that never sat where it was pinned."""

    failed: int
    total: int
    first: str

    def headline(self) -> str:
        return failure_line(self.failed, self.total, self.first)


@dataclass
class KindResult:
    """The verdict under one agent kind: per role and over all roles, and each barred skill's contribution."""

    agents: str
    games: int  # paired seeds whose arms all finished
    roles: list[Diff] = field(default_factory=list)  # a = baseline's win rate, b = the general's
    overall: Diff | None = None
    restricted: dict[str, list[Diff]] = field(default_factory=dict)  # skill -> per role (+ "all roles"), a = without
    identical: list[str] = field(default_factory=list)  # barred skills whose arm played every game as the general's
    seats: dict[int, int] = field(default_factory=dict)  # seat -> games the general sat there (the rotation, seen)

    def max_width(self) -> float:
        return max((d.width for d in self.roles), default=1.0)

    def as_dict(self) -> dict[str, Any]:
        return {"agents": self.agents, "games": self.games, "roles": [d.as_dict() for d in self.roles],
                "overall": self.overall.as_dict() if self.overall else None,
                "restricted": {s: [d.as_dict() for d in ds] for s, ds in self.restricted.items()},
                "restricted_changed_nothing": list(self.identical),
                "seats": {f"P{k}": v for k, v in sorted(self.seats.items())}}


def failures(plan: Plan, runs: dict[str, dict[str, list[GameRecord]]]) -> Failure | None:
    """Every game that failed, in every arm and agent kind, with the first one's own error text."""
    failed = 0
    total = 0
    first = ""
    for arms in runs.values():
        for arm, records in arms.items():
            for j, r in enumerate(records):
                total += 1
                why = _failure(plan, arm, j, r)
                if why:
                    failed += 1
                    first = first or why
    return Failure(failed, total, first) if failed else None


def _failure(plan: Plan, arm: str, j: int, r: GameRecord) -> str:
    if r.reason == "error":
        return r.error
    role, _, baseline = plan.slot(j)
    who = baseline if arm == BASELINE else plan.general
    if seat_of(r, who, role) is None:
        return (f"seed {r.seed}: {who} never sat as {role} (the mode must deal roles before it gives out generals "
                f"for balance to place a general by role)")
    return ""


def evaluate(plan: Plan, agents: str, arms: dict[str, list[GameRecord]]) -> KindResult:
    """Per role: the general's win rate minus the baseline's, paired seed by seed, over the seeds every arm
    finished; and per barred skill, the general's win rate with it minus without it."""
    n = len(arms[GENERAL])
    ok = [j for j in range(n) if not any(_failure(plan, arm, j, arms[arm][j]) for arm in arms)]

    def wins(arm: str, js: Sequence[int]) -> list[float]:
        out = []
        for j in js:
            role, _, baseline = plan.slot(j)
            who = baseline if arm == BASELINE else plan.general
            seat = seat_of(arms[arm][j], who, role)
            out.append(1.0 if seat is not None and arms[arm][j].won(seat) else 0.0)
        return out

    res = KindResult(agents, len(ok))
    for j in ok:
        seat = seat_of(arms[GENERAL][j], plan.general, plan.slot(j)[0])
        if seat is not None:
            res.seats[seat] = res.seats.get(seat, 0) + 1
    by_role = {role: [j for j in ok if plan.slot(j)[0] == role] for role, _ in plan.roles}
    for role, js in by_role.items():
        res.roles.append(paired_binary(role, wins(BASELINE, js), wins(GENERAL, js)))
    res.overall = paired_binary("all roles", wins(BASELINE, ok), wins(GENERAL, ok))
    for skill in plan.without:
        arm = WITHOUT + skill
        diffs = [paired_binary(role, wins(arm, js), wins(GENERAL, js)) for role, js in by_role.items()]
        diffs.append(paired_binary("all roles", wins(arm, ok), wins(GENERAL, ok)))
        res.restricted[skill] = diffs
        if all(arms[arm][j] == arms[GENERAL][j] for j in ok):
            res.identical.append(skill)
    return res


# ---------------------------------------------------------------- words a designer acts on
def points(x: float) -> str:
    """A rate difference in signed percentage points, one decimal ("+9.2", "−3.0", "±0.0", never "-0.0")."""
    v = round(100 * x, 1) + 0.0
    return f"+{v:.1f}" if v > 0 else f"−{-v:.1f}" if v < 0 else "±0.0"


def span(d: Diff) -> str:
    return f"{points(d.diff)} points ({points(d.low)}…{points(d.high)})"


def category(d: Diff, tolerance: float) -> str:
    """too strong | stronger | even | weaker | too weak | unclear: where the interval lies against 0 and ±tolerance."""
    if d.low > tolerance:
        return "too strong"
    if d.high < -tolerance:
        return "too weak"
    if d.low > 0:
        return "stronger"
    if d.high < 0:
        return "weaker"
    if d.low >= -tolerance and d.high <= tolerance:
        return "even"
    return "unclear"


def label(d: Diff, tolerance: float) -> str:
    """The verdict column of the tables: the category, "not significant" for an interval that straddles the band."""
    c = category(d, tolerance)
    return "not significant" if c == "unclear" else c


def role_words(d: Diff, tolerance: float, baseline: str) -> str:
    """"stronger than the baseline as rebel, +9 points (+5…+13)", and so on for each category."""
    where = "over all roles" if d.figure == "all roles" else f"as {d.figure}"
    tol = f"{round(100 * tolerance)}"
    return {
        "too strong": f"stronger than {baseline} {where}, {span(d)}: too strong (more than {tol} points)",
        "stronger": f"stronger than {baseline} {where}, {span(d)}",
        "even": f"even with {baseline} {where}, {span(d)}: within ±{tol} points",
        "weaker": f"weaker than {baseline} {where}, {span(d)}",
        "too weak": f"weaker than {baseline} {where}, {span(d)}: too weak (more than {tol} points)",
        "unclear": f"no significant difference from {baseline} {where}, {span(d)}; too few games to call it even "
                   f"within ±{tol}",
    }[category(d, tolerance)]


VERDICT = {"too strong": "overpowered", "stronger": "stronger than the baseline", "even": "roughly even",
           "weaker": "weaker than the baseline", "too weak": "weak",
           "unclear": "roughly even as far as these games tell (no significant difference; more games would say "
                      "whether it is within the even band)"}


SHORT = {"too strong": "overpowered", "stronger": "stronger", "even": "even", "weaker": "weaker", "too weak": "weak",
         "unclear": "no significant difference"}


def contribution_words(skill: str, d: Diff) -> str:
    """What a barred skill was worth, from the general's side: with it minus without it."""
    where = "over all roles" if d.figure == "all roles" else f"as {d.figure}"
    if not d.significant:
        return f"{skill} makes no significant difference {where}: {span(d)}"
    return f"{skill} is worth {span(d)} {where}"


def _direction(d: Diff) -> int:
    return (d.diff > 0) - (d.diff < 0) if d.significant else 0


def robustness(first: Diff, second: Diff, kinds: tuple[str, str]) -> str:
    """Does the sign and the significance hold under both agent kinds? holds | flips | only under one kind."""
    a, b = _direction(first), _direction(second)
    if a == b:
        return "holds" if a else "holds (no significant difference under either)"
    if a and b:
        return f"agent-dependent: flips ({kinds[0]} {points(first.diff)}, {kinds[1]} {points(second.diff)})"
    only = kinds[0] if a else kinds[1]
    return f"agent-dependent: significant only under {only}"


def robustness_line(results: Sequence[KindResult], tolerance: float) -> str:
    """One sentence on the overall verdict under both kinds, then the roles whose verdict does not hold."""
    if len(results) < 2:
        return "robustness not checked: one agent kind only"
    one, two = results[0], results[1]
    assert one.overall is not None and two.overall is not None
    kinds = (one.agents, two.agents)
    overall = robustness(one.overall, two.overall, kinds)
    holding = [d1.figure for d1, d2 in zip(one.roles, two.roles, strict=True)
               if robustness(d1, d2, kinds).startswith("holds")]
    head = (f"robust: the overall verdict ({SHORT[category(one.overall, tolerance)]}, {span(one.overall)} with "
            f"{one.agents}; {span(two.overall)} with {two.agents}) holds under both agent kinds"
            if overall.startswith("holds") else
            f"agent-dependent: the overall verdict {overall.removeprefix('agent-dependent: ')} "
            f"({span(one.overall)} with {one.agents}; {span(two.overall)} with {two.agents})")
    n = len(one.roles)
    return head + ("; every role's verdict holds too" if len(holding) == n else
                   f"; {len(holding)} of {n} roles' verdicts hold ({', '.join(holding) or 'none'})")
