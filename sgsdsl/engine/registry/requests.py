"""Requests: actions that ask a player to choose."""

from __future__ import annotations

from typing import Any

from ..agents import CARD_OF
from ..draws import shuffle
from ..errors import BreakLoop, RuleError, StopEffect  # noqa: F401 - re-exported for generated code
from ..model import Player
from .arguments import _need, count_arg, spend_items
from .core import ABOUT_FIELD, befallen, named_in, primitive


# ---------------------------------------------------------------- requests (functions that ask)
@primitive("confirm", "action", "player:player, prompt:str=\"\"", "bool", "ask yes/no")
def _confirm(f, player, prompt=""):
    about, subject = _asking(f, player)
    return f.game.choices.confirm(player, prompt or "confirm?", about=about, subject=subject)


def _asking(f, player) -> tuple[Any, Any]:
    """(the skill whose owner is asked, its owner when someone else is asked): a skill's AI hints travel with a
    request to its owner; a request to anyone else inside a skill names the owner as its subject, so an agent can
    tell a favour asked of it (颂威: let the lord draw) or a challenge offered (蛊惑: question the card) by whom."""
    skill = f.vars.get("skill")
    if skill is None or player is None:
        return None, None
    owner = f.vars.get("owner")
    return (skill, None) if owner is player else (None, owner)


def _befallen_other(f, player) -> Any:
    """In a trigger's body, the one its question was about (`TriggerRule.subject`: the event's other party where the
    event befalls the owner, …), else the one its event befalls (`befallen`), when that is not PLAYER: whom the
    owner's choice among written options is about (调和, at another's prepare phase: "it draws 1" or "you draw 1 and
    it discards 1"; a designer's 反噬, on its owner's damage: "the source discards a card" or "you draw 1"), so that
    an agent weighs the options' help and harm to that one by its side. None elsewhere."""
    event = f.vars.get("event")
    if event is None:
        return None
    field = f.vars.get(ABOUT_FIELD)  # (the field its trigger's question was about: the event's other party, …)
    named = (named_in(event.__dict__, field, player) if field is not None else None) or befallen(event.__dict__)
    return named if named is not player else None


def _option_hints(hints: Any, items: Any, what: str) -> list[tuple[str, ...]] | None:
    """A choice's `hints:`, one text of AI hint words per item (`["", "control risk"]`), as the words of each; the
    agent reads them as it reads a card's tags (docs/language.md, "AI hints")."""
    if hints is None:
        return None
    if not isinstance(hints, list) or not all(isinstance(h, str) for h in hints):
        raise RuleError(f"{what}'s hints must be a list of texts, one per item (words such as \"control risk\")")
    n = 0 if items is None else len(items)
    if len(hints) != n:
        raise RuleError(f"{what}'s hints must give one text per item: {n} item(s), {len(hints)} hint text(s)")
    return [tuple(h.split()) for h in hints]


def _option_costs(costs: Any, items: Any, what: str) -> list[int] | None:
    """A choice's `costs:`, per item how many of the chooser's own cards choosing it makes the rule take (破绽:
    as many as the HP of the one chosen); for agents, which weigh a cheap target against a dear one (docs/language.md,
    "AI hints")."""
    if costs is None:
        return None
    if not isinstance(costs, list) or not all(type(c) is int and c >= 0 for c in costs):
        raise RuleError(f"{what}'s costs must be a list of whole numbers, at least 0, one per item")
    n = 0 if items is None else len(items)
    if len(costs) != n:
        raise RuleError(f"{what}'s costs must give one number per item: {n} item(s), {len(costs)} cost(s)")
    return costs


def _option_groups(befalls: Any, items: Any, what: str) -> list[tuple[int, ...]] | None:
    """A choice's `befalls:`, per item the characters the rule then acts on when it is chosen (号召's kingdom: its
    characters), as the seats of the living among them; for agents, which weigh an option by whom it befalls."""
    if befalls is None:
        return None
    if not isinstance(befalls, list) or not all(isinstance(g, list) and all(isinstance(q, Player) for q in g)
                                                for g in befalls):
        raise RuleError(f"{what}'s befalls must be a list of lists of characters, one per item")
    n = 0 if items is None else len(items)
    if len(befalls) != n:
        raise RuleError(f"{what}'s befalls must give one list of characters per item: {n} item(s), "
                        f"{len(befalls)} list(s)")
    return [tuple(q.seat for q in g if q.alive) for g in befalls]


