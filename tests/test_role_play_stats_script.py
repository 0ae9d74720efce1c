"""scripts/role_play_stats.py counts who does what to whom by role from the games' public records: every death is
counted once by its killer's role, every renegade ends one way, and the damage tables add up to the histories."""

from __future__ import annotations

from collections import Counter
from types import ModuleType

import pytest

from helpers import load_script


def script() -> ModuleType:
    return load_script("scripts/role_play_stats.py", "role_play_stats")


def test_the_counts_add_up() -> None:
    mod = script()
    from sgsdsl.api import check_paths, program_for
    from sgsdsl.cli.loading import rule_paths
    from sgsdsl.engine.game import Game
    from sgsdsl.sim import make_agents

    program = program_for(check_paths(rule_paths([], "standard")), "compiled")
    st = mod.stats(program, players=5, games=4, seed=7)
    assert st.games == 4 and sum(st.winners.values()) == 4
    assert sum(st.renegade_final.values()) == 4  # one renegade a game, each won, died or lost alive
    assert st.renegade_final["died"] == sum(st.renegade_death.values())
    deaths = sum(len(v) for v in st.death_round.values())
    assert deaths == sum(st.kills.values()) > 0
    assert st.kills[("lord", "lord")] == 0 and all(r >= 1 for v in st.death_round.values() for r in v)
    # the damage table is the games' damage histories by role
    total = 0
    for seed in range(7, 11):
        g = Game(program, "identity", 5, seed, make_agents(("heuristic",), 5, seed), None, round_cap=60).run()
        total += sum(n for _, _, n in g.damage_history)
    assert sum(st.damage.values()) == total
    assert all(st.rescued[r] <= st.dying[r] for r in mod.ROLES)


def test_the_lords_deaths_at_the_hands_of_seats_that_needed_it() -> None:
    """Every loyalist's kill of the lord is counted there, and the renegade's only while others lived: random agents
    (seeds 1-20, 5 players) kill their lord both ways."""
    mod = script()
    from sgsdsl.api import check_paths, program_for
    from sgsdsl.cli.loading import rule_paths

    program = program_for(check_paths(rule_paths([], "standard")), "compiled")
    st = mod.stats(program, players=5, games=20, seed=1, agents=("random",))
    by_role = Counter(k.split(",")[0] for k in st.lord_killed_by_friend.elements())
    assert by_role["loyalist"] == st.kills[("loyalist", "lord")] > 0
    assert 0 < by_role["renegade"] < st.kills[("renegade", "lord")]
    assert set(by_role) == {"loyalist", "renegade"}


def test_the_script_prints_its_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert script().main(["--players", "5", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    for line in ("2 games", "damage (row: actor", "kills (row: actor", "renegade: ", "lord's death: ",
                 "the lord killed by a seat that needed it alive: "):
        assert line in out
