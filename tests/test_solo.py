"""`solo ROLE…`: each seat of a solo role is a side of its own (双内: two renegades are rivals).

The result counts only the surviving seats of a winning solo role, the sides agents and summaries read leave
a solo role out of every shared side, and the heuristic agent never takes another seat of its solo role for a
friend. The scores it implies are proved by tests/scenarios/league/*two_renegades*.scenario.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpers import STANDARD, program
from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths
from sgsdsl.engine.agents import RandomAgent, Request
from sgsdsl.engine.errors import GameOver
from sgsdsl.engine.game import Game
from sgsdsl.engine.program import Frame
from sgsdsl.engine.registry.functions import _teammates
from sgsdsl.fmt import format_text

ROOT = Path(__file__).resolve().parent.parent
EIGHT = ["lord", "loyalist", "loyalist", "rebel", "rebel", "rebel", "renegade", "renegade"]


def two_renegade_game(engine: str) -> Game:
    """An 8-player 双内 game, not played: the tests deal the roles (EIGHT, in seat order) themselves."""
    agents = [RandomAgent(i) for i in range(8)]
    game = Game(program(str(STANDARD), engine), "identity", 8, 3, agents, {"two_renegades": True}, record=True)
    for p, role in zip(game.players, EIGHT, strict=True):
        p.role = role
    return game


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_only_the_living_seats_of_a_solo_role_win(engine: str) -> None:
    game = two_renegade_game(engine)
    for p in game.players:
        p.alive = p.seat == 7
    assert game.mode.solo == ("renegade",)
    game.finish(GameOver(("renegade",), "win"))
    assert game.winners_seats == (7,)  # seat 6, the dead renegade, is no winner
    assert game.log[-1]["e"] == "game_over" and game.log[-1]["seats"] == [7]
    # a role that is not solo still wins with its dead seats (the rebels' fallen comrades)
    game.finish(GameOver(("rebel",), "win"))
    assert game.winners_seats == (3, 4, 5)


def test_sides_leave_a_solo_role_alone_and_teammates_are_none() -> None:
    game = two_renegade_game("compiled")
    mode = game.mode
    assert all("renegade" not in side for side in mode.sides())
    assert ("lord", "loyalist") in mode.sides() and ("rebel",) in mode.sides()
    assert mode.winning_seat("renegade", True, ("renegade",)) and not mode.winning_seat("renegade", False,
                                                                                       ("renegade",))
    view = game.choices.view(game.players[6])
    assert view["solo"] == ["renegade"] and all("renegade" not in side for side in view["sides"])
    assert _teammates(Frame(game, {}), game.players[6]) == []
    assert [q.seat for q in _teammates(Frame(game, {}), game.players[3])] == [4, 5]


def rival_view(me: int, shown: dict[int, str], hp: int = 4) -> dict[str, Any]:
    """What renegade `me` sees in a 双内 game: the sides and solo roles the standard identity mode gives."""
    return {"seat": me, "role": "renegade", "hand": [], "sides": [["lord", "loyalist"], ["rebel"]],
            "solo": ["renegade"], "roles_in_play": sorted(EIGHT), "damage_history": [],
            "players": [{"seat": i, "role": "renegade" if i == me else shown.get(i, "hidden"), "hp": hp,
                         "max_hp": 4, "alive": True} for i in range(8)]}


def test_the_heuristic_agent_never_counts_the_other_renegade_as_an_ally() -> None:
    agent = HeuristicAgent(1)
    hidden = agent.stance(rival_view(6, {0: "lord"}))
    assert agent.allies(rival_view(6, {0: "lord"})) == set()
    assert hidden[7] < -0.15 and hidden[1] < -0.15  # no hidden seat is a friend: the other renegade is a rival
    # alone, it props up the revealed lord while the sides are even or the others lead (here: 12 HP a side)
    assert hidden[0] == 0.9 and hidden[6] == 1.0
    shown = agent.stance(rival_view(6, {0: "lord", 7: "renegade"}))
    assert shown[7] == -1.0  # revealed, the rival is a foe and is never shielded
    strong_lord = rival_view(6, {0: "lord"})
    for q in strong_lord["players"][3:6]:
        q["hp"] = 1  # the likely rebels are low: the lord's side leads by health (8 to 6)
    # but at a big table (seven others alive) it holds with the lord until that side is HOLD times as strong
    assert agent.stance(strong_lord)[0] == 0.9
    rebels_down = rival_view(6, {0: "lord", 3: "rebel", 4: "rebel", 5: "rebel"})
    for q in rebels_down["players"][3:6]:
        q["alive"] = False  # the rebels are dead: the lord's side leads, and is no longer propped up
    assert agent.stance(rebels_down)[0] == 0.2
    rescue_rival = Request(6, "rescue", "rescue P7", ("use 桃", "pass"), subject=7)
    rescue_lord = Request(6, "rescue", "rescue P0", ("use 桃", "pass"), subject=0)
    v = rival_view(6, {0: "lord", 7: "renegade"})
    assert agent.decide(rescue_rival, v) == [1] and agent.decide(rescue_lord, v) == [0]
    aim = Request(6, "choose", "targets for 杀", ("P0", "P7"), about=("attack", "basic"), option_seats=(0, 7))
    assert agent.decide(aim, v) == [1]


def solo_mode(tmp_path: Path, members: str, extra: str = "") -> list[tuple[str, int, int]]:
    (tmp_path / "m.sgs").write_text(
        "card 桃 tao : basic { copies ♥3 }\n"
        "mode 混战 melee {\n  players 3..3\n  roles 3 { lord rebel rebel }\n"
        "  win rebel when count(players()) == 1\n" + members + "}\n" + extra, encoding="utf-8")
    loaded = check_paths([str(tmp_path / "m.sgs")])
    return [(d.code, d.span.line, d.span.col) for d in loaded.diagnostics if d.severity == "error"]


def test_solo_lines_are_checked_with_located_errors(tmp_path: Path) -> None:
    assert solo_mode(tmp_path, "  solo rebel\n") == []
    assert solo_mode(tmp_path, "  solo rebell\n") == [("SGS-E202", 6, 8)]
    assert solo_mode(tmp_path, "  solo rebel\n  solo lord rebel\n") == [("SGS-E226", 7, 13)]
    assert solo_mode(tmp_path, "  camp all lord rebel\n  solo rebel\n") == [("SGS-E226", 7, 8)]
    base_solo = "mode 变体 variant extends melee {\n  camp all lord rebel\n}\n"
    assert solo_mode(tmp_path, "  solo rebel\n", base_solo) == [("SGS-E226", 9, 17)]


def test_an_extension_keeps_the_base_solo_roles() -> None:
    for engine in ("interpreted", "compiled"):
        prog = program(str(ROOT / "rules" / "house" / "endgame.sgs"), engine)
        assert prog.modes["endgame"].solo == ("renegade",)


def test_fmt_lays_out_a_solo_line() -> None:
    text = "mode 混战 melee {\n  players 3..3\n  roles 3 { lord rebel rebel }\n  solo   rebel    lord\n}\n"
    assert "\n  solo rebel lord\n" in (format_text(text, "x.sgs").text or "")


def test_scenario_won_and_lost_expectations(tmp_path: Path) -> None:
    """`expect P1 won` / `lost` read the winning seats; before the game is over they fail, saying so."""
    from sgsdsl.scenario.runner import run_file

    head = ("scenario: x\nrule: x\ncovers: identity\nseat P0: 孙权 lord hp 1/4\nseat P1: 吕布 rebel\n  hand: 杀\n"
            "start: P1 play\n")
    (tmp_path / "over.scenario").write_text(head + "P1: use 杀\nexpect P1 won\nexpect P0 lost\n", encoding="utf-8")
    assert run_file(tmp_path / "over.scenario").passed
    (tmp_path / "wrong.scenario").write_text(head + "P1: use 杀\nexpect P1 lost\n", encoding="utf-8")
    assert any("P1:吕布 won" in f for f in run_file(tmp_path / "wrong.scenario").failures)
    (tmp_path / "early.scenario").write_text(head.replace("start: P1 play\n", "") + "expect P1 won\n", encoding="utf-8")
    assert any("the game is not over" in f for f in run_file(tmp_path / "early.scenario").failures)


# ------------------------------------------------------------ the balance lab: each solo seat is a side of its own

def record(seed: int, roles: list[str], winners: tuple[str, ...], seats: tuple[int, ...]) -> Any:
    from sgsdsl.lab.records import GameRecord

    n = len(roles)
    return GameRecord(seed, ("x",) * n, tuple(roles), ("魏",) * n, winners, seats, "win" if winners else "round_cap",
                      10, 40, 300, solo=("renegade",))


def test_the_lab_counts_each_renegade_as_its_own_side() -> None:
    from sgsdsl.lab.compare import compare
    from sgsdsl.lab.stats import summarise

    one = ["lord", "loyalist", "loyalist", "rebel", "rebel", "rebel", "rebel", "renegade"]
    a = [record(1, one, ("renegade",), (7,)), record(2, one, ("rebel",), (3, 4, 5, 6)),
         record(3, one, ("lord", "loyalist"), (0, 1, 2)), record(4, one, ("rebel",), (3, 4, 5, 6))]
    b = [record(1, EIGHT, ("renegade",), (7,)), record(2, EIGHT, ("renegade",), (6,)),
         record(3, EIGHT, ("lord", "loyalist"), (0, 1, 2)), record(4, EIGHT, ("rebel",), (3, 4, 5))]
    assert [r.side for r in b] == ["renegade #2", "renegade #1", "lord+loyalist", "rebel"]
    assert a[0].side == "renegade"  # one renegade: its side keeps its name
    sides = ["lord+loyalist", "renegade", "rebel"]
    st = summarise(b, sides)
    assert list(st.sides) == ["lord+loyalist", "renegade #1", "renegade #2", "rebel"]
    assert (st.sides["renegade #1"].k, st.sides["renegade #2"].k) == (1, 1)
    assert sum(r.k for r in st.sides.values()) == 4  # the shares add up: no game is counted twice
    # per seat for a solo role: 2 wins of 8 renegade seats; per game for the rest
    assert (st.roles["renegade"].k, st.roles["renegade"].n) == (2, 8)
    assert (st.roles["rebel"].k, st.roles["rebel"].n) == (1, 4)
    result = compare(a, b, sides)
    rows = {d.figure: d for d in result.headline}
    assert "win: renegade #1" in rows and "win: renegade #2" in rows and rows["win: renegade"].b == 0.0
    roles = {d.figure: d for d in result.roles}
    assert roles["role wins: renegade"].a == 0.25 and roles["role wins: renegade"].b == 0.25  # per seat: 2 of 8


def test_records_of_real_games_know_the_solo_roles() -> None:
    from sgsdsl.lab.records import play_record
    from sgsdsl.lab.variant import Variant

    v = Variant(paths=(str(STANDARD.resolve()),), players=8, options=(("two_renegades", True),))
    got = [play_record(program(str(STANDARD), "compiled"), v, seed) for seed in range(1, 4)]
    assert all(r.solo == ("renegade",) and r.roles.count("renegade") == 2 for r in got)
    for r in got:
        if "renegade" in r.winners:
            assert r.side in ("renegade #1", "renegade #2") and len(r.winner_seats) == 1
