"""Game objects: physical cards, converted (virtual) cards, players and their zones.

The engine knows categories (basic, trick, delayed, equipment slots) and zones, never a card by name:
a card's behaviour comes from its rule object (`program.CardRule`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .program import CardRule, GeneralRule, ModifierRule, SkillRule, TriggerRule

SUITS = ("♠", "♥", "♣", "♦")
RED_SUITS = ("♥", "♦")
EQUIP_SLOTS = ("weapon", "armor", "defensive_horse", "offensive_horse")
CATEGORIES = ("basic", "trick", "delayed") + EQUIP_SLOTS
PHASES = ("prepare", "judge", "draw", "play", "discard", "finish")
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def color_of(suit: str | None) -> str:
    if suit is None:
        return "none"
    return "red" if suit in RED_SUITS else "black"


class CardHome:
    """What a physical card asks of the game it is in (the game's state is one): whether a skill in play makes
    cards count as another suit, colour or name, and if so what this card counts as. Declared here, below the
    engine, so that a card reads the flag as a typed field of its game; the native build makes that a plain read
    instead of an attribute lookup by name, and cards read it thousands of times a game."""

    counts_as: bool
    used_face_kept: bool  # some card has kept another face it was used with (Card.used_face): counts_as stays on

    def counted_as(self, card: Card, value: str, printed: Any) -> Any:
        raise NotImplementedError

    def counted_rule(self, card: Card) -> CardRule:
        raise NotImplementedError


class _RuleFace:
    """What a card and a converted card share: how they are shown. Each answers its name, family, category and
    nature from its rule (a physical card from what it counts as, a converted card from the rule it is seen as)."""

    __slots__ = ()

    def label(self) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.label()


class Card(_RuleFace):
    """One physical card of the deck. `zone` and `holder` always say where it is.

    Its suit, colour and rule (hence name and family) are what it counts as: the printed ones, unless a skill
    of the game it is in modifies the values `card_suit`, `card_color` or `card_name` (say, a ♠ counts as ♥);
    then every rule that reads the card sees the changed one. The label always shows the printed face.

    `used_face`: (rule, suit, colour) it counted as when it was used, while that matters. It is used as that card
    with that suit and colour while it is being used, even where it would count otherwise (a card that counts as
    another only in its holder's hand resolves as that other card). Placed by that use in a judge or equipment
    area, it stays that card (its suit and colour count afresh there) until it leaves. None otherwise, and
    whenever it moves on.
    """

    __slots__ = ("id", "printed_rule", "printed_suit", "rank", "zone", "holder", "game", "_label", "used_face",
                 "last_zone", "last_holder")

    def __init__(self, cid: int, rule: CardRule, suit: str, rank: int):
        self.id = cid
        self.printed_rule = rule
        self.printed_suit = suit
        self.rank = rank
        self.zone = "draw"
        self.holder: Player | None = None
        self.game: CardHome | None = None  # the game the card is in, which may make it count as another
        self.used_face: tuple[CardRule, str, str] | None = None
        # where it was before its last move, and who held it there (the provenance of a discarded card)
        self.last_zone = "draw"
        self.last_holder: Player | None = None
        # the printed face, which never changes: made when first asked (a game that keeps no log and whose agents
        # read no options may never ask, and a deck is a hundred cards and more)
        self._label: str | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled for search snapshots (engine/snapshots.py): made by the constructor, then given its state (the
        # native build's classes cannot be made without their constructor)
        return Card, (self.id, self.printed_rule, self.printed_suit, self.rank), self.__getstate__()

    @property
    def suit(self) -> str:
        g = self.game
        if g is None or not g.counts_as:
            return self.printed_suit
        return g.counted_as(self, "card_suit", self.printed_suit)

    @property
    def color(self) -> str:
        g = self.game
        base = color_of(self.suit)
        if g is None or not g.counts_as:
            return base
        return g.counted_as(self, "card_color", base)

    @property
    def rule(self) -> CardRule:
        g = self.game
        if g is None or not g.counts_as:
            return self.printed_rule
        return g.counted_rule(self)

    # what the card counts as, read straight from the printed rule when nothing in play changes it (these are read
    # thousands of times a game: one property each, not two)
    @property
    def name(self) -> str:
        g = self.game
        return self.printed_rule.name if g is None or not g.counts_as else g.counted_rule(self).name

    @property
    def family(self) -> str:
        g = self.game
        return self.printed_rule.family if g is None or not g.counts_as else g.counted_rule(self).family

    @property
    def category(self) -> str:
        g = self.game
        return self.printed_rule.category if g is None or not g.counts_as else g.counted_rule(self).category

    @property
    def nature(self) -> str:
        g = self.game
        return self.printed_rule.nature if g is None or not g.counts_as else g.counted_rule(self).nature

    @property
    def subcards(self) -> tuple[Card, ...]:
        return (self,)

    @property
    def physical(self) -> tuple[Card, ...]:
        return (self,)

    @property
    def converted(self) -> bool:
        return False

    def label(self) -> str:
        got = self._label
        if got is None:
            got = self._label = \
                f"{self.printed_rule.name}{self.printed_suit}{RANK_TEXT.get(self.rank, str(self.rank))}#{self.id}"
        return got


class VirtualCard(_RuleFace):
    """A card seen as another (view-as conversion, or a card supplied by a skill).

    Suit and colour come from the subcards: one subcard gives its suit; several give a colour only
    when they agree.
    """

    __slots__ = ("rule", "subcards", "skill", "declared")

    def __init__(self, rule: CardRule, subcards: tuple[Card, ...], skill: str | None, declared: bool = False):
        self.rule = rule
        self.subcards = subcards
        self.skill = skill
        self.declared = declared  # declared face down (`view_as basic …`): its cards are not shown in its label

    def __reduce__(self) -> tuple[Any, ...]:  # (search snapshots: see Card)
        return VirtualCard, (self.rule, self.subcards, self.skill)

    @property
    def name(self) -> str:
        return self.rule.name

    @property
    def family(self) -> str:
        return self.rule.family

    @property
    def category(self) -> str:
        return self.rule.category

    @property
    def nature(self) -> str:
        return self.rule.nature

    @property
    def id(self) -> int:
        return -1

    @property
    def suit(self) -> str | None:
        suits = {c.suit for c in self.subcards}
        return suits.pop() if len(suits) == 1 else None

    @property
    def rank(self) -> int:
        return self.subcards[0].rank if len(self.subcards) == 1 else 0

    @property
    def color(self) -> str:
        colors = {c.color for c in self.subcards}
        return colors.pop() if len(colors) == 1 else "none"

    @property
    def physical(self) -> tuple[Card, ...]:
        return self.subcards

    @property
    def converted(self) -> bool:
        return True

    def label(self) -> str:
        inner = "+".join("?" if self.declared else c.label() for c in self.subcards)
        return f"{self.rule.name}[{inner}]"


@dataclass(init=False)
class UseRecord:
    """One card use against one target: the per-target state skills may read and change."""

    user: Player | None
    card: Any
    target: Player | None
    targets: list[Player]
    context: str
    marks: dict[str, Any]
    nullified: bool
    nullifiable: bool  # false: no nullify window opens for this use (e.g. a skill says it cannot be nullified)

    def __init__(self, user: Player | None, card: Any, target: Player | None, targets: list[Player], context: str,
                 marks: dict[str, Any] | None = None, nullified: bool = False, nullifiable: bool = True) -> None:
        # (written out: a dataclass's own __init__ is Python code even in the native build, made once a target)
        self.user = user
        self.card = card
        self.target = target
        self.targets = targets
        self.context = context
        self.marks = {} if marks is None else marks
        self.nullified = nullified
        self.nullifiable = nullifiable

    def __reduce__(self) -> tuple[Any, ...]:  # (search snapshots: see Card)
        return UseRecord, (self.user, self.card, self.target, self.targets, self.context, self.marks, self.nullified,
                           self.nullifiable)


class Player:
    """A seat at the table and the character on it."""

    # fixed fields (nothing sets others): attribute reads and the runtime's identity tests are cheaper so
    __slots__ = ("seat", "person", "general", "hp", "max_hp", "alive", "dying", "role", "role_revealed", "kingdom",
                 "gender", "chained", "face_down", "skip_turns", "hand", "equips", "judge", "piles", "pile_public",
                 "marks", "mark_scopes", "skills", "extra_skills", "extra_scopes", "lost_skills", "triggers",
                 "modifiers")

    def __init__(self, seat: int):
        self.seat = seat
        self.person = seat  # who sits here, for a league (engine/carry.py); seats by lot change it
        self.general: GeneralRule | None = None
        self.hp = 4
        self.max_hp = 4
        self.alive = True
        self.dying = False
        self.role = "none"
        self.role_revealed = False
        self.kingdom = "none"
        self.gender = "none"
        self.chained = False
        self.face_down = False  # 翻面: when its turn would start it turns face up instead and the turn is skipped
        self.skip_turns = 0  # whole turns still to skip (skip_turn)
        self.hand: list[Card] = []
        self.equips: dict[str, Card] = {}
        self.judge: list[Any] = []  # cards or converted cards, in placement order; the last placed is judged first
        # piles on the general (named): name -> cards or general cards, in the order they were put there
        self.piles: dict[str, list[Any]] = {}
        self.pile_public: dict[str, bool] = {}
        self.marks: dict[str, Any] = {}
        self.mark_scopes: dict[str, str] = {}
        self.skills: list[SkillRule] = []
        self.extra_skills: list[SkillRule] = []  # gained during play (gain_skill), in the order gained
        self.extra_scopes: dict[str, str] = {}  # ident of a gained skill -> phase | turn | round (absent: forever)
        self.lost_skills: list[str] = []  # idents of the general's skills lost during play (lose_skill …)
        # what its skills do, by timing and by value (kept with `skills` by Dispatch.refresh_skills)
        self.triggers: dict[str, list[tuple[SkillRule, TriggerRule]]] = {}
        self.modifiers: dict[str, list[tuple[SkillRule, ModifierRule]]] = {}

    def __reduce__(self) -> tuple[Any, ...]:  # (search snapshots: see Card)
        return Player, (self.seat,), self.__getstate__()

    @property
    def name(self) -> str:
        return self.general.name if self.general else f"seat{self.seat}"

    def all_cards(self) -> list[Card]:
        out = list(self.hand)  # (one list, grown only by areas that hold something: most hold nothing)
        equips = self.equips
        if equips:
            out.extend([equips[s] for s in EQUIP_SLOTS if s in equips])
        if self.judge:
            out.extend(self.judge)
        return out

    def label(self) -> str:
        return f"P{self.seat}:{self.name}"

    def __repr__(self) -> str:
        return self.label()
