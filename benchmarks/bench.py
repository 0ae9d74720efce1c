#!/usr/bin/env python
"""Benchmark: every performance figure of issue 15 in one run, against its target.

Run from the repository root (one core is enough; `nice` it on a shared machine):

    python benchmarks/bench.py                          # standard identity at 4, 5 and 8 players, 100 games each
    python benchmarks/bench.py --players 8 --games 300  # one table, more games
    python benchmarks/bench.py --profile 200            # also: the top functions of 200 compiled games
    python benchmarks/bench.py --baseline 2455900       # also: the last recorded run of that commit, side by side
    python benchmarks/bench.py --code /tmp/old-checkout # time another checkout's engine with this harness
    python benchmarks/bench.py --json                   # the record only

What it measures, all in one process except the cold starts:

- the same seeded games (random agents, no event recording) on the compiled and the interpreted engine,
  interleaved in chunks so that a busy machine slows both alike: games/s, turns/s and decisions/s per CPU second
  of this process (`time.process_time`, what one core delivers even when others compete for it; wall time too),
  and the compiled/interpreted ratio; and whether both engines played the same games;
- heuristic agents against random agents, compiled, CPU time per decision;
- memory: the bytes still held (tracemalloc, after a collection) after N and after 4N games on one program,
  and the peak while playing (flat means the retained memory does not grow with the number of games);
- cold start: `sgsdsl check rules/` and `sgsdsl compile rules/` in fresh processes, with the cache warm (the
  normal case: nothing changed, so stored results answer), with the stored results dropped but the parser's
  tables cached (every file edited), and with the cache empty, as wall time and the child's CPU time;
- rule evaluation alone: the pure rule functions (conditions, filters, limits, values) called on frames
  captured from real games, compiled against interpreted (engine time excluded).

Each run is appended as one JSON line (commit, machine, arguments, figures) to benchmarks/results.jsonl
(`--record PATH`, `--no-record`). No figure here is asserted anywhere: tests/test_bench.py only runs a tiny one.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import datetime
import gc
import io
import json
import os
import platform
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RECORD = ROOT / "benchmarks" / "results.jsonl"

TARGETS = {  # issue 15
    "games_per_s": 100.0,  # compiled, standard identity, 8 players, random agents, one core
    "turns_per_s": 5000.0,
    "ratio": 3.0,  # compiled / interpreted games/s (5.0 is the stretch)
    "ratio_stretch": 5.0,
    "check_cold_s": 0.3,
    "compile_cold_s": 1.0,
    "heuristic_per_decision": 2.0,  # heuristic / random CPU time per decision
    "memory_growth_bytes": 64 * 1024,  # retained after 4N games minus after N: "flat"
}


def _import_engine(code: Path) -> None:
    sys.path.insert(0, str(code))
    global check_paths, interpreted_program, compiled_program, compile_paths, Frame, play_one  # noqa: PLW0603
    from sgsdsl.api import check_paths, interpreted_program
    from sgsdsl.compiler.cache import compiled_program
    from sgsdsl.compiler.project import compile_paths
    from sgsdsl.engine.program import Frame
    from sgsdsl.sim import play_one


check_paths = interpreted_program = compiled_program = compile_paths = Frame = play_one = None  # set by _import_engine


# ------------------------------------------------------------------ games
def _settle() -> None:
    """What the balance lab does before a batch of games (sgsdsl.engine.collector.settle), spelled out here so that
    an older checkout timed with --code is timed the same way: one collection, then the collector leaves the loaded
    rules, parser and checked program alone."""
    gc.collect()
    gc.freeze()


def _chunk(program, mode: str, players: int, seeds: range, agents: tuple[str, ...] = ("random",),
           options: dict | None = None) -> dict:
    turns = decisions = 0
    outcomes = []
    c0, w0 = time.process_time(), time.perf_counter()
    for s in seeds:
        g = play_one(program, mode, players, s, options=options, agents=agents)
        turns += g.turns
        decisions += g.decisions
        outcomes.append((g.result, g.decisions))
    return {"cpu": time.process_time() - c0, "wall": time.perf_counter() - w0, "turns": turns,
            "decisions": decisions, "outcomes": outcomes}


def _rates(total: dict, games: int) -> dict:
    cpu, wall = total["cpu"], total["wall"]
    return {"games": games, "cpu_s": cpu, "wall_s": wall, "turns": total["turns"], "decisions": total["decisions"],
            "games_per_s": games / cpu, "turns_per_s": total["turns"] / cpu,
            "decisions_per_s": total["decisions"] / cpu, "wall_games_per_s": games / wall}


def engines_side_by_side(programs: dict, mode: str, players: int, games: int, seed: int, chunk: int = 10) -> dict:
    """The same seeds on each engine, alternating chunks of CHUNK games."""
    totals = {name: {"cpu": 0.0, "wall": 0.0, "turns": 0, "decisions": 0, "outcomes": []} for name in programs}
    for start in range(seed, seed + games, chunk):
        seeds = range(start, min(start + chunk, seed + games))
        for name, program in programs.items():
            got = _chunk(program, mode, players, seeds)
            for k in ("cpu", "wall", "turns", "decisions"):
                totals[name][k] += got[k]
            totals[name]["outcomes"] += got["outcomes"]
    out = {name: _rates(t, games) for name, t in totals.items()}
    first, *rest = totals.values()
    out["same_games"] = all(t["outcomes"] == first["outcomes"] for t in rest)
    out["ratio"] = out["compiled"]["games_per_s"] / out["interpreted"]["games_per_s"]
    return out


def heuristic_vs_random(program, mode: str, players: int, games: int, seed: int, chunk: int = 5) -> dict:
    """CPU time per decision with heuristic and with random agents on the same seeds, alternating chunks of CHUNK
    games so that a machine that speeds up or slows down meanwhile affects both alike."""
    totals = {kind: {"cpu": 0.0, "decisions": 0} for kind in ("random", "heuristic")}
    for start in range(seed, seed + games, chunk):
        for kind in totals:
            got = _chunk(program, mode, players, range(start, min(start + chunk, seed + games)), agents=(kind,))
            totals[kind]["cpu"] += got["cpu"]
            totals[kind]["decisions"] += got["decisions"]
    res: dict = {kind: {"games": games, "decisions": t["decisions"], "cpu_s": t["cpu"],
                        "us_per_decision": 1e6 * t["cpu"] / max(1, t["decisions"])} for kind, t in totals.items()}
    res["ratio"] = res["heuristic"]["us_per_decision"] / res["random"]["us_per_decision"]
    return res


def memory(program, mode: str, players: int, games: int, seed: int) -> dict:
    """Bytes still allocated after GAMES and after 4*GAMES games (kept Game objects dropped), and the peak."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        held = []
        for k, n in enumerate((games, 3 * games)):
            for i in range(n):
                play_one(program, mode, players, seed + k * games + i)
            gc.collect()
            held.append(tracemalloc.get_traced_memory()[0] - base)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return {"games": games, "retained_after_n": held[0], "retained_after_4n": held[1], "growth": held[1] - held[0],
            "peak": peak}