def _choice_tags(tags: Any, what: str) -> tuple[str, ...]:
    """A choice's own `tags:` (`tags: "help"`): AI hint words for this question, read by agents in place of the
    asking skill's (缔盟 takes cards from one seat and gives them to another)."""
    if not isinstance(tags, str):
        raise RuleError(f"{what}'s tags must be a text of AI hint words (such as \"help\" or \"control\")")
    return tuple(sorted(set(tags.split())))


# The most options one choice offers (docs/language.md, "Limits"): every option is labelled, logged and weighed
# by the agent, so a rule offering 1..100000 would spend seconds and hundreds of MB on one question.
MAX_OPTIONS = 1000


def _options(f: Any, items: Any, what: str) -> None:
    """Refuse more than MAX_OPTIONS options; charge the rest as 16 list items each (on top of the 1 every list
    argument pays), for an option is labelled, recorded and weighed, not just walked."""
    n = 0 if items is None else len(items)
    if n > MAX_OPTIONS:
        raise RuleError(f"{what} offers {n} options; a choice offers at most {MAX_OPTIONS}")
    spend_items(f, n * 15, f"{what}()")


@primitive("choose", "action",
           "player:player, items:list, optional:bool=false, prompt:str=\"\", hints:list=none, tags:str=none, "
           "costs:list=none, befalls:list=none",
           "item", "the player picks one item (none when optional and declined or nothing to pick); hints: AI hint "
           "words per item; tags: AI hint words for the choice, in place of its skill's; costs: per item, the "
           "chooser's cards the rule then takes; befalls: per item, the characters the rule then acts on")
def _choose(f, player, items, optional=False, prompt="", hints=None, tags=None, costs=None, befalls=None):
    _options(f, items, "choose")
    per_item = _option_hints(hints, items, "choose")
    prices = _option_costs(costs, items, "choose")
    groups = _option_groups(befalls, items, "choose")
    about, subject = _asking(f, player)
    if tags is not None:
        about = _choice_tags(tags, "choose")
    elif subject is None and about is not None and items and all(type(x) is str for x in items):
        subject = _befallen_other(f, player)
    return f.game.choices.choose_one(_need(player, "choose's player"), list(items), optional, prompt or "choose",
                                     about=about, hints=per_item, subject=subject, costs=prices, groups=groups)


@primitive("choose_many", "action",
           "player:player, items:list, min:int=0, max:int=99, prompt:str=\"\", hints:list=none, tags:str=none, "
           "costs:list=none, befalls:list=none",
           "list", "the player picks between min and max items; hints: AI hint words per item; tags: AI hint words "
           "for the choice, in place of its skill's; costs: per item, the chooser's cards the rule then takes; "
           "befalls: per item, the characters the rule then acts on")
def _choose_many(f, player, items, min=0, max=99, prompt="", hints=None, tags=None, costs=None,  # noqa: A002
                 befalls=None):
    low, high = count_arg(min, "choose_many's min"), count_arg(max, "choose_many's max")
    if high < low:
        raise RuleError(f"choose_many's max ({high}) is below its min ({low})")
    _options(f, items, "choose_many")
    per_item = _option_hints(hints, items, "choose_many")
    prices = _option_costs(costs, items, "choose_many")
    groups = _option_groups(befalls, items, "choose_many")
    about, subject = _asking(f, player)
    if tags is not None:
        about = _choice_tags(tags, "choose_many")
    return f.game.choices.choose_many(_need(player, "choose_many's player"), list(items or []), low, high,
                                      prompt or "choose", about=about, hints=per_item, subject=subject,
                                      costs=prices, groups=groups)


@primitive("choose_card_from", "action", "chooser:player, owner:player, areas:list=none, optional:bool=false", "card",
           "pick one card from the owner's hand (unseen), equipment or judge area")
def _choose_card_from(f, chooser, owner, areas=None, optional=False):
    # someone must choose, also where nothing is left to choose from (as `choose` asks): otherwise the native
    # build's typed request refused a none that the Python engine let through with an empty list
    _need(chooser, "choose_card_from's chooser")
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
        shuffle(f.game.rng, hidden)
        items = hidden + items[len(owner.hand):]
    # (whose card it is, the subject: an agent weighs what the owner loses, a pending harm in its judge area
    # being a loss that helps it)
    return f.game.choices.choose_one(chooser, items, optional, CARD_OF + owner.label(),
                                     subject=owner if owner is not chooser else None)
