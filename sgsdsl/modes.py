"""The one validator of a game's set-up: mode, player count and mode options, for every command.

`simulate`, `play`, `replay` (log headers) and `test` (scenario files) all ask here, so a mistake reads the
same everywhere and no command lets a bad value through. An option's type is the type of its declared
default (`option two_renegades = false` is a boolean): a boolean takes only true/false (yes/no, on/off),
an integer only ASCII digits in range, so `two_renegades=flase` is an error and never counts as true.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .engine.program import ModeRule, Program
from .lang.diagnostics import did_you_mean

OPTION_INT_RANGE = (-1_000_000, 1_000_000)
_TRUE = ("true", "yes", "on")
_FALSE = ("false", "no", "off")
_INT = re.compile(r"-?[0-9]{1,7}")


class SetupError(ValueError):
    """A mode, player count or option the rules do not allow; the message is for the user."""


def check_mode(program: Program, mode: str, players: int | None = None) -> ModeRule:
    """The mode called MODE, checked to exist and to allow PLAYERS players (when given)."""
    if mode not in program.modes:
        known = ", ".join(sorted(program.modes)) or "none"
        hint = did_you_mean(mode, program.modes)
        raise SetupError(f"unknown mode {mode!r}; the rules define: {known}"
                         + (f" (did you mean {hint!r}?)" if hint else ""))
    rule = program.modes[mode]
    lo, hi = rule.players
    if players is not None and not lo <= players <= hi:
        raise SetupError(f"mode {mode} is for {lo}-{hi} players, not {players}")
    return rule


def option_type(default: Any) -> str:
    """The declared type of an option, from its default: boolean, integer or word."""
    if isinstance(default, bool):
        return "boolean"
    if isinstance(default, int):
        return "integer"
    return "word"


def convert_option(rule: ModeRule, name: str, value: Any) -> Any:
    """VALUE for option NAME of the mode, as its declared type. Text (from a command line or a scenario) is
    parsed strictly; a value that is already typed (a JSON log header) must have exactly that type."""
    if name not in rule.options:
        known = ", ".join(sorted(rule.options)) or "none"
        hint = did_you_mean(name, rule.options)
        raise SetupError(f"mode {rule.ident} has no option {name!r}; options: {known}"
                         + (f" (did you mean {hint!r}?)" if hint else ""))
    want = option_type(rule.options[name])
    if isinstance(value, str):
        text = value.strip()
        if want == "boolean":
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
        elif want == "integer":
            if _INT.fullmatch(text) and OPTION_INT_RANGE[0] <= int(text) <= OPTION_INT_RANGE[1]:
                return int(text)
        elif text:
            return text
    elif want == "boolean" and type(value) is bool:
        return value
    elif want == "integer" and type(value) is int and OPTION_INT_RANGE[0] <= value <= OPTION_INT_RANGE[1]:
        return value
    raise SetupError(f"option {name} of mode {rule.ident} is {_expects(want)}, not {_show(value)}")


def _expects(want: str) -> str:
    if want == "boolean":
        return "a boolean (true or false)"
    if want == "integer":
        return f"an integer from {OPTION_INT_RANGE[0]} to {OPTION_INT_RANGE[1]}"
    return "a word"


def _show(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return repr(text[:40] + ("…" if len(text) > 40 else ""))


def resolve_options(rule: ModeRule, given: Mapping[str, Any]) -> dict[str, Any]:
    """Every given option converted to its declared type (names sorted, so the first error is stable)."""
    return {name: convert_option(rule, name, given[name]) for name in sorted(given)}


def parse_assignments(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """`name=value` words from a command line, as text (converted later against the mode's options)."""
    out: dict[str, str] = {}
    for item in items:
        name, eq, raw = item.partition("=")
        if not eq or not name.strip():
            raise SetupError(f"--option takes name=value, not {item!r}")
        out[name.strip()] = raw
    return out


def check_setup(program: Program, mode: str, players: int | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """Mode, players and options together: the options converted, or the first problem as a SetupError."""
    return resolve_options(check_mode(program, mode, players), given)
