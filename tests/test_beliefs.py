"""Role inference (sgsdsl/ai/beliefs.py): scripted public events give the expected beliefs, and a belief never
reads a hidden role (built from views only: changing the hidden roles of a live game leaves it byte-identical)."""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from helpers import STANDARD, program
from sgsdsl.ai.beliefs import ALONE_TOWARDS_SHOWN, FIT_DAMAGE, RoleBelief, _act_sign, _deals, _space, _tables
from sgsdsl.ai.heuristic import HeuristicAgent
from sgsdsl.engine.agents import Agent, RandomAgent, Request
from sgsdsl.engine.game import Game

FIVE = ["lord", "loyalist", "rebel", "rebel", "renegade"]
SIDES = [["lord", "loyalist"], ["rebel"]]


def view(me: int, roles: list[str], shown: dict[int, str] | None = None, damage=(), recover=(), acts=(),
         dead: tuple[int, ...] = ()) -> dict[str, Any]:
    """A seat's view as the engine makes it (without cards): the lord shown, the rest hidden unless SHOWN."""
    shown = {0: "lord", **(shown or {})}
    return {"seat": me, "role": roles[me], "role_shown": me in shown, "sides": SIDES, "solo": ["renegade"],
            "roles_in_play": sorted(roles), "damage_history": list(damage), "recover_history": list(recover),
            "act_history": list(acts), "draw_pile": 80,
            "players": [{"seat": i, "role": roles[i] if i == me or i in shown else "hidden", "hp": 4, "max_hp": 4,
                         "alive": i not in dead, "hand": 4} for i in range(len(roles))]}


def test_the_prior_is_uniform_over_the_hidden_deals() -> None:
    m = RoleBelief(view(1, FIVE)).marginals()
    assert sorted(m) == [2, 3, 4]  # the lord is shown, seat 1 is me
    for seat in (2, 3, 4):
        assert abs(m[seat]["rebel"] - 2 / 3) < 1e-9 and abs(m[seat]["renegade"] - 1 / 3) < 1e-9


def test_hurting_the_shown_lord_reads_as_a_rebel() -> None:
    m = RoleBelief(view(1, FIVE, damage=[(2, 0, 1)])).marginals()
    # damage is weak evidence (FIT_DAMAGE): P(hurt the lord) is FIT_DAMAGE for a rebel, and for the renegade, who
    # keeps the lord alive while others live, 1 - (FIT_DAMAGE * a + (1 - FIT_DAMAGE) * (1 - a))
    a = ALONE_TOWARDS_SHOWN
    renegade = 1 - (FIT_DAMAGE * a + (1 - FIT_DAMAGE) * (1 - a))
    assert abs(m[2]["renegade"] - renegade / (renegade + 2 * FIT_DAMAGE)) < 1e-9
    assert m[3]["renegade"] > 1 / 3 and m[4]["renegade"] > 1 / 3
    # an aimed harmful card says more than damage (which may come from a card that reaches everyone)
    aimed = RoleBelief(view(1, FIVE, acts=[(2, 0, ("attack", "basic"))])).marginals()
    assert aimed[2]["rebel"] > m[2]["rebel"]


def test_the_lord_reads_loyalists_from_who_protects_it() -> None:
    lord = view(0, FIVE)
    before = RoleBelief(lord).marginals()
    assert abs(before[3]["loyalist"] - 0.25) < 1e-9
    acts = [(3, 0, ("behalf",))]  # seat 3 answered my lord skill: gave a card on my behalf
    after = RoleBelief(view(0, FIVE, recover=[(3, 0, 1)], acts=acts)).marginals()  # and healed me
    assert after[3]["loyalist"] > 0.6
    hit = RoleBelief(view(0, FIVE, damage=[(2, 0, 1), (2, 0, 1)], acts=[(2, 0, ("attack", "basic"))])).marginals()
    assert hit[2]["loyalist"] < 0.05 and hit[2]["rebel"] > 0.7
    # a card hinted harmful used on me counts against the user, one hinted helpful for it
    slashed = RoleBelief(view(0, FIVE, acts=[(4, 0, ("attack", "basic"))])).marginals()
    assert slashed[4]["loyalist"] < before[4]["loyalist"]


