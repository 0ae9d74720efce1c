"""Declarations of the vocabulary: what a primitive, timing and engine value is; types, attributes,
constants and the names bound in each kind of rule body."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..errors import BreakLoop, RuleError, StopEffect  # noqa: F401 - re-exported for generated code
from ..events import UNLIMITED
from ..model import PHASES, Card, Player, UseRecord, VirtualCard
from ..program import GeneralRule, SkillRule
from .arguments import _cards, _g, _holder, _marks_of, _need, charged, validated  # noqa: F401 - (helpers: re-exported)


# ---------------------------------------------------------------- declarations
@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: Any = None
    required: bool = True


@dataclass(frozen=True)
class Primitive:
    """An action (a statement with an effect on the game) or a function (a pure question)."""

    name: str
    kind: str  # action | function
    params: tuple[Param, ...]
    returns: str
    impl: Callable[..., Any]
    doc: str
    variadic: bool = False
    # the kinds of rule body (SCOPE_NAMES keys) it may be called from; empty: anywhere. The checker reports a
    # call elsewhere (SGS-E215), e.g. take_turn outside a mode's turn_order.
    contexts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Timing:
    name: str
    fields: dict[str, str]
    mutable: frozenset[str]
    cancellable: bool
    doc: str


@dataclass(frozen=True)
class EngineValue:
    """A quantity the engine itself consults; rules may redefine the base and skills modify it."""

    name: str
    params: tuple[str, ...]
    param_types: tuple[str, ...]
    type: str
    default: Callable[..., Any]
    doc: str
    # applied last, after modifiers and a rule's own bounds: what the engine promises about the value
    # (a distance between two characters is never below 1), as clamp(game, result, *args)
    clamp: Callable[..., Any] | None = None
    # what the value is for most characters most of the time (a distance of 2, a hand limit of 4): how agents read a
    # value set outright, `modify distance(a, b) to 1`, as a lowering (or a raise) of it (lang/intent.py)
    usual: int | None = None


PRIMITIVES: dict[str, Primitive] = {}
TIMINGS: dict[str, Timing] = {}
ENGINE_VALUES: dict[str, EngineValue] = {}


def _params(sig: str) -> tuple[Param, ...]:
    out = []
    for part in filter(None, (s.strip() for s in sig.split(","))):
        name, _, rest = part.partition(":")
        typ, eq, default = rest.partition("=")
        if eq:
            d = default.strip()
            value: Any = {"none": None, "true": True, "false": False}.get(d, d)
            if isinstance(value, str) and value.lstrip("-").isdigit():
                value = int(value)
            out.append(Param(name.strip(), typ.strip(), value, False))
        else:
            out.append(Param(name.strip(), typ.strip()))
    return tuple(out)


@cache
def card_tests(name: str) -> frozenset[int | str]:
    """The parameters of primitive NAME that are conditions on a card (type `card_test`), by position and by name:
    the checker checks their arguments with the card bound as `it`, and both back ends pass them as functions of
    the card, run later (once per card asked about), never as values."""
    prim = PRIMITIVES.get(name)
    if prim is None:
        return frozenset()
    return frozenset(x for i, p in enumerate(prim.params) if p.type == "card_test" for x in (i, p.name))


def primitive(name: str, kind: str, sig: str, returns: str = "none", doc: str = "", variadic: bool = False,
              contexts: tuple[str, ...] = ()):
    def deco(fn):
        params = _params(sig)
        # impl checks its arguments against the declared types (a rule error, never a Python one deep inside)
        PRIMITIVES[name] = Primitive(name, kind, params, returns,
                                     validated(name, params, charged(name, params, fn), variadic),
                                     doc or (fn.__doc__ or "").strip(), variadic, contexts)
        return fn

    return deco


def timing(name: str, fields: str, mutable: str = "", cancellable: bool = False, *, doc: str) -> None:
    """Declare a timing; its `doc` (required, non-empty) is what `sgsdsl vocab` and docs/vocab.md show."""
    if not doc.strip():
        raise ValueError(f"timing {name!r} needs a description")
    f = {}
    for part in filter(None, (s.strip() for s in fields.split(","))):
        k, _, t = part.partition(":")
        f[k.strip()] = t.strip()
    TIMINGS[name] = Timing(name, f, frozenset(filter(None, mutable.split(","))), cancellable, doc)


def engine_value(name: str, sig: str, typ: str, default: Callable[..., Any], doc: str,
                 clamp: Callable[..., Any] | None = None, usual: int | None = None) -> None:
    ps = _params(sig)
    ENGINE_VALUES[name] = EngineValue(name, tuple(p.name for p in ps), tuple(p.type for p in ps), typ, default, doc,
                                      clamp, usual)


# ---------------------------------------------------------------- types and attributes
# THE one declaration of the fields a rule may read or write (the language is a sandbox): the checker types
# `x.name` from it, and both engines reach values only through `engine.runtime.get_attr/set_attr`, which
# allow exactly these fields (and an event's: its timing's `fields`, writable where the timing lists it
# `mutable`). A new field is one line here (type name -> attribute -> (type, writable)); a new kind of
# value also adds its Python class to VALUE_CLASSES below. Names starting with `_` are never fields.
ATTRIBUTES: dict[str, dict[str, tuple[str, bool]]] = {
    "player": {
        "hp": ("int", False), "max_hp": ("int", False), "alive": ("bool", False), "dying": ("bool", False),
        "seat": ("int", False), "person": ("int", False), "kingdom": ("kingdom", False), "gender": ("gender", False),
        "role": ("role", False), "chained": ("bool", False), "name": ("str", False),
        "general": ("general", False),
    },
    "card": {
        "suit": ("suit", False), "rank": ("int", False), "color": ("color", False), "name": ("str", False),
        "family": ("str", False), "category": ("category", False), "nature": ("nature", False),
        "converted": ("bool", False), "id": ("int", False),
    },
    "use": {
        "user": ("player", False), "target": ("player", False), "card": ("card", False),
        "targets": ("players", False), "context": ("str", False), "nullified": ("bool", False),
    },
    "general": {"name": ("str", False), "hp": ("int", False), "kingdom": ("kingdom", False),
                "kingdoms": ("list", False), "gender": ("gender", False)},
    # a skill: `skill` in a skill's own bodies, a skill's name, an item of skills_of(...)
    "skill": {"name": ("str", False), "ident": ("str", False), "locked": ("bool", False),
              "limited": ("bool", False), "awakening": ("bool", False), "leader": ("bool", False)},
}

# The Python classes of runtime values whose fields ATTRIBUTES declares (an Event's come from TIMINGS).
VALUE_CLASSES: dict[type, str] = {
    Player: "player", Card: "card", VirtualCard: "card", UseRecord: "use", GeneralRule: "general",
    SkillRule: "skill",
}


def event_fields() -> frozenset[str]:
    """Every field some timing's event has (plus `cancelled`): what a read of an event of unknown timing may name."""
    return frozenset({"cancelled"}.union(*(t.fields for t in TIMINGS.values())))


