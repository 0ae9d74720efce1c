"""Actions: statements with an effect on the game."""

from __future__ import annotations

from typing import Any

from ..errors import BreakLoop, GameOver, RuleError, StopEffect  # noqa: F401 - re-exported for generated code
from ..events import Event
from ..model import PHASES, Card, Player, UseRecord, VirtualCard
from ..program import Frame
from .arguments import _cards, _holder, _marks_of, _need, alive_arg, count_arg
from .core import primitive


# ---------------------------------------------------------------- actions
@primitive("draw", "action", "player:player, n:int", "cards", "the player draws n cards")
def _draw(f: Frame, player: Player | None, n: int) -> list[Card]:
    # (none allowed in the signature: the check below names it, on both builds alike)
    return f.game.zones.draw(_need(player, "draw's player"), count_arg(n, "draw's count", len(f.game.cards)))


@primitive("damage", "action",
           "target:player, amount:int, source:player=none, card:card=none, nature:nature=normal, chain:bool=false, "
           "use:use=none", "int", "deal damage; returns the damage actually dealt")
def _damage(f, target, amount, source=None, card=None, nature="normal", chain=False, use=None):
    return f.game.health.damage(_need(target, "damage's target"), count_arg(amount, "damage's amount"), source, card,
                                nature, chain, use)


@primitive("recover", "action", "target:player, amount:int, source:player=none, card:card=none", "int")
def _recover(f, target, amount, source=None, card=None):
    return f.game.health.recover(_need(target, "recover's target"), count_arg(amount, "recover's amount"), source, card)


@primitive("lose_hp", "action", "player:player, n:int")
def _lose_hp(f, player, n):
    f.game.health.lose_hp(_need(player, "lose_hp's player"), count_arg(n, "lose_hp's count"))


@primitive("discard", "action", "cards:cards, by:player=none", doc="put cards into the discard pile")
def _discard(f, cards, by=None):
    f.game.zones.discard(_cards(cards), by)


@primitive("obtain", "action", "player:player, cards:cards", doc="move cards into the player's hand")
def _obtain(f, player, cards):
    f.game.zones.obtain(alive_arg(player, "obtain's player"), _cards(cards))


@primitive("give", "action", "from_player:player, to:player, cards:cards", doc="hand cards change owner")
def _give(f, from_player, to, cards):
    giver = _need(from_player, "give's giver")
    to = alive_arg(to, "give's receiver")
    for c in (x for card in _cards(cards) for x in card.physical):
        if c.holder is not giver:
            raise RuleError(f"give: {c.label()} is not {giver.label()}'s to give (it is in {c.zone}"
                            f"{' of ' + c.holder.label() if c.holder is not None else ''})")
    f.game.emit_log("give", by=giver.label(), to=to.label(), n=len(_cards(cards)))
    f.game.zones.obtain(to, _cards(cards))


@primitive("put_on_top", "action", "cards:cards", doc="put cards on top of the draw pile (last one on top)")
def _put_top(f, cards):
    f.game.zones.move(_cards(cards), "draw", None, top=True)


@primitive("put_on_bottom", "action", "cards:cards", doc="put cards at the bottom of the draw pile")
def _put_bottom(f, cards):
    f.game.zones.move(_cards(cards), "draw", None, top=False)


@primitive("judge", "action", "player:player, reason:card=none, hoping:card_test=none", "card",
           "reveal the top card as the player's judgement; returns the final judgement card. `hoping`: the result "
           "the judged player hopes for, a condition on the card `it` (`hoping: it.suit == ♥`): agents asked while "
           "the judgement is pending (a skill that may replace its card) are told whether the card now, and each card "
           "they may pick, is one the judged player hopes for")
def _judge(f, player, reason=None, hoping=None):
    return f.game.health.judge(_need(player, "judge's player"), reason, hoping)


@primitive("retrial", "action", "event:event, card:card", doc="replace the card of a pending judgement")
def _retrial(f, event, card):
    f.game.health.retrial(event, _need(card, "retrial's card"))


@primitive("respond", "action",
           "player:player, family:family, times:int=1, play:bool=false, against:card=none, against_user:player=none, "
           "use:use=none, behalf:player=none", "bool",
           "ask the player for `times` cards of a family; true when all were given. `behalf`: the character they are "
           "given for (a leader asking its kingdom for a card): agents are told, so they can weigh whom the card helps")
