"""Skill `tags` (AI hints): parsed, carried by both engines, and passed to agents with the requests."""

from __future__ import annotations

import pytest

from helpers import STANDARD, program
from sgsdsl.engine.agents import Agent, Request
from sgsdsl.engine.game import Game


@pytest.mark.parametrize("engine", ["compiled", "interpreted"])
def test_both_engines_carry_skill_tags(engine: str) -> None:
    prog = program(str(STANDARD), engine)
    skills = {s.ident: s for g in prog.generals.values() for s in g.skills}
    assert skills["fanjian"].tags == frozenset({"attack"})
    assert skills["qingnang"].tags == frozenset({"heal", "help"})
    assert prog.skills["mashu"].tags == frozenset({"passive"})
    assert all(s.tags for s in skills.values()), "every bundled general skill carries hints"


class Recorder(Agent):
    """Says yes to everything and writes down what each skill-related request said about itself."""

    def __init__(self) -> None:
        self.seen: list[Request] = []

    def decide(self, request: Request, view) -> list[int]:
        self.seen.append(request)
        n = len(request.options)
        return list(range(min(max(request.low, 1 if request.high else 0), n)))


@pytest.mark.parametrize("engine", ["compiled", "interpreted"])
def test_requests_carry_the_skill_hints(engine: str) -> None:
    prog = program(str(STANDARD), engine)
    agents = [Recorder() for _ in range(5)]
    for seed in range(1, 6):
        agents = [Recorder() for _ in range(5)]
        game = Game(prog, "identity", 5, seed, agents, record=False).run()
        asked = [r for a in agents for r in a.seen if "skill" in r.about]
        if asked:
            break
    assert asked, "no skill ever asked its owner anything"
    assert all(r.kind in ("confirm", "choose") for r in asked)
    assert sum(game.skill_uses.values()) > 0


@pytest.mark.parametrize("engine", ["compiled", "interpreted"])
def test_play_menu_skills_carry_their_hints(engine: str) -> None:
    """An active skill in the play menu is tagged 'skill' plus its own hints (制衡: draw), as the heuristic reads."""
    prog = program(str(STANDARD), engine)
    agents = [Recorder() for _ in range(5)]
    Game(prog, "identity", 5, 1, agents, record=False, round_cap=4, pinned={0: "sunquan"}).run()
    menus = [(o, t) for a in agents for r in a.seen if r.kind == "play" for o, t in zip(r.options, r.option_tags,
                                                                                          strict=True)]
    zhiheng = [t for o, t in menus if o == "skill 制衡"]
    assert zhiheng and all(set(t) == {"skill", *prog.skill_named("zhiheng").tags} for t in zhiheng), zhiheng
