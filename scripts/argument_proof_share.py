"""What share of primitive arguments the checker proves: over every call of an engine primitive in a set of rules,
the arguments whose parameter the engine checks at run time (a player, a card, a number, a name …) and whose type
the checker knows — a wrong one is then an error at `check` time, not a rule error in some game.

    python3 scripts/argument_proof_share.py rules/            # the bundled rules (the default)

Measures without changing the checker: it records each argument the checker judges (`BodyChecker.arg_type`).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgsdsl.api import check_paths  # noqa: E402
from sgsdsl.engine import registry as reg  # noqa: E402
from sgsdsl.engine.registry.arguments import _CHECKS  # noqa: E402
from sgsdsl.lang.check_body import BodyChecker  # noqa: E402
from sgsdsl.lang.sources import expand_paths  # noqa: E402
from sgsdsl.lang.types import _known  # noqa: E402


def measure(paths: list[str]) -> tuple[int, int, Counter[str]]:
    """(arguments proved, arguments checked at run time, the unproved ones by primitive and parameter)."""
    found: dict[object, tuple[str, str, str | None]] = {}  # by the argument's place: each call site once
    original = BodyChecker.arg_type

    def recording(self, fname, pname, want, arg, got, asks=False):  # type: ignore[no-untyped-def]
        if fname in reg.PRIMITIVES and fname not in self.sym.values and want in _CHECKS:
            found[arg.span] = (fname, pname, _known(got) if got not in ("any", "item") else None)
        return original(self, fname, pname, want, arg, got, asks)

    files, _ = expand_paths(paths)
    BodyChecker.arg_type = recording  # type: ignore[method-assign]
    try:
        for f in files:  # each file with what it imports, as `check` does (rule sets may share a folder)
            if not check_paths([str(f)]).ok:
                raise SystemExit(f"{f} does not check; fix it first (sgsdsl check)")
    finally:
        BodyChecker.arg_type = original  # type: ignore[method-assign]
    seen = list(found.values())
    unproved = Counter(f"{f}({p})" for f, p, t in seen if t is None)
    return sum(1 for *_, t in seen if t is not None), len(seen), unproved


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "rules")])
    ap.add_argument("--top", type=int, default=8, help="list the most common unproved arguments")
    args = ap.parse_args()
    proved, total, unproved = measure(args.paths)
    print(f"{proved} of {total} primitive arguments proved by the checker ({100 * proved / max(total, 1):.1f}%)")
    for name, n in unproved.most_common(args.top):
        print(f"  unproved: {name} × {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
