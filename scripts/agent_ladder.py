#!/usr/bin/env python
"""The agent ladder: two agent kinds against each other, seat for seat.

Every seed is played twice, once with the seats alternating A/B and once B/A, so each kind sits in every seat and
every role equally often. For each rule set and player count it prints (Markdown):
- per role, each kind's wins with a Wilson 95% interval, and whether A's interval lies wholly above B's (or
  below: `worse`);
- overall, the paired difference of the kinds' per-seat win rates, seed by seed, with its 95% interval;
- the side shares and average rounds of games played by one kind alone (A everywhere, then B everywhere, the same
  seeds): what each kind makes of the mode;
- each kind's cost per decision (CPU µs in `decide`, measured in this process on a few games; ratios side by
  side).

    python scripts/agent_ladder.py --a heuristic --b random --players 5,8 --games 500 --jobs 2
    python scripts/agent_ladder.py --a heuristic --b random --rules standard,junzheng,lin,shan

Any kind `sgsdsl simulate --agents` accepts works for --a and --b. Exit 1 when A is not above B in every role
(`--expect above`, the default), or A is significantly worse in some role (`--expect no-worse`). Per-seat wins
within one game are correlated (two loyalists win together), so the per-role intervals are a little optimistic;
the overall paired difference is exact over seeds.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgsdsl import bundled  # noqa: E402
from sgsdsl.engine.agents import Agent, Request  # noqa: E402
from sgsdsl.lab.records import GameRecord  # noqa: E402
from sgsdsl.lab.runner import default_jobs, run  # noqa: E402
from sgsdsl.lab.stats import Rate, mean_interval  # noqa: E402
from sgsdsl.lab.variant import Variant, load_program  # noqa: E402
from sgsdsl.sim import make_agents  # noqa: E402

ROLE_ORDER = ("lord", "loyalist", "rebel", "renegade")


@dataclass
class Rung:
    """One rule set at one player count: the mixed games in both seat orders, and each kind alone."""

    rules: str
    players: int
    kinds: tuple[str, str]
    per_role: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # (kind, role) -> [wins, seats]
    paired: list[float] = field(default_factory=list)  # per seed: A's per-seat win rate minus B's
    alone: dict[str, list[GameRecord]] = field(default_factory=dict)  # kind -> its games alone
    cost: dict[str, tuple[int, float]] = field(default_factory=dict)  # kind -> (decisions, seconds in decide)
    seconds: float = 0.0


def rule_files(names: str) -> tuple[str, ...]:
    out = []
    for name in filter(None, (n.strip() for n in names.split(","))):
        path = bundled.rule_set(name)
        if path is None:
            raise SystemExit(f"no bundled rule set {name!r}; bundled: {', '.join(bundled.rule_set_names())}")
        out.append(str(Path(path).resolve()))
    return tuple(out)


def check_kind(kind: str) -> str:
    """A kind as `--agents` takes it (the CLI's own check, so a kind added there works here)."""
    import click

    from sgsdsl.cli.lab_common import parse_agents

    try:
        (one,) = parse_agents(kind)
    except (click.UsageError, ValueError) as err:
        raise SystemExit(f"--a/--b: {err}") from None
    return one


def tally(players: int, games: int, jobs: int, seed: int, rules: tuple[str, ...], kinds: tuple[str, str],
          alone: bool = True) -> Rung:
    """Play the rung: each seed in both seat orders, then (ALONE) each kind on its own over the same seeds."""
    rung = Rung(",".join(Path(p).stem for p in rules), players, kinds)
    seeds = list(range(seed, seed + games))
    start = time.perf_counter()
    by_order: list[list[GameRecord]] = []
    for order in (kinds, kinds[::-1]):
        records = run(Variant(paths=rules, players=players, agents=order), seeds, jobs)
        for r in records:
            if r.reason == "error":
                raise SystemExit(f"engine error: {r.error}")
            for kind, role, won in ((k, role, r.won(s)) for s, (k, role) in enumerate(zip(r.agents, r.roles,
                                                                                              strict=True))):
                e = rung.per_role.setdefault((kind, role), [0, 0])
                e[0] += won
                e[1] += 1
        by_order.append(records)
    for first, second in zip(*by_order, strict=True):
        rates = {}
        for kind in kinds:
            wins = seats = 0
            for r in (first, second):
                for s, k in enumerate(r.agents):
                    if k == kind:
                        seats += 1
                        wins += r.won(s)
            rates[kind] = wins / max(1, seats)
        rung.paired.append(rates[kinds[0]] - rates[kinds[1]])
    if alone:
        for kind in kinds:
            rung.alone[kind] = run(Variant(paths=rules, players=players, agents=(kind,)), seeds, jobs)
    rung.seconds = time.perf_counter() - start
    return rung


class Timed(Agent):
    """Another agent, timed: the CPU seconds its `decide` takes (process time: on a shared machine the wall clock
    also counts the time other processes held the core), counted per kind."""

    def __init__(self, inner: Agent, kind: str, clock: dict[str, list[float]]):
        self.inner, self.kind, self.clock = inner, kind, clock
        for attr in ("name", "reads_view", "view_cards", "reads_options", "waits", "searches"):
            setattr(self, attr, getattr(inner, attr))

    def bind(self, handle: Any) -> None:  # (a searching agent gets its handle through the wrapper)
        self.inner.bind(handle)

    def reads_view_for(self, kind: str) -> bool:  # the inner agent's answer: the engine skips views it won't read
        return self.inner.reads_view_for(kind)

    def decide(self, request: Request, view: Any) -> list[int]:
        t = time.process_time()
        answer = self.inner.decide(request, view)
        e = self.clock[self.kind]
        e[0] += 1
        e[1] += time.process_time() - t
        return answer


def decision_cost(rules: tuple[str, ...], players: int, kinds: tuple[str, str], seeds: Sequence[int]) -> dict[
        str, tuple[int, float]]:
    """Decisions and seconds in `decide` per kind, over mixed games in this process (both seat orders)."""
    from sgsdsl.engine.game import Game

    program = load_program(Variant(paths=rules, players=players))
    clock: dict[str, list[float]] = {k: [0, 0.0] for k in kinds}
    for seed in seeds:
        for order in (kinds, kinds[::-1]):
            agents = [Timed(a, order[i % 2], clock) for i, a in enumerate(make_agents(order, players, seed))]
            Game(program, "identity", players, seed, agents, record=False).run()
    return {k: (int(v[0]), v[1]) for k, v in clock.items()}


def role_key(role: str) -> tuple[int, str]:
    return (ROLE_ORDER.index(role) if role in ROLE_ORDER else len(ROLE_ORDER), role)


def pct(r: Rate) -> str:
    lo, hi = r.interval
    return f"{r.k}/{r.n} = {100 * r.rate:.1f}% | {100 * lo:.1f}–{100 * hi:.1f}%"


def report(rung: Rung, games: int, seed: int) -> tuple[bool, bool]:
    """Print the rung's tables; (A above B in every role, A significantly worse in no role)."""
    a, b = rung.kinds
    print(f"\n### {rung.rules}, {rung.players} players: {a} (A) against {b} (B)\n")
    print(f"Seeds {seed}–{seed + games - 1}, each in both seat orders ({rung.seconds:.0f} s with the games alone).\n")
    print(f"| role | {a} | 95% interval | {b} | 95% interval | A vs B |")
    print("|---|---|---|---|---|---|")
    above = no_worse = True
    for role in sorted({role for _, role in rung.per_role}, key=role_key):
        ra, rb = (Rate(*rung.per_role.get((k, role), [0, 0])) for k in (a, b))
        if ra.interval[0] > rb.interval[1]:
            verdict = "above"
        elif ra.interval[1] < rb.interval[0]:
            verdict, no_worse = "**worse**", False
        else:
            verdict = "overlap"
        above &= verdict == "above"
        print(f"| {role} | {pct(ra)} | {pct(rb)} | {verdict} |")
    m, lo, hi = mean_interval(rung.paired)
    sig = "significant" if lo > 0 or hi < 0 else "not significant"
    print(f"\nOverall, A's per-seat win rate minus B's, paired by seed: {100 * m:+.1f} points "
          f"({100 * lo:+.1f} … {100 * hi:+.1f}, {sig}).")
    if rung.alone:
        sides = sorted({r.side or f"draw ({r.reason})" for recs in rung.alone.values() for r in recs},
                       key=lambda s: (s.startswith("draw"), s))
        print("\nEach kind alone (every seat), same seeds: side shares and length.\n")
        print("| kind | " + " | ".join(sides) + " | average rounds |")
        print("|---|" + "---|" * (len(sides) + 1))
        for kind, recs in rung.alone.items():
            cells = []
            for side in sides:
                k = sum((r.side or f"draw ({r.reason})") == side for r in recs)
                cells.append(f"{100 * k / len(recs):.1f}%")
            rounds, rlo, rhi = mean_interval([float(r.rounds) for r in recs])
            print(f"| {kind} | " + " | ".join(cells) + f" | {rounds:.1f} ({rlo:.1f}–{rhi:.1f}) |")
    if rung.cost:
        print("\nCost per decision (CPU time in `decide`, this process, mixed games):\n")
        print("| kind | decisions | µs per decision |")
        print("|---|---|---|")
        for kind, (n, secs) in rung.cost.items():
            print(f"| {kind} | {n} | {1e6 * secs / max(1, n):.1f} |")
    return above, no_worse


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="heuristic", help="agent kind A (any --agents kind)")
    ap.add_argument("--b", default="random", help="agent kind B")
    ap.add_argument("--players", default="5,8", help="player counts, comma separated")
    ap.add_argument("--rules", action="append", help="bundled rule sets of one rung, comma separated "
                    "(repeatable; default: standard, and standard,junzheng,lin,shan)")
    ap.add_argument("--games", type=int, default=500, help="seeds; each is played in both seat orders")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--cost-games", type=int, default=10, help="games (per seat order) timed for the cost figure")
    ap.add_argument("--no-alone", action="store_true", help="skip the games of each kind alone")
    ap.add_argument("--expect", choices=("above", "no-worse", "nothing"), default="above")
    args = ap.parse_args(argv)
    kinds = (check_kind(args.a), check_kind(args.b))
    if kinds[0] == kinds[1]:
        raise SystemExit("--a and --b must differ")
    players = [int(p) for p in args.players.split(",") if p.strip()]
    rule_sets = args.rules or ["standard", "standard,junzheng,lin,shan"]
    ok = True
    for names in rule_sets:
        rules = rule_files(names)
        for n in players:
            rung = tally(n, args.games, args.jobs, args.seed, rules, kinds, alone=not args.no_alone)
            if args.cost_games:
                rung.cost = decision_cost(rules, n, kinds, range(args.seed, args.seed + args.cost_games))
            above, no_worse = report(rung, args.games, args.seed)
            ok &= {"above": above, "no-worse": no_worse, "nothing": True}[args.expect]
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
