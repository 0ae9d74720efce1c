"""Views only where they are read: the engine makes no seat view for a request the agent answers without one
(`Agent.reads_view_for`), and the heuristic agent answers those requests the same with or without a view."""

from __future__ import annotations

from typing import Any

from helpers import STANDARD, program
from sgsdsl.ai.heuristic import HeuristicAgent, _view_kinds
from sgsdsl.engine.agents import Agent, Request
from sgsdsl.engine.decisions import BLIND
from sgsdsl.engine.game import Game


def test_the_heuristic_agent_reads_views_for_its_handled_kinds_only() -> None:
    agent = HeuristicAgent(1)
    assert agent.reads_view_for("play") and agent.reads_view_for("nullify") and agent.reads_view_for("confirm")
    assert not agent.reads_view_for("respond")  # always the first offer
    assert not agent.reads_view_for("no such kind")  # a uniform draw
    assert Agent().reads_view_for("respond")  # an agent says nothing: a view every time


def test_a_subclass_with_its_own_handler_or_decide_gets_views() -> None:
    class Reading(HeuristicAgent):
        def on_respond(self, r: Request, view: Any) -> list[int]:
            return [0] if view["round"] > 1 else [len(r.options) - 1]

    class Own(HeuristicAgent):
        def decide(self, request: Request, view: Any) -> list[int]:
            return super().decide(request, view)

    assert Reading(1).reads_view_for("respond") and not Reading(1).reads_view_for("no such kind")
    assert Own(1).reads_view_for("respond") and Own(1).reads_view_for("no such kind")


class Comparing(HeuristicAgent):
    """Given every view (its own decide): where the heuristic agent would be given none, answers with the empty
    view and with the real one from the same random state, and records whether they differ."""

    compared = 0
    differed = 0

    def decide(self, request: Request, view: Any) -> list[int]:
        if request.kind not in _view_kinds(HeuristicAgent):
            state = self.rng.getstate()
            blind = HeuristicAgent.decide(self, request, BLIND)
            self.rng.setstate(state)
            full = HeuristicAgent.decide(self, request, view)
            Comparing.compared += 1
            Comparing.differed += blind != full
            return full
        return HeuristicAgent.decide(self, request, view)


def test_requests_answered_without_a_view_get_the_same_answer() -> None:
    rules = program(str(STANDARD), "compiled")
    for seed in (1, 2, 3):
        Game(rules, "identity", 8, seed, [Comparing(seed * 10 + i) for i in range(8)]).run()
    assert Comparing.compared > 20 and Comparing.differed == 0


def test_games_with_and_without_the_skipped_views_are_the_same() -> None:
    rules = program(str(STANDARD), "compiled")
    a = Game(rules, "identity", 8, 4, [HeuristicAgent(40 + i) for i in range(8)], record=True).run()
    b = Game(rules, "identity", 8, 4, [Comparing(40 + i) for i in range(8)], record=True).run()
    assert a.log == b.log
