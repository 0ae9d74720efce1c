"""Build a game from a scenario's position, play it with the scripted answers, check the expectations.

The position is put straight onto `Game`/`Player` objects (no random set-up): the named cards are taken
out of the deck, the stated cards go on top of the draw pile, and the stated seat's turn resumes at the
stated phase (`TurnFlow.take_turn(first_phase=…)`). Every way a run can go wrong — a script that runs out or
does not fit a request, a rule error, a game that does not stop — ends as a failed outcome with a
message, never as a hang or a traceback.
"""

from __future__ import annotations

import re
import sys
import time
import traceback
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..api import check_paths, program_for
from ..engine.agents import Agent, Request
from ..engine.decisions import pile_item_label
from ..engine.errors import EngineError, GameAborted, GameOver, IllegalAnswer, in_game
from ..engine.events import Event, run_rule
from ..engine.game import Game
from ..engine.model import Card, Player
from ..engine.program import Frame, Program
from ..lang.diagnostics import Diagnostic, Span, did_you_mean, render_text
from ..lang.sources import walk_files
from ..modes import SetupError, check_mode, convert_option
from ..rule_errors import describe
from .syntax import CardSpec, Expect, Scenario, ScenarioError, SeatSpec, Step, parse_scenario

MAX_DECISIONS = 2000
MAX_ROUNDS = 30
SLOT_OF = {"weapon", "armor", "defensive_horse", "offensive_horse"}


class ScriptsDone(GameAborted):  # noqa: N818 - control flow: the run reached its stop point
    """Every script is used up and the engine asks again: the natural end of a default run. Raised by the
    scripted agent, it passes through rule functions untouched (as a GameAborted), even from a request made
    inside a rule body."""


class ScenarioFailure(GameAborted):
    """The run could not go on as scripted (wrong answer, script exhausted, refused step accepted…)."""


@dataclass
class Outcome:
    """The result of one scenario: passed, or the failed expectations / run error and the log tail."""

    scenario: Scenario
    failures: list[str] = field(default_factory=list)
    log_tail: list[str] = field(default_factory=list)
    seconds: float = 0.0
    stopped: str = ""

    @property
    def passed(self) -> bool:
        return not self.failures


# ------------------------------------------------------------------ loading
_PROGRAMS: dict[tuple, tuple[Program | None, list[Diagnostic], dict[str, str]]] = {}


def load_program(files: list[Path], engine: str) -> tuple[Program | None, list[Diagnostic], dict[str, str]]:
    """Check and build the rules once per set of files (many scenarios share standard.sgs)."""
    key = (engine, *[(str(f.resolve()), f.stat().st_mtime_ns if f.exists() else 0) for f in files])
    if key not in _PROGRAMS:
        loaded = check_paths([str(f) for f in files])
        errors = [d for d in loaded.diagnostics if d.severity == "error"]
        program = program_for(loaded, engine) if loaded.checked is not None and not errors else None
        _PROGRAMS[key] = (program, errors, loaded.sources)
    return _PROGRAMS[key]


def read_scenario(path: str | Path) -> Scenario:
    """Read and parse a scenario file; unreadable files are diagnostics too."""
    shown = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError([Diagnostic("SCN-E100", f"cannot read {shown}: {err}", Span.point(shown, 1, 1))],
                            {}) from None
    return parse_scenario(shown, text.lstrip("\ufeff"))


def prepare(sc: Scenario, engine: str = "interpreted") -> Program:
    """The scenario's rules as a Program, with every name in the scenario resolved against them."""
    files: list[Path] = []
    for f, why, span in sc.rule_sources():
        if f is None:
            raise ScenarioError([Diagnostic("SCN-E200", why, span)], {sc.path: sc.source})
        files.append(f)
    program, errors, sources = load_program(files, engine)
    if program is None:
        where = sc.rules[0][1] if sc.rules else Span.point(sc.path, 1, 1)
        diag = Diagnostic("SCN-E201", "the rules this scenario loads do not check:\n" + render_text(errors, sources),
                          where)
        raise ScenarioError([diag], {sc.path: sc.source})
    diags = _resolve(sc, program)
    if diags:
        raise ScenarioError(diags, {sc.path: sc.source})
    return program


def find_general(program: Program, name: str) -> Any:
    """A general by display name or id (designers write either)."""
    for g in program.generals.values():
        if g.name == name or g.ident == name:
            return g
    return None


def _known_skills(program: Program) -> dict[str, str]:
    """Every skill name and id a `covers:` line may cite: generals', top-level and equipment skills."""
    out = {}
    for g in program.generals.values():
        for s in g.skills:
            out[s.name] = s.ident
            out[s.ident] = s.ident
    for s in program.skills.values():
        out[s.name] = s.ident
        out[s.ident] = s.ident
    for c in program.cards.values():
        for s in c.skills:
            out[s.name] = s.ident
            out[s.ident] = s.ident
    return out


def _mode_name(sc: Scenario, program: Program) -> str:
    """The stated mode, else `identity`, else the rules' first mode."""
    if sc.mode is not None:
        return sc.mode[0]
    return "identity" if "identity" in program.modes else sorted(program.modes)[0] if program.modes else ""


