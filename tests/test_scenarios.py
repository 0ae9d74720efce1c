"""The scenario runner and `sgsdsl test`: exit codes, clear failures, no hangs, and card/skill coverage."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import MINI, ROOT, STANDARD, program
from sgsdsl.cli import main
from sgsdsl.scenario import ScenarioError, discover, parse_scenario, read_scenario, run_scenario

SCENARIOS = ROOT / "tests" / "scenarios"
EXAMPLES = ROOT / "docs" / "examples"

BASE = f"""
rules: {MINI}
seat P0: 刘备 lord
  hand: 杀♠7
seat P1: 孙权 rebel
  hand: 闪♥2
seat P2: 吕蒙
seat P3: 甄姬
"""


def run_text(text: str, name: str = "t.scenario"):
    return run_scenario(parse_scenario(name, text))


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_passing_scenario() -> None:
    out = run_text(BASE + "P0: use 杀, P1\nP1: decline\nexpect P1 hp 3\nexpect event damage target=P1 amount=1\n")
    assert out.passed, out.failures
    assert out.stopped == "script end"


def test_failed_expectation_says_expected_and_got() -> None:
    out = run_text(BASE + "P0: use 杀, P1\nP1: decline\nexpect P1 hp 2\n")
    assert not out.passed
    assert "expect P1 hp 2" in out.failures[0] and "3/4 HP" in out.failures[0]
    assert any("damage" in x for x in out.log_tail)


def test_script_that_does_not_fit_fails_clearly() -> None:
    out = run_text(BASE + "P0: use 桃\n")
    assert "does not fit the play request" in out.failures[0] and "'use 桃' is not offered" in out.failures[0]


def test_script_exhausted_with_stop_point_fails_and_never_hangs() -> None:
    out = run_text(BASE + "until: game over\nP0: use 杀, P1\n")
    assert not out.passed
    assert "script has no answer left" in out.failures[0]


def test_unused_answers_fail() -> None:
    out = run_text(BASE + "until: end of turn\nP0: end play phase\nP1: use 闪\n")
    assert "unused answer" in out.failures[0]


def test_refuse_step_checks_the_reason() -> None:
    ok = run_text(BASE + 'P0: refuse use 桃 because "not offered", end play phase\n')
    assert ok.passed, ok.failures
    bad = run_text(BASE + "P0: refuse use 杀, end play phase\n")
    assert "expected the answer to be refused" in bad.failures[0]


def test_score_expectation_needs_a_finished_scored_game() -> None:
    out = run_text(BASE + "P0: use 杀, P1\nP1: decline\nexpect P1 score 0\n")
    assert "expect P1 score 0" in out.failures[0] and "no score (the game is not over)" in out.failures[0]
    with pytest.raises(ScenarioError) as err:
        parse_scenario("x.scenario", "seat P0: 刘备\nexpect P0 score lots\n")
    assert [d.code for d in err.value.diagnostics] == ["SCN-E113"]
    won = run_text(f"rules: {STANDARD}\nseat P0: 孙权 lord\n  hand: 杀\nseat P1: 吕布 renegade hp 1/4\n"
                   "seat P2: 甘宁 rebel dead\nseat P3: 黄盖 loyalist dead\nP0: use 杀\n"
                   "expect P0 score 5\nexpect P1 score 5\n")
    assert won.failures == ["expect P1 score 5 (line 9): P1:吕布 scored 4"]


def test_malformed_scenario_has_located_diagnostics() -> None:
    with pytest.raises(ScenarioError) as err:
        parse_scenario("x.scenario", "seat P0: 刘备\nexpect P0 hp lots\nuntill: end of turn\n")
    lines = sorted((d.span.line, d.code) for d in err.value.diagnostics)
    assert lines == [(2, "SCN-E113"), (3, "SCN-E100")]
    with pytest.raises(ScenarioError) as err2:
        run_scenario(parse_scenario("y.scenario", BASE.replace("刘备", "刘被")))
    d = err2.value.diagnostics[0]
    assert d.code == "SCN-E203" and d.suggestion and "刘备" in d.suggestion


BIG = "9" * 5000


@pytest.mark.parametrize("line", ["expect ²x event damage", "expect P1 hand ²", "expect P1 hand ٣",
                                  f"expect P1 hand {BIG}", f"expect P{BIG} hp 3", "expect P1 hp ³",
                                  f"expect P1 hp -{BIG}", f"expect distance P0 P1 = {BIG}",
                                  f"  hand: 闪 x{BIG}", "  hand: 闪 x999999999"], ids=lambda s: s[:24])
def test_numbers_are_ascii_and_bounded_with_a_located_error(line: str) -> None:
    """Unicode digits and numbers of thousands of digits are malformed lines, never an internal error (or a
    list of a billion cards)."""
    text = BASE.replace("seat P1: 孙权 rebel\n  hand: 闪♥2\n", f"seat P1: 孙权 rebel\n  hand: 闪♥2\n{line}\n")
    with pytest.raises(ScenarioError) as err:
        parse_scenario("n.scenario", text)
    [d] = err.value.diagnostics
    assert d.span.line == 7 and d.code in ("SCN-E107", "SCN-E113"), d


def test_cli_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.scenario"
    good.write_text(BASE + "P0: use 杀, P1\nP1: decline\nexpect P1 hp 3\n", encoding="utf-8")
    bad = tmp_path / "bad.scenario"
    bad.write_text(BASE + "P0: use 杀, P1\nP1: decline\nexpect P1 hp 4\n", encoding="utf-8")
    broken = tmp_path / "sub" / "broken.scenario"
    broken.parent.mkdir()
    broken.write_text("seat P0: 刘备\nexpect P0 hpp 3\n", encoding="utf-8")
    r = invoke("test", str(good))
    assert r.exit_code == 0 and "PASS" in r.output and "1 passed" in r.output
    r = invoke("test", str(good), str(bad))
    assert r.exit_code == 1 and "FAIL" in r.output and "expect P1 hp 4" in r.output and "last events" in r.output
    r = invoke("test", str(tmp_path))
    assert r.exit_code == 2 and "broken.scenario:2:1: error[SCN-E113]" in r.output and "^" in r.output
    assert "Traceback" not in r.output


def test_cli_names_what_a_path_is_when_it_cannot_be_run(tmp_path: Path) -> None:
    """A path that names neither a file nor a folder is a usage error that says what it is: not there (a dangling
    link too), or there but something else (a device here; a pipe, a socket alike), never "cannot find" then."""
    r = invoke("test", "/dev/null")
    assert r.exit_code == 2 and "'/dev/null': it is neither a file nor a folder" in r.output, r.output
    r = invoke("test", str(tmp_path / "gone.scenario"))
    assert r.exit_code == 2 and "no such file or folder" in r.output, r.output
    link = tmp_path / "dangling.scenario"
    link.symlink_to(tmp_path / "nowhere")
    r = invoke("test", str(link))
    assert r.exit_code == 2 and "no such file or folder" in r.output and "Traceback" not in r.output, r.output


def test_pending_folder_is_skipped_unless_asked(tmp_path: Path) -> None:
    (tmp_path / "pending").mkdir()
    (tmp_path / "a.scenario").write_text("", encoding="utf-8")
    (tmp_path / "pending" / "b.scenario").write_text("", encoding="utf-8")
    run, skipped, _ = discover([str(tmp_path)])
    assert [p.name for p in run] == ["a.scenario"] and [p.name for p in skipped] == ["b.scenario"]
    run, skipped, _ = discover([str(tmp_path)], include_pending=True)
    assert len(run) == 2 and not skipped


def _covered(rules: Path | None = None) -> set[str]:
    """What the scenarios on a rules file cover (None: the bundled standard rules, the default of a scenario)."""
    names: set[str] = set()
    for f in sorted(SCENARIOS.rglob("*.scenario")):
        sc = read_scenario(f)
        files = [p.resolve() for p in sc.rule_files()] if sc.rules else []
        if (files != [rules.resolve()]) if rules is not None else bool(sc.rules):
            continue
        names |= {n for n, _ in sc.covers}
    return names


def _rule_skill_names(prog) -> dict[str, str]:
    """Skill display name -> owner, for general skills (equipment skills are covered by their card)."""
    out: dict[str, str] = {}
    for g in prog.generals.values():
        for s in g.skills:
            out[s.name] = g.name
    return out


def test_every_standard_card_and_skill_has_a_scenario() -> None:
    prog = program(str(STANDARD))
    covered = _covered()
    cards = {c.name for c in prog.cards.values()}
    skills = _rule_skill_names(prog)
    missing_cards = sorted(c for c in cards if c not in covered)
    missing_skills = sorted(f"{s} ({g})" for s, g in skills.items() if s not in covered)
    assert not missing_cards and not missing_skills, (
        f"no scenario covers cards: {', '.join(missing_cards) or '-'}; skills: {', '.join(missing_skills) or '-'}")


JUNZHENG = ROOT / "rules" / "junzheng.sgs"


def test_every_junzheng_card_skill_and_rule_has_a_scenario() -> None:
    """Every card junzheng.sgs defines or adds copies of, every skill of its generals and every rule it defines
    is covered by a scenario that loads rules/junzheng.sgs (equipment skills are covered by their card)."""
    from sgsdsl.lang.loader import load

    module = load([JUNZHENG]).modules[-1]
    cards = {c.name.text for c in module.cards} | {mc.card.text for mc in module.more_copies}
    skills = {s.name.text for g in module.generals for s in g.skills} | {r.name.text for r in module.rules}
    assert len(cards) == 14, sorted(cards)  # 11 new cards + more 闪, 桃, 无懈可击
    covered = _covered(JUNZHENG)
    missing = sorted((cards | skills) - covered)
    assert not missing, f"no scenario on rules/junzheng.sgs covers: {', '.join(missing)}"


SHAN = ROOT / "rules" / "shan.sgs"


def test_every_shan_skill_has_a_scenario() -> None:
    """Every skill of the 山 generals (and 急袭, gained through 凿险) is covered by a scenario that loads
    rules/shan.sgs."""
    from sgsdsl.lang.loader import load

    module = load([SHAN]).modules[-1]
    skills = {s.name.text for g in module.generals for s in g.skills} | {s.name.text for s in module.skills}
    assert len(module.generals) == 8 and len(skills) == 18, sorted(skills)  # 17 printed skills + 急袭
    missing = sorted(skills - _covered(SHAN))
    assert not missing, f"no scenario on rules/shan.sgs covers: {', '.join(missing)}"


LIN = ROOT / "rules" / "lin.sgs"


def test_every_lin_skill_and_rule_has_a_scenario() -> None:
    """Every skill of the 8 林 generals and every rule lin.sgs defines is covered by a scenario that loads
    rules/lin.sgs (tests/scenarios/lin/)."""
    from sgsdsl.lang.loader import load

    module = load([LIN]).modules[-1]
    skills = {s.name.text for g in module.generals for s in g.skills}
    assert len(module.generals) == 8 and len(skills) == 18, sorted(skills)
    covered = _covered(LIN)
    missing = sorted((skills | {r.name.text for r in module.rules}) - covered)
    assert not missing, f"no scenario on rules/lin.sgs covers: {', '.join(missing)}"


FENG = ROOT / "rules" / "feng.sgs"
HUO = ROOT / "rules" / "huo.sgs"


@pytest.mark.parametrize(("path", "skill_count"), [(FENG, 11), (HUO, 13)], ids=["feng", "huo"])
def test_every_feng_and_huo_skill_has_a_scenario(path: Path, skill_count: int) -> None:
    """Every skill of the 8 风 (and of the 8 火) generals is covered by a scenario that loads the pack's file
    (tests/scenarios/feng/, tests/scenarios/huo/), alone or after other packs."""
    from sgsdsl.lang.loader import load

    module = load([path]).modules[-1]
    skills = {s.name.text for g in module.generals for s in g.skills}
    assert len(module.generals) == 8 and len(skills) == skill_count, sorted(skills)
    covered: set[str] = set()
    for f in sorted(SCENARIOS.rglob("*.scenario")):
        sc = read_scenario(f)
        if sc.rules and path.resolve() in [p.resolve() for p in sc.rule_files()]:
            covered |= {n for n, _ in sc.covers}
    missing = sorted(skills - covered)
    assert not missing, f"no scenario on {path.name} covers: {', '.join(missing)}"


def test_every_scenario_cites_a_rule() -> None:
    for f in sorted(SCENARIOS.rglob("*.scenario")):
        sc = read_scenario(f)
        assert sc.rule.strip(), f"{f}: add a `rule:` line naming the rule it proves"
        assert sc.covers, f"{f}: add a `covers:` line"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.scenario")), ids=lambda p: p.name)
def test_docs_examples_pass(path: Path) -> None:
    out = run_scenario(read_scenario(path))
    assert out.passed, "\n".join(out.failures)


def test_docs_page_mentions_every_statement() -> None:
    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    for word in ("seat", "hand:", "equip:", "judge:", "deck:", "start:", "until:", "expect", "refuse", "offers",
                 "covers:", "rule:", "game marks:", "memory P1:", "memory league:", "dead 2 by P0", "expect game mark",
                 "expect P1 memory", "expect league memory", "asked 反馈 in P0 play", "not asked in discard",
                 "sees P1 role hidden", "event log text="):
        assert re.search(re.escape(word), text), word


def test_until_end_of_round_plays_every_seat_once() -> None:
    text = BASE + "until: end of round\n" + "".join(f"P{i}: end play phase\n" for i in range(4))
    out = run_text(text)
    assert out.passed, out.failures
    assert out.stopped == "end of round"


def test_start_phase_and_marks_and_chained() -> None:
    text = BASE.replace("seat P1: 孙权 rebel", "seat P1: 孙权 rebel chained\n  marks: foo = 2") + (
        "start: P0 finish\nuntil: end of turn\nexpect P1 chained\nexpect P1 mark foo = 2\nexpect P0 no mark foo\n"
        "expect no event draw\n")
    out = run_text(text)
    assert out.passed, out.failures


def test_rules_that_do_not_check_make_the_scenario_malformed(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgs"
    bad.write_text("card 杀 sha : basic { copies ♠7  effect { frobnicate(target) } }\n", encoding="utf-8")
    sc = tmp_path / "s.scenario"
    sc.write_text("rules: bad.sgs\nseat P0: 刘备\n", encoding="utf-8")
    r = invoke("test", str(sc))
    assert r.exit_code == 2 and "do not check" in r.output and "Traceback" not in r.output


def test_standard_scenarios_also_pass_compiled() -> None:
    """The compiled rules must prove the same rulings as the reference interpreter."""
    failed = []
    for f in sorted(SCENARIOS.rglob("*.scenario")):
        if "pending" in f.relative_to(SCENARIOS).parts[:-1]:
            continue
        out = run_scenario(read_scenario(f), engine="compiled")
        if not out.passed:
            failed.append(f"{f.name}: {out.failures[0]}")
    assert not failed, "\n".join(failed)


def test_game_under_way_lines_have_located_errors() -> None:
    """The lines for a game already under way (issue 32) are checked like the rest: each problem is located."""
    text = ("seat P0: 孙权 lord dead 1\nseat P1: 甘宁 rebel dead 3 by P7\nseat P2: 甘宁 rebel dead\n"
            "memory P9: x = 1\nmemory: y\ngame mark foo\nexpect P0 asked in P0 dinner\nexpect P0 sees P1 mood happy\n"
            "expect league memory\nexpect P1 sees P7 hand 2\n")
    with pytest.raises(ScenarioError) as err:
        parse_scenario("g.scenario", text)
    got = sorted((d.span.line, d.code) for d in err.value.diagnostics)
    assert got == [(2, "SCN-E103"), (3, "SCN-E107"), (4, "SCN-E103"), (5, "SCN-E100"), (6, "SCN-E100"),
                   (7, "SCN-E109"), (8, "SCN-E113"), (9, "SCN-E113"), (10, "SCN-E103")], got
    with pytest.raises(ScenarioError) as err3:  # a line that starts with its colon (an IndexError before)
        parse_scenario("c.scenario", "seat P0: 孙权 lord\n: hand\n")
    assert [(d.span.line, d.code) for d in err3.value.diagnostics] == [(2, "SCN-E100")]
    with pytest.raises(ScenarioError) as err2:
        parse_scenario("h.scenario", "seat P0: 孙权 lord\nseat P1: 甘宁 dead 1\nseat P2: 甘宁 dead 1\n")
    [d] = err2.value.diagnostics
    assert d.code == "SCN-E107" and "each once" in d.message and d.span.line == 2


def test_game_under_way_lines_reach_the_game() -> None:
    """Dead seats go on record in their stated order with their killer; game marks and memory are in place."""
    from sgsdsl.scenario.runner import ScenarioAgent, build_game, prepare

    sc = parse_scenario("w.scenario", BASE.replace("seat P2: 吕蒙", "seat P2: 吕蒙 dead 1 by P1").replace(
        "seat P3: 甄姬", "seat P3: 甄姬 dead 2") + "game marks: omen = 3\nmemory P1: first_out = true\n"
        "memory league: season = 2\n")
    game = build_game(sc, prepare(sc), ScenarioAgent(sc, True))
    assert [(v.seat, k.seat if k else None, n) for v, k, n in game.deaths] == [(2, 1, 4), (3, None, 3)]
    assert game.marks["omen"] == 3
    assert game.carry.memory == {1: {"first_out": True}, "shared": {"season": 2}}
