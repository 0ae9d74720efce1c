"""A heuristic, side-aware agent driven by the AI hints written in .sgs.

It knows no card, skill or role by name. Allegiance comes from the mode's `win` lines (roles that win together are
allies; a `solo` role has none, not even another seat of its own role), the public role table and public behaviour,
read by a role belief (sgsdsl/ai/beliefs.py): who damaged, healed or used what on whom, who answered a leader's
call. It plays its role with it (docs/balance.md, "Role inference and role play"; one small position each in
tests/test_role_play.py): it finishes wounded foes first and aims at the seats that struck its shown friends; a
shown seat (the lord) attacks a hidden seat only on evidence; a seat with friends holds a card that reaches everyone
while an unsure hidden seat is at 1 HP (it may be a friend the card kills); a hidden seat of a side of three or more
hides in the first round (it does not strike an unhurt shown foe nobody has struck); nobody strikes a hidden seat
blindly where it is as likely a mate; a heal is kept while a shown friend is in danger; whatever helps its target
goes to sure friends only. A side of one seat (the renegade) keeps the sides even: it props up the lord while the
others are stronger (at a big table, until the lord's side is far stronger) and hits the leading side. What an
option does comes from the `tags` written next to each card and skill (attack, control, heal, draw, help, defence,
risk, passive) and its category. It decides from its seat's view and the request only, like every agent: the view is
a plain mapping, never the game.
"""

from __future__ import annotations

import random
from functools import lru_cache
from operator import itemgetter
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ..engine.agents import CARD_OF, DECLARED, GENUINE, SPENT_FOR, TRY, VOID, Agent, Ahead, Hope, Request, uniform_below
from ..engine.model import EQUIP_SLOTS
from ..engine.registry.core import (
    AI_HINTS,
    CANCELS,
    FURTHERS,
    GAIN,
    NEUTRAL,
    NEXT,
    PAY,
    REWARDED,
    SPENDS,
    SPREADS,
    SWAP,
    WANE,
)
from .beliefs import RoleBelief

HARMFUL = frozenset({"attack", "control", "risk"})
# the words that say a choice of characters harms the one chosen; `risk` is what the choice costs its chooser, so a
# `help risk` skill (a heal paid for with its owner's HP) still aims its choice at a friend
AIMED_HARM = frozenset({"attack", "control"})
HELPFUL = frozenset({"heal", "draw", "help"})
KEEP = frozenset({"defence", "heal"})
# the cards most worth drawing (`_gain`), and the least worth putting on top of the pile for its own draws
GAINFUL = KEEP | {"draw"}
GAIN_BAR = 1
# (the hint words NEUTRAL, NEXT, PAY, GAIN, REWARDED, SWAP, WANE, SPREADS and SPENDS are spelled once, in the
# registry beside what each means: AI_HINTS)
# the least worth of a swap (`HeuristicAgent._swap_worth`) for which it is made: a foe holding one card more, or a
# seat it cannot place holding two
SWAP_GAIN = 2.0
# the words of a choice among written options read from what each option's branch does (lang/intent.py
# `give_option_hints`): to the chooser a heal, cards drawn, a price in HP (`risk`), in cards (`spends`) or in maximum
# HP (`wane`); to another a help or a harm. Options that carry only these, one of them a gain or price of the
# chooser's own, are weighed against each other (`HeuristicAgent._option_worth`)
OPTION_WORDS = frozenset({"heal", "draw", "risk", SPENDS, WANE, "help", "attack", "control"})
OWN_WORDS = frozenset({"heal", "draw", SPENDS, WANE})
PRICES = frozenset({"risk", SPENDS, WANE})  # what a skill costs its owner (HP, cards, a maximum HP)
DRAWS = 2  # the cards a draw phase draws, when a request does not say
# what cards drawn are worth to an option's chooser (`HeuristicAgent._option_worth`), and a help or harm to another
# per unit of its stance toward that one: a card to a sure friend as much as one of its own
DRAW_WORTH = 1.5
# how often a risky choice is taken when healthy (a risky optional skill, a risky conversion, a risky option)
RISKY_RATE = 0.4
# how often a face-down declaration it cannot make true (a bluff) is taken from the play menu when healthy: the
# other seats question about half of them (8 players), and each questioned bluff is a card lost and one drawn by the
# questioner; 于吉 pinned to seat 3 (all six sets, 8 players, 2,000 games) won 29.2% bluffing at RISKY_RATE, 30.5%
# at 0.15 and 31.8% never (docs/balance.md, "Tenth pass")
BLUFF_RATE = 0.1
# every AI hint word: the words a rule may give a choice's options (`choose(…, hints: …)`)
HINT_WORDS = frozenset(AI_HINTS)
# the stance above which a seat is a sure friend: the only seats a helpful act chosen by the agent goes to
FRIEND = 0.5
# a seat attacks without evidence (a probe) only a seat at most this friendly: more likely a foe than a friend by
# the odds (at 8 players a loyalist's hidden seats are -0.67, a rebel's 0: half of them its mates)
PROBE = -0.3
# a harmful card that costs its user more cards to work (`tags attack risk`: 火攻's blow is paid with a hand card of
# the suit its target shows) is played only while healthy with at least this many cards in hand, itself included:
# with fewer, the blow is seldom paid and the card is lost. 5 players, all six sets, 1,000 paired games, 火计's
# worth to 卧龙 (`balance wolong --without huoji`): -7.9 points when 火攻 was played like a 杀 (six a game, a blow
# paid for one in twenty), -1.2 with at least 3 cards, +0.1 with 4, -1.0 with 5
PAY_HAND = 4
# a draw paid for in HP (苦肉) while the heal cards in hand pay the HP back: before the heals, so that the HP is
# paid first and healed after (above a heal card's 3.0)
HEAL_CYCLE_SCORE = 3.5
# a `cycle` skill's worth in the play menu (制衡: cards traded for new ones): below every other option that is worth
# anything, so that it is used last, on the cards the agent chose not to play
CYCLE_SCORE = 0.3
# what each of its own cards that an option costs (`Request.option_costs`: 破绽 pays as many as the HP of the one it
# strikes) takes off a seat's weight in a choice of characters, twice over for a card beyond its surplus (`_spare`):
# a sure foe at full HP, four cards away, falls below one at 1 HP a card away, and below no one it may pass over
COST_WEIGHT = 0.4
_EQUIPMENT = frozenset(EQUIP_SLOTS)
_CATEGORIES = frozenset({"basic", "trick", "delayed"}) | _EQUIPMENT  # (a card's category ends its hints)
# the rounds a hidden seat holds off harming a shown foe nobody has harmed yet (`HeuristicAgent._aiming`)
HIDE_ROUNDS = 1
# a hidden seat hides only when its side has at least this many seats: among few, a seat that holds back is
# guessed all the same (at 5 players a loyalist holds every hidden seat for a foe). Measured, hiding costs the
# rebels tempo with these agents at both counts (seeds 1-1000: 8 players, four rebels, 630 wins hiding and 670 not;
# 5 players, two rebels, 329 hiding and 354 not): it is the role play the issue asks for (the lord's side learns
# its targets later), not a gain for the rebels, and kept where it is plausible, at four rebels
HIDE_AMONG = 3
# the stance a hidden seat aims by towards a shown foe it hides from: friend enough to be the last target picked
HELD = 0.5
# a play phase is given up for a skill (巧变, 神速) only with at most this many cards in hand, more are worth playing;
# for a skill that helps a friend instead (放权's extra turn), with at most HELP_SKIP_HAND (`_skip_verdict`). 8
# players, standard+军争+林+山, 2,000 games with 张郃 pinned to seat 3: 32.1% won when he gave up every phase he
# could aim 巧变 from, 35.3% with the judge, discard and draw rules of `_skip_verdict` and the play phase given up
# with two cards or fewer, 41.5% with one or none (another general in that seat, 张辽: 49.0%)
PLAY_SKIP_HAND = 1
HELP_SKIP_HAND = 3
# a draw given up for a strike (双雄) only with at least this many hand cards per card it would draw: the strikes
# are made of the hand. 5 players, all six rule sets, 1,000 games with 颜良文丑 pinned to seat 2: 20.4% won when he
# gave up every draw he could, 27.6% with at least one card in hand per card, 30.3% with two, 31.4% never using 双雄
# (张辽 in that seat: 39.1%): as these agents play its duels, 双雄 is worth about nothing
DRAW_FOR_STRIKES = 2
# a side of one seat (the renegade) at a big table (at least BIG_TABLE other seats alive) holds with the side of the
# shown seat (the lord's) until that side is HOLD times as strong as the other: many attackers kill the lord sooner
# than their health says, and a lord dead before the end loses the renegade its game (scripts/role_play_stats.py,
# 8 players, seeds 1-1000: it turned on the loyalists while three rebels lived, and the rebels won 62.5%). Among so
# many hidden seats it strikes by SHARP: a hidden seat at the odds of the leading side is still a sure foe, one the
# evidence makes less likely soon is not, and one likely on the trailing side is spared (up to SPARED). At a small
# table (5 players) it keeps the sides even by health alone, as before: there the lord's side is the stronger
BIG_TABLE = 5
HOLD = 3.0
SHARP = 1.32
SPARED = 0.6


def _first_try(r: Request) -> int:
    """The answer to a demand: a card a skill may supply, first (hinted `try`: 八卦阵's judgement, 护驾's call on
    others; a failed try leaves the request open with the rest still offered, so the 闪 in hand is kept when the
    try succeeds), unless its skill is a risk; else the first offer, a real card when one is held. The first offer
    always before: 5 players, all six sets, 400 games with one search seat (search:32), the search kept the 闪 in
    hand and tried 八卦阵 at 129 of the 1,424 demands for a 闪 it searched (docs/balance.md, "Sixteenth pass")."""
    for i, t in enumerate(r.option_tags):
        if TRY in t and "risk" not in t:
            return i
    return 0


def _keeping(tags: tuple[str, ...]) -> int:
    """How much it would rather keep one of its own cards, by its hints: 0 a card it need not keep, 1 one it keeps
    (`defence`, `heal`), 2 equipment (what it held it has put on: a card offered from its areas is worn). A worn
    八卦阵 was spent on 奇袭 as readily as a 杀."""
    t = frozenset(tags)
    return 2 if t & _EQUIPMENT else 1 if t & KEEP else 0