def _resolve(sc: Scenario, program: Program) -> list[Diagnostic]:
    """Check every name against the rules before anything runs, so a typo is a located diagnostic."""
    diags: list[Diagnostic] = []
    card_names = sorted({c.name for c in program.cards.values()} | set(program.cards))

    def card(spec: CardSpec) -> None:
        if program.card_by_name(spec.name) is None:
            hint = did_you_mean(spec.name, card_names)
            diags.append(Diagnostic("SCN-E202", f"unknown card {spec.name!r}", spec.span,
                                    suggestion=f"did you mean {hint}?" if hint else None))

    mode = _mode_name(sc, program)
    if not program.modes:
        diags.append(Diagnostic("SCN-E204", "the rules define no mode", Span.point(sc.path, 1, 1)))
        return diags
    try:
        mrule = check_mode(program, mode)
    except SetupError as err:
        diags.append(Diagnostic("SCN-E204", str(err), sc.mode[1] if sc.mode else Span.point(sc.path, 1, 1)))
        return diags
    roles = {r for _, _, rs in mrule.roles for r in rs} | ({mrule.leader} if mrule.leader else set())
    typed: dict[str, object] = {}
    for name, raw in sc.options.items():  # the one option validator every command shares
        try:
            typed[name] = convert_option(mrule, name, raw)
        except SetupError as err:
            diags.append(Diagnostic("SCN-E204", str(err), sc.option_spans.get(name, Span.point(sc.path, 1, 1))))
    sc.options = typed
    for seat in sc.seats:
        if find_general(program, seat.general) is None:
            hint = did_you_mean(seat.general, [g.name for g in program.generals.values()])
            diags.append(Diagnostic("SCN-E203", f"unknown general {seat.general!r}", seat.general_span,
                                    suggestion=f"did you mean {hint}?" if hint else None))
        if seat.role is not None and roles and seat.role not in roles and seat.role_span is not None:
            hint = did_you_mean(seat.role, roles)
            known = ", ".join(sorted(roles))
            diags.append(Diagnostic("SCN-E205", f"unknown role {seat.role!r}; mode {mode} has {known}",
                                    seat.role_span, suggestion=f"did you mean {hint}?" if hint else None))
        for c in seat.hand + seat.equip + seat.judge:
            card(c)
        for _, items in seat.piles.values():
            for c in items:
                if c.suit is not None or find_general(program, c.name) is None:
                    card(c)
    for c in sc.deck + sc.discard:
        card(c)
    for e in sc.expects:
        for c in e.args.get("cards", []) or []:
            if not (str(e.args.get("zone", "")).startswith("pile:") and find_general(program, c.name) is not None):
                card(c)
    skills = _known_skills(program)
    rules = {r.name for r in program.rules.values()} | set(program.rules)
    for name, span in sc.covers:
        if (program.card_by_name(name) is None and name not in skills and name not in program.modes
                and name not in rules):
            hint = did_you_mean(name, card_names + sorted(skills))
            diags.append(Diagnostic("SCN-E206",
                                    f"`covers` names {name!r}, which is no card, skill or rule of the rules", span,
                                    suggestion=f"did you mean {hint}?" if hint else None))
    return diags


# ------------------------------------------------------------------ answers
def _norm(s: str) -> str:
    """Case and spacing never matter when matching text against labels."""
    return " ".join(s.lower().split())


def match_option(text: str, options: tuple[str, ...], taken: AbstractSet[int] = frozenset()) -> int | None:
    """The option an answer means: an exact label, else the first label it starts, else the first containing
    it, else the first containing its words in order (`use 杀 on P0` finds `use 杀♠7#31 on P0:孙权`)."""
    t = _norm(text)
    opts = [_norm(o) for o in options]
    words = re.compile(".*".join(re.escape(w) for w in t.split(" ")))
    for test in (lambda o: o == t, lambda o: o.startswith(t), lambda o: t in o, lambda o: words.search(o)):
        for i, o in enumerate(opts):
            if i not in taken and test(o):
                return i
    return None


def resolve_answer(parts: list[str], req: Request) -> tuple[list[int] | None, str]:
    """Option indices for an answer's parts, or None and why it does not fit. `first N` picks the first N options
    (when which ones does not matter, e.g. cards to discard)."""
    m = re.fullmatch(r"first (\d+)", parts[0].strip().lower()) if len(parts) == 1 else None
    if m is not None:
        n = int(m.group(1))
        return (list(range(n)), "") if n <= len(req.options) else (None, f"only {len(req.options)} options")
    out: list[int] = []
    for part in parts:
        i = match_option(part, req.options, set(out))
        if i is None:
            return None, f"{part!r} is not offered"
        out.append(i)
    return out, ""


def describe_request(req: Request, players: list[Player]) -> str:
    who = players[req.seat].label() if req.seat < len(players) else f"P{req.seat}"
    n = f" (pick {req.low}..{req.high})" if (req.low, req.high) != (1, 1) else ""
    return f"{req.kind} request to {who} — {req.prompt}{n}; options: [{', '.join(req.options)}]"


@dataclass(frozen=True)
class Asked:
    """One request a seat was asked, and when: whose turn it was and in which phase."""

    seat: int
    kind: str
    prompt: str
    options: tuple[str, ...]
    turn_of: int
    phase: str


