"""A search agent: determinized Monte-Carlo search on the engine itself, with no code of its own for any card,
skill or mode.

At a decision with more than one answer worth telling apart, it plays each answer out on copies of the game
(`engine.snapshots`): each copy is the game as its seat sees it, with what it cannot see (other hands, the draw
pile, hidden roles) drawn afresh, played by the heuristic agent at every seat to the end of the turn, then valued
for its side. It picks the answer with the best mean value, the heuristic's own unless another beats it by a small
margin (DEFAULT_BONUS). Everywhere else (set-up, and answers no search can tell apart) it answers as the heuristic
agent does.

Why PIMC (perfect-information Monte Carlo: sample worlds, play each answer out in each, average) and not ISMCTS:
the engine runs a turn as nested calls, so every node of a tree below the root would cost a replay of the turn
from its start, and at the budget that fits a decision (tens of rollouts) an ISMCTS tree would barely grow past its
root anyway: flat search at the root is what it would do. Every answer is played out in the same worlds (the same
deal, roles and random streams: common random numbers), so the comparison between answers is paired, and
sequential halving spends the budget on the answers still in contention.

It never reads the hidden state: it decides from its request and its view, and the copies it plays out are
determinized by the engine from what its seat can see (`engine.snapshots.determinize`); the hidden roles are
drawn from its `RoleBelief` (sgsdsl/ai/beliefs.py), which reads public events in its views and nothing else.
"""

from __future__ import annotations

import gc
import math
import random
from collections.abc import Sequence
from typing import Any

from ..engine.agents import Agent, Request
from ..engine.errors import EngineError
from ..engine.snapshots import Determinizer, SearchHandle, determinize, hidden_roles
from .beliefs import RoleBelief
from .heuristic import HeuristicAgent

DEFAULT_BUDGET = 16  # rollouts per decision: fits 50 ms a decision on the native build (benchmarks/search_bench.py)
MAX_BUDGET = 100_000
# turns played after the current one before a rollout is valued (0: to the end of the current turn)
EXTRA_TURNS = 0
# what the heuristic's own answer is worth on top of its mean: a search that cannot tell answers apart keeps it
# (0.02 was about one HP of the table's strength: the search then almost never left the heuristic's answer)
DEFAULT_BONUS = 0.004


def sample_roles(view: Any, rng: random.Random) -> dict[int, str]:
    """A role for every seat whose role the view hides, uniform among the assignments the view allows (the roles
    in play less the known ones): the prior, without evidence (the agent draws from its RoleBelief instead)."""
    seats, roles = hidden_roles(view)
    rng.shuffle(roles)
    return dict(zip(seats, roles, strict=True))


# the leaf value (seat_value): what a living seat is worth on top of its cards and HP, and each HP from the first
# (a seat on its last HP is one blow from dying: its first HPs could weigh most); the mode's leader weighs
# LEADER_WEIGHT. Alive 1.5 and HPs (2.0, 1.4, 1.1) played no better than the plain count (docs/balance.md).
ALIVE_WORTH = 0.0
HP_WORTH: tuple[float, ...] = ()  # the 1st, 2nd, … HP (more than listed: 1.0 each)
HAND_WORTH = 0.4
EQUIP_WORTH = 0.6
LEADER_WEIGHT = 2.0


def seat_strength(q: Any) -> float:
    """A living seat's strength: being alive, its HP (the first ones weigh most), its hand and its equipment."""
    hp = max(0, q.hp)
    worth = ALIVE_WORTH + sum(HP_WORTH[:hp]) + max(0, hp - len(HP_WORTH))
    return worth + HAND_WORTH * len(q.hand) + EQUIP_WORTH * len(q.equips)


def seat_value(world: Any, seat: int) -> float:
    """What a copy of the game is worth to SEAT, in [0, 1]: 1 or 0 once the game is won (0.5 for a draw);
    otherwise 0.1–0.9 by its side's share of the table's strength (`seat_strength`; the mode's leader weighs
    LEADER_WEIGHT, for both sides), sides as the copy's roles and the mode's `win` lines make them (a `solo` role is
    a side alone)."""
    if world.result is not None:
        winners = world.result[0]
        if not winners:
            return 0.5
        return 1.0 if seat in world.winners_seats else 0.0
    mode = world.mode
    mine = world.players[seat].role
    side = {mine}
    if mine not in mode.solo:
        for roles in mode.sides():
            if mine in roles:
                side.update(roles)
    ours = theirs = 0.0
    for q in world.players:
        if not q.alive:
            continue
        s = seat_strength(q)
        if q.role == mode.leader:
            s *= LEADER_WEIGHT
        if q.seat == seat or (mine not in mode.solo and q.role in side):
            ours += s
        else:
            theirs += s
    total = ours + theirs
    return 0.5 if total <= 0 else 0.1 + 0.8 * ours / total


def candidate_answers(request: Request, default: list[int]) -> list[list[int]]:
    """The answers worth playing out, DEFAULT first: every single option (and none, when none may be chosen),
    options the seat cannot tell apart (the same label, seat and hints: another's hidden hand cards) once; for
    requests of several options at once, only DEFAULT (their answers are too many to play out)."""
    n = len(request.options)
    lo, hi = min(request.low, n), min(request.high, n)
    if hi > 1 or n == 0:
        return [default]
    out = [list(default)]
    seen = {_signature(request, default)}
    singles: list[list[int]] = ([[]] if lo == 0 else []) + [[i] for i in range(n)]
    for ans in singles:
        sig = _signature(request, ans)
        if sig not in seen:
            seen.add(sig)
            out.append(ans)
    return out