def _gain(tags: tuple[str, ...]) -> int:
    """How much it would like to draw a card, by its hints: 3 one it keeps or that draws more (`defence`, `heal`,
    `draw`), 2 one that does harm (`attack`, `control`), 1 equipment, 0 anything else (闪电's `risk`)."""
    t = frozenset(tags)
    return 3 if t & GAINFUL else 2 if t & {"attack", "control"} else 1 if t & _EQUIPMENT else 0


@lru_cache(maxsize=1024)
def _play_kind(tags: tuple[str, ...]) -> tuple[str, frozenset[str]]:
    """What a play-menu option is by its hints, the first that applies in this order (and its hints as a set):
    worked out once per distinct hint tuple, since the same cards come back menu after menu."""
    t = frozenset(tags)
    for kind, wanted in _PLAY_KINDS:
        if t & wanted:
            return kind, t
    return "other", t


# the play-menu kinds, tried in order: an option is of the first whose hints it carries
_PLAY_KINDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("end", frozenset({"end"})), ("skill", frozenset({"skill"})), ("boost", frozenset({"boost"})),
    ("area", frozenset({"area"})),
    ("heal", frozenset({"heal"})), ("draw", frozenset({"draw"})), ("equip", frozenset(EQUIP_SLOTS)),
    ("harm", frozenset({"attack", "control"})), ("risk", frozenset({"risk"})), ("recast", frozenset({"recast"})),
    ("conversion", frozenset({"conversion"})),
)

# what a seat's state is, for telling whether a pick changed the table (`HeuristicAgent._table_key`)
_SEAT_STATE = itemgetter("hp", "max_hp", "hand", "alive", "face_down", "chained")
# the play-menu kinds whose worth depends on the stance
_STANCE_KINDS = frozenset({"skill", "area", "harm", "conversion"})


def _skip_verdict(skips: tuple[str, int], about: set[str]) -> bool | None:
    """Whether to give up one of its own phases for an optional skill (`Request.skips`: the phase and what it holds
    now), or None when what the skill does decides, as for any optional skill (its hints). Skipping a judge phase
    with cards waiting in it, or a discard phase that would take two cards or more, pays by itself (the skill's price
    is a card, as a rule). An empty judge phase is worth giving up only for a strike (an `attack` skill): anything
    else the skill does there pays nothing for its price. A play phase is not given up while the hand holds more than
    PLAY_SKIP_HAND cards to play, or HELP_SKIP_HAND for a `help` skill (a friend's gain: 放权's extra turn). A draw
    phase is given up for what the skill gives instead, as its hints say."""
    phase, stake = skips
    if phase == "discard":
        return stake >= 2
    if phase == "judge":
        return True if stake > 0 else None if "attack" in about else False
    if phase == "play" and stake > (HELP_SKIP_HAND if "help" in about else PLAY_SKIP_HAND):
        return False
    return None


