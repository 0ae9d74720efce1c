"""Requests: actions that ask a player to choose."""

from __future__ import annotations

from typing import Any

from ..draws import shuffle
from ..errors import BreakLoop, RuleError, StopEffect  # noqa: F401 - re-exported for generated code
from .arguments import _need, count_arg, spend_items
from .core import primitive


# ---------------------------------------------------------------- requests (functions that ask)
@primitive("confirm", "action", "player:player, prompt:str=\"\"", "bool", "ask yes/no")
def _confirm(f, player, prompt=""):
    return f.game.choices.confirm(player, prompt or "confirm?", about=_skill_asking(f, player))


def _skill_asking(f, player) -> Any:
    """The skill whose owner is asked (its AI hints travel with the request); None for anyone else."""
    skill = f.vars.get("skill")
    return skill if skill is not None and player is not None and f.vars.get("owner") is player else None


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


@primitive("choose", "action", "player:player, items:list, optional:bool=false, prompt:str=\"\"", "item",
           "the player picks one item (none when optional and declined or nothing to pick)")
def _choose(f, player, items, optional=False, prompt=""):
    _options(f, items, "choose")
    return f.game.choices.choose_one(_need(player, "choose's player"), list(items), optional, prompt or "choose",
                                     about=_skill_asking(f, player))


@primitive("choose_many", "action", "player:player, items:list, min:int=0, max:int=99, prompt:str=\"\"", "list",
           "the player picks between min and max items")
def _choose_many(f, player, items, min=0, max=99, prompt=""):  # noqa: A002
    low, high = count_arg(min, "choose_many's min"), count_arg(max, "choose_many's max")
    if high < low:
        raise RuleError(f"choose_many's max ({high}) is below its min ({low})")
    _options(f, items, "choose_many")
    return f.game.choices.choose_many(_need(player, "choose_many's player"), list(items or []), low, high,
                                      prompt or "choose", about=_skill_asking(f, player))


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
    return f.game.choices.choose_one(chooser, items, optional, f"a card of {owner.label()}")
