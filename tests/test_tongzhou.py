"""同舟共济 (rules/tongzhou.sgs) over whole games, and the generic vocabulary it brought: dual-kingdom generals,
kingdom-limited offers, `sum`, `random_pick`, `place` lines (rankings) and the per-faction summary. Rules stated
by one position are scenarios (tests/scenarios/tongzhou/)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import ROOT, crosscheck_game, play_checked, program, rule_file, run_both_engines
from sgsdsl.api import check_paths
from sgsdsl.cli import main
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game

TONGZHOU = ROOT / "rules" / "tongzhou.sgs"
MODE = "tongzhou"
KINGDOM = {"wei": "魏", "shu": "蜀", "wu": "吴", "qun": "群"}
BANNED = {"左慈", "于吉", "袁绍"}


def treasures(game: Game) -> int:
    return sum(int(p.marks.get("treasure", 0) or 0) for p in game.players)


@pytest.mark.parametrize("seed", range(8))
def test_whole_games_keep_the_mode_rules(seed: int) -> None:
    game = play_checked(program(str(TONGZHOU)), 8, seed, mode=MODE)
    roles = Counter(p.role for p in game.players)
    assert roles == {"wei": 2, "shu": 2, "wu": 2, "qun": 2}
    assert all(p.role_revealed for p in game.players)
    for p in game.players:
        assert p.general is not None and p.general.name not in BANNED
        assert KINGDOM[p.role] in p.general.kingdoms and p.kingdom == KINGDOM[p.role]
    assert len({p.general.ident for p in game.players}) == 8
    # the five treasures only ever change hands
    assert treasures(game) == 5
    assert game.result is not None
    winners, reason = game.result
    if reason == "win":
        assert len(winners) == 1
        champions = {p.role for p, place in zip(game.players, game.places or [], strict=True) if place == 1}
        assert champions == set(winners)
        assert any(place == 2 for place in game.places or [])


def test_deck_replaces_the_standard_cards_copy_for_copy() -> None:
    prog = program(str(TONGZHOU))
    agents = [RandomAgent(i) for i in range(8)]
    mode = Game(prog, MODE, 8, 3, agents)
    ident = Game(prog, "identity", 8, 3, agents)
    has = Counter(c.name for c in mode.cards)
    base = Counter(c.name for c in ident.cards)
    assert len(mode.cards) == len(ident.cards)
    for old in ("桃", "酒", "无中生有", "五谷丰登", "桃园结义"):
        assert has[old] == 0 and base[old] > 0
    assert has["粽"] == base["桃"] and has["雄黄酒"] == base["酒"] and has["同舟共济"] == base["无中生有"]
    assert has["力争上游"] == base["五谷丰登"] + base["桃园结义"]
    faces = sorted((c.suit, c.rank) for c in mode.cards if c.name == "粽")
    assert faces == sorted((c.suit, c.rank) for c in ident.cards if c.name == "桃")
    # identity games of the same rules keep the standard cards: the exclusive ones only enter by replacement
    assert not {"粽", "雄黄酒", "同舟共济", "力争上游"} & set(base)


def test_treasure_start_five_with_an_extra_for_seat_ones_faction() -> None:
    for seed in range(6):
        game = Game(program(str(TONGZHOU)), MODE, 8, seed, [RandomAgent(i) for i in range(8)], round_cap=0)
        game.run()
        held = Counter()
        for p in game.players:
            held[p.role] += int(p.marks.get("treasure", 0) or 0)
        first = game.players[0].role
        assert held[first] == 2 and all(held[r] == 1 for r in held if r != first), held


def test_dual_kingdom_generals_and_kingdom_limited_offers(tmp_path: Path) -> None:
    prog = program(str(TONGZHOU))
    liuqi = prog.generals["liuqi"]
    tangzi = prog.generals["tangzi"]
    assert liuqi.kingdoms == ["蜀", "群"] and liuqi.kingdom == "蜀"
    assert tangzi.kingdoms == ["魏", "吴"]
    assert prog.generals["caocao"].kingdoms == ["魏"]
    body = ('let got = random_generals(30, kingdom: 群) '
            'if not all([群 in g.kingdoms for g in got]) { lose_hp(current(), 99) } '
            'mark(current(), "qun", count(got)) return_generals(got) '
            'mark(current(), "total", sum([1, 2, 3])) mark(current(), "pick", random_pick([7])) '
            'if random_pick([]) != none { lose_hp(current(), 99) }')
    extra = 'general 双 shuang : 魏/群 male 4 { }\n'
    game = run_both_engines(rule_file(tmp_path, body, extra=extra, timing="game_start"))["game"]
    found = [p for p in game.players if "qun" in p.marks]
    assert found, "the rule ran"
    q = found[0].marks
    assert q["total"] == 6 and q["pick"] == 7
    seated = {p.general.ident for p in game.players if p.general is not None}
    assert q["qun"] == sum(1 for g in game.program.generals.values() if "群" in g.kingdoms and g.ident not in seated)
    assert "shuang" in seated or q["qun"] >= 1  # the dual-kingdom 魏/群 general counts for 群


def test_dual_kingdom_syntax_errors_are_located(tmp_path: Path) -> None:
    (tmp_path / "bad.sgs").write_text("general 甲 jia : 魏/ male 4 { }\n", encoding="utf-8")
    loaded = check_paths([str(tmp_path / "bad.sgs")])
    errors = [d for d in loaded.diagnostics if d.severity == "error"]
    assert errors and errors[0].span.line == 1


def test_sum_refuses_what_is_not_a_number(tmp_path: Path) -> None:
    game = run_both_engines(rule_file(tmp_path, 'mark(current(), "s", sum(["a"]))'))
    assert "sum" in (game["interpreted"][0] or "") and game["interpreted"] == game["compiled"]


def test_place_lines_rank_and_shadowed_lines_warn(tmp_path: Path) -> None:
    (tmp_path / "p.sgs").write_text(f'import "{(ROOT / "tests" / "fixtures" / "mini.sgs").as_posix()}"\n'
                                    "mode 排名 ranked extends identity {\n"
                                    "  place lord loyalist rebel renegade = 1 when is_winner(player)\n"
                                    "  place lord = 2\n"
                                    "  place lord = 3\n"
                                    "}\n", encoding="utf-8")
    loaded = check_paths([str(tmp_path / "p.sgs")])
    warns = [(d.code, d.span.line) for d in loaded.diagnostics if d.severity == "warning"]
    assert ("SGS-W405", 5) in warns
    bad = tmp_path / "q.sgs"
    bad.write_text(f'import "{(ROOT / "tests" / "fixtures" / "mini.sgs").as_posix()}"\n'
                   'mode 排名 ranked extends identity {\n  place lord = "first"\n}\n', encoding="utf-8")
    assert any(d.code == "SGS-E301" for d in check_paths([str(bad)]).diagnostics)


def test_simulate_counts_factions_and_ranks() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["simulate", "--rules", "tongzhou", "--players", "8", "--games", "4", "--json",
                               "--engine", "interpreted"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert set(doc["wins"]) <= {"wei", "shu", "wu", "qun"} and sum(doc["wins"].values()) + sum(
        doc["draws"].values()) == 4
    assert sum(n for k, n in doc["places"].items() if k.endswith("place 1")) == sum(doc["wins"].values())
    table = runner.invoke(main, ["simulate", str(TONGZHOU), "--players", "8", "--games", "2", "--engine",
                                 "interpreted"], catch_exceptions=False)
    assert table.exit_code == 0 and "champion:" in table.output and "runner-up:" in table.output
    # without --players a mode that cannot seat the default 8 plays its own count
    six = runner.invoke(main, ["simulate", "--rules", "3v3", "--games", "1", "--json", "--engine", "interpreted"],
                        catch_exceptions=False)
    assert six.exit_code == 0 and json.loads(six.output)["settings"]["players"] == 6, six.output
    wrong = runner.invoke(main, ["simulate", "--rules", "3v3", "--games", "1", "--players", "8"])
    assert wrong.exit_code == 2 and "6-6 players" in wrong.output


@pytest.mark.parametrize("seed", range(1, 3))
def test_compiled_and_interpreted_play_identical_tongzhou_games(seed: int) -> None:
    crosscheck_game("tongzhou", seed, MODE)


@pytest.mark.soak
def test_soak_tongzhou() -> None:
    """1,000 games of 同舟共济: invariants before every decision, five treasures at the end, ranks given."""
    prog = program(str(TONGZHOU))
    for seed in range(1000):
        game = play_checked(prog, 8, seed, mode=MODE)
        assert treasures(game) == 5
        if game.result and game.result[1] == "win":
            assert 1 in (game.places or [])


@pytest.mark.parametrize("seed", range(3))
def test_offers_are_of_the_faction_kingdom_exclusive_first_and_picks_public(seed: int) -> None:
    game = Game(program(str(TONGZHOU)), MODE, 8, seed, [RandomAgent(i) for i in range(8)], round_cap=0)
    game.run()
    gens = {g.name: g for g in game.program.generals.values()}
    offers = [e for e in game.log if e.get("kind") == "choose" and str(e.get("prompt", "")).startswith("choose your")]
    assert [e["ask"] for e in offers] == list(range(8))  # seat by seat
    taken: set[str] = set()
    for e in offers:
        faction = game.players[e["ask"]].role
        kingdom = KINGDOM[faction]
        names = e["options"]
        assert all(kingdom in gens[n].kingdoms for n in names) and not set(names) & taken
        assert len(names) == 6, (kingdom, names)  # the whole roster: 群 too gets its 6
        free = [x for x in ("刘琦", "唐咨") if kingdom in gens[x].kingdoms and x not in taken]
        assert names[:len(free)] == free
        mate = next(p for p in game.players if p.role == faction and p.seat != e["ask"])
        if mate.seat < e["ask"]:  # the team-mate chose first: its pick is in the log before this offer
            before = game.log[:game.log.index(e)]
            assert any(x.get("e") == "general" and x["player"].startswith(f"P{mate.seat}:") for x in before)
        taken.add(game.players[e["ask"]].general.name)


def test_every_tongzhou_card_skill_and_rule_has_a_scenario() -> None:
    """Every card rules/tongzhou.sgs defines, every skill of its generals, 恂恂, its rules and the mode itself are
    covered by a scenario that loads rules/tongzhou.sgs."""
    from sgsdsl.lang.loader import load
    from sgsdsl.scenario import read_scenario

    module = load([TONGZHOU]).modules[-1]
    wanted = ({c.name.text for c in module.cards} | {s.name.text for g in module.generals for s in g.skills}
              | {s.name.text for s in module.skills} | {r.name.text for r in module.rules} | {"tongzhou"})
    assert {"粽", "雄黄酒", "同舟共济", "力争上游", "问计", "屯江", "兴棹", "恂恂"} <= wanted
    covered: set[str] = set()
    for f in sorted((ROOT / "tests" / "scenarios").rglob("*.scenario")):
        sc = read_scenario(f)
        if sc.rules and [p.resolve() for p in sc.rule_files()] == [TONGZHOU.resolve()]:
            covered |= {n for n, _ in sc.covers}
    assert not wanted - covered, sorted(wanted - covered)


@pytest.mark.parametrize("args", [[str(TONGZHOU)], ["--rules", "3v3"]], ids=["tongzhou", "3v3"])
def test_play_and_replay_both_team_modes(tmp_path: Path, args: list[str], monkeypatch) -> None:
    """`sgsdsl play` seats the mode's own player count by default, a game runs to its end with a human at
    seat 0 (answers from stdin), and its log replays with every state hash matching."""
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path / "cache"))
    log = tmp_path / "game.jsonl"
    runner = CliRunner()
    res = runner.invoke(main, ["play", *args, "--log", str(log), "--opponents", "random"],
                        input="0\n0 1\n" * 3000, catch_exceptions=False)
    assert res.exit_code == 0, res.output[-2000:]
    assert "game over" in res.output and log.is_file()
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header.get("players") in (6, 8), header
    again = runner.invoke(main, ["replay", str(log)], catch_exceptions=False)
    assert again.exit_code == 0 and "every state hash matches" in again.output, again.output


def test_the_other_readings_are_options() -> None:
    """extra_to_seat_one: seat 1 itself holds the extra treasure; exclusive_first=false: the dual-kingdom
    generals are not put first in the offers."""
    prog = program(str(TONGZHOU))
    firsts = []
    for seed in range(6):
        game = Game(prog, MODE, 8, seed, [RandomAgent(i) for i in range(8)],
                    {"extra_to_seat_one": True, "exclusive_first": False}, round_cap=0)
        game.run()
        assert int(game.players[0].marks.get("treasure", 0)) >= 1
        held = sum(int(p.marks.get("treasure", 0) or 0) for p in game.players if p.role == game.players[0].role)
        assert held == 2
        firsts += [e["options"][0] for e in game.log if str(e.get("prompt", "")).startswith("choose your general")]
    assert sum(1 for n in firsts if n in ("刘琦", "唐咨")) < len(firsts) // 2
