"""A skill that hampers one seat and helps another aims each (issue 30). 缔盟 swaps two other characters' hands,
its owner paying the difference. Untagged, the heuristic agent used it on a third of its menus and named two seats
at random, as often a friend's larger hand given to a foe: 缔盟 was worth -3.2 points to 鲁肃 at 5 players (1,000
paired games) and -3.3 at 8. Its rule now names the pair larger hand first (the same pairs), the first choice
tagged `control` and the second `help`, the skill `control help`: +1.0 and +0.5 (docs/balance.md, "Eleventh
pass"). 英魂 chooses what to do before whom (the same choices): a favour while a sure friend sits at the table, a
blow while a sure foe does; it chose whom first and what blind, a foe given X cards as often as made to discard
them."""

from __future__ import annotations

from pathlib import Path

from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.api import check_paths
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine.agents import Request
from sgsdsl.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent


def test_dimeng_takes_the_larger_hand_from_a_foe_and_gives_it_to_a_friend() -> None:
    """Whole games with 鲁肃 pinned: each first choice is told it hampers and each second that it helps; the first
    seat named holds at least as many cards as the second; the agent names a seat it counts as a foe first whenever
    one is offered, and a friend second whenever one is offered (the second is not asked when only one seat fits)."""
    pairs: list[tuple[int, int]] = []
    aimed: list[bool] = []

    class Watching(HeuristicAgent):
        def decide(self, request: Request, view) -> list[int]:
            answer = super().decide(request, view)
            if request.prompt.startswith("缔盟: the one with"):
                first = "more cards" in request.prompt
                assert request.about == (("control",) if first else ("help",))
                stance = self._stance_now(view)
                seat = request.option_seats[answer[0]]
                hand = view["players"][seat]["hand"]
                if first:
                    pairs.append((hand, -1))
                else:
                    pairs[-1] = (pairs[-1][0], hand)
                offered = [stance.get(s, 0.0) for s in request.option_seats]
                if first and min(offered) < -0.6:
                    aimed.append(stance.get(seat, 0.0) < -0.6)
                elif not first and max(offered) > 0.5:
                    aimed.append(stance.get(seat, 0.0) > 0.5)
            return answer

    program = compiled_program(check_paths([str(ROOT / "rules" / f) for f in ("standard.sgs", "lin.sgs")]))
    for seed in range(1, 31):
        Game(program, "identity", 5, seed, [Watching(seed * 10 + i) for i in range(5)], None, round_cap=20,
             pinned={seed % 5: "lusu"}).run()
    # (-1: the second was not asked, one seat alone fitting)
    assert len(pairs) >= 10 and all(more >= fewer for more, fewer in pairs) and any(f >= 0 for _, f in pairs)
    assert aimed and all(aimed)


class Sure(HeuristicAgent):
    """A heuristic agent whose stance is given (a subclass: the native build's compiled methods ignore an instance's
    own attributes, so a stance patched onto an instance is not read there)."""

    def __init__(self, seed: int, stance: dict[int, float]):
        super().__init__(seed)
        self.given = stance

    def _stance_now(self, view) -> dict[int, float]:
        return self.given


def test_yinghun_helps_a_sure_friend_or_hampers_a_sure_foe() -> None:
    """Its own choice of what to do, the seat named after: `help` with a sure friend at the table (a loyalist: the
    lord), `control` with only a sure foe (a rebel: the lord), either when it is sure of nobody."""
    from tests.test_role_play import view

    which = Request(1, "choose", "英魂: which option", ("draw X, then discard 1", "draw 1, then discard X"),
                    option_tags=(("help",), ("control",)))

    def picks(role: str, stance: dict[int, float]) -> set[int]:
        out = set()
        for seed in range(1, 41):
            agent = Sure(seed, stance)
            v = view(1)
            v["role"] = v["players"][1]["role"] = role
            out.add(agent.decide(which, v)[0])
        return out

    assert picks("loyalist", {0: 1.0, 1: 1.0, 3: -0.2}) == {0}
    assert picks("rebel", {0: -1.0, 1: 1.0, 3: 0.1}) == {1}
    assert picks("renegade", {0: 0.2, 1: 1.0, 3: -0.2}) == {0, 1}


def test_a_choice_of_seats_weighs_each_seat_by_its_own_hints() -> None:
    """放逐 (draw X, then turn over) is a blow to a character face up and a favour to one face down, who turns back:
    its rule gives each seat its words (`hints: [if p.face_down then "help" else "control" for p in …]`). The
    heuristic weighs each seat by its own: a sure foe face up, or a sure friend face down, never a friend face up.
    Untagged, it aimed at a foe whatever its state: -3.9 points to 曹丕 at 8 players (1,000 paired games), ±0.0
    with the hints (5 players: +2.1, +4.3)."""
    from tests.test_role_play import view

    def pick(tags: tuple[tuple[str, ...], ...], stance: dict[int, float]) -> set[int]:
        request = Request(1, "choose", "放逐: who draws and turns over", ("P0", "P2", "P3"), about=("control",),
                          option_seats=(0, 2, 3), option_tags=tags)
        return {Sure(seed, stance).decide(request, view(1))[0] for seed in range(1, 21)}

    up = (("control",), ("control",), ("control",))
    assert pick(up, {0: 1.0, 2: -1.0, 3: 0.0}) == {1}  # the sure foe
    friend_down = (("help",), ("control",), ("control",))
    assert pick(friend_down, {0: 1.0, 2: 0.1, 3: 0.2}) == {0}  # no sure foe: the friend face down turns back
    foe_down = (("control",), ("help",), ("control",))
    assert pick(foe_down, {0: 1.0, 2: -1.0, 3: -0.9}) == {2}  # not the foe face down: the other foe