def _respond(f, player, family, times=1, play=False, against=None, against_user=None, use=None, behalf=None):
    return f.game.use.respond(_need(player, "respond's player"), family, times, play, against, against_user, use,
                              behalf)


@primitive("use_card_on", "action", "user:player, family:family, target:player, event:event=none", "bool",
           "ask the user to use a card of a family (a hand card or a conversion) on the target; true if used")
def _use_card_on(f, user, family, target, event=None):
    g = f.game
    if user is None or target is None or not user.alive or not target.alive:
        return False
    offers: list[tuple[str, tuple]] = []
    for card in user.hand:
        if card.family == family:
            for use in card.rule.by_context.get("play", ()):
                if g.use.legal_target(user, card, use, target):
                    offers.append((f"use {card.label()} on {target.label()}", ("card", card, use)))
                    break
    for skill in user.skills:
        offered: list[Any] = []  # one offer per conversion: its first use clause that can reach the target
        for va, probe, use in g.use.conversion_probes(user, skill, "play", family):
            if not any(v is va for v in offered) and g.use.legal_target(user, probe, use, target):
                offers.append((f"{skill.name}: use as {probe.name} on {target.label()}", ("viewas", skill, va, use)))
                offered.append(va)
    if not offers:
        return False
    pick = g.choices.ask(user, "use_on", f"use {family} on {target.label()}", [o[0] for o in offers] + ["decline"],
                         subject=target)[0]
    if pick == len(offers):
        return False
    card, use = g.use.realize_offer(user, offers[pick][1])
    if card is None:
        return False
    g.use.use_card(user, card, use, [target], "play", event)
    return True


def _play_use(rule):
    plays = rule.by_context.get("play")
    return plays[0] if plays else None


@primitive("use_virtual", "action",
           "user:player, family:family, targets:players=none, nullifiable:bool=true, cards:cards=none, "
           "context:str=auto, distance:bool=true", "bool",
           "the user uses a card of the family made of `cards` (none: of no card), under its use clause for "
           "`context`: play, or dying (on the character whose dying state is being resolved; auto: dying while "
           "someone is dying and the card has a dying clause, else play). With `targets` each must be "
           "legal (the use limit is not checked); without, the use must be allowed now and the user "
           "picks legal targets. `nullifiable: false` opens no nullify window; `distance: false` ignores the "
           "clause's target condition (无距离限制: only who it may aim at by its kind, and targetable). True if "
           "the card was used")
def _use_virtual(f, user, family, targets=None, nullifiable=True, cards=None, context="auto", distance=True):
    g = f.game
    if user is None or not user.alive:
        return False
    rule = _need(g.program.card_by_name(family), f"card {family}")
    if context not in ("auto", "play", "dying"):
        raise RuleError(f"use_virtual: context must be play, dying or auto, not {str(context)[:20]!r}")
    if context == "auto":
        context = "dying" if g.dying_now and rule.by_context.get("dying") else "play"
    subs = tuple(c for x in _cards(cards) for c in x.physical)
    skill = f.vars.get("skill")
    card = VirtualCard(rule, subs, skill.ident if skill is not None else None)
    if context == "dying":
        uses = rule.by_context.get("dying")
        if not uses or not g.dying_now:
            return False
        dying = g.dying_now[-1]
        use = uses[0]
        if not g.use.can_use(user, card, use, dying):
            return False
        g.use.use_card(user, card, use, [dying], "dying", None, nullifiable=bool(nullifiable))
        return True
    use = _play_use(rule)
    if use is None:
        return False
    if not distance:
        use = g.use.without_filter(use)
    if targets is not None:
        chosen = list(targets)
        if not chosen or not all(g.use.legal_target(user, card, use, t) for t in chosen):
            return False
    else:
        if not g.use.can_use(user, card, use):
            return False
        chosen = g.use.choose_targets(user, card, use)
        if chosen is None:
            return False
    g.use.use_card(user, card, use, chosen, "play", None, nullifiable=bool(nullifiable))
    return True


@primitive("could_use", "function", "user:player, family:family", "bool",
           "the user could use a card of the family in the play phase now (limits and legal targets)")
def _could_use(f, user, family):
    g = f.game
    rule = g.program.card_by_name(family)
    if rule is None or user is None or not user.alive:
        return False
    probe = VirtualCard(rule, (), None)
    return any(g.use.can_use(user, probe, u) for u in rule.by_context.get("play", ()))


