"""The balance lab: Wilson intervals, results independent of --jobs, pinned generals and pools, exports."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import STANDARD
from sgsdsl.cli import main
from sgsdsl.lab.compare import paired, what_changed
from sgsdsl.lab.runner import run
from sgsdsl.lab.stats import Rate, summarise, wilson
from sgsdsl.lab.variant import Variant


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(171, 200)  # the rebels' 171 of 200 from issue 12
    assert round(lo, 3) == 0.800 and round(hi, 3) == 0.897
    assert wilson(0, 10)[0] == 0.0 and 0.27 < wilson(0, 10)[1] < 0.28
    assert wilson(0, 0) == (0.0, 1.0)
    assert Rate(5, 10).rate == 0.5 and Rate(5, 10).width > Rate(50, 100).width


def test_paired_difference() -> None:
    d = paired("x", [0, 0, 1, 1] * 50, [1, 0, 1, 1] * 50)
    assert d.diff == 0.25 and d.significant and d.low > 0
    same = paired("x", [0, 1] * 50, [0, 1] * 50)
    assert same.diff == 0 and not same.significant


def variant(**kw) -> Variant:
    base = dict(paths=(str(STANDARD.resolve()),), players=5, agents=("random",))
    base.update(kw)
    return Variant(**base)


def test_results_are_identical_whatever_the_number_of_jobs() -> None:
    v = variant(agents=("heuristic", "random"))
    seeds = list(range(11, 31))
    one = run(v, seeds, jobs=1)
    two = run(v, seeds, jobs=2)
    three = run(v, seeds, jobs=3)
    assert one == two == three
    assert [r.seed for r in two] == seeds
    sides = ["lord+loyalist", "renegade", "rebel"]
    assert summarise(one, sides).as_dict() == summarise(three, sides).as_dict()


def test_simulate_json_is_identical_for_any_jobs() -> None:
    args = ["simulate", "--players", "6", "--games", "24", "--seed", "4", "--json"]
    a, b = invoke(*args, "--jobs", "1"), invoke(*args, "--jobs", "2")
    assert a.exit_code == 0, a.output
    assert a.output == b.output
    doc = json.loads(a.output)
    assert set(doc["stats"]["sides"]) == {"lord+loyalist", "renegade", "rebel"}
    assert doc["stats"]["sides"]["rebel"]["low"] <= doc["stats"]["sides"]["rebel"]["rate"]
    assert doc["rules_digest"] and doc["versions"]["python"] and doc["settings"]["players"] == 6
    assert len(doc["stats"]["generals"]) > 10 and doc["stats"]["skills_per_game"]


def test_pinned_general_sits_in_its_seat_and_pool_limits_the_offer() -> None:
    pool = ("caocao", "liubei", "sunquan", "guanyu", "zhangfei", "zhaoyun", "lvbu", "diaochan")
    v = variant(pinned=((2, "huatuo"),), pool=pool)
    records = run(v, list(range(1, 13)), jobs=1)
    assert all(r.generals[2] == "huatuo" for r in records)
    assert all(set(r.generals) <= set(pool) | {"huatuo"} for r in records)
    assert all(r.reason != "error" for r in records)


def test_bad_pins_and_pools_are_usage_errors(tmp_path: Path) -> None:
    assert invoke("simulate", "--general", "P0=nobody").exit_code == 2
    assert invoke("simulate", "--general", "P9=caocao", "--players", "5").exit_code == 2
    assert invoke("simulate", "--general", "P0=caocao", "--general", "P1=曹操").exit_code == 2
    assert invoke("simulate", "--general", "seat=caocao").exit_code == 2
    for seat in ("²", "P²", "٣", "9" * 5000):  # not ASCII digits, or too long for a seat: a usage error
        assert invoke("simulate", "--general", f"{seat}=caocao").exit_code == 2
    assert invoke("simulate", "--pool", "caocao,liubei", "--players", "5").exit_code == 2
    pool = tmp_path / "pool.txt"
    pool.write_text("# my pool\ncaocao liubei\nsunquan, guanyu\nzhangfei\n", encoding="utf-8")
    ok = invoke("simulate", "--pool", str(pool), "--players", "4", "--games", "3", "--json", "--jobs", "1")
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["settings"]["pool"] == ["caocao", "guanyu", "liubei", "sunquan", "zhangfei"]


def test_designer_general_reported_on_its_own_line(tmp_path: Path) -> None:
    design = tmp_path / "maliang.sgs"
    design.write_text(f'import "{STANDARD.resolve()}"\n'
                      "general 马良 maliang : 蜀 male 3 {\n  skill 应援 yingyuan { tags help\n"
                      "    on card_used where event.user == owner and event.card.category == trick optional {\n"
                      "      draw(owner, 1)\n    }\n  }\n}\n", encoding="utf-8")
    r = invoke("simulate", str(design), "--players", "5", "--games", "10", "--general", "P1=maliang",
               "--engine", "interpreted", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "designer's generals" in r.output and "maliang (designer)" in r.output
    j = json.loads(invoke("simulate", str(design), "--players", "5", "--games", "4", "--general", "P1=maliang",
                          "--engine", "interpreted", "--json", "--jobs", "1").output)
    assert j["stats"]["designer_generals"] == ["maliang"] and j["stats"]["generals"]["maliang"]["n"] == 4


def test_csv_parquet_json_and_html_exports(tmp_path: Path) -> None:
    out = {k: tmp_path / f"run.{k}" for k in ("csv", "html")}
    r = invoke("simulate", "--players", "5", "--games", "8", "--jobs", "1", "--agents", "heuristic,random", "--csv",
               str(out["csv"]))
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(out["csv"].open(encoding="utf-8")))
    assert [int(x["seed"]) for x in rows] == list(range(1, 9))
    assert {"p0_general", "p4_role", "p0_kingdom", "winners", "winner_seats", "rounds", "turns"} <= set(rows[0])
    assert any(k.startswith("skill_") for k in rows[0])
    assert [rows[0][f"p{i}_agent"] for i in range(5)] == ["heuristic", "random", "heuristic", "random", "heuristic"]
    pytest.importorskip("matplotlib", reason="the report's charts need the [report] extra (in [test])")
    for jobs, path in (("1", out["html"]), ("2", tmp_path / "again.html")):
        r = invoke("simulate", "--players", "5", "--games", "8", "--jobs", jobs, "--html", str(path))
        assert r.exit_code == 0, r.output
    html = out["html"].read_text(encoding="utf-8")
    assert "Win rate per general" in html and html.count("<svg") == 4  # sides, convergence, roles, generals
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)|<script""", html)  # self-contained
    assert (tmp_path / "again.html").read_bytes() == out["html"].read_bytes()  # same seeds, same report
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq_path = tmp_path / "run.parquet"
    assert invoke("simulate", "--players", "5", "--games", "8", "--jobs", "1", "--parquet", str(pq_path)).exit_code == 0
    table = pq.read_table(pq_path)
    assert table.num_rows == 8 and table.column("seed").to_pylist() == list(range(1, 9))


