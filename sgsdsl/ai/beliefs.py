"""Role inference: an exact posterior over the hidden roles, for one seat, from public information only.

Whole role assignments are few (30 hypotheses for a loyalist at 8 players, 1,260 at most with two renegades at
10), so the belief keeps every assignment the seat's view allows and its weight, instead of per-seat scores:
- the prior is uniform over the ways to deal the roles still hidden (the dealt multiset, `roles_in_play`, less the
  roles shown and the seat's own) to the seats whose role it cannot see;
- every public act multiplies each assignment by how likely that act is for the actor's role (in that
  assignment) towards the target's role: damage, healing, a card used on a seat (harmful or helpful by its AI
  hints), a card given on another's behalf (answering a leader's call);
- a role shown later (a death reveals it) drops every assignment that disagrees.

It reads nothing but views: no game, no hidden role (tests/test_beliefs.py). Which roles are friends comes from
the mode's structure that every view carries: `sides` (roles that win together) and `solo` (roles whose every
seat is a side alone); the role a seat of a shown role serves is read from the roles shown, never from a name.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import permutations
from typing import Any

HARMFUL = frozenset({"attack", "control", "risk"})
HELPFUL = frozenset({"heal", "draw", "help"})

# how likely an act is when it fits the actor's side (hurting a foe, helping a friend): towards a seat whose role
# is public, and towards a hidden one. The actor only guesses a hidden target's role: a loyalist's early blows at
# hidden seats are guesses, and read as informed (0.85) they made the lord hold loyalists for sure rebels and kill
# them. With 6362471's agent, 8 players, seeds 1-1000 and 1001-2000 (scripts/role_play_stats.py), 0.85 -> 0.6:
# the lord kills 107 -> 77 and 90 -> 70 loyalists, the renegade dies first 216 -> 143 and 194 -> 155 times, side
# shares alike (lord's side 38.9 -> 39.5%, 40.3 -> 40.5%). (At 928d81c's agent, 300 seeds, 0.6 had cost the lord's
# side: 62 wins against 86.) 0.5, no evidence at all, cost it again (seeds 1-1000: 34.7%)
FIT_PUBLIC, FIT_HIDDEN = 0.85, 0.6
# damage says less than an aimed act: a card that reaches everyone, a duel lost, a skill striking back all damage
# seats their source did not choose (the aimed acts are read from the act history at full weight)
FIT_DAMAGE = 0.65
# affinity of a seat that plays alone (a solo role, or a side of one seat) towards a seat of a shown role it must
# keep alive until last (the renegade and the lord): between friend (1) and foe (0)
ALONE_TOWARDS_SHOWN = 0.55
# at most this many hypotheses are kept exactly; beyond, the belief keeps a uniform random subset (never reached
# by the bundled modes: 10 players with two renegades give 1,260 at most)
MAX_HYPOTHESES = 20_000
# the weights are kept as products, not logs (one multiplication per hypothesis and event, in C); every this many
# events they are scaled back so that the largest is 1, long before a product could underflow (each factor is at
# least 1 - FIT_PUBLIC)
RESCALE_EVERY = 64


class RoleBelief:
    """The belief of one seat about every other seat's role (see the module docstring).

    `RoleBelief(view)` builds it from a view of the seat; `observe(view)` reads what is new in a later view of the
    same seat (events already read are not read twice); `marginals()` gives seat -> role -> probability for the
    seats whose role is hidden from it; `sample(rng)` draws one full assignment from the posterior."""

    def __init__(self, view: Mapping[str, Any]):
        self.seat: int = view["seat"]
        self.role: str = view["role"]
        self.role_shown: bool = bool(view.get("role_shown", False))
        self.sides: tuple[frozenset[str], ...] = tuple(frozenset(s) for s in view.get("sides", ()))
        self.solo: frozenset[str] = frozenset(view.get("solo", ()))
        self.dealt: Counter[str] = Counter(view["roles_in_play"])
        self.n = len(view["players"])
        self.known: dict[int, str] = {}  # seats whose role this seat knows: its own, the shown ones
        self.hidden: tuple[int, ...] = ()
        self.hypotheses: Sequence[tuple[str, ...]] = ()  # roles of the hidden seats, in `hidden` order
        self.weights: list[float] = []  # per hypothesis, up to a common factor
        self._read = {"damage_history": 0, "recover_history": 0, "act_history": 0}
        # per history, the seats whose role was shown during play and the first entry made after (`shown_history`):
        # an entry before it was an act at a seat whose role its actor could not see
        self._shown_from: tuple[dict[int, int], ...] = ({}, {}, {})
        self._shown_read = 0
        self._mode = (self.sides, self.solo, tuple(sorted(self.dealt.items())))
        self._deals: DealSpace = _space(self._mode, ())
        self._since_rescale = 0
        self._marginals: dict[int, dict[str, float]] | None = None
        # `ally_chances` as last asked: the roles asked about, and the answer (for this state of the belief)
        self._chances: tuple[frozenset[str], dict[int, float]] | None = None
        self._reset(view)
        self.observe(view)

    # ------------------------------------------------------------ hypotheses
    def _shown(self, view: Mapping[str, Any]) -> dict[int, str]:
        out = {q["seat"]: q["role"] for q in view["players"] if q["role"] != "hidden"}
        out[self.seat] = self.role
        return out

    def _reset(self, view: Mapping[str, Any]) -> None:
        """Every way to deal the roles not shown to the seats not shown, equally likely."""
        self.known = self._shown(view)
        self.hidden = tuple(q["seat"] for q in view["players"] if q["seat"] not in self.known)
        left = dict(self.dealt)  # (the roles dealt less the ones known: a Counter's subtraction, without its cost)
        for r in self.known.values():
            left[r] = left.get(r, 0) - 1
        pool = sorted([r for r, n in left.items() for _ in range(n)])
        if len(pool) != len(self.hidden):
            raise ValueError(f"view of seat {self.seat}: {len(pool)} roles left for {len(self.hidden)} hidden seats")
        space = _space(self._mode, tuple(pool))
        if len(space.hypotheses) > MAX_HYPOTHESES:  # (a reproducible subset: from the view alone)
            subset = random.Random(repr(sorted(self.known.items()))).sample(list(space.hypotheses), MAX_HYPOTHESES)
            space = DealSpace(self._mode, tuple(pool), tuple(subset), shared=False)
        self._deals = space
        self.hypotheses = space.hypotheses
        self.weights = [1.0] * len(self.hypotheses)
        self._marginals = None
        self._chances = None

    def _reveal(self, view: Mapping[str, Any]) -> None:
        """Roles shown since (a death reveals one): drop the assignments that disagree."""
        players = view["players"]
        if sum(1 for q in players if q["role"] != "hidden") == len(self.known):  # (my own role is in my view)
            return  # (no role shown since: the common case, checked without building the table of shown roles)
        shown = self._shown(view)
        new = {s: r for s, r in shown.items() if s not in self.known}
        if not new:
            return
        where = {s: i for i, s in enumerate(self.hidden)}
        keep, space = self._deals.reveal(tuple(sorted((where[s], r) for s, r in new.items() if s in where)))
        if not keep:  # (only if the roles shown fit no deal, as no dealt roles would: start again from what is shown)
            self._reset(view)
            return
        self.hidden = tuple(s for s in self.hidden if s not in new)
        self.weights = [self.weights[i] for i in keep]
        self._deals = space
        self.hypotheses = space.hypotheses
        self.known.update(new)
        self._marginals = None
        self._chances = None

    # ------------------------------------------------------------ allegiance
    def affinity(self, actor: str, target: str, target_shown: bool) -> float:
        """How much a seat of role ACTOR wants a seat of role TARGET to do well, from 0 (foe) to 1 (friend)."""
        return _affinity(self.sides, self.solo, self.dealt, actor, target, target_shown)

    # ------------------------------------------------------------ evidence
    def observe(self, view: Mapping[str, Any]) -> None:
        """Read what is new in a later view of the same seat: roles shown, then the acts not yet read."""
        if view["seat"] != self.seat:
            raise ValueError(f"a belief of seat {self.seat} cannot read the view of seat {view['seat']}")
        self.role_shown = bool(view.get("role_shown", self.role_shown))
        self._reveal(view)
        shown_history = view.get("shown_history", ())
        for k in range(self._shown_read, len(shown_history)):
            entry = shown_history[k]
            for h in range(3):
                self._shown_from[h][entry[0]] = entry[h + 1]
        self._shown_read = len(shown_history)
        pending: list[list[float]] = []  # the factors of the acts read and not yet multiplied in (`_apply`)
        for (key, sign, weak), since in zip(_HISTORIES, self._shown_from, strict=True):
            items = view.get(key, ())
            start, end = self._read[key], len(items)
            if end < start:  # (a view of another game: nothing in it continues what was read)
                if pending:  # (what was read before stays read)
                    self._apply(pending)
                raise ValueError(f"the view's {key} is shorter than what the belief has read")
            for i in range(start, end):
                item = items[i]
                target = item[1]
                factors = self._factors(item[0], target, sign if sign else _act_sign(tuple(item[2])), weak,
                                        not since or since.get(target, 0) <= i)
                if factors is not None:
                    pending.append(factors)
                    if self._since_rescale + len(pending) >= RESCALE_EVERY:
                        self._apply(pending)
            self._read[key] = end
        if pending:
            self._apply(pending)

    def _update(self, actor: int | None, target: int, sign: int, weak: bool = False) -> None:
        """Read one act (observe reads a view's new acts so, several at a time)."""
        factors = self._factors(actor, target, sign, weak, True)
        if factors is not None:
            self._apply([factors])

    def _factors(self, actor: int | None, target: int, sign: int, weak: bool, shown_then: bool) -> list[float] | None:
        """Each deal's factor for one act, or None when the act says nothing. SHOWN_THEN: whether a role shown now
        was shown already when the act was made (a seat that died since was hidden to its actor)."""
        # evidence about a hidden actor only: a seat whose role I know tells me nothing by its acts (it does not
        # know the others' roles either)
        if sign == 0 or actor is None or actor == target or actor in self.known:
            return None
        ai = self.hidden.index(actor)
        # whether the actor could see the target's role: shown to all (mine only if my view says it is shown)
        shown = target in self.known and shown_then and (target != self.seat or self.role_shown)
        towards: Any = ("role", self.known[target]) if target in self.known else self.hidden.index(target)
        return self._deals.factors(sign, shown, weak, ai, towards)

    def _apply(self, pending: list[list[float]]) -> None:
        """Multiply the weights by the factors of the acts read, in order, and empty PENDING. Each weight is
        multiplied by them one after another, from left to right, as one act at a time would (the same floats),
        several in one pass; the rescale comes after every RESCALE_EVERY acts, as before (`observe` applies what
        it has read before one is due)."""
        count = len(pending)
        weights = self.weights
        k = 0
        while k < count:  # (three acts a pass at most: the products in the same order)
            if count - k >= 3:
                weights = _times3(weights, pending[k], pending[k + 1], pending[k + 2])
                k += 3
            elif count - k == 2:
                weights = _times2(weights, pending[k], pending[k + 1])
                k += 2
            else:
                weights = _times(weights, pending[k])
                k += 1
        pending.clear()
        self._since_rescale += count
        if self._since_rescale >= RESCALE_EVERY:
            self._since_rescale = 0
            top = max(weights)
            if top > 0:
                weights = [w / top for w in weights]
        self.weights = weights
        self._marginals = None
        self._chances = None

    # ------------------------------------------------------------ answers
    def shared_marginals(self) -> dict[int, dict[str, float]]:
        """`marginals()` as the belief keeps it, not a copy: for callers that only read it (the heuristic agent,
        once per state of the belief)."""
        if self._marginals is None:
            weights = self.weights
            total = _total(weights, range(len(weights)))
            out: dict[int, dict[str, float]] = {}
            for seat, where in zip(self.hidden, self._deals.index(), strict=True):
                out[seat] = {role: _total(weights, ks) / total for role, ks in where.items()}
            self._marginals = out
        return self._marginals

    def ally_chances(self, allies: frozenset[str]) -> dict[int, float]:
        """Per seat whose role is hidden from this seat, the chance that its role is one of ALLIES: its marginals
        of those roles added in the order of their names, from 0.0 (the very floats of summing `marginals()`'s),
        without working out the others. Kept, and read only, by its callers, for the belief's state: asked at
        every new state by the heuristic agent, which needs no other role's chance."""
        got = self._chances
        if got is not None and got[0] == allies:
            return got[1]
        weights = self.weights
        total = _total(weights, range(len(weights)))
        out: dict[int, float] = {}
        for seat, where in zip(self.hidden, self._deals.index(), strict=True):
            t = 0.0
            for role, ks in where.items():
                if role in allies:
                    t += _total(weights, ks) / total
            out[seat] = t
        self._chances = (allies, out)
        return out

    def marginals(self) -> dict[int, dict[str, float]]:
        """seat -> role -> probability, for every seat whose role is hidden from this seat (a fresh copy; worked
        out once per state of the belief)."""
        return {seat: dict(probs) for seat, probs in self.shared_marginals().items()}

    def sample(self, rng: random.Random) -> dict[int, str]:
        """One full assignment (every seat), drawn from the posterior: the shown roles as they are."""
        h = rng.choices(self.hypotheses, weights=self.weights, k=1)[0]
        out = dict(self.known)
        out.update(zip(self.hidden, h, strict=True))
        return dict(sorted(out.items()))

    def friendly(self, seat: int) -> float:
        """The probability that SEAT wins with me (my side's roles; a seat of a solo role has no such friend)."""
        if seat == self.seat:
            return 1.0
        if seat in self.known:
            return 1.0 if self.affinity(self.role, self.known[seat], True) == 1.0 else 0.0
        probs = self.shared_marginals()[seat]
        return sum(p for role, p in probs.items() if self.affinity(self.role, role, False) == 1.0)


def _alone(sides: tuple[frozenset[str], ...], solo: frozenset[str], dealt: Mapping[str, int], role: str) -> bool:
    """Whether a seat of this role has no friend: a solo role, or a role whose side has one seat dealt."""
    if role in solo:
        return True
    return sum(n for r, n in dealt.items() if r == role or any(role in s and r in s for s in sides)) <= 1


def _affinity(sides: tuple[frozenset[str], ...], solo: frozenset[str], dealt: Mapping[str, int], actor: str,
              target: str, target_shown: bool) -> float:
    """How much a seat of role ACTOR wants a seat of role TARGET to do well, from 0 (foe) to 1 (friend)."""
    if actor not in solo and any(actor in s and target in s for s in sides):
        return 1.0
    if _alone(sides, solo, dealt, actor) and target_shown and target not in solo:
        return ALONE_TOWARDS_SHOWN  # alone, it keeps the shown seats alive while others live
    return 0.0


def _likelihood(sides: tuple[frozenset[str], ...], solo: frozenset[str], dealt: Mapping[str, int], actor: str,
                target: str, sign: int, target_shown: bool, weak: bool) -> float:
    """P(an act of this sign | the actor's role, the target's role): likely when it fits the actor's side."""
    fit = FIT_DAMAGE if weak else FIT_PUBLIC if target_shown else FIT_HIDDEN
    a = _affinity(sides, solo, dealt, actor, target, target_shown)
    friendly = fit * a + (1 - fit) * (1 - a)  # P(a helpful act)
    return friendly if sign > 0 else 1.0 - friendly


def _times(weights: list[float], factors: list[float]) -> list[float]:
    """Each weight times its factor. (A typed loop rather than `map(mul, ...)`: compiled, it multiplies C doubles
    with no call per item.)"""
    return [weights[i] * factors[i] for i in range(len(weights))]


def _times2(weights: list[float], a: list[float], b: list[float]) -> list[float]:
    """`_times` of two acts in one pass: (weight × a) × b, the floats two passes give."""
    return [weights[i] * a[i] * b[i] for i in range(len(weights))]


def _times3(weights: list[float], a: list[float], b: list[float], c: list[float]) -> list[float]:
    """`_times` of three acts in one pass: ((weight × a) × b) × c."""
    return [weights[i] * a[i] * b[i] * c[i] for i in range(len(weights))]


def _total(weights: list[float], which: Iterable[int]) -> float:
    """The sum of the chosen weights, added in order from 0.0: the very float `sum` gives on Python 3.11, and the
    same on every version and build (3.12's `sum` compensates its rounding)."""
    t = 0.0
    for k in which:
        t += weights[k]
    return t


class DealSpace:
    """Every deal of one multiset of hidden roles (a POOL) in one mode, and what beliefs over it share: which deals
    give each position which role, each kind of act's factor per deal, and where a role shown leads. Made once per
    mode and pool (`_space`): every seat of every game of a mode starts from the same few and reaches the same few
    by the same deaths, so none of this is worked out again per belief."""

    def __init__(self, mode: tuple[Any, ...], pool: tuple[str, ...], hypotheses: tuple[tuple[str, ...], ...],
                 shared: bool = True):
        self.mode = mode
        self.pool = pool
        self.hypotheses = hypotheses
        self.shared = shared  # every deal of the pool (else a subset, kept by one belief alone)
        self.lik = _tables(*mode)
        # per kind of act, actor and target (a position, or a known role): the factor of each hypothesis
        self._factors: dict[tuple[Any, ...], list[float]] = {}
        self._index: list[dict[str, list[int]]] | None = None
        self._reveals: dict[tuple[tuple[int, str], ...], tuple[list[int], DealSpace]] = {}

    def factors(self, sign: int, shown: bool, weak: bool, ai: int, towards: Any) -> list[float]:
        """How likely an act of this kind by the seat at position AI towards TOWARDS (a position, or
        ("role", role) for a seat whose role is known) is under each deal."""
        key = (sign, shown, weak, ai, towards)
        got = self._factors.get(key)
        if got is None:
            table = self.lik[(sign, shown, weak)]
            if isinstance(towards, int):
                got = [table[h[ai], h[towards]] for h in self.hypotheses]
            else:
                role = towards[1]
                got = [table[h[ai], role] for h in self.hypotheses]
            self._factors[key] = got
        return got

    def index(self) -> list[dict[str, list[int]]]:
        """Per position, per role: the deals giving it that role, in order."""
        if self._index is None:
            self._index = []
            for i in range(len(self.pool)):
                where: dict[str, list[int]] = {}
                for k, h in enumerate(self.hypotheses):
                    where.setdefault(h[i], []).append(k)
                self._index.append(dict(sorted(where.items())))
        return self._index

    def reveal(self, fixed: tuple[tuple[int, str], ...]) -> tuple[list[int], DealSpace]:
        """Roles shown at some positions: the deals that agree (their numbers) and the space of the positions left,
        whose deals are those, in the same order, without the shown positions."""
        got = self._reveals.get(fixed)
        if got is None:
            keep = [i for i, h in enumerate(self.hypotheses) if all(h[j] == r for j, r in fixed)]
            if not keep:
                return keep, self
            left = Counter(self.pool) - Counter(r for _, r in fixed)
            pool = tuple(sorted(left.elements()))
            if self.shared:
                # (the sorted distinct orders of a multiset that agree at some positions are, without them, the
                # sorted distinct orders of what is left: tests/test_beliefs.py holds them to it)
                nxt = _space(self.mode, pool)
            else:
                gone = {j for j, _ in fixed}
                rest = [j for j in range(len(self.pool)) if j not in gone]
                nxt = DealSpace(self.mode, pool, tuple(tuple(self.hypotheses[i][j] for j in rest) for i in keep),
                                shared=False)
            got = self._reveals[fixed] = (keep, nxt)
        return got


@lru_cache(maxsize=1024)
def _space(mode: tuple[Any, ...], pool: tuple[str, ...]) -> DealSpace:
    return DealSpace(mode, pool, _deals(pool))


@lru_cache(maxsize=256)
def _deals(pool: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every distinct order of a sorted multiset of roles, sorted: made once per multiset (every belief of every
    game of a mode starts from the same few; 7! orders of 8-player roles give 105 distinct deals)."""
    return tuple(sorted(set(permutations(pool)))) if pool else ((),)


@lru_cache(maxsize=64)
def _tables(sides: tuple[frozenset[str], ...], solo: frozenset[str], dealt: tuple[tuple[str, int], ...]) -> dict[
        tuple[int, bool, bool], dict[tuple[str, str], float]]:
    """P(act | actor's role, target's role) for every pair of roles dealt and every kind of act (harmful or
    helpful, towards a shown or a hidden seat, weak or not): made once per mode and deal of roles, shared by every
    belief of every seat and game."""
    counts = dict(dealt)
    return {(sign, shown, weak): {(r, t): _likelihood(sides, solo, counts, r, t, sign, shown, weak)
                                  for r in counts for t in counts}
            for sign in (-1, 1) for shown in (False, True) for weak in (False, True)}


@lru_cache(maxsize=512)
def _act_sign(hints: tuple[str, ...]) -> int:
    """A card used on a seat: harmful (-1) or helpful (+1) by its hints, 0 when neither; a card given on its
    behalf is help. (Once per distinct hint tuple: the same cards are used game after game.)"""
    t = set(hints)
    if "behalf" in t:
        return 1
    if t & HARMFUL:
        return -1
    if t & HELPFUL:
        return 1
    return 0


# each public history: how its entries read (harmful -1 or helpful +1, or 0: by the hints each carries third), and
# whether as weak evidence (see FIT_DAMAGE)
_HISTORIES = (("damage_history", -1, True), ("recover_history", 1, False), ("act_history", 0, False))