# ------------------------------------------------------------------ start-up
def _timed_child(args: list[str], env: dict, cwd: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, env=env, cwd=cwd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold_starts(code: Path, repeats: int = 3, rules: str = "rules/") -> dict:
    """Fresh `python -m sgsdsl check RULES` and `compile RULES -o TMP` (RULES: the checkout's own rules/ unless
    another folder is named): best of REPEATS with the cache warm, and once with an empty cache. Wall and CPU
    seconds of the child."""
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="sgsdsl-bench-") as tmp:
        # as an installed package runs: with its bytecode cached (pip writes .pyc files on install), here under
        # TMP so that the checkout stays clean, whatever PYTHONDONTWRITEBYTECODE the calling shell has
        env = {**os.environ, "PYTHONPATH": str(code), "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pyc")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        commands = {"check": [sys.executable, "-m", "sgsdsl", "check", rules],
                    "compile": [sys.executable, "-m", "sgsdsl", "compile", rules, "-o", str(Path(tmp) / "gen")]}
        for name, cmd in commands.items():
            empty = {**env, "SGSDSL_CACHE": str(Path(tmp) / f"empty-{name}")}
            wall_empty, cpu_empty = _timed_child(cmd, empty, code)
            warm = {**env, "SGSDSL_CACHE": str(Path(tmp) / "warm")}
            _timed_child(cmd, warm, code)  # fill the cache (and the .pyc files)
            runs = [_timed_child(cmd, warm, code) for _ in range(repeats)]
            # what a designer sees after editing every file: stored check/compile results gone, the parser's
            # tables still cached (the parsed files of an edit would be misses too: an upper bound)
            shutil.rmtree(Path(tmp) / "warm" / "results", ignore_errors=True)
            wall_fresh, cpu_fresh = _timed_child(cmd, warm, code)
            out[name] = {"wall_s": min(w for w, _ in runs), "cpu_s": min(c for _, c in runs),
                         "empty_cache_wall_s": wall_empty, "empty_cache_cpu_s": cpu_empty,
                         "no_results_wall_s": wall_fresh, "no_results_cpu_s": cpu_fresh}
    return out


