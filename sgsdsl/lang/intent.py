"""What a choice of characters is for, read from what its rule then does with the one chosen.

Agents aim a choice of characters by its words: the skill's `tags`, or the choice's own `tags:`/`hints:`. A
designer who writes neither (马良's 应援: `let p = choose(owner, others(owner))`, then `obtain(p, event.card)`) left
the heuristic agent reading the choice as harmful, its default, so the card went to a foe and the skill was worth
less than nothing. The rule says what the choice is for: the one chosen is then passed to actions whose parameters
the registry marks (`PARAM_EFFECTS`: `obtain`'s player is helped, `damage`'s target attacked). When every such use
of it agrees, the choice gets those words as if its rule had written them (`tags: "help"`), once, before either
back end builds the rule, so the interpreter and the compiled code read the same words.

Only a choice without words of its own, in a body whose skill says nothing of whom it helps or harms (or in a
card's effect, which its card's `tags` never reached), is read; a choice whose one chosen is used both ways (helped
and hampered), or in no marked way, keeps no words. The skill itself is then read by the word its choices agree on,
or, choosing nobody, by what it does for its owner (`infer_skill_words`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from copy import deepcopy
from dataclasses import dataclass, field, fields, replace

from ..engine.registry import (
    AMOUNT_EFFECTS,
    CANCEL_EFFECTS,
    CANCEL_EFFECTS_BY_FAMILY,
    ENGINE_VALUES,
    FIELD_EFFECTS,
    FIELD_EFFECTS_BY_FAMILY,
    OTHER_PARTY_FIELDS,
    PARAM_EFFECTS,
    PARAM_EFFECTS_BY_FAMILY,
    PARAM_EFFECTS_BY_VALUE,
    PARAM_EFFECTS_WITH_OWNER,
    PRIMITIVES,
    SLIGHT_EFFECTS,
    SUBJECT_FIELDS,
    TIMINGS,
    VALUE_EFFECTS,
)
from ..engine.registry.core import (
    CANCELS,
    FURTHERS,
    NEUTRAL,
    NEXT,
    PAY,
    RESCUE_TIMINGS,
    REWARDED,
    SPENDS,
    SWAP,
    WANE,
    EngineValue,
)
from . import ast
from .ast_walk import CHOICES, calls, fixed_seat, is_seats, kwarg, parts

# the words that say whom a choice is for: a skill carrying one of them has said it already
AIMING_WORDS = frozenset({"help", "heal", "draw", "attack", "control", "risk", NEUTRAL, SWAP})
HELPING = frozenset({"help"})
# the mark of a slight effect's word among a character's effects (`SLIGHT_EFFECTS`: `~control` for a chain): any sure
# word outweighs it (`_sure`)
SLIGHT = "~"
# (SWAP, the word of a hand swapped with the owner's, `PARAM_EFFECTS_WITH_OWNER`, is weighed by the hands' sizes, so
# it is the chooser's own hand it is swapped with, never another's)
# the words a card's `tags` say of what it does to its targets, as the word for the one it is used on
_CARD_WORDS = (("attack", "attack"), ("control", "control"), ("help", "help"), ("heal", "help"), ("draw", "help"))


# what an action does for the skill's own owner when the rule passes `owner` to it: a heal, cards gained, or a price
# paid in HP (the words of a skill that helps itself: 养生 recovers, 博学 pays 1 HP to draw)
SELF_EFFECTS: dict[tuple[str, str], str] = {
    ("recover", "target"): "heal", ("draw", "player"): "draw", ("obtain", "player"): "draw",
    ("lose_hp", "player"): "risk", ("damage", "target"): "risk", ("transfer_damage", "to"): "risk",
}
OWNER = frozenset({"owner"})

# What a branch does to the one who chose it, per action parameter the chooser is passed to, besides SELF_EFFECTS
# (a heal, cards gained, a price in HP): cards it pays (discarded by it, given away by it).
CHOOSER_PRICES: dict[tuple[str, str], str] = {("discard", "by"): SPENDS, ("give", "from_player"): SPENDS}
# What raising or lowering an event's amount by a literal (`event.amount += 1`) does for the owner its event befalls
# (the field the trigger's condition pins to the owner): its own draw raised is a `draw`, lowered a card it does not
# get, a price (`spends`); (the timing, the field) -> (raised, lowered). Read where each option of a choice leads
# (`_branch_words`): a designer's 将驰, "in your draw phase, draw 1 more and use no 杀, or draw 1 fewer for one more
# 杀", was chosen at random.
AMOUNT_SELF_EFFECTS: dict[tuple[str, str], tuple[str, str]] = {("drawing", "player"): ("draw", SPENDS)}
# What a phase of its own cancelled before it starts (`on before_phase where event.phase == discard … { cancel(event)
# }`) does to the one whose phase it is: a discard phase skipped keeps its cards (a help), a draw or play phase
# skipped costs it them (a hampering). A designer's 宽容 ("another skips its next discard phase", a mark read by
# such a trigger) read as nothing and spared foes' cards 1,165 times against friends' 72.
PHASE_SKIP_EFFECTS: dict[str, str] = {"discard": "help", "draw": "control", "play": "control"}
# (WANE is the word of a maximum HP lost by the chooser, `change_max_hp(p, -1)` with p the chooser; SPENDS, of cards
# it pays)


@dataclass
class Lexicon:
    """What the reading knows of the program besides the registry's tables: what using a card of each family on a
    character does to it (`family_words`), and the program's procedures, whose bodies a call of one is read
    through (`hurt(p)` does to p what `hurt`'s body does to its parameter). Built once per program by each reader
    (the checker, both back ends, the language server, the catalogue), so they all read alike."""

    families: Mapping[str, str] = field(default_factory=dict)
    procedures: Mapping[str, ast.ProcedureDef] = field(default_factory=dict)
    # what raising each of the program's own values does to the character passed at a position of it, as
    # `VALUE_EFFECTS` says of the engine's (`limit_value_words`: `slash_limit(user)`, a card's use limit, helps)
    values: Mapping[tuple[str, int], str] = field(default_factory=dict)
    # per card by its name, the marks on a use of it that its effect reads as one way for it to take effect
    # (`furthering_marks`: 杀's "unanswerable")
    furthering: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # reading a trigger's body: its timing, and the card families its condition pins per field of the event
    # (`event.card is 杀`), for a field of the event set to the one chosen (`at`, `field_words`)
    timing: str | None = None
    pinned: Mapping[str, str] = field(default_factory=dict)
    # the names the skill's owner goes by in the body being read: `owner`, and any the body binds only to it
    # (`let me = owner`, `owner_names`); in a procedure's body, `owner` again (a parameter of that name)
    owners: frozenset[str] = OWNER
    # the skill being read: what each mark it sets on a character does to it, read from its modifiers (`mark_words`)
    marks: Mapping[str, str] = field(default_factory=dict)
    # the body being read: each name it binds once, to cards that plainly are one character's (`let c =
    # choose_card_from(owner, p)`), with that character (`_held_cards`, read by `_whose_cards`)
    held: Mapping[str, ast.Expr] = field(default_factory=dict)
    # the same for cards of a judge area (`let c = choose(owner, judge_cards(p))`): a delayed card there is aimed
    # at its holder, so one taken out of it is a harm lifted (`_cleared_from`)
    judged: Mapping[str, ast.Expr] = field(default_factory=dict)
    # reading a trigger's body: the fields of its event its condition pins to the owner (`event.player == owner`)
    owned: frozenset[str] = frozenset()
    _effects: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict, repr=False)
    _self: dict[tuple[str, frozenset[str]], frozenset[str]] = field(default_factory=dict, repr=False)
    _branch: dict[tuple[str, frozenset[str]], frozenset[str]] = field(default_factory=dict, repr=False)
    _reading: set[str] = field(default_factory=set, repr=False)

    @classmethod
    def of(cls, cards: Iterable[ast.CardDef], procedures: Iterable[ast.ProcedureDef]) -> Lexicon:
        """The lexicon of a program's cards and procedures (the first procedure of a name, as the checker keeps)."""
        table: dict[str, ast.ProcedureDef] = {}
        for pr in procedures:
            table.setdefault(pr.name.text, pr)
        cards = list(cards)
        return cls(family_words(cards), table, limit_value_words(cards), furthering=furthering_marks(cards))

    def of_skill(self, s: ast.SkillDef) -> Lexicon:
        """This lexicon reading skill S's bodies: with what each mark S sets means (`mark_words`)."""
        marks = mark_words(s, self.values)
        return self if marks == self.marks else replace(self, marks=marks)

    def at(self, trigger: ast.Trigger) -> Lexicon:
        """This lexicon reading TRIGGER's body (the caches shared: a procedure's body never names the event)."""
        return replace(self, timing=trigger.timing.text, pinned=_pinned_families(trigger.where),
                       owned=frozenset(_owner_fields(trigger.where))).reading(trigger.body)

    def reading(self, body: ast.Node) -> Lexicon:
        """This lexicon reading BODY, a skill's or a card's: with the names its owner goes by there (`owner_names`)."""
        owners = owner_names(body)
        held = _held_cards(body)
        judged = _held_cards(body, _judge_holder)
        if owners == self.owners and held.keys() == self.held.keys() \
                and all(held[k] is self.held[k] for k in held) and judged.keys() == self.judged.keys() \
                and all(judged[k] is self.judged[k] for k in judged):
            return self
        return replace(self, owners=owners, held=held, judged=judged)

    def _inside(self) -> Lexicon:
        """This lexicon reading a procedure's body, where only its parameters are bound."""
        return self if self.owners == OWNER and not self.held and not self.judged \
            else replace(self, owners=OWNER, held={}, judged={})

    def field_words(self, target: ast.Attr) -> str | None:
        """What setting this field of the event to a character does to it (`FIELD_EFFECTS`; `FIELD_EFFECTS_BY_FAMILY`
        when the trigger's condition pins the card's family), in the trigger being read; None elsewhere."""
        if self.timing is None or not _is_one_of(target.obj, {"event"}):
            return None
        key = (self.timing, target.name.text)
        word = FIELD_EFFECTS.get(key)
        card = FIELD_EFFECTS_BY_FAMILY.get(key)
        if word is None and card is not None and card in self.pinned:
            word = self.families.get(self.pinned[card])
        return word

    def procedure(self, node: ast.Node) -> ast.ProcedureDef | None:
        """The procedure a call runs, when NODE is a call of one of the program's procedures."""
        if isinstance(node, ast.Call) and node.ref == "procedure":
            return self.procedures.get(node.func.text)
        return None

    def effects(self, pr: ast.ProcedureDef, param: str) -> frozenset[str]:
        """The words of every marked use that PR's body makes of its parameter PARAM (`_effects_on`, through the
        procedures it calls in turn); "?" when the body binds the name afresh, or when PR is being read already
        (a procedure that calls itself: the checker refuses it, the language server may be shown one)."""
        key = (pr.name.text, param)
        got = self._effects.get(key)
        if got is None:
            inside = self._inside()
            got = self._guarded(pr, lambda: frozenset(_effects_on(param, pr.body.stmts, inside)))
            self._effects[key] = got
        return got

    def param_words(self, pr: ast.ProcedureDef) -> dict[str, str]:
        """Per parameter of PR, the words its body's uses of it agree on (`_agreed`): what a call does to the
        character passed there, as a primitive's marked parameter would say; parameters read no way are left out."""
        agreed = ((p.name.text, _agreed(set(self.effects(pr, p.name.text)))) for p in pr.params)
        return {param: word for param, word in agreed if word is not None}

    def self_words(self, pr: ast.ProcedureDef, owners: frozenset[str]) -> frozenset[str]:
        """What PR's body does for the skill's owner when the parameters OWNERS are given the owner
        (`_self_words`): "?" for what it does to anyone else."""
        key = (pr.name.text, owners)
        got = self._self.get(key)
        if got is None:
            inside = self._inside()
            got = self._guarded(pr, lambda: frozenset(_self_words(pr.body, inside, owners)))
            self._self[key] = got
        return got

    def branch_words(self, pr: ast.ProcedureDef, choosers: frozenset[str]) -> frozenset[str]:
        """What PR's body does to the one who chose an option whose branch calls it (passed to the parameters
        CHOOSERS) and to anyone else (`_branch_words`): a branch that calls `punish(p)` reads as that body does."""
        key = (pr.name.text, choosers)
        got = self._branch.get(key)
        if got is None:
            inside = self._inside()
            got = self._guarded(pr, lambda: frozenset(_branch_words(pr.body.stmts, choosers, inside)))
            self._branch[key] = got
        return got

    def _guarded(self, pr: ast.ProcedureDef, read: Callable[[], frozenset[str]]) -> frozenset[str]:
        name = pr.name.text
        if name in self._reading:
            return frozenset({"?"})
        self._reading.add(name)
        try:
            return read()
        finally:
            self._reading.discard(name)


_PLAIN = Lexicon()


def infer_skill_words(s: ast.SkillDef, values: Mapping[str, ast.ValueDef],
                      lexicon: Lexicon | None = None) -> tuple[str, ...]:
    """Give the choices of the skill's bodies their words (`infer_choice_words`), once, and the words the skill
    itself is read by besides its `tags`: the words its choices were given (`help`: 应援's only choice helps, so "use
    应援?" and its place in the play menu are weighed as a `help` skill's; several, when no choice of characters is
    left without words: 调度's `help` and `control`, used with a friend and a foe within reach); for a skill that
    chooses no character, what it does for its owner (`SELF_EFFECTS`: `heal`, `draw`, and `risk` for a price in HP);
    else none. VALUES: the program's `value` definitions (a choice among what one returns may be of characters);
    LEXICON: what using a card of each family on a character does to it (`family_words`), and the program's
    procedures."""
    lexicon = (lexicon or _PLAIN).of_skill(s)
    if s.inferred_words is None:
        words = frozenset(t.text for t in s.tags)
        readings = skill_readings(s, lexicon)
        bodies = [body for body, _ in readings]
        # (an action whose choice heals the one chosen is a heal as well as a help: read before the choices are
        # given words, as only a choice without words is read)
        heals = any(_heals_the_chosen(a.body) for a in s.actives if not a.granted)
        given: set[str] = set()
        for body, reading in readings:
            given.update(w for _, w in infer_choice_words(body, words, reading))
        wordless = any(_wordless_seat_choice(body, values) for body in bodies)
        if words & AIMING_WORDS or (len(given) > 1 and wordless):
            s.inferred_words = ()
        elif given:
            # (several: each choice is aimed by its own, and the skill is used with a seat for each within reach,
            # 调度's friend to draw and foe to discard; a help that heals the one chosen is a `heal` too, used
            # first while a friend is wounded, as a tagged 青囊 is)
            # (and a choice that costs its chooser cards by the one chosen, `give_cost_hints`: a price in cards,
            # paid only from a surplus, as a written `spends`)
            # (and an action that harms another and is paid for with its owner's own cards: 夜袭, "discard a black
            # hand card, then discard a card of another's", paid its only usable 杀 for the blow; a card paid for a
            # help, 仁德's or 青囊's, is the help's own price)
            costly = any(c.func.text in CHOICES and kwarg(c, "costs") is not None
                         for a in s.actives if not a.granted for c in calls(a.body)) \
                or (bool(given & {"attack", "control"}) and any(
                    SPENDS in _self_words(a.body, lexicon.reading(a.body)) for a in s.actives if not a.granted))
            # (and a harm paid for in its owner's HP, 搏命's "lose 1 HP, then deal 1 damage to one in range": `risk`,
            # used only while healthy; read as a bare `attack`, it was used from 1 HP and killed its owner 83 times
            # in 200 games)
            risky = bool(given & {"attack", "control"}) and any(
                "risk" in _self_words(a.body, lexicon.reading(a.body)) for a in s.actives if not a.granted)
            s.inferred_words = tuple(sorted(given | ({"heal"} if heals and given == {"help"} else set())
                                            | ({SPENDS} if costly else set()) | ({"risk"} if risky else set())))
        elif wordless:
            s.inferred_words = ()  # (a choice of characters left without words: the skill's words would aim it)
        else:
            # what a yes weighs: its own action's words all (an untagged action was used at random), an optional
            # trigger's only a price in HP (untagged, it was always used; `heal` or `draw` would change nothing
            # but how its own choices of cards are read), a compulsory one's none (nothing is asked)
            # (a granted action is another's: its `owner` is not the one who uses it)
            # (and an optional trigger's what it does to the one its event befalls, `subject_words`: 抚恤's draw for
            # another who took damage is a help, to be done for a friend only)
            # (an action's price in cards is left to its play: 养生's card for a heal is worth paying from any hand)
            found = {w for a in s.actives if not a.granted for w in _fixed_seat_words(a.body, values,
                                                                                     lexicon.reading(a.body))
                     if w != SPENDS}
            # (an action that marks its owner for more damage dealt, read through the skill's triggers, strengthens
            # its next blow: `boost`, and its price in cards is read, as a 酒's place is the moment before a 杀)
            boosting = _boosting_marks(s)
            for a in s.actives:
                if not a.granted and boosting and _marks_owner(a.body, boosting, lexicon.reading(a.body).owners):
                    found.add("boost")
                    if SPENDS in _self_words(a.body, lexicon.reading(a.body)):
                        found.add(SPENDS)
            for t in s.triggers:
                if t.optional:
                    found |= subject_words(t, lexicon.at(t))
            if any(_stacks_own_cards(body, reading.reading(body).owners) for body, reading in readings):
                found.add(NEXT)  # (what its card does is the next judgement's: weighed when asked)
            s.inferred_words = () if "?" in found else tuple(sorted(found))
    return s.inferred_words


def grant_words(s: ast.SkillDef, lexicon: Lexicon | None = None) -> tuple[str, ...]:
    """What using a skill's granted action does, read from the side of the one who uses it (`user`): what it does
    for the user (a draw; a price in cards is left to its play) and, when that is all it gains, what it does to the
    one granting it (`owner`), as an action naming one character by its form is read (`_fixed_seat_words`): a
    designer's 纳贤 ("in its play phase, another may give you a hand card, then draw 1") reads `draw help`, and
    黄天 (a 闪 given to the lord) `help`. Before, every seat used a granted action at random, foes feeding the one
    granting it more than friends. None for a skill with written tags, or with anything but granted actions."""
    if s.tags or not s.actives or not all(a.granted for a in s.actives) or s.triggers or s.view_as or s.provides:
        return ()
    lexicon = (lexicon or _PLAIN).of_skill(s)
    subject = ("", OWNER)
    found: set[str] = set()
    for a in s.actives:
        reading = replace(lexicon.reading(a.body), owners=frozenset({"user"}))
        own = set(_self_words(a.body, reading, subject=subject))
        word = _agreed(_subject_effects(a.body, reading, subject)) if own <= {"draw", SPENDS} else None
        if word is None or word == SWAP:
            return ()
        found |= (own - {SPENDS}) | {word}
    return tuple(sorted(found))


def _fixed_seat_words(body: ast.Block, values: Mapping[str, ast.ValueDef], lexicon: Lexicon) -> set[str]:
    """What an action that chooses nobody does for its owner (`_self_words`), and, when it first names one character
    by its form (`fixed_seat`: 忠谏's `let lp = first(alive_with_role(lord))`, its reach) and gains its owner nothing
    but cards, what it does to that one when every such use agrees: a designer's 忠谏 ("give the lord a hand card, then
    draw 1") reads `draw help`, used only by a friend of the lord's. Before, the card given to another read as "?"
    and the skill was used at random, by rebels too."""
    fixed = fixed_seat(body, values)
    subject = ("", frozenset({fixed.name.text})) if fixed is not None else None
    loop = _table_loop(body) if fixed is None else None
    if loop is not None:
        # (a loop over the table's characters, `for p in wounded(players())`: what it does to each, `area` besides,
        # weighed as a card that reaches everyone is; a designer's 普济, "discard two hand cards: every wounded
        # character recovers 1 HP", was used at random, healing foes as often as friends)
        subject = ("", frozenset({loop.var.text}))
    own = set(_self_words(body, lexicon, subject=subject))
    if subject is not None and own <= {"draw", SPENDS}:
        word = _agreed(_subject_effects(body, lexicon, subject))
        if loop is not None and word in ("help", "attack", "control"):
            own |= {"area", "heal" if word == "help" and _recovers(loop) else word}
        elif loop is None and word is not None and word != SWAP:
            own.add(word)
    return own


# the functions giving characters of the whole table, by their first argument's being such a list (none: always)
_TABLE_LISTS = {"players": False, "others": False, "wounded": True}


def _table_loop(body: ast.Block) -> ast.For | None:
    """The first loop of BODY, at any depth, over characters of the whole table (`players()`, `others(owner)`,
    `wounded(players())`)."""
    return next((n for n in _under(body) if isinstance(n, ast.For) and _table_list(n.iterable)), None)


def _table_list(e: ast.Expr) -> bool:
    """Whether E is plainly characters of the whole table, or its wounded (`_table_loop`): a card that reaches
    everyone is weighed by the same seats. A list filtered otherwise (`[q for q in players() if q.hp >= owner.hp]`)
    is not: whom it reaches is not what that weighs."""
    if isinstance(e, ast.ListComp):
        return e.cond is None and isinstance(e.elem, ast.Name) and e.elem.ident == e.var.text \
            and _table_list(e.iterable)
    if not (isinstance(e, ast.Call) and e.ref == "function" and e.func.text in _TABLE_LISTS):
        return False
    return not _TABLE_LISTS[e.func.text] or (bool(e.args) and _table_list(e.args[0]))


def _recovers(loop: ast.For) -> bool:
    """Whether the loop's body heals its character (`recover(p, 1)`)."""
    return any(c.func.text == "recover" and c.ref == "action" and c.args and _is_one_of(c.args[0], {loop.var.text})
               for c in calls(loop.body))


def _heals_the_chosen(body: ast.Block) -> bool:
    """Whether a choice of the body without words is one the rule then heals (`recover(p, 1)`, p the one chosen, or
    each of the characters worked out from it that a loop goes over: `give_group_hints`)."""
    for _, name, rest in _bound_choices(body):
        healed = {name}
        for stmt in rest:
            if isinstance(stmt, ast.For) and any(isinstance(x, ast.Name) and x.ident == name
                                                 for x in _under(stmt.iterable)):
                healed.add(stmt.var.text)
            for c in calls(stmt):
                target = c.args[0] if c.args else kwarg(c, "target")
                if c.func.text == "recover" and c.ref == "action" and target is not None \
                        and _is_one_of(target, healed):
                    return True
    return False


def _under(e: ast.Node) -> Iterator[ast.Node]:
    """E and every part of it."""
    yield e
    for part in parts(e):
        yield from _under(part)


def skill_readings(s: ast.SkillDef, lexicon: Lexicon | None = None) -> list[tuple[ast.Block, Lexicon]]:
    """The bodies of a skill that may make choices (its triggers', its actions' and its provides'), each with the
    lexicon it is read with: a trigger's knows its event (`Lexicon.at`)."""
    lexicon = (lexicon or _PLAIN).of_skill(s)
    return [*((t.body, lexicon.at(t)) for t in s.triggers), *((a.body, lexicon.reading(a.body)) for a in s.actives),
            *((p.body, lexicon.reading(p.body)) for p in s.provides)]


def owner_names(body: ast.Node) -> frozenset[str]:
    """`owner`, and each name the body binds to the owner alone (`let me = owner`, or to such a name), never to
    anything else: what is done to `me` is done to the owner."""
    return _names_for(body, OWNER, lambda e, names: _is_one_of(e, names))


def _names_for(body: ast.Node, names: frozenset[str],
               same: Callable[[ast.Expr, frozenset[str]], bool]) -> frozenset[str]:
    """NAMES, and each name the body binds only to what SAME says is one of them (given the names so far)."""
    lets = _lets(body)
    while True:
        grown = names | {name for name, values in lets.items() if all(same(v, names) for v in values)}
        if grown == names:
            return names
        names = grown


def _lets(body: ast.Node) -> dict[str, list[ast.Expr]]:
    """Each name BODY binds with `let`, with every value it is bound to."""
    lets: dict[str, list[ast.Expr]] = {}
    stack: list[ast.Node] = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Let):
            lets.setdefault(node.name.text, []).append(node.value)
        stack.extend(parts(node))
    return lets


