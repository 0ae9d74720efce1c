"""Rule objects: the interface between a checked program and the engine.

Both the reference interpreter and the compiled classes in `generated/` produce these objects; the
engine calls their functions and never looks inside. Every function takes one `Frame`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Fn = Callable[["Frame"], Any]


class Frame:
    """What a rule function sees: the game and the names bound for it (owner, user, target, event…).

    `game` is the `engine.game.Game` running the rule. It is typed loosely because rule objects sit below the
    engine that runs them: this module imports nothing of the engine, so the engine can import it freely."""

    __slots__ = ("game", "vars", "supplied")

    def __init__(self, game: Any, bindings: dict[str, Any]):
        self.game = game
        self.vars = bindings
        self.supplied: Any = None

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled for search snapshots (engine/snapshots.py): the native build's classes need their constructor
        return _frame, (self.game, self.vars, self.supplied)


def _frame(game: Any, bindings: dict[str, Any], supplied: Any) -> Frame:
    frame = Frame(game, bindings)
    frame.supplied = supplied
    return frame


@dataclass(slots=True)  # engine-internal (never a rule's value): fixed fields, cheaper reads
class UseRule:
    context: str  # play | dying | nullify | respond
    limit: Fn | None
    limit_scope: str | None
    target_kind: str  # self | one | all | range | none
    low: int
    high: int
    other: bool
    filter: Fn | None
    effect: Fn | None  # None: the card's own effect
    line: str = ""
    # Compiled rules only: the filter and limit as direct functions, f(frame, user, card, it, owner) and
    # f(frame, user, card, owner), called with a frame that carries only the game (no bindings dict to build)
    filter_direct: Callable[..., Any] | None = None
    limit_direct: Callable[..., Any] | None = None


@dataclass(slots=True)  # engine-internal (never a rule's value): fixed fields, cheaper reads
class TriggerRule:
    timing: str
    condition: Fn | None
    optional: bool
    body: Fn
    line: str = ""
    # `on T limit N per SCOPE`: fires at most N times per scope (per owner), counted under the key
    # ("trigger", skill ident, index)
    limit: Fn | None = None
    limit_scope: str | None = None
    index: int = 0
    # A skill's trigger whose condition starts `event.F == owner`: it can only fire for the character in the
    # event's field F, so the engine skips the others without a call (see interp.build.owner_field).
    owner_field: str | None = None
    # Compiled rules only: the condition as a direct function, f(frame, owner, event, skill) for a skill's
    # trigger and f(frame, owner, event) for the game's and the mode's, the frame carrying only the game
    condition_direct: Callable[..., Any] | None = None
    # Compiled rules only: (F, V) when the condition starts with tests of event fields, one `event.F == V` for a text
    # V, so it is false for an event whose F is other text (see interp.build.field_guard, GameState.timing_guards)
    field_guard: tuple[str, str] | None = None
    # An optional skill trigger: the items of its body's first choice of characters, when they can be worked out
    # before it runs (interp/reach.py), shown with the question whether to use it
    reach: Fn | None = None
    # An optional skill trigger whose body cancels its event outright (interp/reach.py, `cancels_event`): at the
    # start of one of its owner's phases a yes skips that phase, and the question says so (`Request.skips`)
    cancels: bool = False
    # An optional skill trigger whose body lowers its event's `amount` by a constant outright (interp/reach.py,
    # `lowers_amount`): at its owner's `drawing`, a yes gives up that many cards of the draw (`Request.skips`)
    lowers: int = 0
    # The phases of its owner's turn an optional trigger skips outright (`skip_phase(owner, P)`): with the phase its
    # yes cancels (神速's draw), or alone (a designer's 劫粮 gives up its draw phase at the prepare phase)
    also_skips: tuple[str, ...] = ()
    # A compulsory skill trigger that makes a card aimed at its owner void (interp/reach.py, `wards_owner`: an
    # armour's): its condition, asked of a card and a user before the card is aimed, says the card would do nothing
    ward: bool = False
    # An optional skill trigger: the field of its event naming the one its question is about (`Request.subject`), as
    # its body is read (lang/intent.py `event_subject`): whom its event befalls, else the event's other party, else
    # the one character of the event the body acts on; None: the engine's own choice (`registry.befallen`)
    subject: str | None = None


@dataclass(slots=True)  # engine-internal (never a rule's value): fixed fields, cheaper reads
class ActiveRule:
    limit: Fn | None
    limit_scope: str | None
    condition: Fn | None
    body: Fn
    index: int = 0
    granted: bool = False  # offered to the other characters the condition accepts (`user`), not to the owner
    # the items of the body's first choice of characters, when they can be worked out before it runs (a pure
    # question of the owner; interp/reach.py): where the action could be aimed, shown in the play menu as a hint
    reach: Fn | None = None
    # per seat of that reach (the same list, worked out alike), the owner's cards aiming the action there costs, when
    # the choice says (`choose(…, costs: …)`, or read from the rule: interp/reach.py `first_seat_costs`)
    reach_costs: Fn | None = None


@dataclass(slots=True)  # engine-internal (never a rule's value): fixed fields, cheaper reads
class ViewAsRule:
    card: str  # ident of the card it becomes
    count: int
    source: str  # card | hand | equip
    filter: Fn | None
    # declared face down (`view_as basic …`: one rule per card of the category); the `declared` timing may void it
    declared: bool = False


@dataclass(slots=True)  # engine-internal (never a rule's value): fixed fields, cheaper reads
class ProvideRule:
    card: str
    condition: Fn | None
    body: Fn


@dataclass(slots=True)  # engine-internal (never a rule's value): fixed fields, cheaper reads
class ModifierRule:
    quantity: str
    params: tuple[str, ...]
    op: str  # by | to
    value: Fn
    condition: Fn | None
    # The condition starts `P == owner` (or `owner == P`) for the parameter at this position: the modifier can
    # only apply when that argument is the skill's owner, so the engine skips the others without a call.
    owner_arg: int | None = None
    # Compiled rules only: condition and value as direct functions, f(frame, owner, skill, *arguments) for
    # exactly `params` arguments, the frame carrying only the game
    condition_direct: Callable[..., Any] | None = None
    value_direct: Callable[..., Any] | None = None
    # Compiled rules only: the condition is `P == owner` and nothing else, and the value a literal (a horse's
    # `by 1 where b == owner`): once the owner test passed, the value is `constant`, with no call at all
    owner_constant: bool = False
    constant: Any = None


@dataclass
class SkillRule:
    ident: str
    name: str
    flags: frozenset[str]
    triggers: list[TriggerRule] = field(default_factory=list)
    actives: list[ActiveRule] = field(default_factory=list)
    view_as: list[ViewAsRule] = field(default_factory=list)
    provides: list[ProvideRule] = field(default_factory=list)
    modifiers: list[ModifierRule] = field(default_factory=list)
    tags: frozenset[str] = frozenset()  # AI hints from the .sgs `tags` line, for agents that reason
    # what using its granted actions does, read from the user's side (lang/intent.py `grant_words`): the hints of
    # the play-menu option another character is offered, in place of the skill's own
    grant_tags: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        # read at every trigger check: a plain attribute, not a property over the flags
        self.once = "limited" in self.flags or "awakening" in self.flags

    @property
    def locked(self) -> bool:
        return "locked" in self.flags

    @property
    def leader_only(self) -> bool:
        """Active only while the owner holds the mode's leader role."""
        return "leader" in self.flags

    @property
    def leader(self) -> bool:
        return "leader" in self.flags

    @property
    def limited(self) -> bool:
        """限定技: any of its members fires once per game."""
        return "limited" in self.flags

    @property
    def awakening(self) -> bool:
        """觉醒技: its triggers fire by themselves (never optional), once per game."""
        return "awakening" in self.flags

    @property
    def once_per_game(self) -> bool:
        return self.once