# ------------------------------------------------------------------ rule evaluation alone
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
    """Capture real frames of pure rule functions during three games, then call the compiled and the interpreted
    function of each slot on the same frames."""
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
            except Exception:  # noqa: BLE001, S112 - a frame from an earlier state may no longer evaluate
                continue
    times = {}
    for idx, label in ((0, "compiled"), (1, "interpreted")):
        start = time.process_time()
        for _ in range(reps):
            for call in calls:
                call[idx](call[2])
        times[label] = max(time.process_time() - start, 1e-9)
    n = len(calls) * reps
    return {"calls": n, "slots": sum(1 for s in samples if s), "compiled_per_s": n / times["compiled"],
            "interpreted_per_s": n / times["interpreted"], "ratio": times["interpreted"] / times["compiled"]}


# ------------------------------------------------------------------ profile, record, machine
def profile_summary(program, mode: str, players: int, games: int, seed: int, top: int = 25) -> str:
    prof = cProfile.Profile()
    prof.enable()
    for i in range(games):
        play_one(program, mode, players, seed + i)
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).strip_dirs().sort_stats("tottime").print_stats(top)
    return buf.getvalue()


def machine() -> dict:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"cpu": model or platform.processor(), "cores": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "load_1min": load}


def commit_of(code: Path) -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=code, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "sgsdsl"], cwd=code, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("+dirty" if dirty else "")


def baseline_record(path: Path, commit: str) -> dict | None:
    """The last recorded run of COMMIT (a prefix) in the results file."""
    found = None
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if str(rec.get("commit", "")).startswith(commit):
                found = rec
    return found


# ------------------------------------------------------------------ the native engine
def worker(code: Path) -> int:
    """`bench.py --worker`: play the chunks asked on stdin (one JSON line each: engine, mode, players, first seed,
    count) and answer each with its CPU seconds, turns, decisions and a digest of the outcomes."""
    _import_engine(code)
    import hashlib

    try:
        from sgsdsl import native

        native_active = native.active()
    except ImportError:  # a checkout from before the native engine (the issue's own baseline, say)
        native_active = False
    loaded = check_paths([str(code / "rules" / "standard.sgs")])
    programs = {"compiled": compiled_program(loaded), "interpreted": interpreted_program(loaded)}
    _settle()
    print(json.dumps({"native": native_active}), flush=True)
    warm: set[tuple] = set()
    for line in sys.stdin:
        ask = json.loads(line)
        seeds = range(ask["seed"], ask["seed"] + ask["count"])
        # the mode's options (`ab.py --option KEY=VALUE`), typed as `simulate --option` types them
        options = _typed_options(programs[ask["engine"]], ask) if ask.get("options") else None
        key = (ask["engine"], ask["mode"], ask["players"], ask.get("agents", "random"), json.dumps(options))
        if key not in warm:  # one untimed game first: imports and first-call caches are not a side's cost
            warm.add(key)
            _chunk(programs[ask["engine"]], ask["mode"], ask["players"], range(ask["seed"], ask["seed"] + 1),
                   agents=(key[3],), options=options)
        got = _chunk(programs[ask["engine"]], ask["mode"], ask["players"], seeds,
                     agents=(ask.get("agents", "random"),), options=options)
        digest = hashlib.sha256(json.dumps(got["outcomes"], default=str).encode()).hexdigest()
        print(json.dumps({k: got[k] for k in ("cpu", "turns", "decisions")} | {"digest": digest}), flush=True)
    return 0


