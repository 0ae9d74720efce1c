"""Typed AST of the .sgs language. Every node keeps the source span it came from.

The checker annotates nodes in place (`Name.ref`, `Call.ref`), so the checked program that the
interpreter walks and the compiler lowers is this same tree: one structure, no drift between stages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Span


@dataclass
class Node:
    span: Span


@dataclass
class Ident(Node):
    text: str


# ---------------------------------------------------------------- expressions
@dataclass
class Expr(Node):
    pass


@dataclass
class Lit(Expr):
    """A literal: kind is one of int, str, bool, none, face (suit+rank), suit."""

    kind: str
    value: Any


@dataclass
class Name(Expr):
    ident: str
    # Filled by the checker: ("local", name) | ("const", value) | ("card", id) | ("general", id) ...
    ref: tuple[str, Any] | None = None


@dataclass
class Attr(Expr):
    obj: Expr
    name: Ident


@dataclass
class Call(Expr):
    func: Ident
    args: list[Expr]
    kwargs: list[tuple[Ident, Expr]]
    ref: str | None = None  # "function" | "action" | "value" (a declared quantity) | "procedure"


@dataclass
class BinOp(Expr):
    """Binary operator: + - * == != < <= > >= and or in."""

    op: str
    left: Expr
    right: Expr


@dataclass
class Unary(Expr):
    op: str  # "not" | "-"
    operand: Expr


@dataclass
class IsFamily(Expr):
    """`card is 杀`: the card (real or converted) belongs to the named card family."""

    operand: Expr
    family: Ident


@dataclass
class RangeLit(Expr):
    low: Expr
    high: Expr


@dataclass
class ListLit(Expr):
    items: list[Expr]


@dataclass
class ListComp(Expr):
    """`[ELEM for VAR in ITEMS if COND]`: a list made from another, filtered and mapped. VAR is bound only inside."""

    elem: Expr
    var: Ident
    iterable: Expr
    cond: Expr | None


@dataclass
class CondExpr(Expr):
    test: Expr
    then: Expr
    orelse: Expr


# ---------------------------------------------------------------- statements
@dataclass
class Stmt(Node):
    pass


@dataclass
class Block(Node):
    stmts: list[Stmt]


@dataclass
class Let(Stmt):
    name: Ident
    value: Expr


@dataclass
class If(Stmt):
    test: Expr
    body: Block
    orelse: Block | None


@dataclass
class For(Stmt):
    var: Ident
    iterable: Expr
    body: Block


@dataclass
class While(Stmt):
    test: Expr
    body: Block


@dataclass
class Repeat(Stmt):
    count: Expr
    body: Block


@dataclass
class Assign(Stmt):
    target: Attr
    op: str  # "=" | "+=" | "-="
    value: Expr


@dataclass
class CallStmt(Stmt):
    call: Call


@dataclass
class Stop(Stmt):
    pass


@dataclass
class Break(Stmt):
    pass


# ---------------------------------------------------------------- members
@dataclass
class Limit(Node):
    count: Expr
    scope: Ident  # phase | turn | round | game


@dataclass
class TargetSpec(Node):
    kind: str  # self | one | all | range | none
    low: int = 1
    high: int = 1
    other: bool = False


@dataclass
class UseClause(Node):
    context: Ident
    limit: Limit | None
    target: TargetSpec | None
    where: Expr | None
    body: Block | None


@dataclass
class Trigger(Node):
    timing: Ident
    where: Expr | None
    optional: bool
    body: Block
    limit: Limit | None = None  # `on T limit N per SCOPE …` (skills only)


@dataclass
class Active(Node):
    limit: Limit | None
    where: Expr | None
    body: Block
    granted: bool = False  # `grant`: offered to the other characters for whom `where` holds (bound as `user`)


@dataclass
class ViewAs(Node):
    card: Ident
    count: int
    source: Ident  # card | hand | equip
    where: Expr | None


@dataclass
class Provide(Node):
    card: Ident
    where: Expr | None
    body: Block


@dataclass
class Modifier(Node):
    quantity: Ident
    params: list[Ident]
    op: str  # by | to
    value: Expr
    where: Expr | None


@dataclass
class Face(Node):
    suit: str  # ♠ ♥ ♣ ♦
    rank: int  # 1..13


# ---------------------------------------------------------------- definitions
@dataclass
class Definition(Node):
    name: Ident  # display name (Chinese)
    ident: Ident  # ASCII id


@dataclass
class SkillDef(Definition):
    flags: list[Ident] = field(default_factory=list)
    triggers: list[Trigger] = field(default_factory=list)
    actives: list[Active] = field(default_factory=list)
    view_as: list[ViewAs] = field(default_factory=list)
    provides: list[Provide] = field(default_factory=list)
    modifiers: list[Modifier] = field(default_factory=list)
    tags: list[Ident] = field(default_factory=list)  # AI hints, as on cards
    owner_kind: str = "top"  # top | general | card (set by the parser)
    # the word its choices' use agrees on, for a skill whose `tags` say nothing of whom it aims at (lang/intent.py;
    # set once, when the skill is first built: its choices then carry their words as written)
    inferred_words: tuple[str, ...] | None = None

    def has_flag(self, flag: str) -> bool:
        return any(f.text == flag for f in self.flags)


@dataclass
class CardDef(Definition):
    category: Ident = None  # type: ignore[assignment]
    copies: list[Face] = field(default_factory=list)
    attack_range: int | None = None
    nature: Ident | None = None
    family: Ident | None = None
    tags: list[Ident] = field(default_factory=list)
    uses: list[UseClause] = field(default_factory=list)
    effect: Block | None = None
    hooks: list[tuple[Ident, Block]] = field(default_factory=list)  # on nullified / prepare / finish
    skills: list[SkillDef] = field(default_factory=list)


@dataclass
class GeneralDef(Definition):
    kingdom: Ident = None  # type: ignore[assignment]
    gender: Ident = None  # type: ignore[assignment]
    hp: int = 4
    # every kingdom of the general, `kingdom` first (a dual-kingdom general `: 蜀/群` has two)
    kingdoms: list[Ident] = field(default_factory=list)
    skills: list[SkillDef] = field(default_factory=list)
    has: list[Ident] = field(default_factory=list)


@dataclass
class Param(Node):
    name: Ident
    type: Ident


@dataclass
class ValueDef(Node):
    name: Ident
    params: list[Param]
    expr: Expr
    lower: Expr | None = None
    upper: Expr | None = None


@dataclass
class ProcedureDef(Node):
    """`procedure NAME(p: type, …) { … }`: a named action block; `NAME(args)` runs it with only its parameters
    bound (`stop` leaves the procedure)."""

    name: Ident
    params: list[Param]
    body: Block


@dataclass
class OptionDecl(Node):
    name: Ident
    default: Expr


@dataclass
class RolesDecl(Node):
    players: int
    condition: Expr | None
    roles: list[Ident]


@dataclass
class WinDecl(Node):
    roles: list[Ident]
    condition: Expr


@dataclass
class ReplaceDecl(Node):
    """`replace 桃 with 粽 [if COND]`: in this mode's deck every copy of `card` is a copy of `by`;
    `replace 闪电 with none`: every copy is taken out of the deck (`by` is None)."""

    card: Ident
    by: Ident | None
    condition: Expr | None = None


@dataclass
class CampDecl(Node):
    """`camp NAME ROLE…`: these roles form one camp (team-mates; one side for the agents)."""

    name: Ident
    roles: list[Ident]


@dataclass
class SoloDecl(Node):
    """`solo ROLE…`: each seat of these roles is a side of its own (rivals, never allies; a win for the role
    goes to its seats still alive)."""

    roles: list[Ident]


@dataclass
class ScoreDecl(Node):
    """`score ROLE… = EXPR [when COND]` (or `+=` / `-=`): one line of the mode's scoring table; `place ROLE… = EXPR
    [when COND]` (op `place`): one line of its ranking."""

    roles: list[Ident]
    op: str  # = | += | -= | place
    value: Expr
    condition: Expr | None = None


@dataclass
class ModeDef(Definition):
    # `mode X x extends BASE { … }`: the base mode's id; its members come first, these are added (docs)
    base: Ident | None = None
    players: tuple[int, int] | None = None
    players_span: Span | None = None
    options: list[OptionDecl] = field(default_factory=list)
    roles: list[RolesDecl] = field(default_factory=list)
    leader: Ident | None = None
    setup: Block | None = None
    triggers: list[Trigger] = field(default_factory=list)
    wins: list[WinDecl] = field(default_factory=list)
    turn_order: Block | None = None
    replacements: list[ReplaceDecl] = field(default_factory=list)
    scores: list[ScoreDecl] = field(default_factory=list)
    camps: list[CampDecl] = field(default_factory=list)
    solos: list[SoloDecl] = field(default_factory=list)
    # the direction simultaneous triggers resolve in (`trigger_order clockwise`); None: the default
    trigger_order: Ident | None = None
    # members that may appear once but appeared again: (keyword, span of the repeat); the first one counts
    repeated: list[tuple[str, Span]] = field(default_factory=list)


@dataclass
class MoreCopies(Node):
    """`copies 闪 ♥8 ♥9` at the top level: more physical copies of a card defined elsewhere."""

    card: Ident
    faces: list[Face] = field(default_factory=list)


@dataclass
class KingdomDecl(Node):
    """`kingdom 神 …` at the top level: kingdoms a rule may name although no general of the program has them."""

    names: list[Ident] = field(default_factory=list)


@dataclass
class RuleDef(Definition):
    """`rule NAME id { on … }`: triggers that belong to the game itself (no owner), active in every mode."""

    triggers: list[Trigger] = field(default_factory=list)


@dataclass
class Import(Node):
    path: str


@dataclass
class Module(Node):
    """One parsed .sgs file."""

    path: str
    imports: list[Import] = field(default_factory=list)
    cards: list[CardDef] = field(default_factory=list)
    generals: list[GeneralDef] = field(default_factory=list)
    skills: list[SkillDef] = field(default_factory=list)
    modes: list[ModeDef] = field(default_factory=list)
    values: list[ValueDef] = field(default_factory=list)
    rules: list[RuleDef] = field(default_factory=list)
    more_copies: list[MoreCopies] = field(default_factory=list)
    procedures: list[ProcedureDef] = field(default_factory=list)
    kingdoms: list[KingdomDecl] = field(default_factory=list)
