#!/usr/bin/env python
"""Who does what to whom, by role, over many games: what loses the lord's side its games and what kills the renegade.

    SGSDSL_NATIVE=1 python scripts/role_play_stats.py --players 8 --games 1000 --seed 1
    python scripts/role_play_stats.py --players 5 --games 300 --agents heuristic,random

From each game's public record (the damage, healing and aimed-act histories, and the log's rounds, deaths and
rescues) it counts, by the actor's role and the target's role: damage dealt, harmful acts aimed, healing; kills;
how often the lord kills a loyalist and by what (a card it aimed, a card that reached several seats, the victim's
own card, no card); the round each role's seats die in; and for the renegade: who kills it, how many seats still
live then, by what when it dies first, and what it did before (damage by target role, helpful acts to the lord).
It prints a plain report (or `--json`). The agents are any kinds `simulate --agents` takes, cycled over the seats; a
script may pass its own seats (`stats(..., seats=...)`) to measure an agent under study.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgsdsl.api import check_paths, program_for  # noqa: E402
from sgsdsl.cli.loading import rule_paths  # noqa: E402
from sgsdsl.engine.agents import Agent  # noqa: E402
from sgsdsl.engine.game import Game  # noqa: E402
from sgsdsl.engine.program import Program  # noqa: E402
from sgsdsl.sim import make_agents  # noqa: E402

HARMFUL = frozenset({"attack", "control", "risk"})
HELPFUL = frozenset({"heal", "draw", "help", "behalf"})
ROLES = ("lord", "loyalist", "rebel", "renegade")


@dataclass
class Stats:
    """The counts over a batch of games (see the module docstring)."""

    games: int = 0
    winners: Counter[str] = field(default_factory=Counter)  # the winning side, by its roles joined with '+'
    rounds: int = 0
    damage: Counter[tuple[str, str]] = field(default_factory=Counter)  # (actor role, target role) -> HP
    harmful: Counter[tuple[str, str]] = field(default_factory=Counter)  # aimed harmful acts
    helpful: Counter[tuple[str, str]] = field(default_factory=Counter)  # aimed helpful acts (and cards on behalf)
    healing: Counter[tuple[str, str]] = field(default_factory=Counter)  # HP healed
    kills: Counter[tuple[str, str]] = field(default_factory=Counter)  # (killer role or 'none', victim role)
    dying: Counter[str] = field(default_factory=Counter)  # role -> times a seat of it was dying
    rescued: Counter[str] = field(default_factory=Counter)  # role -> times a dying seat of it was healed
    death_round: dict[str, list[int]] = field(default_factory=dict)  # role -> the round of each death
    lord_death: Counter[str] = field(default_factory=Counter)  # 'rebels alive N' at the lord's death
    renegade_death: Counter[str] = field(default_factory=Counter)  # 'killer role, seats alive N'
    renegade_before: Counter[tuple[str, str]] = field(default_factory=Counter)  # (what, target role) before it died
    renegade_final: Counter[str] = field(default_factory=Counter)  # how far a renegade got: 'last two', 'won', ...
    lord_kills_loyalist: Counter[str] = field(default_factory=Counter)  # how the lord killed a loyalist (`_how`)
    # how the lord died at the hands of a seat that needed it alive: a loyalist, or the renegade while others lived
    lord_killed_by_friend: Counter[str] = field(default_factory=Counter)
    renegade_first: Counter[str] = field(default_factory=Counter)  # 'killer role, how, round' when it died first

    def as_json(self) -> dict[str, Any]:
        def pairs(c: Counter[tuple[str, str]]) -> dict[str, int]:
            return {f"{a}>{b}": n for (a, b), n in sorted(c.items())}

        return {"games": self.games, "winners": dict(sorted(self.winners.items())),
                "average_rounds": round(self.rounds / max(1, self.games), 2),
                "damage": pairs(self.damage), "harmful_acts": pairs(self.harmful), "helpful_acts": pairs(self.helpful),
                "healing": pairs(self.healing), "kills": pairs(self.kills), "dying": dict(sorted(self.dying.items())),
                "rescued": dict(sorted(self.rescued.items())),
                "death_round": {r: _mean(v) for r, v in sorted(self.death_round.items())},
                "lord_death": dict(sorted(self.lord_death.items())),
                "renegade_death": dict(sorted(self.renegade_death.items())),
                "renegade_before_death": pairs(self.renegade_before),
                "renegade_final": dict(sorted(self.renegade_final.items())),
                "lord_kills_loyalist": dict(sorted(self.lord_kills_loyalist.items())),
                "lord_killed_by_friend": dict(sorted(self.lord_killed_by_friend.items())),
                "renegade_first_death": dict(sorted(self.renegade_first.items()))}


def _mean(values: Sequence[int]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


def read_game(g: Game, out: Stats) -> None:
    """Add one finished game (played with record=True) to OUT."""
    role = [p.role for p in g.players]
    seat_of = {p.label(): p.seat for p in g.players}
    out.games += 1
    out.winners["+".join(sorted(set(g.result[0]))) if g.result else "draw"] += 1
    out.rounds += g.round
    for src, tgt, n in g.damage_history:
        out.damage[(role[src], role[tgt])] += n
    for src, tgt, n in g.recover_history:
        out.healing[(role[src], role[tgt])] += n
    for src, tgt, hints in g.act_history:
        t = set(hints)
        if t & HARMFUL and "behalf" not in t:
            out.harmful[(role[src], role[tgt])] += 1
        elif t & HELPFUL:
            out.helpful[(role[src], role[tgt])] += 1
    # the log: rounds, dying and deaths, and the damage the renegade dealt and took before it died
    current_round, dying = 0, set()
    renegade = next((p.seat for p in g.players if p.role == "renegade"), None)
    renegade_dead = False
    before: Counter[tuple[str, str]] = Counter()
    used: dict[str, dict[str, Any]] = {}  # each card label -> its last use
    last_hit: dict[int, dict[str, Any] | None] = {}  # each seat -> the use of the card that last damaged it
    for e in g.log:
        kind = e.get("e")
        if kind == "round":
            current_round = int(e["round"])
        elif kind == "use":
            used[e["card"]] = e
        if kind == "damage":
            last_hit[seat_of[e["target"]]] = used.get(e["card"]) if e.get("card") else None
        if kind == "damage" and e.get("source") and not renegade_dead:
            src, tgt = seat_of[e["source"]], seat_of[e["target"]]
            if src == renegade and tgt != renegade:
                before[("damage to", role[tgt])] += int(e["amount"])
            elif tgt == renegade and src != renegade:
                before[("damage from", role[src])] += int(e["amount"])
        elif kind == "dying":
            seat = seat_of[e["player"]]
            dying.add(seat)
            out.dying[role[seat]] += 1
        elif kind == "recover" and seat_of[e["target"]] in dying:
            seat = seat_of[e["target"]]
            dying.discard(seat)
            out.rescued[role[seat]] += 1
        elif kind == "death":
            victim = seat_of[e["player"]]
            dying.discard(victim)
            killer = seat_of.get(e["killer"]) if e.get("killer") else None
            killer_role = role[killer] if killer is not None else "none"
            out.kills[(killer_role, role[victim])] += 1
            how = _how(last_hit.get(victim), e.get("killer"), e["player"])
            if killer_role == "lord" and role[victim] == "loyalist":
                out.lord_kills_loyalist[how] += 1
            out.death_round.setdefault(role[victim], []).append(current_round)
            others = _alive_at_death(g, victim)
            if role[victim] == "lord":
                rebels = sum(1 for d in others if role[d] == "rebel")
                out.lord_death[f"rebels alive {rebels}"] += 1
                if killer_role == "loyalist" or (killer_role == "renegade" and len(others) > 1):
                    out.lord_killed_by_friend[f"{killer_role}, {how}"] += 1
            if victim == renegade:
                renegade_dead = True
                rebels = sum(1 for d in others if role[d] == "rebel")
                out.renegade_death[f"killed by {killer_role}, {len(others)} others alive ({rebels} rebels)"] += 1
                out.renegade_before.update(before)
                if len(others) == len(g.players) - 1:
                    out.renegade_first[f"{killer_role}, {how}, round {min(current_round, 4)}"
                                       f"{'+' if current_round >= 4 else ''}"] += 1
    if renegade is not None:
        won = bool(g.result) and "renegade" in g.result[0]
        out.renegade_final["died" if renegade_dead else "won" if won else "alive at the end, lost"] += 1


def _how(use: dict[str, Any] | None, killer: str | None, victim: str) -> str:
    """How the killing damage came, from the use of its card: aimed by the killer at one seat, a card that reached
    several seats, the victim's own card (a duel it started and lost), or no card (a skill, a judgement)."""
    if use is None:
        return "no card"
    if len(use.get("targets", ())) > 1:
        return "a card reaching several"
    if use["user"] == victim:
        return "the victim's own card"
    return "aimed by the killer" if use["user"] == killer else "another's card"


