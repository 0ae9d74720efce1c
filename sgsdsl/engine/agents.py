"""Agents answer the engine's requests. They see a request and their seat's view, never the full state."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from .draws import sample_below, uniform_below
from .errors import ScriptExhausted

# the hints the engine adds to a play-menu conversion that is a face-down declaration (`view_as basic …`), and to
# one it can make true; "genuine" marks too the card that is the card declared, when the cards it is made of are
# chosen: a question then shows the truth
# the prompt of the choice of the cards a conversion is made of, before the skill's name: cards spent
SPENT_FOR = "cards for "
# the prompt of a choice of one card from another character's areas (`choose_card_from`: 过河拆桥, 顺手牵羊), before
# that character's label, who is also the request's subject: the card chosen is theirs to lose
CARD_OF = "a card of "
DECLARED = "declared"
GENUINE = "genuine"
# the hint of a seat a card would do nothing to, among the seats offered as its targets: a ward of the seat's own
# (a compulsory trigger that cancels such a card aimed at it: an armour against an attack of some colour)
VOID = "void"
# the hint of an answer a skill may supply (a `provide`: 八卦阵's judgement, 护驾's call on others): tried and failed,
# it leaves the request open with the other offers, so trying it first costs nothing of the seat's own cards
TRY = "try"


class Hope(NamedTuple):
    """What a pending judgement's judged character hopes for, as far as the asked seat can weigh it: a skill that
    may replace the judgement card (鬼才) helps a friend by a card it hopes for and hampers a foe by one it does
    not. Every card named is one the asked seat sees: the judgement card (face up) and its own."""

    judged: int  # the judged seat
    now: bool  # whether the judgement card now is one the judged seat hopes for
    options: tuple[bool | None, ...]  # per option: whether that card would be (None: the option is not a card)
    own: tuple[int, int]  # the asked seat's hand: how many of its cards would be, how many not


class Ahead(NamedTuple):
    """What comes next for the character whose judgements and draws take the top of the draw pile next, when the
    asked seat chooses cards to go there (a skill that arranges the top, 观星, or puts a card of its own on it before
    another's judgement): its judgements take the first cards, its draws the next. A judge area is not in the view of
    an agent that reads no card labels, hence the count."""

    waiting: int  # how many judgements wait
    # per option, whether that card, turned up for the first to be judged (the last put there), would be a result
    # it hopes for, when its card's own judgement says so of the card alone (CardRule.judge_hope); () otherwise
    hoped: tuple[bool, ...]
    draws: int  # how many cards its draw phase would draw now (the rule's `draw_count`)
    seat: int = -1  # whose judgements and draws these are (-1: the asked seat's own)
    # the asked seat's hand: how many of its cards the first judgement would hope for, how many not ((0, 0): unknown)
    own: tuple[int, int] = (0, 0)
    # of every card in the game (the deck list is public), the share the first judgement hopes for: how likely a card
    # turned up unseen is one (-1.0: unknown)
    chance: float = -1.0


class Request(NamedTuple):
    """One decision: pick between `low` and `high` of `options` (indices into the list). A named tuple: read-only
    for the agent it is given to, and made in one call for each of the hundreds of decisions of a game."""

    seat: int
    kind: str
    prompt: str
    options: tuple[str, ...]
    low: int = 1
    high: int = 1
    # hints for agents that reason (never needed to answer legally): the AI tags and category of the card
    # the request is about, the seat it concerns, and per option the seat it names and its card's tags
    about: tuple[str, ...] = ()
    subject: int | None = None
    option_seats: tuple[int | None, ...] = ()
    option_tags: tuple[tuple[str, ...], ...] = ()
    # per play-menu option, the seats a card aimed at chosen targets (held, or a conversion into one) could be aimed
    # at now (None: not known), filled only for agents that read views
    option_reach: tuple[tuple[int, ...] | None, ...] = ()
    # a yes to an optional skill that cancels the start of one of the asked seat's own phases skips that phase: the
    # phase and what it holds for the seat now (judge: cards waiting in its judge area; draw: cards it would draw;
    # play: cards in hand; discard: cards it would have to discard); ("drawing", N) when a yes cancels its draw
    # phase's draw of N cards (突袭, 双雄), or lowers it by N (裸衣); filled only for agents that read views
    skips: tuple[str, int] | None = None
    # a judgement pending while this is asked (its `judging` event), whose judged character hopes for a result
    # (`judge(…, hoping: …)`): whom it is for, whether its card now is hoped for, per option that is a card
    # whether that card would be; filled only for agents that read views
    hope: Hope | None = None
    # a choice among cards to go on top of the draw pile, or a yes to a skill that puts one there (`next`): how many
    # judgements wait in the judge area of the one who takes them next, what the first to be judged hopes for, and
    # how many cards it would draw (`Ahead`); filled only for agents that read views
    ahead: Ahead | None = None
    # per option, the rank of its card, for a contest the higher rank wins (拼点): the asked seat's own hand cards,
    # which it sees; filled only for agents that read views
    option_ranks: tuple[int, ...] = ()
    # per option, how many of the asked seat's own cards the rule takes when it is chosen (`choose(…, costs: …)`, or
    # read from the rule: 破绽 pays as many cards as the HP of the one it strikes)
    option_costs: tuple[int, ...] = ()
    # per option, the seats the rule then acts on when it is chosen (`choose(…, befalls: …)`, or read from the rule:
    # 号召's kingdom befalls that kingdom's living characters)
    option_groups: tuple[tuple[int, ...], ...] = ()
    # per play-menu option, per seat of its reach (`option_reach`), what aiming it there costs the asked seat in its
    # own cards, when the skill's first choice says (its `costs:`); empty when no option of the menu says, filled
    # only for agents that read views
    option_reach_costs: tuple[tuple[int, ...] | None, ...] = ()
    # a yes or no to a skill paid for with its owner's cards (`spends`): the hints of each card of the asked seat's
    # hand, so that off its own turn it pays only where it holds a card it need not keep; filled only for agents that
    # read views
    own_hand: tuple[tuple[str, ...], ...] = ()

    def describe(self) -> str:
        return f"{self.kind} for seat {self.seat} ({self.prompt}; {len(self.options)} options)"


class Agent:
    name = "agent"
    # whether decide() reads its view: the engine snapshots the seat's view only for agents that do
    reads_view = True
    # whether decide() reads the cards its view names (its hand, equipment, judge areas, piles and the top of the
    # discard pile, by label): an agent that reasons from the table alone is given a view without them
    view_cards = True
    # whether decide() reads what the options are (labels, tags, seats, the request's hints) rather than only how
    # many there are: for agents that do not, a game that keeps no log makes no labels (Decisions.blind)
    reads_options = True
    # whether decide() may wait on something outside the program (a person at the terminal): while a game with
    # such an agent plays, Python's cycle collector keeps running (engine/collector.py pauses it otherwise)
    waits = False
    # whether it searches: the game then keeps a snapshot of each turn's start (engine/snapshots.py) and hands the
    # agent a `SearchHandle` through `bind` before play, to play positions out on determinized copies of the game
    searches = False
    # a generator's getrandbits when every answer of one option out of n (at least one to be chosen) is the uniform
    # draw `draws.uniform_below(uniform_bits, n)` and decide() would do nothing else for it: the engine then draws
    # that answer itself (Decisions.ask), without making a request or calling decide (the random agent sets it,
    # unless a subclass answers otherwise)
    uniform_bits: Any = None

    def bind(self, handle: Any) -> None:
        """Given the game's search handle when the game is made (only for agents that search)."""

    def reads_view_for(self, kind: str) -> bool:
        """Whether decide() may read its view for a request of this kind (asked only of agents that read views):
        the engine then gives it the empty view instead of making one. An agent that answers some kinds from the
        request alone (a uniform draw, always the first option) says so here."""
        return True

    def decide(self, request: Request, view: Any) -> list[int]:
        raise NotImplementedError


class RandomAgent(Agent):
    """Picks uniformly among legal answers with its own seeded RNG (so answers never touch the game's)."""

    name = "random"
    reads_view = False
    reads_options = False

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits
        if type(self).decide is RandomAgent.decide:  # (a subclass that answers otherwise is asked every time)
            self.uniform_bits = self._bits

    def below(self, n: int) -> int:
        return uniform_below(self._bits, n)

    def decide(self, request: Request, view: Any) -> list[int]:
        n = len(request.options)
        hi = request.high if request.high < n else n
        if hi == 1 and request.low >= 1:  # the usual request, one of n: uniform_below(n) spelled out in place
            bits, k = self._bits, n.bit_length()
            r = bits(k)
            while r >= n:
                r = bits(k)
            return [r]
        lo = min(request.low, hi)
        k = lo if lo == hi else lo + self.below(hi - lo + 1)  # = randint(lo, hi)
        if k == 1:  # the usual answer: sample(range(n), 1) draws exactly this one number (tests/test_agents_fast.py)
            return [self.below(n)]
        return sorted(sample_below(self.rng, n, k))  # = sorted(rng.sample(range(n), k))


class ScriptedAgent(Agent):
    """Answers from a list, in order; each answer is a list of option indices or option labels."""

    name = "scripted"

    def __init__(self, answers: Sequence[Any], fallback: Agent | None = None):
        self.answers = list(answers)
        self.pos = 0
        self.fallback = fallback
        self.reads_view = fallback is not None and fallback.reads_view
        self.view_cards = fallback is None or fallback.view_cards
        self.waits = fallback is not None and getattr(fallback, "waits", False)

    def decide(self, request: Request, view: Any) -> list[int]:
        if self.pos >= len(self.answers):
            if self.fallback is not None:
                return self.fallback.decide(request, view)
            raise ScriptExhausted(f"the script for seat {request.seat} has no answer left for {request.describe()}")
        ans = self.answers[self.pos]
        self.pos += 1
        items = ans if isinstance(ans, list) else [ans]
        out = []
        for a in items:
            if isinstance(a, int):
                out.append(a)
            elif a in request.options:
                out.append(request.options.index(a))
            else:
                out.append(-1)
        return out


class ReplayAgent(Agent):
    """Answers with the recorded answers of a logged game, in order."""

    name = "replay"
    reads_view = False
    reads_options = False

    def __init__(self, answers: list[list[int]]):
        self.answers = answers
        self.pos = 0

    def decide(self, request: Request, view: Any) -> list[int]:
        if self.pos >= len(self.answers):
            raise ScriptExhausted("the log has no more recorded answers")
        ans = self.answers[self.pos]
        self.pos += 1
        return ans