# the one a trigger's event befalls: the event's field naming it (as a confirm names its subject: the event's
# `target`, else its `player`, else its `user`) and the names the body binds to that field alone
# (`let p = event.target`)
Subject = tuple[str, frozenset[str]]


def _befallen_field(timing_name: str | None) -> str | None:
    """The field naming the one an event of this timing befalls: the first of its `SUBJECT_FIELDS` it has."""
    timing = TIMINGS.get(timing_name) if timing_name is not None else None
    return next((f for f in SUBJECT_FIELDS if timing is not None and timing.fields.get(f) == "player"), None)


def event_subject(t: ast.Trigger) -> Subject | None:
    """The one T's event befalls, as the engine names it when it asks "use …?" (`Request.subject`): the first of the
    event's `SUBJECT_FIELDS` it has (`target`, `player`, `user`, `killer`); None for an event with none."""
    timing = TIMINGS.get(t.timing.text)
    field_name = _befallen_field(t.timing.text)
    owned = _owner_fields(t.where)
    if field_name is not None and field_name in owned:
        # an event befalling the owner itself: a yes is about the event's other party (`OTHER_PARTY_FIELDS`: the
        # user of a trick aimed at it), else its own gain or price, read as such
        field_name = next((f for f in OTHER_PARTY_FIELDS if f != field_name and f not in owned and timing is not None
                           and timing.fields.get(f) == "player"), None)
    if timing is not None and (field_name is None or not _reads_field(t.body, field_name)):
        # a body that acts on none of it but on one other character of its event is about that one (a designer's
        # 援袭: "after another's 杀 targets a third, you may use a 杀 on the attacker"; 效仿: "after another's 杀,
        # you may use a 杀 on its target", a field of several, `event.targets`)
        others = [f for f, typ in timing.fields.items() if typ in ("player", "players") and f not in owned
                  and f != field_name and _reads_field(t.body, f)]
        if len(others) == 1:
            field_name = others[0]
    if field_name is None:
        return None
    return _field_subject(t.body, field_name)