class ScenarioAgent(Agent):
    """Answers every seat's requests from its script; checks the non-consuming steps on the way."""

    name = "scenario"
    reads_view = False

    def __init__(self, sc: Scenario, stop_when_done: bool):
        self.steps = {seat: list(steps) for seat, steps in sc.scripts.items()}
        self.pos = {seat: 0 for seat in self.steps}
        self.stop_when_done = stop_when_done
        self.game: Game | None = None
        self.decisions = 0
        # every request made, with whose turn and which phase it came in (for `asked … in P0 discard`)
        self.asked: list[Asked] = []

    def remaining(self) -> dict[int, list[Step]]:
        return {s: st[self.pos[s]:] for s, st in self.steps.items() if self.pos[s] < len(st)}

    def decide(self, request: Request, view: Any) -> list[int]:
        assert self.game is not None
        players = self.game.players
        self.decisions += 1
        if self.decisions > MAX_DECISIONS:
            raise ScenarioFailure(f"more than {MAX_DECISIONS} decisions: the scenario does not stop")
        seat = request.seat
        self.asked.append(Asked(seat, request.kind, request.prompt, tuple(request.options), self.game.current.seat,
                                self.game.phase))
        steps = self.steps.get(seat, [])
        while True:
            if self.pos.get(seat, 0) >= len(steps):
                left = self.remaining()
                if not left and self.stop_when_done:
                    # keep the unanswered request in the log: `offered` expectations may be about it
                    self.game.log.append({"ask": seat, "kind": request.kind, "prompt": request.prompt,
                                          "options": list(request.options), "answer": [], "pending": True})
                    raise ScriptsDone()
                pending = "; ".join(f"P{s} still has: {', '.join(x.text for x in st)}" for s, st in left.items())
                asked = describe_request(request, players)
                raise ScenarioFailure(f"P{seat}'s script has no answer left for the {asked}"
                                      + (f" ({pending})" if pending else ""))
            step = steps[self.pos[seat]]
            self.pos[seat] += 1
            where = f"{Path(step.span.file).name}:{step.span.line}:{step.span.col}"
            if step.kind == "answer":
                answer, why = resolve_answer(step.parts, request)
                if answer is None:
                    raise ScenarioFailure(f"P{seat}'s answer {step.text!r} ({where}) does not fit the "
                                          f"{describe_request(request, players)}: {why}")
                return answer
            if step.kind in ("offers", "lacks"):
                found = match_option(step.parts[0], request.options) is not None
                if found != (step.kind == "offers"):
                    raise ScenarioFailure(f"`{step.text}` ({where}) failed: the {describe_request(request, players)}")
                continue
            # refuse: the answer must not be accepted; the request is then answered by the next step
            answer, why = resolve_answer(step.parts, request)
            if answer is not None:
                try:
                    self.game.choices._validate(self, request, answer)
                except IllegalAnswer as err:
                    why = str(err).rsplit(": ", 1)[-1]
                else:
                    raise ScenarioFailure(f"`{step.text}` ({where}): expected the answer to be refused, but the "
                                          f"{describe_request(request, players)} accepts it")
            if step.reason and _norm(step.reason) not in _norm(why):
                raise ScenarioFailure(f"`{step.text}` ({where}): refused, but because {why!r}, not {step.reason!r}")
            self.game.emit_log("scenario_refused", player=players[seat].label(), answer=step.text, reason=why)


# ------------------------------------------------------------------ building the position
def _default_roles(game: Game, n: int) -> list[str]:
    """The mode's roles for n seats in seat order (no shuffle); else the leader then rebels."""
    chosen: tuple[str, ...] | None = None
    for count, cond, roles in game.mode.roles:
        if count == n and cond is None:
            chosen = roles
    if chosen is None:
        lead = game.mode.leader or "lord"
        chosen = (lead,) + ("rebel",) * (n - 1)
    return list(chosen)


class _Placer:
    """Takes named physical cards out of the deck in a fixed order (lowest id first)."""

    def __init__(self, game: Game, program: Program, specs: list[CardSpec]):
        self.game = game
        self.program = program
        self.reserved: dict[int, Card] = {}  # id(spec) -> the copy a spec with a face will take
        for spec in specs:
            if spec.suit is not None:
                c = self._find(spec, set(map(id, self.reserved.values())))
                if c is not None:
                    self.reserved[id(spec)] = c

    def _find(self, spec: CardSpec, skip: set[int]) -> Card | None:
        rule = self.program.card_by_name(spec.name)
        for c in sorted(self.game.draw_pile, key=lambda c: c.id):
            if id(c) in skip or c.printed_rule is not rule:
                continue
            if spec.suit is None or (c.printed_suit == spec.suit and c.rank == spec.rank):
                return c
        return None

    def take(self, spec: CardSpec) -> Card:
        """Copies named with a face are set aside first, so `杀` never takes the 杀♠7 another line names."""
        c = self.reserved.pop(id(spec), None)
        if c is None:
            c = self._find(spec, set(map(id, self.reserved.values())))
        if c is not None:
            self.game.draw_pile.remove(c)
            return c
        rule = self.program.card_by_name(spec.name)
        copies = [x for x in self.game.cards if x.rule is rule]
        faces = ", ".join(f"{x.label()} ({x.zone})" for x in copies[:10]) + (" …" if len(copies) > 10 else "")
        raise ScenarioError([Diagnostic("SCN-E207", f"no free copy of {spec} left in the deck; copies: {faces}",
                                        spec.span)], {})