def test_acts_on_hidden_seats_say_the_two_are_on_different_sides() -> None:
    """To loyalist 1, seats 2-4 are two rebels and the renegade: seat 2 hurting seat 3 makes it less likely that
    both are rebels (team-mates), so less likely that seat 2 is one; hurting the lord makes it more likely."""
    on_lord = RoleBelief(view(1, FIVE, damage=[(2, 0, 1)])).marginals()[2]["rebel"]
    on_hidden = RoleBelief(view(1, FIVE, damage=[(2, 3, 1)])).marginals()
    assert 2 / 3 < on_lord and on_hidden[2]["rebel"] < 2 / 3 and on_hidden[3]["rebel"] < 2 / 3
    assert on_hidden[4]["renegade"] < 1 / 3  # one of the two is the renegade, so seat 4 less likely is


def test_observe_reads_each_event_once_and_deaths_reveal() -> None:
    b = RoleBelief(view(1, FIVE))
    v = view(1, FIVE, damage=[(2, 0, 1)])
    b.observe(v)
    once = b.marginals()
    b.observe(v)
    assert b.marginals() == once  # the same events are not read twice
    assert once == RoleBelief(v).marginals()  # and reading them late is reading them at once
    b.observe(view(1, FIVE, damage=[(2, 0, 1)], shown={4: "renegade"}, dead=(4,)))
    m = b.marginals()
    assert sorted(m) == [2, 3] and m[2] == {"rebel": 1.0} and m[3] == {"rebel": 1.0}
    rng = random.Random(1)
    assert b.sample(rng) == {0: "lord", 1: "loyalist", 2: "rebel", 3: "rebel", 4: "renegade"}



def test_an_act_at_a_seat_that_died_before_the_reader_looked_is_read_as_made_blind() -> None:
    """Seat 2 struck hidden seat 3, who then died and showed a rebel, all before loyalist 1 next looked: the
    engine's `shown_history` says the role came out after the blow, so the blow is read as a guess at a hidden seat
    (as a belief that looked in between reads it), not as a blow at a seat known to be a rebel."""
    acts = [(2, 3, ("attack", "basic"))]
    in_between = RoleBelief(view(1, FIVE, acts=acts))
    in_between.observe(view(1, FIVE, acts=acts, shown={3: "rebel"}, dead=(3,)))
    late_view = {**view(1, FIVE, acts=acts, shown={3: "rebel"}, dead=(3,)), "shown_history": [(3, 0, 0, 1)]}
    late = RoleBelief(late_view).marginals()
    assert late == in_between.marginals()
    # without the history the blow reads as one at a shown rebel: sure evidence that seat 2 is no rebel
    blind = RoleBelief({**late_view, "shown_history": []}).marginals()
    assert blind[2]["rebel"] < late[2]["rebel"] - 0.05
    # an act after the death reads as one at the shown seat, as a belief that looked in between reads it
    after = [*acts, (4, 3, ("attack", "basic"))]
    in_between.observe(view(1, FIVE, acts=after, shown={3: "rebel"}, dead=(3,)))
    assert RoleBelief({**late_view, "act_history": after}).marginals() == in_between.marginals()


TEN = ["lord", "loyalist", "loyalist", "loyalist", "rebel", "rebel", "rebel", "rebel", "renegade", "renegade"]


def test_a_role_shown_leads_to_the_shared_deals_of_what_is_left() -> None:
    """Beliefs share their deals, factors and indexes per mode and pool (`DealSpace`); a role shown moves a belief
    to the space of the roles left, keeping the weights of the deals that agree, in order. That is right only if
    those deals, without the shown positions, are exactly the sorted deals of the pool left: held here for every
    single and double reveal of the 10-seat pool (and so of every smaller one)."""
    mode = RoleBelief(view(1, TEN))._mode
    pool = tuple(sorted(TEN[1:]))
    space = _space(mode, pool)
    assert space.hypotheses == _deals(pool)
    n = len(pool)
    reveals = [((j, r),) for j in range(n) for r in sorted(set(pool))]
    reveals += [((j, r), (k, t)) for j in range(n) for k in range(j + 1, n) for r in sorted(set(pool))
                for t in sorted(set(pool)) if (j * 7 + k + len(r + t)) % 5 == 0]  # (a spread of the pairs)
    for fixed in reveals:
        keep, nxt = space.reveal(fixed)
        expect = [h for h in space.hypotheses if all(h[j] == r for j, r in fixed)]
        assert [space.hypotheses[i] for i in keep] == expect
        if not keep:
            assert nxt is space
            continue
        gone = {j for j, _ in fixed}
        projected = tuple(tuple(x for j, x in enumerate(h) if j not in gone) for h in expect)
        assert nxt.hypotheses == projected, fixed


