"""Generated designer programs play identical games compiled and interpreted.

`tests/test_crosscheck.py` plays random games of the bundled rules; a compiler bug in a shape those rules never
use goes unseen there (a nested comprehension whose inner list read the outer variable checked, then raised
NameError in every compiled game). Here Hypothesis writes the rules too (`tests/program_strategies.py`: values,
a procedure, a card, a rule and generals whose skills mix the expression language and the actions, over the
standard edition), requires each program to check without errors (one that does not is a bug of the generator, or
a finding about the checker) and to compile, and plays short games of it on both back ends with agents that are
shown what the engine tells agents that read the table: rule errors, event logs, state hashes and every request
asked must be equal. A failure prints the program and a `REGRESSIONS.append(...)` line: paste it below and that
game is played on every run.

`pytest -m fuzz tests/test_crosscheck_programs.py` runs the long version: SGSDSL_PROGRAM_EXAMPLES programs (1000
by default).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from program_strategies import Generated, program_text, programs

from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.compiler.crosscheck import _error_key as error_key
from sgsdsl.engine.agents import RandomAgent, Request
from sgsdsl.engine.game import Game
from sgsdsl.engine.program import Program
from sgsdsl.lang.diagnostics import render_text
from sgsdsl.lang.parse_cache import Shared

ROUND_CAP = 3
DEFAULT_EXAMPLES = 80

# (program body as `program_strategies.program_text` completes it, mode, players, game seed): programs that once
# played differently on the two back ends, or checked and did not compile
REGRESSIONS: list[tuple[str, str, int, int]] = []
# a condition on a card holding a comprehension (whose list the compiler moves into a helper) did not compile
REGRESSIONS.append(("""\
general 生成甲 gen0 : 魏 male 3 {
  skill 生技甲一 gs00 {
    on phase_start where event.phase == prepare {
      let x = judge(owner, hoping: any([true for owner in players()]))
      if x != none {
      }
    }
  }
}
""", 'gen_duel', 2, 0))
# a condition on a card whose comprehension reads the variable of the comprehension around the judgement, and a
# trigger at `judging` whose questions are told what that condition says of each card
REGRESSIONS.append(("""\
general 生成甲 gen0 : 魏 male 3 {
  skill 生技甲一 gs00 {
    on phase_start where event.player == owner and event.phase == prepare {
      let js = [judge(p, hoping: any([c.suit == it.suit for c in hand(p) if c.rank > it.rank])) for p in players()]
      draw(owner, min(count([j for j in js if j.color == red]), 2))
    }
    on judging optional {
      let c = choose(owner, hand(owner), optional: true)
      if c != none { retrial(event, c) }
    }
  }
}
""", 'gen_duel', 3, 1))
# found by this test with the compiler fix of 109bfba reverted (the case of tests/test_compiler_nesting.py): the
# inner list reads the outer variable, which the inner one shadows
REGRESSIONS.append(("""\
card 生成牌 gcard : trick {
  copies ♠A ♥5 ♣9 ♦K
  use play limit 1 per turn target one other
  effect {
    draw(user, min(max(sum([sum([0 for x in hand(x)]) for x in players()]), 0), 1))
  }
}
general 生成甲 gen0 : 魏 male 3 {
  skill 生技甲一 gs00 {
    on phase_start where event.phase == prepare {
      draw(owner, min(max(0, 0), 1))
    }
  }
}
""", 'gen_duel', 2, 2))

# the standard edition's parsed modules, handed to each check again (a check is several times faster); each
# program's games are played before the next program is checked, which resets the modules' annotations
_SHARED = Shared()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("programs")


class WatchingAgent(RandomAgent):
    """A seeded random agent that is shown what agents that read the table are shown (the seats a skill could be
    aimed at, what a pending judgement hopes for…: rule functions the engine runs only for such agents) and keeps
    every request it is asked, to be compared between the back ends. It never reads its view, so none is made."""

    name = "watching"
    reads_view = True

    def __init__(self, seed: int):
        super().__init__(seed)
        self.requests: list[Request] = []

    def reads_view_for(self, kind: str) -> bool:
        return False

    def decide(self, request: Request, view: Any) -> list[int]:
        self.requests.append(request)
        return super().decide(request, view)


def play(program: Program, mode: str, players: int, seed: int) -> tuple[Any, ...]:
    """Everything a game shows: its rule error (if any), event log, state hashes and every request asked."""
    agents = [WatchingAgent(seed * 10 + i) for i in range(players)]
    game = Game(program, mode, players, seed, agents, round_cap=ROUND_CAP, record=True)
    error = None
    try:
        game.run()
    except Exception as err:  # noqa: BLE001 - any failure is compared between the two back ends
        error = error_key(err)
    return error, game.log, game.hashes, [a.requests for a in agents]


def first_difference(compiled: tuple[Any, ...], interpreted: tuple[Any, ...]) -> str | None:
    for what, a, b in zip(("rule errors", "event logs", "state hashes", "requests"), compiled, interpreted,
                          strict=True):
        if a == b:
            continue
        if what == "rule errors":
            return f"rule errors differ: compiled {a} vs interpreted {b}"
        if what == "requests":
            a = [r for seat in a for r in seat]
            b = [r for seat in b for r in seat]
        i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        x, y = (a[i] if i < len(a) else None), (b[i] if i < len(b) else None)
        return f"{what} differ first at {i + 1}: compiled {x}\n  vs interpreted {y}"
    return None


def crosscheck_program(folder: Path, body: str, mode: str, players: int, seed: int) -> str | None:
    """None when the program checks, compiles and plays the same game on both back ends; else what went wrong."""
    path = folder / "generated.sgs"
    path.write_text(program_text(body), encoding="utf-8")
    loaded = check_paths([str(path)], shared=_SHARED)
    if not loaded.ok:
        return "the generated program does not check:\n" + render_text(loaded.diagnostics, loaded.sources)
    try:
        compiled = compiled_program(loaded)
    except Exception as err:  # noqa: BLE001 - a checked program must compile
        return f"the checked program does not compile: {type(err).__name__}: {err}"
    return first_difference(play(compiled, mode, players, seed),
                            play(interpreted_program(loaded), mode, players, seed))


def check_played_alike(folder: Path, body: str, mode: str, players: int, seed: int) -> None:
    problem = crosscheck_program(folder, body, mode, players, seed)
    if problem is not None:
        numbered = "\n".join(f"{i:4} | {line}" for i, line in enumerate(program_text(body).splitlines(), 1))
        raise AssertionError(f"{problem}\nmode {mode}, {players} players, game seed {seed}; the program:\n"
                             f"{numbered}\npaste into tests/test_crosscheck_programs.py:\n"
                             f'REGRESSIONS.append(("""\\\n{body}""", {mode!r}, {players}, {seed}))  # noqa: E501')


def run_examples(folder: Path, n: int) -> None:
    @settings(max_examples=n, deadline=None, print_blob=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(programs(), st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=2))
    def run(program: Generated, seeds: list[int]) -> None:
        for seed in seeds:
            check_played_alike(folder, program.body, program.mode, program.players, seed)

    run()


def test_generated_programs_play_alike(folder: Path) -> None:
    run_examples(folder, DEFAULT_EXAMPLES)


@pytest.mark.fuzz
def test_generated_programs_play_alike_long(folder: Path) -> None:
    run_examples(folder, int(os.environ.get("SGSDSL_PROGRAM_EXAMPLES", "1000")))


@pytest.mark.parametrize("case", REGRESSIONS, ids=lambda c: f"{c[1]}-{c[2]}p-{c[3]}")
def test_regressions(folder: Path, case: tuple[str, str, int, int]) -> None:
    check_played_alike(folder, *case)