def all_fields() -> frozenset[str]:
    """Every field any value has: what a read of a value of unknown type may name."""
    return event_fields().union(*(a.keys() for a in ATTRIBUTES.values()))


def writable_fields() -> frozenset[str]:
    """Every field some value or some timing's event lets a rule assign: what a write of an unknown value may name."""
    out = {f for attrs in ATTRIBUTES.values() for f, (_, w) in attrs.items() if w}
    return frozenset(out.union(*(t.mutable for t in TIMINGS.values())))


# Names that are values in every program. Kingdoms, genders and roles come from the rules files.
CONSTANTS: dict[str, tuple[str, Any]] = {
    "red": ("color", "red"), "black": ("color", "black"),
    "normal": ("nature", "normal"), "fire": ("nature", "fire"), "thunder": ("nature", "thunder"),
    "unlimited": ("int", UNLIMITED),
    "male": ("gender", "male"), "female": ("gender", "female"),
    "hand": ("zone", "hand"), "equip": ("zone", "equip"), "judge_area": ("zone", "judge"),
    "basic": ("category", "basic"), "trick": ("category", "trick"), "delayed": ("category", "delayed"),
    "weapon": ("category", "weapon"), "armor": ("category", "armor"),
    "defensive_horse": ("category", "defensive_horse"), "offensive_horse": ("category", "offensive_horse"),
    **{p: ("phase", p) for p in PHASES},
}
SUIT_NAMES = {"spade": "♠", "heart": "♥", "club": "♣", "diamond": "♦"}
for _n, _s in SUIT_NAMES.items():
    CONSTANTS[_n] = ("suit", _s)