def reference_marginals(me: int, roles: list[str], before: list, dead: int, after: list) -> dict[int, dict[str, float]]:
    """The posterior worked out from scratch, the plain way: every deal of the roles hidden from ME at the start,
    weighed by each damage event (`_tables`, weak evidence), the deals that disagree with the death's shown role
    dropped, then the later events; marginals of the seats still hidden."""
    mode = RoleBelief(view(me, roles))._mode
    lik = _tables(*mode)
    hidden = [s for s in range(len(roles)) if s not in (0, me)]
    hyps = sorted(set(permutations(sorted(roles[s] for s in hidden))))
    weights = [1.0] * len(hyps)

    def weigh(events: list, known: dict[int, str]) -> None:
        for actor, target, _ in events:
            if actor in known or actor == target:
                continue
            table = lik[(-1, target in known and target != me, True)]
            a = hidden.index(actor)
            for k, h in enumerate(hyps):
                weights[k] *= table[h[a], known[target] if target in known else h[hidden.index(target)]]

    known = {0: "lord", me: roles[me]}
    weigh(before, known)
    keep = [k for k, h in enumerate(hyps) if h[hidden.index(dead)] == roles[dead]]
    hyps, weights = [hyps[k] for k in keep], [weights[k] for k in keep]
    known[dead] = roles[dead]
    weigh(after, known)
    total = sum(weights)
    out: dict[int, dict[str, float]] = {}
    for seat in hidden:
        if seat != dead:
            probs: dict[str, float] = {}
            for h, w in zip(hyps, weights, strict=True):
                probs[h[hidden.index(seat)]] = probs.get(h[hidden.index(seat)], 0.0) + w
            out[seat] = {r: p / total for r, p in sorted(probs.items())}
    return out


def test_a_belief_that_saw_a_death_weighs_deals_as_the_plain_posterior() -> None:
    """Events, then a death, then more events: a belief that moved between shared deal spaces gives the plain
    posterior of `reference_marginals`, for a loyalist, a rebel and a renegade (each made after the others have
    filled the shared caches)."""
    before = [(2, 0, 1), (5, 0, 1), (3, 4, 1), (6, 2, 1)]
    after = [(3, 0, 1), (7, 5, 1), (4, 9, 1)]
    for me in (1, 4, 8):
        b = RoleBelief(view(me, TEN, damage=before))
        b.observe(view(me, TEN, damage=before + after, shown={2: TEN[2]}, dead=(2,)))
        got, want = b.marginals(), reference_marginals(me, TEN, before, 2, after)
        assert sorted(got) == sorted(want)
        for seat, probs in want.items():
            assert sorted(got[seat]) == sorted(probs)
            assert all(abs(got[seat][r] - p) < 1e-12 for r, p in probs.items()), (me, seat)


def test_a_subset_of_deals_is_kept_by_its_belief_alone(monkeypatch) -> None:
    """Beyond MAX_HYPOTHESES deals a belief keeps a reproducible random subset, in a space of its own (not shared):
    a death then filters and projects that subset, and the belief still weighs its deals as the plain posterior over
    the same subset would."""
    from sgsdsl.ai import beliefs
    monkeypatch.setattr(beliefs, "MAX_HYPOTHESES", 200)
    before = [(2, 0, 1), (5, 0, 1)]
    b = RoleBelief(view(1, TEN, damage=before))
    assert len(b.hypotheses) == 200 and not b._deals.shared
    again = RoleBelief(view(1, TEN, damage=before))
    assert again.hypotheses == b.hypotheses  # (the subset comes from the view alone)
    dead_role = b.hypotheses[0][b.hidden.index(2)]
    roles = list(TEN)
    roles[2] = dead_role
    kept = [h for h in b.hypotheses if h[b.hidden.index(2)] == dead_role]
    b.observe({**view(1, TEN, damage=before, dead=(2,)),
               "players": [{**q, "role": dead_role} if q["seat"] == 2 else q
                           for q in view(1, TEN, damage=before, dead=(2,))["players"]]})
    assert 2 not in b.hidden and len(b.hypotheses) == len(b.weights) == len(kept)
    assert not b._deals.shared and len(set(b.hypotheses)) == len(kept)
    m = b.marginals()
    assert all(abs(sum(probs.values()) - 1.0) < 1e-9 for probs in m.values())


