#!/usr/bin/env python3
"""Runtime fuzz campaign: generated well-typed rules, each played for a game on both engines.

    python scripts/fuzz_runtime.py --inputs 500 [--seed 1] [--players 4] [--keep DIR]
    python scripts/fuzz_runtime.py --inputs 500 --both-builds     # also: the native build against the Python engine

Each input is the bundled test rules (tests/fixtures/mini.sgs) plus random `rule` triggers and random generals with
random skills, built from the registry's vocabulary (timings and their event fields, actions and functions with
arguments of the declared types, and `modify` clauses on the engine's values, what cards count as among them), and
random cards: basic cards, tricks and delayed tricks with use clauses of every target kind, filters, limits, clause
effects, recasts and hooks, whose effects read the names the card binds (user, target, targets, card, use) where the
compiler proves them bound and where it does not. Inputs the checker refuses are counted and skipped (the campaign
is about well-typed rules). Every accepted input is played for one game on the interpreter and on the compiled code:
a game may end by the rules, by the round cap, or with a located engine error (a rule error naming the `.sgs` line);
anything else — a Python traceback, an unlocated error, a located error that is only a Python exception from inside
a primitive (`….sgs:3: AttributeError: …`), the two engines disagreeing, an input over --limit seconds of CPU — is a
failure, printed with its input (and written to --keep). The expressions include huge ranges (`1..1000000000`,
comprehensions and `for` walks over them), so budgets and list limits are exercised too. Exit status 0 when nothing
failed.

`--both-builds` runs the same campaign twice, in a process on the native build (`sgsdsl native build` first) and in
one on the Python engine, and compares every input's outcome (result or rule error, and the number of decisions):
the native build must play the same games, also for rules nobody would write (a typed engine function that refuses
a none where the Python one carries on shows up here, and only here). `--outcomes FILE` writes one line per input.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgsdsl.api import check_paths  # noqa: E402
from sgsdsl.compiler.codegen import generate_module  # noqa: E402
from sgsdsl.engine import registry as reg  # noqa: E402
from sgsdsl.engine.agents import RandomAgent  # noqa: E402
from sgsdsl.engine.errors import EngineError  # noqa: E402
from sgsdsl.engine.game import Game  # noqa: E402
from sgsdsl.interp.build import build_program  # noqa: E402

MINI = ROOT / "tests" / "fixtures" / "mini.sgs"
PYTHON_ERROR = re.compile(r"\.sgs:\d+(?::\d+)?: [A-Z]\w*(Error|Exception)\b")
INPUT_PATH = re.compile(r"\S*/(in\d+\.sgs)")  # an input's file as a message names it (in a temporary folder)
CARDS = ["杀", "闪", "桃", "无中生有", "无懈可击", "乐不思蜀"]
# Expressions per type, for a scope where `owner` (a player) may be bound. `{P}` is replaced by a player.
POOL: dict[str, list[str]] = {
    "player": ["owner", "current()", "next_alive(owner)", "first(others(owner))", "first(players())"],
    "players": ["players()", "others(owner)", "all_players()", "[owner]", "wounded(players())"],
    "int": ["0", "1", "2", "3", "count(hand(owner))", "owner.hp", "player_count()", "owner.max_hp - owner.hp",
            "mark_value(owner, \"n\")", "-1", "1000000000"],
    "card": ["first(hand(owner))", "first(top_cards(1))", "first(cards_of(owner))", "equip_in(owner, weapon)"],
    "cards": ["hand(owner)", "top_cards(2)", "equips(owner)", "judge_cards(owner)", "cards_of(owner)", "[]"],
    "bool": ["true", "false", "owner.alive", "is_wounded(owner)"],
    "str": ["\"n\"", "\"x\"", "owner.name"],
    "family": CARDS,
    "suit": ["♠", "♥", "♣", "♦"],
    "nature": ["normal", "fire", "thunder"],
    "phase": ["prepare", "judge", "draw", "play", "discard", "finish"],
    "role": ["lord", "loyalist", "rebel", "renegade"],
    "category": ["basic", "trick", "weapon", "armor"],
    "color": ["red", "black"],
    "list": ["players()", "hand(owner)", "[1, 2]", "1..3", "1..1000000000", "[i for i in 1..1000000000 if i < 0]",
             "[q for q in players() if q.hp > 1]"],
    "any": ["1", "owner", "none", "\"v\"", "1..1000000000"],
    "gender": ["male", "female"],
    "kingdom": ["\"魏\"", "\"蜀\""],
    # conditions on a card (`judge(…, hoping: …)`): run later, once per card an agent is asked about
    "card_test": ["it.suit == ♥", "it.color == red and owner.hp > 1", "not (it.suit == ♠ and it.rank in 2..9)",
                  "it is 杀", "holder_of(it) == owner", "count(hand(owner)) > it.rank"],
}
SKIP = {"take_turn", "supply", "winners", "is_winner", "deal_roles", "win"}  # need a special place
CONTEXT_FREE = [p for p in reg.PRIMITIVES.values() if not p.contexts and p.name not in SKIP]


def expr(rng: random.Random, typ: str, event_fields: dict[str, str], depth: int = 0) -> str | None:
    """A random expression of type `typ`, or None when none is known."""
    options = list(POOL.get(typ, []))
    options += [f"event.{f}" for f, t in event_fields.items() if t == typ and not f.startswith("_")]
    if typ == "int" and depth < 2 and rng.random() < 0.2:
        a, b = expr(rng, "int", event_fields, depth + 1), expr(rng, "int", event_fields, depth + 1)
        return f"({a} {rng.choice('+-*')} {b})"
    return rng.choice(options) if options else None


def call(rng: random.Random, prim: reg.Primitive, event_fields: dict[str, str]) -> str | None:
    args = []
    for p in prim.params:
        if not p.required and rng.random() < 0.6:
            continue
        e = expr(rng, p.type, event_fields)
        if e is None:
            if p.required:
                return None
            continue
        args.append(e if p.required and len(args) == prim.params.index(p) else f"{p.name}: {e}")
    return f"{prim.name}({', '.join(args)})"


def stmt(rng: random.Random, event_fields: dict[str, str], depth: int = 0) -> str:
    roll = rng.random()
    timing = event_fields.get("__timing__", "")
    if depth < 2 and roll < 0.12:
        return f"if {expr(rng, 'bool', event_fields)} {{ {block(rng, event_fields, depth + 1)} }}"
    if depth < 2 and roll < 0.2:
        return f"for x in {expr(rng, 'players', event_fields)} {{ {block(rng, event_fields, depth + 1)} }}"
    if depth < 2 and roll < 0.25:
        return f"repeat {rng.randint(0, 3)} {{ {block(rng, event_fields, depth + 1)} }}"
    if depth < 2 and roll < 0.27:  # a walk over a huge range: the step budget (or a break) must end it
        return f"for i in 1..1000000000 {{ if i > {rng.choice([3, 10 ** 6])} {{ break }} }}"
    mutable = sorted(f for f in reg.TIMINGS[timing].mutable if f in event_fields) if timing in reg.TIMINGS else []
    if roll < 0.3 and mutable:
        f = rng.choice(mutable)
        value = expr(rng, event_fields[f], event_fields)
        if value is not None:
            return f"event.{f} = {value}"
    for _ in range(10):
        c = call(rng, rng.choice(CONTEXT_FREE), event_fields)
        if c is not None:
            return c
    return "log(\"nothing\")"


def block(rng: random.Random, event_fields: dict[str, str], depth: int = 0) -> str:
    return "  ".join(stmt(rng, event_fields, depth) for _ in range(rng.randint(1, 3)))


def trigger(rng: random.Random) -> tuple[str, dict[str, str]]:
    tm = rng.choice(list(reg.TIMINGS.values()))
    fields = dict(tm.fields)
    fields["__timing__"] = tm.name
    return tm.name, fields


def modifier(rng: random.Random) -> str:
    """A random `modify` clause on an engine value — distances, ranges, limits, and what cards count as (their
    suit, colour or name: a card used as what it counted as in the hand is the path this exercises)."""
    spec = rng.choice(list(reg.ENGINE_VALUES.values()))
    names = [f"x{k}" for k in range(len(spec.params))]
    conds = ["true"]
    for name, typ in zip(names, spec.param_types, strict=True):
        if typ == "player":
            conds += [f"{name} == owner", f"{name} != owner", f"{name}.hp > 1"]
        elif typ == "card":
            conds += [f"holder_of({name}) == owner", f'zone_of({name}) == "hand"',
                      f"{name}.suit == {rng.choice('♠♥♣♦')}"]
    cond = " and ".join(rng.sample(conds, rng.randint(1, min(2, len(conds)))))
    if spec.type == "int":
        change = f"by {expr(rng, 'int', {})}"
    elif spec.type in ("suit", "color"):
        change = f"to {rng.choice(POOL[spec.type])}"
    elif spec.type == "str":
        change = f"to {rng.choice(CARDS)}"
    else:
        change = f"to {expr(rng, 'bool', {})}"
    return f"modify {spec.name}({', '.join(names)}) {change} where {cond}"


# What a card's target filter may test: `it` is the candidate, `user` the card's user.
TARGET_FILTERS = ["it.hp > 1", "is_wounded(it)", "in_attack_range(user, it)", "count(cards_of(it)) > 0",
                  "distance(user, it) <= 1", "it != user", "card.suit == ♠", "user.hp >= it.hp"]
RECAST_BODIES = ["draw(user, 1)", "log(card.name)", "mark(user, \"n\")", "damage(user, 1, card: card)"]
TARGET_KINDS = ["self", "one", "one other", "1..2", "1..2 other", "all", "all other", "none"]
# Statements only a card's effect can make: the names its definition binds (user, target, targets, card, use).
CARD_STATEMENTS = ["draw(user, 1)", "damage(target, 1, source: user, card: card)", "mark(use, \"n\")",
                   "if has_mark(use, \"n\") { draw(target, 1) }", "recover(target, 1, source: user, card: card)",
                   "discard(card)", "let j = judge(target, card)  if j.suit == ♥ { draw(target, 1) }",
                   "for t in targets { log(t.name) }", "log(card.name)", "skip_phase(target, play)"]


def card_block(rng: random.Random) -> str:
    """A card effect's body: the generic statements with `owner` read as the user or the target, and the card's
    own names (a delayed trick's judgement has no user, a targetless clause no target, a recast no use)."""
    parts = [rng.choice(CARD_STATEMENTS) for _ in range(rng.randint(1, 2))]
    if rng.random() < 0.5:
        parts.append(block(rng, {}).replace("owner", rng.choice(["user", "target"])))
    return "  ".join(parts)


def card_def(rng: random.Random, n: int, i: int) -> str:
    """A random card: its category, copies, use clauses (context, limit, target kind, filter, an effect of their
    own), a recast clause, a shared effect and hooks — what the compiler's effect proofs reason about."""
    category = rng.choice(["basic", "trick", "delayed"])
    faces = " ".join(f"{rng.choice('♠♥♣♦')}{rng.choice(['A', '2', '5', '9', '10', 'J', 'K'])}"
                     for _ in range(rng.randint(2, 5)))
    lines = [f"card 卡{n}_{i} k{n}_{i} : {category} {{", f"  copies {faces}"]
    for _ in range(rng.randint(1, 2)):
        kind = rng.choice(["self", "one other"] if category == "delayed" else TARGET_KINDS)
        limit = f" limit {rng.choice(['1', '2', 'slash_limit(user)'])} per {rng.choice(['phase', 'turn'])}" \
            if rng.random() < 0.3 else ""
        where = f" where {rng.choice(TARGET_FILTERS)}" if kind != "none" and rng.random() < 0.5 else ""
        own = f" {{ {card_block(rng)} }}" if category != "delayed" and rng.random() < 0.3 else ""
        lines.append(f"  use play{limit} target {kind}{where}{own}")
    if category == "trick" and rng.random() < 0.4:
        lines.append(f"  use recast {{ {rng.choice(RECAST_BODIES)} }}")
    if category == "basic" and rng.random() < 0.3:
        lines.append("  use dying target one")
    lines.append(f"  effect {{ {card_block(rng)} }}")
    if rng.random() < 0.3:
        lines.append(f"  on {rng.choice(['nullified', 'prepare', 'finish'])} {{ {rng.choice(CARD_STATEMENTS)} }}")
    return "\n".join(lines) + "\n}"


def make_input(rng: random.Random, n: int) -> str:
    parts = [f'import "{MINI.as_posix()}"']
    for i in range(rng.randint(1, 3)):
        name, fields = trigger(rng)
        body = block(rng, fields).replace("owner", "current()")
        parts.append(f"rule 规{n}_{i} r{n}_{i} {{\n  on {name} {{ {body} }}\n}}")
    for i in range(rng.randint(0, 3)):
        skills = []
        for j in range(rng.randint(1, 2)):
            name, fields = trigger(rng)
            opt = " optional" if rng.random() < 0.3 else ""
            skills.append(f"  skill 技{n}_{i}_{j} s{n}_{i}_{j} {{ on {name}{opt} {{ {block(rng, fields)} }} }}")
        if rng.random() < 0.4:
            skills.append(f"  skill 改{n}_{i} m{n}_{i} locked {{ {modifier(rng)} }}")
        parts.append(f"general 将{n}_{i} g{n}_{i} : 魏 male {rng.randint(1, 5)} {{\n" + "\n".join(skills) + "\n}")
    for i in range(rng.randint(0, 2)):
        parts.append(card_def(rng, n, i))
    return "\n".join(parts) + "\n"


def load_compiled(loaded: Any, tmp: Path, n: int) -> Any:
    gen = generate_module(loaded.checked, loaded.sources)
    py = tmp / f"fuzz_gen_{n}.py"
    py.write_text(gen.text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(py.stem, py)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.build_program()


def play(prog: Any, seed: int, players: int) -> tuple[str, str]:
    """('ok', result) | ('error', located message) — anything else raises."""
    agents = [RandomAgent(seed * 31 + i) for i in range(players)]
    game = Game(prog, "identity", players, seed, agents, round_cap=8)
    try:
        game.run()
    except EngineError as err:
        text = " ".join([str(err), *getattr(err, "__notes__", [])])
        if ".sgs:" not in text:
            raise AssertionError(f"unlocated engine error: {text}") from err
        if PYTHON_ERROR.search(text):  # located, but a Python error leaking out of a primitive, not a rule error
            raise AssertionError(f"a raw Python error: {text}") from err
        return "error", f"{err} (after {game.decisions} decisions)"
    return "ok", f"{game.result!r} (after {game.decisions} decisions)"


def both_builds(argv: list[str]) -> int:
    """The campaign on the native build and on the Python engine, in a process each; every outcome compared."""
    from sgsdsl import native

    if not native.status()[1]:
        print("--both-builds needs a native build of this engine: run `sgsdsl native build` first")
        return 2
    rest = [a for a in argv if a != "--both-builds"]
    with tempfile.TemporaryDirectory() as tmp:
        outcomes, codes = [], []
        for flag in ("1", "0"):
            out = Path(tmp) / f"native{flag}.txt"
            done = subprocess.run([sys.executable, __file__, *rest, "--outcomes", str(out)], check=False,
                                  env={**os.environ, "SGSDSL_NATIVE": flag})
            codes.append(done.returncode)
            outcomes.append(out.read_text(encoding="utf-8").splitlines() if out.exists() else [])
    engines = [o[0] if o else "" for o in outcomes]
    if engines != ["engine\tnative", "engine\tpython"]:
        print(f"the two runs did not run the native build and the Python engine: {engines}")
        return 2
    differ = [(a, b) for a, b in zip(outcomes[0][1:], outcomes[1][1:], strict=False) if a != b]
    for a, b in differ:
        print(f"--- native and Python engines differ:\n  native: {a}\n  python: {b}")
    print(f"native build against the Python engine: {min(map(len, outcomes)) - 1} inputs compared, "
          f"{len(differ)} differ")
    return 1 if differ or any(codes) or len(outcomes[0]) != len(outcomes[1]) else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=500, help="generated inputs (default 500)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4, choices=(4, 5))
    ap.add_argument("--keep", type=Path, default=None,
                    help="write each failing input, and the slowest one, into this folder")
    ap.add_argument("--limit", type=float, default=20.0,
                    help="seconds of CPU one input (check + a game on each engine) may take (default 20)")
    ap.add_argument("--outcomes", type=Path, default=None, help="write each input's outcome, a line each, here")
    ap.add_argument("--both-builds", action="store_true",
                    help="run on the native build and on the Python engine, and compare every outcome")
    args = ap.parse_args(argv)
    if args.both_builds:
        return both_builds(list(sys.argv[1:] if argv is None else argv))
    from sgsdsl import native

    lines = [f"engine\t{'native' if native.active() else 'python'}"]  # (which engine this process runs)
    rng = random.Random(args.seed)
    counts = {"refused": 0, "ok": 0, "error": 0, "failed": 0}
    start = time.monotonic()
    slowest = slowest_cpu = 0.0
    slowest_input = (-1, "")  # (number, text) of the input that took the most CPU: where a budget is weakest
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        sys.path.insert(0, tmp_name)
        for n in range(args.inputs):
            text = make_input(rng, n)
            path = tmp / f"in{n}.sgs"
            path.write_text(text, encoding="utf-8")
            t0, cpu0 = time.monotonic(), time.process_time()
            try:
                loaded = check_paths([str(path)])
                if not loaded.ok:
                    counts["refused"] += 1
                    lines.append(f"{n}\trefused")
                    continue
                results = [play(build_program(loaded.checked), n, args.players),
                           play(load_compiled(loaded, tmp, n), n, args.players)]
                if results[0] != results[1]:
                    raise AssertionError(f"engines disagree: interpreted {results[0]} vs compiled {results[1]}")
                counts[results[0][0]] += 1
                lines.append(f"{n}\t{results[0][0]}\t" + INPUT_PATH.sub(r"\1", results[0][1]))
                if time.process_time() - cpu0 > args.limit:
                    raise AssertionError(f"input took {time.process_time() - cpu0:.1f} s of CPU (limit {args.limit:g})")
            except Exception:  # noqa: BLE001 - every failure is reported with its input
                counts["failed"] += 1
                lines.append(f"{n}\tfailed")
                print(f"--- input {n} FAILED:\n{text}\n{traceback.format_exc()}")
                if args.keep is not None:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"fail_{args.seed}_{n}.sgs").write_text(text, encoding="utf-8")
            slowest = max(slowest, time.monotonic() - t0)
            if time.process_time() - cpu0 > slowest_cpu:
                slowest_cpu = time.process_time() - cpu0
                slowest_input = (n, text)
    secs = time.monotonic() - start
    if args.outcomes is not None:
        args.outcomes.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    played = counts["ok"] + counts["error"]
    print(f"{args.inputs} inputs in {secs:.1f} s (slowest {slowest:.1f} s, {slowest_cpu:.1f} s CPU): {played} played "
          f"on both engines "
          f"({counts['ok']} ended by the rules or the round cap, {counts['error']} with a located rule error), "
          f"{counts['refused']} refused by the checker, {counts['failed']} failed")
    if slowest_input[0] >= 0:
        where = ""
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            kept = args.keep / f"slowest_{args.seed}_{slowest_input[0]}.sgs"
            kept.write_text(slowest_input[1], encoding="utf-8")
            where = f", kept as {kept}"
        print(f"slowest input: number {slowest_input[0]} of --seed {args.seed} ({slowest_cpu:.1f} s CPU{where}; "
              f"the same --seed and --inputs regenerate it)")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
