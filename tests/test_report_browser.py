"""The HTML report in a real headless browser (Debian's chromium via Selenium): the tables and the matplotlib
charts (inline SVG) render, and a screenshot is saved. Opt-in (`pytest -m browser`); `.ci/run` installs chromium
and runs it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import chromium_driver
from sgsdsl.cli import main

pytestmark = pytest.mark.browser


def test_report_renders_tables_and_charts(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    report = tmp_path / "report.html"
    r = CliRunner().invoke(main, ["simulate", "--players", "8", "--games", "40", "--jobs", "1", "--html",
                                  str(report)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    driver = chromium_driver()
    try:
        driver.get(report.as_uri())
        assert driver.title == "sgsdsl balance report"
        headings = [h.text for h in driver.find_elements(By.TAG_NAME, "h2")]
        assert "Win rate per side" in headings and "Win rate per general" in headings
        tables = driver.find_elements(By.TAG_NAME, "table")
        assert len(tables) >= 6
        general_rows = tables[3].find_elements(By.TAG_NAME, "tr")
        assert len(general_rows) > 10  # one row per general that sat down
        charts = driver.find_elements(By.TAG_NAME, "svg")
        assert len(charts) == 4  # matplotlib's inline SVG: sides, convergence, roles, generals
        for svg in charts:  # laid out with a real size, and holding drawn shapes and labels
            assert svg.size["width"] > 300 and svg.size["height"] > 50
            assert svg.find_elements(By.TAG_NAME, "path") and svg.find_elements(By.TAG_NAME, "text")
        bars = charts[0].find_elements(By.CSS_SELECTOR, 'path[style*="#4a7fb5"]')
        assert len(bars) == 3 and sum(b.size["width"] for b in bars) > 100  # one bar per side, with length
        labels = " ".join(t.text for t in charts[0].find_elements(By.TAG_NAME, "text"))
        assert "rebel" in labels and "95% Wilson interval" in labels
        band = charts[1].find_elements(By.CSS_SELECTOR, 'use[style*="#c9daf0"]')  # the convergence band
        assert band and band[0].size["width"] > 200
        shot = Path(os.environ.get("SGSDSL_SCREENSHOT_DIR", tmp_path)) / "report.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        assert driver.save_screenshot(str(shot))
        assert shot.stat().st_size > 10_000
    finally:
        driver.quit()


def test_balance_report_renders_the_verdict_restricted_play_and_robustness(tmp_path: Path) -> None:
    """`sgsdsl balance --html`: the verdict, a chart of every role's difference with its interval (one point per
    agent kind), the restricted-play table and the robustness line, in a real browser; a screenshot is saved."""
    from selenium.webdriver.common.by import By

    report = tmp_path / "balance.html"
    generals = Path(__file__).resolve().parent.parent / "docs" / "examples" / "balance" / "test_generals.sgs"
    r = CliRunner().invoke(main, ["balance", "qiangjiang", str(generals), "--players", "5", "--games", "40",
                                  "--jobs", "1", "--without", "fuzu", "--html", str(report)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    driver = chromium_driver()
    try:
        driver.get(report.as_uri())
        assert driver.title == "sgsdsl balance: 强将 qiangjiang"
        verdict = driver.find_element(By.ID, "verdict").text
        assert verdict.startswith("强将 qiangjiang is overpowered") and "points" in verdict
        headings = [h.text for h in driver.find_elements(By.TAG_NAME, "h2")]
        assert "Restricted play: what each skill is worth" in headings and "Robustness to the agents" in headings
        charts = driver.find_elements(By.TAG_NAME, "svg")
        assert len(charts) == 2  # the verdict per role, and 富足's worth per role
        labels = " ".join(t.text for t in charts[0].find_elements(By.TAG_NAME, "text"))
        for role in ("lord", "loyalist", "rebel", "renegade", "all roles", "heuristic agents", "random agents"):
            assert role in labels
        for svg in charts:
            assert svg.size["width"] > 300 and svg.size["height"] > 100
        rows = driver.find_elements(By.CSS_SELECTOR, "table.restricted tr")
        assert len(rows) == 1 + 2 * 5  # a header, then 5 rows (4 roles and all) per agent kind
        assert "富足 fuzu" in rows[1].text
        assert driver.find_element(By.ID, "robustness").text.startswith(("robust:", "agent-dependent:"))
        shot = Path(os.environ.get("SGSDSL_SCREENSHOT_DIR", tmp_path)) / "balance.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        assert driver.save_screenshot(str(shot))
        assert shot.stat().st_size > 10_000
    finally:
        driver.quit()
