"""Shared test helpers: load rules once, play checked games."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from typing import Any

from sgsdsl.api import check_paths, program_for
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game
from sgsdsl.engine.invariants import CheckingAgent
from sgsdsl.lang.diagnostics import render_text
from sgsdsl.sim import agent_seed

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"
STANDARD = ROOT / "rules" / "standard.sgs"
JUNZHENG = ROOT / "rules" / "junzheng.sgs"


@cache
def load_script(relative: str, name: str):
    """A script of scripts/ or benchmarks/ (RELATIVE to the repository root) as a module: those folders are no
    packages, and their tests call the scripts' functions and main() directly."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # (a script's dataclasses look their module up)
    spec.loader.exec_module(mod)
    return mod


def program(path: str, engine: str = "interpreted"):
    loaded = check_paths([path])
    if not loaded.ok:
        raise AssertionError(render_text(loaded.diagnostics, loaded.sources))
    return program_for(loaded, engine)


def play_checked(prog, players: int, seed: int, options: dict[str, Any] | None = None, record: bool = True,
                 round_cap: int = 60, mode: str = "identity") -> Game:
    """A random game whose invariants are checked before every decision and at the end (and, when recorded, the
    face-down state its log tells)."""
    from sgsdsl.engine.invariants import check_invariants, check_turn_log

    holder: dict[str, Any] = {}
    agents = [CheckingAgent(RandomAgent(agent_seed(seed, i)), holder) for i in range(players)]
    game = Game(prog, mode, players, seed, agents, options, round_cap=round_cap, record=record)
    holder["game"] = game
    game.run()
    check_invariants(game)
    if record:
        check_turn_log(game)
    return game


def crosscheck_game(rules: str, seed: int, mode: str) -> None:
    """Game `seed` of a rule set's mode plays identically on the compiled and the interpreted engine, to the end."""
    from sgsdsl.compiler.crosscheck import compare, load_pair, spec_for

    pair = load_pair(rules)
    assert not isinstance(pair, str), pair
    compiled, interpreted = pair
    diff, outcome = compare(spec_for(seed, rules, compiled, 0, mode), compiled, interpreted)
    assert diff is None, diff
    assert outcome.log[-1]["e"] == "game_over"


def rule_file(tmp_path: Path, body: str, extra: str = "", timing: str = "turn_start") -> Path:
    """A rules file: the mini rules plus one `rule` whose trigger at `timing` runs `body` (and `extra` lines)."""
    path = tmp_path / "b.sgs"
    path.write_text(f'import "{MINI.as_posix()}"\n{extra}\nrule 测 t {{\n  on {timing} {{ {body} }}\n}}\n',
                    encoding="utf-8")
    return path


def run_both_engines(path: Path, round_cap: int = 3) -> dict[str, tuple[str | None, int]]:
    """Play one 4-player game of a rules file on each engine: (rule error text with its notes, or None; steps).
    Both engines must agree exactly; any error other than a rule error fails the test."""
    from sgsdsl.engine.errors import RuleError

    loaded = check_paths([str(path)])
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    out = {}
    for engine in ("compiled", "interpreted"):
        game = Game(program_for(loaded, engine), "identity", 4, 1, [RandomAgent(i) for i in range(4)],
                    round_cap=round_cap)
        try:
            game.run()
            out[engine] = (None, game.steps)
        except RuleError as err:
            out[engine] = (" ".join([str(err), *getattr(err, "__notes__", [])]), game.steps)
        out[engine + "_game"] = game  # type: ignore[assignment]
    games = (out.pop("compiled_game"), out.pop("interpreted_game"))
    assert out["compiled"] == out["interpreted"]
    assert games[0].log == games[1].log
    out["game"] = games[0]  # type: ignore[assignment]
    return out


def chromium_driver(width: int = 1200, height: int = 2400):
    """Selenium driving Debian's headless chromium through its chromedriver (the `browser` tests)."""
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}"):
        opts.add_argument(arg)
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=opts, service=service)
