"""Hypothesis strategies that write small, well-typed designer programs (`.sgs` text) over the standard edition.

Programs are built from typed templates, not from the grammar: every expression is made for a type it is known
to have (`int`, `bool`, `player`, `card`, `suit`, `color`, and lists of players, cards, numbers and truths) from
the names in scope at that point, with their types, so that nearly every program passes `check`.

What a program holds: `value` functions (some with `min`/`max` bounds, some modified by a skill, parameters named
like the names the engine binds elsewhere) and a `procedure`, each of which may call those defined before it; a
card of its own (a trick with a use clause, a limit, a target kind, a condition on `it`, an effect and a hook; or a
delayed trick whose judgement hopes for something of the card alone); a `rule`; one or two generals whose skills
have triggers (at a dozen timings, `judging` among them with a `retrial`, with `where`, `limit` and `optional`;
event fields read, and written where the timing allows), actions, grants, a `provide`, a conversion and modifiers.
Their bodies mix `let` (also binding a name again), `if`/`else if`/`else`, `for`, `repeat`, a bounded `while`,
`break` and `stop`, blocks nested deeper than the compiler keeps in one function, and expressions: comprehensions
nested in each other (the inner list made of the outer variable, filters, a variable shadowing a name around it,
`owner` included), `count`, `sum`, `min`, `max`, `any`, `all`, `first`, `div`, arithmetic, comparisons, `in`,
`is`, `if … then … else`, card and player fields, marks, skill and general names as values, calls of the values,
chains deeper than the compiler keeps in one expression, and actions inside expressions and comprehensions (draw,
damage, recover, confirm, choose, judge with a `hoping:` condition that may hold comprehensions of its own, choices
among the top cards of the draw pile). Two modes deal the generated generals: a small one (2 to 4 seats, with an
option) and one extending the standard identity mode.

Left out on purpose:
- a `let` or a `for` that binds a name of an enclosing block again with a value of another type: both back ends
  keep such a binding past its block (the standard 决斗 walks its sides so), and the checker refuses it
  (SGS-E308); every `let` the generator writes is bound in its scope for the statements after it, so it never
  writes one;
- what would end most games at once with a rule error (a negative count, a card not held, a dead character);
- most of the vocabulary that `scripts/fuzz_runtime.py` already calls at random (piles, 拼点, skills gained and
  lost, turns over and extra turns…), the statements of a mode (`setup` aside, fixed here; `turn_order`, `win`,
  `score`), conversions of no card or into a face-down card, and `use` clauses other than `play`.

`tests/test_crosscheck_programs.py` plays the programs on the compiled and the interpreted back end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import strategies as st

ELEMENT = {"players": "player", "cards": "card", "ints": "int", "bools": "bool"}
SUITS = ("♠", "♥", "♣", "♦")
# local names the generator binds (short, and no word of the vocabulary or of the standard edition)
NAMES = ("x", "y", "n", "k", "p", "q", "c", "d", "ps", "cs", "ns", "bs", "a", "b", "z", "w")
PLAYER_INTS = ("hp", "max_hp", "seat")
PLAYER_BOOLS = ("alive", "chained", "face_down")
MARK = "gm"  # the mark the programs keep a number in
CARD = "生成牌"  # the program's own card
# timing -> (event fields that are never none, with their types; the field a `where` compares with the owner;
# the field a body may write)
TIMINGS: dict[str, tuple[dict[str, str], str, str | None]] = {
    "phase_start": ({"event.player": "player"}, "event.player", None),
    "turn_start": ({"event.player": "player"}, "event.player", None),
    "turn_end": ({"event.player": "player"}, "event.player", None),
    "damaged": ({"event.target": "player", "event.amount": "int"}, "event.target", None),
    "taking_damage": ({"event.target": "player", "event.amount": "int"}, "event.target", "event.amount"),
    "drawing": ({"event.player": "player", "event.amount": "int"}, "event.player", "event.amount"),
    "card_used": ({"event.user": "player", "event.card": "card", "event.targets": "players"}, "event.user", None),
    "gained_cards": ({"event.player": "player", "event.cards": "cards"}, "event.player", None),
    "lost_cards": ({"event.player": "player", "event.cards": "cards"}, "event.player", None),
    "recovered": ({"event.target": "player", "event.amount": "int"}, "event.target", None),
    "judged": ({"event.player": "player", "event.card": "card"}, "event.player", None),
    # (every question asked while a judgement is pending is told what its `hoping:` condition says of each card)
    "judging": ({"event.player": "player", "event.card": "card"}, "event.player", None),
}
PHASES = ("prepare", "judge", "draw", "play", "discard", "finish")
SKILLS = ("生技甲一", "英姿", "奸雄")  # skills a program may name: its first general's first, and two standard ones


@dataclass(frozen=True)
class Scope:
    """What an expression may read: atoms (names and event fields) with their types, the last bound last;
    whether actions are allowed (a rule body, not a condition or a value); whether `break` has a loop to leave."""

    atoms: tuple[tuple[str, str], ...]
    actions: bool
    in_loop: bool = False

    def of(self, t: str) -> list[str]:
        return [a for a, ty in self.atoms if ty == t]

    def names(self) -> set[str]:
        return {a for a, _ in self.atoms if "." not in a}

    def type_of(self, name: str) -> str | None:
        return dict(self.atoms).get(name)

    def bind(self, name: str, t: str) -> Scope:
        """NAME bound (again) to a value of type T: an older atom of that name is shadowed."""
        return Scope(tuple((a, ty) for a, ty in self.atoms if a != name) + ((name, t),), self.actions, self.in_loop)

    def pure(self) -> Scope:
        return Scope(self.atoms, False, False)

    def looping(self) -> Scope:
        return Scope(self.atoms, self.actions, True)


@dataclass
class Defined:
    name: str
    params: list[tuple[str, str]]
    returns: str | None  # None: a procedure


@dataclass
class Writer:
    """Draws one program. Every choice goes through Hypothesis' `draw`, the simplest alternative first, so a
    failing program shrinks to a small one."""

    draw: st.DrawFn
    values: list[Defined] = field(default_factory=list)
    procedures: list[Defined] = field(default_factory=list)
    budget: int = 0  # statements still allowed in the current rule body
    me: str = "owner"  # who acts in the current rule body (`owner` of a skill, `user` of a card or a grant)
    timing: str = ""  # the timing of the trigger being written
    has_card: bool = False

    # ------------------------------------------------------------ choices
    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def num(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def chance(self) -> bool:
        return self.draw(st.booleans())

    def which(self, weights: dict[str, int]) -> str:
        """A key drawn with these weights (the first key is where shrinking goes)."""
        k = self.num(0, sum(weights.values()) - 1)
        for key, w in weights.items():
            if k < w:
                return key
            k -= w
        raise AssertionError(weights)

    def fresh(self, scope: Scope) -> str:
        """A name for a new binding: usually one not in scope, sometimes one that is (shadowing)."""
        free = [n for n in NAMES if n not in scope.names()]
        if not free or self.num(0, 5) == 0:
            return self.pick(NAMES)
        return self.pick(free)

    def binding(self, scope: Scope, t: str) -> str:
        """A name for a `let` or a `for` variable of type T: one not in scope, or one of type T already."""
        name = self.fresh(scope)
        if scope.type_of(name) not in (None, t):
            free = [n for n in NAMES if n not in scope.names()]
            name = self.pick(free) if free else f"{name}_{t}"
        return name

    # ------------------------------------------------------------ expressions
    def can(self, t: str, scope: Scope) -> bool:
        return t != "card" or bool(scope.of("card"))

    def expr(self, t: str, scope: Scope, depth: int) -> str:
        """An expression of type T that reads only what SCOPE holds (and no action unless SCOPE allows)."""
        if depth <= 0 or self.num(0, 3) == 0:
            return self.leaf(t, scope)
        return getattr(self, "e_" + t)(scope, depth - 1)

    def leaf(self, t: str, scope: Scope) -> str:
        atoms = scope.of(t)
        if atoms and self.chance():  # the name bound last (a comprehension's variable, most often)
            return atoms[-1]
        if t == "int":
            return self.pick([str(self.num(0, 3)), *atoms])
        if t == "bool":
            return self.pick(["true", "false", *atoms])
        if t == "player":
            return self.pick([*atoms, "current()"])
        if t == "card":
            return self.pick(atoms)
        if t == "suit":
            return self.pick([*SUITS, *atoms])
        if t == "color":
            return self.pick(["red", "black", *atoms])
        if t == "players":
            return self.pick(["players()", *atoms])
        if t == "cards":
            return self.pick([f"hand({self.leaf('player', scope)})", *atoms])
        if t == "ints":
            return self.pick(["[1, 2]", "(1..3)", *atoms])
        if t == "bools":
            return self.pick(["[true, false]", *atoms])
        raise AssertionError(t)

    def call_value(self, t: str, scope: Scope, depth: int) -> str | None:
        fits = [v for v in self.values if v.returns == t and all(self.can(pt, scope) for _, pt in v.params)]
        if not fits:
            return None
        v = self.pick(fits)
        return f"{v.name}({', '.join(self.expr(pt, scope, depth) for _, pt in v.params)})"

    def comprehension(self, elem_t: str, scope: Scope, depth: int, src: str | None = None,
                      items: str | None = None) -> str:
        """`[ELEM for v in LIST if COND]`: the element and the condition see the variable (maybe shadowing a name
        around it); often one of them holds a comprehension of its own over a list made of the variable."""
        src = src or self.pick(["players", "cards", "ints"])
        items = items or self.expr(src, scope, depth)
        var = "owner" if "owner" in scope.names() and self.num(0, 7) == 0 else self.fresh(scope)
        inner = scope.bind(var, ELEMENT[src])
        nest = self.num(0, 2) if depth > 0 else 0  # 1: in the element, 2: in the condition
        if nest == 1 and elem_t in ("int", "bool"):
            elem = self.over(elem_t, var, ELEMENT[src], inner, depth - 1)
        else:
            elem = self.expr(elem_t, inner, depth)
        cond = ""
        if nest == 2:
            cond = f" if {self.over('bool', var, ELEMENT[src], inner, depth - 1)}"
        elif self.chance():
            cond = f" if {self.expr('bool', inner, depth)}"
        return f"[{elem} for {var} in {items}{cond}]"

    def over(self, t: str, var: str, vt: str, scope: Scope, depth: int) -> str:
        """A number or a truth about a comprehension over a list made of VAR (of type VT)."""
        other = "q" if var != "q" else "p"
        src, items = self.pick({
            "player": [("cards", f"hand({var})"), ("cards", f"cards_of({var})"), ("players", f"others({var})"),
                       ("players", f"within_attack_range({var})"), ("ints", f"[{var}.hp, {var}.seat]")],
            "card": [("cards", f"[{var}]"), ("ints", f"[{var}.rank]"),
                     ("cards", f"of_suit(hand(current()), {var}.suit)")],
            "int": [("ints", f"[{var}, {var} + 1]"), ("ints", f"(1..min({var}, 3))"),
                    ("players", f"[{other} for {other} in players() if {other}.hp >= {var}]")],
            "bool": [("ints", f"(if {var} then [1] else [])"), ("players", f"(if {var} then players() else [])")],
        }[vt])
        if t == "int":
            if self.chance():
                return f"count({self.comprehension(ELEMENT[src], scope, depth, src, items)})"
            return f"sum({self.comprehension('int', scope, depth, src, items)})"
        if self.num(0, 2) == 0:
            return f"(count({self.comprehension(ELEMENT[src], scope, depth, src, items)}) > {self.num(0, 1)})"
        return f"{self.pick(['any', 'all'])}({self.comprehension('bool', scope, depth, src, items)})"

    def aggregate(self, t: str, scope: Scope, d: int) -> str:
        """`count`, `sum`, `any` or `all` of a comprehension (which often holds another, see `comprehension`)."""
        if t == "int":
            if self.chance():
                src = self.pick(["players", "cards", "ints"])
                return f"count({self.comprehension(ELEMENT[src], scope, d, src)})"
            return f"sum({self.comprehension('int', scope, d)})"
        return f"{self.pick(['any', 'all'])}({self.comprehension('bool', scope, d)})"

    def deep(self, scope: Scope) -> str:
        """A number from a chain nested deeper than the compiler keeps in one Python expression (it moves the
        inner part into a helper function, which must see the comprehension variables around it)."""
        e = self.leaf("int", scope)
        for _ in range(self.num(22, 34)):
            k = self.which({"+": 3, "-": 2, "max": 2, "min": 2, "if": 2})
            other = self.leaf("int", scope)
            if k in ("+", "-"):
                e = f"({other} {k} {e})"
            elif k == "if":
                e = f"(if {self.leaf('bool', scope)} then {e} else {other})"
            else:
                e = f"{k}({other}, {e})"
        return e

    def acts(self, scope: Scope) -> bool:
        """Whether an action may stand in an expression here, done by `me` (which a comprehension's variable
        called `owner` may hide)."""
        return scope.actions and scope.type_of(self.me) in (None, "player")

    def variant(self, options: dict[str, tuple[int, Callable[[], str | None]]], fallback: str) -> str:
        """One of OPTIONS (name: (weight, maker)), drawn by weight; FALLBACK when its maker cannot make one here."""
        made = options[self.which({name: w for name, (w, _) in options.items()})][1]()
        return fallback if made is None else made

    def e_int(self, scope: Scope, d: int) -> str:
        def e(t: str) -> str:
            return self.expr(t, scope, d)

        def act() -> str | None:  # an action inside an expression: it runs where it stands
            if not self.acts(scope):
                return None
            p = e("player")
            return self.pick([f"count(draw({p}, 1))", f"damage({p}, 1, source: {self.me})", f"recover({p}, 1)"])

        return self.variant({
            "field": (2, lambda: f"{e('player')}.{self.pick(PLAYER_INTS)}"),
            "count": (1, lambda: f"count({e(self.pick(list(ELEMENT)))})"),
            "sum": (1, lambda: f"sum({e('ints')})"),
            "minmax": (2, lambda: f"{self.pick(['min', 'max'])}({e('int')}, {e('int')})"),
            "arith": (2, lambda: f"({e('int')} {self.pick(['+', '-', '*'])} {e('int')})"),
            "div": (1, lambda: f"div({e('int')}, {self.num(1, 3)})"),
            "if": (1, lambda: f"(if {e('bool')} then {e('int')} else {e('int')})"),
            "rank": (1, lambda: f"{e('card')}.rank" if self.can("card", scope) else None),
            "first": (1, lambda: f"first({e('ints')} + [{self.num(0, 3)}])"),  # never none
            "distance": (1, lambda: f"distance({e('player')}, {e('player')})"),
            "mark": (1, lambda: f"mark_value({e('player')}, \"{MARK}\")"),
            "hand": (1, lambda: f"count(hand({e('player')}))"),
            "used": (1, lambda: f"used_count({e('player')}, 杀, \"turn\")"),
            "skill_uses": (1, lambda: f"skill_uses({e('player')}, {self.pick(SKILLS)}, "
                                      f"\"{self.pick(['turn', 'game'])}\")"),
            "range": (1, lambda: f"attack_range({e('player')})"),
            "neg": (1, lambda: f"(-{e('int')})"),
            "value": (2, lambda: self.call_value("int", scope, d)),
            "aggregate": (4, lambda: self.aggregate("int", scope, d)),
            "deep": (1, lambda: self.deep(scope)),
            "act": (2, act),
        }, "0")

    def e_bool(self, scope: Scope, d: int) -> str:
        def e(t: str) -> str:
            return self.expr(t, scope, d)

        def card() -> str | None:
            if not self.can("card", scope):
                return None
            c = e("card")
            return self.pick([f"({c}.color == {e('color')})", f"({c}.suit {self.pick(['==', '!='])} {e('suit')})",
                              f"({c} is {self.pick(['杀', '闪', '桃', '无懈可击'])})",
                              f"({c}.category == {self.pick(['basic', 'trick', 'weapon'])})",
                              f"({c}.name == \"{self.pick(['杀', '闪'])}\")"])

        def player() -> str:
            p = e("player")
            return self.pick([f"is_wounded({p})", f"{p}.{self.pick(PLAYER_BOOLS)}", f"has_mark({p}, \"{MARK}\")",
                              f"({p}.gender == {self.pick(['male', 'female'])})",
                              f"({p}.kingdom == {self.pick(['魏', '蜀', '吴', '群'])})",
                              # a skill's and a general's name as values
                              f"has_skill({p}, {self.pick(SKILLS)})", f"({p}.general == 生成甲)"])

        return self.variant({
            "compare": (2, lambda: f"({e('int')} {self.pick(['==', '!=', '<', '<=', '>', '>='])} {e('int')})"),
            "players": (1, lambda: f"({e('player')} {self.pick(['==', '!='])} {e('player')})"),
            "card": (2, card),
            "anyall": (1, lambda: f"{self.pick(['any', 'all'])}({e('bools')})"),
            "not": (1, lambda: f"(not {e('bool')})"),
            "andor": (2, lambda: f"({e('bool')} {self.pick(['and', 'or'])} {e('bool')})"),
            "in": (1, lambda: f"({e('player')} in {e('players')})"),
            "card_in": (1, lambda: f"({e('card')} in {e('cards')})" if self.can("card", scope) else None),
            "range": (1, lambda: f"({e('int')} in {self.num(0, 2)}..{self.num(2, 4)})"),
            "player": (2, player),
            "attack": (1, lambda: f"in_attack_range({e('player')}, {e('player')})"),
            "if": (1, lambda: f"(if {e('bool')} then {e('bool')} else {e('bool')})"),
            "suits": (1, lambda: f"({e('suit')} == {e('suit')})"),
            "colors": (1, lambda: f"({e('color')} != {e('color')})"),
            "value": (2, lambda: self.call_value("bool", scope, d)),
            "aggregate": (4, lambda: self.aggregate("bool", scope, d)),
            "act": (1, lambda: f"confirm({e('player')})" if scope.actions else None),
        }, "true")

    def e_player(self, scope: Scope, d: int) -> str:
        def e(t: str) -> str:
            return self.expr(t, scope, d)

        return self.variant({
            "leaf": (2, lambda: self.leaf("player", scope)),
            "next": (1, lambda: f"next_alive({e('player')})"),
            "first": (1, lambda: f"first({e('players')} + [{e('player')}])"),  # never none
            "if": (1, lambda: f"(if {e('bool')} then {e('player')} else {e('player')})"),
            "value": (1, lambda: self.call_value("player", scope, d)),
            "act": (1, lambda: f"choose({self.me}, {e('players')} + [{self.me}], tags: \"neutral\")"
                    if self.acts(scope) else None),
        }, "current()")

    def e_card(self, scope: Scope, d: int) -> str:
        return self.leaf("card", scope)

    def e_suit(self, scope: Scope, d: int) -> str:
        if self.can("card", scope) and self.chance():
            return f"{self.expr('card', scope, d)}.suit"
        return self.leaf("suit", scope)

    def e_color(self, scope: Scope, d: int) -> str:
        k = self.num(0, 2)
        if k == 0 and self.can("card", scope):
            return f"{self.expr('card', scope, d)}.color"
        if k == 1:
            return f"color_of_suit({self.expr('suit', scope, d)})"
        return self.leaf("color", scope)

    def e_players(self, scope: Scope, d: int) -> str:
        def e(t: str) -> str:
            return self.expr(t, scope, d)

        return self.variant({
            "others": (1, lambda: f"others({e('player')})"),
            "filter": (1, lambda: f"{self.pick(['wounded', 'having_hand', 'having_cards'])}({e('players')})"),
            "comp": (3, lambda: self.comprehension("player", scope, d, "players")),
            "minus": (1, lambda: f"minus({e('players')}, {e('players')})"),
            "without": (1, lambda: f"without({e('players')}, {e('player')})"),
            "range": (1, lambda: f"within_attack_range({e('player')})"),
            "if": (1, lambda: f"(if {e('bool')} then {e('players')} else {e('players')})"),
            "list": (1, lambda: f"[{e('player')}, {e('player')}]"),
        }, "players()")

    def e_cards(self, scope: Scope, d: int) -> str:
        def e(t: str) -> str:
            return self.expr(t, scope, d)

        return self.variant({
            "areas": (2, lambda: f"{self.pick(['hand', 'equips', 'cards_of'])}({e('player')})"),
            "suit": (1, lambda: f"of_suit({e('cards')}, {e('suit')})"),
            "comp": (3, lambda: self.comprehension("card", scope, d, "cards")),
            "minus": (1, lambda: f"minus({e('cards')}, {e('cards')})"),
            "family": (1, lambda: f"filter_family({e('cards')}, {self.pick(['杀', '闪', '桃'])})"),
            "join": (1, lambda: f"({e('cards')} + {e('cards')})"),
        }, "hand(current())")

    def e_ints(self, scope: Scope, d: int) -> str:
        def e(t: str) -> str:
            return self.expr(t, scope, d)

        return self.variant({
            "comp": (2, lambda: self.comprehension("int", scope, d)),
            "list": (1, lambda: f"[{e('int')}, {e('int')}]"),
            "join": (1, lambda: f"({e('ints')} + {e('ints')})"),
        }, "[1, 2]")

    def e_bools(self, scope: Scope, d: int) -> str:
        if self.num(0, 3):
            return self.comprehension("bool", scope, d)
        return f"[{self.expr('bool', scope, d)}, {self.expr('bool', scope, d)}]"

    def small(self, scope: Scope, hi: int = 2) -> str:
        """A number from 0 to HI, computed."""
        return f"min(max({self.expr('int', scope, 2)}, 0), {hi})"

    def hope(self, scope: Scope) -> str:
        """A `hoping:` condition on the judged card `it`, which may read the names around it (comprehension
        variables too) and hold comprehensions of its own."""
        inner = scope.pure().bind("it", "card")
        if self.chance():
            return self.aggregate("bool", inner, 2)
        return self.expr("bool", inner, 2)

    # ------------------------------------------------------------ statements
    def block(self, scope: Scope, depth: int, ind: int, writable: str | None = None) -> list[str]:
        """One to three statements (a `let` binds for those after it)."""
        out: list[str] = []
        for _ in range(self.num(1, 3)):
            if self.budget <= 0:
                break
            self.budget -= 1
            lines, scope = self.stmt(scope, depth, ind, writable)
            out.extend(lines)
        return out or [" " * ind + "log(\"nothing\")"]

    def stmt(self, scope: Scope, depth: int, ind: int, writable: str | None) -> tuple[list[str], Scope]:
        pad, e, me = " " * ind, self.expr, self.me
        k = self.which({"draw": 2, "let": 4, "if": 2, "for": 2, "repeat": 1, "while": 1, "damage": 1, "recover": 1,
                        "discard": 1, "choose": 1, "number": 1, "many": 1, "confirm": 1, "mark": 1, "judge": 2,
                        "judges": 1, "give": 1, "obtain": 1, "procedure": 1, "write": 1, "stop": 1, "break": 1,
                        "walk": 1, "acts": 1, "deep": 1, "arrange": 1, "retrial": 3 if self.timing == "judging" else 0})
        if k == "let":
            t = self.pick(["int", "bool", "player", "players", "cards", "ints", "card"])
            t = t if self.can(t, scope) else "int"
            name = self.fresh(scope)
            t = scope.type_of(name) or t  # a name bound again keeps its type (see the module's docstring)
            return [f"{pad}let {name} = {e(t, scope, 3)}"], scope.bind(name, t)
        if k == "if" and depth > 0:
            lines = [f"{pad}if {e('bool', scope, 3)} {{", *self.block(scope, depth - 1, ind + 2, writable)]
            if self.chance():
                lines += [f"{pad}}} else if {e('bool', scope, 2)} {{", *self.block(scope, depth - 1, ind + 2, writable)]
            if self.chance():
                lines += [f"{pad}}} else {{", *self.block(scope, depth - 1, ind + 2, writable)]
            return [*lines, f"{pad}}}"], scope
        if k == "for" and depth > 0:
            src = self.pick(["players", "cards", "ints"])
            var = self.binding(scope, ELEMENT[src])
            inner = scope.bind(var, ELEMENT[src]).looping()
            body = self.block(inner, depth - 1, ind + 2, writable)
            if self.num(0, 3) == 0:
                body.append(f"{pad}  if {e('bool', inner, 2)} {{ break }}")
            return [f"{pad}for {var} in {e(src, scope, 3)} {{", *body, f"{pad}}}"], scope
        if k == "repeat" and depth > 0:
            body = self.block(scope.looping(), depth - 1, ind + 2, writable)
            return [f"{pad}repeat {self.small(scope)} {{", *body, f"{pad}}}"], scope
        if k == "while" and depth > 0:  # bounded by a mark (one for each depth, so nested loops end)
            var, w = self.binding(scope, "int"), f"w{ind}"
            body = self.block(scope.bind(var, "int").looping(), depth - 1, ind + 2, writable)
            return [f"{pad}mark({me}, \"{w}\", 0)",
                    f"{pad}while mark_value({me}, \"{w}\") < {self.small(scope)} {{",
                    f"{pad}  let {var} = mark_value({me}, \"{w}\")",
                    f"{pad}  mark({me}, \"{w}\", {var} + 1)", *body, f"{pad}}}"], scope
        if k == "damage":
            src = self.pick([me, e("player", scope, 1)])
            return [f"{pad}damage({e('player', scope, 2)}, {self.small(scope, 1)}, source: {src})"], scope
        if k == "recover":
            return [f"{pad}{self.pick(['recover', 'lose_hp'])}({e('player', scope, 2)}, 1)"], scope
        if k == "discard":  # a choice of one's own cards, discarded
            p = e("player", scope, 1)
            name = self.binding(scope, "card")
            rest = self.after(scope.bind(name, "card"), depth, ind + 2, writable)
            return [f"{pad}let {name} = choose({p}, {self.owned(p, scope)}, optional: {self.pick(['true', 'false'])})",
                    f"{pad}if {name} != none {{", f"{pad}  discard({name}, by: {p})", *rest, f"{pad}}}"], \
                scope.bind(name, "card")
        if k == "choose":  # a choice of characters
            name = self.binding(scope, "player")
            rest = self.after(scope.bind(name, "player"), depth, ind + 2, writable)
            tags = self.pick(["attack", "help", "neutral"])
            return [f"{pad}let {name} = choose({me}, {e('players', scope, 3)}, tags: \"{tags}\")",
                    f"{pad}if {name} != none {{", *rest, f"{pad}}}"], scope.bind(name, "player")
        if k == "number":
            return [f"{pad}draw({me}, min(max(choose({me}, {e('ints', scope, 2)} + [0]), 0), 2))"], scope
        if k == "many":
            p = e("player", scope, 1)
            name = self.binding(scope, "cards")
            return [f"{pad}let {name} = choose_many({p}, {self.owned(p, scope)}, min: 0, max: {self.num(1, 2)})",
                    f"{pad}discard({name}, by: {p})"], scope.bind(name, "cards")
        if k == "confirm":
            body = self.block(scope, depth - 1, ind + 2, writable) if depth > 0 else [f"{pad}  draw({me}, 1)"]
            return [f"{pad}if confirm({e('player', scope, 1)}) {{", *body, f"{pad}}}"], scope
        if k == "mark":
            return [f"{pad}mark({e('player', scope, 2)}, \"{MARK}\", {e('int', scope, 2)}, "
                    f"until: \"{self.pick(['turn', 'round', 'forever'])}\")"], scope
        if k == "judge":  # a judgement that hopes for something, then read
            name = self.binding(scope, "card")
            rest = self.after(scope.bind(name, "card"), depth, ind + 2, writable)
            return [f"{pad}let {name} = judge({e('player', scope, 1)}, hoping: {self.hope(scope)})",
                    f"{pad}if {name} != none {{", *rest, f"{pad}}}"], scope.bind(name, "card")
        if k == "judges":  # judgements made in a comprehension, each hoping for something about its character
            name, var = self.binding(scope, "cards"), self.fresh(scope)
            inner = scope.bind(var, "player")
            return [f"{pad}let {name} = [judge({var}, hoping: {self.hope(inner)}) for {var} in "
                    f"{e('players', scope, 1)} if {e('bool', inner.pure(), 1)}]",
                    f"{pad}draw({me}, min(count([{var} for {var} in {name} if {var}.color == red]), 2))"], \
                scope.bind(name, "cards")
        if k == "give":  # a hand card given to another
            name = self.binding(scope, "card")
            return [f"{pad}let {name} = first(hand({me}))",
                    f"{pad}if {name} != none and count(others({me})) > 0 {{",
                    f"{pad}  give({me}, choose({me}, others({me}), tags: \"help\"), {name})", f"{pad}}}"], \
                scope.bind(name, "card")
        if k == "obtain":  # a card taken from another
            name = self.binding(scope, "player")
            return [f"{pad}let {name} = first({e('players', scope, 2)} + [{me}])",
                    f"{pad}if {name} != {me} and count(cards_of({name})) > 0 {{",
                    f"{pad}  obtain({me}, choose_card_from({me}, {name}))", f"{pad}}}"], scope.bind(name, "player")
        if k == "procedure" and self.procedures:
            pr = self.pick(self.procedures)
            if all(self.can(pt, scope) for _, pt in pr.params):
                return [f"{pad}{pr.name}({', '.join(e(pt, scope, 2) for _, pt in pr.params)})"], scope
        if k == "write" and writable:
            return [f"{pad}{writable} = {self.small(scope, 3)}"], scope
        if k == "stop" and depth < 2:
            return [f"{pad}if {e('bool', scope, 2)} {{ stop }}"], scope
        if k == "break" and scope.in_loop:
            return [f"{pad}if {e('bool', scope, 2)} {{ break }}"], scope
        if k == "walk":
            return [f"{pad}for {self.binding(scope, 'card')} in {e('cards', scope, 3)} {{ log(\"seen\") }}"], scope
        if k == "acts":  # actions inside a comprehension, run item by item
            name, var = self.binding(scope, "ints"), self.fresh(scope)
            inner = scope.bind(var, "player")
            act = self.pick([f"count(draw({var}, 1))", f"damage({var}, 1, source: {me})", f"recover({var}, 1)"])
            return [f"{pad}let {name} = [{act} for {var} in {e('players', scope, 2)} if {e('bool', inner, 2)}]"], \
                scope.bind(name, "ints")
        if k == "arrange":  # a card of the top of the draw pile chosen and put back on top
            name, n = self.binding(scope, "card"), self.num(1, 3)
            return [f"{pad}let {name} = choose({me}, top_cards({n}), optional: true, "
                    f"hints: [\"next\" for {name} in top_cards({n})])",
                    f"{pad}if {name} != none {{ put_on_top([{name}]) }}"], scope.bind(name, "card")
        if k == "retrial":  # the pending judgement's card replaced by one of the owner's
            name = self.binding(scope, "card")
            return [f"{pad}let {name} = choose({me}, {self.owned(me, scope)}, optional: true)",
                    f"{pad}if {name} != none {{ retrial(event, {name}) }}"], scope.bind(name, "card")
        if k == "deep" and depth > 0:
            return self.deep_block(scope, ind), scope
        return [f"{pad}draw({e('player', scope, 1)}, {self.small(scope, 1)})"], scope

    def after(self, scope: Scope, depth: int, ind: int, writable: str | None) -> list[str]:
        return self.block(scope, depth - 1, ind, writable) if depth > 0 and self.chance() else []

    def owned(self, p: str, scope: Scope) -> str:
        """Cards of P's own (hand or all areas), maybe filtered."""
        own = f"{self.pick(['hand', 'cards_of'])}({p})"
        if self.chance():
            var = self.fresh(scope)
            return f"[{var} for {var} in {own} if {self.expr('bool', scope.bind(var, 'card'), 2)}]"
        return own

    def deep_block(self, scope: Scope, ind: int) -> list[str]:
        """`if`, `for` and `repeat` nested deeper than the compiler keeps in one Python function (it moves the
        inner blocks into local functions that share the rule's names; a `break` leaves a loop outside them)."""
        lines: list[str] = []
        levels = self.num(8, 16)
        for level in range(levels):
            pad = " " * (ind + 2 * level)
            kind = self.pick(["if", "for", "repeat"])
            if kind == "if":
                lines.append(f"{pad}if {self.expr('bool', scope.pure(), 1)} {{")
            elif kind == "for":
                var = self.binding(scope, "player")
                lines.append(f"{pad}for {var} in [{self.expr('player', scope, 1)}] {{")
                scope = scope.bind(var, "player").looping()
            else:
                lines.append(f"{pad}repeat 1 {{")
                scope = scope.looping()
            if self.num(0, 2) == 0:  # a name bound here, read deeper in
                name = self.binding(scope, "int")
                lines.append(f"{pad}  let {name} = {self.expr('int', scope, 1)}")
                scope = scope.bind(name, "int")
        pad = " " * (ind + 2 * levels)
        lines.append(f"{pad}draw({self.me}, {self.small(scope, 1)})")
        if scope.in_loop and self.chance():
            lines.append(f"{pad}if {self.expr('bool', scope, 1)} {{ break }}")
        lines.extend(" " * (ind + 2 * level) + "}" for level in reversed(range(levels)))
        return lines

    # ------------------------------------------------------------ definitions
    def value_def(self, i: int) -> str:
        # (parameters may have the names the engine binds elsewhere: a value sees only its parameters)
        names = self.draw(st.lists(st.sampled_from([f"v{i}0", f"v{i}1", "owner", "it", "event"]), max_size=2,
                                   unique=True))
        params = [(n, self.pick(["player", "int", "bool", "card"])) for n in names]
        returns = self.pick(["int", "bool", "player"])
        body = self.expr(returns, Scope(tuple(params), actions=False), 3)
        bounds = ""
        if returns == "int" and self.chance():
            bounds = f" min {self.num(0, 1)}" + (f" max {self.num(2, 4)}" if self.chance() else "")
        self.values.append(Defined(f"gv{i}", params, returns))
        return f"value gv{i}({', '.join(f'{n}: {t}' for n, t in params)}) = {body}{bounds}"

    def procedure_def(self, i: int) -> str:
        # the first parameter is called `owner`, so the statements the skills use read the same here
        params = [("owner", "player"), *[(f"p{i}{j}", self.pick(["int", "player", "cards"])) for j in
                                          range(self.num(0, 1))]]
        self.budget, self.me = 4, "owner"
        body = self.block(Scope(tuple(params), actions=True), 2, 2)
        self.procedures.append(Defined(f"gp{i}", params, None))
        head = ", ".join(f"{n}: {t}" for n, t in params)
        return "\n".join([f"procedure gp{i}({head}) {{", *body, "}"])

    def card_def(self) -> str:
        """The program's own card: a trick (a use clause with a limit, a target kind and a condition on `it`; an
        effect; maybe a hook) or a delayed trick whose judgement hopes for something of the card alone (the
        engine keeps such a condition with the card and asks it before the judgement too)."""
        self.has_card = True
        suits = " ".join(f"{s}{r}" for s, r in zip(SUITS, ("A", "5", "9", "K"), strict=True))
        if self.num(0, 2) == 0:
            self.budget, self.me = 4, "target"
            name = self.binding(Scope((), True), "card")
            scope = Scope((("target", "player"), ("card", "card"), (name, "card")), actions=True)
            hope = self.expr("bool", Scope((("it", "card"),), actions=False), 2)
            body = [f"    let {name} = judge(target, card, hoping: {hope})", "    discard(card)",
                    f"    if {self.expr('bool', scope.pure(), 2)} {{", *self.block(scope, 1, 6), "    }"]
            return "\n".join([f"card {CARD} gcard : delayed {{", f"  copies {suits}", "  use play target one other",
                              "  effect {", *body, "  }", "}"])
        target = self.pick(["one other", "self", "all other", "1..2 other"])
        where = ""
        if target != "self" and self.chance():
            scope = Scope((("user", "player"), ("it", "player"), ("card", "card")), actions=False)
            where = f" where {self.expr('bool', scope, 2)}"
        self.budget, self.me = 5, "user"
        scope = Scope((("user", "player"), ("target", "player"), ("card", "card")), actions=True)
        body = self.block(scope, 2, 4)
        hooks: list[str] = []
        if self.chance():  # a hook before the first target or after the last
            self.budget = 2
            scope = Scope((("user", "player"), ("targets", "players"), ("card", "card")), actions=True)
            hooks = [f"  on {self.pick(['prepare', 'finish'])} {{", *self.block(scope, 1, 4), "  }"]
        return "\n".join([f"card {CARD} gcard : trick {{", f"  copies {suits}",
                          f"  use play limit {self.num(1, 2)} per turn target {target}{where}",
                          "  effect {", *body, "  }", *hooks, "}"])

    def skill_member(self) -> list[str]:
        k = self.which({"trigger": 6, "active": 2, "view_as": 1, "modify": 1, "modify_value": 1, "grant": 1,
                        "provide": 1})
        owner = (("owner", "player"),)
        self.me, self.timing = "owner", ""
        if k == "active":
            scope = Scope(owner, actions=True)
            where = f" where {self.expr('bool', scope.pure(), 2)}" if self.chance() else ""
            self.budget = 6
            return [f"    active limit {self.num(1, 2)} per phase{where} {{", *self.block(scope, 2, 6), "    }"]
        if k == "view_as":
            scope = Scope(owner + (("it", "card"),), actions=False)
            made = self.pick(["杀", "闪", CARD] if self.has_card else ["杀", "闪"])
            return [f"    view_as {made} from 1 {self.pick(['card', 'hand'])} where {self.expr('bool', scope, 3)}"]
        if k == "modify":
            scope = Scope(owner + (("pl", "player"),), actions=False)
            return [f"    modify {self.pick(['hand_limit', 'draw_count'])}(pl) by {self.small(scope, 1)} "
                    "where pl == owner"]
        values = [v for v in self.values if v.returns == "int" and v.params]
        if k == "modify_value" and values:  # a skill changes a value the program defines
            v = self.pick(values)
            names = [f"m{j}" for j in range(len(v.params))]
            scope = Scope(owner + tuple(zip(names, (t for _, t in v.params), strict=True)), actions=False)
            how = self.pick(["by", "to"])
            return [f"    modify {v.name}({', '.join(names)}) {how} {self.expr('int', scope, 2)} "
                    f"where {self.expr('bool', scope, 2)}"]
        if k == "grant":  # an action other characters get
            scope = Scope(owner + (("user", "player"),), actions=True)
            where = f" where {self.expr('bool', scope.pure(), 2)}" if self.chance() else ""
            self.budget, self.me = 3, "user"
            body = self.block(scope, 1, 6)
            self.me = "owner"
            return [f"    grant limit 1 per phase{where} {{", *body, "    }"]
        if k == "provide":
            scope = Scope(owner + (("play", "bool"),), actions=True)
            where = f" where {self.expr('bool', scope.pure(), 2)}" if self.chance() else ""
            self.budget = 2
            body = self.block(scope, 1, 6)
            return [f"    provide 闪{where} {{", *body, f"      if {self.expr('bool', scope, 2)} {{ supply(闪) }}",
                    "    }"]
        timing = self.which({t: 4 if t == "judging" else 1 for t in TIMINGS})
        fields, who, writable = TIMINGS[timing]
        scope = Scope(owner + tuple(fields.items()), actions=True)
        conds = []
        if self.num(0, 3):
            conds.append(f"{who} == owner")
        if timing == "phase_start":
            conds.append(f"event.phase == {self.pick(PHASES)}")
        if self.chance():
            conds.append(self.expr("bool", scope.pure(), 2))
        where = f" where {' and '.join(conds)}" if conds else ""
        limit = "" if timing in ("phase_start", "turn_start", "turn_end") and conds else \
            f" limit {self.num(1, 2)} per {self.pick(['turn', 'round'])}"
        optional = " optional" if self.chance() else ""
        self.budget, self.timing = 6, timing
        body = self.block(scope, 2, 6, writable)
        self.timing = ""
        return [f"    on {timing}{limit}{where}{optional} {{", *body, "    }"]

    def rule_def(self) -> str:
        """A rule of the game itself: only `event` is bound; the current character acts."""
        timing = self.which({t: 1 for t in TIMINGS})
        fields, who, writable = TIMINGS[timing]
        scope = Scope(tuple(fields.items()), actions=True)
        where = f" where {self.expr('bool', scope.pure(), 2)}" if self.chance() else ""
        self.budget, self.me, self.timing = 3, "current()", ""
        body = self.block(scope, 1, 4, writable)
        self.me = "owner"
        return "\n".join(["rule 生成规则 grule {", f"  on {timing}{where} {{", *body, "  }", "}"])

    def general(self, i: int) -> str:
        kingdom = self.pick(["魏", "蜀", "吴", "群"])
        lines = [f"general 生成{'甲乙'[i]} gen{i} : {kingdom} {self.pick(['male', 'female'])} {self.num(3, 4)} {{"]
        for j in range(self.num(1, 2)):
            lines.append(f"  skill 生技{'甲乙'[i]}{'一二'[j]} gs{i}{j} {{")
            for _ in range(self.num(1, 2)):
                lines.extend(self.skill_member())
            lines.append("  }")
        lines.append("}")
        return "\n".join(lines)


