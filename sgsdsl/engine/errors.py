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