def _friends_hurt(view: Any, stance: dict[int, float], me: int) -> bool:
    """Whether some other living seat I lean towards (above 0.3) is wounded."""
    return any(stance.get(q["seat"], 0.0) > 0.3 and q["hp"] < q["max_hp"] and q.get("alive", True)
               for q in view["players"] if q["seat"] != me)


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled in the native build; tests and policies extend it)
class HeuristicAgent(Agent):
    name = "heuristic"
    # a shown seat (the lord) picks an optional harmful target among hidden seats only when it is a sure foe: the
    # odds alone (a hidden seat is a loyalist 2 times in 7 at 8 players: stance -0.43) are no evidence
    lord_bar: ClassVar[float] = 0.6
    # whether a seat of a shown role (the lord) attacks hidden seats with no evidence, as a probe: it does not (8
    # players, seeds 1-400: rebels won 258 games when it did, 229 when it does not)
    shown_probes: ClassVar[bool] = False
    balance: ClassVar[bool] = True
    view_cards = False  # it reasons from the table (seats, HP, roles, the public history), never from card labels

    def __init__(self, seed: int, skill_rate: float = 0.35, focus: float = 2.0):
        self.rng = random.Random(seed)
        self.skill_rate = skill_rate
        # how much a foe's wounds draw attacks (finishing versus spreading): 8 players, seeds 1-400, lord side 136
        # wins at 0.6, 142 at 1.2, 150 at 2.0, 136 at 3.0 (rebels 249, 242, 225, 245)
        self.focus = focus
        # what the stance was last worked out from (`_stance_now`), and what it gave
        self._base_key: Any = None
        self._base_seats: list[tuple[Any, Any, Any]] = []  # each seat's (seat, role, alive) the base was worked out for
        self._base: dict[int, float] = {}
        self._known: set[int] = set()
        self._lone = False  # whether my side is me alone (`_alone`), for the view the base was worked out from
        self._allies: frozenset[str] = frozenset()  # my side's roles (`allies`), for that view too
        self._damage: Any = ()
        self._recover: Any = ()
        self._acts: Any = ()
        self._belief: RoleBelief | None = None
        self._belief_key: Any = None
        self._stance: dict[int, float] = {}
        self._chances: Any = None  # the belief's `ally_chances` the stance was worked out from (kept while unchanged)
        self._foe_known: tuple[Any, bool] = (None, False)  # (the stance it was read from, whether a sure foe)
        # the table as my last play-menu pick found it, the pick, and the picks that left the table as it was
        self._played_from: Any = None
        self._played: str = ""
        self._futile: set[str] = set()
        self._held: tuple[int, ...] = ()  # the shown foes it hides from at this decision (`_aiming`)
        self._heals_held = 0  # the heal cards its play menu offers now (`_best_play`): what pays HP back
        # the options its last pick of a card for the top of the pile left (`_next_card`), how deep it was, and
        # whether the card on top is one its first waiting judgement hopes for
        self._stacking: tuple[tuple[str, ...], int, bool] = ((), 0, False)
        # whether the card it put on top for its first waiting judgement is one that judgement hopes for: until its
        # next decision other than a nullify (`on_nullify`: that judgement needs no 无懈可击)
        self._set_up = False

    # ------------------------------------------------------------ allegiance
    def allies(self, view: Any) -> set[str]:
        """The roles on my side. A seat of a solo role has none: every other seat, even of its own role, is a
        rival (the agent's own seat is its friend all the same, see `stance`)."""
        mine = view["role"]
        if mine in view.get("solo", ()):
            return set()
        out = {mine}
        for side in view["sides"]:
            if mine in side:
                out.update(side)
        return out

    def stance(self, view: Any) -> dict[int, float]:
        """Per seat: +1 surely an ally, -1 surely a foe, in between by the odds of the hidden roles, moved by
        public evidence (hurting a friend of mine, or healing a foe of mine, reads as hostile). A copy: the
        remembered one (`_stance_now`) stays as it was."""
        return dict(self._stance_now(view))

    def _stance_now(self, view: Any) -> dict[int, float]:
        """The stance, remembered for the last view with the same inputs (asked several times a decision, and the
        same between events); callers only read it. Seats whose role I know take it from the roles
        (`_stance_base`); a hidden seat takes the chance that it is on my side from the role belief
        (sgsdsl/ai/beliefs.py), which reads the public events once each as they come."""
        # (the view's lists are its own copies, made for this decision: kept as they are, they compare by content)
        base_key = (view["seat"], view["role"], view["roles_in_play"], view["sides"], view.get("solo", ()))
        players = view["players"]
        try:  # (the engine's views carry every history: read without a method call each)
            damage, recover, acts = view["damage_history"], view["recover_history"], view["act_history"]
        except KeyError:  # (a hand-made view may leave some out)
            damage = view.get("damage_history", ())
            recover = view.get("recover_history", ())
            acts = view.get("act_history", ())
        # (the engine's views share each history's tuple until it grows: nothing new is told by identity)
        same_base = base_key == self._base_key and _same_seats(players, self._base_seats)
        if same_base and _same(damage, self._damage) and _same(recover, self._recover) and _same(acts, self._acts):
            return self._stance
        if not same_base:
            self._base_key = base_key
            self._base_seats = _seat_lives(players)
            self._base, self._known = self._stance_base(view)
            self._lone = self._alone(view)
            self._allies = frozenset(self.allies(view))
        belief = self._belief_now(view, damage, recover, acts)
        chances = belief.ally_chances(self._allies)
        balanced = self.balance and self._lone
        if same_base and chances is self._chances and not balanced:
            # (the new acts told the belief nothing: the stance is the one worked out from these chances)
            self._damage, self._recover, self._acts = damage, recover, acts
            return self._stance
        self._chances = chances
        out = dict(self._base)
        for seat, chance in chances.items():
            if seat not in self._known:
                out[seat] = 2.0 * chance - 1.0
        if balanced:
            self._balance(view, out, belief.shared_marginals())
        self._damage, self._recover, self._acts, self._stance = damage, recover, acts, out
        return out

    def _belief_now(self, view: Any, damage: Any, recover: Any, acts: Any) -> RoleBelief:
        """The role belief brought up to this view: read on from where it stopped while the histories only grew,
        made afresh otherwise (another seat, another game)."""
        key = (view["seat"], view["role"], tuple(view["roles_in_play"]))
        belief = self._belief
        grew = belief is not None and key == self._belief_key and all(  # (a history only grows: its last entry
            len(now) >= len(then) and (not then or now[len(then) - 1] == then[-1])  # read is where it was)
            for now, then in ((damage, self._damage), (recover, self._recover), (acts, self._acts)))
        if belief is None or not grew:
            belief = self._belief = RoleBelief(view)
            self._belief_key = key
        else:
            belief.observe(view)
        return belief

    @staticmethod
    def _alone(view: Any) -> bool:
        """Whether my side is me alone: a solo role, or the only seat dealt of its side (the renegade)."""
        mine = view["role"]
        if mine in view.get("solo", ()):
            return True
        side = {r for s in view["sides"] if mine in s for r in s} or {mine}
        return sum(1 for r in view["roles_in_play"] if r in side) == 1

    @staticmethod
    def _balance(view: Any, out: dict[int, float], marginals: dict[int, dict[str, float]]) -> None:
        """A side of one seat wins only by outlasting everyone: it keeps the sides even. It props up the shown
        seats (the lord) while another side is stronger, and lets them be while theirs leads; it hits the seats
        likely on the leading side hardest. Strength: each side's expected health over the living seats; at a big
        table the shown seat's side counts HOLD times weaker, and hidden seats are read sharper (see BIG_TABLE)."""
        me = view["seat"]
        sides = [frozenset(s) for s in view["sides"]]
        if len(sides) < 2 or sum(1 for q in view["players"] if q.get("alive", True)) <= 2:
            return
        strength = [0.0] * len(sides)
        for q in view["players"]:
            if q["seat"] == me or not q.get("alive", True):
                continue
            probs = marginals.get(q["seat"]) or {q["role"]: 1.0}
            for i, side in enumerate(sides):
                strength[i] += q["hp"] * sum(p for role, p in probs.items() if role in side)
        solo = set(view.get("solo", ()))
        # the sides with a living shown seat (a seat shown at its death shields nobody)
        shown = {i for i, side in enumerate(sides) for q in view["players"]
                 if q["seat"] != me and q["role"] != "hidden" and q["role"] not in solo and q["role"] in side
                 and q.get("alive", True)}
        big = sum(1 for q in view["players"] if q["seat"] != me and q.get("alive", True)) >= BIG_TABLE
        if big:
            for i in shown:
                strength[i] /= HOLD
        # the leading side; on a tie, the one without a shown seat (the lord's side is the one that must last)
        lead = max(range(len(sides)), key=lambda i: (round(strength[i], 6), i not in shown, -i))
        for q in view["players"]:
            seat = q["seat"]
            if seat == me or not q.get("alive", True):
                continue
            if q["role"] != "hidden":
                if q["role"] in solo:
                    continue  # a rival that must fall too
                out[seat] = 0.2 if q["role"] in sides[lead] else 0.9
            else:
                p_lead = sum(p for role, p in marginals.get(seat, {}).items() if role in sides[lead])
                out[seat] = max(-1.0, min(SPARED, 1.0 - 2.0 * SHARP * p_lead)) if big else -(0.3 + 0.7 * p_lead)

    def _stance_base(self, view: Any) -> tuple[dict[int, float], set[int]]:
        """The stance before any evidence (from the roles: revealed, hidden and the mode's sides), and the
        seats whose role I know (evidence does not move them)."""
        me = view["seat"]
        allies = self.allies(view)
        hidden: dict[str, int] = {}
        for r in view["roles_in_play"]:
            hidden[r] = hidden.get(r, 0) + 1
        for q in view["players"]:
            if q["role"] != "hidden":
                hidden[q["role"]] = hidden.get(q["role"], 0) - 1
        hidden_total = sum(n for n in hidden.values() if n > 0)
        friendly = sum(n for r, n in hidden.items() if n > 0 and r in allies)
        guess = (2 * friendly / hidden_total - 1) if hidden_total else -1.0
        out: dict[int, float] = {}
        revealed: list[int] = []
        for q in view["players"]:
            if q["seat"] == me:
                out[q["seat"]] = 1.0
            elif q["role"] != "hidden":
                out[q["seat"]] = 1.0 if q["role"] in allies else -1.0
                revealed.append(q["seat"])
            else:
                out[q["seat"]] = guess
        alive = sum(1 for q in view["players"] if q.get("alive", True))
        if (not allies or sum(1 for r in view["roles_in_play"] if r in allies) == 1) and alive > 2:
            # a side of one seat must outlast everyone: while others live it shields the revealed seats, but
            # never a seat of a solo role (a rival that must fall too)
            solo = set(view.get("solo", ()))
            for q in view["players"]:
                if q["seat"] in revealed and q["role"] not in solo:
                    out[q["seat"]] = 0.5
        known = {q["seat"] for q in view["players"] if q["role"] != "hidden" or q["seat"] == me}
        return out, known

    # ------------------------------------------------------------ decisions
    def reads_view_for(self, kind: str) -> bool:
        return kind in _view_kinds(type(self))

    def decide(self, request: Request, view: Any) -> list[int]:
        if self._set_up and request.kind != "nullify":
            self._set_up = False
        handler = _handlers(type(self)).get(request.kind)
        answer = handler(self, request, view) if handler is not None else None
        return answer if answer is not None else self.fallback(request)

    def fallback(self, r: Request) -> list[int]:
        n = len(r.options)
        k = min(max(r.low, 1 if r.high >= 1 else 0), r.high, n)
        if k == 1:  # what sample(range(n), 1) draws (as RandomAgent; tests/test_agents_fast.py)
            return [uniform_below(self.rng.getrandbits, n)]
        return sorted(self.rng.sample(range(n), k))

    def _decline(self, r: Request) -> list[int]:
        return [len(r.options) - 1]

    @staticmethod
    def _me(view: Any) -> dict[str, Any]:
        return view["players"][view["seat"]]

    @staticmethod
    def _spare(me: dict[str, Any]) -> bool:
        """Whether it holds more cards than its HP, the hand it may keep (as a rule): the cards the discard phase would
        take are the ones to pay with. A harmful card made of another card (a conversion), or a skill paid for with
        cards (`spends`), is made only from such a surplus: the card spent has its own use (奇袭's black card was a
        杀 or a 无懈可击 kept for a 决斗). 8 players, all six sets, 1,000 paired games each: 奇袭's worth to 甘宁
        -4.1 -> +1.3 points (5 players -2.6 -> +1.7), 武圣's to 关羽 +1.3 -> +4.1, 龙胆's to 赵云 +2.6 -> +3.8,
        国色's to 大乔 -1.0 -> 0.0, 连环's to 庞统 -2.5 -> -1.8, 乱击's to 袁绍 -2.8 -> +1.3 (5 players -4.6 ->
        -1.2). Allowed below the surplus to finish a sure foe at 1 HP, all three of 武圣, 龙胆 and 奇袭 read worse."""
        return bool(me["hand"] > me["hp"])

    def _spare_now(self, view: Any, r: Request | None = None) -> bool:
        """Whether a card may be spent now from what it holds: a surplus over its HP on its own turn (`_spare`); on
        another's turn, when its discard phase has already cut its hand to its HP, any hand of two cards or more
        (one kept) that holds a card it need not keep, when the question says what its hand holds
        (`Request.own_hand`). A designer's 禁锢 ("at the start of another's turn you may discard a hand card: it skips
        its draw phase") found a surplus on 39 of 2,414 questions, worth +1.2 points for a blow worth about twenty;
        a designer's 助攻 ("discard a hand card: another's 杀 cannot be dodged") paid a 闪 or a 桃 158 times in 553."""
        me = self._me(view)
        if self._spare(me):
            return True
        current = view.get("current")
        return current is not None and current != view["seat"] and me["hand"] >= 2 and (
            r is None or not r.own_hand or any(not _keeping(t) for t in r.own_hand))

    @staticmethod
    def _could_answer(seat: int, view: Any) -> bool:
        """Whether SEAT could answer a card used on it (a 杀 dodged): it holds a card (any may be the answer, or made
        into one) or wears armour (八卦阵 judges one). A designer's 助攻 ("discard a card: another's 杀 at a third
        cannot be dodged") paid 43 times in 414 for a 杀 at a seat that held nothing to dodge with."""
        players = view["players"]
        if not 0 <= seat < len(players):
            return True
        q = players[seat]
        return bool(q.get("hand", 1)) or "armor" in q.get("worn", ())

    def _full(self, view: Any) -> bool:
        me = self._me(view)
        return bool(me["hp"] >= me["max_hp"])

    def _healthy(self, view: Any) -> bool:
        me = self._me(view)
        return me["hp"] >= 3 or me["hp"] >= me["max_hp"]

    def on_confirm(self, r: Request, view: Any) -> list[int]:
        """Optional skills help their owner, except the ones hinted as risky: those only when healthy, and the
        harmful ones (a defence aside): those only with a seat at the table it would aim at (`_skill_score`'s bar),
        among the seats the question shows a yes could be aimed at (`Request.option_reach`), since their targets are
        chosen after and may have to be named (突袭 takes from one seat at least, of those holding cards). A yes that
        gives up one of its own phases (`Request.skips`) is weighed against what the phase holds (`_skip_verdict`);
        a helpful skill needs a friend to help: a sure friend among the seats it may name, or the friend its event
        befell (`Request.subject`), or, for a phase given up, a sure friend at the table; a harmful one naming
        nobody, a foe its event befell."""
        about = set(r.about)
        if r.hope is not None and "passive" not in about:
            return [0] if self._turns_judgement(r.hope, view) else [1]
        if NEXT in about and "passive" not in about:
            return [0] if r.ahead is not None and self._sets_up(r.ahead, view) else [1]
        if CANCELS in about and "passive" not in about:
            return self._cancel_verdict(r, view)
        if not about and r.subject is not None and r.subject != view["seat"]:
            # a favour asked of it by another's skill (颂威: let the lord draw): done only for a friend
            return [0] if self._stance_now(view).get(r.subject, 0.0) > 0 else [1]
        if FURTHERS in about and "passive" not in about and r.subject is not None \
                and not self._could_answer(r.subject, view):
            return [1]  # (a card that cannot be answered, aimed at one who could not answer it anyway: nothing bought)
        if SPENDS in about and "passive" not in about and not self._spare_now(view, r):
            return [1]  # paid for with its cards: only from a surplus, as in the play menu (截击's card for a card)
        if "risk" in about and not about & {"passive"}:
            if not (self._healthy(view) and self.rng.random() < RISKY_RATE):
                return [1]
            if not about & {"attack", "control", "help"}:
                # (a harmful one goes on to the aim and the hand it needs, a helpful one to the friend it needs,
                # below: a designer's 舍身, "when another is dying, you may lose 1 HP: it recovers 1", saved foes
                # in 111 of 138 uses)
                return [0]
        if r.skips is not None and "passive" not in about:
            verdict = _skip_verdict(r.skips, about)
            if verdict is not None:
                return [0] if verdict else [1]
        reach = r.option_reach[0] if r.option_reach else None
        if about & {"attack", "control"} and not about & {"passive", "defence"}:
            if r.skips is not None and r.skips[0] in ("draw", "drawing") and "attack" in about \
                    and self._me(view)["hand"] < DRAW_FOR_STRIKES * r.skips[1]:
                return [1]  # a draw given up to strike: only with a hand to strike with (双雄's duels)
            # a draw phase given up for it wants as many seats to aim at as the cards it would draw (two at most)
            wanted = min(2, r.skips[1]) if r.skips is not None and r.skips[0] == "draw" else 1
            # (naming nobody, its harm goes to whom its event befell: a designer's "when another recovers, you may
            # stop it" is for a foe's heal only)
            aimed = (r.subject,) if reach is None and r.subject is not None and r.subject != view["seat"] else reach
            if self._aims_at(view, self._aiming(view, self._stance_now(view)), aimed) < max(1, wanted):
                return [1]
        if "help" in about and "heal" in about and "passive" not in about and r.skips is None \
                and reach is None and r.subject is not None and r.subject != view["seat"] \
                and self._stance_now(view).get(r.subject, 0.0) <= 0:
            # a heal done for another its event befell, naming nobody (a designer's 续命 tagged `heal help`: "another
            # who is dying recovers to 1 HP"): for a friend only; it rescued 313 dying foes in 120 games. (Not a
            # `draw help`: 节命's question names the source of its owner's damage, and whom it helps it chooses after)
            return [1]
        if "help" in about and not about & {"heal", "draw", "passive"}:
            # its good goes only to the seat it names, a sure friend or itself among those shown; or, when it names
            # nobody, to whom its event befell (悲歌's wounded seat), who must be a friend
            if r.skips is not None:  # a phase of its own given up for another's good: a sure friend to get it
                if not self._helps_within(view, self._stance_now(view), reach):
                    return [1]
            elif reach is None and r.subject is not None:
                if r.subject != view["seat"] and self._stance_now(view).get(r.subject, 0.0) <= 0:
                    return [1]
            elif reach is not None and not self._helps_within(view, self._stance_now(view), reach):
                return [1]
        return [0]

    def _cancel_verdict(self, r: Request, view: Any) -> list[int]:
        """A yes that cancels its event's card on the one the event befalls (`cancels`; the card's words follow the
        skill's, after "skill"): as a 无懈可击 is played, a harm stopped for a sure friend (or itself), a good stopped
        for a sure foe; paid for with its cards, only from what it may spend now (`_spare_now`)."""
        words = r.about
        card = frozenset(words[words.index("skill") + 1:]) if "skill" in words else frozenset()
        if not card or (SPENDS in words and not self._spare_now(view, r)):
            return [1]
        me = view["seat"]
        toward = 1.0 if r.subject == me else self._stance_now(view).get(r.subject, 0.0) \
            if r.subject is not None else 0.0
        harmful = bool(card & AIMED_HARM)
        return [0] if (harmful and toward > FRIEND) or (not harmful and card & HELPFUL and toward < -FRIEND) \
            else [1]

    def _judgement_wanted(self, h: Hope, view: Any) -> bool | None:
        """Whether it wants a pending judgement to go as its judged character hopes (`Request.hope`)."""
        return self._wants_for(h.judged, view)

    def _wants_for(self, judged: int, view: Any) -> bool | None:
        """Whether it wants JUDGED's judgements to go as that one hopes: yes for itself (-1: the asked seat) or a sure
        friend, no against a sure foe, and for anyone else it does not care (a card is not spent on a guess)."""
        if judged in (-1, view["seat"]):
            return True
        toward = self._stance_now(view).get(judged, 0.0)
        return True if toward > FRIEND else False if toward < -self.lord_bar else None

    def _sets_up(self, a: Ahead, view: Any) -> bool:
        """A yes to a skill that puts a card of its own on top of the draw pile before a turn's judgements (`next`,
        `Request.ahead`): only when it holds a card that makes the first judgement go the way it wants, and the card
        turned up unseen would likely have gone the other way (a friend's 乐不思蜀, a foe's 闪电); a likelier gain only
        from a surplus of cards. A designer's 改命 put a card on top at every chance, a friend's 闪电 as often as a
        foe's."""
        wanted = self._wants_for(a.seat, view)
        if wanted is None or not a.waiting or a.chance < 0 or not (a.own[0] if wanted else a.own[1]):
            return False
        turned = 1.0 - a.chance if wanted else a.chance  # (how likely it would have gone the other way)
        return turned >= 0.5 or (turned > 0 and self._spare_now(view))

    def _turns_judgement(self, h: Hope, view: Any) -> bool:
        """A yes to a skill asked while a judgement is pending (鬼才, 鬼道: replace its card): only when the card
        now goes against what it wants and one of its own cards would not (the card it then picks,
        `on_choose`)."""
        wanted = self._judgement_wanted(h, view)
        if wanted is None or h.now == wanted:
            return False
        return (h.own[0] if wanted else h.own[1]) > 0

    def _helps_within(self, view: Any, stance: dict[int, float], reach: tuple[int, ...] | None) -> bool:
        """Whether a helpful act has somewhere to go: itself, when REACH shows it may name itself, or a living sure
        friend (never a guess) within REACH (anywhere, when not shown)."""
        me, players = view["seat"], view["players"]
        if reach is not None and me in reach:
            return True
        return any(v > FRIEND for s, v in stance.items()
                   if s != me and players[s].get("alive", True) and (reach is None or s in reach))

    def _aims_at(self, view: Any, aiming: dict[int, float], reach: tuple[int, ...] | None) -> int:
        """How many other living seats (within REACH, when the option shows one) are ones it would aim harm at now,
        by the stance harm is aimed by: a sure foe for a shown leader (who does not probe), one below the probe's
        odds for the rest."""
        me, players = view["seat"], view["players"]
        bar = -self.lord_bar if self._leads_shown(view) else PROBE
        return sum(1 for s, v in aiming.items()
                   if v < bar and s != me and players[s].get("alive", True) and (reach is None or s in reach))

    def _skill_score(self, t: frozenset[str], view: Any, stance: dict[int, float], wounded: bool,
                     reach: tuple[int, ...] | None = None) -> float:
        """How much a skill in the play menu is worth now, by its hints; REACH, when the menu shows it, are the seats
        its first choice may name (`Request.option_reach`): the seat it aims at, or helps, must be among them."""
        if "risk" in t and not self._healthy(view):
            return 0.0
        if SPENDS in t and not self._spare(self._me(view)):
            return 0.0  # paid for with cards: only from a surplus (`_spare`)
        if "limited" in t and "heal" in t and not (wounded or _friends_hurt(view, stance, view["seat"])):
            # a heal it may use once a game: kept for a wound, its own or a friend's (a designer's 济危, "one recovers
            # 1 HP and draws 2", was spent in the first round on a seat at full health)
            return 0.0
        if "cycle" in t:
            # cards traded for new ones (制衡): last, once nothing else is worth playing, so that what it trades is
            # what it chose not to play, and what it draws may still be played; and only with more cards than its
            # HP (the hand it may keep, as a rule), where the cards it would not keep are spare. 5 players, all six
            # sets, 1,000 paired games, 制衡's worth to 孙权: -1.0 points used first on one card, +3.8 used last with
            # any hand, +5.0 with more cards than HP, +3.1 with three or more (8 players: -0.5, +1.9, +3.4)
            return CYCLE_SCORE if self._spare(self._me(view)) else 0.0
        if SWAP in t:
            # a hand exchanged with the one it chooses: only with a swap worth making within reach
            return 1.5 if self._best_swap(view, stance, reach) >= SWAP_GAIN else 0.0
        if "area" in t:
            # a skill whose blow or favour reaches everyone (乱击 makes a 万箭齐发; a designer's 普济 heals every
            # wounded character): weighed as such a card is, before its own heal or help (普济 was used whenever its
            # owner was wounded, healing the foes at the table with it)
            score = self._area_score(t, view, stance)
            return 0.0 if score and self._might_kill_a_friend(t, view, stance) else score
        if "help" in t and not self._helps_within(view, stance, reach):
            return 0.0  # its good goes to a seat it chooses: only with a sure friend to choose (never a guess), or
            # itself when the menu shows it may (青囊 on a wounded owner)
        if "heal" in t and (wounded or ("help" in t and _friends_hurt(view, stance, view["seat"]))):
            return 3.0
        if "draw" in t:
            if "risk" not in t:
                return 2.0
            # a draw paid for in HP (苦肉): from full health with at most one card in hand, sparingly; or while
            # the heal cards its menu offers would pay the HP back (a 桃 turned into two cards). 5 players, all six
            # sets, 1,000 paired games, 苦肉's worth to 黄盖: -7.1 points while healthy (3 HP or full: from 4 HP down
            # to 2 every turn), -4.3 from one below full, -0.6 from full only (8 players: -3.2 and -1.5); later,
            # with the agents that hold their cards (at 9063f52), from full only -2.7 (8 players -4.2), and so
            # +0.3 (+0.2); every turn from full with one card or none -1.1 (-0.6)
            me = self._me(view)
            if me["hp"] >= 2 and me["max_hp"] - me["hp"] + 1 <= self._heals_held:
                return HEAL_CYCLE_SCORE
            if not self._full(view) or me["hand"] > 1:
                return 0.0
            return 1.2 if self.rng.random() < 0.5 else 0.0
        if t & {"attack", "control"}:
            # a skill's targets are chosen after it is picked: it needs a seat it would aim at, among those its
            # first choice may name when the menu shows them (STANCE is the aiming one: `_best_play`)
            if "risk" in t and not self._full(view):
                # a blow that may cost its user HP (强袭 pays 1 HP without a weapon, 驱虎 takes a blow if the
                # contest is lost): only from full health, as 苦肉. 1,000 paired games: 强袭's worth to 典韦 at 8
                # players -4.3 -> -2.8 (5 players +1.2 -> +1.4), 驱虎's to 荀彧 -1.9 -> -0.3 (5 players -2.8 -> -1.3);
                # taken while healthy before (3 HP or full)
                return 0.0
            return 1.6 if self._aims_at(view, stance, reach) > 0 else 0.0
        if "help" in t:
            return 1.0
        if t & PRICES and "conversion" not in t:
            # read as nothing but its price (HP, cards, a maximum HP): nothing is known to be bought with it, so it
            # is not paid. A designer's 血战 ("lose 1 HP: one more 杀 this turn", its raised limit unread) was used on
            # the chance roll 388 times in 1,887 turns, 322 of them with no 杀 to use: -7.2 points to its owner
            return 0.0
        return 1.0 if self.rng.random() < self.skill_rate else 0.0

    @staticmethod
    def _area_score(t: frozenset[str], view: Any, stance: dict[int, float],
                    reach: tuple[int, ...] | None = None) -> float:
        """A card that reaches everyone is worth what it does to foes minus what it does to friends: to the seats the
        menu shows it reaching (REACH: a seat whose armour voids it, 藤甲 against 南蛮入侵, is not among them), or
        every living seat when the menu does not say."""
        me = view["seat"]
        alive = [q for q in view["players"] if q.get("alive", True) and (reach is None or q["seat"] in reach)]
        if t & {"attack", "control"}:
            # a seat near death counts more: a foe it may finish, a friend it may kill
            value = sum(-stance.get(q["seat"], 0.0) * (3.0 if q["hp"] <= 1 else 1.5 if q["hp"] == 2 else 1.0)
                        for q in alive if q["seat"] != me)
        elif "heal" in t:
            value = sum(stance.get(q["seat"], 0.0) for q in alive if q["hp"] < q["max_hp"])
        else:
            value = sum(stance.get(q["seat"], 0.0) for q in alive)
        return 1.8 if value > 0.5 else 0.0

    @staticmethod
    def _table_key(view: Any) -> tuple:
        """What my view says of the table, in short: what a play-menu pick that did anything would change."""
        players = view["players"]
        try:  # (the engine's views carry every field: read in C)
            seats = tuple(map(_SEAT_STATE, players))
        except KeyError:  # (a hand-made view may leave some out)
            seats = tuple((q["hp"], q["max_hp"], q.get("hand"), q.get("alive", True), q.get("face_down", False),
                           q.get("chained", False)) for q in players)
        return (seats, view.get("draw_pile"), len(view.get("damage_history", ())),
                len(view.get("recover_history", ())))

    def _remember_futile(self, r: Request, view: Any) -> Any:
        """A pick that found nobody to answer it (a leader's call no one heeds) leaves the table as it was: from
        that same table it is not picked again, or the turn would go round asking the same seats for ever."""
        key = self._table_key(view)
        if key != self._played_from:
            self._futile.clear()
        elif self._played:
            self._futile.add(self._played)
        return key

    def on_play(self, r: Request, view: Any) -> list[int]:
        key = self._remember_futile(r, view)
        best = self._best_play(r, view)
        self._played_from, self._played = key, r.options[best] if best < len(r.options) - 1 else ""
        return [best]

    def _best_play(self, r: Request, view: Any) -> int:
        me = self._me(view)
        wounded = me["hp"] < me["max_hp"]
        kinds = [_play_kind(tags) for tags in r.option_tags]
        # the stance (the role belief brought up to date) only when an option's worth depends on who is who
        if any(kind in _STANCE_KINDS for kind, _ in kinds):
            stance = self._aiming(view, self._stance_now(view))
            # attack on evidence, not on the odds alone: a seat counts as a foe once it is fairly surely one
            has_foe = self._has_sure_foe(stance, view["seat"])
        else:
            stance, has_foe, self._held = {}, False, ()
        best, best_score = len(r.options) - 1, 0.0
        self._heals_held = sum(1 for kind, _ in kinds if kind == "heal")
        # whether this menu may take a risky conversion: one roll a menu, not one an option, so that "sparingly"
        # holds for a skill that offers many (蛊惑 offers fifteen: a roll each took one in nearly every menu)
        risky_ok: bool | None = None
        boosts = []
        for i, (kind, t) in enumerate(kinds):
            if kind == "end" or (self._futile and r.options[i] in self._futile):
                continue
            if kind == "boost":
                if not ("conversion" in t and "risk" in t and GENUINE not in t):
                    boosts.append(i)  # (weighed once the best play is known; never a bluff: 蛊惑's face-down 酒)
                continue
            if kind == "skill" and "boost" in t:
                # (a skill that strengthens its next blow, 蓄锐: a boost, played right before an attack as a 酒 is;
                # paid for with a card, only from a surplus)
                if not (SPENDS in t and not self._spare(me)):
                    boosts.append(i)
                continue
            if kind == "skill":
                reach = r.option_reach[i] if i < len(r.option_reach) else None
                costs = r.option_reach_costs[i] if i < len(r.option_reach_costs) else None
                if reach is not None and costs is not None:
                    reach = self._affordable(reach, costs, me)
                score = self._skill_score(t, view, stance, wounded, reach)
            elif kind == "area":
                reach = r.option_reach[i] if i < len(r.option_reach) else None
                score = self._area_score(t, view, stance, reach)
                if score and self._might_kill_a_friend(t, view, stance, reach):
                    score = 0.0
            elif kind == "heal":
                score = 3.0 if wounded and not self._saving_for(view) else 0.0
            elif kind == "draw":
                score = 2.5
            elif kind == "equip":
                # a slot it fills already: the card only replaces what it wears, two cards spent on one piece of
                # equipment, so only from a surplus (`_spare`) the discard phase would take anyway
                score = 2.0 if not t.intersection(me.get("worn", ())) else 0.3 if self._spare(me) else 0.0
            elif kind == "risk":
                score = 0.2 if self.rng.random() < 0.3 else 0.0
            elif kind == "harm" and "risk" in t and not (me["hand"] >= PAY_HAND and self._healthy(view)):
                score = 0.0  # a blow that costs more cards: only with cards to spare (PAY_HAND)
            elif kind == "harm" and "conversion" in t and GENUINE not in t and not self._spare(me):
                score = 0.0  # a harmful card made of another (奇袭, 武圣), only from a surplus (`_spare`)
            elif kind == "harm":
                reach = r.option_reach[i] if i < len(r.option_reach) else None
                if reach and SPREADS in t:  # (a chained seat whose chain holds more friend than foe is out of reach)
                    reach = tuple(s for s in reach if not self._spreads_to_a_friend(s, view, stance))
                if reach is not None and reach and all(stance.get(s, 0.0) > 0.6 or s in self._held for s in reach):
                    score = 0.0  # only sure friends are within reach (open camps, team-mates), or a foe it hides from
                elif has_foe and (reach is None or any(stance.get(s, 0.0) < -0.6 for s in reach)):
                    score = 1.5
                elif self._leads_shown(view):
                    score = 0.0  # a shown leader does not probe: a hidden seat may be a friend who cannot show it yet
                elif not any(v < PROBE for s, v in stance.items() if reach is None or s in reach):
                    score = 0.0  # no probe where a blind blow is as likely to land on a friend (a rebel's mates)
                else:
                    score = 0.6 if self.rng.random() < 0.5 else 0.0  # probe when unsure
            elif kind == "recast":
                score = 1.0 if self.rng.random() < self.skill_rate else 0.0
            elif kind == "conversion":
                score = 0.8 if has_foe and self.rng.random() < self.skill_rate else 0.0
            else:
                score = 0.5 if self.rng.random() < 0.5 else 0.0
            if score > 0 and "conversion" in t and "risk" in t and GENUINE not in t:
                # a card made by a risky skill's conversion (蛊惑's face-down card may be questioned), or a
                # conversion into a risky card (火计's 火攻): worth what the card is, taken only when healthy and
                # then sparingly, a bluff rarely (a face-down declaration it can make true risks nothing: a question
                # costs the questioner)
                if risky_ok is None:
                    rate = BLUFF_RATE if DECLARED in t else RISKY_RATE
                    risky_ok = self._healthy(view) and self.rng.random() < rate
                # (and a bluff that may be made is worth half its card: a true card of it, or any other, comes first)
                score = (score * 0.5 if DECLARED in t else score) if risky_ok else 0.0
            if score > 0:
                score += self.rng.random() * 0.1
            if score > best_score:
                best, best_score = i, score
        if boosts and best_score > 0 and kinds[best][0] == "harm" and "attack" in kinds[best][1]:
            # a card that strengthens its next attack of the same category this turn (酒 before 杀): right before
            # the attack it is about to make, never for nothing (a 酒 drunk while wounded healed nothing; it is also
            # what saves it when dying). 1,000 paired games, 5 players, all six sets: 酒池's worth to 董卓 -2.4 -> +0.2
            # (a skill's boost, any attack: its trigger says which, and the attack is the best play there is)
            aimed = kinds[best][1] & _CATEGORIES
            return next((i for i in boosts if kinds[i][1] & aimed or kinds[i][0] == "skill"), best)
        return best

    def _leads_shown(self, view: Any) -> bool:
        """Whether I am a shown seat with friends (the lord) that attacks hidden seats only on evidence: one of them
        may be a friend who cannot show it yet (`shown_probes` lets it probe)."""
        return bool(view.get("role_shown")) and not self._alone(view) and not self.shown_probes

    def _might_kill_a_friend(self, t: frozenset[str], view: Any, stance: dict[int, float],
                             reach: tuple[int, ...] | None = None) -> bool:
        """Whether it holds back a harmful card that reaches everyone (the seats of REACH, when the menu shows
        them). A seat with friends does while a hidden seat that is not a sure foe (at or above -lord_bar, the bar the
        lord's aimed harm answers to) is at 1 HP, since the card may kill a friend it cannot yet tell: a loyalist
        is 2 hidden seats in 7 to the lord at 8 players, a rebel's mates half of its hidden seats. Such cards were a
        third of the loyalists the lord killed (8 players, seeds 1-1000: 60 of 157, when only the lord held them);
        held by every seat with friends (9062fa1's agent, seeds 1-3000), rebels killed 289 of their mates instead of
        686 and loyalists 217 of theirs instead of 274, and the lord's side won 41.0% against 39.4%. The lord killed
        271 loyalists instead of 211: they live longer (seeds 1-1000: dying in round 5.3 against 4.7) while the
        share of its aimed harm that lands on them barely moves (9.1% against 8.6%; docs/balance.md).
        Every seat, the renegade too, holds it while a shown seat that is not a sure foe is at 1 HP within reach:
        the lord, whose death loses the game to its loyalists, and to the renegade while others live. 8 players, all
        six sets, seeds 1-1,000: loyalists' area cards killed their lord in 10 games and the renegade's killed the
        lord with others alive in 11; in none once held (scripts/role_play_stats.py, docs/balance.md)."""
        if not t & {"attack", "control"}:
            return False
        me, bar = view["seat"], -self.lord_bar
        players = view["players"]
        if any(q["seat"] != me and q["role"] != "hidden" and q.get("alive", True) and q["hp"] <= 1
               and stance.get(q["seat"], 0.0) >= bar and (reach is None or q["seat"] in reach) for q in players):
            return True
        if self._alone(view):
            return False
        return any(q["seat"] != me and q["role"] == "hidden" and q.get("alive", True) and q["hp"] <= 1
                   and stance.get(q["seat"], 0.0) >= bar and (reach is None or q["seat"] in reach)
                   for q in players)

    def _spreads_to_a_friend(self, seat: int, view: Any, stance: dict[int, float]) -> bool:
        """Whether a blow that spreads (hinted `spreads`: elemental damage conducts through 铁索连环) aimed at SEAT
        would do friends more harm than foes: SEAT is chained, and SEAT with the other living chained seats (itself
        included) lean more to it than away, a chained seat at 2 HP counting one and a half, or one of the others is
        at 1 HP and not a sure foe (at or above -lord_bar, the bar of `_might_kill_a_friend`): the blow may kill a
        friend. 8 players, all six sets, seeds 1-600: seats killed by their own side's elemental damage 50 -> 27;
        leaving SEAT out of the sum took them to 22 but made 5-player games a round longer (docs/balance.md,
        "Seventeenth pass")."""
        players = view["players"]
        if not players[seat].get("chained", False):
            return False
        bar = -self.lord_bar
        worth = -stance.get(seat, 0.0)
        for q in players:
            if q["seat"] == seat or not q.get("chained", False) or not q.get("alive", True):
                continue
            lean = stance.get(q["seat"], 0.0)
            if q["hp"] <= 1 and lean >= bar:
                return True
            worth -= lean * (1.5 if q["hp"] == 2 else 1.0)
        return worth < 0.0

    def _saving_for(self, view: Any) -> bool:
        """Whether it keeps its heal for a shown friend in danger (the lord at 2 HP or less, the seat whose death
        would end the game for its side) rather than spend it on itself: unless it is at 1 HP itself."""
        me = self._me(view)
        if me["hp"] <= 1:
            return False
        allies = self.allies(view)
        return any(q["role"] in allies and q["hp"] <= 2 and q.get("alive", True)
                   for q in view["players"] if q["seat"] != me["seat"] and q["role"] != "hidden")

    def _aiming(self, view: Any, stance: dict[int, float]) -> dict[int, float]:
        """The stance harmful acts are aimed by. A hidden seat hides early: in the first HIDE_ROUNDS rounds it does
        not harm a shown foe (the lord) that nobody has harmed yet and that is unhurt, since the first seat to do so
        names itself to the shown seat's side, who then know their target, while one hit does not kill; once the
        shown seat is harmed (its foes have shown themselves) or wounded, or the early rounds are over, it joins in.
        While it hides, a held seat counts as a friend (HELD) for its harmful choices: made to choose a target, it
        picks another seat."""
        self._held = ()
        if view.get("role_shown") or view.get("round", HIDE_ROUNDS + 1) > HIDE_ROUNDS:
            return stance
        allies = self.allies(view)
        if sum(1 for r in view["roles_in_play"] if r in allies) < HIDE_AMONG:
            return stance  # too few of my side to hide among
        me = view["seat"]
        held = [q["seat"] for q in view["players"]
                if q["seat"] != me and q["role"] != "hidden" and q.get("alive", True) and q["hp"] >= q["max_hp"]
                and stance.get(q["seat"], 0.0) < -0.6]
        if not held:
            return stance
        harmed = {t for _, t, _ in view.get("damage_history", ())}
        harmed.update(t for _, t, hints in view.get("act_history", ()) if set(hints) & HARMFUL)
        held = [s for s in held if s not in harmed]
        if not held:
            return stance
        out = dict(stance)
        for seat in held:
            out[seat] = HELD
        self._held = tuple(held)
        return out

    def _has_sure_foe(self, stance: dict[int, float], me: int) -> bool:
        """Whether another seat is fairly surely a foe (below -0.6): read once per stance worked out (the stance
        is remembered between decisions, and so is this)."""
        read_from, sure = self._foe_known
        if read_from is not stance:
            sure = any(v < -0.6 for s, v in stance.items() if s != me)
            self._foe_known = (stance, sure)
        return sure

    def _target_weight(self, seat: int, sign: float, stance: dict[int, float], view: Any) -> float:
        """Harmful requests favour sure foes, then wounded ones, with a little noise so a side spreads its
        attacks instead of all piling on one seat; helpful ones favour sure friends, then wounded ones."""
        q = view["players"][seat]
        hurt = 1.0 - q["hp"] / max(1, q["max_hp"])
        lean = sign * stance.get(seat, 0.0)
        # a wound draws the act only towards a seat it fits (a wounded friend is not a target, a wounded foe is
        # no one to heal): weighed by how sure the fit is
        return lean + self.focus * hurt * max(0.0, lean) + self.rng.random() * 0.3

    @staticmethod
    def _affordable(reach: tuple[int, ...], costs: tuple[int, ...], me: dict[str, Any]) -> tuple[int, ...]:
        """The seats of a skill's reach (`Request.option_reach`) whose cost in its own cards (`option_reach_costs`)
        is at most one card beyond its surplus over its HP: 破绽 ("discard as many cards as another's HP, then deal it
        1 damage") is used on a foe at 1 or 2 HP, not one four cards away."""
        bound = max(0, me["hand"] - me["hp"]) + 1
        return tuple(s for s, c in zip(reach, costs, strict=False) if c <= bound)

    def _dearness(self, r: Request, i: int, view: Any) -> float:
        """What option I's price in its own cards (`Request.option_costs`) takes off its weight: COST_WEIGHT a card,
        and again for each card beyond its surplus over its HP (the cards the discard phase would take anyway)."""
        costs = r.option_costs
        if not costs:
            return 0.0
        cost = costs[i]
        me = self._me(view)
        return COST_WEIGHT * (cost + max(0, cost - max(0, me["hand"] - me["hp"])))

    def on_choose(self, r: Request, view: Any) -> list[int] | None:
        n = len(r.options)
        if r.hope is not None and r.high == 1 and any(o is not None for o in r.hope.options):
            # a card for a pending judgement (鬼才's new judgement card): one that makes it go the way it wants,
            # one it need not keep first
            goal = self._judgement_wanted(r.hope, view)
            fits = [i for i, o in enumerate(r.hope.options) if o is not None and o == goal]
            if fits:
                return [min(fits, key=lambda i: (bool(r.option_tags and set(r.option_tags[i]) & KEEP), i))]
        if r.option_ranks and r.high == 1:
            return [self._contest_card(r, view)]
        if SWAP in r.about and r.option_seats and any(s is not None for s in r.option_seats):
            return self._swap_choice(r, view)
        if r.option_groups and r.high == 1:
            return self._group_choice(r, view)
        if r.option_seats and any(s is not None for s in r.option_seats) and any(r.option_tags):
            return self._seats_by_hints(r, view)
        if r.option_seats and any(s is not None for s in r.option_seats):
            about = set(r.about)
            if NEUTRAL in about and not about & (HELPFUL | HARMFUL):
                # (a choice that neither helps nor harms the one chosen: anyone will do)
                seated = [i for i, s in enumerate(r.option_seats) if s is not None]
                return sorted(self.rng.sample(seated, max(r.low, min(r.high, 1, len(seated)))))
            stance = self._stance_now(view)
            helpful = bool(about & HELPFUL) and not about & AIMED_HARM
            sign = 1.0 if helpful else -1.0
            if not helpful:
                stance = self._aiming(view, stance)
            seats = r.option_seats
            # a blow that spreads (`spreads`) is not aimed at a chained seat whose chain holds more friend than foe
            spoilt = {s for s in seats if s is not None and self._spreads_to_a_friend(s, view, stance)} \
                if not helpful and SPREADS in about else set()
            # (each option's weight in a list, not a nested function: compiled, a nested function and its
            # environment hold each other, and the cycle kept this view alive until the collector came)
            keyed: list[tuple[float, int]] = []
            for i in range(n):
                s = seats[i]
                w = -9.0 if s is None else \
                    self._target_weight(s, sign, stance, view) - (9.0 if s in spoilt else 0.0) \
                    - self._dearness(r, i, view)
                keyed.append((-w, i))
            keyed.sort()
            ranked = [i for _, i in keyed]
            # a seat whose role is public (the lord) hurts a hidden seat only on fair evidence: it may be a friend
            # who cannot show it yet
            # (and a helpful act goes to sure friends only)
            bar = FRIEND if sign > 0 else self.lord_bar if view.get("role_shown") and not self._alone(view) else 0.15
            wanted = [i for i in ranked if (s := seats[i]) is not None and sign * stance.get(s, 0.0) > bar
                      and s not in spoilt]
            if r.option_costs:
                # (a price lowers a seat among those it would choose, never below one it would not: a cheap seat it
                # cannot place is not struck in place of a dear sure foe)
                ranked = wanted + [i for i in ranked if i not in wanted]
            k = max(r.low, min(r.high, len(wanted)))
            return sorted(ranked[:k])
        if r.high == 1 and r.option_tags:
            # the card a face-down declaration is made of: one that is the card declared, when one is
            true = next((i for i, t in enumerate(r.option_tags) if GENUINE in t), None)
            if true is not None:
                return [true]
        if r.option_tags and not any(r.option_seats) and any(REWARDED in t for t in r.option_tags):
            # (an option the rule rewards, a red card where a red one heals: first, the one it need not keep among
            # such; declined, when it may, only with none rewarded)
            by_reward = sorted((REWARDED not in t, _keeping(t), i) for i, t in enumerate(r.option_tags))
            if r.low or not by_reward[0][0]:
                return sorted(i for _, _, i in by_reward[:max(r.low, min(r.high, 1))])
        if r.option_tags and all(NEXT in t for t in r.option_tags):
            return self._next_card(r, view)
        if r.option_tags and all(GAIN in t for t in r.option_tags):
            # cards given to it (五谷丰登): the most worth having (`_gain`), as many as it may take
            ranked = sorted(range(n), key=lambda i: (-_gain(r.option_tags[i]), i))
            return sorted(ranked[:max(r.low, min(r.high, n))])
        if r.option_tags and "cycle" in r.about:
            return self._cycled(r)
        if r.subject is not None and r.subject != view["seat"] and r.prompt.startswith(CARD_OF) and r.high == 1:
            return [self._card_to_take(r, self._stance_now(view).get(r.subject, 0.0) > FRIEND)]
        if r.option_tags and ("discard" in r.prompt or r.prompt.startswith(SPENT_FOR)
                              or all(PAY in t for t in r.option_tags)):
            # (cards discarded, or spent on a conversion, or parted with as the rule's hints say, whatever the
            # prompt: those it need not keep first, its equipment last)
            # (paying for a boost, 蓄锐's card: never the attack it strengthens, while anything else is offered)
            boost = "boost" in r.about
            ranked = sorted(range(n), key=lambda i: (_keeping(r.option_tags[i])
                                                     + (1 if boost and "attack" in r.option_tags[i] else 0),
                                                     self.rng.random()))
            k = r.low
            if not k and r.high and ("attack" in r.about or all(PAY in t for t in r.option_tags)):
                # a discard that pays for its own blow (火攻's, tagged `attack`; 享乐's, whose options are hinted
                # `pay`): with a card it need not keep, else a card that defends (a 闪: a blow landed is worth
                # more than a blow perhaps dodged later), never a heal or equipment. 享乐's was always declined, so
                # every 杀 at 刘禅 came to nothing and the next was played all the same (80 in one game of 8
                # players). Only with cards it need not keep, a search seat paid 火攻 with a 闪 or a 桃 where it
                # declined at 30 of the 180 searched (5 players, docs/balance.md "Sixteenth pass")
                tags = r.option_tags
                pay = next((i for i in ranked if _keeping(tags[i]) < 2 and "heal" not in tags[i]), None)
                return [] if pay is None else [pay]
            return sorted(ranked[:k])
        if r.high == 1 and r.low <= 1 and r.option_tags and not any(r.option_seats) \
                and all(OPTION_WORDS.issuperset(t) for t in r.option_tags) \
                and any(OWN_WORDS.intersection(t) for t in r.option_tags):
            # (one option of several, each read from what it does: the one worth most to its chooser's side, the
            # first among equals; none, when it may decline and none is worth anything; no nested function:
            # compiled, it would keep this view alive in a cycle)
            best, best_worth = 0, float("-inf")
            for i in range(n):
                worth = self._option_worth(r.option_tags[i], r, view)
                if worth > best_worth:
                    best, best_worth = i, worth
            return [best] if r.low or best_worth > 0 else []
        if r.high == 1 and r.option_tags and any(r.option_tags) and not any(r.option_seats) \
                and all(HINT_WORDS.issuperset(t) for t in r.option_tags):
            # (a rule's `hints:` for its options: a card's tags always end with its category, never a hint word)
            return self._pick_hinted(r, view)
        return None

    def _group_choice(self, r: Request, view: Any) -> list[int]:
        """One option of a choice that befalls characters (`Request.option_groups`: 号召's kingdom, each of whose
        characters recovers 1 HP and draws 1): the one whose characters' stances, itself a sure friend, sum highest by
        the choice's words, or the option's own where it has them (towards friends for a help, towards foes for a
        harm); a help that heals counts a wounded character twice. None, when it may decline and none is worth
        anything. No nested function: compiled, it would keep this view alive in a cycle."""
        about = set(r.about)
        sign = 1.0 if about & HELPFUL and not about & AIMED_HARM else -1.0
        friendly = self._stance_now(view)
        aimed: dict[int, float] | None = None  # (worked out only for a harm: it decides whom a hiding seat spares)
        me, players = view["seat"], view["players"]
        heals = "heal" in about
        best, best_worth = 0, float("-inf")
        for i, group in enumerate(r.option_groups):
            # (an option's own words, when it has them, say what it does to those it befalls: 扶抑's one character
            # made to draw or to discard; words only for the chooser, nothing)
            t = r.option_tags[i] if r.option_tags and i < len(r.option_tags) else ()
            way = sign if not t else -1.0 if AIMED_HARM.intersection(t) else 1.0 if "help" in t else 0.0
            if way < 0 and aimed is None:
                aimed = self._aiming(view, friendly)
            stance = aimed if way < 0 and aimed is not None else friendly
            worth = 0.0
            for s in group:
                q = players[s]
                lean = 1.0 if s == me else stance.get(s, 0.0)
                worth += way * lean * (2.0 if heals and q["hp"] < q["max_hp"] else 1.0)
            if worth > best_worth:
                best, best_worth = i, worth
        return [best] if r.low or best_worth > 0 else []

    @staticmethod
    def _swap_worth(seat: int, view: Any, stance: dict[int, float]) -> float:
        """What exchanging hands with SEAT is worth to my side: the cards I gain (its hand less mine), counted once
        for my gain and again, by how surely it is a foe, for its loss; nothing between sure friends (the cards stay
        on the side). A designer's 换心 that swapped with a foe at random gave five cards for none."""
        players = view["players"]
        return float(players[seat]["hand"] - players[view["seat"]]["hand"]) * (1.0 - stance.get(seat, 0.0))

    def _best_swap(self, view: Any, stance: dict[int, float], reach: tuple[int, ...] | None = None) -> float:
        """The worth of the best swap within REACH (every other living seat when not shown; -inf for none)."""
        me, best = view["seat"], float("-inf")
        for q in view["players"]:
            s = q["seat"]
            if s != me and q.get("alive", True) and (reach is None or s in reach):
                best = max(best, self._swap_worth(s, view, stance))
        return best

    def _swap_choice(self, r: Request, view: Any) -> list[int]:
        """Whom to exchange hands with (options hinted `swap`): the seats by what the swap is worth
        (`_swap_worth`), as many as are worth it; none, when it may decline and no swap gains anything."""
        stance = self._stance_now(view)
        keyed = sorted((-self._swap_worth(s, view, stance) if s is not None else 99.0, i)
                       for i, s in enumerate(r.option_seats))
        worth = sum(1 for w, _ in keyed if w < 0)
        return sorted(i for _, i in keyed[:max(r.low, min(r.high, worth))])

    def _option_worth(self, words: tuple[str, ...], r: Request, view: Any) -> float:
        """What an option is worth to its chooser's side, by what its branch does: a heal while wounded (more the
        nearer death), cards drawn; a price in HP (dear near death), in cards (cheap from a surplus), in maximum HP
        (next to nothing while wounded: the maximum lost is empty); a help or harm to another (the asking skill's
        owner, `Request.subject`, else nobody it can name) as that one is a friend or a foe. 崩坏 drawn at random
        lost a maximum HP at full health as often as 1 HP while wounded; 刚烈's source took the blow at 1 HP."""
        me = self._me(view)
        hp, wounded = me["hp"], me["hp"] < me["max_hp"]
        t = frozenset(words)
        worth = 0.0
        if "heal" in t and wounded:
            worth += 3.0 if hp <= 1 else 2.0 if hp == 2 else 1.2
        if "draw" in t:
            worth += DRAW_WORTH
        if "risk" in t:
            worth -= 6.0 if hp <= 1 else 2.5 if hp == 2 else 1.2
        if WANE in t:
            worth -= 0.3 if wounded else 1.4
        if SPENDS in t:
            worth -= 0.6 if self._spare_now(view) else 1.0
        other = r.subject if r.subject is not None and r.subject != view["seat"] else None
        toward = self._stance_now(view).get(other, 0.0) if other is not None else 0.0
        # (a card to a sure friend is worth a card of its own, one taken from a sure foe as much: 调和's "it draws 1"
        # or "you draw 1 and it discards 1", at another's prepare phase, took the second for friends too)
        if "help" in t:
            worth += DRAW_WORTH * toward
        if t & AIMED_HARM:
            worth -= DRAW_WORTH * toward
        return worth

    def _contest_card(self, r: Request, view: Any) -> int:
        """Its card for a contest the higher rank wins (拼点, `Request.option_ranks`): the highest, one it need not
        keep among equals, to win it; the lowest when a sure friend contests it (`Request.subject`): between friends
        a contest is held for what losing gives (制霸: a 吴 character that does not win gives the lord both cards).
        The card was drawn at random before (docs/balance.md, "Fourteenth pass")."""
        friend = r.subject is not None and self._stance_now(view).get(r.subject, 0.0) > FRIEND
        sign = -1 if friend else 1
        tags = r.option_tags
        return max(range(len(r.options)),
                   key=lambda i: (sign * r.option_ranks[i], -_keeping(tags[i]) if tags else 0, -i))

    def _seats_by_hints(self, r: Request, view: Any) -> list[int]:
        """A choice of characters whose `hints:` say what choosing each does (放逐: a blow to one face up, a favour to
        one face down): each seat weighed by its own words (a helpful one towards friends, a harmful one towards
        foes; one without words by the choice's), the best first, as many as are wanted (those beyond the bar of
        their own words), at least as many as it must. A seat hinted `void` (the card would do nothing to it: 仁王盾
        against a black 杀) comes last and is never wanted."""
        about = set(r.about)
        default = 1.0 if about & HELPFUL and not about & AIMED_HARM else -1.0
        plain = self._stance_now(view)
        aiming = self._aiming(view, plain)
        shown_lead = view.get("role_shown") and not self._alone(view)
        spreads = SPREADS in about and not (default > 0)
        scored = []
        for i, s in enumerate(r.option_seats):
            t = set(r.option_tags[i]) if i < len(r.option_tags) else set()
            if s is None or VOID in t:  # (a seat the card would do nothing to: a ward of its own, 仁王盾)
                scored.append((-9.0, i, False))
                continue
            if spreads and not t & HELPFUL and self._spreads_to_a_friend(s, view, aiming):
                scored.append((-8.0, i, False))  # (a blow that spreads through a chain of more friend than foe)
                continue
            sign = -1.0 if t & HARMFUL else 1.0 if t & HELPFUL else default
            stance = aiming if sign < 0 else plain
            bar = FRIEND if sign > 0 else self.lord_bar if shown_lead else 0.15
            scored.append((self._target_weight(s, sign, stance, view) - self._dearness(r, i, view), i,
                           sign * stance.get(s, 0.0) > bar))
        ranked = sorted(scored, key=lambda x: (-x[0], x[1]))
        if r.option_costs:  # (a price reorders the seats it would choose, never puts one it would not before them)
            ranked = [x for x in ranked if x[2]] + [x for x in ranked if not x[2]]
        k = max(r.low, min(r.high, sum(1 for _, _, ok in ranked if ok)))
        return sorted(i for _, i, _ in ranked[:k])

    @staticmethod
    def _card_to_take(r: Request, friend: bool) -> int:
        """Which of another character's cards to discard or take (过河拆桥, 顺手牵羊; `Request.subject` is whose): a
        harm waiting in its judge area (a delayed card tagged to hurt, 乐不思蜀) is a loss that helps it. From a
        friend, such a harm first, else a hand card (unseen) before its equipment; from anyone else, its equipment
        (worn, seen) first, then a hand card, a pending harm last. A random card, as before, took a foe's 乐不思蜀 as
        often as its armour."""
        tags = r.option_tags
        return min([(_take_rank(tags[i] if i < len(tags) else (), friend), i) for i in range(len(r.options))])[1]

    def _next_card(self, r: Request, view: Any) -> list[int]:
        """The next card for the top of the draw pile, from the top down (观星, options hinted `next`): first one for
        each judgement waiting in its judge area, the least worth among those the first judgement hopes for
        (`Request.ahead`; the judgement card is lost, and then no 无懈可击 is spent on that judgement) or, with none,
        the least worth of all; then as many as it would draw, the best first, while any is worth drawing; the rest
        go to the bottom, out of the next seats' reach. Which card of the stack this is it counts itself: the
        options are the last ones it was offered less its pick."""
        left, depth, set_up = self._stacking
        depth, set_up = (depth + 1, set_up) if r.options == left else (0, False)
        worth = [_gain(t) for t in r.option_tags]
        n = len(r.options)
        ahead = r.ahead if r.ahead is not None else Ahead(0, (), DRAWS)
        # (another's next judgements and draws, 改命's: a friend's as its own, a foe's turned against it)
        wanted = self._wants_for(ahead.seat, view)
        if depth < ahead.waiting:
            hoped = [i for i, ok in enumerate(ahead.hoped) if ok == wanted] if depth == 0 else []
            pick = min(hoped or range(n), key=lambda i: (worth[i], i))
            set_up = set_up or bool(hoped)
        elif wanted is not True:  # (nothing on top for draws of one it does not help; when it must, its least worth)
            if not r.low:
                self._stacking, self._set_up = ((), 0, False), set_up
                return []
            pick = min(range(n), key=lambda i: (worth[i], i))
        else:
            pick = max(range(n), key=lambda i: (worth[i], -i))
            if not r.low and (worth[pick] < GAIN_BAR or depth >= ahead.waiting + ahead.draws):
                self._stacking, self._set_up = ((), 0, False), set_up
                return []  # the rest to the bottom: nothing it would draw, or more than it will
        self._stacking, self._set_up = (r.options[:pick] + r.options[pick + 1:], depth, set_up), set_up
        return [pick]

    @staticmethod
    def _cycled(r: Request) -> list[int]:
        """The cards a `cycle` skill trades for new ones (制衡): every card it need not keep, none that is equipment
        (it played those it held: what is offered is worn), as many as it may; short of the least it must trade, the
        cards it would keep, then the equipment."""
        ranked = sorted(range(len(r.options)), key=lambda i: (_keeping(r.option_tags[i]), i))
        spare = sum(1 for i in ranked if not _keeping(r.option_tags[i]))
        return sorted(ranked[:min(r.high, max(r.low, spare))])

    def _pick_hinted(self, r: Request, view: Any) -> list[int]:
        """One of a rule's options that carry hint words (`choose(…, hints: …)`), or the first with none. Asked by
        another's skill (`Request.subject`, its owner), a harmful option is taken only against a sure foe, a helpful
        one only for a friend; asked of its own, a harmful option only with a sure foe at the table and a `help` one
        only with a sure friend (the seat is named after: 英魂), a heal only while wounded. A risky option besides:
        only when healthy, and then sparingly (as a risky optional skill). 英魂 chose its seat first and its option
        blind (a foe given X cards as often as made to discard them): worth +1.0 points to 孙坚 at 8 players, +4.6
        chosen option first by these rules (1,000 paired games; at 5 players +1.5 and +3.0)."""
        me = view["seat"]
        stance = self._stance_now(view)
        toward = stance.get(r.subject, 0.0) if r.subject is not None and r.subject != me else None
        plain = next((i for i, t in enumerate(r.option_tags) if not t), None)
        for i, tags in enumerate(r.option_tags):
            t = set(tags)
            if not t:
                continue
            if toward is None:
                # its own choice of what to do, the seat named after (英魂): a blow only with a sure foe at the
                # table, a favour to another only with a sure friend
                if t & {"attack", "control"} and not self._has_sure_foe(stance, me):
                    continue
                if "help" in t and not any(v > FRIEND for s, v in stance.items() if s != me):
                    continue
            elif t & {"attack", "control"} and not toward < -self.lord_bar:
                continue
            if t & HELPFUL and toward is not None and toward <= 0:
                continue
            if "heal" in t and toward is None and self._me(view)["hp"] >= self._me(view)["max_hp"]:
                continue
            if "risk" in t and not (self._healthy(view) and self.rng.random() < RISKY_RATE):
                continue
            return [i]
        if plain is not None:
            return [plain]
        return self.fallback(r)

    def on_respond(self, r: Request, view: Any) -> list[int]:
        return [_first_try(r)]  # answering a demand keeps HP

    def on_respond_for(self, r: Request, view: Any) -> list[int]:
        """A card asked of it for someone else (激将, 护驾): given only to a character it counts as a friend."""
        toward = self._stance_now(view).get(r.subject, 0.0) if r.subject is not None else 0.0
        return [_first_try(r)] if toward > 0 else self._decline(r)

    def on_rescue(self, r: Request, view: Any) -> list[int]:
        toward = self._stance_now(view).get(r.subject, -1.0) if r.subject is not None else -1.0
        return [0] if toward > 0 else self._decline(r)

    def on_nullify(self, r: Request, view: Any) -> list[int]:
        about = set(r.about)
        if self._set_up and r.subject == view["seat"] and "delayed" in about:
            return self._decline(r)  # its judgement will go its way: it put the card on top (`_next_card`)
        toward = self._stance_now(view).get(r.subject, 0.0) if r.subject is not None else 0.0
        harmful_to_friend = bool(about & HARMFUL) and toward > 0
        helpful_to_foe = bool(about & HELPFUL) and toward < 0
        if not (harmful_to_friend or helpful_to_foe):
            return self._decline(r)
        if r.option_tags:  # a real card before a risky conversion, and that only as a risky choice is taken
            sure = next((i for i, t in enumerate(r.option_tags[:-1]) if "risk" not in t), None)
            if sure is not None:
                return [sure]
            rate = BLUFF_RATE if DECLARED in r.option_tags[0] else RISKY_RATE
            if not (self._healthy(view) and self.rng.random() < rate):
                return self._decline(r)
        return [0]

    def on_use_on(self, r: Request, view: Any) -> list[int]:
        toward = self._stance_now(view).get(r.subject, 0.0) if r.subject is not None else 0.0
        return [0] if toward < 0 else self._decline(r)