@primitive("targets_for", "function", "user:player, family:family, distance:bool=true", "players",
           "the characters the user could legally use a card of the family on in the play phase (use limit aside), "
           "in seat order from the user; `distance: false`: with no distance limit (as use_virtual's)")
def _targets_for(f, user, family, distance=True):
    g = f.game
    rule = g.program.card_by_name(family)
    if rule is None or user is None or not user.alive:
        return []
    probe = VirtualCard(rule, (), None)
    use = _play_use(rule)
    if use is None:
        return []
    return g.use.legal_targets(user, probe, use if distance else g.use.without_filter(use))


@primitive("reveal", "action", "n:int", "cards",
           "turn the top n cards of the draw pile face up into the processing area; returns them, top first")
def _reveal(f, n):
    return [f.game.zones.reveal_top() for _ in range(count_arg(n, "reveal's count", len(f.game.cards)))]


@primitive("cancel", "action", "event:event", doc="cancel a cancellable event (prevent, skip, nullify)")
def _cancel(f, event):
    _need(event, "cancel's event").cancelled = True


@primitive("skip_phase", "action", "player:player, phase:phase", doc="the player skips that phase this turn")
def _skip_phase(f, player, phase):
    player = _need(player, "skip_phase's player")
    if phase not in PHASES:
        raise RuleError(f"skip_phase: {phase!r} is not a phase ({', '.join(PHASES)})")
    f.game.dispatch.set_mark(player, "skip_" + phase, True, "turn")
    f.game.emit_log("skip", player=player.label(), phase=phase)


@primitive("mark", "action", "holder:any, name:str, value:any=1, until:str=forever",
           doc="set a mark on a player, a use, an event or the game, kept until the end of a phase/turn/round or "
               "forever (a use's or an event's marks live as long as it does)")
def _mark(f, holder, name, value=1, until="forever"):
    if isinstance(value, (list, tuple)) and len(value) > MAX_MARK_ITEMS:
        raise RuleError(f"mark {name!r}: a list of {len(value)} items; a mark holds at most {MAX_MARK_ITEMS}")
    target = _holder(f, holder)
    if until not in ("phase", "turn", "round", "forever"):
        raise RuleError(f"mark lifetime must be phase, turn, round or forever, not {until!r}")
    if isinstance(target, (UseRecord, Event)):
        _marks_of(target)[name] = value
    else:
        f.game.dispatch.set_mark(target, name, value, until)


@primitive("unmark", "action", "holder:any, name:str", doc="remove a mark")
def _unmark(f, holder, name):
    target = _holder(f, holder)
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
    player = _need(player, "set_chained's player")
    player.chained = bool(chained)
    f.game.emit_log("chain", player=player.label(), chained=bool(chained))


@primitive("move_to_judge", "action", "card:card, player:player", doc="move a judge-area card to a player's judge area")
def _move_to_judge(f, card, player):
    card = _need(card, "move_to_judge's card")
    player = alive_arg(player, "move_to_judge's receiver")
    if not any(card in p.judge for p in f.game.players):
        where = card.physical[0].zone if card.physical else "nowhere"
        raise RuleError(f"move_to_judge: {card.label()} is not in a judge area (it is in {where})")
    if card not in player.judge and any(c.name == card.name for c in player.judge):
        raise RuleError(f"move_to_judge: {player.label()} already has a {card.name} in the judge area")
    f.game.use.move_judge(card, player)


@primitive("end_phase", "action", "", doc="end the current play phase")
def _end_phase(f):
    g = f.game
    if g.phase != "play":
        raise RuleError(f"end_phase() ends a play phase, but this is the {g.phase} phase")
    g.dispatch.set_mark(g.current, "end_play", True, "phase")  # the play loop stops before the next action


@primitive("win", "action", "roles:any", doc="end the game; the given roles win")
def _win(f, roles):
    winners = tuple(roles) if isinstance(roles, (list, tuple)) else (roles,)
    known = {p.role for p in f.game.players}
    for r in winners:
        if not isinstance(r, str) or r not in known:
            raise RuleError(f"win: {str(r)[:40]!r} is not a role in this game ({', '.join(sorted(known))})")
    raise GameOver(winners, "win")


