"""Count how often each skill fires over many simulated games, read from the event logs.

    python scripts/skill_firings.py --rules standard,junzheng,lin,shan --players 8 --games 500
    python scripts/skill_firings.py --rules standard,junzheng,shan --only rules/shan.sgs
    python scripts/skill_firings.py --rules standard,junzheng,lin,shan --games 500 --only rules/lin.sgs,rules/shan.sgs

A firing is a `skill` log entry (a trigger that ran, an active or granted action used, a provider that ran), a
conversion used (a view_as-only skill such as 断粮 or 酒池: counted by the game, not logged),
an `awaken`/`limited` entry, and a `pindian`, `turn_over`, `extra_turn` or `pile` entry for the mechanics behind
them. `--only FILE[,FILE…]` lists the skills of the generals those files define (and their top-level skills),
with zeros.
A skill that only modifies values (红颜, 血裔, 马术) never fires: it is listed with the number of games it was in play
(held by a seat's general; a lord skill only by the lord).
Games that end in an engine error are counted and named; the exit status is 1 when there is one.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgsdsl.api import check_paths, program_for  # noqa: E402
from sgsdsl.cli.loading import rule_paths  # noqa: E402
from sgsdsl.engine.errors import EngineError  # noqa: E402
from sgsdsl.sim import play_one  # noqa: E402

MECHANICS = ("pindian", "turn_over", "turn_skipped", "extra_turn", "pile")


def skills_defined_in(path: str) -> list[str]:
    from sgsdsl.lang.loader import load

    module = load([Path(path)]).modules[-1]
    return [s.name.text for g in module.generals for s in g.skills] + [s.name.text for s in module.skills]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", default="identity")
    ap.add_argument("--only", default="",
                    help="list only the skills these .sgs files (comma separated) define, zeros included")
    args = ap.parse_args()
    loaded = check_paths(rule_paths([], args.rules))
    if not loaded.ok:
        print("the rules do not check", file=sys.stderr)
        return 2
    program = program_for(loaded, "compiled")
    fired: Counter[str] = Counter()
    in_play: Counter[str] = Counter()
    mechanics: Counter[str] = Counter()
    errors: list[str] = []
    for i in range(args.games):
        try:
            g = play_one(program, args.mode, args.players, args.seed + i, record=True)
        except EngineError as err:
            errors.append(f"seed {args.seed + i}: {err}")
            continue
        for e in g.log:
            kind = e.get("e")
            if kind == "skill":
                fired[str(e["skill"])] += 1
            elif kind in MECHANICS:
                mechanics[kind] += 1
        for p in g.players:  # a skill that only modifies values (红颜, 血裔) never fires: the games it was in play
            leader = g.mode.leader is not None and p.role == g.mode.leader
            for skill in p.general.skills if p.general is not None else ():
                if skill.modifiers and not (skill.triggers or skill.actives or skill.provides or skill.view_as) \
                        and (leader or not skill.leader_only):
                    in_play[skill.name] += 1
        for ident, n in g.skill_uses.items():  # conversions (view_as: 断粮, 酒池) are counted by the game, not logged
            skill = program.skill_named(ident)
            if skill is not None and skill.view_as and not (skill.triggers or skill.actives or skill.provides):
                fired[skill.name] += n
    names = [n for f in args.only.split(",") if f for n in skills_defined_in(f)] if args.only else sorted(fired)
    print(f"{args.games} games · {args.players} players · rules {args.rules} · engine errors {len(errors)}")
    for name in names:
        note = f"\t(modifies values only: in play in {in_play[name]} games)" if name in in_play else ""
        print(f"  {name}\t{fired.get(name, 0)}{note}")
    print("  " + " · ".join(f"{k} {mechanics[k]}" for k in MECHANICS))
    for e in errors[:10]:
        print("  error:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