def test_an_export_without_its_library_is_refused_before_playing(monkeypatch, tmp_path: Path) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    r = CliRunner().invoke(main, ["simulate", "--games", "100000", "--html", str(tmp_path / "r.html")])
    assert r.exit_code == 2 and "--html needs matplotlib: pip install -e '.[report]'" in r.output
    assert not (tmp_path / "r.html").exists()


def test_what_changed_says_it_plainly() -> None:
    a = {"rules": ["r.sgs"], "options": {}, "players": 8}
    b = {"rules": ["r.sgs", "mine.sgs"], "options": {"two_renegades": True}, "players": 8}
    lines = what_changed(a, b)
    assert "B adds the rules file mine.sgs" in lines
    assert "option two_renegades: default in A, true in B" in lines
    assert what_changed(a, a)[0].startswith("nothing")


def test_compare_option_sets_paired_and_plain() -> None:
    r = invoke("compare", "--players", "6", "--games", "12", "--b-option", "two_renegades=true", "--jobs", "2")
    assert r.exit_code == 0, r.output
    assert "option two_renegades: default in A, true in B" in r.output
    assert "win: renegade" in r.output and "significant" in r.output
    doc = json.loads(invoke("compare", "--players", "6", "--games", "12", "--b-option", "two_renegades=true",
                            "--json", "--jobs", "1").output)
    assert doc["comparison"]["games"] == 12 and doc["A"]["settings"]["options"] == {}
    assert doc["B"]["settings"]["options"] == {"two_renegades": True}
    assert doc["A"]["rules_digest"] == doc["B"]["rules_digest"]
    same = json.loads(invoke("compare", "--players", "5", "--games", "10", "--json", "--jobs", "1").output)
    assert all(d["diff"] == 0 and not d["significant"] for d in same["comparison"]["sides"])
    assert same["changed"][0].startswith("nothing")


def test_compare_until_ci_doubles_until_narrow_or_capped() -> None:
    doc = json.loads(invoke("compare", "--players", "4", "--games", "4", "--until-ci", "0.01", "--max-games", "16",
                            "--b-option", "beginner=true", "--json").output)
    assert doc["comparison"]["games"] == 16 and doc["seeds"] == [1, 16]
    wide = json.loads(invoke("compare", "--players", "4", "--games", "4", "--until-ci", "0.999", "--json",
                             "--jobs", "1").output)
    assert wide["comparison"]["games"] == 4


