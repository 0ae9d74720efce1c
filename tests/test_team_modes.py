"""The team modes (rules/3v3.sgs): camp actions checked over whole random games, the trigger-order setting,
the camp functions, both back ends alike, the CLI's default mode and per-camp summary. Rules stated by one
position are scenarios (tests/scenarios/3v3/); what only a whole game shows is here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import ROOT, crosscheck_game, play_checked, program
from sgsdsl.api import check_paths, program_for
from sgsdsl.cli import main
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game

THREE = ROOT / "rules" / "3v3.sgs"
MODE = "three_v_three"
COMMANDERS = ("warm_commander", "cold_commander")


def camp(role: str) -> str:
    return role.split("_", 1)[0]


def seat_of(label: str) -> int:
    return int(label.split(":", 1)[0].removeprefix("P"))


def check_camp_actions(game: Game) -> int:
    """Replays the log against the v0.15 action rules; returns how many camp actions were checked."""
    roles = [p.role for p in game.players]
    n = len(roles)
    alive = [True] * n
    sideways: set[int] = set()
    expected: str | None = None
    actions = 0
    action: dict[str, Any] | None = None

    def living() -> list[int]:
        return [s for s in range(n) if alive[s]]

    def close(a: dict[str, Any] | None) -> None:
        if a is None:
            return
        lead = a["lead"]
        if a["kind"] == "commander":
            assert a["turns"] == [lead], a
        else:
            # every upright living vanguard, in seat order after the commander (a death may cut the row short)
            allowed = a["upright_vanguards"]
            assert a["turns"] == [s for s in allowed if s in a["turns"]], a
            assert all(s in a["turns"] or not alive[s] or s in a["died"] for s in allowed), a

    for e in game.log:
        kind = e.get("e")
        if kind == "log" and "/" in e.get("text", ""):
            close(action)
            acting, who = e["text"].split("/")
            if all(s in sideways for s in living()):
                sideways.clear()
            upright = [s for s in living() if s not in sideways]
            if expected is None:
                assert who == "commander", "the first turn of the game is a commander's"
            else:
                mine = [s for s in upright if camp(roles[s]) == expected]
                theirs = [s for s in upright if camp(roles[s]) != expected]
                want = expected if mine or not theirs else ("cold" if expected == "warm" else "warm")
                assert acting == want, (e, expected, sorted(sideways))
            lead = next(s for s in range(n) if roles[s] == f"{acting}_commander")
            after = [(lead + k) % n for k in range(1, n)]
            vanguards = [s for s in after if roles[s] == f"{acting}_vanguard" and s in upright]
            action = {"kind": who, "lead": lead, "turns": [], "upright_vanguards": vanguards, "died": set()}
            expected = "cold" if acting == "warm" else "warm"
            actions += 1
        elif kind == "turn":
            s = seat_of(e["player"])
            assert action is not None and s not in sideways
            action["turns"].append(s)
            sideways.add(s)
        elif kind == "death":
            s = seat_of(e["player"])
            alive[s] = False
            if action is not None:
                action["died"].add(s)
        elif kind == "phase_skipped" or kind is None:
            continue
    if game.result and game.result[1] == "win":
        action = None  # the game ended inside the action
    close(action)
    return actions


@pytest.mark.parametrize("seed", range(6))
def test_camp_actions_follow_the_v015_rules_in_whole_games(seed: int) -> None:
    game = play_checked(program(str(THREE)), 6, seed, mode=MODE, options={"draft": seed % 2 == 0})
    assert check_camp_actions(game) >= 1
    assert game.result is not None
    winners, reason = game.result
    if reason == "win":
        dead = [p.role for p in game.players if not p.alive and p.role in COMMANDERS]
        assert len(dead) == 1 and set(winners) == {f"{'warm' if dead[0].startswith('cold') else 'cold'}_{r}"
                                                  for r in ("commander", "vanguard")}


def test_deck_has_no_shandian_and_every_other_card() -> None:
    prog = program(str(THREE))
    agents = [RandomAgent(i) for i in range(6)]
    game = Game(prog, MODE, 6, 3, agents)
    ident = Game(prog, "identity", 6, 3, agents)
    assert sum(1 for c in game.cards if c.name == "闪电") == 0
    assert len(ident.cards) - len(game.cards) == 2


def _order_program(tmp_path: Path, direction: str) -> Any:
    (tmp_path / "order.sgs").write_text(f"""\