def subject_field(t: ast.Trigger) -> str | None:
    """The field of T's event naming the one its question is about (`event_subject`), for the engine to name it
    (`TriggerRule.subject`)."""
    subject = event_subject(t)
    return subject[0] if subject is not None else None


def _reads_field(body: ast.Node, field_name: str) -> bool:
    """Whether BODY reads the event's field FIELD_NAME (`event.user`)."""
    return any(isinstance(n, ast.Attr) and n.name.text == field_name and _is_one_of(n.obj, {"event"})
               for n in _under(body))


def _event_equalities(where: ast.Expr | None) -> Iterator[tuple[str, ast.Expr]]:
    """(the field, what it equals) for each `event.FIELD == X` (or `X == event.FIELD`) among a condition's top-level
    `and`s, in the order written."""
    stack = [where]
    while stack:
        e = stack.pop()
        if isinstance(e, ast.BinOp) and e.op == "and":
            stack += [e.right, e.left]
        elif isinstance(e, ast.BinOp) and e.op == "==":
            for one, other in ((e.left, e.right), (e.right, e.left)):
                if isinstance(one, ast.Attr) and _is_one_of(one.obj, {"event"}):
                    yield one.name.text, other


def _owner_fields(where: ast.Expr | None) -> set[str]:
    """The fields of the event its trigger's condition requires to be the owner (`event.player == owner`, a term of
    its top-level `and`s)."""
    return {name for name, other in _event_equalities(where) if _is_one_of(other, OWNER)}


def _is_subject(e: ast.Expr, subject: Subject) -> bool:
    """Whether E is the event's field naming the one it befalls (`event.target`), or a name bound to it alone; of a
    field naming several (`event.targets`), the first of them (`first(event.targets)`, or the first of those a
    comprehension keeps: `first([q for q in event.targets if q.alive])`), as the engine names it."""
    field_name, names = subject
    if isinstance(e, ast.Call) and e.func.text == "first" and e.ref == "function" and len(e.args) == 1:
        listed = e.args[0].iterable if isinstance(e.args[0], ast.ListComp) else e.args[0]
        return _is_field(listed, field_name)
    return _is_one_of(e, names) or _is_field(e, field_name)


def _is_field(e: ast.Expr, field_name: str) -> bool:
    """Whether E is the event's field FIELD_NAME (`event.target`)."""
    return isinstance(e, ast.Attr) and e.name.text == field_name and _is_one_of(e.obj, {"event"})


def subject_words(t: ast.Trigger, lexicon: Lexicon) -> set[str]:
    """What a yes to an optional trigger is weighed by (its owner's `risk`, "?" for what it does to a third), and,
    when it gains its owner nothing, the word for what it does to another its event befalls when every such use
    agrees (`_agreed`): 抚恤 ("when
    another character takes damage, you may let it draw 1") helps it, 护卫 (cancel a 杀 aimed at another) helps it.
    Read as neither, such a trigger was always used, a card drawn or a 杀 stopped for a foe as often as a friend."""
    subject = event_subject(t)
    own = set(_self_words(t.body, lexicon, subject=subject))
    found = own & {"risk", SPENDS, "?"}
    # (with a gain of its owner's besides, it is weighed as before; but not when the owner also pays for it in HP
    # or cards: a designer's 分忧, "take another's damage in its place, then draw 1", read by its draw alone as
    # nothing, took foes' damage 454 times in 615)
    if subject is not None and (own <= {"risk", SPENDS} or bool(own & {"risk", SPENDS}) and "?" not in own):
        word = _agreed(_subject_effects(t.body, lexicon, subject))
        if word is None and _rescues(t, subject):
            word = "help"
        if word is None and _befallen_field(t.timing.text) == subject[0] and _cancels_a_card(t, lexicon):
            word = CANCELS
        if word is not None and word != SWAP:
            found.add(word)
        if word is not None and _befallen_field(t.timing.text) == subject[0] \
                and any(_furthered(c, lexicon) is not None for c in calls(t.body)):
            found.add(FURTHERS)  # (worth a yes only where the one it befalls could answer the card)
    return found


def _furthered(node: ast.Call, lexicon: Lexicon) -> str | None:
    """The family of the card whose use NODE marks with a mark that card's effect reads as a way to go ahead
    (`mark(event.use, "unanswerable")` at a 杀's `targeted`: `furthering_marks`); None for any other node."""
    if node.func.text != "mark" or node.ref != "action" or len(node.args) != 2 or not _is_field(node.args[0], "use"):
        return None
    name, card = node.args[1], CANCEL_EFFECTS_BY_FAMILY.get(lexicon.timing or "")
    family = lexicon.pinned.get(card) if card is not None else None
    return family if family is not None and isinstance(name, ast.Lit) \
        and name.value in lexicon.furthering.get(family, ()) else None


def _cancels_a_card(t: ast.Trigger, lexicon: Lexicon) -> bool:
    """Whether T cancels its event outright at a timing that stops a card on the one the event befalls
    (`CANCEL_EFFECTS_BY_FAMILY`), the card's family not told by its condition: what a yes does is the card's
    undoing, weighed by the card when asked (`cancels`). A designer's 破咒 ("before a trick takes effect on another,
    you may discard a card: it has no effect on it"), read as nothing, stopped harmful tricks on foes 299 times and
    helpful ones on friends 28, against 174 good uses."""
    if t.timing.text not in CANCEL_EFFECTS_BY_FAMILY or _cancelled(lexicon) is not None:
        return False
    return any(c.func.text == "cancel" and c.ref == "action" and c.args and _is_one_of(c.args[0], {"event"})
               for stmt in t.body.stmts for c in ([stmt.call] if isinstance(stmt, ast.CallStmt) else []))


def _rescues(t: ast.Trigger, subject: Subject) -> bool:
    """Whether T, heard while the one its event befalls is dying (`RESCUE_TIMINGS`), recovers that one: a rescue,
    a help whatever price the rescued pays besides (a designer's 续命, "another who is dying loses 1 maximum HP and
    recovers to 1 HP", read both ways and so as nothing, was used on every dying foe)."""
    if t.timing.text not in RESCUE_TIMINGS:
        return False
    for c in calls(t.body):
        target = c.args[0] if c.args else kwarg(c, "target")
        if c.func.text == "recover" and c.ref == "action" and target is not None and _is_subject(target, subject):
            return True
    return False


def _subject_effects(body: ast.Block, lexicon: Lexicon, subject: Subject) -> set[str]:
    """The words of every marked use the body makes of the one its event befalls, and of the event cancelled
    (`CANCEL_EFFECTS`, `CANCEL_EFFECTS_BY_FAMILY`)."""
    found: set[str] = set()
    # (the event's other party, `OTHER_PARTY_FIELDS`, is not the one a cancelled event would have befallen)
    befallen = _befallen_field(lexicon.timing) == subject[0]
    for node in calls(body):
        pr = lexicon.procedure(node)
        marks = {} if pr is not None else _marks(node, lexicon)
        for param, arg in _passed(node, lexicon) if pr is not None or marks else ():
            if any(_is_subject(one, subject) for one in _one_or_listed(arg)):
                found.update(lexicon.effects(pr, param) if pr is not None
                             else {_as_effect(node, marks.get(param, "?"))})
        if befallen and node.func.text == "cancel" and node.ref == "action" and node.args \
                and _is_one_of(node.args[0], {"event"}):
            found.add(_cancelled(lexicon) or "?")
        family = _furthered(node, lexicon) if befallen else None
        if family is not None:
            # (a mark on the use of the card aimed at it that the card's effect reads as a way to go ahead: what
            # the card does to it, done surely, 助攻's "unanswerable" on a 杀)
            found.add(lexicon.families.get(family) or "?")
        if befallen and node.func.text == "transfer_damage" and node.ref == "action":
            to = node.args[1] if len(node.args) > 1 else kwarg(node, "to")
            if to is not None and not _is_subject(to, subject):
                found.add(_cancelled(lexicon) or "?")  # (its damage passed to another: prevented for the one it befell)
        cleared = _cleared_from(node, lexicon.judged)
        whose = _discarded_from(node, lexicon.held) if cleared is None else None
        if whose is not None and _is_subject(whose, subject):
            found.add("control")
        if cleared is not None and _is_subject(cleared, subject):
            found.add("help")
    # (its event's amount raised or lowered: what `AMOUNT_EFFECTS` says of that to the one in the subject's field;
    # a designer's 断粮, "when another draws in its draw phase, you may make it draw one fewer", hampers it)
    amount = AMOUNT_EFFECTS.get((lexicon.timing or "", subject[0]))
    sign = _amount_change(body) if amount is not None else 0
    if amount is not None and sign:
        found.add(amount[0] if sign > 0 else amount[1])
    for moved in _assignments(body):
        # (its field of the event set to another: the event no longer befalls it, as if cancelled for it)
        if befallen and isinstance(moved.target, ast.Attr) and _is_subject(moved.target, subject) \
                and not _is_subject(moved.value, subject) and lexicon.field_words(moved.target) is not None:
            found.add(_cancelled(lexicon) or "?")
    return found


def _assignments(node: ast.Node) -> Iterator[ast.Assign]:
    """Every plain assignment (`x = …`, not `+=`) in NODE, in the order written."""
    stack: list[ast.Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Assign) and n.op == "=":
            yield n
        stack.extend(reversed(list(parts(n))))


def _cancelled(lexicon: Lexicon) -> str | None:
    """The word for the one an event befalls when the trigger being read cancels it, by its timing."""
    if lexicon.timing is None:
        return None
    word = CANCEL_EFFECTS.get(lexicon.timing)
    card = CANCEL_EFFECTS_BY_FAMILY.get(lexicon.timing)
    if word is None and card is not None and card in lexicon.pinned:
        done = lexicon.families.get(lexicon.pinned[card])
        word = "help" if done in ("attack", "control") else "control" if done == "help" else None
    return word


def _pinned_families(where: ast.Expr | None) -> dict[str, str]:
    """The card family the condition requires of each card field of the event (`event.card is 杀`, a term of its
    top-level `and`s)."""
    out: dict[str, str] = {}
    stack = [where]
    while stack:
        e = stack.pop()
        if isinstance(e, ast.BinOp) and e.op == "and":
            stack += [e.right, e.left]
        elif isinstance(e, ast.IsFamily) and isinstance(e.operand, ast.Attr) \
                and _is_one_of(e.operand.obj, {"event"}):
            out.setdefault(e.operand.name.text, e.family.text)
    return out


def _wordless_seat_choices(body: ast.Block, values: Mapping[str, ast.ValueDef]) -> Iterator[ast.Call]:
    """The body's choices of characters (by anyone) that carry no words, in the order it runs."""
    for call in calls(body):
        items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
        if _wordless_choice(call) and items is not None and is_seats(items, values):
            yield call


def _wordless_seat_choice(body: ast.Block, values: Mapping[str, ast.ValueDef]) -> bool:
    return next(_wordless_seat_choices(body, values), None) is not None


def _self_words(node: ast.Node, lexicon: Lexicon, owners: frozenset[str] | None = None,
                subject: Subject | None = None) -> Iterator[str]:
    """The words of what the body does for its owner (`SELF_EFFECTS`, and `spends` for cards it pays:
    `CHOOSER_PRICES`); "?" when it helps or harms anyone else
    too (点兵: every seat at or above the owner's HP draws): what a yes weighs is then not the owner's alone.
    OWNERS: the names the owner goes by (the lexicon's; in a procedure's body, the parameters it was passed to);
    SUBJECT: in an optional trigger, the one its event befalls, whose uses are read apart (`subject_words`)."""
    owners = lexicon.owners if owners is None else owners
    pr = lexicon.procedure(node)
    if pr is not None:
        assert isinstance(node, ast.Call)
        yield from lexicon.self_words(pr, frozenset(param for param, arg in _passed(node, lexicon)
                                                    if _is_one_of(arg, owners)))
    marks = {} if pr is not None else _marks(node, lexicon)
    if marks:
        assert isinstance(node, ast.Call)
        for param, arg in _passed(node, lexicon):
            if param not in marks:
                continue
            word = SELF_EFFECTS.get((node.func.text, param)) or CHOOSER_PRICES.get((node.func.text, param))
            if word == SPENDS and _of_another(node, owners, lexicon.held):
                continue  # (another's card discarded by the owner, 过河拆桥's way: no price of its own)
            others = [one for one in _one_or_listed(arg) if not _is_one_of(one, owners)]
            if others and not (subject is not None and all(_is_subject(one, subject) for one in others)):
                yield "?"
            elif not others and word is not None:
                yield word
    if isinstance(node, ast.Assign) and node.op == "=" and _is_one_of(node.value, owners) \
            and isinstance(node.target, ast.Attr):
        # (a field of the event set to the owner itself: 挺身, "when another becomes a 杀's target, you may become
        # its target instead", takes the blow, a price in HP)
        word = lexicon.field_words(node.target)
        if word is not None:
            yield "risk" if word == "attack" else "?"
    for part in parts(node):
        yield from _self_words(part, lexicon, owners, subject)