_HANDLERS_OF: dict[type, dict[str, Any]] = {}
_VIEW_KINDS_OF: dict[type, Any] = {}


class _Every:
    """Every request kind (a subclass with its own decide may read the view for any)."""

    def __contains__(self, kind: object) -> bool:
        return True


def _view_kinds(cls: type) -> Any:
    """The request kinds whose answer may read the view: those with a handler, except answering a demand (always
    the first offer). The rest fall back to a uniform draw, which reads none, so the engine makes no view for them."""
    got = _VIEW_KINDS_OF.get(cls)
    if got is None:
        own = cls.decide is HeuristicAgent.decide and cls.fallback is HeuristicAgent.fallback  # type: ignore[attr-defined]
        got = frozenset(kind for kind, handler in _handlers(cls).items()
                        if handler is not HeuristicAgent.on_respond) if own else _Every()
        _VIEW_KINDS_OF[cls] = got
    return got


def _handlers(cls: type) -> dict[str, Any]:
    """Each request kind an agent class reasons about (its `on_KIND` methods, a subclass's own included), and how;
    the rest fall back to a uniform draw. Worked out once per class, not looked up by name at every decision."""
    got = _HANDLERS_OF.get(cls)
    if got is None:
        got = _HANDLERS_OF[cls] = {name[3:]: getattr(cls, name) for name in dir(cls) if name.startswith("on_")}
    return got