CARD_CATEGORIES = ("basic", "trick", "delayed", "weapon", "armor", "defensive_horse", "offensive_horse")
# play: from the play-phase menu; dying: on a dying character (target self: only the dying one himself);
# nullify: in a nullify window; recast (重铸): offered in the play phase, not a use — the card goes to the discard
# pile (no card_used, no nullify window, not counted) and the clause's block runs (e.g. `draw(user, 1)`)
USE_CONTEXTS = ("play", "dying", "nullify", "recast")
# card hooks: `on nullified`, `on prepare` (before the first target), `on finish` (after the last), and
# `on before_effect` (per target, before the nullify window; `event` is that before_effect event: cancel it
# and the card has no effect on that target)
CARD_HOOKS = ("nullified", "prepare", "finish", "before_effect")
LIMIT_SCOPES = ("phase", "turn", "round", "game")
VIEW_SOURCES = ("card", "hand", "equip")
# `view_as basic from 1 hand`: a face-down declaration of any card of the category (trick: non-delayed), one
# conversion per card of the program in it; the `declared` timing fires before each such card is used or given
VIEW_CATEGORIES = ("basic", "trick")
# limited (限定技): once per game; awakening (觉醒技): its triggers fire by themselves, once per game
SKILL_FLAGS = ("locked", "leader", "limited", "awakening")
# AI hints: the `tags` words on cards and skills that the heuristic agent reads (other words are free labels).
AI_HINTS: dict[str, str] = {
    "attack": "hurts the character it is aimed at: aim it at foes",
    "control": "hampers the character it is aimed at (cards lost, turns skipped): aim it at foes",
    "heal": "restores HP: for oneself or friends, when wounded",
    "draw": "gains cards: worth using whenever it is offered",
    "help": "benefits the characters it names (cards given, HP restored): aim it at friends",
    "defence": "keeps its holder alive: keep it when discarding",
    "risk": "costs its user (HP, cards) or may backfire: use sparingly, only when healthy",
    "passive": "fires by itself and asks nothing worth weighing: always accept",
    "area": "reaches every other character (or everyone): worth it when it does more to foes than to friends",
    "cycle": "trades cards for as many new ones: use it last in the play phase, on the cards not worth keeping",
    "boost": "strengthens its holder's next attacking card of the same category this turn: used right before such a "
             "card it will play, kept otherwise",
    "spends": "is paid for with its owner's cards: used only while the hand holds more cards than its HP (the "
              "cards the discard phase would take); an option of a choice with it costs its chooser cards",
    "wane": "an option of a choice that costs its chooser 1 maximum HP: next to nothing while it is wounded (the "
            "maximum lost is empty), dearer than 1 HP at full health (lost for good)",
    "pay": "an option of a choice of its chooser's own cards that pays for the chooser's own blow to land (declined, "
           "the blow comes to nothing): paid with a card it need not keep",
    "gain": "an option of a choice of cards that gives the card chosen to its chooser: the one most worth having",
    "spreads": "its blow also lands on every other chained character when its target is chained (elemental damage "
               "conducts through a chain): aimed at a chained seat only when the chain holds more foe than friend",
    "neutral": "neither helps nor harms the character chosen (a skill copied from it): chosen without regard to "
               "sides, and no evidence of whose side its chooser is on",
    "swap": "the character chosen exchanges its hand with the chooser's: worth the cards the chooser gains, twice "
            "over from a foe (what one gains the other loses) and nothing between friends: chosen among foes holding "
            "more cards than the chooser, and a skill of it used only when one is within reach",
    "next": "a card put on top of the draw pile for the next judgements and draws (its chooser's own, or those of the "
            "character whose turn it is, before its judgements), each chosen under the one before: one for each "
            "waiting judgement first (one that makes it go the way the chooser wants), then the best to draw; on a "
            "skill, one that puts a card of its owner's on top: used only where that card turns the next judgement",
    "cancels": "a yes cancels its event's card on the one the event befalls (a trick about to take effect on it): "
               "weighed by that card, which the question shows after the skill's own words: a harm stopped for a "
               "friend, a good stopped for a foe",
    "furthers": "a yes makes a card used on the one its event befalls go ahead unanswered (its answer refused): "
                "weighed by that card, and worth it only where that one could answer it (it holds a card or wears "
                "armour)",
    "rewarded": "an option of a choice that leads to more for its chooser's side than the others (a red card given, "
                "where a red one also heals): taken first, the card it need not keep among such; read from the rule "
                "when it tests the card chosen (`if c.color == red {…}`)",
}
# The hint words that code acts on by name (the reading, lang/intent.py, writes them; the agents, ai/, read them):
# one spelling each, every one a key of AI_HINTS (tests/test_option_hints.py)
NEUTRAL, NEXT, PAY, GAIN, REWARDED, SWAP, WANE, SPREADS, SPENDS, CANCELS, FURTHERS = (
    "neutral", "next", "pay", "gain", "rewarded", "swap", "wane", "spreads", "spends", "cancels", "furthers")
