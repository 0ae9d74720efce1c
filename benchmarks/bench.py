#!/usr/bin/env python
"""Benchmark: compiled vs interpreted rules on the same seeded games, and the cost of `sgsdsl compile`.

Run from the repository root:

    python benchmarks/bench.py                      # 100 games of standard identity, 8 players
    python benchmarks/bench.py --games 300 --players 5 --rules rules/standard.sgs --mode identity
    python benchmarks/bench.py --json               # machine-readable figures

It plays the same seeded games (random agents, no event recording) with both back ends in one run —
games/s, turns/s, decisions/s and peak memory (tracemalloc, on a separate smaller pass so tracing does not
distort the timings) — then times compiling all bundled rules (rules/) split into parse, check and
generate, both cold (a fresh process: includes building the Lark parser) and warm (in process).
Design targets: compiled >= 5x interpreted on games/s; all bundled rules compile in under 1 s.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from sgsdsl.api import check_paths, interpreted_program  # noqa: E402
from sgsdsl.compiler.cache import compiled_program  # noqa: E402
from sgsdsl.compiler.project import compile_paths  # noqa: E402
from sgsdsl.engine.program import Frame  # noqa: E402
from sgsdsl.sim import play_one  # noqa: E402


def run_games(program, mode: str, players: int, games: int, seed: int) -> dict:
    turns = decisions = 0
    outcomes = []
    gc.collect()
    start = time.perf_counter()
    for i in range(games):
        g = play_one(program, mode, players, seed + i)
        turns += g.turns
        decisions += g.decisions
        outcomes.append(g.result)
    secs = time.perf_counter() - start
    return {"games": games, "seconds": secs, "turns": turns, "decisions": decisions, "outcomes": outcomes,
            "games_per_s": games / secs, "turns_per_s": turns / secs, "decisions_per_s": decisions / secs}


def peak_memory(program, mode: str, players: int, games: int, seed: int) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        for i in range(games):
            play_one(program, mode, players, seed + i)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


EXPR_FIELDS = {("UseRule", "limit"), ("UseRule", "filter"), ("TriggerRule", "condition"), ("ActiveRule", "limit"),
               ("ActiveRule", "condition"), ("ViewAsRule", "filter"), ("ProvideRule", "condition"),
               ("ModifierRule", "value"), ("ModifierRule", "condition"), ("ValueRule", "base"),
               ("ValueRule", "lower"), ("ValueRule", "upper")}


def expression_slots(program) -> list[tuple[object, str]]:
    """(rule object, field) of every pure rule function (conditions, filters, limits, values), in a fixed order."""
    out, seen, stack = [], set(), [program]
    while stack:
        o = stack.pop()
        if dataclasses.is_dataclass(o) and not isinstance(o, type):
            if id(o) in seen:
                continue
            seen.add(id(o))
            for f in dataclasses.fields(o):
                v = getattr(o, f.name)
                if (type(o).__name__, f.name) in EXPR_FIELDS and v is not None:
                    out.append((o, f.name))
                else:
                    stack.append(v)
        elif isinstance(o, (list, tuple)):
            stack.extend(reversed(o))
        elif isinstance(o, dict):
            stack.extend(reversed(list(o.values())))
    return out


def rule_eval_speed(programs: dict, mode: str, players: int, seed: int, reps: int = 20) -> dict:
    """Time only rule evaluation: capture real frames of pure rule functions during one game, then call the
    compiled and the interpreted function of each slot on the same frames (engine time excluded)."""
    comp, interp = (expression_slots(programs[k]) for k in ("compiled", "interpreted"))
    assert len(comp) == len(interp)
    samples: list[list] = [[] for _ in interp]
    originals = []
    for k, (obj, name) in enumerate(interp):
        fn = getattr(obj, name)
        originals.append((obj, name, fn))

        def spy(frame, fn=fn, k=k):
            if len(samples[k]) < 30:
                samples[k].append(Frame(frame.game, dict(frame.vars)))
            return fn(frame)
        setattr(obj, name, spy)
    try:
        for i in range(3):
            play_one(programs["interpreted"], mode, players, seed + i)
    finally:
        for obj, name, fn in originals:
            setattr(obj, name, fn)
    calls = []
    for k, frames in enumerate(samples):
        c_fn, i_fn = getattr(*comp[k]), getattr(*interp[k])
        for fr in frames:
            try:
                if c_fn(fr) == i_fn(fr):
                    calls.append((c_fn, i_fn, fr))
            except Exception:  # noqa: BLE001 - a frame from an earlier state may no longer evaluate
                pass
    times = {}
    for idx, label in ((0, "compiled"), (1, "interpreted")):
        start = time.perf_counter()
        for _ in range(reps):
            for call in calls:
                call[idx](call[2])
        times[label] = time.perf_counter() - start
    n = len(calls) * reps
    return {"calls": n, "slots": sum(1 for s in samples if s), "compiled_s": times["compiled"],
            "interpreted_s": times["interpreted"], "compiled_per_s": n / times["compiled"],
            "interpreted_per_s": n / times["interpreted"]}


def compile_times() -> dict:
    """Warm: in this process (parser already built). Cold: a fresh interpreter, as CI runs it."""
    rules = str(ROOT / "rules")
    warm = compile_paths([rules]).timings
    code = ("import json,sys,time;t=time.perf_counter();from sgsdsl.compiler.project import compile_paths;"
            "i=time.perf_counter()-t;r=compile_paths([sys.argv[1]]).timings;"
            "print(json.dumps([i,r.parse,r.check,r.generate]))")
    out = subprocess.run([sys.executable, "-c", code, rules], capture_output=True, text=True, check=True, cwd=ROOT)
    imp, parse, check, gen = json.loads(out.stdout)
    return {"warm": {"parse": warm.parse, "check": warm.check, "generate": warm.generate},
            "cold": {"import": imp, "parse": parse, "check": check, "generate": gen}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default=str(ROOT / "rules" / "standard.sgs"))
    ap.add_argument("--mode", default="identity")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--memory-games", type=int, default=10, help="games in the traced pass for peak memory")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    loaded = check_paths([args.rules])
    if not loaded.ok:
        print(f"{args.rules} does not check; run sgsdsl check {args.rules}")
        return 1
    programs = {"compiled": compiled_program(loaded), "interpreted": interpreted_program(loaded)}
    for p in programs.values():  # warm up imports and caches
        play_one(p, args.mode, args.players, args.seed)
    res = {name: run_games(p, args.mode, args.players, args.games, args.seed) for name, p in programs.items()}
    same = res["compiled"]["outcomes"] == res["interpreted"]["outcomes"] and \
        res["compiled"]["decisions"] == res["interpreted"]["decisions"]
    for name, p in programs.items():
        res[name]["peak_bytes"] = peak_memory(p, args.mode, args.players, args.memory_games, args.seed)
        del res[name]["outcomes"]
    evals = rule_eval_speed(programs, args.mode, args.players, args.seed)
    comp = compile_times()

    if args.json:
        print(json.dumps({"games": res, "same_games": same, "rule_evaluation": evals, "compile": comp}, indent=2))
        return 0
    c, i = res["compiled"], res["interpreted"]
    t = Table(title=f"{args.games} games · {Path(args.rules).name} · {args.mode} · {args.players} players · "
                    f"seed {args.seed}")
    t.add_column("metric")
    t.add_column("compiled", justify="right")
    t.add_column("interpreted", justify="right")
    t.add_column("compiled / interpreted", justify="right")
    for key, label in (("games_per_s", "games/s"), ("turns_per_s", "turns/s"), ("decisions_per_s", "decisions/s")):
        t.add_row(label, f"{c[key]:,.1f}", f"{i[key]:,.1f}", f"{c[key] / i[key]:.2f}x")
    t.add_row("wall time", f"{c['seconds']:.2f} s", f"{i['seconds']:.2f} s",
              f"{i['seconds'] / c['seconds']:.2f}x faster")
    t.add_row(f"peak memory ({args.memory_games} games, tracemalloc)", f"{c['peak_bytes'] / 2**20:.2f} MiB",
              f"{i['peak_bytes'] / 2**20:.2f} MiB", f"{c['peak_bytes'] / i['peak_bytes']:.2f}x")
    t.add_row("same games (results, decisions)", "yes" if same else "NO", "", "")
    t.add_row(f"rule evaluation only: calls/s ({evals['calls']:,} calls of {evals['slots']} pure rule functions)",
              f"{evals['compiled_per_s']:,.0f}", f"{evals['interpreted_per_s']:,.0f}",
              f"{evals['compiled_per_s'] / evals['interpreted_per_s']:.2f}x")
    console = Console()
    console.print(t)
    ct = Table(title="sgsdsl compile rules/ (all bundled rules)")
    ct.add_column("stage")
    ct.add_column("cold (fresh process)", justify="right")
    ct.add_column("warm (in process)", justify="right")
    ct.add_row("import sgsdsl", f"{comp['cold']['import'] * 1000:.0f} ms", "—")
    for stage in ("parse", "check", "generate"):
        ct.add_row(stage, f"{comp['cold'][stage] * 1000:.0f} ms", f"{comp['warm'][stage] * 1000:.0f} ms")
    cold_total = sum(comp["cold"][s] for s in ("parse", "check", "generate"))
    warm_total = sum(comp["warm"].values())
    ct.add_row("total (parse+check+generate)", f"{cold_total * 1000:.0f} ms", f"{warm_total * 1000:.0f} ms")
    console.print(ct)
    ratio = c["games_per_s"] / i["games_per_s"]
    console.print(f"targets: compiled >= 5x interpreted games/s: {ratio:.2f}x "
                  f"({'met' if ratio >= 5 else 'not met'}); compile < 1 s: {cold_total:.2f} s cold "
                  f"({'met' if cold_total < 1 else 'not met'})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