@dataclass
class CardRule:
    ident: str
    name: str
    category: str
    family: str  # the display name of the card family it counts as (its own name when it has none)
    nature: str
    attack_range: int | None
    copies: list[tuple[str, int]]
    uses: list[UseRule]
    effect: Fn | None
    hooks: dict[str, Fn]
    skills: list[SkillRule]
    tags: frozenset[str] = frozenset()
    # what its own judgement hopes for, when that reads nothing but the card judged (`reach.own_judge_hope`): a
    # function of a frame binding `it`, asked while it still waits in a judge area (Decisions.ahead)
    judge_hope: Fn | None = None

    def __post_init__(self) -> None:
        # asked for every card in hand at every window and menu: kept as plain attributes
        self.by_context: dict[str, list[UseRule]] = {}  # context -> its use clauses, in order
        for use in self.uses:
            self.by_context.setdefault(use.context, []).append(use)
        # the clauses the play menu offers (play and recast), each with its position among all the uses
        self.menu: list[tuple[int, UseRule]] = [(i, u) for i, u in enumerate(self.uses)
                                                if u.context in ("play", "recast")]



@dataclass
class GeneralRule:
    ident: str
    name: str
    kingdom: str
    gender: str
    hp: int
    skills: list[SkillRule]
    # every kingdom the general belongs to, `kingdom` first: two for a dual-kingdom general (`: 蜀/群`); the
    # kingdom-limited offers (`random_generals(n, kingdom: 群)`) read it
    kingdoms: list[str] = field(default_factory=list)


