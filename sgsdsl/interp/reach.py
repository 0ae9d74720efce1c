"""Where a skill's action could be aimed, read from its text before it runs.

A card of the play menu shows its legal targets, so an agent knows where it could aim it before picking it. A
skill's action (`active`) chooses its seats in its body, after it is picked: an agent that picks 激将 or 离间
because a foe sits somewhere may then have to name a friend (no foe is in the 杀's range, or none is male). The
seats of the body's first choice are often known before the body runs: `choose(owner, targets_for(owner, 杀))`
depends on nothing the body does first. This finds that choice's items when they are a pure question of the
owner (no action, no name the body binds), so the engine can show them as the option's reach, a hint like a
conversion's (what the body does before the choice, such as a discard, may change them). An optional trigger's
body is read the same way (突袭 takes from seats that hold cards): its reach comes with the question whether to use
it.

An optional trigger that cancels its event outright (`cancel(event)` among its body's own statements, not under a
branch or a loop) says so too: at the start of one of its owner's phases a yes skips that phase (巧变, 放权), and the
engine tells the agent which phase and what it holds (`Request.skips`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..engine.registry import PRIMITIVES, card_tests
from ..lang import ast
from ..lang.ast_walk import CHOICES, calls, fixed_seat, is_owner, is_seats, kwarg, parts

# names a skill's action binds before its body runs, which a reach may read; a skill's trigger binds the event too
ACTION_BOUND = frozenset({"owner", "skill"})
TRIGGER_BOUND = frozenset({"owner", "skill", "event"})


def first_seat_choice(body: ast.Block, values: Mapping[str, ast.ValueDef],
                      bound: frozenset[str] = ACTION_BOUND) -> ast.Expr | None:
    """The items of the first choice of characters the owner makes in an action's body, in the order the body
    runs, when they can be worked out before it runs; None when there is no such choice, or the first one reads
    what the body did (a name it bound, an action). VALUES are the program's `value` definitions by name (a
    value is a pure question; what it returns is read from its expression); BOUND the names bound before the body
    runs. A body that chooses no character but first names one by its form (`fixed_seat`) reaches that one."""
    items = next(seat_choices(body, values), None)
    if items is None:
        # (a body that chooses nobody but names one character first, 忠谏's lord: that one is its reach)
        fixed = fixed_seat(body, values)
        items = None if fixed is None else ast.ListLit(fixed.value.span, [fixed.value])
    return items if items is not None and _pure(items, bound) else None


def cancels_event(body: ast.Block) -> bool:
    """Whether the body cancels its event whatever else it does: a `cancel(event)` statement of its own, not under
    a branch or a loop (what comes before it, a discard say, is the price of the cancelling)."""
    return any(isinstance(stmt, ast.CallStmt) and stmt.call.func.text == "cancel" and len(stmt.call.args) == 1
               and isinstance(arg := stmt.call.args[0], ast.Name) and arg.ident == "event"
               and arg.ref == ("local", "event") for stmt in body.stmts)


# the fields of its event a ward's condition may read: what a card's user knows before aiming it
WARD_FIELDS = frozenset({"target", "card", "user"})


def wards_owner(t: ast.Trigger, owner_field: str | None) -> bool:
    """Whether a skill trigger makes a card aimed at its owner void whatever else happens (a ward: 仁王盾 against a
    black 杀, 藤甲): compulsory, at `before_effect`, for the owner as the target (OWNER_FIELD, the condition's
    leading `event.target == owner`), its body cancelling the event outright, and its condition a pure question of
    the event's target, card and user alone. Before a card is aimed, the engine can then ask the condition of each
    seat it could aim at, and tell an agent which seats the card would do nothing to (`VOID`)."""
    if t.optional or t.limit is not None or t.timing.text != "before_effect" or owner_field != "target" \
            or t.where is None:
        return False
    return cancels_event(t.body) and _pure(t.where, TRIGGER_BOUND) and _event_fields(t.where) <= WARD_FIELDS


def _event_fields(e: ast.Node) -> frozenset[str]:
    """The fields of `event` an expression reads; "" among them when it names the event itself otherwise."""
    if isinstance(e, ast.Attr) and isinstance(e.obj, ast.Name) and e.obj.ident == "event" \
            and e.obj.ref == ("local", "event"):
        return frozenset({e.name.text})
    if isinstance(e, ast.Name):
        return frozenset({""}) if e.ident == "event" and e.ref == ("local", "event") else frozenset()
    return frozenset().union(*(_event_fields(part) for part in parts(e)))


def phases_skipped(body: ast.Block) -> tuple[str, ...]:
    """The phases of its owner's turn the body skips whatever else it does: `skip_phase(owner, P)` statements of its
    own with P a phase named outright, not under a branch or a loop (神速 skips the draw phase with the judge phase it
    cancels)."""
    out = []
    for stmt in body.stmts:
        if isinstance(stmt, ast.CallStmt) and stmt.call.func.text == "skip_phase" and len(stmt.call.args) == 2 \
                and is_owner(stmt.call.args[0]) and isinstance(phase := stmt.call.args[1], ast.Name) \
                and phase.ref == ("const", phase.ident):
            out.append(phase.ident)
    return tuple(out)


def lowers_amount(body: ast.Block) -> int:
    """By how much the body lowers its event's `amount` whatever else it does: an `event.amount -= N` statement of its
    own with N a whole number, not under a branch or a loop (裸衣 draws one card fewer); 0 when it does not."""
    for stmt in body.stmts:
        if isinstance(stmt, ast.Assign) and stmt.op == "-=" and stmt.target.name.text == "amount" \
                and isinstance(base := stmt.target.obj, ast.Name) and base.ident == "event" \
                and base.ref == ("local", "event") and isinstance(stmt.value, ast.Lit) and stmt.value.kind == "int" \
                and isinstance(stmt.value.value, int) and stmt.value.value > 0:
            return stmt.value.value
    return 0


def tagged_choices(node: ast.Node) -> Iterator[tuple[ast.Call, ast.Expr | None, ast.Expr | None]]:
    """Each choice in a body that carries its own words for agents, in the order the body runs: the call, its
    `tags:` (what the choice is about, read in place of the skill's or card's) and its `hints:` (per option), either
    None when not written (docs/language.md, "A choice's own tags"); a choice with per-option `costs:` or
    `befalls:` alone too."""
    for call in calls(node):
        if call.func.text in CHOICES and call.ref == "action":
            tags, hints = kwarg(call, "tags"), kwarg(call, "hints")
            if tags is not None or hints is not None or kwarg(call, "costs") is not None \
                    or kwarg(call, "befalls") is not None:
                yield call, tags, hints


def written_hopes(node: ast.Node) -> Iterator[tuple[ast.Call, ast.Expr]]:
    """Each call in a body given a condition on a card for agents (`judge(…, hoping: it.suit == ♥)`), in the order
    the body runs: the call and the condition (docs/language.md, "What a judgement hopes for")."""
    for call in calls(node):
        tests = card_tests(call.func.text) if call.ref == "action" else frozenset()
        for key, arg in [*enumerate(call.args), *((k.text, v) for k, v in call.kwargs)]:
            if key in tests:
                yield call, arg


def own_judge_hope(effect: ast.Block | None) -> ast.Expr | None:
    """What a card's own judgement hopes for, when it can be asked before the card is judged: the `hoping:` of the
    first judgement its effect makes, if that judgement is of its target (for a delayed card, the character whose
    judge area it waits in) and the condition asks nothing but the card `it` (乐不思蜀's `it.suit == ♥`). An agent
    arranging the top of the draw pile (观星) is told which cards its waiting judgements hope for (Request.ahead)."""
    if effect is None:
        return None
    call, hope = next(written_hopes(effect), (None, None))
    if call is None or hope is None:
        return None
    judged = call.args[0] if call.args else kwarg(call, "player")
    if not (isinstance(judged, ast.Name) and judged.ident == "target" and judged.ref == ("local", "target")):
        return None
    return hope if _pure(hope, frozenset({"it"})) else None


def seat_choices(body: ast.Block, values: Mapping[str, ast.ValueDef]) -> Iterator[ast.Expr]:
    """The items of each choice of characters the owner makes in a body (`choose(owner, others(owner))`), in the
    order the body runs."""
    for call in seat_choice_calls(body, values):
        items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
        assert items is not None  # (a choice of characters has them: `seat_choice_calls`)
        yield items


def seat_choice_calls(body: ast.Block, values: Mapping[str, ast.ValueDef]) -> Iterator[ast.Call]:
    """Each choice of characters the owner makes in a body, in the order the body runs."""
    for call in calls(body):
        if call.func.text not in CHOICES or call.ref != "action":
            continue
        chooser = call.args[0] if call.args else kwarg(call, "player")
        items = call.args[1] if len(call.args) > 1 else kwarg(call, "items")
        if chooser is not None and items is not None and is_owner(chooser) and is_seats(items, values):
            yield call


def first_seat_costs(body: ast.Block, values: Mapping[str, ast.ValueDef],
                     bound: frozenset[str] = ACTION_BOUND) -> ast.Expr | None:
    """The per-option `costs:` (written, or read from the rule: lang/intent.py `give_cost_hints`) of the first choice
    of characters the owner makes in an action's body, when its reach can be worked out before it runs
    (`first_seat_choice`) and so can they: the menu then tells agents what aiming the action at each seat of its
    reach would cost (破绽's blow, as many cards as the HP of the one struck). None otherwise."""
    call = next(seat_choice_calls(body, values), None)
    costs = kwarg(call, "costs") if call is not None else None
    if costs is None or first_seat_choice(body, values, bound) is None or not _pure(costs, bound):
        return None
    return costs


# expressions that only ask, once their parts do (a name and a call are judged by what they name)
_ASKING = (ast.Lit, ast.Attr, ast.BinOp, ast.Unary, ast.IsFamily, ast.RangeLit, ast.ListLit, ast.CondExpr)


def _pure(e: ast.Expr, bound: frozenset[str]) -> bool:
    """Whether the expression only asks questions (functions and values, no action or procedure) of the names in
    BOUND."""
    if isinstance(e, ast.Name):
        return e.ref is not None and (e.ref[0] != "local" or e.ident in bound)
    if isinstance(e, ast.Call):
        prim = PRIMITIVES.get(e.func.text)
        if not (e.ref == "value" or (e.ref == "function" and prim is not None and prim.kind == "function")):
            return False
    elif isinstance(e, ast.ListComp):
        inner = bound | {e.var.text}
        return _pure(e.iterable, bound) and _pure(e.elem, inner) and (e.cond is None or _pure(e.cond, inner))
    elif not isinstance(e, _ASKING):
        return False
    return all(_pure(part, bound) for part in parts(e))
