"""Functions: pure questions about the game state."""

from __future__ import annotations

from typing import Any

from ..errors import BreakLoop, RuleError, StopEffect  # noqa: F401 - re-exported for generated code
from ..events import Event, truthy
from ..model import SUITS, Player, color_of
from .arguments import _holder, _marks_of, _need, kind_of, scope_arg
from .core import DIRECTIONS, USE_CONTEXTS, primitive


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


@primitive("camp_of", "function", "player:player", "str",
           "the camp of the player's role (`camp NAME ROLE…` in the mode; a role in no camp is its own camp)")
def _camp_of(f, player):
    return None if player is None else f.game.mode.camp_of(player.role)


@primitive("teammates", "function", "player:player", "players",
           "the player's living team-mates (others of the same camp), in seat order after the player; none for "
           "a seat of a `solo` role")
def _teammates(f, player):
    g = f.game
    if player is None or player.role in g.mode.solo:
        return []
    camp = g.mode.camp_of(player.role)
    return [q for q in g.seat_order(player) if q is not player and g.mode.camp_of(q.role) == camp]


@primitive("camp_players", "function", "camp:str", "players",
           "every seat (living or dead) whose role is in that camp, in seat order")
def _camp_players(f, camp):
    g = f.game
    return [p for p in g.players if g.mode.camp_of(p.role) == camp]


@primitive("camps_in_play", "function", "", "list",
           "the camps of this game's seats, each once, in the order of their first seat")
def _camps_in_play(f):
    g = f.game
    out: list[str] = []
    for p in g.players:
        c = g.mode.camp_of(p.role)
        if c not in out:
            out.append(c)
    return out


@primitive("circle", "function", "first:player, direction:str=counter_clockwise", "players",
           "the living characters round the table from `first` (included when alive): counter_clockwise is seat "
           "order, the direction turns pass in; clockwise the other way")
def _circle(f, first, direction="counter_clockwise"):
    if direction not in DIRECTIONS:
        raise RuleError(f"circle: the direction is counter_clockwise or clockwise, not {direction!r}")
    return f.game.circle(_need(first, "circle's first player"), direction)


@primitive("next_alive", "function", "player:player", "player", "the next living character after p")
def _next_alive(f, player):
    return f.game.next_alive(player)


@primitive("count", "function", "items:list", "int", "how many items")
def _count(f, items):
    return 0 if items is None else len(items)


@primitive("sum", "function", "items:list", "int", "the total of a list of numbers (0 for an empty list)")
def _sum(f, items):
    total = 0
    for x in items or []:
        if isinstance(x, bool) or not isinstance(x, int):
            raise RuleError(f"sum: {x!r} is not a number")
        total += x
    return total


@primitive("first", "function", "items:list", "item", "the first item, or none")
def _first(f, items):
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
        g.zones._reshuffle()
    return list(reversed(g.draw_pile[-n:])) if n > 0 else []


@primitive("discard_pile", "function", "", "cards", "the cards in the discard pile, the latest discarded first")
def _discard_pile(f):
    return list(reversed(f.game.discard_pile))


@primitive("distance", "function", "from_player:player, to:player", "int", "distance between two characters")
def _distance(f, from_player, to):
    return f.game.dispatch.distance(from_player, to)


@primitive("attack_range", "function", "player:player", "int", "the player's attack range")
def _attack_range(f, player):
    return f.game.dispatch.value("attack_range", player)


@primitive("in_attack_range", "function", "from_player:player, to:player", "bool", "to is within from's attack range")
def _in_attack_range(f, from_player, to):
    g = f.game
    values = g.dispatch
    if from_player is to:
        return False
    far = values.distance(from_player, to)  # (first: a none character is named by distance's error)
    # (asked once per target of every attack card in every play menu: while no skill modifies the attack range, its
    # default straight, as value() would call it)
    reach = g.plain_values.get("attack_range")
    return far <= (reach(g, from_player) if reach is not None else values.value("attack_range", from_player))


@primitive("is_wounded", "function", "player:player", "bool", "HP below max HP")
def _is_wounded(f, player):
    return player.hp < player.max_hp


@primitive("has_mark", "function", "holder:any, name:str", "bool", "the mark is set")
def _has_mark(f, holder, name):
    target = _holder(f, holder)
    return name in _marks_of(target)


@primitive("mark_value", "function", "holder:any, name:str", "any", "the mark's value, or 0")
def _mark_value(f, holder, name):
    target = _holder(f, holder)
    return _marks_of(target).get(name, 0)


@primitive("used_count", "function", "player:player, family:family, scope:str=phase", "int",
           "how many cards of a family the player used or played in this phase/turn")
def _used_count(f, player, family, scope="phase"):
    u = f.game.usage[scope_arg(scope, "used_count")]
    if player is None:
        return 0
    used = sum(u.get((player.seat, f.game.use.use_key(family, ctx)), 0) for ctx in USE_CONTEXTS)
    return used + u.get((player.seat, ("respond", family)), 0)


@primitive("option", "function", "name:str", "any", "the value of a mode option")
def _option(f, name):
    return f.game.options.get(name)