def _typed_options(program, ask: dict) -> dict:
    """The KEY=VALUE options of a worker's request, typed and checked against the mode as `sgsdsl simulate` does."""
    from sgsdsl.modes import check_setup, parse_assignments

    return check_setup(program, ask["mode"], ask["players"], parse_assignments(ask["options"]))


def spawn_worker(code: Path, native_flag: str, hash_seed: int | None = None) -> tuple[subprocess.Popen, bool]:
    """A long-lived `bench.py --worker` process timing CODE's engine (SGSDSL_NATIVE=NATIVE_FLAG), and whether it
    runs the native build. HASH_SEED fixes the worker's PYTHONHASHSEED: string hashing changes how dicts probe, and
    two processes of the same code differ by up to 3 % by that alone."""
    env = {**os.environ, "SGSDSL_NATIVE": native_flag, "PYTHONPATH": str(code)}
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = str(hash_seed)
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker", "--code", str(code)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=code)
    hello = proc.stdout.readline()
    if not hello:
        proc.wait()
        raise SystemExit(f"the benchmark worker for {code} did not start (exit code {proc.returncode})")
    return proc, bool(json.loads(hello)["native"])


def alternate(workers: dict, engines: tuple[str, ...], mode: str, players: int, games: int, seed: int,
              chunk: int = 5, agents: str = "random", options: list[str] | None = None) -> dict:
    """The same seeded games in every worker process, one chunk of CHUNK games at a time, worker after worker (the
    order turned round at every chunk, so neither side always goes first): a machine that speeds up or slows down
    meanwhile affects all alike. Totals per (worker, engine): CPU seconds, turns, decisions and outcome digests."""
    totals = {(w, e): {"cpu": 0.0, "turns": 0, "decisions": 0, "digests": []} for w in workers for e in engines}
    names = list(workers)
    try:
        for k, start in enumerate(range(seed, seed + games, chunk)):
            for engine in engines:
                for name in names if k % 2 == 0 else names[::-1]:
                    proc = workers[name]
                    ask = {"engine": engine, "mode": mode, "players": players, "seed": start,
                           "count": min(chunk, seed + games - start), "agents": agents}
                    if options:
                        ask["options"] = options
                    proc.stdin.write(json.dumps(ask) + "\n")
                    proc.stdin.flush()
                    line = proc.stdout.readline()
                    if not line:
                        raise SystemExit(f"the benchmark worker '{name}' stopped (see its error above)")
                    got = json.loads(line)
                    t = totals[(name, engine)]
                    t["cpu"] += got["cpu"]
                    t["turns"] += got["turns"]
                    t["decisions"] += got["decisions"]
                    t["digests"].append(got["digest"])
    finally:
        for proc in workers.values():
            proc.stdin.close()
            proc.wait()
    return totals


def rates_of(t: dict, games: int) -> dict:
    """games/s, turns/s and decisions/s per CPU second of one worker's totals."""
    return {"games_per_s": games / t["cpu"], "turns_per_s": t["turns"] / t["cpu"],
            "decisions_per_s": t["decisions"] / t["cpu"], "cpu_s": t["cpu"]}


def native_side_by_side(code: Path, mode: str, players: int, games: int, seed: int, chunk: int = 5) -> dict:
    """The same seeded games on the engine as Python and as the native build (`sgsdsl native build`, made here when
    missing), both back ends: two long-lived worker processes, alternating chunks of CHUNK games."""
    from sgsdsl import native

    if not native.status()[1]:
        print("building the native engine (sgsdsl native build) ...", file=sys.stderr)
        native.build()
    workers = {}
    for name, flag in (("python", "0"), ("native", "1")):
        workers[name], is_native = spawn_worker(code, flag)
        if is_native != (name == "native"):
            raise SystemExit(f"the {name} worker runs native={is_native}")
    engines = ("compiled", "interpreted")
    totals = alternate(workers, engines, mode, players, games, seed, chunk)
    out: dict = {"players": players, "games": games}
    for (name, engine), t in totals.items():
        out[f"{name}_{engine}"] = rates_of(t, games)
    out["same_games"] = all(totals[("python", e)]["digests"] == totals[("native", e)]["digests"] for e in engines)
    out["native_speedup_compiled"] = out["native_compiled"]["games_per_s"] / out["python_compiled"]["games_per_s"]
    out["native_compiled_vs_python_interpreted"] = (out["native_compiled"]["games_per_s"]
                                                   / out["python_interpreted"]["games_per_s"])
    return out