# the functions that list a character's cards, and the choices that pick among cards
_HOLDINGS = frozenset({"hand", "equips", "judge_cards", "cards_of"})
_CARD_CHOICES = frozenset({"choose", "choose_many"})


def _of_another(call: ast.Call, owners: frozenset[str], held: Mapping[str, ast.Expr] | None = None) -> bool:
    """Whether the cards a call pays (its first argument) are plainly another's: chosen from another's areas
    (`choose_card_from(owner, p)`), or picked among or listed from another's cards (`hand(p)`), also through a name
    bound to them (HELD). Unsure is no."""
    whose = _whose_cards(call.args[0] if call.args else None, held)
    return whose is not None and not _is_one_of(whose, owners)


def _discarded_from(node: ast.Node, held: Mapping[str, ast.Expr] | None = None) -> ast.Expr | None:
    """Whose cards NODE takes from them: a `discard` of cards that plainly are one character's (`_whose_cards`;
    through a name bound to them, HELD), or an `obtain` of such cards by someone else (易甲 takes another's armour);
    None for any other node."""
    if not (isinstance(node, ast.Call) and node.ref == "action" and node.args):
        return None
    if node.func.text == "discard":
        return _whose_cards(node.args[0], held)
    if node.func.text == "obtain" and len(node.args) > 1:
        whose = _whose_cards(node.args[1], held)
        return whose if whose is not None and not _same_one(whose, node.args[0]) else None
    return None


def _same_one(a: ast.Expr, b: ast.Expr) -> bool:
    """Whether two expressions plainly name the same character: one name, or one field of the event."""
    if isinstance(a, ast.Name) and isinstance(b, ast.Name):
        return a.ident == b.ident and a.ref == b.ref
    return isinstance(a, ast.Attr) and isinstance(b, ast.Attr) and a.name.text == b.name.text \
        and _is_one_of(a.obj, {"event"}) and _is_one_of(b.obj, {"event"})


def _held_cards(body: ast.Node, holder: Callable[..., ast.Expr | None] | None = None) -> dict[str, ast.Expr]:
    """Each name BODY binds once (`let c = choose_card_from(owner, p)`), to cards that plainly are one character's,
    with that character (HOLDER: how that is told, `_whose_cards`; `_judge_holder` for a judge area's)."""
    out: dict[str, ast.Expr] = {}
    for name, bound in sorted(_lets(body).items()):
        whose = (holder or _whose_cards)(bound[0]) if len(bound) == 1 else None
        if whose is not None and not (isinstance(whose, ast.Name) and whose.ident == name):
            out[name] = whose
    return out


def _whose_cards(e: ast.Expr | None, held: Mapping[str, ast.Expr] | None = None) -> ast.Expr | None:
    """The character whose cards E plainly is (`hand(p)`, a choice among them, one picked from p's areas, a name
    bound to such cards in HELD); None when the expression does not say."""
    if held and isinstance(e, ast.Name) and e.ref == ("local", e.ident) and e.ident in held:
        return held[e.ident]
    if isinstance(e, ast.ListComp):
        return _whose_cards(e.iterable, held)
    if isinstance(e, ast.BinOp) and e.op == "+":  # (`hand(p) + equips(p)`: both of one character's)
        left, right = _whose_cards(e.left, held), _whose_cards(e.right, held)
        same = isinstance(left, ast.Name) and isinstance(right, ast.Name) and left.ident == right.ident \
            and left.ref == right.ref
        return left if same else None
    if not isinstance(e, ast.Call) or e.ref not in ("function", "action"):
        return None
    name = e.func.text
    if name == "choose_card_from":
        return e.args[1] if len(e.args) > 1 else kwarg(e, "owner")
    if name in _CARD_CHOICES:
        return _whose_cards(e.args[1] if len(e.args) > 1 else kwarg(e, "items"), held)
    if name in _HOLDINGS:
        return e.args[0] if e.args else kwarg(e, "player")
    return None


def _judge_holder(e: ast.Expr | None, judged: Mapping[str, ast.Expr] | None = None) -> ast.Expr | None:
    """The character whose judge area E's cards plainly are in (`judge_cards(p)`, a choice among them, a name bound
    to such cards in JUDGED); None when the expression does not say."""
    if judged and isinstance(e, ast.Name) and e.ref == ("local", e.ident) and e.ident in judged:
        return judged[e.ident]
    if isinstance(e, ast.ListComp):
        return _judge_holder(e.iterable, judged)
    if not isinstance(e, ast.Call) or e.ref not in ("function", "action"):
        return None
    if e.func.text in _CARD_CHOICES:
        return _judge_holder(e.args[1] if len(e.args) > 1 else kwarg(e, "items"), judged)
    if e.func.text == "judge_cards":
        return e.args[0] if e.args else kwarg(e, "player")
    return None


# the actions that move cards out of where they are: (the argument holding the cards, the one receiving them)
_CARD_MOVES: dict[str, tuple[int, int | None]] = {
    "discard": (0, None), "move_to_judge": (0, 1), "obtain": (1, 0), "put_on_top": (0, None),
    "put_on_bottom": (0, None), "give": (2, 1),
}


def _cleared_from(node: ast.Node, judged: Mapping[str, ast.Expr]) -> ast.Expr | None:
    """Whose judge area NODE takes a card out of (to another's, to the pile, to a hand): a delayed card there is
    aimed at its holder, so that holder is helped (a designer's 移厄, "move a card from a character's judge area to
    another's", lifted 乐不思蜀 off foes 91 times and off a friend twice); None for any other node."""
    if not (isinstance(node, ast.Call) and node.ref == "action"):
        return None
    moved = _CARD_MOVES.get(node.func.text)
    if moved is None or len(node.args) <= moved[0]:
        return None
    whose = _judge_holder(node.args[moved[0]], judged)
    to = moved[1]
    if whose is None or (to is not None and len(node.args) > to and _same_one(node.args[to], whose)):
        return None
    return whose


def infer_choice_words(body: ast.Block | None, skill_words: frozenset[str] = frozenset(),
                       lexicon: Lexicon | None = None) -> list[tuple[ast.Call, str]]:
    """Give each choice of the body without words of its own the words its later use agrees on (as a written
    `tags:` argument); the calls given words, in the order the body runs. Nothing when SKILL_WORDS (the tags of the
    skill whose body it is) already aim its choices. Calling it again changes nothing (a choice given words has
    words of its own)."""
    if body is None:
        return []
    lexicon = (lexicon or _PLAIN).reading(body)
    give_cost_hints(body, lexicon)  # (what a choice of characters costs its chooser, whatever the words)
    give_option_hints(body, lexicon)  # (choices among written options are read whatever the skill's words)
    give_next_hints(body, lexicon)  # (and choices of the cards to put back on top of the pile)
    # (and so are choices the rule then tests by the one chosen: a character's, only where the skill's words do not
    # aim its choices already)
    give_test_hints(body, lexicon, seats=not skill_words & AIMING_WORDS)
    if skill_words & AIMING_WORDS:
        give_pay_hints(body, lexicon)
        return []
    given: list[tuple[ast.Call, str]] = give_group_hints(body, lexicon)
    for call, name, rest in _bound_choices(body):
        words = _agreed(_effects_on(name, rest, lexicon))
        if words is not None:
            given.append((call, words))
    given += _direct_choices(body, lexicon)
    given = [(call, words) for call, words in given if words != SWAP or _chosen_by_owner(call, lexicon.owners)]
    for call, words in given:  # (after reading the whole body: a choice given words is no longer one without)
        call.kwargs.append((ast.Ident(call.span, "tags"), ast.Lit(call.span, "str", words)))
    give_pay_hints(body, lexicon)  # (last: a choice given hints is no longer one the readings above look at)
    return given


def _chosen_by_owner(call: ast.Call, owners: frozenset[str]) -> bool:
    """Whether the owner (by any of its names, OWNERS) makes this choice (`choose(owner, …)`): a hand swapped with
    the owner's is worth what the chooser gains only when the chooser is the owner."""
    chooser = call.args[0] if call.args else kwarg(call, "player")
    return chooser is not None and _is_one_of(chooser, owners)


def read_from_rule(call: ast.Call, tags: ast.Expr) -> bool:
    """Whether a choice's `tags:` were given by this reading rather than written (they sit at the call itself:
    a written argument has a place of its own in the text), for tools that show the two apart (the catalogue)."""
    return tags.span == call.span


def _wordless_choice(e: ast.Node) -> bool:
    return isinstance(e, ast.Call) and e.func.text in CHOICES and e.ref == "action" \
        and kwarg(e, "tags") is None and kwarg(e, "hints") is None


def _direct_choices(node: ast.Node, lexicon: Lexicon) -> list[tuple[ast.Call, str]]:
    """Each choice without words passed straight to a marked parameter (`obtain(choose(owner, others(owner)), c)`),
    or to a procedure's parameter that its body uses in agreed ways, with those words."""
    out: list[tuple[ast.Call, str]] = []
    marks = _marks(node, lexicon)
    if marks:
        assert isinstance(node, ast.Call)
        for param, arg in _passed(node, lexicon):
            for one in _one_or_listed(arg) if param in marks else ():
                if isinstance(one, ast.Call) and one.func.text == "choose" and _wordless_choice(one):
                    out.append((one, marks[param]))
    if isinstance(node, ast.Assign) and node.op == "=" and isinstance(node.value, ast.Call) \
            and node.value.func.text == "choose" and _wordless_choice(node.value):
        word = lexicon.field_words(node.target)
        if word is not None:
            out.append((node.value, word))
    for part in parts(node):
        out += _direct_choices(part, lexicon)
    return out


def _marks(node: ast.Node, lexicon: Lexicon) -> Mapping[str, str]:
    """The words of each parameter of an action's call that says what it does to the character passed
    (`PARAM_EFFECTS`; `PARAM_EFFECTS_BY_VALUE` where the argument it depends on is a literal; `PARAM_EFFECTS_BY_FAMILY`
    where the family is a card whose `tags` say what it does to its targets, the lexicon's families); for a
    procedure's call, the words its body's uses of each parameter agree on; empty for any other node."""
    pr = lexicon.procedure(node)
    if pr is not None:
        return lexicon.param_words(pr)
    if not isinstance(node, ast.Call) or node.ref != "action":
        return {}
    if node.func.text == "mark" and lexicon.marks:
        name = node.args[1] if len(node.args) > 1 else kwarg(node, "name")
        word = lexicon.marks.get(name.value) if isinstance(name, ast.Lit) and name.kind == "str" else None
        return {"holder": word} if word is not None else {}
    marks = PARAM_EFFECTS.get(node.func.text, {})
    by_value = PARAM_EFFECTS_BY_VALUE.get(node.func.text)
    if by_value is not None:
        param, argument, more, less = by_value
        sign = next((_literal_sign(arg) for name, arg in _passed(node, lexicon) if name == argument), 0)
        if sign:
            marks = {**marks, param: more if sign > 0 else less}
    by_family = PARAM_EFFECTS_BY_FAMILY.get(node.func.text)
    if by_family is not None:
        param, argument = by_family
        family = next((arg for name, arg in _passed(node, lexicon) if name == argument), None)
        word = lexicon.families.get(family.ref[1]) if isinstance(family, ast.Name) and family.ref is not None \
            and family.ref[0] == "card" else None
        if word is not None:
            marks = {**marks, param: word}
    with_owner = PARAM_EFFECTS_WITH_OWNER.get(node.func.text)
    if with_owner is not None:
        passed = dict(_passed(node, lexicon))
        for param, (other, with_the_owner, with_another) in with_owner.items():
            if param in passed and other in passed and not _is_one_of(passed[param], lexicon.owners):
                word = with_the_owner if _is_one_of(passed[other], lexicon.owners) else with_another
                if word:
                    marks = {**marks, param: word}
    return marks


