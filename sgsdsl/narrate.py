"""Event-log entries as sentences for people: `play` narrates what the other seats did, `replay --show` prints
a logged game as a transcript. One function serves both, so a game reads the same live and afterwards.

`viewer` is the seat of the person reading (None: an omniscient reader of a log). A viewer is called "you",
and cards another seat takes into its hand are counted, not named, unless they are the viewer's own.
Entries of kinds this module does not know still read as `kind: field=value …`, so new engine events are
never silently dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from .engine.agents import Agent, Request
from .textsafe import shown, without_ids


def _seat_of(who: Any) -> int | None:
    m = re.match(r"P(\d+)", str(who)) if who is not None else None
    return int(m.group(1)) if m else None


class _Say:
    """Helpers bound to one viewer."""

    def __init__(self, viewer: int | None):
        self.viewer = viewer

    def who(self, p: Any) -> str:
        if p is None:
            return "nobody"
        seat = _seat_of(p)
        if seat is not None and seat == self.viewer:
            return "you"
        return str(p).replace(":", " ", 1)

    def whose(self, p: Any) -> str:
        w = self.who(p)
        return "your" if w == "you" else f"{w}'s"

    def verb(self, p: Any, you_form: str, other_form: str) -> str:
        return f"{self.who(p)} {you_form if self.who(p) == 'you' else other_form}"

    def card(self, c: Any) -> str:
        return without_ids(str(c)) if c is not None else "no card"

    def cards(self, cs: Any) -> str:
        if isinstance(cs, list):
            return ", ".join(self.card(c) for c in cs) or "nothing"
        return str(cs)

    def may_see(self, p: Any) -> bool:
        return self.viewer is None or _seat_of(p) == self.viewer

    def count(self, cs: Any) -> str:
        n = len(cs) if isinstance(cs, list) else cs
        return f"{n} card" + ("" if n == 1 else "s")


def _go(cs: Any) -> str:
    """`闪电♥Q goes`, `杀♠7, 闪♥2 go`: the verb agrees with how many cards."""
    return "goes" if isinstance(cs, list) and len(cs) == 1 else "go"


def _generic(e: dict[str, Any]) -> str:
    rest = " ".join(f"{k}={v}" for k, v in sorted(e.items()) if k != "e")
    return f"{e.get('e')}: {rest}".rstrip()


def _damage(s: _Say, e: dict[str, Any]) -> str:
    nature = f" {e['nature']}" if e.get("nature") not in (None, "normal") else ""
    src = f" from {s.who(e['source'])}" if e.get("source") else ""
    card = f" ({s.card(e['card'])})" if e.get("card") else ""
    return (f"{s.verb(e.get('target'), 'take', 'takes')} {e.get('amount')}{nature} damage{src}{card}"
            f" → {e.get('hp')} HP")


def _use(s: _Say, e: dict[str, Any]) -> str:
    targets = [t for t in e.get("targets") or []]
    on = f" on {', '.join(s.who(t) for t in targets)}" if targets and targets != [e.get("user")] else ""
    return f"{s.verb(e.get('user'), 'use', 'uses')} {s.card(e.get('card'))}{on}"


def _obtain(s: _Say, e: dict[str, Any]) -> str:
    what = s.cards(e.get("cards")) if s.may_see(e.get("player")) else s.count(e.get("cards"))
    return f"{s.verb(e.get('player'), 'obtain', 'obtains')} {what}"


def _give(s: _Say, e: dict[str, Any]) -> str:
    return f"{s.verb(e.get('by'), 'give', 'gives')} {s.count(e.get('n'))} to {s.who(e.get('to'))}"


def _signed(n: Any) -> str:
    return f"+{n}" if isinstance(n, int) and n > 0 else str(n)


def _pindian(s: _Say, e: dict[str, Any]) -> str:
    winner = e.get("winner")
    return (f"{s.who(e.get('initiator'))} ({s.card(e.get('initiator_card'))}) and {s.who(e.get('target'))} "
            f"({s.card(e.get('target_card'))}) compare cards: " + (f"{s.who(winner)} wins" if winner else "a tie"))


def _general(s: _Say, e: dict[str, Any]) -> str:
    who = "you are" if s.who(e.get("player")) == "you" else f"P{_seat_of(e.get('player'))} is"
    return f"{who} {e.get('general')}"


def _game_over(s: _Say, e: dict[str, Any]) -> str:
    winners = e.get("winners") or []
    if not winners:
        return f"game over: a draw ({e.get('reason')})"
    return f"game over: {', '.join(winners)} win"


_RULES: dict[str, Callable[[_Say, dict[str, Any]], str | None]] = {
    "game_start": lambda s, e: f"a game of {e.get('mode')} for {e.get('players')} players (seed {e.get('seed')})",
    "roles": lambda s, e: f"P{e.get('start')} is the {e.get('leader')}" if e.get("leader") else None,
    "general": _general,
    "round": lambda s, e: f"── round {e.get('round')} ──",
    "turn": lambda s, e: f"{s.whose(e.get('player'))} turn",
    "draw": lambda s, e: f"{s.verb(e.get('player'), 'draw', 'draws')} {s.count(e.get('n'))}",
    "discard": lambda s, e: f"{s.verb(e.get('by'), 'discard', 'discards')} {s.cards(e.get('cards'))}" if e.get("by")
                            else f"{s.cards(e.get('cards'))} {_go(e.get('cards'))} to the discard pile",
    "use": _use,
    "respond": lambda s, e: (s.verb(e.get("player"), "play", "plays") if e.get("play")
                             else s.verb(e.get("player"), "use", "uses")) + f" {s.card(e.get('card'))}",
    "damage": _damage,
    "recover": lambda s, e: f"{s.verb(e.get('target'), 'recover', 'recovers')} {e.get('amount')} HP → {e.get('hp')} HP",
    "lose_hp": lambda s, e: f"{s.verb(e.get('player'), 'lose', 'loses')} {e.get('n')} HP → {e.get('hp')} HP",
    "show": lambda s, e: f"{s.verb(e.get('player'), 'show', 'shows')} {s.cards(e.get('cards'))}",
    "nullified": lambda s, e: f"{s.card(e.get('card'))} is nullified for {s.who(e.get('target'))}",
    "no_effect": lambda s, e: f"{s.card(e.get('card'))} has no effect on {s.who(e.get('target'))}",
    "judge_area": lambda s, e: f"{s.card(e.get('card'))} is placed in {s.whose(e.get('player'))} judgement area",
    "delayed": lambda s, e: f"{s.card(e.get('card'))} in {s.whose(e.get('player'))} judgement area takes its turn",
    "judge": lambda s, e: f"{s.whose(e.get('player'))} judgement: {s.card(e.get('card'))}",
    "equip": lambda s, e: f"{s.verb(e.get('player'), 'equip', 'equips')} {s.card(e.get('card'))}",
    "obtain": _obtain,
    "give": _give,
    "skill": lambda s, e: f"{s.verb(e.get('player'), 'use', 'uses')} {e.get('skill')}",
    "provided_nothing": lambda s, e: f"{e.get('skill')} brings {s.who(e.get('player'))} nothing",
    "came_to_nothing": lambda s, e: f"nothing comes of {s.whose(e.get('player'))} {s.card(e.get('what'))}",
    "dying": lambda s, e: f"{s.verb(e.get('player'), 'are', 'is')} dying ({e.get('hp')} HP)",
    "death": lambda s, e: f"{s.verb(e.get('player'), 'die', 'dies')} (a {e.get('role')})"
                          + (f", killed by {s.who(e['killer'])}" if e.get("killer") else ""),
    "phase_skipped": lambda s, e: f"{s.verb(e.get('player'), 'skip', 'skips')} the {e.get('phase')} phase",
    # a rule's `skip` marks a phase to be skipped later; `phase_skipped` is the engine passing over it
    "skip": lambda s, e: f"{s.who(e.get('player'))} will skip the {e.get('phase')} phase",
    "reshuffle": lambda s, e: f"the discard pile is shuffled into a new draw pile ({s.count(e.get('cards'))})",
    "game_over": _game_over,
    # skills won, lost and spent
    "limited": lambda s, e: f"{s.verb(e.get('player'), 'use', 'uses')} {e.get('skill')} (once a game)",
    "awaken": lambda s, e: f"{s.verb(e.get('player'), 'awaken', 'awakens')}: {e.get('skill')}",
    "gain_skill": lambda s, e: f"{s.verb(e.get('player'), 'gain', 'gains')} {e.get('skill')}",
    "lose_skill": lambda s, e: f"{s.verb(e.get('player'), 'lose', 'loses')} {e.get('skill')}",
    # a character's state
    "chain": lambda s, e: f"{s.verb(e.get('player'), 'are', 'is')} "
                          + ("chained" if e.get("chained") else "no longer chained"),
    "turn_over": lambda s, e: f"{s.verb(e.get('player'), 'turn', 'turns')} face "
                              + ("down" if e.get("face_down") else "up"),
    "max_hp": lambda s, e: f"{s.whose(e.get('player'))} maximum HP {_signed(e.get('change'))} → {e.get('max_hp')} "
                           f"({e.get('hp')} HP)",
    "gender": lambda s, e: f"{s.verb(e.get('player'), 'are', 'is')} now {e.get('gender')}",
    "kingdom": lambda s, e: f"{s.verb(e.get('player'), 'join', 'joins')} {e.get('kingdom')}",
    "kept_alive": lambda s, e: f"{s.verb(e.get('player'), 'stay', 'stays')} alive at {e.get('hp')} HP",
    "no_longer_kept_alive": lambda s, e: f"{s.verb(e.get('player'), 'are', 'is')} no longer kept alive "
                                         f"({e.get('hp')} HP)",
    "pile": lambda s, e: f"{s.verb(e.get('player'), 'put', 'puts')} "
                         + (s.cards(e.get("added")) if isinstance(e.get("added"), list) else s.count(e.get("added")))
                         + f" on {e.get('pile')}",
    # damage turned aside
    "damage_prevented": lambda s, e: f"the damage to {s.who(e.get('target'))} is prevented",
    "damage_redirected": lambda s, e: f"the damage to {s.who(e.get('old'))} goes to "
                                      + (s.who(e.get("new")) if e.get("new") else "nobody"),
    "damage_transferred": lambda s, e: f"the damage to {s.who(e.get('old'))} is passed to {s.who(e.get('new'))}",
    # turns
    "extra_turn_gained": lambda s, e: f"{s.verb(e.get('player'), 'gain', 'gains')} an extra turn",
    "extra_turn": lambda s, e: f"{s.whose(e.get('player'))} extra turn",
    "skip_turn": lambda s, e: f"{s.who(e.get('player'))} will skip a turn",
    "turn_skipped": lambda s, e: f"{s.verb(e.get('player'), 'skip', 'skips')} a turn",
    # cards
    "pindian": _pindian,
    "recast": lambda s, e: f"{s.verb(e.get('player'), 'recast', 'recasts')} {s.card(e.get('card'))}",
    "retrial": lambda s, e: f"the judgement {s.card(e.get('old'))} is replaced by {s.card(e.get('new'))}",
    "declare": lambda s, e: f"{s.verb(e.get('user'), 'declare', 'declares')} {s.card(e.get('card'))}",
    "declaration_void": lambda s, e: f"{s.whose(e.get('user'))} declared {s.card(e.get('card'))} is void",
    "targets_ordered": lambda s, e: f"{s.card(e.get('card'))} resolves on "
                                    + ", ".join(s.who(t) for t in e.get("targets") or []),
    "swap": lambda s, e: f"{s.who(e.get('a'))} and {s.who(e.get('b'))} swap hands ({e.get('a_gave')} for "
                         f"{e.get('b_gave')})",
    "log": lambda s, e: str(e.get("text")),
    # the engine's bookkeeping, not the game's story
    "seats": lambda s, e: None,
    "carried": lambda s, e: None,
}


def narrate(entry: dict[str, Any], viewer: int | None = None) -> str | None:
    """One log entry as a sentence (None for entries a reader needs not see, such as decisions' internals)."""
    if not isinstance(entry, dict):
        return None
    say = _Say(viewer)
    if "ask" in entry:
        return _decision(say, entry)
    kind = entry.get("e")
    rule = _RULES.get(str(kind))
    try:
        line = rule(say, entry) if rule else _generic(entry)
    except (KeyError, TypeError, ValueError):  # an entry of an unexpected shape: show it raw, never fail
        line = _generic(entry)
    # log() text, prompts, names and unknown kinds come from rules files and logs: never terminal controls
    return shown(line, newlines=False) if line is not None else None


def _decision(say: _Say, e: dict[str, Any]) -> str | None:
    """A recorded answer (replay transcripts only: live play shows the question itself)."""
    options, answer = e.get("options") or [], e.get("answer") or []
    picked = [str(options[i]) for i in answer if isinstance(i, int) and 0 <= i < len(options)]
    who = f"P{e.get('ask')}"
    if say.viewer is not None and e.get("ask") != say.viewer and e.get("kind") in ("choose_card", "cards"):
        return None
    return shown(without_ids(f"  {who} — {e.get('prompt')}: {', '.join(picked) or '(nothing)'}"), newlines=False)


def transcript(entries: Iterable[dict[str, Any]], viewer: int | None = None, decisions: bool = True) -> list[str]:
    out: list[str] = []
    for e in entries:
        if not decisions and isinstance(e, dict) and "ask" in e:
            continue
        line = narrate(e, viewer)
        if line:
            out.append(line)
    return out


def show_log(path: Path) -> Iterator[str]:
    """A logged game (`simulate --log`, `play --log`) as a transcript with every decision, read and told line by
    line (a log of any size in little memory)."""
    from .replay import iter_log

    entries = iter_log(path)
    header = next(entries)
    rules = ", ".join([*header.get("rules", []), *header.get("rule_names", [])])
    agents = header.get("agents") or []
    yield shown(f"{path.name}: {header.get('mode')}, {header.get('players')} players, seed {header.get('seed')}, "
                f"rules {rules or 'standard'}" + (f", agents {', '.join(map(str, agents))}" if agents else ""),
                newlines=False)
    for e in entries:
        line = narrate(e)
        if line:
            yield line
    if isinstance(header.get("abandoned"), str):
        yield shown(f"(the game was abandoned here: {header['abandoned']})")


class NarratedAgent(Agent):
    """Wraps the human's agent: before each question it prints what happened since the last one."""

    def __init__(self, inner: Agent, narrator: Narrator, write: Callable[[str], None]):
        self.inner = inner
        self.name = getattr(inner, "name", "human")
        self.waits = getattr(inner, "waits", False)
        self.narrator = narrator
        self.write = write

    def decide(self, request: Request, view: Any) -> list[int]:
        for line in self.narrator.new_lines():
            self.write(line)
        return self.inner.decide(request, view)


class Narrator:
    """Follows a running game's log and returns the sentences added since the last call."""

    def __init__(self, viewer: int | None):
        self.viewer = viewer
        self.log: list[dict[str, Any]] = []
        self.pos = 0

    def follow(self, log: list[dict[str, Any]]) -> None:
        self.log, self.pos = log, 0

    def new_lines(self) -> list[str]:
        fresh = self.log[self.pos:]
        self.pos = len(self.log)
        return transcript(fresh, self.viewer, decisions=False)