def drop_same(items: list[Any], x: Any) -> bool:
    """Remove the first item that is X itself, and say whether there was one. A general card is one object per
    program (the language compares generals by identity, runtime.equals), so this is `remove` without comparing
    a record field by field with every other general in the pool."""
    for i, y in enumerate(items):
        if y is x:
            del items[i]
            return True
    return False


@dataclass
class ValueRule:
    name: str
    params: tuple[str, ...]
    base: Fn
    lower: Fn | None
    upper: Fn | None
    # Compiled rules only: the same as direct functions, f(frame, *arguments) for exactly `params` arguments
    base_direct: Callable[..., Any] | None = None
    lower_direct: Callable[..., Any] | None = None
    upper_direct: Callable[..., Any] | None = None


@dataclass
class ReplaceRule:
    """`replace CARD with CARD [if COND]`: in this mode's deck every copy of `card` is a copy of `by` (same
    suit and rank). The condition (options only) is read once, when the deck is built."""

    card: str  # ident of the card replaced
    by: str | None  # ident of the card that takes its place; None: the copies leave the deck
    condition: Fn | None = None


@dataclass
class ScoreRule:
    """`score ROLE… = EXPR [when COND]` (or `+=`, `-=`): one line of the mode's scoring table, evaluated per
    seat at the end of the game with `player` bound. Per seat, the first `=` line that applies sets the base
    (0 when none does) and every `+=`/`-=` line that applies adds to or takes from it."""

    roles: tuple[str, ...]
    op: str  # = | += | -=
    value: Fn
    condition: Fn | None = None
    line: str = ""


