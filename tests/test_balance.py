"""`sgsdsl balance`: a general against a baseline on paired games, rotated over the roles; restricted play
(`--without`); the verdict under a second agent kind."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from helpers import STANDARD
from sgsdsl.cli import main
from sgsdsl.lab.balance import GENERAL, Plan, category, evaluate, points, robustness, role_rotation
from sgsdsl.lab.compare import Diff, paired_binary
from sgsdsl.lab.runner import run_tasks
from sgsdsl.lab.variant import Variant

ROOT = Path(__file__).resolve().parent.parent
TEST_GENERALS = ROOT / "docs" / "examples" / "balance" / "test_generals.sgs"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def base(players: int = 5, agents: tuple[str, ...] = ("random",)) -> Variant:
    return Variant((str(STANDARD.resolve()),), players=players, agents=agents)


POOL = ("caocao", "daqiao", "diaochan", "ganning", "guanyu", "guojia", "huanggai", "huatuo", "lvbu", "lvmeng",
        "machao", "simayi", "sunquan", "zhangfei", "zhaoyun", "zhenji")


def test_a_role_pin_seats_the_general_in_the_kth_seat_of_that_role() -> None:
    tasks = [(Variant(base().paths, players=8, role_pins=(("rebel", k, "liubei"),)), s) for k in range(4)
             for s in (3, 4)]
    records = run_tasks(tasks, jobs=1)
    for (v, _), r in zip(tasks, records, strict=True):
        rebels = [i for i, role in enumerate(r.roles) if role == "rebel"]
        assert r.generals[rebels[v.role_pins[0][1]]] == "liubei"
        assert r.generals.count("liubei") == 1


def test_arms_differ_only_in_the_pinned_seat() -> None:
    """Same seed: the same roles and the same generals everywhere else, whichever general is tested."""
    plan = Plan("liubei", POOL, role_rotation(["lord", "loyalist", "rebel", "rebel", "renegade"]))
    for j in range(8):
        a, b = (run_tasks([(plan.variant(base(), arm, j), 10 + j)], jobs=1)[0] for arm in ("general", "baseline"))
        role, _, baseline = plan.slot(j)
        assert a.roles == b.roles
        seat = a.generals.index("liubei")
        assert a.roles[seat] == role and b.generals[seat] == baseline
        assert [g for i, g in enumerate(a.generals) if i != seat] == [g for i, g in enumerate(b.generals) if i != seat]


def test_the_roles_take_turns_and_the_baseline_goes_round_the_pool() -> None:
    plan = Plan("liubei", POOL, role_rotation(["lord", "loyalist", "rebel", "rebel", "renegade"]))
    assert plan.roles == (("lord", 1), ("loyalist", 1), ("rebel", 2), ("renegade", 1))
    slots = [plan.slot(j) for j in range(4 * len(POOL))]
    assert [s[0] for s in slots[:8]] == ["lord", "loyalist", "rebel", "renegade"] * 2
    assert sorted(s[2] for s in slots if s[0] == "rebel") == sorted(POOL)  # each baseline once per role
    assert {s[1] for s in slots if s[0] == "rebel"} == {0, 1}
    assert Plan("liubei", POOL, plan.roles, against="caocao").slot(5)[2] == "caocao"


def test_a_barred_skill_never_fires_and_the_rest_of_the_table_keeps_its_skills() -> None:
    plan = Plan("liubei", POOL, role_rotation(["lord", "loyalist", "rebel", "rebel", "renegade"]), without=("rende",))
    seeds = range(1, 9)
    free = run_tasks([(plan.variant(base(), GENERAL, j), s) for j, s in enumerate(seeds)], jobs=1)
    barred = run_tasks([(plan.variant(base(), "without:rende", j), s) for j, s in enumerate(seeds)], jobs=1)
    assert sum(r.skills.get("rende", 0) for r in free) > 0
    assert all("rende" not in r.skills for r in barred)
    assert sum(sum(r.skills.values()) for r in barred) > 0  # other seats' skills still fire
    assert [r.roles for r in free] == [r.roles for r in barred]


def test_paired_binary_interval_is_never_empty_when_few_pairs_disagree() -> None:
    none = paired_binary("x", [0.0] * 10, [0.0] * 10)
    assert none.diff == 0 and none.low < -0.1 and none.high > 0.1 and not none.significant
    big = paired_binary("x", [0.0, 0.0, 1.0, 1.0] * 50, [1.0, 0.0, 1.0, 1.0] * 50)
    assert big.diff == 0.25 and big.significant and big.low < 0.25 < big.high


def test_words_and_robustness() -> None:
    def d(diff: float, low: float, high: float) -> Diff:
        return Diff("rebel", 0.4, 0.4 + diff, diff, low, high)

    assert category(d(0.2, 0.1, 0.3), 0.05) == "too strong"
    assert category(d(0.04, 0.01, 0.07), 0.05) == "stronger"
    assert category(d(0.0, -0.03, 0.03), 0.05) == "even"
    assert category(d(0.0, -0.2, 0.2), 0.05) == "unclear"
    assert category(d(-0.2, -0.3, -0.1), 0.05) == "too weak"
    assert points(0.0904) == "+9.0" and points(-0.0000001) == "±0.0" and points(-0.031) == "−3.1"
    kinds = ("heuristic", "random")
    assert robustness(d(0.2, 0.1, 0.3), d(0.1, 0.02, 0.2), kinds) == "holds"
    assert "flips" in robustness(d(0.2, 0.1, 0.3), d(-0.1, -0.2, -0.02), kinds)
    assert robustness(d(0.2, 0.1, 0.3), d(0.05, -0.02, 0.1), kinds).endswith("only under heuristic")


def test_evaluate_counts_only_the_seeds_every_arm_finished() -> None:
    plan = Plan("liubei", POOL, role_rotation(["lord", "loyalist", "rebel", "rebel", "renegade"]))
    arms = {arm: run_tasks([(plan.variant(base(), arm, j), j + 1) for j in range(12)], jobs=1) for arm in plan.arms()}
    res = evaluate(plan, "random", arms)
    assert res.games == 12 and [d.figure for d in res.roles] == ["lord", "loyalist", "rebel", "renegade"]
    assert sum(res.seats.values()) == 12 and len(res.seats) > 2  # the seat follows the role through the deal
    assert res.overall is not None and abs(res.overall.b - sum(d.b for d in res.roles) / 4) < 1e-9


def test_balance_calls_an_overpowered_general_overpowered() -> None:
    # (60 seeds: the interval's low end clear of +5 whatever the baseline's generals, at 40 it was not always)
    r = invoke("balance", "qiangjiang", str(TEST_GENERALS), "--players", "5", "--games", "60", "--jobs", "1",
               "--robust-agents", "none", "--without", "富足")
    assert r.exit_code == 0, r.output
    first = r.output.splitlines()[0]
    assert first.startswith("VERDICT: 强将 qiangjiang is overpowered: stronger than the baseline over all roles, +")
    assert "as lord" in r.output and "as renegade" in r.output and "95% CI" in r.output
    assert "富足 fuzu is worth +" in r.output


def test_balance_json_robustness_and_until_ci() -> None:
    doc = json.loads(invoke("balance", "ruojiang", str(TEST_GENERALS), "--players", "5", "--games", "8",
                            "--until-ci", "0.01", "--max-games", "16", "--agents", "random", "--robust-agents",
                            "heuristic", "--json", "--jobs", "2").output)
    assert doc["seeds"] == [1, 16] and [r["agents"] for r in doc["results"]] == ["random", "heuristic"]
    assert doc["results"][0]["games"] == 16 and len(doc["results"][0]["roles"]) == 4
    assert doc["robustness"] and doc["failed"] is None and doc["pool"] and "ruojiang" not in doc["pool"]
    assert "qiangjiang" not in doc["pool"]  # the designer's other generals stay out of the pool


def test_a_skill_that_changes_nothing_is_said_so(tmp_path: Path) -> None:
    idle = tmp_path / "idle.sgs"
    idle.write_text(f'import "{STANDARD.resolve()}"\ngeneral 闲将 xianjiang : 群 male 4 {{\n  skill 空 kong {{\n'
                    "    on drawing where event.player == owner and 1 == 2 { event.amount += 1 }\n  }\n}\n",
                    encoding="utf-8")
    r = invoke("balance", "xianjiang", str(idle), "--players", "5", "--games", "4", "--jobs", "1", "--agents",
               "random", "--robust-agents", "none", "--without", "kong")
    assert r.exit_code == 0, r.output
    assert "空 kong makes no significant difference over all roles: ±0.0 points" in r.output
    assert "(空 kong changed no game: barring it played every game exactly as before)" in r.output


def test_failed_games_lead_the_output_and_no_empty_tables() -> None:
    # beginner games hand out no generals, so the general never takes its seat: every game fails, and says why
    r = invoke("balance", "liubei", "--players", "5", "--games", "4", "--jobs", "1", "--agents", "random",
               "--robust-agents", "none", "--option", "beginner=true")
    assert r.exit_code == 1
    assert r.output.splitlines()[0].startswith("8 of 8 games failed: seed 1: liubei never sat as lord")
    assert "VERDICT" not in r.output and "┏" not in r.output


def test_bad_balance_arguments_are_usage_errors(tmp_path: Path) -> None:
    assert invoke("balance", "nobody").exit_code == 2
    assert invoke("balance", "liubei", "--against", "刘备").exit_code == 2
    bad = invoke("balance", "liubei", "--without", "rend")
    assert bad.exit_code == 2 and "did you mean 'rende'" in bad.output
    assert invoke("balance", "liubei", "--agents", "psychic").exit_code == 2
    assert invoke("balance", "liubei", "--pool", "caocao,sunquan", "--players", "5").exit_code == 2


def test_the_verdict_is_the_same_whatever_the_number_of_jobs() -> None:
    args = ["balance", "pingjiang", str(TEST_GENERALS), "--players", "5", "--games", "8", "--agents", "random",
            "--robust-agents", "heuristic", "--without", "wenjian", "--json"]
    one, two = (json.loads(invoke(*args, "--jobs", jobs).output) for jobs in ("1", "2"))
    for doc in (one, two):
        doc.pop("seconds")
    assert one == two and one["results"][1]["restricted"]["wenjian"]


def test_each_skill_bars_every_skill_of_the_general_in_an_arm_of_its_own() -> None:
    # 黄月英 (standard) has two skills: 集智 and 奇才; one named with --without comes first and is not repeated
    doc = json.loads(invoke("balance", "huangyueying", "--players", "5", "--games", "4", "--jobs", "1", "--agents",
                            "random", "--robust-agents", "none", "--without", "奇才", "--each-skill", "--json").output)
    assert doc["without"] == ["qicai", "jizhi"]
    assert sorted(doc["results"][0]["restricted"]) == ["jizhi", "qicai"]
    bare = invoke("balance", "ruojiang", str(TEST_GENERALS), "--players", "5", "--each-skill")
    assert bare.exit_code == 2 and "--each-skill: ruojiang has no skills to bar" in bare.output


def test_a_choice_agents_cannot_aim_is_noted_under_the_verdict(tmp_path: Path) -> None:
    """The balance run checks the rules and would drop every warning: SGS-W407 in the general's own skills is said
    under the verdict (and in --json), since the agents take such a choice as harmful, right or wrong."""
    swap = tmp_path / "swap.sgs"
    swap.write_text(f'import "{STANDARD.resolve()}"\ngeneral 易手者 yishouzhe : 群 male 4 {{\n  skill 易手 yishou {{\n'
                    "    active limit 1 per phase {\n"
                    "      swap_cards(choose(owner, others(owner), tags: \"control\"), choose(owner, others(owner)))\n"
                    "    }\n  }\n}\n",
                    encoding="utf-8")
    args = ["balance", "yishouzhe", str(swap), "--players", "5", "--games", "2", "--jobs", "1", "--agents",
            "heuristic", "--robust-agents", "none"]
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    note = next(line for line in r.output.splitlines() if line.startswith("note: "))
    assert "swap.sgs:5:" in note and "skill '易手'" in note and "sgsdsl explain SGS-W407" in note
    doc = json.loads(invoke(*args, "--json").output)
    assert [(n["line"], "易手" in n["message"]) for n in doc["unaimed_choices"]] == [(5, True)]
    page = tmp_path / "verdict.html"
    assert invoke(*args, "--html", str(page)).exit_code == 0
    assert "<li>note: " in page.read_text(encoding="utf-8") and "SGS-W407" in page.read_text(encoding="utf-8")
    swap.write_text(swap.read_text(encoding="utf-8").replace("others(owner)))", 'others(owner), tags: "help"))'),
                    encoding="utf-8")
    assert "note: " not in invoke(*args).output


def test_a_choice_agents_cannot_aim_in_a_procedure_the_general_calls_is_noted(tmp_path: Path) -> None:
    """A procedure its skill calls (through another) makes the general's choices too: its SGS-W407 is said under
    the verdict; one no skill of the general calls is not."""
    swap = tmp_path / "swap.sgs"
    swap.write_text(f'import "{STANDARD.resolve()}"\n'
                    "procedure swap(p: player) { swap_cards(p, choose(p, others(p))) }\n"
                    "procedure through(p: player) { swap(p) }\n"
                    "procedure unused(p: player) { swap_cards(p, choose(p, others(p))) }\n"
                    "general 易手者 yishouzhe : 群 male 4 {\n  skill 易手 yishou {\n"
                    "    active limit 1 per phase { through(owner) }\n  }\n}\n", encoding="utf-8")
    doc = json.loads(invoke("balance", "yishouzhe", str(swap), "--players", "5", "--games", "2", "--jobs", "1",
                            "--agents", "heuristic", "--robust-agents", "none", "--json").output)
    assert [(n["line"], "procedure 'swap'" in n["message"]) for n in doc["unaimed_choices"]] == [(2, True)]
