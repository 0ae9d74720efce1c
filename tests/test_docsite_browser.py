"""The rules catalogue driven like a person would in a real headless browser (Debian's chromium via Selenium):
type a general's name into the search box, see only that general, follow a skill's scenario link, and save
screenshots. Opt-in (`pytest -m browser`); `.ci/run` installs chromium and runs it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import ROOT, chromium_driver
from sgsdsl.cli import main

pytestmark = pytest.mark.browser


def test_search_a_general_and_follow_a_scenario_link(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    site = tmp_path / "site"
    r = CliRunner().invoke(main, ["docs", str(ROOT / "rules" / "standard.sgs"), "-o", str(site), "--scenarios",
                                  str(ROOT / "tests" / "scenarios")])
    assert r.exit_code == 0, r.output
    shots = Path(os.environ.get("SGSDSL_SCREENSHOT_DIR", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    driver = chromium_driver(1280, 900)
    try:
        driver.get((site / "index.html").as_uri())
        entries = driver.find_elements(By.CSS_SELECTOR, "article.entry")
        assert len(entries) > 50 and all(e.is_displayed() for e in entries[:5])
        driver.find_element(By.ID, "q").send_keys("simayi")
        wait = WebDriverWait(driver, 10)
        wait.until(ec.text_to_be_present_in_element((By.ID, "count"), f"1 of {len(entries)}"))
        shown = [e for e in entries if e.is_displayed()]
        assert [e.get_attribute("id") for e in shown] == ["general-simayi"]
        assert "司马懿" in shown[0].text and "反馈" in shown[0].text and "鬼才" in shown[0].text
        assert driver.save_screenshot(str(shots / "catalogue.png"))
        link = shown[0].find_element(By.CSS_SELECTOR, "#skill-fankui .scen a")
        target = link.get_attribute("href")
        link.click()
        wait.until(ec.url_to_be(target))
        assert "/scenarios/" in driver.current_url
        body = driver.find_element(By.TAG_NAME, "body").text
        assert "rule:" in body and "反馈" in body
        assert driver.save_screenshot(str(shots / "catalogue_scenario.png"))
        assert (shots / "catalogue.png").stat().st_size > 10_000
    finally:
        driver.quit()
