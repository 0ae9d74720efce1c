"""A human at the terminal as an agent: it sees its seat's view and the offered options, and answers by
number. Anything that is not a legal answer is refused with a reason and asked again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.cells import cell_len

from .engine.agents import Agent, Request
from .engine.errors import GameAborted
from .textsafe import shown, without_ids


class PlayerQuit(GameAborted):
    """The human at the terminal ended the game (q, or the end of input)."""


class TerminalAgent(Agent):
    name = "human"
    waits = True  # on the person at the terminal (the cycle collector keeps running meanwhile)

    def __init__(self, read: Callable[[str], str], write: Callable[[str], None],
                 texts: dict[str, str] | None = None):
        self.read = read
        self._write = write
        self.texts = texts or {}  # skill or general (id or name) -> its skills' printed text, for `? NAME`

    def write(self, text: str) -> None:
        """Prompts, options and views carry rule-supplied text: printed with its control characters escaped."""
        self._write(shown(text))

    def decide(self, request: Request, view: Any) -> list[int]:
        self.write(render_view(view))
        self.write(f"\n{without_ids(request.prompt)}  ({_how_many(request)})")  # (the options keep their ids)
        context = request_context(request, view)
        if context:
            self.write(f"  ({context})")
        for i, label in enumerate(request.options):
            self.write(f"  [{i}] {without_ids(label)}")
        while True:
            try:
                raw = self.read("your choice (numbers separated by spaces, ? NAME for a skill's text, q to quit): ")
            except EOFError:
                raise PlayerQuit("input ended") from None
            if raw.strip().startswith(("?", "？")):
                self.write(self.lookup(raw.strip()[1:].strip()))
                continue
            answer, problem = parse_answer(raw, request)
            if problem is None:
                return answer
            self.write(f"  not accepted: {problem}")


    def lookup(self, name: str) -> str:
        """A skill's text by id or name, or every skill of a general; a hint when the name is unknown."""
        if not name:
            return "  ? NAME shows a skill's text (? 仁德, ? rende) or every skill of a general (? 刘备)"
        found = self.texts.get(name)
        if found is None:
            return f"  no skill or general {name!r} in these rules"
        return "\n".join(f"  {line}" for line in found.splitlines())


# what each of a seat's phases holds, as a yes that skips it would lose or save (Request.skips)
_STAKES = {"judge": "{n} card(s) waiting in your judge area", "draw": "{n} card(s) to draw",
           "play": "{n} card(s) in your hand", "discard": "{n} card(s) to discard"}


def request_context(request: Request, view: Any) -> str:
    """What the engine tells about a question beyond its prompt: the phase a yes skips (巧变 is asked before each
    of four), whom a question asked by another's skill is about (蛊惑: whose card to question), and a pending
    judgement's hope (鬼才: whether its card now, and each card offered, is a result its character hopes for), and
    the judgements waiting for the cards of the draw pile it arranges (观星)."""
    parts = []
    if request.skips is not None:
        phase, n = request.skips
        stake = _STAKES.get(phase)
        parts.append(f"a yes gives up {n} card(s) of your draw" if phase == "drawing" else
                     f"a yes skips your {phase} phase" + (f": {stake.format(n=n)}" if stake else ""))
    if request.subject is not None and request.subject != view.get("seat") and request.kind in ("confirm", "choose") \
            and request.subject < len(view.get("players", ())):
        parts.append(f"about P{request.subject} {view['players'][request.subject]['general']}")
    hope = request.hope
    if hope is not None and hope.judged < len(view.get("players", ())):
        whose = "your" if hope.judged == view.get("seat") else \
            f"P{hope.judged} {view['players'][hope.judged]['general']}'s"
        offered = [o for o in hope.options if o is not None]
        parts.append(f"{whose} judgement is pending: its card is {'' if hope.now else 'not '}a result it hopes for"
                     + (f", {sum(offered)} of the {len(offered)} cards offered would be" if offered else ""))
    ahead = request.ahead
    if ahead is not None and ahead.waiting:
        players = view.get("players", ())
        whose = "your" if ahead.seat in (-1, view.get("seat")) or not 0 <= ahead.seat < len(players) else \
            f"P{ahead.seat} {players[ahead.seat]['general']}'s"
        parts.append(f"{ahead.waiting} judgement(s) wait in {whose} judge area"
                     + (f": {sum(ahead.hoped)} of the {len(ahead.hoped)} cards offered would be a result the first "
                        "hopes for" if ahead.hoped else "")
                     + (f"; the first hopes for {ahead.own[0]} of your {sum(ahead.own)} hand cards and for "
                        f"{round(100 * ahead.chance)}% of all cards" if ahead.chance >= 0 else ""))
    return "; ".join(parts)


def _how_many(request: Request) -> str:
    if request.low == request.high:
        return f"choose {request.low}"
    return f"choose {request.low} to {request.high}"


def parse_answer(raw: str, request: Request) -> tuple[list[int], str | None]:
    """The answer as option numbers, or the reason it is not legal for this request."""
    text = raw.strip()
    if text.lower() in ("q", "quit", "exit"):
        raise PlayerQuit("quit")
    parts = text.replace(",", " ").split()
    # ASCII digits only: str.isdigit() also accepts "²" or "٣", which int() then rejects or misreads
    if not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
        return [], "answer with option numbers, e.g. 0 or 1 3"
    picks = [int(p) for p in parts]
    if len(set(picks)) != len(picks):
        return [], "an option is chosen twice"
    bad = [p for p in picks if p >= len(request.options)]
    if bad:
        return [], f"there is no option {bad[0]} (0 to {len(request.options) - 1})"
    if not request.low <= len(picks) <= request.high:
        return [], _how_many(request)
    return sorted(picks), None


def render_view(view: Any) -> str:
    """The seat's view as a few lines: everyone's public state, then its own hand."""
    lines = ["", "─" * 60]
    width = max([6, *(cell_len(str(q["general"])) for q in view["players"])])
    for q in view["players"]:
        me = "*" if q["seat"] == view["seat"] else " "
        state = f"{q['hp']}/{q['max_hp']} HP" if q["alive"] else "dead"
        extra = []
        if q["equips"]:
            extra.append("equip " + ", ".join(q["equips"]))
        if q["judge"]:
            extra.append("judge " + ", ".join(q["judge"]))
        cards = f"{q['hand']} card" + ("" if q["hand"] == 1 else "s")
        lines.append(without_ids(f"{me} P{q['seat']} {_pad(q['general'], width)} {q['role']:<9} {state:<9} {cards} "
                                 + ("· " + " · ".join(extra) if extra else "")))
    lines.append(without_ids(f"  draw pile {view['draw_pile']} · discard top {', '.join(view['discard_top']) or '—'}"))
    lines.append(without_ids(f"  your hand ({view['role']}): {', '.join(view['hand']) or '—'}"))
    return "\n".join(lines)


def _pad(text: object, width: int) -> str:
    """Left-aligned in `width` terminal cells: a CJK character takes two, so str.ljust would misalign."""
    t = str(text)
    return t + " " * max(0, width - cell_len(t))
