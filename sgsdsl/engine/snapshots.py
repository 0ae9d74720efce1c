"""Search on the engine itself: the game at the start of a turn kept as plain data, and games continued from it
with the hidden information replaced (a determinization), for agents that play their options out.

The engine runs a turn as nested calls, so the middle of a turn is no data: only its start is. A snapshot is the
whole game state pickled there (every state object of the engine pickles; the program's rule objects and
functions, which never change, go by reference, and the log, the state hashes and the answers so far stay out, so
its size does not grow with the game's length). To reach a decision in the middle of the turn, a rollout restores
the snapshot and replays the answers given since the turn began (all seats): the copy is then exactly where the
game is. There `determinize` replaces, in place, what the asking seat cannot see (the other hands, the draw pile,
others' private piles, the hidden roles, the game's random stream and the order of the unused generals) by a
sample drawn from what it can see; the branch answer is given, and agents of the searcher's choosing play on to a
horizon (the end of the turn, or a number of turns more), raising `Horizon`, or to the end of the game.

A rollout's cost grows with the turn so far, not with the game: the restore is a fixed-size copy and the replay
covers this turn only.
"""

from __future__ import annotations

import io
import pickle
import random
import types
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, is_dataclass
from operator import getitem
from typing import Any

from .agents import Agent, Request
from .errors import EngineError, Horizon
from .model import Card

# a determinization: (world, seat, rng, roles) -> None, changing the world in place
Determinizer = Callable[[Any, int, random.Random, dict[int, str]], None]

# the zones a card came from (its `last_zone`) that make it known to every seat although it lies in a hand or a
# private pile now, or in the draw pile (a reshuffle brings the discard pile there unseen: it does not count)
SEEN_INTO_HAND = frozenset({"processing", "discard", "equip", "judge"})
SEEN_ONTO_DECK = frozenset({"processing", "equip", "judge"})


@dataclass(frozen=True)
class Snapshot:
    """The game at the start of SEAT's turn (the phases FIRST..LAST of it, None: all), pickled. IN_ROUND: the turn
    is one of the default round's, so a continued game can play the rest of the round and the rounds after it.
    ANSWERS: how many answers the game had given then (its `answers` list: those after it are this turn's)."""

    data: bytes
    seat: int
    first_phase: str | None
    last_phase: str | None
    in_round: bool
    answers: int


class _Pins:
    """The objects a snapshot names instead of copying: the program's rule objects and the functions they and the
    engine's tables hold (one table per program, grown when a snapshot meets a function not seen before)."""

    def __init__(self, program: Any):
        self.program = program  # (kept alive: the table is found by the program's id)
        self.objects: list[Any] = []
        self.index: dict[int, int] = {}
        self._walk(program)

    def add(self, obj: Any) -> int:
        i = self.index.get(id(obj))
        if i is None:
            i = self.index[id(obj)] = len(self.objects)
            self.objects.append(obj)
        return i

    def _walk(self, root: Any) -> None:
        todo = [root]
        while todo:
            x = todo.pop()
            if isinstance(x, (str, bytes, int, float, bool, type(None))) or id(x) in self.index:
                continue
            if isinstance(x, dict):
                todo.extend(x.values())
            elif isinstance(x, (list, tuple, set, frozenset)):
                todo.extend(x)
            elif is_dataclass(x) and not isinstance(x, type):
                self.add(x)
                todo.extend(getattr(x, f.name) for f in fields(x))
            elif callable(x):
                self.add(x)


_PINS: dict[int, _Pins] = {}


def pins_for(program: Any) -> _Pins:
    got = _PINS.get(id(program))
    if got is None or got.program is not program:
        got = _PINS[id(program)] = _Pins(program)
    return got


def _is_code(obj: Any) -> bool:
    """A function that is not bound to a state object (module functions, lambdas, builtins): named, not copied."""
    t = type(obj)
    if t is types.FunctionType or t.__name__.startswith("__mypyc_lambda__"):
        return True
    return t is types.BuiltinFunctionType and isinstance(getattr(obj, "__self__", None), (types.ModuleType,
                                                                                           type(None)))