def mark_words(s: ast.SkillDef, values: Mapping[tuple[str, int], str] | None = None) -> dict[str, str]:
    """What each mark skill S tests in its modifiers does to the character holding it: a modifier `modify Q(p) by V
    where has_mark(p, "N")` (a term of its condition's top-level `and`s), V a literal, makes N a help or a hampering
    as `VALUE_EFFECTS` says of raising Q for p (lowering it, the opposite); and a trigger of S whose condition tests
    the mark on a character of its event (`has_mark(event.target, "N")`, or on the owner where the condition makes
    that field the owner) and whose body raises or lowers the event's amount by a literal, or cancels the event, as
    `AMOUNT_EFFECTS` says of that field (`_trigger_marks`). What a mark does is what these agree on (`_agreed`: a
    heal stopped and more damage taken, an `attack`); marks read both ways are left out. VALUES: what raising the
    program's own values does, by (value, position) (`limit_value_words`)."""
    found: dict[str, set[str]] = {}
    for name, read in _trigger_marks(s):
        found.setdefault(name, set()).add(read)
    for m in s.modifiers:
        value = ENGINE_VALUES.get(m.quantity.text)
        sign = _literal_sign(m.value) if m.op == "by" else _set_sign(m.value, value)
        params = [p.text for p in m.params]
        if not sign or (value is not None and len(value.params) != len(params)):
            continue
        for holder, name in _marks_tested(m.where):
            if holder in params:
                at = params.index(holder)
                word = VALUE_EFFECTS.get((m.quantity.text, value.params[at])) if value is not None \
                    else (values or {}).get((m.quantity.text, at))
                if word is not None:
                    found.setdefault(name, set()).add(word if sign > 0 else _OPPOSITE[word])
    agreed = ((name, _agreed(words)) for name, words in sorted(found.items()))
    return {name: word for name, word in agreed if word is not None}


_OPPOSITE = {"help": "control", "control": "help"}


def _set_sign(e: ast.Expr, value: EngineValue | None) -> int:
    """How a value set outright to a whole number written out (`modify distance(a, b) to 1`) changes it: 1 above
    what it usually is (`EngineValue.usual`), -1 below, 0 at it or where that is not known."""
    if value is None or value.usual is None or not isinstance(e, ast.Lit) or e.kind != "int":
        return 0
    return (e.value > value.usual) - (e.value < value.usual)


def _trigger_marks(s: ast.SkillDef) -> Iterator[tuple[str, str]]:
    """(mark, word) for each mark a trigger of S tests on a character of its event and whose amount it then changes
    (`mark_words`); or, changing no amount, what its body then does to that character when every such use agrees
    (`PARAM_EFFECTS`: a designer's 祈福, "a blessed character draws 2 at its prepare phase", blesses with a `help`;
    read as nothing, the blessing went to foes 447 times and to friends 12)."""
    for t in s.triggers:
        owned = _owner_fields(t.where)
        tested = []
        for holder, name in _marks_tested(t.where):
            if holder.startswith("event."):
                tested.append((holder[len("event."):], name))
            elif holder == "owner":
                tested += [(f, name) for f in sorted(owned)]
        skipped = PHASE_SKIP_EFFECTS.get(_pinned_phase(t.where) or "") if t.timing.text == "before_phase" else None
        for field_name, name in tested:
            words = AMOUNT_EFFECTS.get((t.timing.text, field_name))
            sign = _amount_change(t.body)
            if skipped is not None and field_name == "player" and sign < 0:
                yield name, skipped  # (its phase cancelled: what losing that phase does to it)
            elif words is not None and sign:
                yield name, words[0] if sign > 0 else words[1]
            elif not sign:
                word = _agreed(_subject_effects(t.body, _PLAIN.at(t), _field_subject(t.body, field_name)))
                if word is not None and word != SWAP:
                    yield name, word


def _pinned_phase(where: ast.Expr | None) -> str | None:
    """The phase the condition requires of its event (`event.phase == discard`, a term of its top-level `and`s)."""
    return next((other.ident for name, other in _event_equalities(where) if name == "phase"
                 and isinstance(other, ast.Name) and other.ref == ("const", other.ident)), None)


def _field_subject(body: ast.Block, field_name: str) -> Subject:
    """The one in the event's field FIELD_NAME, as the subject of BODY: the field and the names bound to it alone."""
    return field_name, _names_for(body, frozenset(), lambda e, names: _is_subject(e, (field_name, names)))


def _boosting_marks(s: ast.SkillDef) -> frozenset[str]:
    """The marks a trigger of S tests on the dealer of damage about to be dealt (its event's `source`, or the owner
    where the condition makes it the source) and whose amount it then raises: the owner's next blow strengthened
    (a designer's 蓄锐: "discard a hand card: your next 杀 this turn deals 1 more damage")."""
    out: set[str] = set()
    for t in s.triggers:
        if AMOUNT_EFFECTS.get((t.timing.text, "source")) is None or _amount_change(t.body) <= 0:
            continue
        owned = _owner_fields(t.where)
        for holder, name in _marks_tested(t.where):
            if holder == "event.source" or (holder == "owner" and "source" in owned):
                out.add(name)
    return frozenset(out)


def _marks_owner(body: ast.Block, names: frozenset[str], owners: frozenset[str]) -> bool:
    """Whether BODY sets one of the marks NAMES on its owner (`mark(owner, "锐", …)`)."""
    for c in calls(body):
        if c.func.text == "mark" and c.ref == "action" and len(c.args) > 1 and _is_one_of(c.args[0], owners) \
                and isinstance(c.args[1], ast.Lit) and c.args[1].value in names:
            return True
    return False


def _amount_change(body: ast.Block) -> int:
    """1 when a body only raises its event's amount by literals (`event.amount += 1`), -1 when it only lowers it or
    cancels the event, 0 otherwise (both, neither, or by an amount worked out at play)."""
    signs: set[int] = set()
    for node in _under(body):
        if isinstance(node, ast.Assign) and isinstance(node.target, ast.Attr) and node.target.name.text == "amount" \
                and _is_one_of(node.target.obj, {"event"}):
            sign = _literal_sign(node.value) if node.op in ("+=", "-=") else 0
            signs.add(sign if node.op == "+=" else -sign)
        elif isinstance(node, ast.Call) and node.func.text == "cancel" and node.ref == "action" and node.args \
                and _is_one_of(node.args[0], {"event"}):
            signs.add(-1)
    return signs.pop() if len(signs) == 1 else 0


def _marks_tested(where: ast.Expr | None) -> list[tuple[str, str]]:
    """(the name tested, the mark) for each `has_mark(NAME, "MARK")` among the top-level `and`s of a condition; a
    field of the event as `event.FIELD`."""
    out: list[tuple[str, str]] = []
    stack = [where]
    while stack:
        e = stack.pop()
        if isinstance(e, ast.BinOp) and e.op == "and":
            stack += [e.right, e.left]
        elif isinstance(e, ast.Call) and e.func.text == "has_mark" and e.ref == "function" and len(e.args) == 2:
            holder, name = e.args
            if not (isinstance(name, ast.Lit) and name.kind == "str"):
                continue
            if isinstance(holder, ast.Name):
                out.append((holder.ident, name.value))
            elif isinstance(holder, ast.Attr) and _is_one_of(holder.obj, {"event"}):
                out.append((f"event.{holder.name.text}", name.value))
    return out


def limit_value_words(cards: Iterable[ast.CardDef]) -> dict[tuple[str, int], str]:
    """(value, position) -> `help` for each of the program's own values that is a card's use limit with the card's
    user passed at that position (`use play limit slash_limit(user) per phase`): raising it lets that character use
    the card more often (a designer's 鼓舞, `modify slash_limit(u) by 1 where has_mark(u, "鼓舞")`)."""
    out: dict[tuple[str, int], str] = {}
    for card in cards:
        for use in card.uses:
            count = use.limit.count if use.limit is not None else None
            if isinstance(count, ast.Call) and count.ref == "value" and count.func.text not in ENGINE_VALUES:
                for at, arg in enumerate(count.args):
                    if isinstance(arg, ast.Name) and arg.ident == "user":
                        out[(count.func.text, at)] = "help"
    return out


def family_words(cards: Iterable[ast.CardDef]) -> dict[str, str]:
    """For each card by its name (a family is always a card's name: 火杀's is 杀), the word for what using it on a
    character does to that character, from the card's `tags` (`attack`, `control`, else `help` for `help`, `heal`
    or `draw`); cards whose tags say none of these are left out."""
    out: dict[str, str] = {}
    for card in cards:
        tags = {t.text for t in card.tags}
        word = next((w for tag, w in _CARD_WORDS if tag in tags), None)
        if word is not None:
            out[card.name.text] = word
    return out


def furthering_marks(cards: Iterable[ast.CardDef]) -> dict[str, frozenset[str]]:
    """For each card by its name, the marks on a use of it (`has_mark(use, "unanswerable")`) that its effect tests
    as one way, not negated, for an `if` to go ahead (a term of the test's top-level `or`s: 杀's "if has_mark(use,
    "unanswerable") or not respond(…) { damage(…) }"). A mark set on such a use furthers what the card does to its
    target (a designer's 助攻: "after another's 杀 targets a third, you may discard a card: it cannot be dodged")."""
    out: dict[str, frozenset[str]] = {}
    for card in cards:
        names: set[str] = set()
        for node in _under(card.effect) if card.effect is not None else ():
            if not isinstance(node, ast.If):
                continue
            stack: list[ast.Expr] = [node.test]
            while stack:
                e = stack.pop()
                if isinstance(e, ast.BinOp) and e.op == "or":
                    stack += [e.right, e.left]
                elif isinstance(e, ast.Call) and e.func.text == "has_mark" and e.ref == "function" \
                        and len(e.args) == 2 and _is_one_of(e.args[0], {"use"}) \
                        and isinstance(e.args[1], ast.Lit) and e.args[1].kind == "str":
                    names.add(e.args[1].value)
        if names:
            out[card.name.text] = frozenset(names)
    return out


def _literal_sign(e: ast.Expr) -> int:
    """1 for a positive whole number or `true` written out (`not false` too), -1 for a negative one or `false`
    (`-1`, `not true`), 0 for zero and for anything worked out at play."""
    op = None
    if isinstance(e, ast.Unary):
        op, e = e.op, e.operand
    if not isinstance(e, ast.Lit):
        return 0
    if e.kind == "bool" and op in (None, "not"):
        value = 1 if e.value else -1
    elif e.kind == "int" and op in (None, "-"):
        value = (e.value > 0) - (e.value < 0)
    else:
        return 0
    return -value if op else value


def _passed(call: ast.Call, lexicon: Lexicon) -> list[tuple[str, ast.Expr]]:
    """(parameter name, argument) of each argument of a primitive's or a procedure's call."""
    pr = lexicon.procedure(call)
    if pr is not None:  # (positional arguments only, one per parameter)
        return [(p.name.text, a) for p, a in zip(pr.params, call.args, strict=False)]
    params = PRIMITIVES[call.func.text].params
    return [*((params[i].name, a) for i, a in enumerate(call.args) if i < len(params)),
            *((k.text, v) for k, v in call.kwargs)]


def _bound_choices(block: ast.Block) -> Iterator[tuple[ast.Call, str, list[ast.Stmt]]]:
    """Each `let NAME = choose…(…)` without words, with the statements of its block that follow it (what may use
    NAME), and each loop over such a choice, with its body (NAME its loop name), in the order the body runs; blocks
    nested in branches and loops too."""
    for i, stmt in enumerate(block.stmts):
        if isinstance(stmt, ast.Let) and _wordless_choice(stmt.value):
            assert isinstance(stmt.value, ast.Call)
            yield stmt.value, stmt.name.text, block.stmts[i + 1:]
        if isinstance(stmt, ast.For) and _wordless_choice(stmt.iterable):  # (`for p in choose_many(…) { … }`)
            assert isinstance(stmt.iterable, ast.Call)
            yield stmt.iterable, stmt.var.text, stmt.body.stmts
        for part in parts(stmt):
            yield from _nested_blocks(part)


def _nested_blocks(node: ast.Node) -> Iterator[tuple[ast.Call, str, list[ast.Stmt]]]:
    if isinstance(node, ast.Block):
        yield from _bound_choices(node)


def _effects_on(name: str, stmts: list[ast.Stmt], lexicon: Lexicon) -> set[str]:
    """The words of every marked parameter NAME (or a loop's name over it, for a choice of several) is passed to in
    STMTS; "?" when NAME is bound afresh there (what follows is another's). A card it discards of its own, itself
    (`discard(choose(p, hand(p)), by: p)`), written in STMTS' own sequence beside a help to it, is the price it pays
    for that help, not a harm (a designer's 劝弃, "a wounded other discards a card, then recovers 1", read as
    neither, healed foes 240 times and friends 75); with no help beside it, it hampers as any discard does."""
    found: set[str] = set()
    paid = False
    for stmt in stmts:
        if isinstance(stmt, ast.Let) and stmt.name.text == name:
            found.add("?")
            break
        if _pays_itself(stmt, name, lexicon):
            paid = True
            continue
        _collect(stmt, {name}, found, lexicon)
    if paid and not (found and "?" not in found and _sure(found) <= HELPING):
        found.add("control")
    return found


