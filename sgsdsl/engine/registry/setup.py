"""Set-up actions, turn order and the end of the game (modes)."""

from __future__ import annotations

from typing import Any

from ..draws import shuffle, uniform_below
from ..errors import BreakLoop, RuleError, StopEffect  # noqa: F401 - re-exported for generated code
from ..program import Frame, GeneralRule, drop_same
from .arguments import _need, count_arg
from .core import primitive


# ---------------------------------------------------------------- set-up actions
def role_table(g: Any) -> list[str]:
    """The roles the mode deals at this game's player count (the last `roles` line for it whose condition holds), in
    the line's order: what deal_roles shuffles, and what the balance lab rotates a general over."""
    n = len(g.players)
    table = None
    for count, cond, roles in g.mode.roles:
        if count == n and (cond is None or cond(Frame(g, {}))):
            table = roles
    if table is None:
        raise RuleError(f"mode {g.mode.name} has no roles for {n} players")
    return list(table)


@primitive("deal_roles", "action", "seated:bool=false, public:bool=false",
           doc="deal the mode's roles for this player count; the leader is revealed. seated: the roles line is the "
               "seating layout (seat 0 gets the first role, and so on) instead of a shuffle; public: every role is "
               "revealed to everyone (open camps)")
def _deal_roles(f, seated=False, public=False):
    g = f.game
    roles = role_table(g)
    if not seated:
        shuffle(g.rng, roles)
    lead = g.carry.leader_person  # a league decides who leads (the leader's seat rotates)
    if lead is not None and g.mode.leader in roles:
        seat = next((p.seat for p in g.players if p.person == lead), None)
        if seat is not None:
            at = roles.index(g.mode.leader)
            roles[at], roles[seat] = roles[seat], roles[at]
    for p, r in zip(g.players, roles, strict=True):
        p.role = r
        p.role_revealed = bool(public)
        if r == g.mode.leader:
            p.role_revealed = True
            g.start_seat = p.seat
    shown = {"roles": [p.role for p in g.players]} if public else {}
    g.emit_log("roles", leader=g.mode.leader, start=g.start_seat, seated=bool(seated), public=bool(public), **shown)


@primitive("take_generals", "action", "generals:any", "list", doc="take named generals out of the pool")
def _take_generals(f, generals):
    g = f.game
    out = []
    for gen in _generals(generals, "take_generals"):
        if drop_same(g.general_pool, gen):
            out.append(gen)
    return out


@primitive("random_generals", "action", "n:int, kingdom:kingdom=none", "list",
           doc="take n random generals from the pool; with kingdom, only generals of that kingdom (a dual-kingdom "
               "general counts for each of its kingdoms): a kingdom-limited offer. Fewer when the pool runs short")
def _random_generals(f, n, kingdom=None):
    g = f.game
    count_arg(n, "random_generals' count")
    if kingdom is None:
        out = g.general_pool[:n]
    else:
        out = [x for x in g.general_pool if kingdom in (x.kingdoms or [x.kingdom])][:n]
    for x in out:
        g.general_pool.remove(x)
    return out


@primitive("random_pick", "action", "items:list", "item",
           doc="one item of the list drawn at random from the game's seeded generator (none for an empty list): "
               "a random character, a random tie-break")
def _random_pick(f, items):
    items = list(items or [])
    return items[uniform_below(f.game.rng.getrandbits, len(items))] if items else None


@primitive("return_generals", "action", "generals:any", doc="put generals back into the pool (off any pile)")
def _return_generals(f, generals):
    for x in _generals(generals, "return_generals"):
        if any(x is y for y in f.game.general_pool):
            raise RuleError(f"return_generals: {x.name} is already in the pool")
        if x is not None:
            f.game.piles.take_general_out(x)  # from a pile, when it lay on one
            f.game.general_pool.append(x)


@primitive("set_general", "action", "player:player, general:general", doc="the player becomes this general")
def _set_general(f, player, general):
    f.game.set_general(_need(player, "set_general's player"), general)


@primitive("set_max_hp", "action", "player:player, n:int, heal:bool=true", doc="set max HP (and HP, when heal)")
def _set_max_hp(f, player, n, heal=True):
    player = _need(player, "set_max_hp's player")
    if count_arg(n, "set_max_hp's max HP") == 0:  # max HP 0 kills, as losing the last max HP does (§0.3)
        if player.alive:
            f.game.health.change_max_hp(player, -player.max_hp)
        return
    player.max_hp = n
    if heal:
        player.hp = n
    player.hp = min(player.hp, player.max_hp)


def _generals(items: Any, what: str) -> list[Any]:
    """The generals of a list argument (none items skipped); anything else is a rule error."""
    out = []
    for x in items if isinstance(items, (list, tuple)) else [items]:
        if x is not None and not isinstance(x, GeneralRule):
            raise RuleError(f"{what}: {str(x)[:40]!r} is not a general")
        if x is not None:
            out.append(x)
    return out


# ---------------------------------------------------------------- turn order and the end of the game
@primitive("take_turn", "action", "player:player", "bool",
           "play one full turn (all phases) for the player; false (nothing happens) when the player is dead. Only "
           "in a mode's turn_order, which runs once per round instead of the seat-order round; refused inside a turn",
           contexts=("turn_order",))
def _take_turn(f, player):
    g = f.game
    player = _need(player, "take_turn's player")
    if g.in_turn:
        raise RuleError(f"take_turn({player.label()}) was called during {g.current.label()}'s turn: turns are "
                        "played one after another from a mode's turn_order, never inside a turn")
    if not player.alive:
        return False
    g.turnflow.take_turn(player)
    return True


@primitive("winners", "function", "", "players",
           "the seats (living or dead) whose role won, in seat order (of a `solo` role only the living ones); "
           "empty after a draw", contexts=("score",))
def _winners(f):
    g = f.game
    return [p for p in g.players if p.seat in g.winners_seats]


@primitive("is_winner", "function", "player:player", "bool",
           "the player won the game: its role won (and, for a `solo` role, it is still alive)", contexts=("score",))
def _is_winner(f, player):
    return player is not None and player.seat in f.game.winners_seats


@primitive("kills", "function", "player:player, role:role=none", "int",
           "how many characters the player has killed so far (only those of the role, when given)")
def _kills(f, player, role=None):
    return sum(1 for victim, killer, _ in f.game.deaths
               if killer is player and player is not None and (role is None or victim.role == role))


@primitive("alive_at_death", "function", "player:player", "int",
           "how many characters were alive when the player died, the player included (2: a final duel); 0 while "
           "the player lives")
def _alive_at_death(f, player):
    for victim, _, alive in f.game.deaths:
        if victim is player:
            return alive
    return 0