@primitive("has_skill", "function", "player:player, skill:skill", "bool", "the player has a skill (by id or name)")
def _has_skill(f, player, skill):
    key = getattr(skill, "ident", skill)
    return any(s.ident == key or s.name == key for s in player.skills)


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
    kept = list(remove or [])  # held alive, so an id in `gone` is only ever that object's
    gone = {id(y) for y in kept}  # the same test as `x is y`, in linear time
    return [x for x in (items or []) if id(x) not in gone]


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
    return [p for p in (players or []) if p.alive and g.dispatch.value("targetable", user, card, p)]


@primitive("within_attack_range", "function", "player:player", "players",
           "the other living characters within the player's attack range, in seat order after it")
def _within_attack_range(f, player):
    g = f.game
    if player is None or not player.alive:
        return []
    rng = g.dispatch.value("attack_range", player)
    return [q for q in g.seat_order(player) if q is not player and g.dispatch.distance(player, q) <= rng]


@primitive("take", "function", "items:list, n:int", "list", "the first n items (all of them when there are fewer)")
def _take(f, items, n):
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise RuleError(f"take: the count must be a number 0 or more, not {n!r}")
    return list(items or [])[:n]


@primitive("without", "function", "items:list, item:any", "list", "the list without an item")
def _without(f, items, item):
    return [x for x in items if x is not item]


def event_new(name: str, **fields: Any) -> Event:
    return Event(name, **fields)


# ---------------------------------------------------------------- skills as values
def skill_rule(f, skill: Any) -> Any:
    """A skill argument: the skill itself (`skill`, an item of skills_of) or its id or name."""
    from ..program import SkillRule

    if isinstance(skill, SkillRule):
        return skill
    found = f.game.program.skill_named(str(skill)) if skill is not None else None
    if found is None:
        raise RuleError(f"there is no skill {skill!r}")
    return found


@primitive("skill_uses", "function", "player:player, skill:skill, scope:str=game", "int",
           "how many times the player's skill has fired (a trigger ran, an active was used, a provider ran) in this "
           "phase, turn, round or game")
def _skill_uses(f, player, skill, scope="game"):
    scope = scope_arg(scope, "skill_uses")
    return 0 if player is None else f.game.dispatch.fired_count(player, skill_rule(f, skill).ident, scope)


@primitive("last_zone", "function", "card:card", "str",
           "where the card was before its last move: hand, equip, judge, pile, processing, draw or discard (a "
           "converted card: its first card) — where a discarded card came from")
def _last_zone(f, card):
    return card.physical[0].last_zone if card is not None and card.physical else None


@primitive("last_holder", "function", "card:card", "player",
           "who held the card before its last move (in a hand, equipment, judge area or pile), or none")
def _last_holder(f, card):
    return card.physical[0].last_holder if card is not None and card.physical else None


@primitive("uses_on", "function", "user:player, family:family, target:player, scope:str=turn", "int",
           "how many cards of the family the user has used with the target among their targets in this phase, turn, "
           "round or game (a limit per target: `where uses_on(user, FAMILY, it, \"turn\") < 1`)")
def _uses_on(f, user, family, target, scope="turn"):
    scope = scope_arg(scope, "uses_on")
    if user is None or target is None:
        return 0
    return f.game.usage[scope].get((user.seat, ("on", str(family), target.seat)), 0)


@primitive("awakened", "function", "player:player, skill:skill", "bool",
           "the player's awakening (or limited) skill has fired: it is spent for the rest of the game")
def _awakened(f, player, skill):
    return player is not None and f.game.dispatch.fired_count(player, skill_rule(f, skill).ident, "game") > 0


@primitive("skills_of", "function", "of:any", "list",
           "the skills of a general (as printed, leader skills included), or a character's own skills now (lost ones "
           "left out, gained ones in; not its equipment's)")
def _skills_of(f, of):
    from ..program import GeneralRule

    if of is None:
        return []
    if isinstance(of, GeneralRule):
        return list(of.skills)
    if type(of) is not Player:
        raise RuleError(f"skills_of takes a general or a player, not {kind_of(of)}")
    return f.game.dispatch.own_skills(of)


@primitive("any", "function", "items:list", "bool", "some item is true (any([c.suit == ♥ for c in hand(p)]))")
def _any(f, items):
    return any(truthy(x) for x in (items or []))


@primitive("all", "function", "items:list", "bool", "every item is true (true for an empty list)")
def _all(f, items):
    return all(truthy(x) for x in (items or []))


@primitive("div", "function", "a:int, b:int", "int", "a divided by b, rounded down (half a hand: div(n, 2))")
def _div(f, a, b):
    if not b:
        raise RuleError("div by zero")
    return a // b


@primitive("holder_of", "function", "card:card", "player",
           "who holds the card in a hand, equipment or judge area (a converted card: its first card); a judgement "
           "card while it is being judged is the judged character's; else none")
def _holder_of(f, card):
    if card is None or not card.physical:
        return None
    c = card.physical[0]
    if c.zone == "processing":
        return f.game.judge_owner.get(c.id)
    return c.holder if c.zone in ("hand", "equip", "judge") else None
