"""Vocabulary of whole-turn and table mechanics: face up / face down (翻面), extra and skipped turns, 拼点,
and piles on a general."""

from __future__ import annotations

from ..errors import BreakLoop, RuleError, StopEffect  # noqa: F401 - re-exported for generated code
from .arguments import _need, alive_arg
from .core import ATTRIBUTES, primitive, timing

ATTRIBUTES["player"]["face_down"] = ("bool", False)

# ---------------------------------------------------------------- timings
timing("turned_over", "player:player, face_down:bool",
       doc="a character was turned over; face_down is its new state")
timing("pindian_reveal", "initiator:player, target:player, initiator_card:card, target_card:card, reason:str",
       doc="both 拼点 cards are chosen and about to be compared (they are in the processing area)")
timing("pindian_done", "initiator:player, target:player, initiator_card:card, target_card:card, winner:player, "
       "won:bool, reason:str",
       doc="a 拼点 has its result: winner (none on a tie), won (the initiator won); the cards go to the "
           "discard pile after this timing")
timing("skill_lost", "player:player, skill:skill",
       doc="a character has just lost a skill it had (lose_skill, lose_all_skills); the lost skill itself no longer "
           "answers, so a `rule` reacts (a borrowed general's gender and kingdom revert)")
timing("discarded", "cards:cards, by:player",
       doc="cards were discarded (弃置) into the discard pile; by: who discarded them (none: a rule did); where each "
           "came from: last_holder(c), last_zone(c)")
timing("gained_cards", "player:player, cards:cards",
       doc="cards came into a character's hand (drawn, obtained, given, swapped), after the losses of the same move")


# ---------------------------------------------------------------- face up / face down, whole turns
@primitive("turn_over", "action", "player:player",
           doc="turn the character over (翻面): face up becomes face down and back. When a face-down character's "
               "turn would start, it turns face up instead and the whole turn is skipped")
def _turn_over(f, player):
    f.game.turnflow.turn_over(_need(player, "turn_over's player"))


@primitive("extra_turn", "action", "player:player",
           doc="the player takes an extra turn right after the current one (after earlier extra turns)")
def _extra_turn(f, player):
    f.game.turnflow.queue_extra_turn(_need(player, "extra_turn's player"))


@primitive("skip_turn", "action", "player:player",
           doc="the player's next turn is skipped as a whole: no phases, no turn_start or turn_end")
def _skip_turn(f, player):
    f.game.turnflow.skip_turn(_need(player, "skip_turn's player"))


@primitive("is_extra_turn", "function", "", "bool", "the turn being played is an extra turn")
def _is_extra_turn(f):
    return f.game.extra_now


# ---------------------------------------------------------------- 拼点
@primitive("pindian", "action", "initiator:player, target:player, reason:str=\"\"", "event:pindian_done",
           "拼点: each picks a hand card unseen by the other, both are revealed together, the higher rank wins "
           "(on a tie the initiator does not win), then both go to the discard pile. Returns the result "
           "(initiator, target, initiator_card, target_card, winner, won), or none when can_pindian is false")
def _pindian(f, initiator, target, reason=""):
    return f.game.pindians.pindian(_need(initiator, "pindian's initiator"), _need(target, "pindian's target"),
                                   str(reason))


@primitive("can_pindian", "function", "initiator:player, target:player", "bool",
           "the two may 拼点: both alive, not the same character, each with a hand card")
def _can_pindian(f, initiator, target):
    return f.game.pindians.can_pindian(initiator, target)


# ---------------------------------------------------------------- piles on a general
@primitive("put_on_pile", "action", "player:player, name:str, items:any, public:bool=true",
           doc="put a card or a list of cards (from wherever they are) or general cards (from the pool) on a "
               "named pile on the player's general; a public pile shows in every view, a private one only to its "
               "owner. Pile cards leave it by any move (obtain, discard, use_virtual); at death they go to the "
               "discard pile and general cards back to the pool")
def _put_on_pile(f, player, name, items, public=True):
    if not isinstance(items, (list, tuple)):  # one card or general; anything else is refused by the pile
        items = [] if items is None else [items]
    f.game.piles.put_on_pile(_need(player, "put_on_pile's player"), str(name), list(items or []), bool(public))


@primitive("pile", "function", "player:player, name:str", "list",
           "the cards (or general cards) on the player's named pile, oldest first")
def _pile(f, player, name):
    return list(_need(player, "pile's player").piles.get(name, []))


@primitive("swap_cards", "action", "a:player, b:player",
           doc="a and b exchange their hands in one move: every card of each goes to the other at once; then each "
               "loses its cards (lost_cards) and gains the other's (gained_cards), in seat order; a character and "
               "itself: nothing happens")
def _swap_cards(f, a, b):
    a, b = alive_arg(a, "swap_cards' first character"), alive_arg(b, "swap_cards' second character")
    if a is not b:  # (its own hand with itself: nothing moves, nothing is lost or gained)
        f.game.zones.swap_hands(a, b)


# ---------------------------------------------------------------- placing cards, identity
@primitive("put_in_equip", "action", "player:player, card:card",
           doc="put an equipment card into the player's equipment area without using it (no card_used); the "
               "slot's old card goes to the discard pile. Its former holder loses it (lost_cards)")
def _put_in_equip(f, player, card):
    f.game.zones.place_equip(_need(player, "put_in_equip's player"), _need(card, "put_in_equip's card"))


@primitive("set_kingdom", "action", "player:player, kingdom:kingdom",
           doc="the character's kingdom becomes this one (a skill that borrows a general takes that general's)")
def _set_kingdom(f, player, kingdom):
    player = _need(player, "set_kingdom's player")
    player.kingdom = str(kingdom)
    f.game.emit_log("kingdom", player=player.label(), kingdom=player.kingdom)


@primitive("set_gender", "action", "player:player, gender:gender", doc="the character's gender becomes this one")
def _set_gender(f, player, gender):
    player = _need(player, "set_gender's player")
    player.gender = str(gender)
    f.game.emit_log("gender", player=player.label(), gender=player.gender)