def build_game(sc: Scenario, program: Program, agent: Agent) -> Game:
    """A Game in the scenario's position, ready to resume the stated seat's turn."""
    mode = _mode_name(sc, program)
    lo = program.modes[mode].players[0]
    game = Game(program, mode, lo, sc.seed, [agent] * lo, sc.options, round_cap=MAX_ROUNDS, record=True)
    n = len(sc.seats) or sc.players or lo
    game.players = [Player(i) for i in range(n)]
    game.agents = [agent] * n
    specs = [c for st in sc.seats for c in st.hand + st.equip + st.judge] + sc.deck + sc.discard
    specs += [c for st in sc.seats for _, items in st.piles.values() for c in items
              if c.suit is not None or find_general(program, c.name) is None]
    placer = _Placer(game, program, specs)
    roles = _default_roles(game, n)
    try:
        for spec, p in zip(sc.seats, game.players if sc.seats else [], strict=True):
            _seat(game, program, placer, spec, p, roles[p.seat] if p.seat < len(roles) else "rebel")
        # take every deck and discard card before putting any back: a card put back on the draw pile must not
        # be found again (`deck: 闪, 闪`, or `deck: 闪♥2` with `discard: 闪`)
        on_deck = [placer.take(c) for c in reversed(sc.deck)]
        discarded = [placer.take(c) for c in sc.discard]
        for card in on_deck:
            card.zone, card.holder = "draw", None
            game.draw_pile.append(card)
        for card in discarded:
            card.zone, card.holder = "discard", None
            game.discard_pile.append(card)
    except ScenarioError as err:
        raise ScenarioError(err.diagnostics, {sc.path: sc.source}) from None
    # the generals in play are not in the pool of unused generals (化身, new generals at set-up)
    for p in game.players:
        if p.general is not None and p.general in game.general_pool:
            game.general_pool.remove(p.general)
    for p in game.players:
        game.dispatch.refresh_skills(p)
    game.marks.update(sc.game_marks)
    for seat, values in sc.memory.items():  # a league's memory, by the person at each seat (seat i: person i)
        game.carry.slot(game.players[seat].person if seat is not None else None).update(values)
    _record_deaths(sc, game)
    game.round = 0 if sc.from_game_start else 1
    game.start_seat = _leader_seat(game)  # rounds run from the leader's seat, wherever the scenario starts
    game.current = game.players[game.start_seat if sc.from_game_start else sc.start[0]]
    game.log.clear()
    return game


def _record_deaths(sc: Scenario, game: Game) -> None:
    """Seats dead from the start died in the stated order (`dead 1`, `dead 2`…; else in seat order), each with all
    the later-dead still alive, by the stated killer: what `alive_at_death`, `kills` and places read."""
    dead = [s for s in sc.seats if s.dead]
    dead.sort(key=lambda s: (s.death_order or 0, s.seat))
    n = len(game.players)
    for k, spec in enumerate(dead):
        killer = game.players[spec.killer] if spec.killer is not None else None
        game.deaths.append((game.players[spec.seat], killer, n - k))


def _leader_seat(game: Game) -> int:
    leader = game.mode.leader
    return next((p.seat for p in game.players if leader is not None and p.role == leader), 0)


def _seat(game: Game, program: Program, placer: _Placer, spec: SeatSpec, p: Player, default_role: str) -> None:
    p.role = spec.role or default_role
    p.role_revealed = p.role == game.mode.leader
    game.set_general(p, find_general(program, spec.general))
    if spec.max_hp is not None:
        p.max_hp = spec.max_hp
    if spec.hp is not None:
        p.hp = spec.hp
        if spec.max_hp is None and spec.hp > p.max_hp:
            p.max_hp = spec.hp
    if spec.kingdom:
        p.kingdom = spec.kingdom
    p.chained = spec.chained
    p.face_down = spec.face_down
    p.marks.update(spec.marks)
    for name, (public, items) in spec.piles.items():
        for c in items:
            if c.suit is None and find_general(program, c.name) is not None:
                gen = find_general(program, c.name)
                game.piles.take_general_out(gen)
                p.piles.setdefault(name, []).append(gen)
            else:
                card = placer.take(c)
                card.zone, card.holder = "pile", p
                p.piles.setdefault(name, []).append(card)
        p.pile_public[name] = public
    if spec.dead:
        p.alive = False
        p.role_revealed = True
    for c in spec.hand:
        card = placer.take(c)
        card.zone, card.holder = "hand", p
        p.hand.append(card)
    for c in spec.equip:
        card = placer.take(c)
        slot = card.category
        if slot not in SLOT_OF:
            raise ScenarioError([Diagnostic("SCN-E208", f"{c} is not equipment ({slot})", c.span)], {})
        if slot in p.equips:
            raise ScenarioError([Diagnostic("SCN-E208", f"P{p.seat} already has a {slot}: {p.equips[slot].label()}",
                                            c.span)], {})
        card.zone, card.holder = "equip", p
        p.equips[slot] = card
    for c in spec.judge:
        card = placer.take(c)
        if card.category != "delayed":
            raise ScenarioError([Diagnostic("SCN-E208", f"{c} is not a delayed trick", c.span)], {})
        card.zone, card.holder = "judge", p
        p.judge.append(card)