card 杀 sha : basic {{ copies ♠7 ♠8 ♠9 ♠10 ♠J ♠Q ♠K ♥2 ♥3 ♥4 ♥5 ♥6 ♥7 ♥8 ♥9 ♥10 ♥J ♥Q ♥K ♣2 ♣3 ♣4 }}
general 甲 jia : 魏 male 4 {{ skill 报 bao {{ on round_start {{ mark(owner, "heard") }} }} }}
mode 测试 order {{
  players 4..4
  roles 4 {{ a b a b }}
  camp one a
  camp two b
  trigger_order {direction}
  setup {{ deal_roles(seated: true) for p in players() {{ set_general(p, 甲) }} }}
  win a when count(players()) == 0
}}
""", encoding="utf-8")
    loaded = check_paths([str(tmp_path / "order.sgs")])
    assert loaded.ok, [str(d) for d in loaded.diagnostics]
    return loaded


@pytest.mark.parametrize(("direction", "order"), [("counter_clockwise", [0, 1, 2, 3]),
                                                  ("clockwise", [0, 3, 2, 1])])
@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_trigger_order_setting_decides_who_resolves_first(tmp_path: Path, direction: str, order: list[int],
                                                          engine: str, monkeypatch) -> None:
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path / "cache"))
    loaded = _order_program(tmp_path, direction)
    prog = program_for(loaded, engine)
    game = Game(prog, "order", 4, 1, [RandomAgent(i) for i in range(4)], round_cap=1)
    game.run()
    heard = [seat_of(e["player"]) for e in game.log if e.get("e") == "skill"][:4]
    assert heard == order


def test_unknown_trigger_order_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "bad.sgs").write_text("mode m mm {\n  players 2..2\n  trigger_order clockwize\n}\n", encoding="utf-8")
    loaded = check_paths([str(tmp_path / "bad.sgs")])
    d = [x for x in loaded.diagnostics if x.severity == "error"]
    assert [(x.code, x.span.line) for x in d] == [("SGS-E208", 3)] and "clockwise" in (d[0].suggestion or "")


def test_camp_functions_and_public_roles() -> None:
    prog = program(str(THREE))
    game = play_checked(prog, 6, 2, mode=MODE, options={"draft": False})
    assert all(p.role_revealed for p in game.players)
    assert [p.role for p in game.players] == ["cold_vanguard", "cold_commander", "cold_vanguard", "warm_vanguard",
                                             "warm_commander", "warm_vanguard"]
    assert game.mode.camp_of("warm_vanguard") == "warm" and game.mode.camp_of("nobody") == "nobody"
    view = game.choices.view(game.players[0])
    assert sorted(map(sorted, view["sides"])) == [["cold_commander", "cold_vanguard"],
                                                  ["warm_commander", "warm_vanguard"]]
    assert all(q["role"] != "hidden" for q in view["players"])


@pytest.mark.parametrize("seed", range(1, 4))
def test_compiled_and_interpreted_play_identical_3v3_games(seed: int) -> None:
    crosscheck_game("3v3", seed, MODE)


def test_simulate_defaults_to_the_named_files_mode_and_counts_camps() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["simulate", str(THREE), "--players", "6", "--games", "4", "--json",
                               "--engine", "interpreted"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    wins = json.loads(res.output)["wins"]
    assert set(wins) <= {"warm", "cold"} and sum(wins.values()) >= 1
    named = runner.invoke(main, ["simulate", "--rules", "3v3", "--players", "6", "--games", "2", "--json",
                                 "--engine", "interpreted"], catch_exceptions=False)
    assert named.exit_code == 0, named.output
    both = runner.invoke(main, ["simulate", "--rules", "standard,3v3", "--players", "6", "--games", "2", "--json",
                                "--engine", "interpreted"], catch_exceptions=False)
    assert both.exit_code == 0 and not set(json.loads(both.output)["wins"]) & {"warm", "cold"}


@pytest.mark.soak
@pytest.mark.parametrize("draft", [True, False])
def test_soak_3v3(draft: bool) -> None:
    """1,000 games of 3v3 (500 with the draft, 500 without), invariants before every decision and the camp-action
    rules over every log."""
    prog = program(str(THREE))
    for seed in range(500):
        game = play_checked(prog, 6, seed, mode=MODE, options={"draft": draft})
        check_camp_actions(game)


def test_heuristic_agents_rarely_attack_their_open_camps_team_mates() -> None:
    """The play menu tells view-reading agents whom each card could reach, so a heuristic agent with only
    team-mates in reach does not play its 杀 at them (the camps are public in 3v3). Random agents are the
    baseline."""
    from sgsdsl.sim import make_agents

    prog = program(str(THREE))

    def friendly_share(kind: str) -> float:
        same = total = 0
        for seed in range(12):
            game = Game(prog, MODE, 6, seed, make_agents((kind,), 6, seed), {"draft": False}, round_cap=60).run()
            camp_of = {p.label(): camp(p.role) for p in game.players}
            for e in game.log:
                if e.get("e") == "damage" and e.get("source") and e["source"] != e["target"] \
                        and "杀" in str(e.get("card")):
                    total += 1
                    same += camp_of[e["source"]] == camp_of[e["target"]]
        return same / max(1, total)

    assert friendly_share("heuristic") < 0.1 < friendly_share("random")
