"""The heuristic agent: legal and deterministic in whole games, and its stance comes from the mode's sides."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from helpers import STANDARD, program
from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.cli import main
from sgsdsl.engine.agents import Request
from sgsdsl.engine.game import Game
from sgsdsl.engine.invariants import CheckingAgent, check_invariants


def heuristic_game(players: int, seed: int) -> Game:
    holder: dict[str, Any] = {}
    agents = [CheckingAgent(HeuristicAgent(seed * 100 + i), holder) for i in range(players)]
    game = Game(program(str(STANDARD), "compiled"), "identity", players, seed, agents, record=True)
    holder["game"] = game
    game.run()
    check_invariants(game)
    return game


@pytest.mark.parametrize("players", range(4, 11))
def test_whole_games_are_legal_and_repeatable(players: int) -> None:
    a, b = heuristic_game(players, 5), heuristic_game(players, 5)
    assert a.result is not None and a.result[1] in ("win", "round_cap")
    assert a.log == b.log


def view(me: int, role: str, shown: dict[int, str], roles: list[str], history=()) -> dict[str, Any]:
    return {"seat": me, "role": role, "hand": [], "sides": [["lord", "loyalist"], ["rebel"], ["renegade"]],
            "roles_in_play": sorted(roles), "damage_history": list(history),
            "players": [{"seat": i, "role": shown.get(i, "hidden") if i != me else role, "hp": 4, "max_hp": 4}
                        for i in range(len(roles))]}


def test_stance_from_sides_and_hidden_roles() -> None:
    agent = HeuristicAgent(1)
    roles = ["lord", "loyalist", "rebel", "rebel", "renegade"]
    rebel = agent.stance(view(2, "rebel", {0: "lord"}, roles))
    assert rebel[0] == -1.0 and rebel[2] == 1.0
    assert -1.0 < rebel[3] < 1.0  # hidden: one rebel among the three unknown roles
    six = ["lord", "loyalist", "loyalist", "rebel", "rebel", "renegade"]
    loyal = agent.stance(view(1, "loyalist", {0: "lord"}, six))
    assert loyal[0] == 1.0 and loyal[3] == -0.5  # one ally among four hidden roles
    # evidence: seat 3 hurt the lord, so the loyalist holds it for a foe
    hurt = agent.stance(view(1, "loyalist", {0: "lord"}, six, history=[(3, 0, 2)]))
    assert hurt[3] < loyal[3] and hurt[3] == -1.0


def test_stance_is_remembered_only_for_the_same_inputs() -> None:
    agent = HeuristicAgent(1)
    six = ["lord", "loyalist", "loyalist", "rebel", "rebel", "renegade"]
    first = agent.stance(view(1, "loyalist", {0: "lord"}, six))
    first[3] = 9.0  # a caller's change does not leak into the remembered stance
    again = agent.stance(view(1, "loyalist", {0: "lord"}, six))
    assert again[3] == -0.5
    hurt = agent.stance(view(1, "loyalist", {0: "lord"}, six, history=[(3, 0, 2)]))
    assert hurt[3] == -1.0 and hurt == HeuristicAgent(1).stance(view(1, "loyalist", {0: "lord"}, six,
                                                                         history=[(3, 0, 2)]))


def test_requests_by_stance() -> None:
    agent = HeuristicAgent(1)
    roles = ["lord", "loyalist", "rebel", "rebel", "renegade"]
    v = view(1, "loyalist", {0: "lord", 2: "rebel"}, roles)
    rescue_lord = Request(1, "rescue", "rescue P0", ("use 桃", "pass"), subject=0)
    rescue_rebel = Request(1, "rescue", "rescue P2", ("use 桃", "pass"), subject=2)
    assert agent.decide(rescue_lord, v) == [0] and agent.decide(rescue_rebel, v) == [1]
    guard = Request(1, "nullify", "nullify", ("use 无懈可击", "pass"), about=("attack", "trick"), subject=0)
    spare = Request(1, "nullify", "nullify", ("use 无懈可击", "pass"), about=("attack", "trick"), subject=2)
    assert agent.decide(guard, v) == [0] and agent.decide(spare, v) == [1]
    aim = Request(1, "choose", "targets for 杀", ("P0", "P2", "P3"), about=("attack", "basic"),
                  option_seats=(0, 2, 3))
    assert agent.decide(aim, v) == [1]


def test_cli_agents_option() -> None:
    run = CliRunner().invoke
    ok = run(main, ["simulate", "--players", "5", "--games", "3", "--agents", "heuristic,random", "--json"])
    assert ok.exit_code == 0, ok.output
    assert run(main, ["simulate", "--players", "5", "--agents", "clever"]).exit_code == 2


def test_stance_reads_healing_and_a_lone_side_shields_the_revealed_seats() -> None:
    agent = HeuristicAgent(1)
    six = ["lord", "loyalist", "loyalist", "rebel", "rebel", "renegade"]
    plain = agent.stance(view(3, "rebel", {0: "lord"}, six))
    healer = agent.stance({**view(3, "rebel", {0: "lord"}, six), "recover_history": [(2, 0, 1)]})
    assert healer[2] < plain[2]  # seat 2 healed the rebels' foe
    lone = agent.stance(view(5, "renegade", {0: "lord"}, six))
    assert lone[0] > 0 and lone[1] < 0  # the renegade keeps the revealed lord alive while others live


def test_skill_hints_steer_choices() -> None:
    agent = HeuristicAgent(3)
    roles = ["lord", "loyalist", "rebel", "rebel", "renegade"]
    v = view(0, "lord", {0: "lord", 2: "rebel"}, roles, history=[(3, 0, 1)])
    seats = (1, 2, 3, 4)
    helping = Request(0, "choose", "仁德: to whom", ("P1", "P2", "P3", "P4"), about=("heal", "help", "skill"),
                      option_seats=seats)
    hurting = Request(0, "choose", "反间: target", ("P1", "P2", "P3", "P4"), about=("attack", "skill"),
                      option_seats=seats)
    assert agent.decide(helping, v) != [1]  # never hand cards to the revealed rebel
    assert agent.decide(hurting, v) in ([1], [2])  # the revealed rebel or the one who hurt the lord
    risky = Request(0, "confirm", "use 苦肉?", ("yes", "no"), about=("draw", "risk", "skill"))
    low = {**v, "players": [dict(p, hp=1) for p in v["players"]]}
    assert agent.decide(risky, low) == [1]


def test_area_cards_only_when_they_hurt_more_foes_than_friends() -> None:
    agent = HeuristicAgent(2)
    menu = Request(0, "play", "choose", ("南蛮入侵", "end play phase"), option_tags=(("area", "attack", "trick"),
                                                                                   ("end",)))
    roles = ["lord", "loyalist", "loyalist", "rebel", "renegade"]
    friends_around = view(0, "lord", {1: "loyalist", 2: "loyalist"}, roles)
    assert agent.decide(menu, friends_around) == [1]  # two friends and two foes: not worth it
    five = ["lord", "loyalist", "rebel", "rebel", "renegade"]
    foes_around = view(1, "loyalist", {0: "lord"}, five)
    assert agent.decide(menu, foes_around) == [0]  # three sure foes against the lord


def test_stance_read_on_from_a_growing_history_equals_reading_it_afresh() -> None:
    """The remembered reading goes on from where it stopped while the damage history only grows; a history
    that changed otherwise, healing, or another seat's view is read again from the roles. Each step must equal
    a fresh agent's reading of the same view, float for float."""
    six = ["lord", "loyalist", "loyalist", "rebel", "rebel", "renegade"]
    steps = [(3, 0, 1), (4, 1, 1), (2, 3, 2), (5, 0, 1), (3, 5, 1), (4, 0, 3)]
    agent = HeuristicAgent(1)
    views = [view(1, "loyalist", {0: "lord"}, six, history=steps[:k]) for k in range(len(steps) + 1)]
    views.append(view(1, "loyalist", {0: "lord"}, six, history=steps[2:]))  # not a longer copy: read afresh
    views.append({**views[3], "recover_history": [(5, 2, 1), (3, 3, 1)]})
    views.append(view(2, "loyalist", {0: "lord"}, six, history=steps))  # another seat
    views.append(view(1, "loyalist", {0: "lord", 3: "rebel"}, six, history=steps))  # a role revealed
    for v in views:
        assert agent.stance(v) == HeuristicAgent(1).stance(v)
    moved = [agent.stance(v)[3] for v in views[:7]]
    assert len(set(moved)) > 2  # the evidence does move the readings along the way


def test_a_subclass_answers_with_its_own_handlers() -> None:
    """Request kinds go to the `on_KIND` methods of the agent's own class (worked out once per class)."""

    class Declining(HeuristicAgent):
        def on_confirm(self, r: Request, view: Any) -> list[int]:
            return [1]

    ask = Request(0, "confirm", "go?", ("yes", "no"))
    six = ["lord", "loyalist", "loyalist", "rebel", "rebel", "renegade"]
    seen = view(1, "loyalist", {0: "lord"}, six)
    assert HeuristicAgent(1).decide(ask, seen) == [0] and Declining(1).decide(ask, seen) == [1]