# ------------------------------------------------------------------ report
def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report(rec: dict, before: dict | None) -> str:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=io.StringIO(), width=150, record=True)
    f = rec["figures"]
    prev = before["figures"] if before else None
    for key, res in f["games"].items():
        t = Table(title=f"{res['compiled']['games']} games · {rec['args']['rules']} · {rec['args']['mode']} · "
                        f"{key} players · random agents · per CPU second · {_engine_kind(rec)}")
        for col in ("figure", "compiled", "interpreted", "compiled / interpreted"):
            t.add_column(col, justify="left" if col == "figure" else "right")
        if prev and key in prev.get("games", {}):
            t.add_column(f"before ({before['commit']}): compiled · ratio", justify="right")
        c, i = res["compiled"], res["interpreted"]
        old = prev["games"][key] if prev and key in prev.get("games", {}) else None
        for k, label in (("games_per_s", "games/s"), ("turns_per_s", "turns/s"), ("decisions_per_s", "decisions/s"),
                         ("wall_games_per_s", "games/s (wall clock)")):
            row = [label, f"{c[k]:,.1f}", f"{i[k]:,.1f}", f"{c[k] / i[k]:.2f}x"]
            if old:
                row.append(f"{old['compiled'][k]:,.1f} · {old['compiled'][k] / old['interpreted'][k]:.2f}x")
            t.add_row(*row)
        t.add_row("turns per game", f"{c['turns'] / c['games']:.1f}", f"{i['turns'] / i['games']:.1f}", "")
        t.add_row("same games (results, decisions)", "yes" if res["same_games"] else "NO", "", "")
        console.print(t)
    h, m, s, ev = f["heuristic"], f["memory"], f["startup"], f["rule_evaluation"]
    t = Table(title="agents, memory, start-up, rule evaluation")
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_row("random agents: CPU µs per decision (compiled)", f"{h['random']['us_per_decision']:.1f}")
    t.add_row("heuristic agents: CPU µs per decision (compiled)", f"{h['heuristic']['us_per_decision']:.1f}")
    t.add_row(f"memory held after {m['games']} games / {4 * m['games']} games (tracemalloc)",
              f"{m['retained_after_n'] / 1024:,.0f} KiB / {m['retained_after_4n'] / 1024:,.0f} KiB")
    t.add_row("memory peak while playing", f"{m['peak'] / 2**20:.2f} MiB")
    for name in ("check", "compile") if s else ():
        t.add_row(f"sgsdsl {name} rules/ cold, cache warm: wall · CPU",
                  f"{s[name]['wall_s'] * 1000:.0f} ms · {s[name]['cpu_s'] * 1000:.0f} ms")
        if "no_results_wall_s" in s[name]:
            t.add_row(f"sgsdsl {name} rules/ cold, stored results dropped (parser cached): wall · CPU",
                      f"{s[name]['no_results_wall_s'] * 1000:.0f} ms · {s[name]['no_results_cpu_s'] * 1000:.0f} ms")
        t.add_row(f"sgsdsl {name} rules/ cold, cache empty: wall · CPU",
                  f"{s[name]['empty_cache_wall_s'] * 1000:.0f} ms · {s[name]['empty_cache_cpu_s'] * 1000:.0f} ms")
    t.add_row(f"rule evaluation alone ({ev['calls']:,} calls, {ev['slots']} functions): compiled · interpreted",
              f"{ev['compiled_per_s']:,.0f}/s · {ev['interpreted_per_s']:,.0f}/s ({ev['ratio']:.2f}x)")
    console.print(t)
    nat = f.get("native")
    if nat:
        t = Table(title=f"{nat['games']} games · {nat['players']} players · the engine as Python and as the native "
                        "build (sgsdsl native build), per CPU second, two processes alternating")
        for col in ("figure", "Python engine", "native engine", "native / Python"):
            t.add_column(col, justify="left" if col == "figure" else "right")
        for engine in ("compiled", "interpreted"):
            a, b = nat[f"python_{engine}"], nat[f"native_{engine}"]
            for k, label in (("games_per_s", "games/s"), ("turns_per_s", "turns/s"),
                             ("decisions_per_s", "decisions/s")):
                t.add_row(f"{engine} rules: {label}", f"{a[k]:,.1f}", f"{b[k]:,.1f}", f"{b[k] / a[k]:.2f}x")
        t.add_row("native compiled / Python interpreted games/s", "", "",
                  f"{nat['native_compiled_vs_python_interpreted']:.2f}x")
        t.add_row("same games (results, decisions)", "yes" if nat["same_games"] else "NO", "", "")
        console.print(t)
    console.print(targets_table(rec))
    return console.export_text()