def _pays_itself(stmt: ast.Stmt, name: str, lexicon: Lexicon) -> bool:
    """Whether STMT is NAME discarding cards of its own, itself: `discard(CARDS, by: NAME)`, CARDS plainly NAME's
    and reading nothing else done to it (`choose(p, hand(p) + equips(p))`)."""
    if not isinstance(stmt, ast.CallStmt):
        return False
    call = stmt.call
    by = kwarg(call, "by")
    if call.func.text != "discard" or call.ref != "action" or by is None or not _is_one_of(by, {name}):
        return False
    whose = _discarded_from(call, lexicon.held)
    if whose is None or not _is_one_of(whose, {name}):
        return False
    inner: set[str] = set()
    for arg in call.args:
        _collect(arg, {name}, inner, lexicon)
    return not inner


def _collect(node: ast.Node, names: set[str], found: set[str], lexicon: Lexicon) -> None:
    if isinstance(node, ast.For) and _is_one_of(node.iterable, names):
        _collect(node.body, names | {node.var.text}, found, lexicon)
        return
    pr = lexicon.procedure(node)
    if pr is not None:  # (read through its body: every use it makes of the parameter, not only agreed ones)
        assert isinstance(node, ast.Call)
        for param, arg in _passed(node, lexicon):
            if any(_is_one_of(one, names) for one in _one_or_listed(arg)):
                found.update(lexicon.effects(pr, param))
    marks = {} if pr is not None else _marks(node, lexicon)
    if marks:
        assert isinstance(node, ast.Call)
        for param, arg in _passed(node, lexicon):
            if param in marks and any(_is_one_of(one, names) for one in _one_or_listed(arg)):
                found.add(_as_effect(node, marks[param]))
    cleared = _cleared_from(node, lexicon.judged)
    whose = _discarded_from(node, lexicon.held) if cleared is None else None
    if whose is not None and _is_one_of(whose, names):
        found.add("control")  # (its cards discarded by another: `discard(choose(owner, hand(p)), by: owner)`)
    if cleared is not None and _is_one_of(cleared, names):
        found.add("help")  # (a card taken out of its judge area: `move_to_judge(c, q)`, c among `judge_cards(p)`)
    if isinstance(node, ast.Assign) and node.op == "=" and _is_one_of(node.value, names):
        word = lexicon.field_words(node.target)  # (a field of the event set to it: `event.target = p`)
        if word is not None:
            found.add(word)
    for part in parts(node):
        _collect(part, names, found, lexicon)


def _one_or_listed(e: ast.Expr) -> list[ast.Expr]:
    """An argument, or the items of a list written out (`use_virtual(owner, 杀, [p])`'s targets)."""
    return list(e.items) if isinstance(e, ast.ListLit) else [e]


def _is_one_of(e: ast.Expr, names: set[str] | frozenset[str]) -> bool:
    return isinstance(e, ast.Name) and e.ident in names and e.ref == ("local", e.ident)


def _as_effect(call: ast.Node, word: str) -> str:
    """WORD as an effect of CALL on a character: marked slight when the action's effect is only a chance of more to
    come (`SLIGHT_EFFECTS`)."""
    slight = isinstance(call, ast.Call) and call.ref == "action" and call.func.text in SLIGHT_EFFECTS
    return SLIGHT + word if slight and word != "?" else word


def _sure(found: set[str] | frozenset[str]) -> set[str]:
    """The effects that decide what a character met: the sure ones, when there are any; else the slight ones, as
    plain words."""
    sure = {w for w in found if not w.startswith(SLIGHT)}
    return sure if sure else {w[len(SLIGHT):] for w in found}


def _agreed(found: set[str]) -> str | None:
    """The words for a choice whose one chosen met these effects: `help` when it is only helped, `attack` when only
    hurt or hampered and hurt at least once, `control` when only hampered, `swap` when its hand is only swapped with
    the owner's; None when nothing marked, or both. A slight effect (a chain) counts only where nothing sure does."""
    found = _sure(found)
    if not found or "?" in found:
        return None
    if SWAP in found:  # (a hand swapped is weighed at the choice: with anything else done to it, nothing agrees)
        return SWAP if found == {SWAP} else None
    if found <= HELPING:
        return "help"
    if found & HELPING:
        return None
    return "attack" if "attack" in found else "control"


def unread_choices(body: ast.Block | None, values: Mapping[str, ast.ValueDef],
                   lexicon: Lexicon | None = None) -> list[tuple[ast.Call, str]]:
    """Each choice of characters in the body that is still without words once the body has been read
    (`infer_choice_words`), with why the reading gave it none: the checker's note (SGS-W407) to a designer whose
    choice agents cannot aim, and so take as harmful. A choice whose name is bound afresh is read no further."""
    if body is None:
        return []
    lexicon = (lexicon or _PLAIN).reading(body)
    why: dict[int, str] = {}
    for call, name, rest in _bound_choices(body):
        found = _sure(_effects_on(name, rest, lexicon))
        if "?" not in found and found & HELPING and found - HELPING:
            why[id(call)] = "the rule both helps and harms the one chosen"
        elif "?" not in found and SWAP in found:
            why[id(call)] = "the rule swaps the one chosen's hand with the owner's and does more to it" \
                if len(found) > 1 else "the owner does not make the choice, so a hand swapped with the owner's " \
                "is not the chooser's gain"
    nothing = "the rule does nothing with the one chosen that agents can read as a help or a harm"
    return [(call, why.get(id(call), nothing)) for call in _wordless_seat_choices(body, values)]




def give_option_hints(body: ast.Block, lexicon: Lexicon | None = None) -> list[ast.Call]:
    """Give each choice among written options (`choose(p, ["lose 1 HP", "lose 1 max HP"])`) that carries no words
    per-option `hints:` read from the branch each option leads to (`if choose(…) == "lose 1 HP" {…} else {…}`, or a
    name bound to the choice compared in an `if` chain): what the branch does to the chooser (`heal`, `draw`, `risk`
    for a price in HP, `spends` for cards it pays, `wane` for a maximum HP lost) and to anyone else (`help`,
    `attack`, `control`). A random pick lost 董卓 a maximum HP at full health as often as not. Only when every
    option is reached and some branch says something; the calls given hints, in the order the body runs."""
    lexicon = (lexicon or _PLAIN).reading(body)
    given: list[ast.Call] = []
    for call, branches in _option_branches(body):
        chooser = call.args[0] if call.args else kwarg(call, "player")
        if not isinstance(chooser, ast.Name):
            continue
        choosers = lexicon.owners if _is_one_of(chooser, lexicon.owners) else frozenset({chooser.ident})
        words = [" ".join(sorted(_branch_words(stmts, choosers, lexicon))) for stmts in branches]
        if any(words):
            call.kwargs.append((ast.Ident(call.span, "hints"),
                                ast.ListLit(call.span, [ast.Lit(call.span, "str", w) for w in words])))
            given.append(call)
            one = _one_befallen(call, branches, choosers, lexicon, body)
            if one is not None and kwarg(call, "befalls") is None:
                call.kwargs.append((ast.Ident(call.span, "befalls"), ast.ListLit(
                    call.span, [ast.ListLit(call.span, [one]) for _ in branches])))
    return given


def _one_befallen(call: ast.Call, branches: list[list[ast.Stmt]], choosers: frozenset[str], lexicon: Lexicon,
                  body: ast.Block) -> ast.Name | None:
    """The one character every branch of a choice among written options helps or harms, when that is a name the
    body binds once, before the choice (`let p = choose(owner, others(owner))`, then "it draws 2" or "it discards
    2"): the choice then befalls that one whichever option is taken (`befalls:`), and the agent weighs each option's
    words by its side. A designer's 扶抑 made foes draw 2 cards 246 times in 399 uses."""
    found: ast.Name | None = None
    for stmts in branches:
        for stmt in stmts:
            for node in calls(stmt):
                marks = _marks(node, lexicon)
                for param, arg in _passed(node, lexicon) if marks else ():
                    for one in _one_or_listed(arg) if param in marks else ():
                        if _is_one_of(one, choosers):
                            continue
                        if not isinstance(one, ast.Name) or one.ref != ("local", one.ident) \
                                or (found is not None and found.ident != one.ident):
                            return None
                        found = one
    if found is None:
        return None
    bound = [n for n in _under(body) if isinstance(n, ast.Let) and n.name.text == found.ident]
    if len(bound) != 1 or (bound[0].span.line, bound[0].span.col) >= (call.span.line, call.span.col) \
            or found.ident in lexicon.owners:
        return None
    return found


def give_next_hints(body: ast.Block, lexicon: Lexicon | None = None) -> list[ast.Call]:
    """Give the hint `next` to each option of an owner's choice without words among cards from the top of the draw
    pile (`top_cards(N)`, or a name bound only to such cards and to what is left of them, `without(left, c)`) or
    among its own hand and equipment, whose pick the body then puts on top (`put_on_top(kept)`, `kept` bound to
    lists holding it, or the choice written in place): the agent then orders them for the next judgements and draws,
    as a 观星 written with `hints: ["next" for x in left]`. A designer's 窥天 written without them kept the three
    cards in the order offered in 761 uses of 761; a designer's 改命 ("before another's judgements, put a hand card on
    top") put a card at random."""
    lexicon = (lexicon or _PLAIN).reading(body)
    lets = _lets(body)
    tops = [c.args[0] for c in calls(body) if c.func.text == "put_on_top" and c.ref == "action" and c.args]
    given: list[ast.Call] = []
    for top in tops:  # (a choice written in place: `put_on_top([choose(owner, hand(owner))])`)
        for call in _one_or_listed(top):
            if isinstance(call, ast.Call) and call.func.text in CHOICES and call.ref == "action" \
                    and _next_hintable(call, lexicon.owners, lets, own=True):
                _hint_next(call)
                given.append(call)
    for call, name, _ in _bound_choices(body):
        if not _next_hintable(call, lexicon.owners, lets):
            continue
        holding = frozenset({name})
        while True:  # (every name some binding of which holds the pick, or holds a name that does)
            grown = holding | {n for n, values in lets.items() if any(_mentions(v, holding) for v in values)}
            if grown == holding:
                break
            holding = grown
        if any(_mentions(top, holding) for top in tops):
            _hint_next(call)
            given.append(call)
    return given


def _next_hintable(call: ast.Call, owners: frozenset[str], lets: Mapping[str, list[ast.Expr]],
                   own: bool = False) -> bool:
    """Whether a choice may be given `next` hints: the owner's, without words of its own, among cards from the top
    of the draw pile, or (OWN) among the owner's own hand and equipment, worked out without asking anyone."""
    items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
    chooser = call.args[0] if call.args else kwarg(call, "player")
    if kwarg(call, "hints") is not None or kwarg(call, "tags") is not None or items is None or chooser is None \
            or not _chosen_by_owner(call, owners):
        return False
    return _from_the_top(items, lets) or (_pure(items) and _own_holdings(items, chooser))


def _hint_next(call: ast.Call) -> None:
    """Write `hints: ["next" for _ in ITEMS]` into a choice (`_next_hintable`: one with items)."""
    items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
    assert items is not None
    call.kwargs.append((ast.Ident(call.span, "hints"),
                        ast.ListComp(call.span, ast.Lit(call.span, "str", NEXT), ast.Ident(call.span, "_"),
                                     deepcopy(items), None)))


def _stacks_own_cards(body: ast.Block | None, owners: frozenset[str]) -> bool:
    """Whether the body puts cards of its owner's own on top of the draw pile, chosen (a choice hinted `next` among
    the owner's hand and equipment): the skill is then read `next`, used only where its card turns the next
    judgement the way its owner wants (`Request.ahead`)."""
    if body is None:
        return False
    for call in calls(body):
        hints = kwarg(call, "hints")
        items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
        chooser = call.args[0] if call.args else kwarg(call, "player")
        if call.func.text in CHOICES and isinstance(hints, ast.ListComp) and isinstance(hints.elem, ast.Lit) \
                and hints.elem.value == NEXT and items is not None and chooser is not None \
                and _is_one_of(chooser, owners) and _own_holdings(items, chooser):
            return True
    return False


def give_pay_hints(body: ast.Block, lexicon: Lexicon | None = None) -> list[ast.Call]:
    """Give the hint `pay` to each option of a choice without hints among the chooser's own hand and equipment whose
    pick the body then discards or has the chooser give away, when the choice may not be declined and its count is
    fixed (`choose`, or `choose_many` with its least and most the same): which of its cards to part with, the agent
    pays with those it need not keep, whatever the prompt says. A designer's 交易 ("give another a hand card, then
    take one of its cards") gave a card at random, a 桃 to a foe among them; a discard prompted in Chinese was
    answered at random too, where one prompted "discard" was not. The calls given hints, in the order the body
    runs."""
    lexicon = (lexicon or _PLAIN).reading(body)
    given: list[ast.Call] = []
    for call, (name, rest) in _parted_choices(body):
        chooser = call.args[0] if call.args else kwarg(call, "player")
        items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
        if chooser is None or items is None or kwarg(call, "hints") is not None or not _fixed_count(call) \
                or not _pure(items) or not _own_holdings(items, chooser):
            continue  # (the hints work the options out again: only options worked out without asking anyone)
        if any(_parts_with(c, name, chooser) for stmt in rest for c in calls(stmt)):
            call.kwargs.append((ast.Ident(call.span, "hints"),
                                ast.ListComp(call.span, ast.Lit(call.span, "str", PAY), ast.Ident(call.span, "_"),
                                             deepcopy(items), None)))
            given.append(call)
    return given


