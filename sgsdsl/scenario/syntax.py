"""The `.scenario` text format: one statement per line, parsed by hand into a located `Scenario`.

A line-oriented format (not a Lark grammar) because every statement is one line a designer writes by
hand, answers are free text matched against option labels, and each token needs an exact column for
`file:line:col` diagnostics. The format is described in docs/scenarios.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.model import PHASES, SUITS
from ..lang.diagnostics import Diagnostic, Span, did_you_mean

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
UNTIL = ("end of phase", "end of turn", "end of round", "game over", "script end")
ZONES = ("hand", "equip", "judge")
PILES = ("discard", "deck")
HEADERS = ("scenario", "rule", "covers", "rules", "mode", "seed", "start", "until", "deck", "discard", "setup",
           "players")
SEAT_ATTRS = ("hand", "equip", "judge", "marks", "kingdom")
# Numbers are ASCII digits of bounded length: `\d` and str.isdigit() also accept "٣" or "²", and a number
# of thousands of digits would cost time or fail int() instead of getting a located error.
NUM = r"[0-9]{1,9}"
SEAT_RE = re.compile(rf"^P({NUM})$")
MAX_COPIES = 200  # `杀 x3` in a zone: more copies than any deck holds is a typo (and would allocate)
FACE_RE = re.compile(r"([♠♥♣♦])(10|[2-9AJQK])$")


class ScenarioError(Exception):
    """A malformed scenario: the diagnostics say where and why."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics
        self.sources = sources


@dataclass
class Tok:
    """A piece of a line with its 1-based column, so every error points at the words it is about."""

    text: str
    col: int

    @property
    def end(self) -> int:
        return self.col + len(self.text)


@dataclass
class CardSpec:
    name: str
    suit: str | None
    rank: int | None
    span: Span

    def __str__(self) -> str:
        face = ""
        if self.suit:
            face = self.suit + next(k for k, v in RANKS.items() if v == self.rank)
        return self.name + face


@dataclass
class SeatSpec:
    seat: int
    general: str
    span: Span
    general_span: Span
    role: str | None = None
    role_span: Span | None = None
    hp: int | None = None
    max_hp: int | None = None
    kingdom: str | None = None
    chained: bool = False
    dead: bool = False
    death_order: int | None = None  # `dead 2`: the second seat to have died (for alive_at_death, kills, places)
    killer: int | None = None  # `dead by P0`: who killed it (kills)
    death_span: Span | None = None
    face_down: bool = False
    hand: list[CardSpec] = field(default_factory=list)
    equip: list[CardSpec] = field(default_factory=list)
    judge: list[CardSpec] = field(default_factory=list)
    marks: dict[str, object] = field(default_factory=dict)
    # piles on the general: name -> (public, cards or general names)
    piles: dict[str, tuple[bool, list[CardSpec]]] = field(default_factory=dict)


@dataclass
class Step:
    """One scripted answer (`answer`), or a check on the current request that consumes nothing
    (`refuse`: this answer must be refused; `offers`/`lacks`: an option is / is not offered)."""

    kind: str
    parts: list[str]
    span: Span
    text: str
    reason: str | None = None


@dataclass
class Expect:
    """One expectation; `subject` is a seat number, a pile name or None; `args` depend on `kind`."""

    kind: str
    text: str
    span: Span
    subject: int | str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    negated: bool = False


@dataclass
class Scenario:
    path: str
    source: str
    title: str = ""
    rule: str = ""
    covers: list[tuple[str, Span]] = field(default_factory=list)
    rules: list[tuple[str, Span]] = field(default_factory=list)
    mode: tuple[str, Span] | None = None
    options: dict[str, object] = field(default_factory=dict)  # as written; typed against the mode when run
    option_spans: dict[str, Span] = field(default_factory=dict)
    seed: int = 1
    seats: list[SeatSpec] = field(default_factory=list)
    deck: list[CardSpec] = field(default_factory=list)
    discard: list[CardSpec] = field(default_factory=list)
    start: tuple[int, str] = (0, "play")
    start_span: Span | None = None
    until: str = "auto"
    from_game_start: bool = False  # `start: game`: game_start, then whole rounds from the leader's seat
    setup: bool = False  # `setup: mode`: the mode's set-up runs first (implies `start: game`)
    players: int | None = None  # `players: N` — the seat count of a `setup: mode` scenario without seat lines
    scripts: dict[int, list[Step]] = field(default_factory=dict)
    expects: list[Expect] = field(default_factory=list)
    game_marks: dict[str, object] = field(default_factory=dict)  # `game marks: …` (what `mark(none, …)` sets)
    # `memory P1: first_out = true` / `memory league: …`: a league's memory the game starts with (seat or None)
    memory: dict[int | None, dict[str, object]] = field(default_factory=dict)
    memory_spans: dict[int, Span] = field(default_factory=dict)

    def rule_files(self) -> list[Path]:
        """The rules files to load (see `rule_sources`; a name that can be no rules file stays as written)."""
        base = Path(self.path).parent
        return [f if f is not None else base / n for (f, _, _), (n, _) in
                zip(self.rule_sources(), self.rules or [("", Span.point(self.path, 1, 1))], strict=True)]

    def rule_sources(self) -> list[tuple[Path | None, str, Span]]:
        """Each rules file named, with why it cannot be loaded ("" when it can) and where it is named; the bundled
        standard rules when none is named. A name is held to the rules of `import`: a bundled rule set by its
        name (`rules: standard, junzheng`, as `--rules` takes), else a `.sgs` file relative to the scenario
        (also after following links), never a folder to walk and never another kind of file to echo."""
        from .. import bundled
        from ..api import bundled_rules_dir
        from ..lang.sources import resolve_import

        if not self.rules:
            return [(bundled_rules_dir() / "standard.sgs", "", Span.point(self.path, 1, 1))]
        base = Path(self.path).parent
        out: list[tuple[Path | None, str, Span]] = []
        for name, span in self.rules:
            found = bundled.rule_set(name) if "/" not in name and not name.endswith(".sgs") else None
            target, why = (found, "") if found is not None else resolve_import(base, name)
            if target is not None and not target.is_file():
                kind = "a folder" if target.is_dir() else "not a regular file" if target.exists() else ""
                target, why = None, f"cannot find rules file {name}" + (f" ({kind})" if kind else "")
            out.append((target, why, span))
        return out