# What an action does to the character passed as each of these parameters, as the AI hint word it amounts to. A
# choice of characters that carries no words of its own (`tags:`, `hints:`) and sits in a skill without `help`,
# `heal`, `draw`, `attack`, `control` or `risk` is told to agents by what its rule then does with the one chosen
# (lang/intent.py; docs/language.md, "What a choice is for, read from its rule"): `obtain(p, …)` makes it `help`.
PARAM_EFFECTS: dict[str, dict[str, str]] = {
    "draw": {"player": "help"}, "obtain": {"player": "help"}, "recover": {"target": "help"},
    "give": {"from_player": "control", "to": "help"}, "extra_turn": {"player": "help"},
    "gain_skill": {"player": "help"},
    "damage": {"target": "attack"}, "lose_hp": {"player": "attack"}, "transfer_damage": {"to": "attack"},
    "skip_phase": {"player": "control"}, "skip_turn": {"player": "control"}, "lose_skill": {"player": "control"},
    "lose_all_skills": {"player": "control"}, "choose_card_from": {"owner": "control"}, "discard": {"by": "control"},
    # turned over, a character face up skips its next turn (a face-down one is helped: the rarer case, written out);
    # contested, it spends a hand card and may lose the contest
    "turn_over": {"player": "control"}, "pindian": {"target": "control"},
    # a delayed card moved into a judge area hampers its new holder (乐不思蜀 and 兵粮寸断 skip its phases, 闪电 may
    # strike it); a card put into an equipment area equips its holder
    "move_to_judge": {"player": "control"}, "put_in_equip": {"player": "help"},
}
# A parameter whose words depend on another argument, when the rule writes that one as a literal: (the parameter,
# the argument, its words when the literal is positive or true, when negative or false). A character given a maximum
# HP is helped, one losing it hurt; one chained (铁索连环: `tags control`) is hampered, one unchained helped. With the
# argument worked out at play (`change_max_hp(p, x)`) the parameter says nothing, as before.
PARAM_EFFECTS_BY_VALUE: dict[str, tuple[str, str, str, str]] = {
    "change_max_hp": ("player", "n", "help", "attack"),
    "set_chained": ("player", "chained", "control", "help"),
}
# Actions whose effect on a character is only the chance of more to come: a chained character is hurt only if
# elemental damage later reaches the chain. Read beside a sure effect on the same character, the sure one decides (a
# designer's 同袍, "chain yourself and another, then each draws 1", is a help to the other, not both a help and a
# hampering); alone, they say what they say.
SLIGHT_EFFECTS: frozenset[str] = frozenset({"set_chained"})
# The timings heard while the one their event befalls is dying: a recovery of that one there is a rescue, a help
# whatever else the rule does to it (lang/intent.py `_rescues`).
RESCUE_TIMINGS: frozenset[str] = frozenset({"dying"})
# What raising an engine value does to the character passed as each of its parameters (`modify hand_limit(p) by 2`
# helps p); lowering it does the opposite (`help` <-> `control`). A mark set on a character (`mark(p, "宽政")`) is
# read through the modifiers of the same skill that test it (`modify hand_limit(q) by 2 where has_mark(q, "宽政")`):
# the mark is then a help to whoever gets it (lang/intent.py `mark_words`), and a choice of whom to mark is aimed as
# such. Farther from others is safer (`to`) and reaches less (`from`).
VALUE_EFFECTS: dict[tuple[str, str], str] = {
    ("hand_limit", "player"): "help", ("draw_count", "player"): "help", ("attack_range", "player"): "help",
    ("distance", "to"): "help", ("distance", "from"): "control", ("extra_targets", "user"): "help",
}
# A parameter whose words depend on the character passed beside it: (the other parameter, the words when the other
# argument is the skill's `owner`, the words when it is anyone else; "" for none). A hand swapped with the owner's
# (`swap_cards(owner, p)`) is `swap`: a gain or a loss by the hands' sizes, which the agent weighs at the choice;
# swapped between two others it says nothing. The one made to use a card on another (`use_card_on(p, 杀, q)`) is
# asked, and uses it only as it sides: the owner's ally in the act, so `help` (a foe of the owner's would decline a
# 杀 at the owner's foe); made to use it on the owner (挑衅's), it says nothing: the rule's other uses decide.
PARAM_EFFECTS_WITH_OWNER: dict[str, dict[str, tuple[str, str, str]]] = {
    "swap_cards": {"a": ("b", "swap", ""), "b": ("a", "swap", "")},
    "use_card_on": {"user": ("target", "", "help")},
}
# A parameter that a card of a family is used on: what it does to that character is what the family's card does to
# its targets, as that card's `tags` say (杀's `attack`, 桃's `heal`; lang/intent.py `family_words`), when the rule
# names the family: (the parameter, the family's argument).
PARAM_EFFECTS_BY_FAMILY: dict[str, tuple[str, str]] = {
    "use_card_on": ("target", "family"),
    "use_virtual": ("targets", "family"),
}
# A field of an event that a trigger may set to a character (`event.target = p`), by (timing, field): what the event
# then does to that character. Damage about to be made goes to the new target instead (移祸's "who takes it").
FIELD_EFFECTS: dict[tuple[str, str], str] = {
    ("creating_damage", "target"): "attack",
}
# The same where it depends on the card the event carries: the card is aimed at the character the field is set to
# (流离 turns a 杀 on another), which gets what that card's family does to its targets (`PARAM_EFFECTS_BY_FAMILY`),
# when the trigger's condition pins the family (`event.card is 杀`): (timing, field) -> the field naming the card.
FIELD_EFFECTS_BY_FAMILY: dict[tuple[str, str], str] = {
    ("targeted", "target"): "card",
}
# What cancelling an event (`cancel(event)`) does to the character it befalls (its `target`, else its `player`, else
# its `user`: the one a trigger's "use …?" names as its subject), by timing: damage about to be made, caused or
# taken is prevented (a help; so is damage passed on to another, `transfer_damage`), a heal or the draw phase's
# draw stopped (a hampering). An optional trigger that cancels an event befalling another (护卫: "when another
# character becomes a 杀's target, you may discard a card: it has no effect on them") is then read as helping that
# character, and used only for a friend (lang/intent.py `subject_words`).
CANCEL_EFFECTS: dict[str, str] = {"creating_damage": "help", "causing_damage": "help", "taking_damage": "help",
                                  "recovering": "control", "drawing": "control"}
