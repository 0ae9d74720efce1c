#!/usr/bin/env python3
"""Where a search seat leaves the heuristic agent's answer, and what its rollouts say the other answer gains.

    python scripts/search_disagreements.py --players 5 --games 200 --budget 32
    python scripts/search_disagreements.py --players 8 --games 100 --role lord --out /tmp/lord.jsonl

The search agent (`search:N`) starts from the heuristic agent's answer and plays every answer out on copies of the
game; where another answer scores better it takes that one. Each game here seats heuristic agents and one search
seat (turning round the seats from game to game), or, with --role, a search seat in every seat of that role; every
decision the search weighed is kept: the request, the heuristic's answer and the search's, and the mean value of
each over the rollouts. The tables group them by request, and the answers it left by what each was (the option's
label without its card's suit and rank, and its hints), most often first.

What it is for: a systematic way to find the heuristic agent's misplays without a hand-written test per skill.
`scripts/skill_sweep.py` says which skill is worth less than nothing; this says which answer the agent gives that a
deeper look would not. Read it with the search's own limits in mind: its rollouts end with the turn and value a
copy by material (HP, cards, equipment), so it undervalues what pays later (equipment, a delayed trick, a recast),
and a single answer left by a few thousandths of value is noise. A pattern worth a look is a frequent pair of
answers in one direction with the same sense in every game (docs/balance.md, "Sixteenth pass": 八卦阵 tried before
a 闪 is spent, 火攻 paid with a 闪).

Deterministic for its settings; --jobs spreads the games over processes (the results never depend on it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ALL_SETS = "standard,junzheng,lin,shan,feng,huo"
_FACE = re.compile(r"[♠♣♥♦]([0-9]+|[AJQK])(#\d+)?|#\d+")  # a card's suit, rank and id in an option's label
_SEAT = re.compile(r"P\d+(:\S+)?")


def answer_of(request: Any, answer: Sequence[int], view: Any) -> tuple[str, tuple[str, ...]]:
    """An answer as (label without the card's face, hints): what it was, not which card (or `none`); a seat as the
    role the view shows for it (`hidden`, `lord` …) and whether it is the asking seat itself."""
    if not answer:
        return "none", ()
    i = answer[0]
    tags = tuple(request.option_tags[i]) if i < len(request.option_tags) else ()
    seat = request.option_seats[i] if i < len(request.option_seats) else None
    if seat is not None:
        shown = next((q["role"] for q in view["players"] if q["seat"] == seat), "?")
        return ("itself" if seat == view["seat"] else f"a seat shown {shown}"), tags
    return _FACE.sub("", request.options[i]), tags


def request_of(request: Any) -> str:
    """The request's kind and prompt without seat labels and past its first colon: one row per kind of question."""
    prompt = request.prompt.split(":")[0] if not request.prompt.startswith("targets") else "targets"
    return f"{request.kind}: {_SEAT.sub('P', prompt)}"


def recorder(seed: int, budget: int, role: str | None) -> Any:
    """A search agent that keeps, for each decision it searches, both answers and their mean values."""
    from sgsdsl.ai.search import SearchAgent

    class Recorder(SearchAgent):
        def __init__(self) -> None:
            super().__init__(seed, budget)
            self.kept: list[dict[str, Any]] = []
            self._values: dict[tuple[int, ...], list[float]] = {}

        def play_out(self, handle, request, answer, world_rng, roles, seats) -> float:  # type: ignore[no-untyped-def]
            value = super().play_out(handle, request, answer, world_rng, roles, seats)
            self._values.setdefault(tuple(answer), []).append(value)
            return value

        def decide(self, request, view):  # type: ignore[no-untyped-def]
            if role is not None and view.get("role") != role:
                return self.policy.decide(request, view)
            self._values = {}
            chosen = super().decide(request, view)
            if self._values:  # (the heuristic's answer is always the first played out)
                default = next(iter(self._values))
                me = next(q for q in view["players"] if q["seat"] == view["seat"])
                row: dict[str, Any] = {"request": request_of(request), "role": view.get("role"), "hp": me["hp"],
                                       "general": me.get("general", "")}
                if tuple(chosen) != default and tuple(chosen) in self._values:
                    mean = {a: sum(v) / len(v) for a, v in self._values.items()}
                    row.update(left=True, heuristic=answer_of(request, default, view),
                               search=answer_of(request, chosen, view),
                               gain=round(mean[tuple(chosen)] - mean[default], 6))
                else:
                    row["left"] = False
                self.kept.append(row)
            return chosen

    return Recorder()


def play(task: tuple[str, int, int, int, str | None]) -> list[dict[str, Any]]:
    """One game: heuristic agents, and the search seat (or seats) of `recorder`; every searched decision."""
    from sgsdsl.api import check_paths, program_for
    from sgsdsl.cli.loading import rule_paths
    from sgsdsl.engine.game import Game
    from sgsdsl.sim import agent_seed, make_agents

    rules, players, seed, budget, role = task
    program = _programs.get(rules)
    if program is None:
        program = _programs[rules] = program_for(check_paths(rule_paths([], rules)), "compiled")
    agents = make_agents(("heuristic",), players, seed)
    seats = range(players) if role is not None else (seed % players,)
    for s in seats:
        agents[s] = recorder(agent_seed(seed, s), budget, role)
    Game(program, "identity", players, seed, agents).run()
    return [row for s in seats for row in agents[s].kept]


_programs: dict[str, Any] = {}


def summary(rows: list[dict[str, Any]], top: int) -> str:
    """The tables: per request, how often the search left the heuristic's answer; then the answers it left."""
    searched: Counter[str] = Counter()
    gains: defaultdict[str, list[float]] = defaultdict(list)
    pairs: defaultdict[tuple[str, str, str], list[float]] = defaultdict(list)
    for r in rows:
        searched[r["request"]] += 1
        if r["left"]:
            gains[r["request"]].append(r["gain"])
            h, s = r["heuristic"], r["search"]
            pairs[(r["request"], f"{h[0]} {list(h[1])}", f"{s[0]} {list(s[1])}")].append(r["gain"])
    left = sum(len(g) for g in gains.values())
    out = [f"{sum(searched.values())} decisions searched, the heuristic's answer left at {left}", "",
           f"{'searched':>8} {'left':>5} {'share':>6} {'gain':>8}  request"]
    for req, n in searched.most_common(top):
        g = gains[req]
        out.append(f"{n:8d} {len(g):5d} {len(g) / n:6.1%} {sum(g) / len(g) if g else 0.0:+8.4f}  {req}")
    out += ["", f"{'times':>5} {'gain':>8}  request: the heuristic's answer -> the search's"]
    for (req, h, s), g in sorted(pairs.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:top]:
        out.append(f"{len(g):5d} {sum(g) / len(g):+8.4f}  {req}: {h} -> {s}")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default=ALL_SETS, help="comma list of bundled rule sets (default: all six)")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1, help="first game's seed")
    ap.add_argument("--budget", type=int, default=32, help="the search seat's rollouts a decision")
    ap.add_argument("--role", default=None, help="a search seat in every seat of this role (default: one a game)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--top", type=int, default=30, help="rows of each table")
    ap.add_argument("--out", type=Path, default=None, help="also write every searched decision (JSON lines)")
    args = ap.parse_args(argv)
    if not 2 <= args.players <= 12 or args.games < 1 or not 1 <= args.budget <= 10_000 or args.jobs < 1:
        ap.error("--players 2..12, --games and --jobs at least 1, --budget 1..10000")
    tasks = [(args.rules, args.players, args.seed + i, args.budget, args.role) for i in range(args.games)]
    if args.jobs == 1:
        games = [play(t) for t in tasks]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            games = list(pool.map(play, tasks))
    rows = [row for game in games for row in game]
    if args.out is not None:
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(summary(rows, args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