MAX_SEAT_HP = 99


def seat_hp_problem(hp: int, max_hp: int | None) -> str | None:
    """Why `hp HP/MAX` is not a seat a game can start from (None when it is): a living seat has 1 to MAX HP,
    and MAX is 1 to 99."""
    if max_hp is not None and not 1 <= max_hp <= MAX_SEAT_HP:
        return f"max HP is 1 to {MAX_SEAT_HP}, not {max_hp}"
    if not 1 <= hp <= (max_hp if max_hp is not None else MAX_SEAT_HP):
        top = max_hp if max_hp is not None else MAX_SEAT_HP
        return f"a seat starts with 1 to {top} HP, not {hp}" + (" (more than its max HP)" if hp > top else "")
    return None


def scalar(text: str) -> object:
    """A mark or option value: an int, a boolean or a word."""
    low = text.lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    if re.fullmatch(r"-?[0-9]{1,9}", text):
        return int(text)
    return text.strip('"')


class _Parser:
    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.sc = Scenario(path, text, title=Path(path).stem)
        self.diags: list[Diagnostic] = []
        self.line = 0
        self.seat: SeatSpec | None = None
        self.seen: set[str] = set()

    # ---------------------------------------------------------------- helpers
    def span(self, col: int, end: int | None = None) -> Span:
        return Span(self.path, self.line, col, self.line, end if end is not None else col + 1)

    def tspan(self, tok: Tok) -> Span:
        return self.span(tok.col, max(tok.end, tok.col + 1))

    def error(self, code: str, msg: str, span: Span, suggestion: str | None = None) -> None:
        self.diags.append(Diagnostic(code, msg, span, suggestion=suggestion))

    @staticmethod
    def strip_comment(raw: str) -> str:
        """`#` starts a comment at the start of a line or after a space, outside double quotes."""
        quoted = False
        for i, ch in enumerate(raw):
            if ch == '"':
                quoted = not quoted
            elif ch == "#" and not quoted and (i == 0 or raw[i - 1].isspace()):
                return raw[:i]
        return raw

    @staticmethod
    def words(s: str, col: int) -> list[Tok]:
        """Split on spaces; a double-quoted run is one word (quotes removed), also after a prefix such as
        `text="the watch begins"` (an event filter whose value has spaces)."""
        out = []
        for m in re.finditer(r'([^\s"]*)"([^"]*)"|(\S+)', s):
            text = m.group(1) + m.group(2) if m.group(2) is not None else m.group(3)
            out.append(Tok(text, col + m.start()))
        return out

    @staticmethod
    def items(s: str, col: int) -> list[Tok]:
        """Split a list on commas (outside quotes); each item trimmed, with its column."""
        out: list[Tok] = []
        start = 0
        quoted = False
        for i, ch in enumerate(s + ","):
            if ch == '"':
                quoted = not quoted
            elif ch == "," and not quoted:
                piece = s[start:i]
                stripped = piece.strip()
                if stripped:
                    lead = len(piece) - len(piece.lstrip())
                    out.append(Tok(stripped, col + start + lead))
                start = i + 1
        return out

    # ---------------------------------------------------------------- entry
    def parse(self) -> Scenario:
        for n, raw in enumerate(self.text.split("\n"), start=1):
            self.line = n
            body = self.strip_comment(raw.replace("\t", " ")).rstrip()
            if not body.strip():
                continue
            indent = len(body) - len(body.lstrip())
            self.statement(body.strip(), indent + 1)
        if self.sc.setup and self.sc.seats:
            self.error("SCN-E114", "`setup: mode` deals the seats itself: give `players: N`, not `seat` lines",
                       self.sc.seats[0].span)
        if not self.sc.seats and not self.diags and not (self.sc.setup and self.sc.players):
            self.error("SCN-E101", "a scenario needs at least one `seat` line (or `setup: mode` and `players: N`)",
                       Span.point(self.path, 1, 1))
        seats = [s.seat for s in self.sc.seats] or list(range(self.sc.players or 0))
        if self.sc.seats and seats != list(range(len(seats))):
            got = ", ".join(f"P{s}" for s in seats)
            self.error("SCN-E102", f"seats must be P0, P1, … in order without gaps; got {got}", self.sc.seats[0].span)
        for seat, steps in self.sc.scripts.items():
            if seat not in seats and steps:
                self.error("SCN-E103", f"a script for P{seat}, but there is no seat P{seat}", steps[0].span)
        self.check_deaths(seats)
        for seat, span in self.sc.memory_spans.items():
            if seat not in seats:
                self.error("SCN-E103", f"memory for P{seat}, but there is no seat P{seat}", span)
        for e in self.sc.expects:
            for other in (e.args.get("of"), e.args.get("turn_of")):
                if isinstance(other, int) and other not in seats:
                    self.error("SCN-E103", f"an expectation about P{other}, but there is no seat P{other}", e.span)
            if isinstance(e.subject, int) and e.subject not in seats:
                self.error("SCN-E103", f"an expectation about P{e.subject}, but there is no seat P{e.subject}", e.span)
        if self.sc.start[0] not in seats and self.sc.start_span is not None and not self.sc.from_game_start:
            self.error("SCN-E103", f"the turn starts with P{self.sc.start[0]}, but there is no such seat",
                       self.sc.start_span)
        return self.sc

    def check_deaths(self, seats: list[int]) -> None:
        """`dead N`: every dead seat gets a place in the order of death, or none does; the places are 1…D."""
        dead = [x for x in self.sc.seats if x.dead]
        ordered = [x for x in dead if x.death_order is not None]
        if ordered and len(ordered) != len(dead):
            bare = next(x for x in dead if x.death_order is None)
            self.error("SCN-E107", f"give every dead seat its place in the order of death (`dead 1`, `dead 2`…) or "
                       f"none: P{bare.seat} has none", bare.death_span or bare.span)
        elif ordered and sorted(x.death_order or 0 for x in ordered) != list(range(1, len(ordered) + 1)):
            got = ", ".join(f"P{x.seat} {x.death_order}" for x in ordered)
            self.error("SCN-E107", f"the order of death numbers the {len(ordered)} dead seat(s) 1 to {len(ordered)}, "
                       f"each once; got {got}", ordered[0].death_span or ordered[0].span)
        for x in dead:
            if x.killer is not None and x.killer not in seats:
                self.error("SCN-E103", f"P{x.seat} was killed by P{x.killer}, but there is no seat P{x.killer}",
                           x.death_span or x.span)

    def statement(self, s: str, col: int) -> None:
        head, sep, rest = s.partition(":")
        key = head.strip()
        rest_col = col + len(head) + 1
        if sep and " " not in key:
            lead = len(rest) - len(rest.lstrip())
            rest, rest_col = rest.strip(), rest_col + lead
            if key in HEADERS:
                return self.header(key, rest, rest_col, col)
            if key in SEAT_ATTRS or key == "mark":
                return self.seat_attr("marks" if key == "mark" else key, rest, rest_col, col)
            if SEAT_RE.match(key):
                return self.script(int(key[1:]), rest, rest_col)
            if key in ("game", "memory"):  # `memory: x` (whose?) / `game: x` (which?)
                return self.game_line(key, s, col)
        if sep and key.split()[:1] == ["pile"]:
            return self.pile_attr(key, rest.strip(), rest_col + len(rest) - len(rest.lstrip()), col)
        first = s.split()[0]
        if first == "seat":
            return self.seat_line(s, col)
        if first == "expect":
            return self.expect(s[len("expect"):], col + len("expect"), s, col)
        if first == "option":
            return self.option(s[len("option"):], col + len("option"))
        if first == "mark":
            return self.seat_attr("marks", s[len("mark"):].strip(), col + len("mark") + 1, col)
        if first in ("game", "memory"):
            return self.game_line(first, s, col)
        if s == "chained":
            if self.seat is None:
                return self.error("SCN-E104", "`chained` belongs under a `seat` line", self.span(col, col + len(s)))
            self.seat.chained = True
            return None
        known = list(HEADERS) + list(SEAT_ATTRS) + ["seat", "expect", "option", "mark", "chained", "P0", "game",
                                                     "memory"]
        hint = did_you_mean(key.split()[0] if key else first, known)
        self.error("SCN-E100", f"cannot read this line: expected a statement such as `seat P0: …`, `P0: …`, "
                   f"`expect …` or `{'`, `'.join(HEADERS[:4])}…`", self.span(col, col + len(s)),
                   f"did you mean `{hint}`?" if hint else None)
        return None

    # ---------------------------------------------------------------- headers
    def header(self, key: str, rest: str, col: int, key_col: int) -> None:
        sc = self.sc
        if key in ("scenario", "mode", "seed", "start", "until") and key in self.seen:
            self.error("SCN-E105", f"`{key}:` is given twice", self.span(key_col, key_col + len(key)))
        self.seen.add(key)
        if not rest and key not in ("deck", "discard"):
            self.error("SCN-E106", f"`{key}:` needs a value", self.span(key_col, key_col + len(key) + 1))
            return
        if key == "scenario":
            sc.title = rest
        elif key == "rule":  # several `rule:` lines: a scenario may prove several rules
            sc.rule = f"{sc.rule}; {rest}" if sc.rule else rest
        elif key == "covers":
            sc.covers += [(t.text, self.tspan(t)) for t in self.items(rest, col)]
        elif key == "rules":
            sc.rules += [(t.text.strip('"'), self.tspan(t)) for t in self.items(rest, col)]
        elif key == "mode":
            sc.mode = (rest, self.span(col, col + len(rest)))
        elif key == "seed":
            if not re.fullmatch(r"[0-9]{1,18}", rest):
                self.error("SCN-E107", f"seed must be a whole number, not {rest!r}", self.span(col, col + len(rest)))
            else:
                sc.seed = int(rest)
        elif key == "start":
            self.start(rest, col)
        elif key == "until":
            norm = " ".join(rest.split())
            if norm not in UNTIL:
                hint = did_you_mean(norm, UNTIL)
                self.error("SCN-E108", f"unknown stop point {rest!r}; one of: {', '.join(UNTIL)}",
                           self.span(col, col + len(rest)), f"did you mean `{hint}`?" if hint else None)
            else:
                sc.until = norm
        elif key in ("deck", "discard"):
            cards = self.cards(rest, col)
            (sc.deck if key == "deck" else sc.discard).extend(cards)
        elif key == "setup":
            if rest != "mode":
                self.error("SCN-E107", f"`setup:` takes `mode` (run the mode's set-up), not {rest!r}",
                           self.span(col, col + len(rest)))
            else:
                sc.setup = sc.from_game_start = True
        elif key == "players":
            if not re.fullmatch(NUM, rest) or int(rest) < 2:
                self.error("SCN-E107", f"players must be a number of seats (2 or more), not {rest!r}",
                           self.span(col, col + len(rest)))
            else:
                sc.players = int(rest)

    def start(self, rest: str, col: int) -> None:
        ws = self.words(rest, col)
        self.sc.start_span = self.span(col, col + len(rest))
        if rest == "game":
            self.sc.from_game_start = True
            return
        seat = self.seat_no(ws[0]) if ws else None
        phase = ws[1].text if len(ws) > 1 else "play"
        if len(ws) > 1 and phase not in PHASES:
            hint = did_you_mean(phase, PHASES)
            self.error("SCN-E109", f"unknown phase {phase!r}; phases: {', '.join(PHASES)}", self.tspan(ws[1]),
                       f"did you mean `{hint}`?" if hint else None)
            return
        if len(ws) > 2:
            self.error("SCN-E100", "`start:` takes a seat and a phase, e.g. `start: P0 play`", self.tspan(ws[2]))
        if seat is not None:
            self.sc.start = (seat, phase)

    def option(self, rest: str, col: int) -> None:
        name, eq, value = rest.partition("=")
        if not eq or not name.strip() or not value.strip():
            self.error("SCN-E100", "`option` takes `option NAME = VALUE`", self.span(col, col + len(rest) + 1))
            return
        self.sc.options[name.strip()] = value.strip().strip('"')
        self.sc.option_spans[name.strip()] = self.span(col, col + len(rest) + 1)

    def seat_no(self, tok: Tok) -> int | None:
        m = SEAT_RE.match(tok.text.rstrip(":"))
        if not m:
            self.error("SCN-E110", f"expected a seat such as P0 or P1, not {tok.text!r}", self.tspan(tok))
            return None
        return int(m.group(1))

    def game_line(self, first: str, s: str, col: int) -> None:
        """`game marks: a, b = 2` (marks on the game, as `mark(none, …)` sets them) · `memory P1: first_out = true`
        and `memory league: n = 2` (a league's memory the game starts with, as `remember` keeps it)."""
        head, sep, rest = s.partition(":")
        words = head.split()
        rest_col = col + len(head) + 1 + len(rest) - len(rest.lstrip())
        where = self.span(col, col + len(head))
        if first == "game":
            if not sep or words[1:] not in (["marks"], ["mark"]):
                self.error("SCN-E100", "write `game marks: NAME, NAME = VALUE`", where)
                return
            for t in self.items(rest.strip(), rest_col):
                name, eq, value = t.text.partition("=")
                self.sc.game_marks[name.strip()] = scalar(value.strip()) if eq else 1
            return
        if not sep or len(words) != 2 or not (SEAT_RE.match(words[1]) or words[1] == "league"):
            self.error("SCN-E100", "write `memory P1: NAME = VALUE, …` or `memory league: NAME = VALUE`", where)
            return
        seat = int(words[1][1:]) if words[1] != "league" else None
        if seat is not None:
            self.sc.memory_spans.setdefault(seat, where)
        slot = self.sc.memory.setdefault(seat, {})
        for t in self.items(rest.strip(), rest_col):
            name, eq, value = t.text.partition("=")
            value = value.strip()
            if not name.strip() or (eq and not value):
                self.error("SCN-E107", f"a remembered value is NAME = VALUE (true, false, a number or a text), not "
                           f"{t.text!r}", self.tspan(t))
                continue
            slot[name.strip()] = scalar(value) if eq else True

    # ---------------------------------------------------------------- seats
    def seat_line(self, s: str, col: int) -> None:
        ws = self.words(s, col)[1:]
        if not ws:
            self.error("SCN-E100", "`seat` takes `seat P0: GENERAL [ROLE] [hp H/M] [chained]`", self.span(col, col + 4))
            return
        seat_tok = ws[0]
        rest = ws[1:]
        if not seat_tok.text.endswith(":") and rest and rest[0].text == ":":
            rest = rest[1:]
        seat = self.seat_no(seat_tok)
        if seat is None:
            return
        if not rest:
            self.error("SCN-E100", f"seat P{seat} needs a general, e.g. `seat P{seat}: 关羽`", self.tspan(seat_tok))
            return
        if any(x.seat == seat for x in self.sc.seats):
            self.error("SCN-E105", f"seat P{seat} is declared twice", self.tspan(seat_tok))
        g = rest[0]
        spec = SeatSpec(seat, g.text, self.span(col, col + len(s)), self.tspan(g))
        i = 1
        while i < len(rest):
            w = rest[i]
            if w.text == "hp":
                if i + 1 >= len(rest):
                    self.error("SCN-E100", "`hp` needs a number, e.g. `hp 3` or `hp 2/4`", self.tspan(w))
                    break
                v = rest[i + 1]
                m = re.fullmatch(r"([0-9]{1,3})(?:/([0-9]{1,3}))?", v.text)
                if not m:
                    self.error("SCN-E107", f"`hp` takes HP or HP/MAX such as 2/4, not {v.text!r}", self.tspan(v))
                else:
                    hp, mx = int(m.group(1)), int(m.group(2)) if m.group(2) else None
                    problem = seat_hp_problem(hp, mx)
                    if problem:
                        self.error("SCN-E107", problem, self.tspan(v))
                    spec.hp, spec.max_hp = hp, mx
                i += 2
                continue
            if w.text == "dead":
                i = self.death(spec, rest, i)
                continue
            if w.text in ("chained", "face_down"):
                setattr(spec, w.text, True)
            elif spec.role is None:
                spec.role, spec.role_span = w.text, self.tspan(w)
            else:
                self.error("SCN-E100", f"unexpected {w.text!r} after the role; write `hp 3/4`, `chained`, `dead` or "
                           "`face_down`",
                           self.tspan(w))
            i += 1
        self.sc.seats.append(spec)
        self.seat = spec

    def death(self, spec: SeatSpec, rest: list[Tok], i: int) -> int:
        """`dead` · `dead 2` (its place in the order of death) · `dead by P0` · `dead 1 by P0`; the next index."""
        spec.dead = True
        first = rest[i]
        end = first.end
        i += 1
        if i < len(rest) and re.fullmatch(NUM, rest[i].text):
            spec.death_order = int(rest[i].text)
            if spec.death_order < 1:
                self.error("SCN-E107", "the order of death counts from 1 (`dead 1`: the first to die)",
                           self.tspan(rest[i]))
            end = rest[i].end
            i += 1
        if i < len(rest) and rest[i].text == "by":
            if i + 1 >= len(rest):
                self.error("SCN-E107", "`dead by` needs the killer's seat, e.g. `dead by P0`", self.tspan(rest[i]))
                return i + 1
            killer = self.seat_no(rest[i + 1])
            spec.killer = killer
            end = rest[i + 1].end
            i += 2
        spec.death_span = self.span(first.col, end)
        return i

    def seat_attr(self, key: str, rest: str, col: int, key_col: int) -> None:
        if self.seat is None:
            self.error("SCN-E104", f"`{key}:` belongs under a `seat P…:` line", self.span(key_col, key_col + len(key)))
            return
        if key == "marks":
            for t in self.items(rest, col):
                name, eq, value = t.text.partition("=")
                self.seat.marks[name.strip()] = scalar(value.strip()) if eq else 1
        elif key == "kingdom":
            self.seat.kingdom = rest
        else:
            getattr(self.seat, key).extend(self.cards(rest, col))

    def pile_attr(self, key: str, rest: str, col: int, key_col: int) -> None:
        """`pile 田: 杀♠7, 闪` (public) · `pile 化身 private: 曹操, 刘备` (cards or general cards)."""
        words = key.split()
        if self.seat is None:
            self.error("SCN-E104", "`pile NAME:` belongs under a `seat P…:` line", self.span(key_col, key_col + 4))
            return
        if len(words) not in (2, 3) or (len(words) == 3 and words[2] not in ("private", "public")):
            self.error("SCN-E100", "write `pile NAME: CARDS` or `pile NAME private: CARDS`",
                       self.span(key_col, key_col + len(key)))
            return
        public = len(words) == 2 or words[2] == "public"
        old = self.seat.piles.get(words[1], (public, []))[1]
        self.seat.piles[words[1]] = (public, old + self.cards(rest, col))

    def cards(self, rest: str, col: int) -> list[CardSpec]:
        """`杀♠7, 闪 x2, 桃` — a name, an optional face, an optional count; `-`/`none`/empty is nothing."""
        out: list[CardSpec] = []
        if rest.strip() in ("", "-", "none", "empty"):
            return out
        for t in self.items(rest, col):
            text = t.text
            count = 1
            m = re.fullmatch(r"(.*?)\s*[x×]([0-9]+)", text)
            if m:
                text, count = m.group(1), int(m.group(2)) if len(m.group(2)) <= 9 else MAX_COPIES + 1
                if count > MAX_COPIES:
                    self.error("SCN-E107", f"at most {MAX_COPIES} copies of a card, not {m.group(2)[:12]!r}",
                               self.tspan(t))
                    continue
            spec = self.card(Tok(text, t.col))
            if spec is not None:
                out.extend([spec] * count)
        return out

    def card(self, tok: Tok) -> CardSpec | None:
        text = tok.text.replace(" ", "")
        m = FACE_RE.search(text)
        suit = rank = None
        if m:
            suit, rank = m.group(1), RANKS[m.group(2)]
            text = text[: m.start()]
        elif any(s in text for s in SUITS):
            self.error("SCN-E111", f"cannot read the card face in {tok.text!r}: write a suit and a rank such as 杀♠7",
                       self.tspan(tok))
            return None
        if not text:
            self.error("SCN-E111", f"{tok.text!r} has a face but no card name, e.g. 杀♠7", self.tspan(tok))
            return None
        return CardSpec(text, suit, rank, self.tspan(tok))

    # ---------------------------------------------------------------- scripts
    def script(self, seat: int, rest: str, col: int) -> None:
        steps = self.sc.scripts.setdefault(seat, [])
        for t in self.items(rest, col):
            step = self.step(t)
            if step is not None:
                steps.append(step)

    def step(self, t: Tok) -> Step | None:
        text = t.text
        span = self.tspan(t)
        first, _, more = text.partition(" ")
        if first == "refuse":
            m = re.fullmatch(r'(.*?)(?:\s+because\s+"([^"]*)")?', more.strip())
            assert m is not None
            if not m.group(1):
                self.error("SCN-E112", "`refuse` needs the answer that must be refused, e.g. `refuse P2`", span)
                return None
            return Step("refuse", self.parts(m.group(1)), span, text, m.group(2))
        if first == "offers":
            body = more.strip()
            kind = "offers"
            if body.startswith("no "):
                kind, body = "lacks", body[3:].strip()
            if not body:
                self.error("SCN-E112", "`offers` needs an option, e.g. `offers use 杀`", span)
                return None
            return Step(kind, [body.strip('"')], span, text)
        return Step("answer", self.parts(text), span, text)

    @staticmethod
    def parts(text: str) -> list[str]:
        if text.strip() == "nothing":
            return []
        return [p.strip().strip('"') for p in re.split(r"\s\+\s", text) if p.strip()]

    # ---------------------------------------------------------------- expectations
    def expect(self, rest: str, col: int, whole: str, whole_col: int) -> None:
        span = self.span(whole_col, whole_col + len(whole))
        ws = self.words(rest, col)
        text = whole[len("expect"):].strip()
        bad = "cannot read this expectation; see docs/scenarios.md for the forms"
        if not ws:
            self.error("SCN-E113", "`expect` needs something to expect", span)
            return
        negated = False
        if ws[0].text == "no" and len(ws) > 1 and ws[1].text in ("event", "winner"):
            negated, ws = True, ws[1:]
        head = ws[0].text
        if head == "event" or (re.fullmatch(rf"{NUM}x", head) and len(ws) > 1 and ws[1].text == "event"):
            times = None
            if head != "event":
                times, ws = int(head[:-1]), ws[1:]
            if len(ws) < 2:
                self.error("SCN-E113", "write `expect event KIND field=value …`, "
                           "e.g. `expect event damage target=P1 amount=1`", span)
                return
            steps: list[dict[str, object]] = []
            cur: dict[str, object] | None = None
            i = 1
            while i < len(ws):
                w = ws[i]
                if cur is None:
                    # `note`: the kind log() lines had before they were called `log`
                    cur = {"kind": "log" if w.text == "note" else w.text, "fields": {}}
                    steps.append(cur)
                elif w.text == "then" and i + 2 < len(ws) and ws[i + 1].text == "event":
                    cur = None
                    i += 1
                else:
                    k, eq, v = w.text.partition("=")
                    if not eq:
                        self.error("SCN-E113", f"an event filter is field=value, not {w.text!r}", self.tspan(w))
                        return
                    cur["fields"][k] = v  # type: ignore[index]
                i += 1
            if len(steps) > 1:
                if negated or times is not None:
                    self.error("SCN-E113", "`then` sequences cannot be negated or counted", span)
                    return
                self.sc.expects.append(Expect("sequence", text, span, None, {"steps": steps}))
                return
            self.sc.expects.append(Expect("event", text, span, None, {**steps[0], "times": times}, negated))
            return
        if head.startswith("winner"):
            roles = [w.text.strip(",:") for w in ws[1:] if w.text.strip(",:")]
            if head != "winner" and head != "winner:":
                self.error("SCN-E113", "write `expect winner: lord, loyalist` or `expect no winner`", span)
                return
            self.sc.expects.append(Expect("winner", text, span, None, {"roles": roles}, negated))
            return
        if head == "distance":
            m = re.fullmatch(rf"P({NUM})\s+P({NUM})\s*=\s*({NUM})", " ".join(w.text for w in ws[1:]))
            if not m:
                self.error("SCN-E113", "write `expect distance P0 P2 = 2`", span)
                return
            a, b = int(m.group(1)), int(m.group(2))
            self.sc.expects.append(Expect("distance", text, span, a, {"to": b, "n": int(m.group(3))}))
            return
        if head.rstrip(":") in PILES:
            self.zone_expect(head.rstrip(":"), head.endswith(":"), ws[1:], rest, text, span, None)
            return
        if head in ("game", "league"):  # `expect game mark NAME` · `expect league memory NAME = VALUE`
            word = "mark" if head == "game" else "memory"
            args = ws[1:]
            neg = bool(args) and args[0].text == "no"
            if neg:
                args = args[1:]
            if not args or args[0].text != word:
                self.error("SCN-E113", f"write `expect {head} {word} NAME [= VALUE]` or `expect {head} no {word} NAME`",
                           span)
                return
            self.named_value_expect(word, head, args[1:], text, span, neg)
            return
        seat = SEAT_RE.match(head)
        if not seat:
            self.error("SCN-E113", f"{bad}: start with a seat (P1), `event`, `winner`, `discard`, `deck`, `game` or "
                       "`league`", span)
            return
        subject = int(seat.group(1))
        tail = ws[1:]
        if not tail:
            self.error("SCN-E113", f"what about P{subject}? e.g. `expect P{subject} hp 3`", span)
            return
        what = tail[0].text
        args = tail[1:]
        if what == "pile" and args:
            name = args[0].text
            colon = name.endswith(":")
            name = name.rstrip(":")
            more = args[1:]
            if not colon and more and more[0].text == ":":
                colon, more = True, more[1:]
            if not colon and not more:
                self.error("SCN-E113", f"write `pile {name} N`, `pile {name}: CARDS` or `pile {name} has CARDS`", span)
                return
            self.zone_expect(f"pile:{name}", colon, more, rest, text, span, subject)
            return
        if what in ("alive", "dead", "chained", "unchained", "dying", "face_down", "face_up") and not args:
            self.sc.expects.append(Expect("state", text, span, subject, {"state": what}))
        elif what in ("hp", "max_hp") and len(args) == 1 and re.fullmatch(rf"-?{NUM}(/{NUM})?", args[0].text):
            hp, _, mx = args[0].text.partition("/")
            health: dict[str, object] = {"hp": int(hp)} if what == "hp" else {"max_hp": int(hp)}
            if mx:
                health["max_hp"] = int(mx)
            self.sc.expects.append(Expect("hp", text, span, subject, health))
        elif what.rstrip(":") in ZONES:
            self.zone_expect(what.rstrip(":"), what.endswith(":"), args, rest, text, span, subject)
        elif what in ("mark", "memory") or (what == "no" and args and args[0].text in ("mark", "memory")):
            neg = what == "no"
            if neg:
                what, args = args[0].text, args[1:]
            self.named_value_expect(what, subject, args, text, span, neg)
        elif what == "asked" or (what == "not" and args and args[0].text == "asked"):
            self.asked_expect(subject, args[1:] if what == "not" else args, text, span, what == "not")
        elif what == "sees" and args:
            self.view_expect(subject, args, text, span)
        elif what in ("offered", "not") and args:
            neg = what == "not"
            if neg:
                if args[0].text != "offered":
                    self.error("SCN-E113", f"write `expect P{subject} not offered OPTION`", span)
                    return
                args = args[1:]
            option = rest[args[0].col - col:].strip().strip('"') if args else ""
            if not option:
                self.error("SCN-E113", f"`expect P{subject} offered OPTION` needs the option text", span)
                return
            self.sc.expects.append(Expect("offered", text, span, subject, {"option": option}, neg))
        elif what == "general" and len(args) == 1:
            self.sc.expects.append(Expect("general", text, span, subject, {"general": args[0].text}))
        elif what == "role" and len(args) == 1:
            self.sc.expects.append(Expect("role", text, span, subject, {"role": args[0].text}))
        elif what == "score" and len(args) == 1 and re.fullmatch(r"-?\d+", args[0].text):
            self.sc.expects.append(Expect("score", text, span, subject, {"score": int(args[0].text)}))
        elif what == "place" and len(args) == 1 and re.fullmatch(r"\d+", args[0].text):
            self.sc.expects.append(Expect("place", text, span, subject, {"place": int(args[0].text)}))
        elif what in ("won", "lost") and not args:
            self.sc.expects.append(Expect("won", text, span, subject, {"won": what == "won"}))
        else:
            self.error("SCN-E113", f"{bad}: after P{subject} write hp, max_hp, hand, equip, judge, alive, dead, "
                       "chained, unchained, face_down, face_up, pile, mark, memory, general, role, score, place, won, "
                       "lost, offered, not offered, asked, not asked or sees", span)

    def named_value_expect(self, kind: str, subject: int | str, args: list[Tok], text: str, span: Span,
                           neg: bool) -> None:
        """`mark NAME [= VALUE]` / `memory NAME [= VALUE]` of a seat, the game (marks) or the league (memory)."""
        joined = " ".join(w.text for w in args)
        name, eq, value = joined.partition("=")
        if not name.strip() or " " in name.strip() or (eq and not value.strip()):
            who = f"P{subject}" if isinstance(subject, int) else subject
            self.error("SCN-E113", f"write `expect {who} {kind} NAME [= VALUE]` or `expect {who} no {kind} NAME`", span)
            return
        self.sc.expects.append(Expect(kind, text, span, subject,
                                      {"name": name.strip(), "value": scalar(value.strip()) if eq else None}, neg))

    def asked_expect(self, subject: int, args: list[Tok], text: str, span: Span, neg: bool) -> None:
        """`asked [WHAT] [in [Pn] PHASE]`: some request to the seat (of that kind, prompt or option), made in that
        phase (of Pn's turn); `not asked …`: none."""
        cut = next((i for i, w in enumerate(args) if w.text == "in"), len(args))
        what_toks, where = args[:cut], args[cut + 1:]
        phase: str | None = None
        turn_of: int | None = None
        if cut < len(args):
            if where and SEAT_RE.match(where[0].text):
                turn_of = int(where[0].text[1:])
                where = where[1:]
            if len(where) != 1 or where[0].text not in PHASES:
                got = where[0] if where else args[cut]
                hint = did_you_mean(got.text, PHASES) if where else None
                self.error("SCN-E109", f"`asked … in` takes a phase ({', '.join(PHASES)}), optionally after the seat "
                           f"whose turn it is: `in P0 discard`", self.tspan(got),
                           f"did you mean `{hint}`?" if hint else None)
                return
            phase = where[0].text
        what = " ".join(w.text for w in what_toks).strip().strip('"') or None
        self.sc.expects.append(Expect("asked", text, span, subject, {"what": what, "phase": phase, "turn_of": turn_of},
                                      neg))

    def view_expect(self, subject: int, args: list[Tok], text: str, span: Span) -> None:
        """`sees P1 role hidden` · `sees P1 hand 3` · `sees P1 hp 3/4` · `sees P1 general 曹操` · `sees P1 pile 化身 2`
        · `sees P1 pile 化身 hidden` · `sees P1 pile 化身: 曹操, 刘备`: what the seat's view shows of another seat."""
        form = ("`expect P0 sees P1 role ROLE|hidden`, `… hand N`, `… hp N[/MAX]`, `… general NAME`, "
                "`… pile NAME N|hidden`, `… pile NAME: CARDS` or `… equip: CARDS`")
        m = SEAT_RE.match(args[0].text)
        if not m or len(args) < 2:
            self.error("SCN-E113", f"write {form}", span)
            return
        other, field_tok, more = int(m.group(1)), args[1], args[2:]
        what = field_tok.text.rstrip(":")
        fields = ("role", "hand", "hp", "general", "pile", "equip", "judge")
        if what not in fields:
            hint = did_you_mean(what, fields)
            self.error("SCN-E113", f"a view shows of a seat: {', '.join(fields)}, not {what!r}", self.tspan(field_tok),
                       f"did you mean `{hint}`?" if hint else None)
            return
        args_out: dict[str, Any] = {"of": other, "field": what}
        if what == "pile":
            name_tok = more[0] if more else None
            if name_tok is None:
                self.error("SCN-E113", f"write {form}", span)
                return
            args_out["pile"] = name_tok.text.rstrip(":")
            args_out["zone"] = "pile:" + args_out["pile"]  # (its items may be general cards, as in `pile` expectations)
            colon = name_tok.text.endswith(":") or (len(more) > 1 and more[1].text == ":")
            more = more[1:] if not (len(more) > 1 and more[1].text == ":") else more[2:]
            if colon:
                args_out["cards"] = self.cards(" ".join(w.text for w in more), more[0].col if more else span.end_col)
            elif len(more) == 1 and (re.fullmatch(NUM, more[0].text) or more[0].text == "hidden"):
                args_out["value"] = more[0].text
            else:
                self.error("SCN-E113", f"write {form}", span)
                return
        elif what in ("equip", "judge"):
            if not field_tok.text.endswith(":"):
                self.error("SCN-E113", f"write `expect P{subject} sees P{other} {what}: CARDS` (`-` for none)", span)
                return
            args_out["cards"] = self.cards(" ".join(w.text for w in more), more[0].col if more else span.end_col)
        else:
            ok = {"role": r"\S+", "hand": NUM, "hp": rf"{NUM}(/{NUM})?", "general": r"\S+"}[what]
            if len(more) != 1 or not re.fullmatch(ok, more[0].text):
                self.error("SCN-E113", f"write {form}", span)
                return
            args_out["value"] = more[0].text
        self.sc.expects.append(Expect("view", text, span, subject, args_out))

    def zone_expect(self, zone: str, colon: bool, args: list[Tok], rest: str, text: str, span: Span,
                    subject: int | None) -> None:
        """`hand 2` (count) · `hand: 杀, 闪` (exactly these) · `hand has 杀` · `hand has no 杀`."""
        subj: int | str = subject if subject is not None else zone
        col0 = args[0].col if args else span.end_col
        after = self.text.split("\n")[self.line - 1].replace("\t", " ")[col0 - 1:]
        after = self.strip_comment(after).strip()
        if colon:
            self.sc.expects.append(Expect("zone_exact", text, span, subj, {"zone": zone,
                                                                           "cards": self.cards(after, col0)}))
        elif len(args) == 1 and re.fullmatch(NUM, args[0].text):
            self.sc.expects.append(Expect("zone_count", text, span, subj, {"zone": zone, "n": int(args[0].text)}))
        elif args and args[0].text == "has":
            neg = len(args) > 1 and args[1].text == "no"
            start = args[2] if neg else (args[1] if len(args) > 1 else None)
            if start is None:
                self.error("SCN-E113", f"`{zone} has` needs cards, e.g. `{zone} has 杀`", span)
                return
            body = after[start.col - col0:]
            self.sc.expects.append(Expect("zone_has", text, span, subj,
                                          {"zone": zone, "cards": self.cards(body, start.col)}, neg))
        else:
            self.error("SCN-E113", f"write `{zone} N`, `{zone}: CARDS`, `{zone} has CARDS` or `{zone} has no CARDS`",
                       span)


def parse_scenario(path: str, text: str) -> Scenario:
    """Parse scenario text; raises ScenarioError with every problem found, located."""
    p = _Parser(path, text)
    sc = p.parse()
    if p.diags:
        raise ScenarioError(p.diags, {path: text})
    return sc