# What raising an event's `amount` (`event.amount += 1`) does to the character in each of its fields, and what
# lowering it does, by (timing, field): more damage taken hurts, more dealt helps its dealer; a larger heal or draw
# helps. A mark a skill's own trigger tests on the event's character (`on taking_damage where has_mark(event.target,
# "盾") { event.amount -= 1 }`) is read by it (lang/intent.py `mark_words`): a designer's 护盾 gave its shield to
# foes 558 times in 570 before; cancelling the event reads as lowering it.
AMOUNT_EFFECTS: dict[tuple[str, str], tuple[str, str]] = {
    **{(timing, "target"): ("attack", "help") for timing in ("creating_damage", "causing_damage", "taking_damage")},
    **{(timing, "source"): ("help", "control") for timing in ("creating_damage", "causing_damage", "taking_damage")},
    ("recovering", "target"): ("help", "control"), ("drawing", "player"): ("help", "control"),
}
# The same where the event carries a card aimed at that character: the card's effect undone, which helps it when
# the card's family harms its targets and hampers it when the family helps them, once the trigger's condition pins
# the family (`event.card is 杀`): timing -> the field naming the card.
CANCEL_EFFECTS_BY_FAMILY: dict[str, str] = {"targeted": "card", "before_effect": "card", "nullify": "card"}
# The fields of an event that may name the one a trigger's "use …?" is about (`Request.subject`), the first the
# event has that holds a character: its `target`, else its `player`, else the user of a card used (截击), else the
# killer of one who died (复仇: "when another dies, you may make its killer lose 1 HP"), else the one who discarded
# (拾遗: "after another discards in its discard phase, you may let it take one card back"; before, the question was
# about nobody and the card went back to foes six times as often as to friends). The engine names the subject by it
# (engine/dispatch.py) and the reading reads a trigger's body by it (lang/intent.py `event_subject`).
SUBJECT_FIELDS = ("target", "player", "user", "killer", "by")