def _engine_kind(rec: dict) -> str:
    return "native engine" if rec.get("native_engine") else "Python engine"


def target_rows(rec: dict) -> list[tuple[str, str, str, bool]]:
    """(target, wanted, measured, met) for every target of issue 15."""
    f = rec["figures"]
    eight = f["games"].get("8")
    rows = []
    kind = _engine_kind(rec)
    if eight:
        c = eight["compiled"]
        rows.append((f"compiled games/s, 8 players, one core, {kind}", f">= {TARGETS['games_per_s']:.0f}",
                     f"{c['games_per_s']:.1f}", c["games_per_s"] >= TARGETS["games_per_s"]))
        rows.append((f"compiled turns/s, 8 players, one core, {kind}", f">= {TARGETS['turns_per_s']:.0f}",
                     f"{c['turns_per_s']:,.0f} ({c['decisions_per_s']:,.0f} decisions/s)",
                     c["turns_per_s"] >= TARGETS["turns_per_s"]))
        rows.append((f"compiled / interpreted games/s, 8 players, {kind}", f">= {TARGETS['ratio']:.0f}x "
                     f"(stretch {TARGETS['ratio_stretch']:.0f}x)", f"{eight['ratio']:.2f}x",
                     eight["ratio"] >= TARGETS["ratio"]))
    nat = f.get("native")
    if nat:
        c = nat["native_compiled"]
        rows.append((f"compiled games/s, {nat['players']} players, native engine", f">= {TARGETS['games_per_s']:.0f}",
                     f"{c['games_per_s']:.1f} ({c['turns_per_s']:,.0f} turns/s; Python engine in the same run "
                     f"{nat['python_compiled']['games_per_s']:.1f})", c["games_per_s"] >= TARGETS["games_per_s"]))
    s = f["startup"]
    if s:
        rows.extend(_startup_rows(s))
    m = f["memory"]
    rows.append(("memory flat in the number of games", f"growth <= {TARGETS['memory_growth_bytes'] // 1024} KiB",
                 f"{m['growth'] / 1024:+,.0f} KiB from {m['games']} to {4 * m['games']} games",
                 m["growth"] <= TARGETS["memory_growth_bytes"]))
    h = f["heuristic"]
    rows.append(("heuristic / random CPU per decision", f"<= {TARGETS['heuristic_per_decision']:.0f}x",
                 f"{h['ratio']:.2f}x", h["ratio"] <= TARGETS["heuristic_per_decision"]))
    return rows


def _startup_rows(s: dict) -> list[tuple[str, str, str, bool]]:
    rows = []
    for name, target in (("check", TARGETS["check_cold_s"]), ("compile", TARGETS["compile_cold_s"])):
        got = s[name]
        dropped = (f"results dropped {got['no_results_cpu_s']:.2f} s; " if "no_results_cpu_s" in got else "")
        rows.append((f"sgsdsl {name} rules/ cold (cache warm, CPU)", f"<= {target} s",
                     f"{got['cpu_s']:.2f} s (wall {got['wall_s']:.2f} s; {dropped}empty cache "
                     f"{got['empty_cache_cpu_s']:.2f} s)", got["cpu_s"] <= target))
    return rows


def targets_table(rec: dict):
    from rich.table import Table

    t = Table(title="issue 15 targets")
    for col in ("target", "wanted", "measured", "status"):
        t.add_column(col)
    for name, want, got, ok in target_rows(rec):
        t.add_row(name, want, got, _verdict(ok))
    return t