def test_samples_follow_the_posterior_and_keep_the_shown_roles() -> None:
    b = RoleBelief(view(1, FIVE, damage=[(2, 0, 1)] * 3))
    rng = random.Random(7)
    draws = [b.sample(rng) for _ in range(2000)]
    assert all(d[0] == "lord" and d[1] == "loyalist" and sorted(d.values()) == sorted(FIVE) for d in draws)
    share = sum(d[2] == "renegade" for d in draws) / len(draws)
    assert abs(share - b.marginals()[2]["renegade"]) < 0.03


def test_two_renegades_are_rivals_each_alone() -> None:
    eight = ["lord", "loyalist", "rebel", "rebel", "rebel", "renegade", "renegade", "loyalist"]
    v = view(5, eight)
    v["roles_in_play"] = sorted(eight)
    b = RoleBelief(v)
    assert b.affinity("renegade", "renegade", False) == 0.0  # the other renegade is no friend
    assert b.friendly(6) == 0.0 or b.friendly(6) < 0.01  # no hidden seat is a friend of a solo seat
    assert sum(b.marginals()[6].values()) > 0.999


def informed(view: Any) -> bool:
    """Whether the public events of a view move the belief (so that a test of it tests something)."""
    bare = {**view, "damage_history": [], "recover_history": [], "act_history": []}
    return RoleBelief(view).marginals() != RoleBelief(bare).marginals()


class Prober(Agent):
    """Plays randomly; at its Nth decision or later, once public events move its belief, it builds a belief from
    its view, swaps two hidden roles of the live game (seats whose roles differ and are hidden from it), builds a
    belief from its new view, and swaps them back."""

    view_cards = False

    def __init__(self, seed: int, holder: dict[str, Any], at: int):
        self.inner = RandomAgent(seed)
        self.holder, self.at, self.count = holder, at, 0

    def decide(self, request: Request, view: Any) -> list[int]:
        self.count += 1
        if self.count >= self.at and "pair" not in self.holder and informed(view):
            game: Game = self.holder["game"]
            me = game.players[request.seat]
            hidden = [q for q in game.players if q is not me and not q.role_revealed]
            pair = next(((a, b) for a in hidden for b in hidden if a.role != b.role), None)
            if pair is not None:
                first = RoleBelief(view)
                a, b = pair
                a.role, b.role = b.role, a.role
                second_view = game.choices.view(me, cards=False)
                second = RoleBelief(second_view)
                a.role, b.role = b.role, a.role
                self.holder["pair"] = (dict(view), second_view, first, second)
        return self.inner.decide(request, view)


def test_a_belief_never_reads_a_hidden_role() -> None:
    holder: dict[str, Any] = {}
    agents = [Prober(i, holder, at=5 + i) for i in range(8)]
    game = Game(program(str(STANDARD), "compiled"), "identity", 8, 11, agents, record=False)
    holder["game"] = game
    game.run()
    first_view, second_view, first, second = holder["pair"]
    assert first_view == second_view  # the view hides the swapped roles
    assert informed(first_view)
    assert repr(first.marginals()) == repr(second.marginals())
    assert [first.sample(random.Random(s)) for s in range(20)] == [second.sample(random.Random(s)) for s in range(20)]
    # the heuristic agent's role play reads the same public facts (the round, for hiding early; who harmed whom):
    # its stance and its aim are the same in both
    assert "round" in first_view
    a, b = HeuristicAgent(3), HeuristicAgent(3)
    assert a.stance(first_view) == b.stance(second_view)
    assert a._aiming(first_view, a.stance(first_view)) == b._aiming(second_view, b.stance(second_view))


