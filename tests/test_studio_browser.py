"""The studio in a real headless browser (Debian's chromium via Selenium), driven as a designer would: play a
whole 4-player game by clicking, break the rules file on disk and see the diagnostic, fix it and restart to see
the new rule in play, save the game's log and step to its last decision (where the hash is `replay`'s), and keep
the rules' hostile texts out of the page's markup. Opt-in (`pytest -m browser`); `.ci/run` runs it."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from helpers import chromium_driver
from sgsdsl.replay import replay_file
from studio_support import running_studio, wait_for

pytestmark = pytest.mark.browser


def _click(driver, css: str) -> bool:
    """Click the first element matching CSS; False when the page redrew it away first (try again)."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        ElementNotInteractableException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.common.by import By

    try:
        found = driver.find_elements(By.CSS_SELECTOR, css)
        if not found:
            return False
        found[0].click()
        return True
    except (StaleElementReferenceException, ElementClickInterceptedException, ElementNotInteractableException):
        return False


def _body(driver, key: str) -> str:
    return driver.execute_script(f"return document.body.dataset.{key} || ''")


def _answer_by_clicking(driver, until, seconds: float = 240) -> int:
    """Click through the questions, one option each (where several may be chosen: as few as allowed, then
    Confirm), until UNTIL."""
    from selenium.webdriver.common.by import By

    clicks = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if until():
            return clicks
        asked = _body(driver, "asked")
        if not asked:
            time.sleep(0.03)
            continue
        confirm = driver.execute_script("return !document.getElementById('b-confirm').hidden")
        if confirm:
            low = driver.execute_script("return parseInt((document.getElementById('prompt').textContent"
                                        ".match(/choose (\\d+)/) || [0, 0])[1])")
            chosen = len(driver.find_elements(By.CSS_SELECTOR, "#options button.picked"))
            if chosen < low:
                _click(driver, "#options button:not(.picked)")
                continue
            if not _click(driver, "#b-confirm"):
                continue
        elif not _click(driver, "#options button"):
            continue
        clicks += 1
        wait_for(lambda a=asked: _body(driver, "asked") != a or until(), 30, "the next question")
    raise AssertionError("the game did not reach the expected point by clicking")


def _narration(driver) -> str:
    return driver.execute_script("return document.getElementById('narration').textContent")


def test_studio_in_chromium(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with running_studio(tmp_path, {"general": "shilian", "seed": 7}) as served:
        driver = chromium_driver(1280, 800)
        try:
            driver.get(served.studio.url)
            wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#f-general option[value=shilian]"), 30,
                     "the set-up form")
            assert Select(driver.find_element(By.ID, "f-general")).first_selected_option.get_attribute(
                "value") == "shilian"
            wait_for(lambda: _click(driver, "#b-play"), 10, "the Play button")

            # 1. a whole game, by clicking
            clicks = _answer_by_clicking(driver, lambda: _body(driver, "finished") == "yes")
            assert clicks > 5
            prompt = driver.find_element(By.ID, "prompt").text
            assert prompt.startswith("The game is over: you")
            assert "game over" in driver.find_element(By.ID, "result").text
            seats = driver.find_elements(By.CSS_SELECTOR, "#table .seat")
            assert len(seats) == 4 and "试炼者" in seats[0].text or any("试炼者" in s.text for s in seats)
            assert "勤学" in _narration(driver)
            shots = Path(os.environ.get("SGSDSL_SCREENSHOT_DIR", tmp_path))
            shots.mkdir(parents=True, exist_ok=True)
            assert driver.save_screenshot(str(shots / "studio.png"))

            # 5. hostile texts stay text: no element was made from them, the title was not rewritten
            assert driver.title == "sgsdsl studio"
            assert not driver.find_elements(By.CSS_SELECTOR, "#narration img, #narration script, .seat img")
            assert "<img src=x" in _narration(driver)  # shown literally
            skill = driver.find_element(By.CSS_SELECTOR, ".seat .skill")
            assert "<script>" in skill.get_attribute("title")  # the hover text, as text

            # 4. save the log, open it, step to its last decision: the hash is replay's
            _click(driver, ".tab[data-tab=replay]")
            wait_for(lambda: _click(driver, "#b-save"), 10, "Save")
            wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#r-log option"), 20, "the saved log")
            wait_for(lambda: _click(driver, "#b-open"), 10, "Open")
            wait_for(lambda: driver.find_element(By.ID, "r-index").text.startswith("1 of"), 60, "the replay")
            _click(driver, "#r-last")
            wait_for(lambda: (t := driver.find_element(By.ID, "r-index").text) and t.split()[0] == t.split()[-1],
                     20, "the last frame")
            _click(driver, "#r-prev")  # the last frame is the game's end; one back is its last decision
            total = int(driver.find_element(By.ID, "r-index").text.split()[-1])
            wait_for(lambda: driver.find_element(By.ID, "r-index").text.startswith(f"{total - 1} of"), 20,
                     "the last decision")
            log = next((tmp_path / "logs").glob("*.jsonl"))
            n, last_hash = replay_file(log, "compiled")
            assert driver.find_element(By.ID, "r-hash").text == last_hash and n == total - 1
            _click(driver, "#b-back")

            # 2. break the rules file on disk: the diagnostic appears in the page
            design = tmp_path / "design.sgs"
            good = design.read_text(encoding="utf-8")
            design.write_text(good.replace("draw(owner, 1)", "drow(owner, 1)"), encoding="utf-8")
            diag = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#diagnostics pre"), 30, "the diagnostic")
            text = diag[0].text
            assert "design.sgs:11:" in text and "drow(owner, 1)" in text and "^" in text and "draw" in text
            assert "error" in driver.find_element(By.ID, "rules-badge").text

            # 3. fix it (with a new text for the rule), restart with the same seed, and see the new rule in use
            design.write_text(good.replace("studies", "studies hard"), encoding="utf-8")
            wait_for(lambda: driver.find_element(By.ID, "b-restart").is_displayed(), 30, "the restart offer")
            assert driver.find_element(By.ID, "rules-badge").text == "rules ✓"
            _click(driver, "#b-restart")
            _answer_by_clicking(driver, lambda: "studies hard" in _narration(driver), 120)
        finally:
            driver.quit()