def _parted_choices(block: ast.Block) -> Iterator[tuple[ast.Call, tuple[str | None, list[ast.Node]]]]:
    """Each choice of the body, with what takes its pick: the name it is bound to (`let cs = choose_many(…)`), or
    the call itself where it is written in place (`discard(choose(…))`); blocks nested in branches and loops too."""
    for inner in _under(block):
        if not isinstance(inner, ast.Block):
            continue
        for i, stmt in enumerate(inner.stmts):
            if isinstance(stmt, ast.Let) and isinstance(stmt.value, ast.Call) and stmt.value.func.text in CHOICES \
                    and stmt.value.ref == "action":
                rest: list[ast.Node] = list(inner.stmts[i + 1:])
                yield stmt.value, (stmt.name.text, rest)
    for call in calls(block):
        if call.func.text in ("discard", "give") and call.ref == "action":
            for arg in call.args:
                for one in _one_or_listed(arg):
                    if isinstance(one, ast.Call) and one.func.text in CHOICES and one.ref == "action":
                        yield one, (None, [call])


def _fixed_count(call: ast.Call) -> bool:
    """Whether a choice takes a fixed number of the options and may not be declined: `choose` not `optional`,
    `choose_many` whose least and most are the same literal or the same name."""
    if call.func.text == "choose":
        optional = kwarg(call, "optional")
        return optional is None or (isinstance(optional, ast.Lit) and optional.value is False)
    low = call.args[2] if len(call.args) > 2 else kwarg(call, "min")
    high = call.args[3] if len(call.args) > 3 else kwarg(call, "max")
    if isinstance(low, ast.Lit) and isinstance(high, ast.Lit):
        return low.value == high.value and low.value != 0
    return isinstance(low, ast.Name) and isinstance(high, ast.Name) and _same_one(low, high)


def _own_holdings(items: ast.Expr, chooser: ast.Expr) -> bool:
    """Whether ITEMS plainly are cards of the chooser's hand and equipment (not its judge area: a card taken out of
    there is a harm lifted, not a price)."""
    whose = _whose_cards(items)
    return whose is not None and _same_one(whose, chooser) \
        and not any(isinstance(c, ast.Call) and c.func.text == "judge_cards" for c in _under(items))


def _parts_with(call: ast.Call, name: str | None, chooser: ast.Expr) -> bool:
    """Whether CALL discards the pick, or has the chooser give it away: the pick bound to NAME, or (None) the choice
    written in place inside CALL."""
    if call.func.text not in ("discard", "give") or call.ref != "action":
        return False
    if call.func.text == "give":
        giver = call.args[0] if call.args else kwarg(call, "from_player")
        if giver is None or not _same_one(giver, chooser):
            return False
        cards = call.args[2] if len(call.args) > 2 else kwarg(call, "cards")
    else:
        cards = call.args[0] if call.args else kwarg(call, "cards")
    if cards is None:
        return False
    if name is None:
        return any(isinstance(one, ast.Call) and one.func.text in CHOICES for one in _one_or_listed(cards))
    return any(isinstance(one, ast.Name) and one.ident == name and one.ref == ("local", name)
               for one in _one_or_listed(cards))


def _from_the_top(e: ast.Expr, lets: Mapping[str, list[ast.Expr]]) -> bool:
    """Whether E plainly is cards from the top of the draw pile: `top_cards(N)`, or a name bound only to such cards
    and to what is left of them once some are taken (`without(left, c)`)."""
    if isinstance(e, ast.Call) and e.ref == "function" and e.func.text == "top_cards":
        return True
    if not (isinstance(e, ast.Name) and e.ref == ("local", e.ident) and e.ident in lets):
        return False
    bound = lets[e.ident]
    return any(_from_the_top(v, {}) for v in bound) and all(
        _from_the_top(v, {}) or (isinstance(v, ast.Call) and v.func.text == "without" and v.args
                                  and _is_one_of(v.args[0], {e.ident})) for v in bound)


def _mentions(e: ast.Node, names: frozenset[str]) -> bool:
    """Whether E reads one of NAMES anywhere inside it."""
    return any(isinstance(n, ast.Name) and n.ident in names for n in _under(e))


# What a branch's words are worth to the owner who chose what leads to it (`give_test_hints`): its own gains (a heal,
# cards drawn) and its acts on others, which the rule's choices of characters aim (a help at a friend, a blow at a
# foe), less its prices (HP, cards, a maximum HP)
_REWARDS = {"heal": 1, "draw": 1, "help": 1, "attack": 1, "control": 1, "risk": -1, SPENDS: -1, WANE: -1}
# the fields that only a card has: a test on them reads the card chosen (a test on `p.hp` reads a character)
_CARD_FIELDS = frozenset({"suit", "rank", "color", "family", "category", "nature", "converted"})


def give_test_hints(body: ast.Block, lexicon: Lexicon | None = None, seats: bool = True) -> list[ast.Call]:
    """Give per-option `hints:` to each choice without words that an `if` then tests by the one chosen alone, run
    over the options as they are offered (`[if TEST then "…" else "…" for x in ITEMS]`); the calls given hints, in
    the order the body runs. Only a choice whose options are worked out without asking anyone (they are read twice),
    and a test of nothing but the one chosen, constants, the owner and functions.
    - A card its owner chooses (`let c = choose(owner, hand(owner))`, then `if c.color == red { recover(p, 1) }`):
      the cards leading to the branch worth more to the owner (`_REWARDS`) are `rewarded`. A designer's 赠药 ("give
      another a hand card; a red one heals it") gave a black card as often as not with red ones in hand.
    - A character (`for t in choose_many(…) { if t.hp > owner.hp { damage(t, 1) } else { draw(t, 2) } }`): each
      gets the words the branch it leads to agrees on (`attack`, `help`), when the two differ. A designer's 分宝 read
      as both (SGS-W407), so harmful, and let foes draw three times as often as it struck them: −5.5 points.
      Only where the skill's words (SEATS false) do not aim its choices already."""
    lexicon = (lexicon or _PLAIN).reading(body)
    given: list[ast.Call] = []
    for call, name, rest in _bound_choices(body):
        chooser = call.args[0] if call.args else kwarg(call, "player")
        items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
        if chooser is None or items is None or not _pure(items):
            continue
        found = _tested(name, rest)
        if found is None:
            continue
        var, stmts, test = found
        tested = _inlined(test.test, _lets(body), var)
        if _tests_the_chosen(tested, var, lexicon.owners, _CARD_FIELDS):
            if call.func.text != "choose" or not _is_one_of(chooser, lexicon.owners):
                continue
            worth = [sum(_REWARDS.get(w, 0) for w in _branch_words(branch, lexicon.owners, lexicon))
                     for branch in _branches(test)]
            if worth[0] == worth[1]:
                continue
            words = (REWARDED, "") if worth[0] > worth[1] else ("", REWARDED)
        elif seats and _tests_the_chosen(tested, var, lexicon.owners, None):
            others = [x for x in stmts if x is not test]
            agreed = [_agreed(_effects_on(var, others + branch, lexicon)) for branch in _branches(test)]
            if agreed[0] is None or agreed[1] is None or agreed[0] == agreed[1] or SWAP in agreed:
                continue
            words = (agreed[0], agreed[1])
        else:
            continue
        marked = ast.CondExpr(call.span, deepcopy(tested), ast.Lit(call.span, "str", words[0]),
                              ast.Lit(call.span, "str", words[1]))
        call.kwargs.append((ast.Ident(call.span, "hints"),
                            ast.ListComp(call.span, marked, ast.Ident(call.span, var), deepcopy(items), None)))
        given.append(call)
    return given


def give_cost_hints(body: ast.Block, lexicon: Lexicon | None = None) -> list[ast.Call]:
    """Give each choice of characters the owner makes, without `costs:` of its own, per-option `costs:` when the
    rule then makes the owner pay as many of its own cards as an amount read from the one chosen: `let cs =
    choose_many(owner, hand(owner) + equips(owner), p.hp, p.hp)` (or the choice written in place), then `discard(cs,
    by: owner)` or `give(owner, …, cs)`. The costs are that amount worked out for each option as it is offered
    (`[p.hp for p in ITEMS]`), so an agent weighs a cheap target against a dear one: a designer's 破绽 ("discard as
    many cards as another's HP, then deal it 1 damage") paid 3–5 cards for a blow as often as 1–2. Only a choice
    whose options are worked out without asking anyone, and an amount read from nothing but the one chosen,
    constants, the owner and functions; the calls given costs, in the order the body runs."""
    lexicon = (lexicon or _PLAIN).reading(body)
    given: list[ast.Call] = []
    for call, name, rest in _bound_choices(body):
        chooser = call.args[0] if call.args else kwarg(call, "player")
        items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
        if chooser is None or items is None or not _is_one_of(chooser, lexicon.owners) or not _pure(items) \
                or kwarg(call, "costs") is not None or _whose_cards(items) is not None:
            continue
        amount = _card_price(name, rest, lexicon.owners)
        if amount is None:
            continue
        call.kwargs.append((ast.Ident(call.span, "costs"),
                            ast.ListComp(call.span, deepcopy(amount), ast.Ident(call.span, name), deepcopy(items),
                                         None)))
        given.append(call)
    return given


def give_group_hints(body: ast.Block, lexicon: Lexicon | None = None) -> list[tuple[ast.Call, str]]:
    """Give each choice the owner makes among values that are not characters or cards (a kingdom, a gender) and
    that the rule then turns into characters, per-option `befalls:` and the words of what it does to them: `let k =
    choose(owner, [魏, 蜀, 吴, 群])`, then `for p in [q for q in players() if q.kingdom == k] { recover(p, 1) … }`
    (or the characters bound to a name first) gives `befalls: [[q for q in players() if q.kingdom == k] for k in
    ITEMS]`, and the words `help` for its `tags:`, when what the loop does to each agrees (`_agreed`). An agent then
    weighs each option by whom it befalls. A designer's 号召 ("limited: a kingdom's characters each recover 1 HP and
    draw 1") picked its kingdom at random. Only a choice whose options and characters are worked out without asking
    anyone, from the option, the owner, constants and functions alone; the calls given `befalls:`, with the words
    their `tags:` are to say."""
    lexicon = (lexicon or _PLAIN).reading(body)
    given: list[tuple[ast.Call, str]] = []
    for call, name, rest in _bound_choices(body):
        chooser = call.args[0] if call.args else kwarg(call, "player")
        items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
        if chooser is None or items is None or not _is_one_of(chooser, lexicon.owners) or not _pure(items) \
                or kwarg(call, "befalls") is not None or is_seats(items, {}) or _whose_cards(items) is not None:
            continue
        found = _befallen_by(name, rest, lexicon)
        if found is None:
            continue
        group, words = found
        call.kwargs.append((ast.Ident(call.span, "befalls"),
                            ast.ListComp(call.span, deepcopy(group), ast.Ident(call.span, name), deepcopy(items),
                                         None)))
        given.append((call, words))  # (its `tags:` are given with the other choices': `infer_choice_words`)
    return given


def _befallen_by(name: str, rest: list[ast.Stmt], lexicon: Lexicon) -> tuple[ast.Expr, str] | None:
    """The first characters REST (what follows a choice bound to NAME) loops over that are worked out from the one
    chosen (`_from_the_chosen`), with the words the loop's uses of each agree on; None when there are none, or
    they agree on nothing, or NAME is bound afresh first."""
    bound: dict[str, ast.Expr] = {}
    for stmt in rest:
        if isinstance(stmt, ast.Let):
            if stmt.name.text == name:
                return None
            if is_seats(stmt.value, {}) and _from_the_chosen(stmt.value, name, lexicon.owners):
                bound[stmt.name.text] = stmt.value
            continue
        if not isinstance(stmt, ast.For):
            continue
        it = stmt.iterable
        group = bound.get(it.ident) if isinstance(it, ast.Name) and it.ref == ("local", it.ident) else \
            it if is_seats(it, {}) and _from_the_chosen(it, name, lexicon.owners) else None
        if group is None:
            continue
        words = _agreed(_effects_on(stmt.var.text, stmt.body.stmts, lexicon))
        return (group, words) if words is not None and words != SWAP else None
    return None