# ------------------------------------------------------------------ running
def play(sc: Scenario, game: Game, agent: ScenarioAgent) -> str:
    """Resume the stated turn and go on to the stop point; returns why the run stopped."""
    until = sc.until
    seat, phase = sc.start
    p = game.players[seat]
    try:
        if sc.from_game_start:
            return _play_from_start(sc, game)
        game.turnflow.take_turn(p, first_phase=phase, last_phase=phase if until == "end of phase" else None)
        if until in ("end of phase", "end of turn", "auto"):
            return "end of phase" if until == "end of phase" else "end of turn"
        lead, n = game.start_seat, len(game.players)
        while True:
            nxt = game.next_alive(p)
            # a new round begins when the turn passes the leader's seat (as in a game), not the starting seat
            if (nxt.seat - lead) % n <= (p.seat - lead) % n:
                if until == "end of round":
                    return "end of round"
                game.turnflow.clear_scope("round")
                _next_round(game, until)
            p = nxt
            game.turnflow.take_turn(p)
    except ScriptsDone:
        return "script end"
    except GameOver as over:
        game.finish(over)
        return "game over"


def _next_round(game: Game, until: str) -> None:
    """A new round begins: its number, its log line and `round_start`, as in a real game."""
    game.round += 1
    if game.round > MAX_ROUNDS:
        raise ScenarioFailure(f"the game went on for {MAX_ROUNDS} rounds without reaching `until: {until}`")
    game.emit_log("round", round=game.round)
    game.dispatch.emit("round_start", Event("round_start", round=game.round))


def _play_from_start(sc: Scenario, game: Game) -> str:
    """`start: game`: (the mode's set-up with `setup: mode`,) game_start, then whole rounds from the leader's
    seat. `until: end of turn` (or the default) stops after the first turn that is played."""
    until = sc.until
    if sc.setup:
        game.emit_log("game_start", players=len(game.players), seed=game.seed, mode=game.mode.ident)
        if game.mode.setup is not None:
            run_rule(game.mode.setup, Frame(game, {}))
        for p in game.players:
            game.dispatch.refresh_skills(p)
        game.start_seat = _leader_seat(game)
        game.current = game.players[game.start_seat]
    game.dispatch.emit("game_start", Event("game_start"))
    while True:
        _next_round(game, until)
        if game.mode.turn_order is not None:  # the mode plays the round's turns (3v3: one camp action)
            turns = game.turns
            run_rule(game.mode.turn_order, Frame(game, {}))
            if until in ("end of turn", "auto") and game.turns > turns:
                return "end of turn"
            game.turnflow.clear_scope("round")
            continue
        for p in game.seat_order(game.players[game.start_seat], include_dead=True):
            if p.alive:
                turns = game.turns
                game.turnflow.take_turn(p)
                if until in ("end of turn", "auto") and game.turns > turns:
                    return "end of turn"
        if until == "end of round":
            return "end of round"
        game.turnflow.clear_scope("round")


def run_scenario(sc: Scenario, engine: str = "interpreted", tail: int = 14) -> Outcome:
    """Run a parsed scenario. Raises ScenarioError when its names do not resolve (malformed)."""
    start = time.perf_counter()
    program = prepare(sc, engine)
    out = Outcome(sc)
    agent = ScenarioAgent(sc, stop_when_done=sc.until in ("auto", "script end"))
    game = build_game(sc, program, agent)
    agent.game = game
    try:
        out.stopped = play(sc, game, agent)
    except ScenarioFailure as err:
        out.failures.append(f"the run failed: {err}")
    except EngineError as err:
        in_game(err, sc.seed, game.decisions)
        out.failures.append("the run failed: " + describe(err).replace("\n", "\n    "))
    except RecursionError:
        out.failures.append("the run failed: the rules recursed without end")
    except Exception as err:  # noqa: BLE001 - a scenario reports an engine crash, never a traceback
        frame = traceback.extract_tb(err.__traceback__)[-1]
        out.failures.append(f"the run failed: engine crash {type(err).__name__}: {err} "
                            f"(at {Path(frame.filename).name}:{frame.lineno})")
    if not out.failures:
        left = agent.remaining()
        for s, steps in left.items():
            out.failures.append(f"the run stopped ({out.stopped}) but P{s}'s script still has "
                                f"{len(steps)} unused answer(s): {', '.join(x.text for x in steps)}")
        for e in sc.expects:
            msg = check_expect(e, game, agent.asked)
            if msg:
                out.failures.append(msg)
    if out.failures:
        out.log_tail = [format_entry(x) for x in game.log[-tail:]]
    out.seconds = time.perf_counter() - start
    return out


# ------------------------------------------------------------------ expectations
def _variants(actual: str) -> set[str]:
    """The ways a designer may name a logged value: `P1:曹操` as P1 or 曹操; `杀♠7#3` as 杀♠7 or 杀."""
    out = {actual}
    if ":" in actual:
        a, b = actual.split(":", 1)
        out |= {a, b}
    base = actual.split("#", 1)[0]
    out.add(base)
    out.add(re.split(r"[♠♥♣♦\[]", base, maxsplit=1)[0])
    return {_norm(x) for x in out}


