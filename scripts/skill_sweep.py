#!/usr/bin/env python3
"""Every general's skills, each barred in turn: which skill the agents play worse than not at all (a misplay).

    python scripts/skill_sweep.py --rules standard,junzheng,lin,shan,feng,huo --players 8 --games 500 --out /tmp/sweep8
    python scripts/skill_sweep.py --rules standard --generals huanggai,zhugeliang --games 1000 --out /tmp/two
    python scripts/skill_sweep.py designs/my_generals.sgs --players 5 --games 2000 --out /tmp/mine

For each general of the rules it runs `sgsdsl balance GENERAL --each-skill --robust-agents none --json` (paired
seeds: the general with each skill, and with that skill barred) and keeps the JSON in OUT, one file a general, so
that a sweep stopped half way goes on where it stopped (a file already there is read, not played again: after a
change to the agents or the rules, use a new folder; one played with other players or seeds is refused). Then it
prints every skill's worth to its general over all roles, lowest first, with its 95% interval, and names the
skills worth significantly less than nothing. A skill worth less than nothing is either a drawback by design (崩坏:
compulsory) or a skill the agents misplay: each such row is worth a look at how the agent uses it (a well-played
optional skill is never worse than leaving it unused). A lord skill is only played by the lord, so its figure is
diluted by the other roles.

Given a designer's own rules files (FILES, which import the bundled sets they build on), it sweeps the generals those
files define, each played from them (`sgsdsl balance GENERAL FILES…`): before a design is weighed, whether the agents
play every one of its skills at least as well as not at all.

With 95% intervals, about one skill in forty falls below zero by chance alone (100 skills: two or three), so a
row named is a place to look, not yet a finding. `--confirm GAMES` plays each named row again on fresh seeds (the
ones after the sweep's: disjoint), `balance GENERAL --without SKILL`, and says whether it is below zero again; the
JSON of each is kept in OUT as GENERAL.SKILL.confirm.json. At 5 players (all six sets, 500 games, seeds 1-500) the
sweep named 崩坏, 强袭, 驱虎 and 苦肉; 2,000 fresh seeds each (501-2500) put them at -17.2 (a drawback by design),
-1.6, -1.4 and +0.1: only 崩坏 below zero again.

    python scripts/skill_sweep.py --players 5 --games 500 --confirm 2000 --out /tmp/sweep5

At 8 players, all six bundled sets, 500 games a general, the sweep takes about 15 minutes on 2 cores with the native
engine (`sgsdsl native status`); a confirmation of 2,000 games about 30 seconds. Exit 0 when every general (and
every confirmation) was measured, 1 when a balance run failed (its error is printed and kept in OUT as GENERAL.err).
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


def general_ids(rules: str, files: Sequence[str] = ()) -> list[str]:
    """Every general the rule sets define, by id, in id order; given designer FILES, the generals they define."""
    from sgsdsl.api import bundled_rules_dir, check_paths, program_for
    from sgsdsl.cli.loading import rule_paths
    from sgsdsl.lab.variant import designer_generals

    loaded = check_paths(list(files) if files else rule_paths([], rules))
    if not loaded.ok:
        raise SystemExit(f"the rules {', '.join(files) or rules} do not check: run `sgsdsl check` on them")
    if files:
        return list(designer_generals(loaded, bundled_rules_dir()))
    return sorted(program_for(loaded, "compiled").generals)


def run_one(general: str, args: argparse.Namespace, out: Path) -> bool:
    """Play one general's balance run into OUT/GENERAL.json (written whole, or not at all)."""
    return balance_into(out / f"{general}.json", general, ["--each-skill"], args.players, args.games, args.seed, args)