def _signature(request: Request, answer: list[int]) -> tuple:
    if not answer:
        return ()
    i = answer[0]
    seat = request.option_seats[i] if i < len(request.option_seats) else None
    tags = request.option_tags[i] if i < len(request.option_tags) else ()
    return (request.options[i], seat, tags)


class SearchAgent(Agent):
    """Plays its options out on determinized copies of the game (module docstring)."""

    name = "search"
    searches = True
    view_cards = False  # its policy reads the table, not card labels; its search reads copies of the game

    def __init__(self, seed: int, budget: int = DEFAULT_BUDGET, extra_turns: int | None = None):
        if not 1 <= budget <= MAX_BUDGET:
            raise ValueError(f"a search budget is 1 to {MAX_BUDGET} rollouts, not {budget}")
        self.rng = random.Random(seed)
        self.policy = HeuristicAgent(seed)
        self.budget = budget
        self.extra_turns = EXTRA_TURNS if extra_turns is None else extra_turns
        self.handle: SearchHandle | None = None
        self.searched = 0  # decisions searched, and rollouts played (for benchmarks)
        self.rollouts = 0
        self.failed = 0  # decisions whose rollouts raised an engine error (answered as the heuristic)
        self.belief: RoleBelief | None = None
        self._policies: list[HeuristicAgent] = []

    # the determinization its rollouts use (a test subclass swaps it to show what peeking would change)
    determinizer: Determinizer = staticmethod(determinize)

    def bind(self, handle: Any) -> None:
        self.handle = handle

    def decide(self, request: Request, view: Any) -> list[int]:
        default = self.policy.decide(request, view)
        handle = self.handle
        if handle is None or not handle.ready():
            return default
        answers = candidate_answers(request, default)
        if len(answers) < 2:
            return default
        return self.search(handle, request, view, answers)

    def search(self, handle: SearchHandle, request: Request, view: Any, answers: list[list[int]]) -> list[int]:
        """Sequential halving over ANSWERS (ANSWERS[0] the default), every answer of a round played out in the
        same new worlds."""
        if len(answers) > self.budget:  # keep the default and a fair draw of the others
            answers = [answers[0]] + sorted(self.rng.sample(answers[1:], self.budget - 1))
        belief = self.belief_now(view)
        arms = list(range(len(answers)))
        totals = [0.0] * len(answers)
        counts = [0] * len(answers)
        rounds = max(1, math.ceil(math.log2(len(answers))))
        for _ in range(rounds):
            per_arm = max(1, self.budget // (rounds * len(arms)))
            for _ in range(per_arm):
                world_rng = random.Random(self.rng.getrandbits(62))
                roles = belief.sample(world_rng)  # the one place roles are drawn: from the seat's belief
                deal = world_rng.getstate()  # every answer is played out in the same world
                for a in arms:
                    world_rng.setstate(deal)
                    try:
                        totals[a] += self.play_out(handle, request, answers[a], world_rng, roles,
                                                   len(view["players"]))
                    except EngineError:  # a copy that went wrong is a bug to fix, not the game's: the game goes on
                        self.failed += 1  # with the heuristic's answer (benchmarks/search_bench.py counts these)
                        gc.collect(0)
                        return list(answers[0])
                    counts[a] += 1

            def score(a: int) -> tuple[float, int]:
                return (-(totals[a] / counts[a] + (DEFAULT_BONUS if a == 0 else 0.0)), a)

            arms = sorted(arms, key=score)[:max(1, (len(arms) + 1) // 2)]
            if len(arms) == 1:
                break
        self.searched += 1
        gc.collect(0)  # the copies are cycles (cards and players point back at their game): freed here
        return list(answers[min(arms, key=score)])

    def belief_now(self, view: Any) -> RoleBelief:
        """The seat's belief over the hidden roles (public evidence only), brought up to this view."""
        belief = self.belief
        if belief is None or belief.seat != view["seat"]:
            belief = self.belief = RoleBelief(view)
        else:
            belief.observe(view)
        return belief

    def play_out(self, handle: SearchHandle, request: Request, answer: list[int], world_rng: random.Random,
                 roles: dict[int, str], seats: int) -> float:
        """One rollout: ANSWER in the world WORLD_RNG and ROLES make, heuristic agents at every seat after it."""
        self.rollouts += 1
        world = handle.rollout(request, answer, world_rng, roles, self.policies(seats, world_rng), self.extra_turns,
                               self.determinizer)
        return seat_value(world, handle.seat)

    def policies(self, seats: int, world_rng: random.Random) -> Sequence[Agent]:
        """The heuristic agents that play rollouts out, one per seat (made once: making a seeded generator costs
        more than a short rollout's decisions). They draw from the world's stream, after the determinization has:
        every answer tried in a world meets the same draws."""
        if len(self._policies) != seats:
            self._policies = [HeuristicAgent(s) for s in range(seats)]
        for p in self._policies:
            p.rng = world_rng
        return self._policies
