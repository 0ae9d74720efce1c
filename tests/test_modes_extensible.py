"""The mode members that later modes need: `turn_order` (3v3's alternating camp actions), `replace` (同舟共济's
card replacements) and `score` (the scoring league's tables). Fixtures in .sgs: tests/fixtures/camps.sgs and
tests/fixtures/league.sgs; both back ends play them, and must play them identically."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from helpers import MINI, ROOT, play_checked, program
from sgsdsl.api import check_paths
from sgsdsl.cli import main
from sgsdsl.compiler.crosscheck import GameSpec, compare, load_pair
from sgsdsl.engine import registry as reg
from sgsdsl.engine.agents import Agent, RandomAgent, Request
from sgsdsl.engine.errors import GameOver, RuleError
from sgsdsl.engine.game import Game
from sgsdsl.engine.program import Frame
from sgsdsl.lang.checker import check
from sgsdsl.lang.parser import parse_text
from sgsdsl.sim import agent_seed

CAMPS = ROOT / "tests" / "fixtures" / "camps.sgs"
LEAGUE = ROOT / "tests" / "fixtures" / "league.sgs"
COMMANDERS = ("lord", "renegade")


def side(role: str) -> str:
    return "lord" if role in ("lord", "loyalist") else "renegade"


def seat_of(label: str) -> int:
    return int(label.split(":", 1)[0].removeprefix("P"))


def rounds_of(game: Game) -> list[list[int]]:
    """The seats that took a turn in each round, from the log."""
    out: list[list[int]] = []
    for e in game.log:
        if e.get("e") == "round":
            out.append([])
        elif e.get("e") == "turn":
            out[-1].append(seat_of(e["player"]))
    return out


# ---------------------------------------------------------------- front end
def test_fixtures_check_without_any_diagnostic() -> None:
    for path in (CAMPS, LEAGUE):
        loaded = check_paths([str(path)])
        assert loaded.diagnostics == [], [str(d) for d in loaded.diagnostics]


MODE = """\
card 桃 tao : basic { copies ♥3  use play target self  effect { recover(target, 1) } }
card 粽 zong : basic { use play target self  effect { recover(target, 1) } }
mode 单挑 duel {
  players 2..2
  option dragon_boat = true
  roles 2 { lord rebel }
  win lord when count(players()) == 1
"""


def diags(members: str) -> list[tuple[str, int, str]]:
    module, syntax = parse_text(MODE + members + "\n}\n", "t.sgs")
    assert module is not None, syntax
    return [(d.code, d.span.line, d.message + " " + (d.suggestion or "")) for d in check([module]).diagnostics]


def test_new_members_check_clean_and_replacement_card_needs_no_copies() -> None:
    assert diags("replace 桃 with 粽 if dragon_boat\n"
                 "turn_order { for p in players() { take_turn(p) } }\n"
                 "score lord = 2 when is_winner(player)\n"
                 "score lord rebel += kills(player) - 1\n"
                 "score rebel -= 1 when not player.alive and count(winners()) > 0") == []


@pytest.mark.parametrize(("members", "code", "text"), [
    ("replace 桃 with 粽子", "SGS-E202", "did you mean '粽'"),
    ("replace 桃子 with 粽", "SGS-E202", "did you mean '桃'"),
    ("replace 桃 with 桃", "SGS-E216", "replaced with itself"),
    ("replace 桃 with 粽 if false", "SGS-W403", "never replaced"),
    ("replace 桃 with 粽\nreplace 桃 with 粽 if dragon_boat", "SGS-W405", "never applies"),
    ("turn_order { draw(first(players()), 1) }\nturn_order { }", "SGS-E217", "second `turn_order`"),
    ("setup { }\nsetup { }", "SGS-E217", "second `setup`"),
    ("on turn_start { take_turn(event.player) }", "SGS-E215", "turn_order"),
    ("setup { take_turn(first(players())) }", "SGS-E215", "turn_order"),
    ("win rebel when count(winners()) > 0", "SGS-E215", "score"),
    ("score lrod = 1", "SGS-E202", "did you mean 'lord'"),
    ("score lord = \"many\"", "SGS-E301", "a score needs a number"),
    ("score lord = draw(player, 1)", "SGS-E303", "cannot be used in a condition"),
    ("score lord = 1 when owner.alive", "SGS-E202", "unknown name 'owner'"),
    ("score lord = 1 when false", "SGS-W403", "never applies"),
    ("score lord rebel = 1\nscore lord = 2 when is_winner(player)", "SGS-W405", "never applies"),
])
def test_misuse_is_diagnosed(members: str, code: str, text: str) -> None:
    found = diags(members)
    assert any(c == code and text in msg for c, _, msg in found), found


def test_score_lines_after_a_partly_shadowing_line_still_apply() -> None:
    # `lord = 1` settles the lord only: a line for the lord and the rebel still scores rebels; `+=` always adds
    assert diags("replace 桃 with 粽\nscore lord = 1\nscore lord rebel = 2 when is_winner(player)\n"
                 "score lord += 1") == []


def test_keywords_stay_usable_as_names_elsewhere() -> None:
    module, syntax = parse_text('skill 技 s { on turn_start { let score = 1  let replace = 2  let turn_order = 3\n'
                                '  draw(owner, score + replace + turn_order) } }', "t.sgs")
    assert module is not None, syntax


# ---------------------------------------------------------------- turn_order
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_turn_order_alternates_camp_actions(seed: int) -> None:
    game = play_checked(program(str(CAMPS)), 6, seed, mode="camps")
    roles = {p.seat: p.role for p in game.players}
    rounds = [r for r in rounds_of(game) if r]
    assert rounds and roles[rounds[0][0]] in COMMANDERS, "the very first turn is a commander's"
    assert side(roles[rounds[0][0]]) != side(roles[rounds[1][0]]), "the camps alternate"
    for seats in rounds:
        camp = {side(roles[s]) for s in seats}
        assert len(camp) == 1, f"one camp acts per round: {seats}"
        if any(roles[s] in COMMANDERS for s in seats):
            assert len(seats) == 1, f"the commander acts alone: {seats}"
        assert len(set(seats)) == len(seats)
    # both vanguard actions and commander actions happen over a game
    assert any(len(r) == 2 for r in rounds) and any(roles[r[0]] in COMMANDERS for r in rounds[2:])
    assert game.result is not None


def test_turn_order_keeps_rounds_round_cap_and_round_scopes() -> None:
    prog = program(str(CAMPS))
    holder: dict[str, Any] = {}
    game = Game(prog, "camps", 6, 7, [_MarkProbe(agent_seed(7, i), holder) for i in range(6)], round_cap=3)
    holder["game"] = game
    game.dispatch.set_mark(game, "probe", 1, "round")
    game.run()
    assert game.result == ((), "round_cap")
    assert [e["round"] for e in game.log if e.get("e") == "round"] == [1, 2, 3]
    # (read by the agents at every decision, from the choice of generals (round 0) on, not by patching the engine:
    # the native build's methods cannot be patched)
    assert holder["seen"] == {0: {1}, 1: {1}, 2: {None}, 3: {None}}, "round marks are cleared after each round"
    assert game.scores is not None and len(game.scores) == 6  # a draw is scored too


class _Watching(Agent):
    """Plays as the random agent; before each answer, `look`s at the game the holder names."""

    def __init__(self, seed: int, holder: dict[str, Any]):
        self.inner = RandomAgent(seed)
        self.holder = holder

    def decide(self, request: Request, view: Any) -> list[int]:
        self.look(self.holder["game"], request)
        return self.inner.decide(request, view)

    def look(self, g: Game, request: Request) -> None:
        raise NotImplementedError


class _MarkProbe(_Watching):
    """Notes, per round, the values the table's mark `probe` had when it was asked."""

    name = "mark-probe"

    def look(self, g: Game, request: Request) -> None:
        self.holder.setdefault("seen", {}).setdefault(g.round, set()).add(g.marks.get("probe"))


class _Probe(_Watching):
    """Calls take_turn while a turn is being played (the first time it is asked mid-turn)."""

    name = "probe"

    def look(self, g: Game, request: Request) -> None:
        if g.in_turn and "error" not in self.holder:
            with pytest.raises(RuleError) as err:
                reg.PRIMITIVES["take_turn"].impl(Frame(g, {}), g.players[request.seat])
            self.holder["error"] = str(err.value)
            self.holder["turns"] = g.turns


def test_take_turn_is_refused_inside_a_turn_and_skips_the_dead() -> None:
    holder: dict[str, Any] = {}
    game = Game(program(str(CAMPS)), "camps", 6, 4, [_Probe(i, holder) for i in range(6)], round_cap=4)
    holder["game"] = game
    game.run()
    assert "inside a turn" in holder["error"] and "turn_order" in holder["error"]
    assert game.turns >= holder["turns"]
    dead = game.players[0]
    dead.alive = False
    assert game.in_turn is False
    assert reg.PRIMITIVES["take_turn"].impl(Frame(game, {}), dead) is False


# ---------------------------------------------------------------- replace
def faces(game: Game, name: str) -> list[tuple[int, str, int]]:
    return [(c.id, c.suit, c.rank) for c in game.cards if c.name == name]


def test_replace_swaps_every_copy_keeping_suit_rank_and_order() -> None:
    prog = program(str(CAMPS))
    agents = [RandomAgent(i) for i in range(6)]
    on = Game(prog, "camps", 6, 11, agents)
    off = Game(prog, "camps", 6, 11, agents, options={"dragon_boat": False})
    identity = Game(prog, "identity", 5, 11, agents[:5])
    assert faces(on, "桃") == [] and faces(off, "粽") == [] and faces(identity, "粽") == []
    assert faces(on, "粽") == faces(off, "桃") == faces(identity, "桃")
    assert len(faces(on, "粽")) == len(prog.cards["tao"].copies) > 0
    assert [c.id for c in on.draw_pile] == [c.id for c in off.draw_pile], "the shuffle does not change"
    assert [(c.name, c.suit, c.rank) for c in on.cards if c.name != "粽"] == \
        [(c.name, c.suit, c.rank) for c in off.cards if c.name != "桃"]


def test_replacement_card_is_played() -> None:
    used = 0
    for seed in range(1, 6):
        game = play_checked(program(str(CAMPS)), 6, seed, mode="camps")
        used += sum(1 for e in game.log if "粽" in json.dumps(e, ensure_ascii=False) and e.get("e") == "use")
        assert not any("桃" in json.dumps(e, ensure_ascii=False) for e in game.log if e.get("e") == "use")
    assert used > 0


# ---------------------------------------------------------------- score
def league_table(game: Game) -> list[int]:
    """The fourth-edition table (reference §1), computed from the event log only."""
    n = len(game.players)
    roles = {p.seat: p.role for p in game.players}
    won = set(game.result[0]) if game.result else set()
    alive = n
    died_with: dict[int, int] = {}
    kills: dict[int, list[str]] = {s: [] for s in roles}
    for e in game.log:
        if e.get("e") == "death":
            died_with[seat_of(e["player"])] = alive
            alive -= 1
            if e["killer"]:
                kills[seat_of(e["killer"])].append(e["role"])
    survivors = {r: sum(1 for p in game.players if p.alive and p.role == r) for r in set(roles.values())}
    out = []
    for seat, role in sorted(roles.items()):
        me = game.players[seat]
        k = kills[seat]
        base = 0
        if role == "renegade":
            if "renegade" in won:
                base = 4 + 2 * n
            elif "lord" in won and died_with.get(seat) == 2:
                base = n
            elif "rebel" in won and me.alive:
                base = 1
        elif role == "lord":
            base = 4 + 2 * survivors.get("loyalist", 0) if "lord" in won else 1 if "renegade" in won else 0
        elif role == "loyalist":
            base = 5 + survivors.get("loyalist", 0) if "lord" in won else 0
        elif role == "rebel":
            base = 3 * survivors.get("rebel", 0) if "rebel" in won else 0
        bonus = 0
        if role in ("lord", "loyalist") and "lord" in won:
            bonus = k.count("rebel") + k.count("renegade")
        elif role == "rebel":
            bonus = k.count("loyalist") + k.count("renegade") + 2 * k.count("lord")
        out.append(base + bonus)
    return out


def test_league_scores_follow_the_fourth_edition_table() -> None:
    prog = program(str(LEAGUE))
    sides = set()
    for players in (4, 5):
        for seed in range(1, 13):
            game = play_checked(prog, players, seed, mode="league")
            assert game.scores == league_table(game), (players, seed, game.result)
            end = game.log[-1]
            assert end["e"] == "game_over" and end["scores"] == game.scores
            sides.add(game.result[0] if game.result else ())
    assert ("rebel",) in sides and ("lord", "loyalist") in sides


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_league_scores_a_lone_renegade_win(engine: str) -> None:
    """Rare in random play: the renegade outlives everyone (4 + 2 × players); the lord gets 1."""
    game = Game(program(str(LEAGUE), engine), "league", 5, 1, [RandomAgent(i) for i in range(5)])
    for p, role in zip(game.players, ["lord", "loyalist", "rebel", "rebel", "renegade"], strict=True):
        p.role = role
    killer = game.players[4]
    for victim in game.players[:4]:
        game.deaths.append((victim, killer, len(game.alive())))
        victim.alive = False
    game.finish(GameOver(("renegade",), "win"))
    assert game.scores == [1, 0, 0, 0, 14]
    assert game.log[-1]["scores"] == [1, 0, 0, 0, 14] and game.log[-1]["seats"] == [4]


def test_modes_without_score_lines_report_no_scores() -> None:
    game = play_checked(program(str(MINI)), 4, 3)
    assert game.scores is None and "scores" not in game.log[-1]


def test_camps_scores_use_first_matching_line_plus_bonuses() -> None:
    game = play_checked(program(str(CAMPS)), 6, 5, mode="camps")
    won = set(game.result[0])
    for p, score in zip(game.players, game.scores, strict=True):
        kills = sum(1 for e in game.log if e.get("e") == "death" and e["killer"] == p.label())
        base = 0
        if p.role in won:
            base = 3 if p.role in COMMANDERS else 2 if p.alive else 1
        assert score == base + kills, p.label()


# ---------------------------------------------------------------- both back ends, simulate
@pytest.mark.parametrize(("rules", "mode", "players", "options"), [
    ("tests/fixtures/camps.sgs", "camps", 6, (("dragon_boat", True),)),
    ("tests/fixtures/camps.sgs", "camps", 6, (("dragon_boat", False),)),
    ("tests/fixtures/league.sgs", "league", 5, ()),
])
def test_compiled_and_interpreted_play_identical_games(rules: str, mode: str, players: int, options) -> None:
    pair = load_pair(rules)
    assert not isinstance(pair, str), pair
    compiled, interpreted = pair
    assert compiled.modes[mode].turn_order is not None or mode != "camps"
    assert len(compiled.modes[mode].scores) == len(interpreted.modes[mode].scores) > 0
    for seed in range(1, 5):
        diff, outcome = compare(GameSpec(rules, mode, players, seed, options), compiled, interpreted)
        assert diff is None, diff
        assert outcome.log[-1]["e"] == "game_over" and "scores" in outcome.log[-1]


def test_simulate_reports_average_score_per_role() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["simulate", str(LEAGUE), "--mode", "league", "--players", "5", "--games", "6",
                               "--json", "--engine", "interpreted"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert set(data["avg_score"]) == {"lord", "loyalist", "rebel", "renegade"}
    table = runner.invoke(main, ["simulate", str(LEAGUE), "--mode", "league", "--players", "4", "--games", "3",
                                 "--engine", "interpreted"], catch_exceptions=False)
    assert "average score: rebel" in table.output
    plain = runner.invoke(main, ["simulate", str(MINI), "--players", "4", "--games", "2", "--json",
                                 "--engine", "interpreted"], catch_exceptions=False)
    assert "avg_score" not in json.loads(plain.output)


def test_engine_names_no_card_role_or_mode() -> None:
    names = ("桃", "粽", "lord", "rebel", "loyalist", "renegade", "camps", "league", "identity", "3v3")
    for path in sorted((ROOT / "sgsdsl" / "engine").glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            code = code.split('"""', 1)[0] if '"""' in code else code
            for name in names:
                assert f'"{name}"' not in code and f"'{name}'" not in code, f"{Path(path).name}:{n}: {name}"
