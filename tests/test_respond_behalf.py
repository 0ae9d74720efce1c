"""`respond(…, behalf: P)`: a card asked of one character for another (激将, 护驾) reaches agents as a `respond_for`
request naming the one it helps, and the heuristic agent gives it only to a friend."""

from __future__ import annotations

from pathlib import Path

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.engine.agents import Request
from sgsdsl.scenario.runner import ScenarioAgent, read_scenario, run_scenario

JIJIANG = Path(__file__).resolve().parent / "scenarios" / "skills" / "jijiang.scenario"


def test_jijiang_asks_on_the_lords_behalf(monkeypatch) -> None:
    """The 蜀 character asked by 激将 gets a `respond_for` request naming the lord (seat 0), on both engines."""
    asked: list[tuple[int, str, int | None]] = []
    original = ScenarioAgent.decide  # (the agent's side, a Python class: the native engine's cannot be patched)

    def recording(self, request, view):
        asked.append((request.seat, request.kind, request.subject))
        return original(self, request, view)

    monkeypatch.setattr(ScenarioAgent, "decide", recording)
    for engine in ("interpreted", "compiled"):
        asked.clear()
        out = run_scenario(read_scenario(JIJIANG), engine)
        assert out.passed, out.failures
        assert (1, "respond_for", 0) in asked and not any(kind == "respond" for _, kind, _ in asked)


def _view(me: int, friend_roles: dict[int, str]) -> dict:
    players = [{"seat": s, "general": "?", "hp": 4, "max_hp": 4, "alive": True, "hand": 1, "equips": [], "judge": [],
                "face_down": False, "piles": {}, "role": role} for s, role in sorted(friend_roles.items())]
    return {"seat": me, "hand": [], "role": friend_roles[me], "players": players, "draw_pile": 50, "discard_top": [],
            "sides": [["lord", "loyalist"], ["rebel"]], "roles_in_play": sorted(friend_roles.values()),
            "damage_history": [], "recover_history": []}


def test_the_heuristic_agent_gives_only_to_a_friend() -> None:
    request = Request(1, "respond_for", "respond with 杀 for P0", ("play 杀♠7#1", "decline"), subject=0)
    as_rebel = HeuristicAgent(1).decide(request, _view(1, {0: "lord", 1: "rebel", 2: "rebel"}))
    as_loyalist = HeuristicAgent(1).decide(request, _view(1, {0: "lord", 1: "loyalist", 2: "rebel"}))
    assert as_rebel == [1] and as_loyalist == [0]
