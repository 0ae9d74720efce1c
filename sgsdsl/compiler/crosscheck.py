"""Play one game twice — compiled rules and interpreted rules — and require the same game, step by step.

Shared by `tests/test_crosscheck.py` (Hypothesis) and `scripts/crosscheck.py` (thousands of games). A game
is fully described by a `GameSpec`; a mismatch prints the spec as a line that can be pasted as a
regression test.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.agents import Agent, RandomAgent, Request
from ..engine.errors import EngineError
from ..engine.game import Game
from ..engine.program import Program

RULE_SETS = {
    "standard": "rules/standard.sgs",
    "junzheng": "rules/junzheng.sgs",
    "mini": "tests/fixtures/mini.sgs",
    "camps": "tests/fixtures/camps.sgs",  # turn_order, replace, score (a 3v3-like mode)
    "league": "tests/fixtures/league.sgs",  # the scoring league's fourth-edition table
    "beta": "rules/beta.sgs",  # the beta rules: a rule set of its own
    "endgame": "rules/house/endgame.sgs",  # house rules: modes extending identity
    "protection": "rules/house/protection.sgs",
    "seats_by_lot": "rules/house/seats_by_lot.sgs",
    "3v3": "rules/3v3.sgs",  # the 3v3 team mode (with the standard edition's identity mode)
    "all41": "tests/fixtures/all41.sgs",  # standard + 军争 + 林 + 山: all 41 generals
    "all57": "tests/fixtures/all57.sgs",  # + 风 + 火: all 57 generals
    "tongzhou": "rules/tongzhou.sgs",  # 同舟共济 (with the identity mode of the sets it imports)
}
ROOT = Path(__file__).resolve().parent.parent.parent


@dataclass(frozen=True)
class GameSpec:
    """Everything that determines a game: rules, mode, seats, options, preferred generals, agents."""

    rules: str
    mode: str
    players: int
    seed: int
    options: tuple[tuple[str, Any], ...] = ()
    generals: tuple[str, ...] = ()  # per seat: the general that seat's agent picks when offered
    agent_seeds: tuple[int, ...] = ()
    round_cap: int = 40

    def as_regression(self) -> str:
        return f"REGRESSIONS.append({self!r})"


class PreferringAgent(Agent):
    """A seeded random agent that picks its drawn general whenever it is offered (how specs draw generals)."""

    name = "preferring"
    reads_view = False

    def __init__(self, seed: int, prefer: str | None):
        self.random = RandomAgent(seed)
        self.prefer = prefer

    def decide(self, request: Request, view: Any) -> list[int]:
        if self.prefer is not None and request.low <= 1 <= request.high and self.prefer in request.options:
            return [request.options.index(self.prefer)]
        return self.random.decide(request, view)


@dataclass
class Outcome:
    log: list[dict[str, Any]]
    hashes: list[str]
    error: tuple[str, str] | None
    generals: list[str] = field(default_factory=list)
    result: Any = None


def play(program: Program, spec: GameSpec) -> Outcome:
    names = [program.generals[g].name if g in program.generals else None for g in spec.generals]
    agents = [PreferringAgent(spec.agent_seeds[i] if i < len(spec.agent_seeds) else spec.seed * 1000 + i,
                              names[i] if i < len(names) else None) for i in range(spec.players)]
    game = Game(program, spec.mode, spec.players, spec.seed, agents, dict(spec.options),
                round_cap=spec.round_cap, record=True)
    error = None
    try:
        game.run()
    except Exception as err:  # noqa: BLE001 - any failure is compared between the two back ends
        error = _error_key(err)
    played = [e["general"] for e in game.log if e.get("e") == "general" and e.get("general")]
    return Outcome(game.log, game.hashes, error, played, game.result)


def _error_key(err: BaseException) -> tuple[str, str]:
    """Compiled code wraps non-engine errors in a located RuleError; compare what was wrapped."""
    cause = err.__cause__
    if type(err).__name__ == "RuleError" and cause is not None and not isinstance(cause, EngineError):
        return (type(cause).__name__, str(cause))
    return (type(err).__name__, str(err))


def compare(spec: GameSpec, compiled: Program, interpreted: Program) -> tuple[str | None, Outcome]:
    """None when both back ends played the same game; else a description of the first difference."""
    a = play(compiled, spec)
    b = play(interpreted, spec)
    if a.error != b.error:
        return f"errors differ: compiled {a.error} vs interpreted {b.error}", a
    if a.hashes != b.hashes:
        i = next((i for i, (x, y) in enumerate(zip(a.hashes, b.hashes, strict=False)) if x != y),
                 min(len(a.hashes), len(b.hashes)))
        return f"state hashes differ first at decision {i + 1}", a
    if a.log != b.log:
        i = next((i for i, (x, y) in enumerate(zip(a.log, b.log, strict=False)) if x != y),
                 min(len(a.log), len(b.log)))
        x = a.log[i] if i < len(a.log) else None
        y = b.log[i] if i < len(b.log) else None
        return f"event logs differ first at event {i + 1}: compiled {x} vs interpreted {y}", a
    return None, a


def option_choices(default: Any) -> list[Any]:
    """Values worth trying for a mode option with this default."""
    if isinstance(default, bool):
        return [False, True]
    if isinstance(default, int):
        return sorted({default, default + 1, max(0, default - 1)})
    return [default]


def load_pair(rules: str) -> tuple[Program, Program] | str:
    """(compiled, interpreted) Programs for a rule set, or why it cannot be used right now."""
    from ..api import check_paths, interpreted_program
    from .cache import compiled_program

    path = ROOT / RULE_SETS.get(rules, rules)
    if not path.is_file():
        return f"{path} does not exist"
    loaded = check_paths([str(path)])
    if not loaded.ok or loaded.checked is None:
        errors = [d for d in loaded.diagnostics if d.severity == "error"]
        first = f"{errors[0].span.file}:{errors[0].span.line}: {errors[0].message}" if errors else "?"
        return f"{path} does not check yet ({len(errors)} error(s), first: {first})"
    return compiled_program(loaded), interpreted_program(loaded)


def spec_for(i: int, rules: str, program: Program, base_seed: int = 0, only_mode: str | None = None) -> GameSpec:
    """The i-th game of a systematic run: player counts cycle, generals rotate so every one is drawn. `only_mode`
    plays one mode of the rule set instead of cycling through all of them."""
    rng = random.Random(f"{rules}:{base_seed}:{i}")
    modes = [only_mode] if only_mode else sorted(program.modes)
    mode = modes[i % len(modes)]
    lo, hi = program.modes[mode].players
    players = lo + (i // len(modes)) % (hi - lo + 1)
    opts = tuple((k, rng.choice(option_choices(v))) for k, v in sorted(program.modes[mode].options.items()))
    gens = sorted(program.generals)
    start = (i * players) % len(gens)
    drawn = tuple(gens[(start + k) % len(gens)] for k in range(players))
    return GameSpec(rules, mode, players, base_seed + i, opts, drawn,
                    tuple(rng.randrange(2**31) for _ in range(players)))
