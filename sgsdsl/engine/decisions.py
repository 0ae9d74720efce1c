"""Decisions: every request to an agent, validated; seat views; the log and the state hash."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from operator import attrgetter
from types import MappingProxyType
from typing import Any

from .agents import Agent, Ahead, Hope, Request
from .draws import uniform_below
from .errors import AgentMisbehaved, BreakLoop, GameOver, IllegalAnswer, RuleError, StopEffect
from .model import Card, Player
from .program import Frame, GeneralRule, SkillRule
from .registry.core import NEXT, SPENDS
from .state import GameState

_tuple_new = tuple.__new__
_role_of = attrgetter("role")
# the phases of a turn before its judgements are over: a card put on top of the draw pile then is its own character's
# next judgement card (`Decisions.next_to_judge`)
BEFORE_JUDGEMENTS = frozenset({"prepare", "judge"})


class Decisions:
    """Every request to an agent goes through here: validated, counted, hashed and logged."""

    def __init__(self, game: GameState):
        self.game = game
        self._sides: tuple[tuple[str, ...], ...] | None = None  # the mode's sides, for views (made once)
        # the public histories as views show them: tuples (read-only, so every view may share them), made again only
        # when a history has grown; an agent that keeps the last view's history tells "nothing new" by identity
        self._damage: tuple[tuple[int, int, int], ...] = ()
        self._recover: tuple[tuple[int, int, int], ...] = ()
        self._acts: tuple[tuple[int, int, tuple[str, ...]], ...] = ()
        self._shown: tuple[tuple[int, int, int, int], ...] = ()
        # the last view made: (decisions made before it, seat, whether with cards, the view), for `ask(same_view=…)`
        self._kept_view: tuple[int, Player, bool, Any] | None = None
        # the roles of the seats as last dealt, and the same sorted (views show them sorted: `roles_in_play`)
        self._dealt: tuple[list[str], list[str]] | None = None

    # ------------------------------------------------------------ decisions
    def ask(self, p: Player, kind: str, prompt: str, labels: Sequence[str], low: int = 1, high: int = 1, *,
            about: Any = None, subject: Player | None = None, option_seats: Sequence[int | None] = (),
            option_tags: Sequence[tuple[str, ...]] = (),
            option_reach: Sequence[tuple[int, ...] | None] = (), skips: tuple[str, int] | None = None,
            same_view: bool = False, hope: Hope | None = None, ahead: Ahead | None = None,
            option_ranks: Sequence[int] = (), option_costs: Sequence[int] = (),
            option_groups: Sequence[tuple[int, ...]] = (),
            option_reach_costs: Sequence[tuple[int, ...] | None] = (),
            own_hand: tuple[tuple[str, ...], ...] = ()) -> list[int]:
        """Ask p's agent. SAME_VIEW: the caller knows that nothing has changed since p's previous decision, the one
        just before this (the targets of a card picked from p's play menu): p's view is the one made for that
        decision, if one was, and is not made again."""
        # (Any, not Agent: compiled, a call of Agent.decide would check its answer against `list[int]` and raise a
        # TypeError before _validate could say what is wrong with it)
        g = self.game
        agent: Any = g.agents[p.seat]
        record = g.record
        h = self.state_hash() if record else ""
        bits = getattr(agent, "uniform_bits", None)  # (an agent need not derive from Agent)
        if bits is not None and low >= 1 and (high if high < len(labels) else len(labels)) == 1:
            # the agent's answer is a uniform draw of one option (Agent.uniform_bits): drawn here, as decide() would
            pick = uniform_below(bits, len(labels))
            answer: Any = [pick]
            kept: int | list[int] = pick
        else:
            # (the agent's answer, validated: the way of every answer but the uniform draws above; one function with
            # the request, the view and the call, since every decision of a reasoning agent comes this way)
            hints = hints_of(about) if record or agent.reads_options else ()
            # every field in order, made as the tuple it is: a named tuple's own constructor is a Python function
            req: Request = _tuple_new(Request, (p.seat, kind, prompt, tuple(labels), low, high, hints,
                                                subject.seat if subject is not None else None, tuple(option_seats),
                                                tuple(option_tags), tuple(option_reach), skips, hope, ahead,
                                                tuple(option_ranks), tuple(option_costs), tuple(option_groups),
                                                tuple(option_reach_costs), own_hand))
            # a snapshot of plain data for agents that read it: nothing in it leads back to the game
            if getattr(agent, "reads_view", True) and agent.reads_view_for(kind):
                cards = getattr(agent, "view_cards", True)
                last = self._kept_view
                view: Any
                if same_view and last is not None and last[0] == g.decisions - 1 and last[1] is p \
                        and last[2] == cards:
                    view = last[3]
                else:
                    view = SeatView(self.view(p, cards))
                    self._kept_view = (g.decisions, p, cards, view)
            else:
                view = BLIND
            try:
                answer = agent.decide(req, view)  # an agent may answer anything: _validate says what is wrong
            except (GameOver, StopEffect, BreakLoop) as signal:  # never a silent win or a skipped effect
                raise AgentMisbehaved(getattr(agent, "name", type(agent).__name__), p.seat, signal) from None
            self._validate(agent, req, answer)
            # (a copy: the agent may keep its answer and change it later; one option kept as its number, see
            # GameState.answers)
            kept = answer[0] if len(answer) == 1 else list(answer)
        g.decisions += 1
        g.answers.append(kept)
        if record:
            g.hashes.append(h)
            g.log.append({"ask": p.seat, "kind": kind, "prompt": prompt, "options": list(labels),
                          "answer": list(answer), "hash": h})
        return list(answer)

    def _validate(self, agent: Agent, req: Request, answer: Any) -> None:
        # exact types: an int subclass (or bool) could compare or hash as one number and index as another
        if type(answer) is list and len(answer) == 1 and type(answer[0]) is int and req.low <= 1 <= req.high \
                and 0 <= answer[0] < len(req.options):
            return  # the common answer: one option, which exists, where one may be chosen
        if type(answer) is not list or not all(type(a) is int for a in answer):
            raise IllegalAnswer(agent.name, req.describe(), answer, "an answer is a list of option numbers")
        if len(set(answer)) != len(answer):
            raise IllegalAnswer(agent.name, req.describe(), answer, "an option was chosen twice")
        if not req.low <= len(answer) <= req.high:
            raise IllegalAnswer(agent.name, req.describe(), answer, f"choose between {req.low} and {req.high} options")
        for a in answer:
            if not 0 <= a < len(req.options):
                raise IllegalAnswer(agent.name, req.describe(), answer, f"option {a} does not exist")

    def blind(self, p: Player) -> bool:
        """Whether nobody will read what p's options are: its agent looks only at their number
        (`Agent.reads_options`) and the game keeps no log. Then requests carry blank labels and no hints."""
        return not self.game.record and not self.game.agents[p.seat].reads_options

    def confirm(self, p: Player, prompt: str, about: Any = None, reach: tuple[int, ...] | None = None,
                skips: tuple[str, int] | None = None, subject: Player | None = None) -> bool:
        """Ask yes or no; REACH: the seats a yes could then be aimed at, when known (`Request.option_reach`); SKIPS:
        the phase of p's own a yes skips, and what it holds (`Request.skips`); SUBJECT: whom the question is about
        (an optional skill's: whom its event befell)."""
        g = self.game
        shown = self.shows_reach(p)
        hope = self.hope(p, ()) if g.judging and shown else None
        words = hints_of(about) if shown else ()
        # (a skill that puts a card of its own on top of the draw pile, `next`, asked before a turn's judgements: what
        # they hope for and how likely an unseen card is one, so that it is used only where its card turns them)
        ahead = self.ahead(p, (), whole=True) if g.phase in BEFORE_JUDGEMENTS and g.current.judge \
            and NEXT in words else None
        # (one paid for with cards: what its hand holds to pay with)
        own = tuple([hints_of(c) for c in p.hand]) if SPENDS in words else ()
        return self.ask(p, "confirm", prompt, ["yes", "no"], about=about, subject=subject,
                        option_reach=(reach, None) if reach is not None else (), skips=skips, hope=hope,
                        ahead=ahead, own_hand=own)[0] == 0

    def hope(self, p: Player, items: Sequence[Any]) -> Hope | None:
        """What the innermost pending judgement's character hopes for (`GameState.judging`), told to p about its
        card now, each card among ITEMS and p's hand; None when no judgement is pending."""
        if not self.game.judging:
            return None
        judged, hoping, ev = self.game.judging[-1]
        own = [bool(hoping(c)) for c in p.hand]
        hoped = sum(own)
        return Hope(judged.seat, bool(hoping(ev.card)),
                    tuple(bool(hoping(x)) if isinstance(x, Card) else None for x in items), (hoped, len(own) - hoped))

    def next_to_judge(self, p: Player) -> Player:
        """Whose judgements and draws take the top of the draw pile next, as p is asked: the character whose turn it
        is, before its judge phase is over; else p itself (a 观星 of its own, at its prepare phase, is both)."""
        g = self.game
        return g.current if g.in_turn and g.phase in BEFORE_JUDGEMENTS and g.current.alive else p

    def ahead(self, p: Player, items: Sequence[Any], whole: bool = False) -> Ahead | None:
        """For a choice among cards to go on top of the draw pile, what comes next for the one who takes them
        (`Request.ahead`, `next_to_judge`): how many judgements wait in its judge area, per item whether the first to
        be judged (the last put there) would hope for it, and how many cards it would draw; None when the items are
        not all cards. WHOLE (a yes or no): besides, how many of p's own cards it would hope for, and the share of
        every card of the game (the deck list is public) it hopes for."""
        if not all(isinstance(x, Card) for x in items):
            return None
        q = self.next_to_judge(p)
        test = q.judge[-1].rule.judge_hope if q.judge else None
        g = self.game
        hoped = tuple(bool(test(Frame(g, {"it": x}))) for x in items) if test is not None else ()
        own, chance = (0, 0), -1.0
        if whole and test is not None:
            mine = sum(1 for x in p.hand if test(Frame(g, {"it": x})))
            own = (mine, len(p.hand) - mine)
            chance = sum(1 for x in g.cards if test(Frame(g, {"it": x}))) / len(g.cards) if g.cards else -1.0
        game: Any = g  # (the running Game: its rule values come through its dispatch)
        return Ahead(len(q.judge), hoped, game.dispatch.value("draw_count", q), q.seat, own, chance)

    def shows_reach(self, p: Player) -> bool:
        """Whether p's agent is shown where its options could be aimed: it reads their hints and the table."""
        return not self.blind(p) and getattr(self.game.agents[p.seat], "reads_view", True)

    def seat_costs(self, items_fn: Any, costs_fn: Any, frame: Any) -> tuple[int, ...] | None:
        """Per living seat of a reach (`seats_named`), its cost: the whole numbers a second rule function lists, one
        per character of the first's list (`ActiveRule.reach_costs`); None when either list is not so, or asking
        fails (the rule, run, reports it)."""
        g = self.game
        try:
            items, costs = items_fn(frame), costs_fn(frame)
        except RuleError:
            if g.steps > g.step_budget:
                raise
            return None
        if not isinstance(items, list) or not isinstance(costs, list) or len(items) != len(costs) \
                or not all(isinstance(q, Player) for q in items) or not all(type(c) is int for c in costs):
            return None
        return tuple(c for q, c in zip(items, costs, strict=True) if q.alive)

    def seats_named(self, fn: Any, frame: Any) -> tuple[int, ...] | None:
        """The living seats of the characters a rule function's list names (a reach: `ActiveRule.reach`,
        `TriggerRule.reach`), asked before the rule that chooses among them runs; None when the list holds anything
        else or asking fails (the rule, run, reports it)."""
        g = self.game
        try:
            items = fn(frame)
        except RuleError:
            if g.steps > g.step_budget:
                raise
            return None
        if not isinstance(items, list) or not all(isinstance(q, Player) for q in items):
            return None
        return tuple(q.seat for q in items if q.alive)

    def choose_many(self, p: Player, items: Sequence[Any], low: int, high: int, prompt: str,
                    about: Any = None, same_view: bool = False, hints: Sequence[tuple[str, ...]] | None = None,
                    subject: Player | None = None, ranked: bool = False,
                    costs: Sequence[int] | None = None,
                    groups: Sequence[tuple[int, ...]] | None = None) -> list[Any]:
        """Ask p to pick between LOW and HIGH of ITEMS. HINTS: the AI hint words a rule gave each item (`choose(…,
        hints: …)`), shown as the options' tags in place of a card's own; SUBJECT: whom the question is about (the
        owner of the skill that asks someone else); RANKED: the items are cards of p's own hand in a contest the
        higher rank wins, and agents that read views are told each one's rank (`Request.option_ranks`); COSTS: per
        item, how many of p's own cards the rule takes when it is chosen (`choose(…, costs: …)`); GROUPS: per item,
        the seats the rule then acts on (`choose(…, befalls: …)`)."""
        items = list(items)
        if not items or high <= 0:
            return []
        low, high = min(low, len(items)), min(high, len(items))
        if low == len(items) and high == len(items):
            return items
        if type(items[0]) is GeneralRule and p.general is None and high == 1:
            pinned = self.game.pinned_for(p)
            if pinned is not None and all(type(x) is GeneralRule for x in items):
                # a seat without a general choosing one, whose general is pinned (`--general`): the pin takes the
                # pick's place (Game.set_general), so the seat is not asked a question whose answer is dropped
                return [pinned if pinned in items else items[0]]
        if self.blind(p):  # (what the items are is read by nobody: blank labels, no seats or tags)
            picks = self.ask(p, "choose", prompt, blank(len(items)), low, high, about=about, same_view=same_view)
            chosen = [items[i] for i in picks]
            if about is not None and type(chosen[0] if chosen else None) is Player:
                self.chose_seats(p, chosen, about)
            return chosen
        labels = [self.item_label(x, p) for x in items]
        seats = [x.seat if isinstance(x, Player) else None for x in items]
        tags = [() if not isinstance(x, Card) or label.startswith("hand card of") else hints_of(x)
                for x, label in zip(items, labels, strict=True)]
        if hints is not None:  # (a card keeps its own words after the rule's: what it is still counts)
            tags = [(*h, *t) for h, t in zip(hints, tags, strict=True)]
        shown = self.shows_reach(p)
        hope = self.hope(p, items) if self.game.judging and shown else None
        ahead = self.ahead(p, items) if shown and type(items[0]) is Card and (
            items[0].zone == "draw" or (hints is not None and NEXT in hints[0])) else None
        ranks = tuple(x.rank for x in items) if ranked and shown else ()
        picks = self.ask(p, "choose", prompt, labels, low, high, about=about, option_seats=seats, option_tags=tags,
                         subject=subject, same_view=same_view, hope=hope, ahead=ahead, option_ranks=ranks,
                         option_costs=costs or (), option_groups=groups or ())
        chosen = [items[i] for i in picks]
        if about is not None and type(chosen[0] if chosen else None) is Player:
            self.chose_seats(p, chosen, about)
        return chosen

    def chose_seats(self, p: Player, chosen: list[Any], about: Any) -> None:
        """A choice of characters that says whom it helps or harms (its skill's or its own words, one way only)
        is a public act on each character chosen, as an aimed card is: role beliefs read who chose whom for what
        (仁德's gift, 突袭's taking). A choice that says neither, or both, says nothing of whom its chooser favours."""
        words = hints_of(about)
        helps, harms = not HELPING.isdisjoint(words), not HARMING.isdisjoint(words)
        if helps == harms:
            return
        acts = self.game.act_history
        for q in chosen:
            if q is not p:
                acts.append((p.seat, q.seat, words))

    def choose_one(self, p: Player, items: Sequence[Any], optional: bool, prompt: str, about: Any = None,
                   hints: Sequence[tuple[str, ...]] | None = None, subject: Player | None = None,
                   costs: Sequence[int] | None = None, groups: Sequence[tuple[int, ...]] | None = None) -> Any:
        got = self.choose_many(p, items, 0 if optional else 1, 1, prompt, about=about, hints=hints, subject=subject,
                               costs=costs, groups=groups)
        return got[0] if got else None

    def item_label(self, x: Any, viewer: Player) -> str:
        if isinstance(x, Card):
            if x.zone == "hand" and x.holder is not viewer:
                return f"hand card of {x.holder.label() if x.holder else '?'}"
            return x.label()
        if isinstance(x, Player):
            return x.label()
        if isinstance(x, (GeneralRule, SkillRule)):
            return x.name
        return str(x)

    def view(self, p: Player, cards: bool = True) -> dict[str, Any]:
        """What seat p may see: its own hand, public zones, revealed roles. Without CARDS (an agent that reasons
        from the table alone, `Agent.view_cards`), no card is named in it: no hand, equipment, judge area, pile
        or discard pile by label, only how many cards each seat holds."""
        sides = self._sides
        if sides is None:  # (the mode's sides never change during a game)
            sides = self._sides = tuple(tuple(roles) for roles in self.game.mode.sides())
        players = []
        for q in self.game.players:
            seat: dict[str, Any] = {
                "seat": q.seat, "general": q.general.name if q.general is not None else q.name, "hp": q.hp,
                "max_hp": q.max_hp, "alive": q.alive, "hand": len(q.hand), "face_down": q.face_down,
                "chained": q.chained, "worn": [*q.equips],  # (the equipment slots it fills: public, as its cards are)
                "role": q.role if (q.role_revealed or q is p) else "hidden"}
            if cards:
                seat["equips"] = [e.label() for e in q.equips.values()] if q.equips else []
                seat["judge"] = [j.label() for j in q.judge] if q.judge else []
                seat["piles"] = pile_view(q, p) if q.piles else {}
            players.append(seat)
        out: dict[str, Any] = {"seat": p.seat, "role": p.role, "role_shown": p.role_revealed, "players": players,
                               "draw_pile": len(self.game.draw_pile), "round": self.game.round,
                               # (whose turn it is: a card spent on another's turn is not one its discard would take)
                               "current": self.game.current.seat if self.game.current is not None else None}
        if cards:
            out["hand"] = [c.label() for c in p.hand]
            out["discard_top"] = [c.label() for c in self.game.discard_pile[-5:]]
        # public knowledge of the rules: which roles win together, and the roles dealt this game
        out["sides"] = [list(roles) for roles in sides]
        # roles whose every seat is a side alone (`solo`): another seat of the same role is a rival
        out["solo"] = list(self.game.mode.solo)
        out["roles_in_play"] = list(self._roles_dealt())
        # public history: who has damaged whom (seat, seat, amount), and who has healed whom, oldest first
        out["damage_history"] = self._damage = shared_history(self.game.damage_history, self._damage)
        out["recover_history"] = self._recover = shared_history(self.game.recover_history, self._recover)
        # who used a card on whom (with its hints), and who gave a card on another's behalf, oldest first
        out["act_history"] = self._acts = shared_history(self.game.act_history, self._acts)
        # roles shown during play, with how long each history was then: what came before was done blind to them
        out["shown_history"] = self._shown = shared_history(self.game.shown_history, self._shown)
        return out

    def _roles_dealt(self) -> list[str]:
        """Every seat's role, sorted: worked out again only when a role has changed since (roles are dealt once a
        game as a rule, and views show them at every decision)."""
        players = self.game.players
        dealt = self._dealt
        if dealt is not None and len(dealt[0]) == len(players):
            roles = dealt[0]
            for i in range(len(players)):
                if players[i].role != roles[i]:
                    break
            else:
                return dealt[1]
        got = self._dealt = ([q.role for q in players], sorted(map(_role_of, players)))
        return got[1]

    # ------------------------------------------------------------ hash
    def state_hash(self) -> str:
        parts = [self.game.round, self.game.turns, self.game.current.seat, self.game.phase,
                 tuple(c.id for c in self.game.draw_pile), tuple(c.id for c in self.game.discard_pile),
                 tuple(c.id for c in self.game.processing)]
        for p in self.game.players:
            parts.append((p.hp, p.max_hp, p.alive, p.role, p.chained, p.general.ident if p.general else "",
                          tuple(c.id for c in p.hand), tuple(sorted((s, c.id) for s, c in p.equips.items())),
                          tuple(tuple(c.id for c in j.physical) for j in p.judge),
                          tuple(sorted((k, stable_text(v)) for k, v in p.marks.items()))))
            if p.extra_skills or p.lost_skills:  # skills changed during play (absent otherwise: hashes stay)
                parts.append((tuple(s.ident for s in p.extra_skills), tuple(p.lost_skills)))
            if p.face_down or p.skip_turns or p.piles:  # whole-turn state and piles (absent otherwise)
                piles = tuple((k, tuple(pile_item_label(x) for x in v)) for k, v in sorted(p.piles.items()))
                parts.append((p.face_down, p.skip_turns, piles))
        return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


_BLANK: dict[int, tuple[str, ...]] = {}


def shared_history(history: list[Any], shown: tuple[Any, ...]) -> tuple[Any, ...]:
    """A public history as views show it: the tuple shown last while the history has not grown (it only ever
    grows: the same length and the same last entry mean the same history), else a new one."""
    if len(history) == len(shown) and (not history or history[-1] is shown[-1]):
        return shown
    return tuple(history)


def blank(n: int) -> tuple[str, ...]:
    """N empty labels: the options of a request whose labels nobody reads (Decisions.blind)."""
    got = _BLANK.get(n)
    if got is None:
        got = _BLANK[n] = ("",) * n
    return got


def stable_text(v: Any) -> str:
    """A mark value as text that is the same in every run: rule objects by id, players by seat, cards by id
    (their default repr would show function addresses)."""
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(stable_text(x) for x in v) + "]"
    if isinstance(v, GeneralRule):
        return f"general:{v.ident}"
    if isinstance(v, Player):
        return f"P{v.seat}"
    if isinstance(v, Card):
        return f"card:{v.id}"
    return str(v)


def pile_item_label(x: Any) -> str:
    return x.name if isinstance(x, GeneralRule) else x.label()


def pile_view(q: Player, viewer: Player) -> dict[str, Any]:
    """Public piles (and the viewer's own) by content; another's private pile by its size only."""
    if not q.piles:  # (most characters have none: asked for every seat at every decision of a viewing agent)
        return {}
    return {name: ([pile_item_label(x) for x in items] if q.pile_public.get(name, True) or q is viewer
                   else len(items))
            for name, items in sorted(q.piles.items()) if items}


# the word a limited skill's (限定技's) options and questions carry besides its tags (`hints_of`)
LIMITED = frozenset({"limited"})
# the AI hint words that say a choice of characters helps, or harms, the one chosen (`Decisions.chose_seats`)
HELPING = frozenset({"help", "heal", "draw"})
HARMING = frozenset({"attack", "control"})


def hints_of(card: Any) -> tuple[str, ...]:
    """A card's AI tags (from its .sgs `tags`) and its category, a skill's tags (and "limited" for a 限定技) and
    "skill", or a choice's own tags, for agents that reason about options."""
    if type(card) is Card:
        g = card.game
        if g is None or not g.counts_as:  # what `card.rule` gives then, without its property chain
            rule = card.printed_rule
            return sorted_hints(rule.tags, rule.category)
    if isinstance(card, SkillRule):
        # (a limited skill, once a game, says so: an agent may keep it for when it is worth most)
        return sorted_hints(card.tags | LIMITED if card.once and "limited" in card.flags else card.tags, "skill")
    if type(card) is tuple:  # a choice's own `tags:` (the words, sorted), in place of its skill's
        return card
    if card is None or not hasattr(card, "rule"):
        return ()
    return sorted_hints(card.rule.tags, card.category)


_HINTS: dict[tuple[frozenset[str], str], tuple[str, ...]] = {}


def sorted_hints(tags: frozenset[str], last: str) -> tuple[str, ...]:
    """The tags in order, then LAST (asked at every decision: remembered per distinct tag set)."""
    if type(tags) is not frozenset:
        return tuple(sorted(tags)) + (last,)
    got = _HINTS.get((tags, last))
    if got is None:
        got = _HINTS[(tags, last)] = tuple(sorted(tags)) + (last,)
    return got


# What one seat may see: a read-only mapping of plain data (texts, numbers, lists, dicts) taken when it is asked
# (Python's own mapping proxy: reading it is a C lookup, which an agent does dozens of times a decision). It holds
# no reference to the game, a player or a card, so an agent cannot reach another hand, an unrevealed role or the
# draw pile's order through it. Agents that never read views (`reads_view = False`: random, scripted, replay) get
# an empty one, so a snapshot costs nothing where nobody looks.
SeatView = MappingProxyType


BLIND: MappingProxyType[str, Any] = SeatView({})