def balance_into(target: Path, general: str, extra: Sequence[str], players: int, games: int, seed: int,
                 args: argparse.Namespace) -> bool:
    """`sgsdsl balance GENERAL … --json` into TARGET (written whole, or not at all), unless TARGET holds a run with
    these players and seeds already (one with others is refused: another --out folder is wanted)."""
    if target.is_file():
        kept = json.loads(target.read_text())
        if kept["settings"]["players"] != players or kept["seeds"] != [seed, seed + games - 1]:
            raise SystemExit(f"{target} was played with other settings ({kept['settings']['players']} players, "
                             f"seeds {kept['seeds'][0]}–{kept['seeds'][1]}): use another --out folder")
        return True
    rules = [str(Path(f).resolve()) for f in args.files] if args.files else ["--rules", args.rules]
    cmd = [sys.executable, "-m", "sgsdsl", "balance", general, *rules, "--players", str(players),
           "--games", str(games), "--seed", str(seed), "--robust-agents", "none", *extra,
           "--jobs", str(args.jobs), "--json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode != 0:
        (target.parent / f"{general}.err").write_text(done.stderr)
        print(f"{general}: balance failed (exit {done.returncode}): {done.stderr.strip()[-300:]}", file=sys.stderr)
        return False
    partial = target.with_name(target.name + ".part")
    partial.write_text(done.stdout)
    partial.replace(target)
    return True


def below_zero(rows: Sequence[Worth]) -> list[Worth]:
    """The rows worth significantly less than nothing."""
    return [w for w in rows if w.significant and w.points < 0]


def confirm(rows: Sequence[Worth], args: argparse.Namespace, out: Path) -> tuple[list[Worth], bool]:
    """Each row below zero played again on the seeds after the sweep's (`--without SKILL`, --confirm games): its
    worth there, in the same order; and whether every run was measured."""
    again: list[Worth] = []
    ok = True
    seed = args.seed + args.games
    for w in below_zero(rows):
        target = out / f"{w.general}.{w.skill}.confirm.json"
        if not balance_into(target, w.general, ["--without", w.skill], args.players, args.confirm, seed, args):
            ok = False
            continue
        again += [r for r in worths_of(target, w.general) if r.skill == w.skill]
    return again, ok


def worths(out: Path, generals: Sequence[str]) -> list[Worth]:
    """Each measured skill's worth, lowest first (ties by general and skill)."""
    rows = [w for general in generals for w in worths_of(out / f"{general}.json", general)]
    return sorted(rows, key=lambda w: (w.points, w.general, w.skill))


def worths_of(path: Path, general: str) -> list[Worth]:
    """The worth of each skill a balance run's JSON barred (none when there is no such file)."""
    if not path.is_file():
        return []
    result = json.loads(path.read_text())["results"][0]
    overall = result["overall"]["diff"]
    rows = []
    for skill, figures in result["restricted"].items():
        whole = next(f for f in figures if f["figure"] == "all roles")
        rows.append(Worth(general, skill, whole["diff"], whole["low"], whole["high"], whole["significant"], overall))
    return rows


def report(rows: Sequence[Worth], again: Sequence[Worth] | None = None, confirm_games: int = 0) -> str:
    """The table, lowest first; the rows below zero named, with how many chance alone would put there; and, when
    AGAIN (their worth on fresh seeds) is given, which of them are below zero again."""
    lines = [f"{'general':<20} {'skill':<14} {'worth':>7}  {'95% interval':<16} general"]
    for w in rows:
        mark = "  below zero" if w.significant and w.points < 0 else ""
        lines.append(f"{w.general:<20} {w.skill:<14} {100 * w.points:+7.1f}  {_interval(w):<16} "
                     f"{100 * w.general_points:+.1f}{mark}")
    below = below_zero(rows)
    lines.append(f"{len(rows)} skills measured; worth significantly less than nothing: "
                 + (", ".join(f"{w.skill} ({w.general})" for w in below) if below else "none"))
    if below:
        lines.append(f"(chance alone puts about one skill in forty below zero at 95%: {len(rows) / 40:.1f} of "
                     f"{len(rows)}; --confirm GAMES plays each named row again on fresh seeds)")
    for w in again or ():
        verdict = "below zero again: a finding" if w.significant and w.points < 0 else "not confirmed: chance"
        lines.append(f"fresh seeds, {confirm_games} games: {w.skill} ({w.general}) {100 * w.points:+.1f} "
                     f"({_interval(w)}): {verdict}")
    return "\n".join(lines)


def _interval(w: Worth) -> str:
    return f"{100 * w.low:+.1f}…{100 * w.high:+.1f}"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", metavar="FILES",
                    help="a designer's rules files: sweep the generals they define (default: the bundled --rules)")
    ap.add_argument("--rules", default="standard,junzheng,lin,shan,feng,huo")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=500, help="paired seeds a general (each played once per arm)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--generals", default="", help="comma separated ids (default: every general of the rules)")
    ap.add_argument("--out", required=True, type=Path, help="folder of one JSON a general (made if missing)")
    ap.add_argument("--confirm", type=int, default=0, metavar="GAMES",
                    help="play each row below zero again on GAMES fresh seeds (default 0: not at all)")
    args = ap.parse_args(argv)
    if args.players < 2 or args.games < 1 or args.jobs < 1 or args.confirm < 0:
        ap.error("--players must be at least 2, --games and --jobs at least 1, --confirm at least 0")
    missing = [f for f in args.files if not Path(f).is_file()]
    if missing:
        ap.error(f"no such rules file: {', '.join(missing)}")
    every = general_ids(args.rules, args.files)
    if not every:
        ap.error(f"{', '.join(args.files)} define no general of their own")
    generals = [g for g in args.generals.split(",") if g] or every
    unknown = [g for g in generals if g not in every]
    if unknown:
        ap.error(f"no general {', '.join(unknown)} in the rules {', '.join(args.files) or args.rules}")
    args.out.mkdir(parents=True, exist_ok=True)
    ok = True
    for general in generals:
        ok = run_one(general, args, args.out) and ok
    rows = worths(args.out, generals)
    again: list[Worth] = []
    if args.confirm:
        again, confirmed = confirm(rows, args, args.out)
        ok = ok and confirmed
    print(report(rows, again, args.confirm))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