def _take_rank(tags: tuple[str, ...], friend: bool) -> int:
    """`HeuristicAgent._card_to_take`'s order of one card by its tags, lowest first (a function of the module, not
    a nested one: see `on_choose`)."""
    t = set(tags)
    if "delayed" in t and t & HARMFUL:
        return 0 if friend else 3
    if t & _EQUIPMENT:
        return 2 if friend else 0
    return 1


def _same(now: Any, then: Any) -> bool:
    """Whether a history of this view is the one read last: the same tuple (views share it until it grows), or
    equal to it; lengths first, since a tuple compares its items before its length."""
    return now is then or (len(now) == len(then) and now == then)


def _same_seats(players: Any, seats: list[tuple[Any, Any, Any]]) -> bool:
    """Whether the view's seats show the roles and lives SEATS holds (seat, role, alive), read in place: asked at
    every stance, mostly to find nothing changed, so nothing is built for it."""
    if len(players) != len(seats):
        return False
    try:  # (the engine's views carry `alive`)
        for i in range(len(seats)):
            q = players[i]
            seat, role, alive = seats[i]
            if q["role"] != role or q["alive"] != alive or q["seat"] != seat:
                return False
        return True
    except KeyError:  # (a hand-made view may leave it out: alive, as `stance` reads it)
        return _seat_lives(players) == seats


def _seat_lives(players: Any) -> list[tuple[Any, Any, Any]]:
    """Each seat's (seat, role, alive) as the view shows it (a hand-made view without `alive`: alive)."""
    return [(q["seat"], q["role"], q.get("alive", True)) for q in players]