def test_compare_designer_file_with_and_without(tmp_path: Path) -> None:
    design = tmp_path / "mine.sgs"
    design.write_text(f'import "{STANDARD.resolve()}"\ngeneral 测试 ceshi : 群 male 5 {{ has mashu }}\n',
                      encoding="utf-8")
    r = invoke("compare", "--with", str(design), "--players", "5", "--games", "20", "--jobs", "1",
               "--engine", "interpreted", "--html", str(tmp_path / "cmp.html"), "--csv", str(tmp_path / "cmp.csv"))
    assert r.exit_code == 0, r.output
    assert f"B adds the rules file {design.resolve()}" in r.output
    assert "designer's general 测试 ceshi" in r.output and "sgsdsl balance ceshi" in r.output
    rows = list(csv.DictReader((tmp_path / "cmp.csv").open(encoding="utf-8")))
    assert [x["variant"] for x in rows] == ["A"] * 20 + ["B"] * 20
    cmp_html = (tmp_path / "cmp.html").read_text(encoding="utf-8")
    assert "What changed from A to B" in cmp_html
    assert cmp_html.count("<svg") == 3 and "B − A in percentage points" in cmp_html  # differences, A, B


def test_a_difference_that_rounds_to_zero_is_never_negative_zero() -> None:
    from sgsdsl.cli.compare_cmd import _cells
    from sgsdsl.lab.compare import Diff
    from sgsdsl.lab.report import _diff_table

    d = Diff("draw", 0.0, 0.0, -0.00001, -0.0004, 0.00001)
    assert _cells(d)[3:5] == ["+0.0", "+0.0 … +0.0"]
    assert "-0.0" not in _diff_table("t", [d])


def test_report_draws_are_words_not_a_dict() -> None:
    from sgsdsl.lab.report import draws_text

    assert draws_text({"round_cap": 11, "deck_exhausted": 2}) == "deck exhausted 2, round cap 11"
    assert draws_text({}) == "none"


def _record(seed: int, generals: tuple[str, ...], roles: tuple[str, ...], winners: tuple[str, ...],
            skills: dict[str, int]):
    from sgsdsl.lab.records import GameRecord

    seats = tuple(s for s, role in enumerate(roles) if role in winners)
    return GameRecord(seed, generals, roles, ("魏",) * len(roles), winners, seats, "win", 10, 40, 300,
                      skills=skills)


def test_a_general_is_measured_against_what_its_roles_give() -> None:
    """A general seated as the lord in a table where the lord's side wins half the games is expected to win half,
    one seated as a rebel what the rebels win: its own rate is read against that, not against 50%."""
    roles = ("lord", "rebel", "renegade")
    gens = [("a", "b", "c"), ("a", "b", "c"), ("b", "a", "c"), ("b", "a", "c")]
    wins = [("lord",), ("rebel",), ("lord",), ("lord",)]
    st = summarise([_record(i, g, roles, w, {}) for i, (g, w) in enumerate(zip(gens, wins, strict=True))],
                   ["lord", "rebel", "renegade"])
    lord, rebel = 3 / 4, 1 / 4  # the roles' rates per seat in these games
    assert st.expected["a"] == pytest.approx((2 * lord + 2 * rebel) / 4)
    assert st.expected["b"] == pytest.approx(0.5) and st.expected["c"] == 0.0  # (the renegade never won)
    assert st.generals["a"].rate == 0.25 and st.generals["b"].rate == 0.75
    assert st.as_dict()["generals_expected"]["a"] == 0.5


def test_skill_firings_per_seat_that_held_it() -> None:
    """A skill of a general seated in one game of four fires 40 times there: 10 a game over all games, 40 per seat
    that held it; the runaway warning reads the latter for a general's skill, the former for any other."""
    from sgsdsl.lab.stats import implausible_skills

    roles = ("lord", "rebel")
    recs = [_record(1, ("a", "b"), roles, ("lord",), {"loop": 40, "card_skill": 8}),
            *(_record(i, ("c", "b"), roles, ("rebel",), {"card_skill": 8}) for i in (2, 3, 4))]
    st = summarise(recs, ["lord", "rebel"], holders={"a": ["loop"], "b": ["never_fired"], "c": []})
    assert st.skills == {"card_skill": 8.0, "loop": 10.0}
    assert st.per_holder == {"loop": 40.0}
    st.rounds = 10.0
    assert implausible_skills(st) == [("loop", 40.0, 4.0, True)]  # over all games 1.0 a round: diluted
    st.skills["card_skill"] = 35.0
    assert implausible_skills(st) == [("loop", 40.0, 4.0, True), ("card_skill", 35.0, 3.5, False)]


def test_simulate_tables_show_the_roles_figure_and_firings_per_holder() -> None:
    r = invoke("simulate", "--players", "5", "--games", "6", "--agents", "heuristic", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "its roles give" in r.output and "per seat that held it" in r.output
    j = json.loads(invoke("simulate", "--players", "5", "--games", "6", "--agents", "heuristic", "--jobs", "1",
                          "--json").output)["stats"]
    assert set(j["generals_expected"]) == set(j["generals"])
    assert j["skills_per_holder"] and set(j["skills_per_holder"]) <= set(j["skills_per_game"])
