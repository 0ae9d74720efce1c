"""A scoring league (计分赛): the same people play a run of seeded games of a mode that keeps score.

Person k leads (gets the mode's leader role) in game k, round the table again after N games; the other roles
are dealt at random. A person's score in a game is the score of the seat they sat at (seats by lot may move
them); the league adds them up. Memory kept by the rules with `remember` is carried from game to game
(engine/carry.py). The engine of `sgsdsl league`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine.carry import Carry
from .engine.errors import EngineError
from .engine.game import Game
from .engine.program import Program
from .rule_errors import one_line
from .sim import make_agents


@dataclass
class LeagueGame:
    """One game of the league, seen per person (index = person number)."""

    number: int  # 1-based
    seed: int
    leader: int  # the person who led
    winners: tuple[str, ...]
    reason: str
    seats: list[int]  # per person: the seat they sat at
    roles: list[str]  # per person
    alive: list[bool]  # per person, at the end
    scores: list[int]  # per person
    totals: list[int]  # per person: running total after this game
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.number, "seed": self.seed, "leader": self.leader, "winners": list(self.winners),
                "reason": self.reason, "seats": self.seats, "roles": self.roles, "alive": self.alive,
                "scores": self.scores, "totals": self.totals, **({"error": self.error} if self.error else {})}


@dataclass
class League:
    mode: str
    players: int
    seed: int
    games: list[LeagueGame] = field(default_factory=list)
    memory: dict[str, dict[str, Any]] = field(default_factory=dict)  # what the rules remembered, at the end

    @property
    def totals(self) -> list[int]:
        return list(self.games[-1].totals) if self.games else [0] * self.players

    @property
    def errors(self) -> list[str]:
        return [f"game {g.number} (seed {g.seed}): {g.error}" for g in self.games if g.error]

    def standings(self) -> list[int]:
        """Persons from the highest total down (ties: the lower person number first)."""
        totals = self.totals
        return sorted(range(self.players), key=lambda k: (-totals[k], k))

    def as_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "players": self.players, "seed": self.seed,
                "games": [g.as_dict() for g in self.games], "totals": self.totals, "standings": self.standings(),
                "memory": self.memory, "errors": len(self.errors)}


def run_league(program: Program, mode: str, players: int, games: int, seed: int,
               options: dict[str, Any] | None = None, round_cap: int = 60,
               agents: tuple[str, ...] = ("random",), logs: list[list[dict[str, Any]]] | None = None) -> League:
    """Play the league. Game i (0-based) uses seed+i and is led by person i mod N; deterministic for a seed.
    When `logs` is given, each game's event log is appended to it."""
    if not program.modes[mode].scores:
        raise EngineError(f"mode {mode} keeps no score (it has no `score` lines), so it cannot be played as a league")
    league = League(mode, players, seed)
    carry = Carry()
    totals = [0] * players
    for i in range(games):
        carry.leader_person = i % players
        game_seed = seed + i
        game = Game(program, mode, players, game_seed, make_agents(agents, players, game_seed), options,
                    round_cap=round_cap, record=logs is not None, carry=carry)
        error = None
        try:
            game.run()
        except EngineError as err:
            error = one_line(err)
        if logs is not None:
            logs.append(game.log)
        league.games.append(_game_record(game, i, game_seed, totals, error))
    league.memory = carry.snapshot()
    return league


def _game_record(game: Game, i: int, seed: int, totals: list[int], error: str | None) -> LeagueGame:
    n = len(game.players)
    by_person = sorted(game.players, key=lambda p: p.person)
    scores = [0] * n
    if error is None and game.scores is not None:
        for p, s in zip(game.players, game.scores, strict=True):
            scores[p.person] = s
    for k in range(n):
        totals[k] += scores[k]
    winners, reason = game.result or ((), "error" if error else "unfinished")
    return LeagueGame(i + 1, seed, i % n, winners, reason, [p.seat for p in by_person],
                      [str(p.role) for p in by_person], [p.alive for p in by_person], scores, list(totals), error)