def value_matches(actual: Any, expected: str) -> bool:
    """Whether a logged field value is what an `expect event` filter names (loosely, see `_variants`)."""
    exp = _norm(expected)
    if isinstance(actual, list):
        if exp in ("[]", "none") and not actual:
            return True
        return any(value_matches(a, expected) for a in actual)
    if actual is None:
        return exp in ("none", "null")
    if isinstance(actual, bool):
        return exp in (("true", "yes") if actual else ("false", "no"))
    return exp in _variants(str(actual))


def format_entry(e: dict[str, Any]) -> str:
    """One log entry as a readable line for failure reports."""
    if "ask" in e:
        ans = ", ".join(e["options"][i] for i in e["answer"] if 0 <= i < len(e["options"])) or "nothing"
        if e.get("pending"):
            ans = f"(the run stopped here; options: {', '.join(e['options'])})"
        return f"ask P{e['ask']} {e['kind']} ({e['prompt']}) → {ans}"
    fields = " ".join(f"{k}={_fmt(v)}" for k, v in e.items() if k != "e")
    return f"{e.get('e', '?')} {fields}".rstrip()


def _fmt(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return str(v)


def _pile(game: Game, subject: int | str, zone: str) -> list[Any]:
    """The cards an expectation looks at; the judge area lists its entries (a converted 乐不思蜀 is one)."""
    if subject == "discard":
        return list(game.discard_pile)
    if subject == "deck":
        return list(reversed(game.draw_pile))
    p = game.players[int(subject)]
    if zone.startswith("pile:"):
        return list(p.piles.get(zone[5:], []))
    if zone == "hand":
        return list(p.hand)
    if zone == "equip":
        return list(p.equips.values())
    return list(p.judge)


def _card_fits(c: Any, spec: CardSpec) -> bool:
    """A card (or judge-area entry) matches a spec by name or id, and by face when the spec names one."""
    # a physical card by its printed face (what its label shows, whatever it counts as), a general card on a pile
    rule = getattr(c, "printed_rule", None) or getattr(c, "rule", None)
    name, ident = (rule.name, rule.ident) if rule is not None else (c.name, getattr(c, "ident", None))
    if not (name == spec.name or ident == spec.name):
        return False
    suit = getattr(c, "printed_suit", None) or getattr(c, "suit", None)
    return spec.suit is None or (suit == spec.suit and getattr(c, "rank", None) == spec.rank)


def _multiset_match(cards: list[Card], specs: list[CardSpec]) -> list[CardSpec]:
    """Specs not matched by distinct cards (faced specs are matched first)."""
    free = list(cards)
    missing = []
    for spec in sorted(specs, key=lambda s: s.suit is None):
        hit = next((c for c in free if _card_fits(c, spec)), None)
        if hit is None:
            missing.append(spec)
        else:
            free.remove(hit)
    return missing


def check_expect(e: Expect, game: Game, asked: list[Asked] | None = None) -> str | None:
    """None when the expectation holds, else `expected …, got …`."""
    head = f"expect {e.text} (line {e.span.line})"
    if e.kind == "sequence":
        at = 0
        for step in e.args["steps"]:
            found = next((i for i in range(at, len(game.log)) if _event_fits(game.log[i], step)), None)
            if found is None:
                kind = step["kind"]
                return f"{head}: no `{kind}` event matching {step['fields'] or 'it'} after the earlier steps" + _near(
                    [x for x in game.log if x.get("e") == kind])
            at = found + 1
        return None
    if e.kind == "event":
        entries = [x for x in game.log if "e" in x and x["e"] == e.args["kind"]]
        fields: dict[str, str] = e.args["fields"]
        unknown = [k for k in fields if entries and not any(k in x for x in entries)]
        if unknown:
            keys = sorted({k for x in entries for k in x if k != "e"})
            return f"{head}: `{e.args['kind']}` events have no field {', '.join(unknown)} (fields: {', '.join(keys)})"
        hits = [x for x in entries if all(k in x and value_matches(x[k], v) for k, v in fields.items())]
        times = e.args.get("times")
        if e.negated and hits:
            return f"{head}: it happened: {format_entry(hits[0])}"
        if not e.negated and times is not None and len(hits) != times:
            return f"{head}: it happened {len(hits)} time(s)" + _near(entries)
        if not e.negated and times is None and not hits:
            return f"{head}: no such event" + _near(entries)
        return None
    if e.kind == "winner":
        winners = list(game.result[0]) if game.result else []
        if e.negated:
            return f"{head}: the game was won by {', '.join(winners)}" if winners else None
        if sorted(winners) != sorted(e.args["roles"]):
            got = ", ".join(winners) if winners else "nobody (the game is not over)"
            return f"{head}: the winner is {got}"
        return None
    if e.kind == "offered":
        opt = str(e.args["option"])
        asks = [x for x in game.log if x.get("ask") == e.subject]
        hits = [x for x in asks if match_option(opt, tuple(x["options"])) is not None]
        if e.negated and hits:
            return f"{head}: it was offered in: {format_entry(hits[0])} (options: {', '.join(hits[0]['options'])})"
        if not e.negated and not hits:
            seen = "; ".join(f"{x['kind']}: [{', '.join(x['options'])}]" for x in asks[-4:]) or "no request at all"
            return f"{head}: never offered; P{e.subject} was asked: {seen}"
        return None
    if e.kind in ("zone_count", "zone_exact", "zone_has"):
        zone = str(e.args["zone"])
        cards = _pile(game, e.subject, zone)  # type: ignore[arg-type]
        where = f"P{e.subject}'s {zone}" if isinstance(e.subject, int) else f"the {e.subject} pile"
        if zone.startswith("pile:"):
            where = f"P{e.subject}'s pile {zone[5:]}"
        got = f"{where} holds {len(cards)}: [{', '.join(pile_item_label(c) for c in cards)}]"
        if len(cards) > 12:
            got = f"{where} holds {len(cards)} cards"
        specs: list[CardSpec] = e.args.get("cards", [])
        if e.kind == "zone_count":
            return None if len(cards) == e.args["n"] else f"{head}: {got}"
        if e.kind == "zone_exact":
            ok = len(cards) == len(specs) and not _multiset_match(cards, specs)
            return None if ok else f"{head}: {got}"
        if e.negated:
            bad = [s for s in specs if any(_card_fits(c, s) for c in cards)]
            return f"{head}: found {', '.join(map(str, bad))}; {got}" if bad else None
        missing = _multiset_match(cards, specs)
        return f"{head}: missing {', '.join(map(str, missing))}; {got}" if missing else None
    if e.kind in ("mark", "memory"):
        return _check_named_value(e, game, head)
    if e.kind == "asked":
        return _check_asked(e, game, asked or [], head)
    if e.kind == "view":
        return _check_view(e, game, head)
    p = game.players[int(e.subject)]  # type: ignore[arg-type]
    if e.kind == "hp":
        want_hp, want_max = e.args.get("hp"), e.args.get("max_hp")
        if (want_hp is not None and p.hp != want_hp) or (want_max is not None and p.max_hp != want_max):
            return f"{head}: {p.label()} has {p.hp}/{p.max_hp} HP"
        return None
    if e.kind == "state":
        state = e.args["state"]
        actual = {"alive": p.alive, "dead": not p.alive, "chained": p.chained, "unchained": not p.chained,
                  "dying": p.dying, "face_down": p.face_down, "face_up": not p.face_down}[state]
        if not actual:
            return (f"{head}: {p.label()} is {'alive' if p.alive else 'dead'}, "
                    f"{'chained' if p.chained else 'unchained'}, {'face down' if p.face_down else 'face up'}")
        return None
    if e.kind == "distance":
        q = game.players[int(e.args["to"])]
        d = game.dispatch.distance(p, q)
        return None if d == e.args["n"] else f"{head}: the distance from {p.label()} to {q.label()} is {d}"
    if e.kind == "general":
        want = str(e.args["general"])
        if p.general is None or want not in (p.general.name, p.general.ident):
            return f"{head}: {p.label()}"
        return None
    if e.kind == "role":
        shown = "shown" if p.role_revealed else "hidden"
        return None if p.role == e.args["role"] else f"{head}: {p.label()} is {p.role} ({shown})"
    if e.kind == "won":  # the seat is among the winners (a `solo` role's dead seats are not)
        if game.result is None:
            return f"{head}: the game is not over"
        won = p.seat in game.winners_seats
        return None if won == e.args["won"] else f"{head}: {p.label()} {'won' if won else 'lost'}"
    if e.kind in _END_TABLES:
        attr, lacks, verb = _END_TABLES[e.kind]
        table = getattr(game, attr)
        if table is None:
            why = "the game is not over" if game.result is None else f"mode {game.mode.ident} {lacks}"
            return f"{head}: no {e.kind} ({why})"
        got = table[p.seat]
        return None if got == e.args[e.kind] else f"{head}: {p.label()} {verb} {got}"
    return f"{head}: unknown expectation kind {e.kind}"


def _check_named_value(e: Expect, game: Game, head: str) -> str | None:
    """A mark (of a seat or the game) or a remembered value (of a seat's person or the league)."""
    name, value = str(e.args["name"]), e.args["value"]
    if e.kind == "mark":
        who = "the game" if e.subject == "game" else game.players[int(e.subject)].label()  # type: ignore[arg-type]
        table = game.marks if e.subject == "game" else game.players[int(e.subject)].marks  # type: ignore[arg-type]
    else:
        who = "the league" if e.subject == "league" else game.players[int(e.subject)].label()  # type: ignore[arg-type]
        person = None if e.subject == "league" else game.players[int(e.subject)].person  # type: ignore[arg-type]
        table = game.carry.slot(person)
    has = name in table
    if e.negated:
        return f"{head}: {who} has {e.kind} {name} = {table[name]}" if has else None
    if not has:
        return f"{head}: {who} has no {e.kind} {name} ({e.kind}: {dict(sorted(table.items())) or 'none'})"
    if value is not None and str(table[name]) != str(value):
        return f"{head}: {who}'s {e.kind} {name} = {table[name]}"
    return None


def _check_asked(e: Expect, game: Game, asked: list[Asked], head: str) -> str | None:
    """Some request to the seat fits (its kind, a part of its prompt or one of its options), in the phase named
    (of the seat whose turn it was); `not asked`: none does."""
    what, phase, turn_of = e.args["what"], e.args["phase"], e.args["turn_of"]

    def fits(a: Asked) -> bool:
        if a.seat != e.subject or (phase is not None and a.phase != phase):
            return False
        if turn_of is not None and a.turn_of != turn_of:
            return False
        return what is None or _norm(what) in (_norm(a.kind), _norm(a.prompt)) or _norm(what) in _norm(a.prompt) \
            or match_option(what, a.options) is not None

    hits = [a for a in asked if fits(a)]
    shown = "; ".join(f"{a.kind} ({a.prompt}) in P{a.turn_of} {a.phase}" for a in
                      (hits if e.negated else [a for a in asked if a.seat == e.subject])[-4:])
    if e.negated:
        return f"{head}: it was asked: {shown}" if hits else None
    if not hits:
        return f"{head}: no such request; P{e.subject} was asked: {shown or 'nothing'}"
    return None


def _check_view(e: Expect, game: Game, head: str) -> str | None:
    """What a seat's view (the one its agent would be given) shows of another seat."""
    viewer = game.players[int(e.subject)]  # type: ignore[arg-type]
    other = int(e.args["of"])
    shown = game.choices.view(viewer)["players"][other]
    what = str(e.args["field"])
    if what == "pile":
        got = shown.get("piles", {}).get(str(e.args["pile"]))
        want = e.args.get("value")
        if "cards" in e.args:
            ok = isinstance(got, list) and _labels_match(got, e.args["cards"])
        elif want == "hidden":
            ok = isinstance(got, int)
        else:
            ok = (len(got) if isinstance(got, list) else got or 0) == int(str(want))
        return None if ok else f"{head}: P{e.subject}'s view shows pile {e.args['pile']} of P{other} as {got!r}"
    if what in ("equip", "judge"):
        got = shown.get("equips" if what == "equip" else "judge", [])
        specs = e.args["cards"]
        ok = _labels_match(got, specs)
        return None if ok else f"{head}: P{e.subject}'s view shows {what} of P{other} as {got}"
    want = str(e.args["value"])
    if what == "hp":
        hp, _, mx = want.partition("/")
        ok = shown["hp"] == int(hp) and (not mx or shown["max_hp"] == int(mx))
        got = f"{shown['hp']}/{shown['max_hp']}"
    else:
        got = str(shown[what])
        ok = _norm(got) == _norm(want)
    return None if ok else f"{head}: P{e.subject}'s view shows {what} of P{other} as {got}"


def _labels_match(labels: list[str], specs: list[CardSpec]) -> bool:
    """The labels a view shows (`杀♠7#31`, a general's name) are exactly the cards or generals the specs name."""
    free = list(labels)
    for spec in sorted(specs, key=lambda s: s.suit is None):  # (faced specs first, as in zone expectations)
        hit = next((x for x in free if _norm(str(spec)) in _variants(x)), None)
        if hit is None:
            return False
        free.remove(hit)
    return not free


# the per-seat tables a game fills when it ends: expectation kind -> (Game attribute, why it may lack one, verb)
_END_TABLES = {"score": ("scores", "keeps no score", "scored"), "place": ("places", "does not rank", "placed")}


def _event_fits(x: dict[str, Any], step: dict[str, Any]) -> bool:
    return x.get("e") == step["kind"] and all(k in x and value_matches(x[k], v) for k, v in step["fields"].items())


def _near(entries: list[dict[str, Any]]) -> str:
    if not entries:
        return "; there was no event of that kind"
    shown = "; ".join(format_entry(x) for x in entries[-3:])
    return f"; events of that kind: {shown}"


# ------------------------------------------------------------------ files and folders
def discover(paths: list[str], include_pending: bool = False) -> tuple[list[Path], list[Path], list[str]]:
    """Scenario files for the given files/folders: (to run, pending skipped, missing paths).

    Folders contribute their *.scenario files, sorted; files under a `pending/` folder are skipped unless
    asked for, or named directly."""
    run: list[Path] = []
    pending: list[Path] = []
    missing: list[str] = []
    for a in paths:
        p = Path(a)
        if p.is_dir():
            found, skipped = walk_files(p, ".scenario")
            for f, why in skipped:  # a FIFO would hang the run, a link outside the folder read elsewhere
                print(f"skipped {f}: {why}", file=sys.stderr)
            for f in found:
                rel = f.relative_to(p).parts
                if "pending" in rel[:-1] and not include_pending:
                    pending.append(f)
                else:
                    run.append(f)
        elif p.is_file():
            run.append(p)
        else:
            missing.append(a)
    return run, pending, missing


def run_file(path: str | Path, engine: str = "interpreted") -> Outcome:
    """Read, check and run one scenario file (ScenarioError when malformed)."""
    return run_scenario(read_scenario(path), engine)


def report(out: Outcome) -> str:
    """The failure text: what was expected, what happened, the tail of the event log."""
    sc = out.scenario
    lines = [f"  rule: {sc.rule}"] if sc.rule else []
    lines += [f"  ✗ {f}" for f in out.failures]
    if out.log_tail:
        lines.append("  last events:")
        lines += [f"    {x}" for x in out.log_tail]
    return "\n".join(lines)