class _Table:
    """Stands, in a snapshot, for the table of pinned objects and agents a restore reads them from: pickled as a
    call that returns that table (made once per restore), so each pinned object loads as `getitem(table, i)`, a C
    call, and everything else as the pickle machinery's own C code."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _loading_table, ()


_LOADING: list[list[Any]] = [[]]  # the table the restore under way reads from (restore sets it)


def _loading_table() -> list[Any]:
    return _LOADING[0]


class _Pickler(pickle.Pickler):
    """Pickles a game with its pinned objects and agents by their place in the table (`_Table`). Only objects that
    are neither plain values nor containers pass through `reducer_override` (a few hundred a snapshot)."""

    def __init__(self, file: io.BytesIO, pins: _Pins, agents: Sequence[Any]):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.pins = pins
        n = len(agents)
        self.agents = {id(a): seat - n for seat, a in enumerate(agents)}  # negative: from the end of the table
        self.table = _Table()

    def reducer_override(self, obj: Any) -> Any:  # noqa: D102 - pickle's hook
        i = id(obj)
        k = self.agents.get(i)
        if k is None:
            k = self.pins.index.get(i)
            if k is None:
                if not _is_code(obj) or obj is getitem or obj is _loading_table:  # (those two by name)
                    return NotImplemented
                k = self.pins.add(obj)
        return getitem, (self.table, k)


def take_snapshot(game: Any, p: Any, first_phase: str | None, last_phase: str | None) -> Snapshot:
    """GAME at the start of P's turn, as a Snapshot (without its log, state hashes and answers)."""
    saved = (game.log, game.hashes, game.answers, game.turn_snapshot)
    game.log, game.hashes, game.answers, game.turn_snapshot = [], [], [], None
    buf = io.BytesIO()
    try:
        _Pickler(buf, pins_for(game.program), game.agents).dump(game)
    finally:
        game.log, game.hashes, game.answers, game.turn_snapshot = saved
    return Snapshot(buf.getvalue(), p.seat, first_phase, last_phase, game.round_turn is p, len(game.answers))


def restore(snapshot: Snapshot, program: Any, agents: Sequence[Agent]) -> Any:
    """A new game in the snapshot's state, played by AGENTS (one per seat), keeping no log and taking no snapshots."""
    _LOADING[0] = pins_for(program).objects + list(agents)
    try:
        world = pickle.loads(snapshot.data)
    finally:
        _LOADING[0] = []
    world.record = False
    world.searching = False
    return world


# ------------------------------------------------------------------ determinization
def determinize(world: Any, seat: int, rng: random.Random, roles: dict[int, str]) -> None:
    """Replace in WORLD, in place, what SEAT cannot see by a sample that depends only on what it can see and RNG.

    The cards in hidden places (other seats' hands and private piles, the draw pile) are dealt again at random
    into the same places, the same number each. Which cards lie hidden is known from the open ones, and the deal
    starts from them sorted by card id, so where they truly lay never shows through. Each card keeps its id and
    face together (a card's label names both); the card objects stay in their places, so a request in progress
    that holds them still holds the cards in those places. The cards every seat saw go where they are
    (`SEEN_INTO_HAND`, `SEEN_ONTO_DECK`: taken from the discard pile or from a use in progress, a used card put
    back on the deck) keep their faces: they are known, and a use in progress may still hold one (a card that hurt
    a seat and went to its hand is still the card being used). The hidden roles become ROLES (seat -> role, at
    least every seat whose role SEAT does not know; the roles given must be those hidden). The game's random
    stream and the order of the unused generals are drawn afresh too."""
    me = world.players[seat]
    places: list[Card] = []
    for q in world.players:
        if q is me:
            continue
        places.extend(c for c in q.hand if c.last_zone not in SEEN_INTO_HAND)
        for name in sorted(q.piles):
            if not q.pile_public.get(name, True):
                places.extend(x for x in q.piles[name] if isinstance(x, Card) and x.last_zone not in SEEN_INTO_HAND)
    places.extend(c for c in world.draw_pile if c.last_zone not in SEEN_ONTO_DECK)
    faces = sorted(((c.id, c.printed_rule, c.printed_suit, c.rank, c._label) for c in places), key=_first)
    rng.shuffle(faces)
    for c, (cid, rule, suit, rank, label) in zip(places, faces, strict=True):
        c.id, c.printed_rule, c.printed_suit, c.rank, c._label = cid, rule, suit, rank, label
        c.used_face = None
    world.cards.sort(key=_card_id)
    hidden = [q for q in world.players if q is not me and not q.role_revealed]
    given = [roles.get(q.seat) for q in hidden]
    if sorted(map(str, given)) != sorted(q.role for q in hidden):
        raise EngineError(f"a determinization must give the hidden seats {[q.seat for q in hidden]} the hidden "
                          f"roles, not {given}")
    for q, role in zip(hidden, given, strict=True):
        q.role = role
    pool = sorted(world.general_pool, key=_ident)
    rng.shuffle(pool)
    world.general_pool = pool
    world.rng.seed(rng.getrandbits(64))