@dataclass
class ModeRule:
    ident: str
    name: str
    players: tuple[int, int]
    options: dict[str, Any]  # name -> default
    roles: list[tuple[int, Fn | None, tuple[str, ...]]]
    leader: str | None
    setup: Fn | None
    triggers: list[TriggerRule]
    wins: list[tuple[tuple[str, ...], Fn]]
    # run once per round instead of the default seat-order round (it plays turns with `take_turn`)
    turn_order: Fn | None = None
    replacements: list[ReplaceRule] = field(default_factory=list)
    scores: list[ScoreRule] = field(default_factory=list)
    # `camp NAME ROLE…`: camp name -> its roles (team-mates); a role in no camp is a camp of its own
    camps: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the direction simultaneous triggers resolve in: counter_clockwise (seat order from the current player)
    trigger_order: str = "counter_clockwise"
    # `solo ROLE…`: each seat of these roles is a side of its own: a win for the role goes to its living seats
    solo: tuple[str, ...] = ()

    def camp_of(self, role: str) -> str:
        """The camp a role belongs to (the role itself when the mode declares no camp for it)."""
        for name, roles in self.camps.items():
            if role in roles:
                return name
        return role

    def winner_label(self, winners: tuple[str, ...]) -> str:
        """How a result is named in summaries: the camp, when the winning roles are exactly one camp's roles."""
        for name, roles in self.camps.items():
            if set(winners) == set(roles):
                return name
        return "+".join(winners)

    def sides_named(self) -> list[tuple[str, ...]]:
        """The sides summaries show, each as the one-part name `winner_label` gives it (camps) or its roles."""
        if self.camps:
            return [(name,) for name in self.camps]
        return [roles for roles, _ in self.wins]

    def sides(self) -> list[tuple[str, ...]]:
        """Roles that are on one side, for agents: the declared camps, else the roles of each `win` line. A solo
        role is on no such side (each of its seats is a side alone, rival even to its own role's other seats)."""
        groups = [tuple(r) for r in self.camps.values()] if self.camps else [roles for roles, _ in self.wins]
        if not self.solo:
            return groups
        shared = (tuple(r for r in roles if r not in self.solo) for roles in groups)
        return [roles for roles in shared if roles]

    def winning_seat(self, role: str, alive: bool, winners: tuple[str, ...]) -> bool:
        """Whether a seat of this role (living or not) is among the winners of a result: every seat of a winning
        role, except the dead seats of a solo role (only a solo role's surviving seats win)."""
        return role in winners and (alive or role not in self.solo)


@dataclass
class GlobalRule:
    """A `rule` definition: triggers of the game itself (no owner), active in every mode."""

    ident: str
    name: str
    triggers: list[TriggerRule]


@dataclass
class ProcedureRule:
    """`procedure NAME(params) { … }`: run by a call with only its parameters bound."""

    name: str
    params: tuple[str, ...]
    body: Fn


@dataclass
class Program:
    """Everything a game needs, from one or more .sgs files."""

    cards: dict[str, CardRule]
    generals: dict[str, GeneralRule]
    skills: dict[str, SkillRule]
    modes: dict[str, ModeRule]
    values: dict[str, ValueRule]
    source_hash: str = ""
    rules: dict[str, GlobalRule] = field(default_factory=dict)
    procedures: dict[str, ProcedureRule] = field(default_factory=dict)
    # every skill by id and by name, made on first use (skill_named): not part of what the program is
    skill_index: dict[str, SkillRule] | None = field(default=None, repr=False, compare=False)

    def card_by_name(self, name: str) -> CardRule | None:
        for c in self.cards.values():
            if c.name == name or c.ident == name:
                return c
        return None

    def skill_named(self, name: str) -> SkillRule | None:
        """Any skill of the program by id or display name: top-level skills, then the generals' (in id order),
        then the cards' (a skill a rule names to gain it, copy it or ask about it)."""
        index = self.skill_index
        if index is None:
            index = {}
            every = [*self.skills.values(), *(s for k in sorted(self.generals) for s in self.generals[k].skills),
                     *(s for k in sorted(self.cards) for s in self.cards[k].skills)]
            for s in every:
                index.setdefault(s.ident, s)
                index.setdefault(s.name, s)
            self.skill_index = index
        return index.get(name)


EQUIPMENT = ("weapon", "armor", "defensive_horse", "offensive_horse")


def default_uses(category: str) -> list[UseRule]:
    """Equipment needs no use clause: it is used in the play phase on oneself, which equips it."""
    if category in EQUIPMENT:
        return [UseRule("play", None, None, "self", 1, 1, False, None, None)]
    return []
