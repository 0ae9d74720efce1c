"""Compiled rules and the reference interpreter play identical games (event logs and state hashes).

Hypothesis draws the rules, mode, player count, options, the generals each seat goes for, the agents'
seeds and the game seed. A failure prints a `REGRESSIONS.append(GameSpec(...))` line: paste it below and
the game is replayed on every run. `scripts/crosscheck.py --games 2000` runs the long version.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgsdsl.compiler.crosscheck import GameSpec, compare, load_pair, option_choices

REGRESSIONS: list[GameSpec] = []
REGRESSIONS.append(GameSpec(rules='mini', mode='identity', players=4, seed=0))
REGRESSIONS.append(GameSpec(rules='standard', mode='identity', players=8, seed=1, options=(('two_renegades', True),)))
REGRESSIONS.append(GameSpec(rules='junzheng', mode='identity', players=8, seed=3))

_PAIRS: dict[str, object] = {}


def pair(rules: str):
    if rules not in _PAIRS:
        _PAIRS[rules] = load_pair(rules)
    got = _PAIRS[rules]
    assert not isinstance(got, str), f"{rules} cannot be cross-checked: {got}"
    return got


@st.composite
def game_specs(draw, rules: str):
    compiled, _ = pair(rules)
    mode = draw(st.sampled_from(sorted(compiled.modes)))
    m = compiled.modes[mode]
    players = draw(st.integers(m.players[0], m.players[1]))
    options = tuple((k, draw(st.sampled_from(option_choices(v)))) for k, v in sorted(m.options.items()))
    generals = tuple(draw(st.lists(st.sampled_from(sorted(compiled.generals)), min_size=players, max_size=players)))
    agent_seeds = tuple(draw(st.lists(st.integers(0, 2**31 - 1), min_size=players, max_size=players)))
    seed = draw(st.integers(0, 2**32 - 1))
    return GameSpec(rules, mode, players, seed, options, generals, agent_seeds)


def check_spec(spec: GameSpec) -> None:
    compiled, interpreted = pair(spec.rules)
    problem, _ = compare(spec, compiled, interpreted)
    assert problem is None, f"{problem}\nminimal game, paste into tests/test_crosscheck.py:\n{spec.as_regression()}"


@pytest.mark.parametrize("rules", ["mini", "standard", "junzheng", "all41"])
def test_compiled_equals_interpreted(rules: str) -> None:
    pair(rules)  # skip cleanly before Hypothesis starts when the rules do not check

    @settings(max_examples={"standard": 50, "junzheng": 30, "all41": 12}.get(rules, 40), deadline=None,
              suppress_health_check=[HealthCheck.too_slow], print_blob=True)
    @given(game_specs(rules))
    def run(spec: GameSpec) -> None:
        check_spec(spec)

    run()


@pytest.mark.parametrize("spec", REGRESSIONS, ids=lambda s: f"{s.rules}-{s.players}p-{s.seed}")
def test_regressions(spec: GameSpec) -> None:
    check_spec(spec)


def test_compiled_program_runs_generated_code() -> None:
    compiled, interpreted = pair("mini")
    fn = compiled.cards["sha"].effect
    assert fn.__qualname__ == "Card_sha.effect"
    assert getattr(fn, "__globals__", {}).get("__sgsdsl_generated__") is True
    assert interpreted.cards["sha"].effect.__qualname__.startswith("Interpreter.")