# ------------------------------------------------------------------ main
def run(args: argparse.Namespace) -> dict:
    code = Path(args.code).resolve()
    loaded = check_paths([args.rules])
    if not loaded.ok:
        raise SystemExit(f"{args.rules} does not check; run sgsdsl check {args.rules}")
    programs = {"compiled": compiled_program(loaded), "interpreted": interpreted_program(loaded)}
    _settle()
    first = args.players[0]
    for p in programs.values():  # warm up imports and caches
        play_one(p, args.mode, first, args.seed)
    games = {str(n): engines_side_by_side(programs, args.mode, n, args.games, args.seed) for n in args.players}
    big = 8 if 8 in args.players else first
    figures = {
        "games": games,
        "heuristic": heuristic_vs_random(programs["compiled"], args.mode, big, args.heuristic_games, args.seed),
        "memory": memory(programs["compiled"], args.mode, big, args.memory_games, args.seed),
        "startup": None if args.no_startup else cold_starts(code, repeats=args.startup_repeats),
        "rule_evaluation": rule_eval_speed(programs, args.mode, big, args.seed, reps=args.eval_reps),
        "native": (native_side_by_side(code, args.mode, big, args.native, args.seed) if args.native else None),
    }
    rec = {"time": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
           "commit": commit_of(code), "machine": machine(), "native_engine": _native_active(),
           "args": {"rules": Path(args.rules).name, "mode": args.mode, "players": args.players, "games": args.games,
                    "seed": args.seed},
           "figures": figures}
    rec["targets"] = {name: {"wanted": want, "measured": got, "met": ok} for name, want, got, ok in target_rows(rec)}
    if args.profile:
        rec["profile"] = profile_summary(programs["compiled"], args.mode, big, args.profile, args.seed)
    return rec


def _native_active() -> bool:
    """Whether the games timed in this process ran the native build (older checkouts have none)."""
    try:
        from sgsdsl import native
    except ImportError:
        return False
    return native.active()


def _count(least: int):
    """An argparse type: a whole number of at least LEAST (a count of games, players or repeats)."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < least:
            raise argparse.ArgumentTypeError(f"{n} is too small: at least {least}")
        return n
    return parse


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--code", default=str(ROOT), help="the checkout whose sgsdsl is timed (default: this one)")
    ap.add_argument("--rules", default=None, help="default: CODE/rules/standard.sgs")
    ap.add_argument("--mode", default="identity")
    ap.add_argument("--players", type=_count(2), nargs="+", default=[4, 5, 8])
    ap.add_argument("--games", type=_count(1), default=100, help="games per engine and player count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--heuristic-games", type=_count(1), default=40)
    ap.add_argument("--memory-games", type=_count(1), default=10, help="N: memory held after N and 4N games")
    ap.add_argument("--startup-repeats", type=_count(1), default=3)
    ap.add_argument("--no-startup", action="store_true", help="skip the cold-start processes")
    ap.add_argument("--eval-reps", type=_count(1), default=20)
    ap.add_argument("--profile", type=_count(0), default=0, metavar="GAMES", help="profile this many compiled games")
    ap.add_argument("--baseline", default=None, metavar="COMMIT", help="show the last recorded run of COMMIT")
    ap.add_argument("--record", default=str(DEFAULT_RECORD), help="append the run as a JSON line here")
    ap.add_argument("--no-record", action="store_true")
    ap.add_argument("--json", action="store_true", help="print the record as JSON instead of tables")
    ap.add_argument("--native", type=_count(0), default=0, metavar="GAMES",
                    help="also: GAMES games on the engine as Python and as the native build, side by side")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.rules is None:
        args.rules = str(Path(args.code).resolve() / "rules" / "standard.sgs")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        return worker(Path(args.code).resolve())
    _import_engine(Path(args.code).resolve())
    rec = run(args)
    if not args.no_record:
        with open(args.record, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({k: v for k, v in rec.items() if k != "profile"}, ensure_ascii=False) + "\n")
    if args.json:
        print(json.dumps(rec, indent=2, ensure_ascii=False))
    else:
        before = baseline_record(Path(args.record), args.baseline) if args.baseline else None
        print(report(rec, before))
        if args.baseline and before is None:
            print(f"(no recorded run of {args.baseline} in {args.record})")
        if "profile" in rec:
            print(f"profile of {args.profile} compiled games (top functions by own time):")
            print(rec["profile"])
    return 0 if all(g["same_games"] for g in rec["figures"]["games"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
