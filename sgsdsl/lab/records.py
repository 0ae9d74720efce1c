"""One game → one plain record (picklable, JSON-able): who sat where, who won, how long, which skills fired."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..engine.errors import EngineError
from ..engine.program import Program
from ..rule_errors import one_line
from .variant import Variant


@dataclass(frozen=True)
class GameRecord:
    seed: int
    generals: tuple[str, ...]  # per seat: general ident ("" when none)
    roles: tuple[str, ...]
    kingdoms: tuple[str, ...]
    winners: tuple[str, ...]  # winning roles (empty: a draw or an error)
    winner_seats: tuple[int, ...]
    reason: str  # win | round_cap | … | error
    rounds: int
    turns: int
    decisions: int
    skills: dict[str, int] = field(default_factory=dict)  # skill ident -> firings, sorted by ident
    error: str = ""
    scores: tuple[int, ...] = ()  # per seat, when the mode keeps score
    agents: tuple[str, ...] = ()  # per seat: the kind of agent that played it
    label: str = ""  # the winning side as the mode names it (a camp), when it names one
    # modes that rank (`place` lines): (camp, place) for every camp placed, best place of its seats, by camp
    standings: tuple[tuple[str, int], ...] = ()
    solo: tuple[str, ...] = ()  # the mode's solo roles: each of their seats is a side of its own

    @property
    def side(self) -> str:
        """The winning side as the mode names it (its camp, else its `win` line's roles joined by +); "" for a
        draw. A solo role dealt to several seats (双内's two renegades) is as many sides: `renegade #2` is the
        second seat of that role in seat order."""
        for role in self.solo:
            if role in self.winners:
                seats = [s for s, r in enumerate(self.roles) if r == role]
                if len(seats) > 1:
                    won = [i for i, s in enumerate(seats, 1) if s in self.winner_seats]
                    return f"{role} #{won[0]}" if won else role
        return self.label or "+".join(self.winners)

    def role_result(self, role: str) -> tuple[int, int]:
        """(wins, out of) for a role in this game: once per game (a side wins or loses together), but per seat for
        a solo role, each of whose seats is a side of its own."""
        if role in self.solo:
            seats = [s for s, r in enumerate(self.roles) if r == role]
            return sum(s in self.winner_seats for s in seats), len(seats)
        return int(role in self.winners), 1

    def won(self, seat: int) -> bool:
        return seat in self.winner_seats

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def play_record(program: Program, variant: Variant, seed: int) -> GameRecord:
    """Play the variant's game for this seed; an engine error becomes a record with reason "error"."""
    from ..engine.game import Game
    from ..sim import make_agents

    agents = make_agents(variant.agents, variant.players, seed)
    try:
        g = Game(program, variant.mode, variant.players, seed, agents, dict(variant.options),
                 round_cap=variant.round_cap, record=False, pinned=dict(variant.pinned),
                 pool=variant.pool, role_pins=variant.role_pins, barred=dict(variant.barred)).run()
    except EngineError as err:
        return GameRecord(seed, (), (), (), (), (), "error", 0, 0, 0, {}, one_line(err))
    winners, reason = g.result or ((), "unfinished")
    return GameRecord(
        seed=seed,
        generals=tuple(p.general.ident if p.general else "" for p in g.players),
        roles=tuple(str(p.role) for p in g.players),
        kingdoms=tuple(str(p.kingdom or "") for p in g.players),
        winners=tuple(winners),
        winner_seats=tuple(g.winners_seats),
        reason=reason,
        rounds=g.round if winners else g.round - 1,
        turns=g.turns,
        decisions=g.decisions,
        skills=dict(sorted(g.skill_uses.items())),
        scores=tuple(g.scores) if g.scores is not None else (),
        agents=tuple(variant.agents[i % len(variant.agents)] for i in range(variant.players)),
        label=g.mode.winner_label(tuple(winners)) if winners else "",
        standings=standings(g),
        solo=tuple(g.mode.solo),
    )


def standings(g: Any) -> tuple[tuple[str, int], ...]:
    """Each camp's place (the best of its seats'; unplaced camps left out), sorted by camp."""
    best: dict[str, int] = {}
    for p, place in zip(g.players, g.places or (), strict=False):
        if place > 0:
            camp = g.mode.camp_of(str(p.role))
            best[camp] = min(place, best.get(camp, place))
    return tuple(sorted(best.items()))