def keep_world(world: Any, seat: int, rng: random.Random, roles: dict[int, str]) -> None:
    """No determinization: the copy keeps the true hidden cards and roles. For tests that show what reading the
    hidden state would change (a searching agent given it is no longer fair)."""


def _first(face: tuple) -> int:
    return face[0]


def _card_id(c: Card) -> int:
    return c.id


def _ident(g: Any) -> str:
    return g.ident


def hidden_roles(view: Any) -> tuple[list[int], list[str]]:
    """The seats whose role a view does not show, and the roles they hold between them (sorted): what a role
    assignment must fill in."""
    seen = [q["role"] for q in view["players"] if q["role"] != "hidden"]
    left = Counter(view["roles_in_play"])
    left.subtract(seen)
    return [q["seat"] for q in view["players"] if q["role"] == "hidden"], sorted(left.elements())


# ------------------------------------------------------------------ rollouts
class _Replay:
    """The answers given since the turn began, handed out in order to whichever seat is asked; the request after
    the last one is the decision being searched, where `branch` takes over."""

    def __init__(self, answers: list[int | list[int]], branch: Callable[[Request], list[int]]):
        self.answers = answers
        self.pos = 0
        self.branch = branch
        self.branched = False

    def next(self, request: Request) -> list[int]:
        if self.pos < len(self.answers):
            self.pos += 1
            answer = self.answers[self.pos - 1]
            return [answer] if isinstance(answer, int) else answer  # (GameState.answers keeps one option bare)
        self.branched = True
        return self.branch(request)


class _ReplaySeat(Agent):
    name = "replay"
    reads_view = False
    reads_options = False
    view_cards = False

    def __init__(self, replay: _Replay):
        self.replay = replay

    def decide(self, request: Request, view: Any) -> list[int]:
        return self.replay.next(request)


class SearchHandle:
    """What the game gives an agent that searches (`Agent.searches`): rollouts of the decision it is asked, on
    copies of the game made from the snapshot of the turn's start and determinized for its seat. It offers no
    other way into the game."""

    def __init__(self, game: Any, seat: int):
        self._game = game
        self.seat = seat

    def ready(self) -> bool:
        """Whether the decision being asked can be played out (it falls in a turn that began with a snapshot)."""
        return self._game.turn_snapshot is not None

    def rollout(self, request: Request, answer: list[int], rng: random.Random, roles: dict[int, str],
                policies: Sequence[Agent], extra_turns: int = 0, determinizer: Determinizer = determinize) -> Any:
        """The game continued from the current decision, answered with ANSWER, in a world determinized for this
        seat with RNG and ROLES, every seat then played by POLICIES, until the end of the turn (and EXTRA_TURNS
        more), or of the game. Returns the copy (its `result` is set when the game ended)."""
        game = self._game
        snap: Snapshot = game.turn_snapshot
        if snap is None:
            raise EngineError("no snapshot of this turn: rollouts need a decision inside a turn (ready())")
        holder: list[Any] = []

        def branch(req: Request) -> list[int]:
            if req.seat != request.seat or req.kind != request.kind or len(req.options) != len(request.options):
                raise EngineError(f"the replay of this turn reached {req.describe()}, not {request.describe()}")
            world = holder[0]
            determinizer(world, self.seat, rng, roles)
            world.agents = list(policies)
            return list(answer)

        replay = _Replay(game.answers[snap.answers:], branch)
        world = restore(snap, game.program, [_ReplaySeat(replay) for _ in game.agents])
        holder.append(world)
        try:
            world.resume(snap.seat, snap.first_phase, snap.last_phase, snap.in_round, extra_turns)
        except Horizon:
            pass
        if not replay.branched:
            raise EngineError(f"the replay of this turn ended before reaching {request.describe()}")
        return world
