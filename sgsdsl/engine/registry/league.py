"""Vocabulary of games played in a league: who sits where, and memory from one game to the next."""

from __future__ import annotations

from ..carry import LEAGUE_KEY, REMEMBERABLE
from ..draws import shuffle
from ..errors import RuleError
from .arguments import _need
from .core import primitive


def _person(player):
    return None if player is None else player.person


@primitive("shuffle_seats", "action", "",
           doc="seats by lot: the people at the table change seats at random (before roles are dealt); a "
               "league follows each person, whatever seat they draw", contexts=("setup",))
def _shuffle_seats(f):
    g = f.game
    persons = [p.person for p in g.players]
    shuffle(g.rng, persons)
    for p, person in zip(g.players, persons, strict=True):
        p.person = person
    g.emit_log("seats", persons=persons)


@primitive("remember", "action", "player:player, name:str, value:any=true",
           doc="keep a value for the next games of a league, for this player's person (none: for the whole "
               "league); plain values only (true/false, a number, a text or none). A single game forgets it")
def _remember(f, player, name, value=True):
    if not isinstance(value, REMEMBERABLE):
        raise RuleError(f"remember({name!r}) keeps plain values (true/false, numbers, texts, none), not {value!r}")
    f.game.carry.slot(_person(player))[name] = value


@primitive("forget", "action", "player:player, name:str", doc="drop a value kept with `remember`")
def _forget(f, player, name):
    f.game.carry.memory.get(LEAGUE_KEY if player is None else player.person, {}).pop(name, None)


@primitive("recall", "function", "player:player, name:str", "any",
           "the value kept with `remember` for this player's person (none: the league's) in this or an earlier "
           "game of the league; none when nothing was kept")
def _recall(f, player, name):
    return f.game.carry.memory.get(LEAGUE_KEY if player is None else _need(player, "recall's player").person,
                                   {}).get(name)