@primitive("order_targets", "action", "event:event, players:players",
           "at card_used: the card's targets resolve in the order of `players` (those named first, in that order; "
           "the rest after them as they were) — e.g. a direction the user chooses for a card aimed at everyone")
def _order_targets(f, event, players):
    targets = getattr(_need(event, "order_targets' event"), "targets", None)
    if event.name != "card_used" or not isinstance(targets, list):
        raise RuleError(f"order_targets works on a card_used event, not {event.name}")
    first = [p for p in (players or []) if any(p is t for t in targets)]
    rest = [t for t in targets if not any(t is p for p in first)]
    targets[:] = first + rest
    f.game.emit_log("targets_ordered", card=event.card.label(), targets=[t.label() for t in targets])


# What a recorded game keeps and hashes is bounded (docs/language.md, "Limits"): a log() line, all log() text of
# a game, and a list kept in a mark (hashed at every decision of a recorded game). Past a bound the game stops
# with a rule error, never a MemoryError.
MAX_NOTE_CHARS = 2000
MAX_NOTE_CHARS_PER_GAME = 1_000_000
MAX_MARK_ITEMS = 1000


@primitive("log", "action", "text:str",
           doc="write a line into the event log (a `log` entry with its `text`; a scenario matches it with "
               "`expect event log text=\"…\"`)")
def _log(f, text):
    text = str(text)
    if len(text) > MAX_NOTE_CHARS:
        raise RuleError(f"log(): a line of {len(text)} characters; a log line holds at most {MAX_NOTE_CHARS}")
    g = f.game
    g.note_chars += len(text)
    if g.note_chars > MAX_NOTE_CHARS_PER_GAME:
        raise RuleError(f"log(): the game's log() text passed {MAX_NOTE_CHARS_PER_GAME} characters")
    g.emit_log("log", text=text)


# ---------------------------------------------------------------- changing skills during play
def _skill_arg(f, skill):
    from .functions import skill_rule

    return skill_rule(f, _need(skill, "the skill"))


@primitive("gain_skill", "action", "player:player, skill:skill, until:str=forever",
           doc="the player gains a skill (by name, or a skill value such as an item of skills_of(general)) until "
               "the end of the phase, turn or round, or forever; a leader skill works only for the leader")
def _gain_skill(f, player, skill, until="forever"):
    if until not in ("phase", "turn", "round", "forever"):
        raise RuleError(f"gain_skill lifetime must be phase, turn, round or forever, not {until!r}")
    f.game.dispatch.gain_skill(_need(player, "gain_skill's player"), _skill_arg(f, skill), until)


@primitive("lose_skill", "action", "player:player, skill:skill",
           doc="the player loses a skill (its general's or a gained one) until it gains it again")
def _lose_skill(f, player, skill):
    f.game.dispatch.lose_skill(_need(player, "lose_skill's player"), _skill_arg(f, skill))


@primitive("lose_all_skills", "action", "player:player",
           doc="the player loses every skill of its own for the rest of the game: its general's, leader and "
               "gained ones; its equipment still works; skills gained later are had again")
def _lose_all_skills(f, player):
    f.game.dispatch.lose_all_skills(_need(player, "lose_all_skills's player"))


@primitive("change_max_hp", "action", "player:player, n:int",
           doc="the player gains n max HP (HP unchanged), or loses -n: HP is cut to the new maximum and max HP 0 "
               "kills at once, with no killer (an awakening's cost, a locked skill's toll)")
def _change_max_hp(f, player, n):
    f.game.health.change_max_hp(_need(player, "change_max_hp's player"), int(n))


# ---------------------------------------------------------------- damage
@primitive("transfer_damage", "action", "event:event, to:player",
           doc="at causing_damage or taking_damage: this damage is prevented and the same damage (amount, source, "
               "card, nature) is dealt to `to` at once, flagged `transferred`, before the calling block goes on. "
               "To change only its target before anything reacts, assign event.target at creating_damage")
def _transfer_damage(f, event, to):
    ev = _need(event, "transfer_damage's event")
    if not hasattr(ev, "transferred") or to is None:
        raise RuleError("transfer_damage needs a damage event and a character to transfer it to")
    if getattr(ev, "transfer_to", None) is not None:
        raise RuleError("transfer_damage: this damage was already transferred")
    f.game.health.transfer(ev, to)