MODES = """\
mode 生成对局 gen_duel {
  players 2..4
  option hand_size = 4
  roles 2 { lord rebel }
  roles 3 { lord rebel renegade }
  roles 4 { lord loyalist rebel renegade }
  leader lord
  setup {
    deal_roles()
    for p in players() {
      set_general(p, if p.seat in [1, 3] then GEN1 else GEN0)
      draw(p, hand_size)
    }
  }
  win lord loyalist when count(alive_with_role(rebel)) + count(alive_with_role(renegade)) == 0
  win rebel when count(alive_with_role(lord)) == 0
  win renegade when count(players()) == 1 and count(alive_with_role(renegade)) == 1
}
mode 生成身份局 gen_identity extends identity {
  setup {
    deal_roles()
    for p in players() {
      set_general(p, if p.seat in [1, 3] then GEN1 else GEN0)
      draw(p, 4)
    }
  }
}
"""


def program_text(body: str) -> str:
    """The whole program for BODY (values, procedures, a card, a rule, generals): on the standard edition, with the
    two modes dealing its generals (`gen0`, and `gen1` when there is one)."""
    second = "gen1" if "general 生成乙 gen1 " in body else "gen0"
    return f'import "standard"\n{body}' + MODES.replace("GEN0", "gen0").replace("GEN1", second)


@dataclass(frozen=True)
class Generated:
    body: str  # the definitions (see `program_text`)
    mode: str
    players: int

    @property
    def text(self) -> str:
        return program_text(self.body)


@st.composite
def programs(draw: st.DrawFn) -> Generated:
    w = Writer(draw)
    parts = [w.value_def(i) for i in range(w.num(0, 3))]
    parts += [w.procedure_def(i) for i in range(w.num(0, 1))]
    if w.chance():
        parts.append(w.card_def())
    if w.num(0, 3) == 0:
        parts.append(w.rule_def())
    parts += [w.general(i) for i in range(w.num(1, 2))]
    mode = w.pick(["gen_duel", "gen_identity"])
    players = w.num(2, 4) if mode == "gen_duel" else w.num(4, 5)
    return Generated("\n".join(parts) + "\n", mode, players)
