"""The checker's results and scopes: the symbol tables of a program and the names visible in a body."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ast
from .diagnostics import Diagnostic


@dataclass
class Symbols:
    """Every definition of the program, by display name and by id."""

    cards: dict[str, ast.CardDef] = field(default_factory=dict)  # display name -> def
    card_ids: dict[str, ast.CardDef] = field(default_factory=dict)
    generals: dict[str, ast.GeneralDef] = field(default_factory=dict)
    general_ids: dict[str, ast.GeneralDef] = field(default_factory=dict)
    skills: dict[str, ast.SkillDef] = field(default_factory=dict)  # top-level skills by id and name
    # every skill (top-level, a general's, a card's) by id and name, first definition first: a skill named in
    # an expression (gain_skill(owner, 观星))
    any_skills: dict[str, ast.SkillDef] = field(default_factory=dict)
    modes: dict[str, ast.ModeDef] = field(default_factory=dict)
    values: dict[str, ast.ValueDef] = field(default_factory=dict)
    rules: dict[str, ast.RuleDef] = field(default_factory=dict)  # `rule` definitions by id and name
    more_copies: dict[str, int] = field(default_factory=dict)  # card id -> faces added by top-level `copies`
    procedures: dict[str, ast.ProcedureDef] = field(default_factory=dict)  # `procedure` definitions by name
    kingdoms: set[str] = field(default_factory=set)
    roles: set[str] = field(default_factory=set)


@dataclass
class CheckedProgram:
    modules: list[ast.Module]
    symbols: Symbols
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


class _Scope:
    """Names visible in a rule body. `pure` scopes are conditions and values: no actions allowed."""

    def __init__(self, names: dict[str, str], parent: _Scope | None = None, kind: str = "",
                 pure: bool | None = None):
        self.names = dict(names)
        self.parent = parent
        self.kind: str = kind or (parent.kind if parent else "")
        self.timing: str | None = parent.timing if parent else None
        self.options: dict[str, str] = parent.options if parent else {}
        self.in_loop: bool = parent.in_loop if parent else False
        self.pure: bool = pure if pure is not None else (parent.pure if parent else False)

    def lookup(self, name: str) -> str | None:
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> list[str]:
        out: list[str] = []
        s: _Scope | None = self
        while s is not None:
            out.extend(s.names)
            s = s.parent
        return out

    def child(self, pure: bool | None = None) -> _Scope:
        return _Scope({}, self, pure=pure)