def _from_the_chosen(e: ast.Expr, name: str, owners: frozenset[str]) -> bool:
    """Whether E reads the one bound to NAME and, besides, only constants, the owner, functions and the names its
    own comprehensions bind: it means the same when worked out for each option before the choice."""
    reads = False
    inner: set[str] = set()
    stack: list[ast.Node] = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ListComp):
            inner.add(node.var.text)
        if isinstance(node, ast.Name) and node.ref is not None and node.ref[0] == "local":
            if node.ident == name:
                reads = True
            elif node.ident not in owners and node.ident not in inner:
                return False
            continue
        if isinstance(node, ast.Call) and node.ref != "function":
            return False
        stack.extend(parts(node))
    return reads


def _card_price(name: str, rest: list[ast.Stmt], owners: frozenset[str]) -> ast.Expr | None:
    """The least number of the owner's own cards that REST (what follows a choice bound to NAME) picks and then
    pays (`CHOOSER_PRICES`: discarded by the owner, given away by it), when that number is read from the one chosen;
    None when REST pays no such price before NAME is bound afresh."""
    picked: dict[str, ast.Expr] = {}  # names bound to a pick of the owner's cards: its least number
    for stmt in rest:
        if isinstance(stmt, ast.Let):
            if stmt.name.text == name:
                return None
            least = _least_of_own(stmt.value, name, owners)
            if least is not None:
                picked[stmt.name.text] = least
        for node in calls(stmt):
            price = next((param for param, role in (("by", "discard"), ("from_player", "give"))
                          if node.func.text == role), None)
            if price is None or node.ref != "action" or not node.args:
                continue
            payer = kwarg(node, price) if price == "by" else node.args[0]
            if price == "by" and payer is None:
                payer = _whose_cards(node.args[0])  # (a discard without `by:` is its holder's)
            if payer is None or not _is_one_of(payer, owners):
                continue
            paid = node.args[0] if price == "by" else (node.args[2] if len(node.args) > 2 else kwarg(node, "cards"))
            if isinstance(paid, ast.Name) and paid.ref is not None and paid.ref[0] == "local" \
                    and paid.ident in picked:
                return picked[paid.ident]
            least = _least_of_own(paid, name, owners) if paid is not None else None
            if least is not None:
                return least
    return None


def _least_of_own(e: ast.Expr, name: str, owners: frozenset[str]) -> ast.Expr | None:
    """The least number of a pick among the owner's own cards (`choose_many(owner, hand(owner), p.hp, p.hp)`), when
    that number is read from the one bound to NAME (`_tests_the_chosen`); None for anything else."""
    if not (isinstance(e, ast.Call) and e.func.text == "choose_many" and e.ref == "action"):
        return None
    chooser = e.args[0] if e.args else kwarg(e, "player")
    whose = _whose_cards(e)
    least = e.args[2] if len(e.args) > 2 else kwarg(e, "min")
    if chooser is None or whose is None or least is None or not _is_one_of(chooser, owners) \
            or not _is_one_of(whose, owners) or not _tests_the_chosen(least, name, owners, None):
        return None
    return least


def _branches(stmt: ast.If) -> tuple[list[ast.Stmt], list[ast.Stmt]]:
    return stmt.body.stmts, stmt.orelse.stmts if stmt.orelse is not None else []


def _tested(name: str, rest: list[ast.Stmt]) -> tuple[str, list[ast.Stmt], ast.If] | None:
    """The first `if` among REST that follows the choice bound to NAME (before NAME is bound afresh), or the first in
    a loop straight over NAME (`for t in ps { if … }`: the loop's name is the one chosen): (the name it tests by,
    the statements it sits among, the `if`); None when there is none."""
    for stmt in rest:
        if isinstance(stmt, ast.Let) and stmt.name.text == name:
            return None
        if isinstance(stmt, ast.If):
            return name, rest, stmt
        if isinstance(stmt, ast.For) and _is_one_of(stmt.iterable, {name}):
            inner = next((x for x in stmt.body.stmts if isinstance(x, ast.If)), None)
            return (stmt.var.text, stmt.body.stmts, inner) if inner is not None else None
    return None


def _inlined(test: ast.Expr, lets: Mapping[str, list[ast.Expr]], chosen: str, depth: int = 3) -> ast.Expr:
    """TEST with each name the body binds once to a pure expression (`let a = owner.hp`, `let b = p.hp`) read as
    that expression, DEPTH deep, so that a test by such names is a test by the one chosen (a designer's 易命,
    "exchange HP with another", tested `b > a` and was aimed at foes whatever their HP). TEST itself when no name
    is replaced; never the chosen name itself."""
    if depth == 0:
        return test
    swapped = False

    def swap(e: ast.Expr) -> ast.Expr:
        nonlocal swapped
        if isinstance(e, ast.Name) and e.ref == ("local", e.ident) and e.ident != chosen \
                and len(lets.get(e.ident, ())) == 1 and _pure(lets[e.ident][0]):
            swapped = True
            return deepcopy(lets[e.ident][0])
        return e

    out = _map_names(deepcopy(test), swap)
    return _inlined(out, lets, chosen, depth - 1) if swapped else test


def _map_names(e: ast.Expr, swap: Callable[[ast.Expr], ast.Expr]) -> ast.Expr:
    """E with each name in it replaced by what SWAP makes of it (in place; E itself when it is a name)."""
    if isinstance(e, ast.Name):
        return swap(e)
    for f in fields(e):
        value = getattr(e, f.name)
        if isinstance(value, ast.Expr):
            setattr(e, f.name, _map_names(value, swap))
        elif isinstance(value, list):
            setattr(e, f.name, [_map_names(v, swap) if isinstance(v, ast.Expr) else v for v in value])
    return e


def _pure(e: ast.Node) -> bool:
    """Whether an expression asks nobody anything (every call in it a function's): it can be worked out twice."""
    return all(c.ref == "function" for c in calls(e))


def _tests_the_chosen(test: ast.Expr, name: str, owners: frozenset[str], fields: frozenset[str] | None) -> bool:
    """Whether a test reads the one bound to NAME and, besides, only constants, the owner and functions: it means the
    same when run on the options before the choice. With FIELDS (a card's own: `c.color`, `c is 杀`), only by those
    fields; without, by any of its fields or as a whole (`count(hand(t))`)."""
    reads = False
    stack: list[ast.Node] = [test]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Attr) and _is_one_of(node.obj, {name}):
            if fields is not None and node.name.text not in fields:
                return False
            reads = True
            continue
        if isinstance(node, ast.IsFamily) and _is_one_of(node.operand, {name}):
            reads = fields is not None
            if not reads:
                return False
            continue
        if isinstance(node, ast.Name) and node.ref is not None and node.ref[0] == "local" \
                and node.ident not in owners:
            if fields is not None or node.ident != name:
                return False  # (a card used whole, or another name the rule binds: not read)
            reads = True
            continue
        if isinstance(node, ast.Call) and node.ref != "function":
            return False
        stack.extend(parts(node))
    return reads


def _written_options(e: ast.Node) -> list[str] | None:
    """The options of a choice among written strings that carries no words, or None for any other node."""
    if not (isinstance(e, ast.Call) and e.func.text == "choose" and e.ref == "action") or not _wordless_choice(e):
        return None
    items = e.args[1] if len(e.args) > 1 else kwarg(e, "items")
    if not isinstance(items, ast.ListLit) or not items.items:
        return None
    texts = [x.value for x in items.items if isinstance(x, ast.Lit) and x.kind == "str"]
    return texts if len(texts) == len(items.items) and len(set(texts)) == len(texts) else None


def _is_the_choice(e: ast.Expr, choice: ast.Call | str) -> bool:
    """Whether E is the choice itself, or the name it was bound to."""
    return e is choice if isinstance(choice, ast.Call) else _is_one_of(e, {choice})


def _compared(test: ast.Expr, choice: ast.Call | str) -> str | None:
    """The option a test asks for: `CHOICE == "x"` (either side), or the last term of an `and` that is one."""
    while isinstance(test, ast.BinOp) and test.op == "and":
        test = test.right
    if isinstance(test, ast.BinOp) and test.op == "==":
        for one, other in ((test.left, test.right), (test.right, test.left)):
            if _is_the_choice(one, choice) and isinstance(other, ast.Lit) and other.kind == "str":
                return str(other.value)
    return None


def _if_chain(stmt: ast.If, choice: ast.Call | str) -> dict[str, list[ast.Stmt]] | None:
    """Each option an `if … else if …` chain asks for, with its branch; the last `else` under the key "" (none: no
    such key). None when the first test asks for no option."""
    out: dict[str, list[ast.Stmt]] = {}
    node: ast.If | None = stmt
    while node is not None:
        option = _compared(node.test, choice)
        if option is None:
            if not out:
                return None
            out[""] = [node]  # (an `else if` on something else: what runs for the options not asked for)
            break
        out.setdefault(option, node.body.stmts)
        rest = node.orelse
        if rest is None:
            break
        if len(rest.stmts) == 1 and isinstance(rest.stmts[0], ast.If):
            node = rest.stmts[0]
            continue
        out[""] = rest.stmts
        break
    return out


def _option_branches(node: ast.Node) -> Iterator[tuple[ast.Call, list[list[ast.Stmt]]]]:
    """Each choice among written options whose every option is reached by an `if` on it, with the statements each
    option runs (the `else` serves the one option the chain does not name; without an `else`, nothing)."""
    if isinstance(node, ast.Block):
        for i, stmt in enumerate(node.stmts):
            if isinstance(stmt, ast.Let) and _written_options(stmt.value) is not None:
                chains = (_if_chain(x, stmt.name.text) for x in node.stmts[i + 1:] if isinstance(x, ast.If))
                found = _reached(stmt.value, next((c for c in chains if c), None))
                if found is not None:
                    yield found
            if isinstance(stmt, ast.If):
                direct = next((c for c in calls(stmt.test) if _written_options(c) is not None), None)
                if direct is not None:
                    found = _reached(direct, _if_chain(stmt, direct))
                    if found is not None:
                        yield found
    for part in parts(node):
        yield from _option_branches(part)


def _reached(call: ast.Expr, chain: dict[str, list[ast.Stmt]] | None) -> tuple[ast.Call, list[list[ast.Stmt]]] | None:
    """The choice with each of its options' statements, when the chain reaches every option."""
    options = _written_options(call)
    if chain is None or options is None or not isinstance(call, ast.Call):
        return None
    left = [o for o in options if o not in chain]
    if len(left) > 1 or (left and "" not in chain):
        return None
    return call, [chain[o] if o in chain else chain[""] for o in options]


def _amount_words(stmt: ast.Stmt, choosers: frozenset[str], lexicon: Lexicon) -> set[str]:
    """What STMT's changes of its event's amount by literals do: for the owner the event befalls, when the owner is
    the chooser (`AMOUNT_SELF_EFFECTS`), else for the one it befalls (`AMOUNT_EFFECTS`: another's draw raised helps
    it)."""
    timing = lexicon.timing or ""
    field_name = _befallen_field(timing)
    if field_name is None:
        return set()
    found: set[str] = set()
    for node in _under(stmt):
        if not (isinstance(node, ast.Assign) and node.target.name.text == "amount"
                and _is_one_of(node.target.obj, {"event"}) and node.op in ("+=", "-=")):
            continue
        sign = _literal_sign(node.value) * (1 if node.op == "+=" else -1)
        if not sign:
            continue
        if field_name in lexicon.owned:
            words = AMOUNT_SELF_EFFECTS.get((timing, field_name)) if choosers <= lexicon.owners else None
        else:
            words = AMOUNT_EFFECTS.get((timing, field_name))
        if words is not None:
            found.add(words[0] if sign > 0 else words[1])
    return found


def _branch_words(stmts: list[ast.Stmt], choosers: frozenset[str], lexicon: Lexicon) -> set[str]:
    """What a branch does to the chooser (by any of its names, CHOOSERS: `SELF_EFFECTS`, `CHOOSER_PRICES`, `wane`)
    and to anyone else (the words of the parameters it is passed to, `_marks`), through the procedures it calls."""
    found: set[str] = set()
    for stmt in stmts:
        found |= _amount_words(stmt, choosers, lexicon)
        for node in calls(stmt):
            pr = lexicon.procedure(node)
            if pr is not None:
                assert isinstance(node, ast.Call)
                passed = frozenset(param for param, arg in _passed(node, lexicon) if _is_one_of(arg, choosers))
                found |= lexicon.branch_words(pr, passed) - {"?"}
                continue
            marks = _marks(node, lexicon)
            if not marks:
                continue
            for param, arg in _passed(node, lexicon):
                if param not in marks:
                    continue
                if all(_is_one_of(one, choosers) for one in _one_or_listed(arg)):
                    key = (node.func.text, param)
                    word = SELF_EFFECTS.get(key) or CHOOSER_PRICES.get(key)
                    if word == SPENDS and _of_another(node, choosers, lexicon.held):
                        word = None  # (another's card discarded by the chooser: no price of its own)
                    if word is None and key == ("change_max_hp", "player") and marks[param] == "attack":
                        word = WANE
                    if word is not None:
                        found.add(word)
                else:
                    found.add(marks[param])
    return found