def test_acts_read_together_give_the_floats_of_acts_read_one_by_one() -> None:
    """observe multiplies the acts a view brings in passes of up to three (`RoleBelief._apply`): the weights are the
    very floats of reading them one at a time in the same order, across rescales (every RESCALE_EVERY acts) too."""
    eight = ["lord", "loyalist", "loyalist", "rebel", "rebel", "rebel", "rebel", "renegade"]
    rng = random.Random(5)
    acts = [(rng.randrange(8), rng.randrange(8), rng.choice([("attack",), ("heal",), ("control",), ("draw",)]))
            for _ in range(150)]
    damage = [(rng.randrange(8), rng.randrange(8), 1) for _ in range(40)]
    for me in (0, 1, 3, 7):
        together = RoleBelief(view(me, eight))
        together.observe(view(me, eight, acts=acts, damage=damage))
        alone = RoleBelief(view(me, eight))  # (observe reads the damage first, then the acts)
        for actor, target, _ in damage:
            alone._update(actor, target, -1, True)
        for actor, target, hints in acts:
            alone._update(actor, target, _act_sign(hints), False)
        assert together.weights == alone.weights and together.marginals() == alone.marginals()
        assert together._since_rescale == alone._since_rescale and alone._since_rescale != len(acts) + len(damage)
        views = RoleBelief(view(me, eight))  # one view more at a time: each act read by an observe of its own
        for k in range(1, len(acts) + 1):
            views.observe(view(me, eight, acts=acts[:k]))
        only_acts = RoleBelief(view(me, eight))
        only_acts.observe(view(me, eight, acts=acts))
        assert views.weights == only_acts.weights


def test_ally_chances_are_the_summed_marginals_and_follow_the_belief() -> None:
    """`ally_chances` adds the allied roles' marginals of each hidden seat in the order of their names, from 0.0:
    the very floats of summing `marginals()`'s (the heuristic's stance read those before), for every seat of an
    8-player table and every side; kept while the belief is as it was, worked out again when an act changes it."""
    eight = ["lord", "loyalist", "loyalist", "rebel", "rebel", "rebel", "rebel", "renegade"]
    rng = random.Random(11)
    acts = [(rng.randrange(8), rng.randrange(8), rng.choice([("attack",), ("heal",), ("control",)]))
            for _ in range(40)]
    for me in range(8):
        b = RoleBelief(view(me, eight, acts=acts[:20], damage=[(3, 0, 1), (1, 3, 1)]))
        for allies in (frozenset({"lord", "loyalist"}), frozenset({"rebel"}), frozenset({"renegade"}), frozenset()):
            got = b.ally_chances(allies)
            want = {seat: sum(p for role, p in probs.items() if role in allies)
                    for seat, probs in b.marginals().items()}
            assert got == want and all(type(x) is float for x in got.values())
            assert b.ally_chances(allies) is got  # (kept for this state of the belief)
        rebels = b.ally_chances(frozenset({"rebel"}))
        b.observe(view(me, eight, acts=acts, damage=[(3, 0, 1), (1, 3, 1)]))
        after = b.ally_chances(frozenset({"rebel"}))
        assert after is not rebels
        assert after == {seat: sum(p for role, p in probs.items() if role == "rebel")
                         for seat, probs in b.marginals().items()}


def test_the_stance_follows_a_death_without_new_acts() -> None:
    """The stance is kept while the view's seats, roles and histories are as they were; a seat dead since, with no
    act told, still changes it (its role shown), and a hand-made view without `alive` is read as every seat alive."""
    agent = HeuristicAgent(1)  # seat 2, a rebel: seats 1, 3 and 4 are a loyalist, the other rebel and the renegade
    first = agent.stance(view(2, FIVE, damage=[(3, 0, 1)]))
    assert agent.stance(view(2, FIVE, damage=[(3, 0, 1)])) == first
    after = agent.stance(view(2, FIVE, damage=[(3, 0, 1)], shown={4: "renegade"}, dead=(4,)))
    assert after[4] == -1.0 and first[4] > -1.0
    assert after[1] != first[1] and after[3] != first[3] and after[3] > after[1]  # (one of the two is my mate)
    bare = view(2, FIVE, damage=[(3, 0, 1)])
    for q in bare["players"]:
        del q["alive"]
    fresh = HeuristicAgent(1)
    assert fresh.stance(bare) == first and fresh.stance(bare) == first
    bare["players"][4]["role"] = "renegade"  # (shown, as a hand-made view may say without `alive`)
    assert fresh.stance(bare)[4] == -1.0
