"""The one vocabulary: every timing, action, function, attribute, value and constant .sgs can name.

Declared once here. The checker's tables, the interpreter, the compiler, the reference docs and the
Hypothesis strategies all read this module; adding a primitive means adding it here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import BreakLoop, RuleError, StopEffect  # noqa: F401 - re-exported for generated code
from .events import UNLIMITED, Event
from .model import PHASES, SUITS, Card, Player, UseRecord, VirtualCard, color_of
from .program import Frame


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


def primitive(name: str, kind: str, sig: str, returns: str = "none", doc: str = "", variadic: bool = False,
              contexts: tuple[str, ...] = ()):
    def deco(fn):
        PRIMITIVES[name] = Primitive(name, kind, _params(sig), returns, fn, doc or (fn.__doc__ or "").strip(), variadic,
                                     contexts)
        return fn

    return deco


def timing(name: str, fields: str, mutable: str = "", cancellable: bool = False, doc: str = "") -> None:
    f = {}
    for part in filter(None, (s.strip() for s in fields.split(","))):
        k, _, t = part.partition(":")
        f[k.strip()] = t.strip()
    TIMINGS[name] = Timing(name, f, frozenset(filter(None, mutable.split(","))), cancellable, doc)


def engine_value(name: str, sig: str, typ: str, default: Callable[..., Any], doc: str) -> None:
    ps = _params(sig)
    ENGINE_VALUES[name] = EngineValue(name, tuple(p.name for p in ps), tuple(p.type for p in ps), typ, default, doc)


# ---------------------------------------------------------------- types and attributes
# type name -> attribute -> (type, mutable)
ATTRIBUTES: dict[str, dict[str, tuple[str, bool]]] = {
    "player": {
        "hp": ("int", False), "max_hp": ("int", False), "alive": ("bool", False), "dying": ("bool", False),
        "seat": ("int", False), "kingdom": ("kingdom", False), "gender": ("gender", False),
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
                "gender": ("gender", False)},
}

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
SKILL_FLAGS = ("locked", "leader")
MARK_SCOPES = ("phase", "turn", "round", "forever")

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
}
# Where each kind of rule body is written, for messages ("take_turn can only be used in a mode's turn_order").
SCOPE_PLACES: dict[str, str] = {
    "turn_order": "a mode's `turn_order { … }`",
    "score": "a mode's `score` lines",
}


# ---------------------------------------------------------------- timings
timing("game_start", "")
timing("round_start", "round:int")
timing("turn_start", "player:player")
timing("turn_end", "player:player")
timing("before_phase", "player:player, phase:phase", cancellable=True,
       doc="before a phase begins; cancel it to skip the phase")
timing("phase_start", "player:player, phase:phase")
timing("phase_end", "player:player, phase:phase")
timing("drawing", "player:player, amount:int", mutable="amount", cancellable=True,
       doc="the draw phase is about to draw `amount` cards; cancel to draw none")
timing("card_used", "user:player, card:card, targets:players, context:str",
       doc="a card was used (使用) and its targets chosen")
timing("targeted", "user:player, card:card, target:player, use:use", mutable="target", cancellable=True,
       doc="a character became a target of a card; change `target` to redirect it")
timing("before_effect", "user:player, card:card, target:player, use:use", cancellable=True,
       doc="a card is about to take effect on a target; cancel: it has no effect on that target")
timing("responded", "player:player, card:card, family:str, against:card, against_user:player, negated:bool, "
       "play:bool, use:use", mutable="negated",
       doc="a card was given in answer to a request; set negated to make the answer not count")
timing("answered", "player:player, family:str, against:card, against_user:player, use:use, play:bool",
       doc="a request for cards was answered in full (e.g. the card an attack asked for was given: it was dodged)")
for _t in ("causing_damage", "taking_damage", "damaged", "after_damage"):
    timing(_t, "source:player, target:player, amount:int, nature:nature, card:card, chain:bool, use:use",
           mutable="amount,nature", cancellable=_t in ("causing_damage", "taking_damage"),
           doc={"causing_damage": "damage is about to be dealt (source side)",
                "taking_damage": "damage is about to be taken (target side)",
                "damaged": "damage was taken and the target is still alive",
                "after_damage": "damage has fully resolved, dying included"}[_t])
timing("damage_done", "source:player, target:player, amount:int, nature:nature, card:card, chain:bool, use:use",
       doc="the target has just lost the HP (dead or dying or not); dying is resolved after this timing")
timing("recovering", "target:player, amount:int, source:player, card:card", mutable="amount", cancellable=True)
timing("recovered", "target:player, amount:int, source:player, card:card")
timing("lost_hp", "player:player, amount:int")
timing("dying", "player:player, source:player")
timing("died", "victim:player, killer:player")
timing("judging", "player:player, card:card, reason:card", mutable="card",
       doc="a judgement card is revealed and may still be replaced")
timing("judged", "player:player, card:card, reason:card", doc="a judgement took effect")
timing("lost_cards", "player:player, cards:cards, zone:zone", doc="cards left a hand or equipment area")
timing("nullify", "card:card, user:player, target:player, use:use", cancellable=True,
       doc="(the window a nullify-context card answers; cancel() nullifies)")


# ---------------------------------------------------------------- engine values
engine_value("distance", "from:player, to:player", "int", lambda g, a, b: g.seat_distance(a, b),
             "distance between two characters (min 1)")
engine_value("attack_range", "player:player", "int",
             lambda g, p: (p.equips["weapon"].rule.attack_range or 1) if "weapon" in p.equips else 1,
             "attack range: the weapon's range, else 1")
engine_value("hand_limit", "player:player", "int", lambda g, p: p.hp, "hand limit in the discard phase")
engine_value("draw_count", "player:player", "int", lambda g, p: 2, "cards drawn in the draw phase")
engine_value("targetable", "user:player, card:card, target:player", "bool", lambda g, u, c, t: True,
             "whether a card may target a character")
engine_value("extra_targets", "user:player, card:card", "int", lambda g, u, c: 0,
             "extra targets a card may choose")


# ---------------------------------------------------------------- helpers
def _cards(x: Any) -> list[Any]:
    if x is None:
        return []
    if isinstance(x, (Card, VirtualCard)):
        return [x]
    return list(x)


def _need(x: Any, what: str) -> Any:
    if x is None:
        raise RuleError(f"{what} is none")
    return x


def _g(f: Frame):
    return f.game


# ---------------------------------------------------------------- actions
@primitive("draw", "action", "player:player, n:int", "cards", "the player draws n cards")
def _draw(f: Frame, player: Player, n: int) -> list[Card]:
    return f.game.draw(_need(player, "draw's player"), n)


@primitive("damage", "action",
           "target:player, amount:int, source:player=none, card:card=none, nature:nature=normal, chain:bool=false, "
           "use:use=none", "int", "deal damage; returns the damage actually dealt")
def _damage(f, target, amount, source=None, card=None, nature="normal", chain=False, use=None):
    return f.game.damage(_need(target, "damage's target"), amount, source, card, nature, chain, use)


@primitive("recover", "action", "target:player, amount:int, source:player=none, card:card=none", "int")
def _recover(f, target, amount, source=None, card=None):
    return f.game.recover(_need(target, "recover's target"), amount, source, card)


@primitive("lose_hp", "action", "player:player, n:int")
def _lose_hp(f, player, n):
    f.game.lose_hp(_need(player, "lose_hp's player"), n)


@primitive("discard", "action", "cards:cards, by:player=none", doc="put cards into the discard pile")
def _discard(f, cards, by=None):
    f.game.discard(_cards(cards), by)


@primitive("obtain", "action", "player:player, cards:cards", doc="move cards into the player's hand")
def _obtain(f, player, cards):
    f.game.obtain(_need(player, "obtain's player"), _cards(cards))


@primitive("give", "action", "from_player:player, to:player, cards:cards", doc="hand cards change owner")
def _give(f, from_player, to, cards):
    f.game.emit_log("give", by=from_player.label(), to=to.label(), n=len(_cards(cards)))
    f.game.obtain(_need(to, "give's receiver"), _cards(cards))


@primitive("put_on_top", "action", "cards:cards", doc="put cards on top of the draw pile (last one on top)")
def _put_top(f, cards):
    f.game.move(_cards(cards), "draw", None, top=True)


@primitive("put_on_bottom", "action", "cards:cards", doc="put cards at the bottom of the draw pile")
def _put_bottom(f, cards):
    f.game.move(_cards(cards), "draw", None, top=False)


@primitive("judge", "action", "player:player, reason:card=none", "card",
           "reveal the top card as the player's judgement; returns the final judgement card")
def _judge(f, player, reason=None):
    return f.game.judge(_need(player, "judge's player"), reason)


@primitive("retrial", "action", "event:event, card:card", doc="replace the card of a pending judgement")
def _retrial(f, event, card):
    f.game.retrial(event, _need(card, "retrial's card"))


@primitive("respond", "action",
           "player:player, family:family, times:int=1, play:bool=false, against:card=none, against_user:player=none, "
           "use:use=none", "bool", "ask the player for `times` cards of a family; true when all were given")
def _respond(f, player, family, times=1, play=False, against=None, against_user=None, use=None):
    return f.game.respond(_need(player, "respond's player"), family, times, play, against, against_user, use)


@primitive("use_card_on", "action", "user:player, family:family, target:player, event:event=none", "bool",
           "ask the user to use a card of a family (a hand card or a conversion) on the target; true if used")
def _use_card_on(f, user, family, target, event=None):
    g = f.game
    if user is None or target is None or not user.alive or not target.alive:
        return False
    offers: list[tuple[str, tuple]] = []
    for card in user.hand:
        if card.family == family:
            for use in card.rule.uses:
                if use.context == "play" and g.legal_target(user, card, use, target):
                    offers.append((f"use {card.label()} on {target.label()}", ("card", card, use)))
                    break
    for skill in user.skills:
        offered: list[Any] = []  # one offer per conversion: its first use clause that can reach the target
        for va, probe, use in g.conversion_probes(user, skill, "play", family):
            if not any(v is va for v in offered) and g.legal_target(user, probe, use, target):
                offers.append((f"{skill.name}: use as {probe.name} on {target.label()}", ("viewas", skill, va, use)))
                offered.append(va)
    if not offers:
        return False
    pick = g.ask(user, "use_on", f"use {family} on {target.label()}", [o[0] for o in offers] + ["decline"])[0]
    if pick == len(offers):
        return False
    card, use = g.realize_offer(user, offers[pick][1])
    if card is None:
        return False
    g.use_card(user, card, use, [target], "play", event)
    return True


def _play_use(rule):
    for use in rule.uses:
        if use.context == "play":
            return use
    return None


@primitive("use_virtual", "action",
           "user:player, family:family, targets:players=none, nullifiable:bool=true, cards:cards=none", "bool",
           "the user uses a card of the family made of `cards` (none: of no card). With `targets` each must be "
           "legal (the use limit is not checked); without, the use must be allowed now and the user "
           "picks legal targets. `nullifiable: false` opens no nullify window. True if the card was used")
def _use_virtual(f, user, family, targets=None, nullifiable=True, cards=None):
    g = f.game
    if user is None or not user.alive:
        return False
    rule = _need(g.program.card_by_name(family), f"card {family}")
    subs = tuple(c for x in _cards(cards) for c in x.physical)
    skill = f.vars.get("skill")
    card = VirtualCard(rule, subs, skill.ident if skill is not None else None)
    use = _play_use(rule)
    if use is None:
        return False
    if targets is not None:
        chosen = list(targets)
        if not chosen or not all(g.legal_target(user, card, use, t) for t in chosen):
            return False
    else:
        if not g.can_use(user, card, use):
            return False
        chosen = g.choose_targets(user, card, use)
        if chosen is None:
            return False
    g.use_card(user, card, use, chosen, "play", None, nullifiable=bool(nullifiable))
    return True


@primitive("could_use", "function", "user:player, family:family", "bool",
           "the user could use a card of the family in the play phase now (limits and legal targets)")
def _could_use(f, user, family):
    g = f.game
    rule = g.program.card_by_name(family)
    if rule is None or user is None or not user.alive:
        return False
    probe = VirtualCard(rule, (), None)
    return any(u.context == "play" and g.can_use(user, probe, u) for u in rule.uses)


@primitive("targets_for", "function", "user:player, family:family", "players",
           "the characters the user could legally use a card of the family on in the play phase (use limit aside), "
           "in seat order from the user")
def _targets_for(f, user, family):
    g = f.game
    rule = g.program.card_by_name(family)
    if rule is None or user is None or not user.alive:
        return []
    probe = VirtualCard(rule, (), None)
    use = _play_use(rule)
    if use is None:
        return []
    return g.legal_targets(user, probe, use)


@primitive("reveal", "action", "n:int", "cards",
           "turn the top n cards of the draw pile face up into the processing area; returns them, top first")
def _reveal(f, n):
    return [f.game.reveal_top() for _ in range(max(0, int(n)))]


@primitive("cancel", "action", "event:event", doc="cancel a cancellable event (prevent, skip, nullify)")
def _cancel(f, event):
    _need(event, "cancel's event").cancelled = True


@primitive("skip_phase", "action", "player:player, phase:phase", doc="the player skips that phase this turn")
def _skip_phase(f, player, phase):
    f.game.set_mark(player, "skip_" + phase, True, "turn")
    f.game.emit_log("skip", player=player.label(), phase=phase)


def _marks_of(target: Any) -> dict[str, Any]:
    """The marks of a holder; an event gets its mark table on first use (events live for one timing chain)."""
    if isinstance(target, Event):
        return target.__dict__.setdefault("marks", {})
    return target.marks


@primitive("mark", "action", "holder:any, name:str, value:any=1, until:str=forever",
           doc="set a mark on a player, a use, an event or the game, kept until the end of a phase/turn/round or "
               "forever (a use's or an event's marks live as long as it does)")
def _mark(f, holder, name, value=1, until="forever"):
    target = f.game if holder is None else holder
    if until not in ("phase", "turn", "round", "forever"):
        raise RuleError(f"mark lifetime must be phase, turn, round or forever, not {until!r}")
    if isinstance(target, (UseRecord, Event)):
        _marks_of(target)[name] = value
    else:
        f.game.set_mark(target, name, value, until)


@primitive("unmark", "action", "holder:any, name:str", doc="remove a mark")
def _unmark(f, holder, name):
    target = f.game if holder is None else holder
    _marks_of(target).pop(name, None)
    if hasattr(target, "mark_scopes"):
        target.mark_scopes.pop(name, None)


@primitive("supply", "action", "card:any", doc="inside `provide`: the requested card is supplied (a card or a family)")
def _supply(f, card):
    g = f.game
    if isinstance(card, str):
        rule = g.program.card_by_name(card)
        card = VirtualCard(_need(rule, f"card {card}"), (), f.vars.get("skill").ident if f.vars.get("skill") else None)
    f.supplied = card
    raise StopEffect()


@primitive("show", "action", "player:player, cards:cards",
           doc="the player shows cards (展示): everyone sees them; they stay where they are")
def _show(f, player, cards):
    f.game.emit_log("show", player=_need(player, "show's player").label(), cards=[c.label() for c in _cards(cards)])


@primitive("of_suit", "function", "cards:cards, suit:suit", "cards", "those of the cards of a suit")
def _of_suit(f, cards, suit):
    return [c for c in _cards(cards) if c.suit == suit]


@primitive("set_chained", "action", "player:player, chained:bool", doc="chain (横置) or unchain (重置) a character")
def _set_chained(f, player, chained):
    player.chained = bool(chained)
    f.game.emit_log("chain", player=player.label(), chained=bool(chained))


@primitive("move_to_judge", "action", "card:card, player:player", doc="move a judge-area card to a player's judge area")
def _move_to_judge(f, card, player):
    f.game.move_judge(card, player)


@primitive("end_phase", "action", "", doc="end the current play phase")
def _end_phase(f):
    f.game.current = f.game.current  # play loop re-checks; mark ends it
    f.game.set_mark(f.game.current, "end_play", True, "phase")


@primitive("win", "action", "roles:any", doc="end the game; the given roles win")
def _win(f, roles):
    from .errors import GameOver

    raise GameOver(tuple(roles) if isinstance(roles, list) else (roles,), "win")


@primitive("log", "action", "text:str", doc="write a line into the event log")
def _log(f, text):
    f.game.emit_log("note", text=str(text))


# ---------------------------------------------------------------- set-up actions
@primitive("deal_roles", "action", "", doc="deal the mode's roles for this player count; the leader is revealed")
def _deal_roles(f):
    g = f.game
    n = len(g.players)
    table = None
    for count, cond, roles in g.mode.roles:
        if count == n and (cond is None or cond(Frame(g, {}))):
            table = roles
    if table is None:
        raise RuleError(f"mode {g.mode.name} has no roles for {n} players")
    roles = list(table)
    g.rng.shuffle(roles)
    for p, r in zip(g.players, roles, strict=True):
        p.role = r
        if r == g.mode.leader:
            p.role_revealed = True
            g.start_seat = p.seat
    g.emit_log("roles", leader=g.mode.leader, start=g.start_seat)


@primitive("take_generals", "action", "generals:any", "list", doc="take named generals out of the pool")
def _take_generals(f, generals):
    g = f.game
    out = []
    for gen in generals:
        if gen in g.general_pool:
            g.general_pool.remove(gen)
            out.append(gen)
    return out


@primitive("random_generals", "action", "n:int", "list", doc="take n random generals from the pool")
def _random_generals(f, n):
    g = f.game
    out = g.general_pool[:n]
    del g.general_pool[:n]
    return out


@primitive("return_generals", "action", "generals:any", doc="put generals back into the pool")
def _return_generals(f, generals):
    f.game.general_pool.extend(x for x in generals if x is not None)


@primitive("set_general", "action", "player:player, general:general", doc="the player becomes this general")
def _set_general(f, player, general):
    f.game.set_general(player, general)


@primitive("set_max_hp", "action", "player:player, n:int, heal:bool=true", doc="set max HP (and HP, when heal)")
def _set_max_hp(f, player, n, heal=True):
    player.max_hp = n
    if heal:
        player.hp = n
    player.hp = min(player.hp, player.max_hp)


# ---------------------------------------------------------------- turn order and the end of the game
@primitive("take_turn", "action", "player:player", "bool",
           "play one full turn (all phases) for the player; false (nothing happens) when the player is dead. Only "
           "in a mode's turn_order, which runs once per round instead of the seat-order round; refused inside a turn",
           contexts=("turn_order",))
def _take_turn(f, player):
    g = f.game
    player = _need(player, "take_turn's player")
    if g.in_turn:
        raise RuleError(f"take_turn({player.label()}) was called during {g.current.label()}'s turn: turns are "
                        "played one after another from a mode's turn_order, never inside a turn")
    if not player.alive:
        return False
    g.take_turn(player)
    return True


@primitive("winners", "function", "", "players",
           "the seats (living or dead) whose role won, in seat order; empty after a draw", contexts=("score",))
def _winners(f):
    g = f.game
    return [p for p in g.players if p.seat in g.winners_seats]


@primitive("is_winner", "function", "player:player", "bool", "the player's role won the game", contexts=("score",))
def _is_winner(f, player):
    return player is not None and player.seat in f.game.winners_seats


@primitive("kills", "function", "player:player, role:role=none", "int",
           "how many characters the player has killed so far (only those of the role, when given)")
def _kills(f, player, role=None):
    return sum(1 for victim, killer, _ in f.game.deaths
               if killer is player and player is not None and (role is None or victim.role == role))


@primitive("alive_at_death", "function", "player:player", "int",
           "how many characters were alive when the player died, the player included (2: a final duel); 0 while "
           "the player lives")
def _alive_at_death(f, player):
    for victim, _, alive in f.game.deaths:
        if victim is player:
            return alive
    return 0


# ---------------------------------------------------------------- requests (functions that ask)
@primitive("confirm", "action", "player:player, prompt:str=\"\"", "bool", "ask yes/no")
def _confirm(f, player, prompt=""):
    return f.game.confirm(player, prompt or "confirm?")


@primitive("choose", "action", "player:player, items:list, optional:bool=false, prompt:str=\"\"", "item",
           "the player picks one item (none when optional and declined or nothing to pick)")
def _choose(f, player, items, optional=False, prompt=""):
    return f.game.choose_one(_need(player, "choose's player"), list(items), optional, prompt or "choose")


@primitive("choose_many", "action", "player:player, items:list, min:int=0, max:int=99, prompt:str=\"\"", "list",
           "the player picks between min and max items")
def _choose_many(f, player, items, min=0, max=99, prompt=""):  # noqa: A002
    return f.game.choose_many(_need(player, "choose_many's player"), list(items), min, max, prompt or "choose")


@primitive("choose_card_from", "action", "chooser:player, owner:player, areas:list=none, optional:bool=false", "card",
           "pick one card from the owner's hand (unseen), equipment or judge area")
def _choose_card_from(f, chooser, owner, areas=None, optional=False):
    zones = areas or ["hand", "equip", "judge"]
    items: list[Any] = []
    if "hand" in zones:
        items += sorted(owner.hand, key=lambda c: c.id) if chooser is not owner else list(owner.hand)
    if "equip" in zones:
        items += [owner.equips[s] for s in ("weapon", "armor", "defensive_horse", "offensive_horse")
                  if s in owner.equips]
    if "judge" in zones:
        items += [c for j in owner.judge for c in j.physical]
    if chooser is not owner and "hand" in zones and owner.hand:
        # hidden hand: the chooser picks a position, the card behind it is random
        hidden = list(owner.hand)
        f.game.rng.shuffle(hidden)
        items = hidden + items[len(owner.hand):]
    return f.game.choose_one(chooser, items, optional, f"a card of {owner.label()}")


# ---------------------------------------------------------------- functions (pure)
@primitive("players", "function", "", "players", "every living character in seat order from the current player")
def _players(f):
    g = f.game
    return g.seat_order(g.current)


@primitive("all_players", "function", "", "players", "every seat, living or dead, in seat order")
def _all_players(f):
    return list(f.game.players)


@primitive("others", "function", "player:player", "players", "the other living characters, in order after p")
def _others(f, player):
    return [q for q in f.game.seat_order(player) if q is not player]


@primitive("current", "function", "", "player", "the player whose turn it is")
def _current(f):
    return f.game.current


@primitive("phase", "function", "", "phase", "the current phase")
def _phase(f):
    return f.game.phase


@primitive("player_count", "function", "", "int", "how many seats the game has")
def _player_count(f):
    return len(f.game.players)


@primitive("with_role", "function", "role:role", "players", "every seat (living or dead) with that role")
def _with_role(f, role):
    return [p for p in f.game.players if p.role == role]


@primitive("alive_with_role", "function", "role:role", "players", "living characters with that role")
def _alive_with_role(f, role):
    return [p for p in f.game.players if p.alive and p.role == role]


@primitive("next_alive", "function", "player:player", "player", "the next living character after p")
def _next_alive(f, player):
    return f.game.next_alive(player)


@primitive("count", "function", "items:list", "int", "how many items")
def _count(f, items):
    return 0 if items is None else len(items)


@primitive("first", "function", "items:list", "item", "the first item, or none")
def _first(f, items):
    items = list(items or [])
    return items[0] if items else None


@primitive("hand", "function", "player:player", "cards", "the player's hand cards")
def _hand(f, player):
    return list(player.hand)


@primitive("equips", "function", "player:player", "cards", "the player's equipment")
def _equips(f, player):
    return [player.equips[s] for s in ("weapon", "armor", "defensive_horse", "offensive_horse") if s in player.equips]


@primitive("judge_cards", "function", "player:player", "cards", "cards in the player's judge area")
def _judge_cards(f, player):
    return list(player.judge)


@primitive("cards_of", "function", "player:player", "cards", "hand, equipment and judge-area cards")
def _cards_of(f, player):
    return player.all_cards()


@primitive("equip_in", "function", "player:player, slot:category", "card", "the equipment in a slot, or none")
def _equip_in(f, player, slot):
    return player.equips.get(slot)


@primitive("top_cards", "function", "n:int", "cards", "look at the top n cards of the draw pile (top first)")
def _top_cards(f, n):
    g = f.game
    if len(g.draw_pile) < n and g.discard_pile:
        g._reshuffle()
    return list(reversed(g.draw_pile[-n:])) if n > 0 else []


@primitive("distance", "function", "from_player:player, to:player", "int", "distance between two characters")
def _distance(f, from_player, to):
    return f.game.distance(from_player, to)


@primitive("attack_range", "function", "player:player", "int", "the player's attack range")
def _attack_range(f, player):
    return f.game.value("attack_range", player)


@primitive("in_attack_range", "function", "from_player:player, to:player", "bool", "to is within from's attack range")
def _in_attack_range(f, from_player, to):
    g = f.game
    return from_player is not to and g.distance(from_player, to) <= g.value("attack_range", from_player)


@primitive("is_wounded", "function", "player:player", "bool", "HP below max HP")
def _is_wounded(f, player):
    return player.hp < player.max_hp


@primitive("has_mark", "function", "holder:any, name:str", "bool", "the mark is set")
def _has_mark(f, holder, name):
    target = f.game if holder is None else holder
    return name in _marks_of(target)


@primitive("mark_value", "function", "holder:any, name:str", "any", "the mark's value, or 0")
def _mark_value(f, holder, name):
    target = f.game if holder is None else holder
    return _marks_of(target).get(name, 0)


@primitive("used_count", "function", "player:player, family:family, scope:str=phase", "int",
           "how many cards of a family the player used or played in this phase/turn")
def _used_count(f, player, family, scope="phase"):
    u = f.game.usage[scope]
    used = sum(u.get((player.seat, f.game.use_key(family, ctx)), 0) for ctx in USE_CONTEXTS)
    return used + u.get((player.seat, ("respond", family)), 0)


@primitive("option", "function", "name:str", "any", "the value of a mode option")
def _option(f, name):
    return f.game.options.get(name)


@primitive("has_skill", "function", "player:player, skill:str", "bool", "the player has a skill (by id or name)")
def _has_skill(f, player, skill):
    return any(s.ident == skill or s.name == skill for s in player.skills)


@primitive("suits", "function", "", "list", "the four suits")
def _suits(f):
    return list(SUITS)


@primitive("color_of_suit", "function", "suit:suit", "color", "red or black")
def _color_of_suit(f, suit):
    return color_of(suit)


@primitive("min", "function", "a:int, b:int", "int", "the smaller number")
def _min(f, a, b):
    return a if a <= b else b


@primitive("max", "function", "a:int, b:int", "int", "the larger number")
def _max(f, a, b):
    return a if a >= b else b


@primitive("filter_family", "function", "cards:cards, family:family", "cards", "cards of a family")
def _filter_family(f, cards, family):
    return [c for c in cards if c.family == family]


@primitive("minus", "function", "items:list, remove:list", "list", "the items that are not in `remove`, in order")
def _minus(f, items, remove):
    gone = list(remove or [])
    return [x for x in (items or []) if not any(x is y for y in gone)]


@primitive("subcards", "function", "card:card", "cards", "the physical cards a (possibly converted) card is made of")
def _subcards(f, card):
    return [] if card is None else list(card.physical)


@primitive("zone_of", "function", "card:card", "str",
           "where a card is: draw, discard, processing, hand, equip or judge (a converted card: its first card; "
           "none when it has no physical card)")
def _zone_of(f, card):
    if card is None or not card.physical:
        return "none"
    return card.physical[0].zone


@primitive("wounded", "function", "players:players", "players", "those of the players whose HP is below max HP")
def _wounded(f, players):
    return [p for p in (players or []) if p.hp < p.max_hp]


@primitive("having_hand", "function", "players:players", "players", "those of the players with a hand card")
def _having_hand(f, players):
    return [p for p in (players or []) if p.hand]


@primitive("having_cards", "function", "players:players", "players",
           "those of the players with a card in hand or equipment")
def _having_cards(f, players):
    return [p for p in (players or []) if p.hand or p.equips]


@primitive("of_gender", "function", "players:players, gender:gender", "players", "those of the players of a gender")
def _of_gender(f, players, gender):
    return [p for p in (players or []) if p.gender == gender]


@primitive("of_kingdom", "function", "players:players, kingdom:kingdom", "players",
           "those of the players of a kingdom")
def _of_kingdom(f, players, kingdom):
    return [p for p in (players or []) if p.kingdom == kingdom]


@primitive("targetable_among", "function", "user:player, card:card, players:players", "players",
           "those of the players the user's card may target (the `targetable` value; range and use rules aside)")
def _targetable_among(f, user, card, players):
    g = f.game
    return [p for p in (players or []) if p.alive and g.value("targetable", user, card, p)]


@primitive("within_attack_range", "function", "player:player", "players",
           "the other living characters within the player's attack range, in seat order after it")
def _within_attack_range(f, player):
    g = f.game
    if player is None or not player.alive:
        return []
    rng = g.value("attack_range", player)
    return [q for q in g.seat_order(player) if q is not player and g.distance(player, q) <= rng]


@primitive("without", "function", "items:list, item:any", "list", "the list without an item")
def _without(f, items, item):
    return [x for x in items if x is not item]


def event_new(name: str, **fields: Any) -> Event:
    return Event(name, **fields)