def _alive_at_death(g: Game, seat: int) -> list[int]:
    """The seats alive just before SEAT died (itself left out)."""
    i = next(i for i, (p, _, _) in enumerate(g.deaths) if p.seat == seat)
    dead_before = {p.seat for p, _, _ in g.deaths[:i]}
    return [p.seat for p in g.players if p.seat != seat and p.seat not in dead_before]


def stats(program: Program, players: int, games: int, seed: int, agents: tuple[str, ...] = ("heuristic",),
          seats: Callable[[int], list[Agent]] | None = None, mode: str = "identity", round_cap: int = 60) -> Stats:
    """Play GAMES seeded games from SEED and count them. SEATS(seed) gives the agents (default: `agents` cycled)."""
    out = Stats()
    for s in range(seed, seed + games):
        agents_here = seats(s) if seats is not None else make_agents(agents, players, s)
        g = Game(program, mode, players, s, agents_here, None, round_cap=round_cap, record=True).run()
        read_game(g, out)
    return out


def report(st: Stats) -> str:
    """The counts as plain text: one block per table."""
    lines = [f"{st.games} games, {st.rounds / max(1, st.games):.1f} rounds on average",
             "winners: " + ", ".join(f"{k} {v} ({100 * v / max(1, st.games):.1f}%)"
                                     for k, v in st.winners.most_common())]

    def table(title: str, c: Counter[tuple[str, str]], per_game: bool = True) -> None:
        actors = [r for r in (*ROLES, "none") if any(a == r for a, _ in c)]
        lines.append(f"{title} (row: actor, column: target{', per game' if per_game else ''})")
        lines.append("  " + "".join(f"{r:>10}" for r in ROLES))
        for a in actors:
            cells = [c[(a, t)] / max(1, st.games) if per_game else c[(a, t)] for t in ROLES]
            lines.append(f"  {a:<9}" + "".join(f"{x:>10.2f}" if per_game else f"{x:>10}" for x in cells)[1:])

    table("damage", st.damage)
    table("harmful acts aimed", st.harmful)
    table("helpful acts aimed", st.helpful)
    table("healing", st.healing)
    table("kills", st.kills, per_game=False)
    lines.append("dying, rescued: " + ", ".join(f"{r} {st.dying[r]}, {st.rescued[r]}" for r in ROLES))
    lines.append("death round (mean): " + ", ".join(f"{r} {_mean(v)} ({len(v)} deaths)"
                                                    for r, v in sorted(st.death_round.items())))
    lines.append("lord's death: " + ", ".join(f"{k}: {v}" for k, v in sorted(st.lord_death.items())))
    lines.append("renegade: " + ", ".join(f"{k}: {v}" for k, v in sorted(st.renegade_final.items())))
    lines.append("the lord killed a loyalist: " + ", ".join(
        f"{k} {v}" for k, v in st.lord_kills_loyalist.most_common()))
    lines.append("the lord killed by a seat that needed it alive: " + ", ".join(
        f"{k} {v}" for k, v in st.lord_killed_by_friend.most_common()))
    lines.append("the renegade died first: " + ", ".join(f"{k}: {v}" for k, v in st.renegade_first.most_common()))
    lines.append("renegade's death: " + ", ".join(f"{k}: {v}" for k, v in st.renegade_death.most_common()))
    lines.append("before dying, the renegade: " + ", ".join(
        f"{a} {t} {v}" for (a, t), v in sorted(st.renegade_before.items())))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--agents", default="heuristic", help="agent kinds cycled over the seats, comma separated")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    loaded = check_paths(rule_paths([], args.rules))
    if not loaded.ok:
        print("the rules do not check", file=sys.stderr)
        return 2
    program = program_for(loaded, "compiled")
    st = stats(program, args.players, args.games, args.seed, tuple(args.agents.split(",")))
    print(json.dumps(st.as_json(), ensure_ascii=False, indent=1) if args.json else report(st))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
