#!/usr/bin/env python3
"""Every general's skills, each barred in turn: which skill the agents play worse than not at all (a misplay).

    python scripts/skill_sweep.py --rules standard,junzheng,lin,shan,feng,huo --players 8 --games 500 --out /tmp/sweep8
    python scripts/skill_sweep.py --rules standard --generals huanggai,zhugeliang --games 1000 --out /tmp/two

For each general of the rules it runs `sgsdsl balance GENERAL --each-skill --robust-agents none --json` (paired
seeds: the general with each skill, and with that skill barred) and keeps the JSON in OUT, one file a general, so
that a sweep stopped half way goes on where it stopped (a file already there is read, not played again: after a
change to the agents or the rules, use a new folder; one played with other players or seeds is refused). Then it
prints every skill's worth to its general over all roles, lowest first, with its 95% interval, and names the
skills worth significantly less than nothing. A skill worth less than nothing is either a drawback by design (崩坏:
compulsory) or a skill the agents misplay: each such row is worth a look at how the agent uses it (a well-played
optional skill is never worse than leaving it unused). A lord skill is only played by the lord, so its figure is
diluted by the other roles.

At 8 players, all six bundled sets, 500 games a general, the sweep takes about 15 minutes on 2 cores with the native
engine (`sgsdsl native status`). Exit 0 when every general was measured, 1 when a balance run failed (its error is
printed and kept in OUT as GENERAL.err).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class Worth:
    """One skill's worth to its general over all roles (points: win rate with it minus without it)."""

    general: str
    skill: str
    points: float
    low: float
    high: float
    significant: bool
    general_points: float  # the general against the baseline (the pool's average general)


def general_ids(rules: str) -> list[str]:
    """Every general the rule sets define, by id, in id order."""
    from sgsdsl.api import check_paths, program_for
    from sgsdsl.cli.loading import rule_paths

    loaded = check_paths(rule_paths([], rules))
    if not loaded.ok:
        raise SystemExit(f"the rules {rules} do not check: run `sgsdsl check` on them")
    return sorted(program_for(loaded, "compiled").generals)


def run_one(general: str, args: argparse.Namespace, out: Path) -> bool:
    """Play one general's balance run into OUT/GENERAL.json (written whole, or not at all)."""
    target = out / f"{general}.json"
    if target.is_file():
        kept = json.loads(target.read_text())
        if kept["settings"]["players"] != args.players or kept["seeds"] != [args.seed, args.seed + args.games - 1]:
            raise SystemExit(f"{target} was played with other settings ({kept['settings']['players']} players, "
                             f"seeds {kept['seeds'][0]}–{kept['seeds'][1]}): use another --out folder")
        return True
    cmd = [sys.executable, "-m", "sgsdsl", "balance", general, "--rules", args.rules, "--players", str(args.players),
           "--games", str(args.games), "--seed", str(args.seed), "--robust-agents", "none", "--each-skill",
           "--jobs", str(args.jobs), "--json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode != 0:
        (out / f"{general}.err").write_text(done.stderr)
        print(f"{general}: balance failed (exit {done.returncode}): {done.stderr.strip()[-300:]}", file=sys.stderr)
        return False
    partial = out / f"{general}.json.part"
    partial.write_text(done.stdout)
    partial.replace(target)
    return True


def worths(out: Path, generals: Sequence[str]) -> list[Worth]:
    """Each measured skill's worth, lowest first (ties by general and skill)."""
    rows = []
    for general in generals:
        path = out / f"{general}.json"
        if not path.is_file():
            continue
        result = json.loads(path.read_text())["results"][0]
        overall = result["overall"]["diff"]
        for skill, figures in result["restricted"].items():
            whole = next(f for f in figures if f["figure"] == "all roles")
            rows.append(Worth(general, skill, whole["diff"], whole["low"], whole["high"], whole["significant"],
                              overall))
    return sorted(rows, key=lambda w: (w.points, w.general, w.skill))


def report(rows: Sequence[Worth]) -> str:
    lines = [f"{'general':<20} {'skill':<14} {'worth':>7}  {'95% interval':<16} general"]
    for w in rows:
        mark = "  below zero" if w.significant and w.points < 0 else ""
        interval = f"{100 * w.low:+.1f}…{100 * w.high:+.1f}"
        lines.append(f"{w.general:<20} {w.skill:<14} {100 * w.points:+7.1f}  {interval:<16} "
                     f"{100 * w.general_points:+.1f}{mark}")
    below = [w for w in rows if w.significant and w.points < 0]
    lines.append(f"{len(rows)} skills measured; worth significantly less than nothing: "
                 + (", ".join(f"{w.skill} ({w.general})" for w in below) if below else "none"))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="standard,junzheng,lin,shan,feng,huo")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=500, help="paired seeds a general (each played once per arm)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--generals", default="", help="comma separated ids (default: every general of the rules)")
    ap.add_argument("--out", required=True, type=Path, help="folder of one JSON a general (made if missing)")
    args = ap.parse_args(argv)
    if args.players < 2 or args.games < 1 or args.jobs < 1:
        ap.error("--players must be at least 2, --games and --jobs at least 1")
    every = general_ids(args.rules)
    generals = [g for g in args.generals.split(",") if g] or every
    unknown = [g for g in generals if g not in every]
    if unknown:
        ap.error(f"no general {', '.join(unknown)} in the rules {args.rules}")
    args.out.mkdir(parents=True, exist_ok=True)
    ok = True
    for general in generals:
        ok = run_one(general, args, args.out) and ok
    print(report(worths(args.out, generals)))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