# When the one an event befalls is the very character asked about it (a designer's 反制: "after you become the
# target of another's trick, you may make its user discard a hand card"), a yes is about the event's other party:
# the first of these fields naming another character (the trick's user, the damage's source, the attacker a 闪
# answered). Before, the question was about its owner, and 反制 answered friends' 桃园结义 as often as foes' tricks.
OTHER_PARTY_FIELDS = ("user", "source", "against_user", "initiator", "target", "player", "killer", "victim", "by")


# The frame binding, in a trigger's body, of the field of its event its question was about (`TriggerRule.subject`):
# an owner's choice among written options there is about that character too (`requests._befallen_other`). A name no
# rule can write (it has a space), so it never meets a rule's own.
ABOUT_FIELD = "about field"


def named_in(fields: dict[str, Any], field_name: str, asked: Player | None) -> Player | None:
    """The character an event's field FIELD_NAME names, for a question asked of ASKED: of a field naming several
    (`targets`), the first living one that is not ASKED; None when there is none."""
    named = fields.get(field_name)
    if isinstance(named, Player):
        return named
    if isinstance(named, list):
        return next((q for q in named if isinstance(q, Player) and q.alive and q is not asked), None)
    return None


def befallen(fields: dict[str, Any], asked: Player | None = None) -> Player | None:
    """The one an event with these FIELDS befalls: the first of its `SUBJECT_FIELDS` naming a character; where that
    is ASKED, the event's other party (`OTHER_PARTY_FIELDS`), if it has one."""
    for name in SUBJECT_FIELDS:
        named = fields.get(name)
        if isinstance(named, Player):
            if named is not asked:
                return named
            for other in OTHER_PARTY_FIELDS:
                party = fields.get(other)
                if isinstance(party, Player) and party is not asked:
                    return party
            return named
    return None


MARK_SCOPES = ("phase", "turn", "round", "forever")
# directions round the table: counter_clockwise is seat order (the direction turns pass in), clockwise the reverse
DIRECTIONS = ("counter_clockwise", "clockwise")

# Names bound in each kind of rule body: the checker resolves them, the engine supplies them.
SCOPE_NAMES: dict[str, dict[str, str]] = {
    "use_filter": {"user": "player", "card": "card", "it": "player", "owner": "player"},
    "use_limit": {"user": "player", "card": "card", "owner": "player"},
    "effect": {"user": "player", "target": "player", "targets": "players", "card": "card", "use": "use",
               "owner": "player", "event": "event"},
    "card_hook": {"user": "player", "targets": "players", "card": "card", "owner": "player", "event": "event",
                  "target": "player", "use": "use"},
    "trigger": {"owner": "player", "event": "event", "skill": "skill"},
    "mode_trigger": {"event": "event", "owner": "player"},
    "rule_trigger": {"event": "event"},
    "active": {"owner": "player", "skill": "skill"},
    # a `grant` (an action the skill gives others): `user` is the character using it, `owner` the skill's owner
    "granted": {"owner": "player", "user": "player", "skill": "skill"},
    # play: true while answering a request to play (打出) a card, false when the card is used (使用)
    "view_filter": {"owner": "player", "it": "card", "skill": "skill", "play": "bool"},
    "provide": {"owner": "player", "skill": "skill", "family": "str", "against": "card", "against_user": "player",
                "play": "bool"},
    "modifier": {"owner": "player", "skill": "skill"},
    "value": {},
    "setup": {},
    "win": {},
    "option": {},
    # a mode's `turn_order { … }`: run once per round instead of the seat-order round; it plays turns with take_turn
    "turn_order": {},
    # a mode's `score ROLE… = EXPR [when COND]`: evaluated for every seat when the game is over
    "score": {"player": "player"},
    # a condition on a card written in a rule and asked later of any card (`judge(…, hoping: it.suit == ♥)`); a
    # delayed card's own hope is also kept on its own, asked before its judgement (CardRule.judge_hope)
    "card_test": {"it": "card"},
}
# Where each kind of rule body is written, for messages ("take_turn can only be used in a mode's turn_order").
SCOPE_PLACES: dict[str, str] = {
    "setup": "a mode's `setup { … }`",
    "turn_order": "a mode's `turn_order { … }`",
    "score": "a mode's `score` lines",
}
