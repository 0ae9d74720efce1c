"""docs/cookbook.md stays true: each section's snippets are the text of the files it names, every scenario it
names exists (and runs with the suite), and the tags its last section shows reach the agents."""

from __future__ import annotations

import re

import pytest

from helpers import ROOT, program
from sgsdsl.engine.agents import Agent, RandomAgent, Request
from sgsdsl.engine.game import Game

COOKBOOK = (ROOT / "docs" / "cookbook.md").read_text(encoding="utf-8")
SECTIONS = [s for s in re.split(r"^## ", COOKBOOK, flags=re.M)[1:]]
SCENARIO_DIRS = [ROOT / "docs" / "examples", ROOT / "tests" / "scenarios"]


def _title(section: str) -> str:
    return section.splitlines()[0]


def _files(section: str) -> list[str]:
    return re.findall(r"`((?:docs/examples|rules)/[\w/]+\.sgs)`", section)


@pytest.mark.parametrize("section", SECTIONS, ids=_title)
def test_snippets_are_the_example_text(section: str) -> None:
    files = _files(section)
    assert files, "each section names the example file it shows"
    text = "\n".join((ROOT / f).read_text(encoding="utf-8") for f in files)
    lines = {ln.strip() for ln in text.splitlines()}
    for block in re.findall(r"```\n(.*?)```", section, flags=re.S):
        for ln in block.splitlines():
            if ln.strip() and "…" not in ln:
                assert ln.strip() in lines, f"not in {files}: {ln.strip()}"


@pytest.mark.parametrize("section", SECTIONS, ids=_title)
def test_named_scenarios_exist(section: str) -> None:
    stems = {p.stem for d in SCENARIO_DIRS for p in d.rglob("*.scenario")}
    named = re.findall(r"`(\w+)(?:\.scenario)?`", section)
    found = [n for n in named if n in stems]
    assert found, "each section names at least one of its scenarios"
    for n in re.findall(r"`(\w+)\.scenario`", section):
        assert n in stems, n


class Recorder(Agent):
    """Plays at random; writes down the play menus."""

    def __init__(self, seed: int) -> None:
        self.random = RandomAgent(seed)
        self.menus: list[Request] = []

    def decide(self, request: Request, view) -> list[int]:
        if request.kind == "play":
            self.menus.append(request)
        return self.random.decide(request, view)


@pytest.mark.parametrize("engine", ["compiled", "interpreted"])
def test_example_skill_tags_reach_the_agents(engine: str) -> None:
    prog = program(str(ROOT / "docs" / "examples" / "tags.sgs"), engine)
    assert prog.generals["langzhong"].skills[0].tags == frozenset({"heal", "help"})
    agents = [Recorder(i) for i in range(4)]
    Game(prog, "identity", 4, 3, agents, record=False, round_cap=6, pinned={1: "langzhong"}).run()
    tagged = [r.option_tags[i] for a in agents for r in a.menus for i, o in enumerate(r.options)
              if o == "skill 施药"]
    assert tagged and all({"heal", "help"} <= set(t) for t in tagged), tagged


def test_the_scenario_guide_shows_what_its_command_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/scenarios.md's worked example: the command it shows prints the lines it shows (counts included;
    the time aside)."""
    import shlex

    from click.testing import CliRunner

    from sgsdsl.cli import main

    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    block = re.search(r"^\$ (sgsdsl test [^\n]*)\n(.*?)^```", text, re.S | re.M)
    monkeypatch.chdir(ROOT)
    assert block is not None
    args = shlex.split(block.group(1))[1:]
    r = CliRunner().invoke(main, args, catch_exceptions=False)

    def untimed(s: str) -> list[str]:
        return [re.sub(r" in [0-9.]+s$", "", line) for line in s.strip().splitlines()]

    assert untimed(r.output) == untimed(block.group(2))


def test_the_examples_are_formatted() -> None:
    from click.testing import CliRunner

    from sgsdsl.cli import main

    r = CliRunner().invoke(main, ["fmt", "--check", str(ROOT / "docs" / "examples")])
    assert r.exit_code == 0, r.output
