"""The timings rules can trigger on, and the values the engine itself consults."""

from __future__ import annotations

from ..errors import BreakLoop, RuleError, StopEffect  # noqa: F401 - re-exported for generated code
from ..model import color_of
from .core import (
    engine_value,
    timing,
)

# ---------------------------------------------------------------- timings
timing("game_start", "", doc="the game is set up (roles, generals, starting hands), before the first round")
timing("round_start", "round:int", doc="a new round begins (`round` counts from 1)")
timing("turn_start", "player:player", doc="a character's turn begins, before its first phase")
timing("turn_end", "player:player", doc="a character's turn has ended, after its last phase")
timing("before_phase", "player:player, phase:phase", cancellable=True,
       doc="before a phase begins; cancel it to skip the phase")
timing("phase_start", "player:player, phase:phase", doc="a phase of the turn begins")
timing("phase_end", "player:player, phase:phase", doc="a phase of the turn ends")
timing("drawing", "player:player, amount:int", mutable="amount", cancellable=True,
       doc="the draw phase is about to draw `amount` cards; cancel to draw none")
timing("card_used", "user:player, card:card, targets:players, context:str",
       doc="a card was used (使用) and its targets chosen")
timing("card_done", "user:player, card:card, targets:players",
       doc="a used card has resolved (after its last target and its finish hook); its cards not taken yet are still "
           "in the processing area (zone_of(c) == \"processing\") and go to the discard pile next")
timing("targeted", "user:player, card:card, target:player, use:use", mutable="target", cancellable=True,
       doc="a character became a target of a card; change `target` to redirect it")
timing("before_effect", "user:player, card:card, target:player, use:use", cancellable=True,
       doc="a card is about to take effect on a target; cancel: it has no effect on that target")
timing("responded", "player:player, card:card, family:str, against:card, against_user:player, negated:bool, "
       "play:bool, use:use", mutable="negated",
       doc="a card was given in answer to a request; set negated to make the answer not count")
timing("answered", "player:player, family:str, against:card, against_user:player, use:use, play:bool",
       doc="a request for cards was answered in full (e.g. the card an attack asked for was given: it was dodged)")
_DAMAGE = "source:player, target:player, amount:int, nature:nature, card:card, chain:bool, use:use, transferred:bool"
timing("creating_damage", _DAMAGE, mutable="source,target,amount,nature", cancellable=True,
       doc="damage is being created, before causing_damage: change its `source` (a dead source means none) or "
           "its `target` (redirected: it keeps its card and is flagged `transferred`)")
for _t in ("causing_damage", "taking_damage", "damaged", "after_damage"):
    timing(_t, _DAMAGE,
           mutable="amount,nature", cancellable=_t in ("causing_damage", "taking_damage"),
           doc={"causing_damage": "damage is about to be dealt (source side)",
                "taking_damage": "damage is about to be taken (target side)",
                "damaged": "damage was taken and the target is still alive",
                "after_damage": "damage has fully resolved, dying included"}[_t])
timing("damage_done", _DAMAGE,
       doc="the target has just lost the HP (dead or dying or not); dying is resolved after this timing")
timing("recovering", "target:player, amount:int, source:player, card:card", mutable="amount", cancellable=True,
       doc="HP is about to be recovered; change `amount`, or cancel to recover none")
timing("recovered", "target:player, amount:int, source:player, card:card",
       doc="HP was recovered (`amount` is what was gained, at most up to max HP)")
timing("lost_hp", "player:player, amount:int", doc="HP was lost without damage (流失); dying follows at 0 HP")
timing("dying", "player:player, source:player",
       doc="a character fell to 0 HP or less and is dying; rescues are asked for after this timing")
timing("death", "victim:player, killer:player",
       doc="a character has just died: its cards are still where they were and its own skills still answer; "
           "before its cards are discarded, before the win check and the mode's rewards (at `died`)")
timing("died", "victim:player, killer:player",
       doc="a character died: its cards are discarded and its role revealed; `killer` may be none")
timing("judging", "player:player, card:card, reason:card", mutable="card",
       doc="a judgement card is revealed and may still be replaced")
timing("judged", "player:player, card:card, reason:card", doc="a judgement took effect")
timing("lost_cards", "player:player, cards:cards, zone:zone", doc="cards left a hand or equipment area")
timing("max_hp_changed", "player:player, change:int, max_hp:int",
       doc="a character's max HP changed by `change` (its HP already cut to the new maximum); not when it fell to 0")
timing("declared", "user:player, card:card, context:str, targets:players", cancellable=True,
       doc="a card declared face down (a conversion into any card of a category: `view_as basic from 1 hand`) is "
           "about to be used (context play, dying or nullify, its targets chosen) or given in answer (respond); "
           "cancel: it is void, its cards go to the discard pile and nothing is used or given")
timing("nullify", "card:card, user:player, target:player, use:use", cancellable=True,
       doc="a trick's nullify window opens (before each target's effect, before anyone is asked for a "
           "card of the nullify context); cancel(event) nullifies the card on that target. A card used "
           "in the `nullify` context answers this same event")


# ---------------------------------------------------------------- engine values
engine_value("distance", "from:player, to:player", "int", lambda g, a, b: g.dispatch.seat_distance(a, b),
             "distance between two characters (min 1; 0 from a character to itself)",
             clamp=lambda g, d, a, b: 0 if a is b else max(1, d), usual=2)
engine_value("attack_range", "player:player", "int",
             lambda g, p: (p.equips["weapon"].rule.attack_range or 1) if "weapon" in p.equips else 1,
             "attack range: the weapon's range, else 1", usual=1)
engine_value("hand_limit", "player:player", "int", lambda g, p: p.hp, "hand limit in the discard phase", usual=4)
engine_value("draw_count", "player:player", "int", lambda g, p: 2, "cards drawn in the draw phase", usual=2)
engine_value("targetable", "user:player, card:card, target:player", "bool", lambda g, u, c, t: True,
             "whether a card may target a character")
engine_value("card_suit", "card:card", "suit", lambda g, c: c.printed_suit,
             "the suit a physical card counts as for every rule (printed: its face, unless a skill modifies it)")
engine_value("card_color", "card:card", "color", lambda g, c: color_of(c.suit),
             "the colour a physical card counts as (the colour of the suit it counts as, unless modified)")
engine_value("card_name", "card:card", "str", lambda g, c: c.printed_rule.name,
             "the card a physical card counts as, by name: its rules, family and category follow")
engine_value("alive_at_zero", "player:player", "bool", lambda g, p: False,
             "whether a rule keeps the character alive at 0 HP or less: it does not enter (or leaves) its dying state "
             "while this holds, and enters it as soon as it no longer does (a skill lost, a condition gone)")
engine_value("extra_targets", "user:player, card:card", "int", lambda g, u, c: 0,
             "extra targets a card may choose", usual=0)
