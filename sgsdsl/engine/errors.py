"""Exceptions that carry control flow or a clear message out of the engine."""

from __future__ import annotations


class EngineError(Exception):
    """A rule or an agent did something the engine cannot carry out."""


class IllegalAnswer(EngineError):
    """An agent answered a request with something that was not offered."""

    def __init__(self, agent: str, request: str, answer: object, why: str):
        super().__init__(f"agent {agent} gave an illegal answer {answer!r} to {request}: {why}")


class RuleError(EngineError):
    """A rule failed at run time (e.g. read a field of nothing); names the .sgs location when known."""


class ScriptExhausted(EngineError):
    """A scripted agent was asked more than its script answers."""


class AgentMisbehaved(EngineError):
    """An agent raised the engine's own control flow (GameOver, StopEffect, BreakLoop) from `decide`: agents are
    trusted code, but such a signal from one would silently end the game or an effect, so it is refused by name."""

    def __init__(self, agent: str, seat: int, signal: BaseException):
        super().__init__(f"agent {agent} at seat {seat} raised {type(signal).__name__}, the engine's own control "
                         "flow, from decide(): an agent answers requests; it cannot end the game, an effect or a loop")


class GameOver(Exception):  # noqa: N818 - control flow, not an error
    def __init__(self, winners: tuple[str, ...], reason: str):
        super().__init__(reason)
        self.winners = winners
        self.reason = reason


class StopEffect(Exception):  # noqa: N818 - control flow
    """`stop` in a rule: leave the current effect."""


class BreakLoop(Exception):  # noqa: N818 - control flow
    """`break` in a rule: leave the innermost loop."""


class GameAborted(Exception):  # noqa: N818 - control flow
    """An agent stopped the game (a human quit); passes through rules untouched, like GameOver."""


class Horizon(GameAborted):
    """A game continued from a snapshot (a search rollout) reached the turn it was to stop before."""


# Control flow that passes through rule functions untouched (both engines).
FLOW = (GameOver, GameAborted, StopEffect, BreakLoop)


def locate(err: BaseException, where: str | None) -> BaseException:
    """The exception to raise for `err` escaping a rule function at .sgs line `where` (both engines).

    Engine errors keep their message (so compiled and interpreted games fail identically) and get a note
    naming the .sgs line once; any other Python error becomes a RuleError that starts with the .sgs line.
    """
    if isinstance(err, EngineError):
        if where and not getattr(err, "_sgs_where", None):
            err._sgs_where = where  # type: ignore[attr-defined]
            err.add_note(f"in rules at {where}")
        return err
    if isinstance(err, RecursionError):  # triggers firing triggers faster than the event depth limit catches
        new = RuleError(f"{where or '<rules>'}: rules nest too deeply (a trigger keeps setting off triggers, or a "
                        "value calls itself without end)")
    else:
        new = RuleError(f"{where or '<rules>'}: {type(err).__name__}: {err}")
    new.__cause__ = err
    new._sgs_where = where  # type: ignore[attr-defined]
    return new


def in_game(err: BaseException, seed: int, decision: int) -> None:
    """Name the game an engine error escaped: its seed and how many decisions were made (the innermost game's,
    set once). Called only as the error leaves a game, so the game loop pays nothing for it."""
    if getattr(err, "_sgs_game", None) is None:
        err._sgs_game = (seed, decision)  # type: ignore[attr-defined]


def where_of(err: BaseException) -> str | None:
    """The `file.sgs:line:col` of the rule an error escaped, when a rule raised it."""
    return getattr(err, "_sgs_where", None)


def game_of(err: BaseException) -> tuple[int, int] | None:
    """(seed, decision number) of the game an error escaped, when it escaped one."""
    return getattr(err, "_sgs_game", None)
