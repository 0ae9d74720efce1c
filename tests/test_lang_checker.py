"""The checker: name resolution (and the annotations the interpreter relies on), types, timings, and the
definitions that can never fire. Small programs in, diagnostic codes out."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgsdsl.api import check_each
from sgsdsl.engine import registry as reg
from sgsdsl.lang import ast
from sgsdsl.lang.checker import check
from sgsdsl.lang.diagnostics import did_you_mean
from sgsdsl.lang.parser import parse_text
from sgsdsl.lang.types import assignable, comparable, registry_types

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"

PRELUDE = """\
card 杀 sha : basic { copies ♠7  use play target one other  effect { damage(target, 1, source: user) } }
card 闪 shan : basic { copies ♥2 }
card 闪电 shandian : delayed { copies ♠A  use play target self  effect { discard(card) } }
general 关羽 guanyu : 蜀 male 4 { }
mode 身份局 identity { players 2..2  roles 2 { lord rebel }  leader lord  win lord when count(players()) == 1 }
"""


def codes(src: str, prelude: bool = True) -> list[str]:
    text = (PRELUDE if prelude else "") + src
    module, diags = parse_text(text, "t.sgs")
    assert module is not None, diags
    return [d.code for d in check([module]).diagnostics]


def test_mini_and_bundled_rules_have_no_errors() -> None:
    for path in (MINI, ROOT / "rules"):
        loaded = check_each([str(path)])  # each file with its imports (rules/beta.sgs stands alone)
        assert loaded.ok, [str(d) for d in loaded.diagnostics if d.severity == "error"]


CASES = [
    # well-typed programs
    ("skill s a { on damaged where event.card is 杀 and event.card.suit == ♠ { draw(event.target, 1) } }", []),
    ("skill s a { on damaged where event.card.color == red { event.amount += 1 } }", []),
    ("skill s a { on died where event.victim.role == lord { draw(event.killer, 3) } }", []),
    ("skill s a { on turn_start { for p in others(owner) { if p.hp < 2 { break } } } }", []),
    ("skill s a { on damaged { if respond(event.target, 闪) { stop } } }", []),
    ("skill s a { on damaged where event.card != none and event.card.rank in 2..9 { draw(owner, 1) } }", []),
    ("skill s a { on damaged where event.target.kingdom == 蜀 and owner.general == 关羽 { draw(owner, 1) } }", []),
    ("skill s a { on targeted where event.card is 杀 { cancel(event) } }", []),
    ("skill s a { on turn_start { let xs = [owner] + others(owner)  for p in xs { draw(p, 1) } } }", []),
    ("value v(p: player) = p.hp * 2 - 1 min 0", []),
    ("skill s a locked { modify distance(a, b) by -1 where a == owner }", []),
    ("skill s a locked { modify targetable(u, c, t) to false where t == owner and c is 闪电 }", []),
    # names
    ("skill s a { on damaged { draw(owner, 闪电x) } }", ["SGS-E202"]),
    ("skill s a { on damaged { drw(owner, 1) } }", ["SGS-E203"]),
    ("skill s a { on damagd { draw(owner, 1) } }", ["SGS-E205"]),
    ("skill s a { on damaged where event.victim == owner { } }", ["SGS-E206"]),
    ("skill s a { on damaged where owner.hpp > 1 { } }", ["SGS-E207"]),
    ("skill s a lockd { }", ["SGS-E208"]),
    ("general 张飞 zhangfei : 蜀 male 4 { has paoxiao }", ["SGS-E202"]),
    ("skill s a { on damaged where event.card is sha { } }", ["SGS-E202"]),  # `is` needs the name, not the id
    # arguments and types
    ("skill s a { on damaged { draw(owner) } }", ["SGS-E204"]),
    ("skill s a { on damaged { draw(owner, 1, 2) } }", ["SGS-E204"]),
    ("skill s a { on damaged { draw(owner, n: 1, count: 2) } }", ["SGS-E204"]),
    ("skill s a { on damaged { draw(event.card, 1) } }", ["SGS-E301"]),
    ("skill s a { on damaged { draw(others(owner), 1) } }", ["SGS-E301"]),
    ("skill s a { on damaged { draw(owner, true) } }", ["SGS-E301"]),
    ("skill s a { on damaged { respond(owner, event.card) } }", ["SGS-E301"]),
    ("skill s a { on damaged where event.target == ♠ { } }", ["SGS-E305"]),
    ("skill s a { on damaged where event.card == 杀 { } }", ["SGS-E305"]),
    ("skill s a { on damaged where event.card.color == ♥ { } }", ["SGS-E305"]),
    ("skill s a { on damaged where owner < 2 { } }", ["SGS-E305"]),
    ("skill s a { on damaged where owner in 2 { } }", ["SGS-E305"]),
    ("skill s a { on damaged { draw(owner, owner.hp + owner) } }", ["SGS-E305"]),
    ("skill s a { on damaged where owner is 杀 { } }", ["SGS-E306"]),
    ("skill s a { on damaged where event.card.suit is 杀 { } }", ["SGS-E306"]),
    ("skill s a { on damaged { for p in 3 { } } }", ["SGS-E305"]),
    ("value v(p: playr) = 1", ["SGS-E212"]),
    ("value distance(a: player) = 1", ["SGS-E304"]),
    ("value draw(a: player) = 1", ["SGS-E201"]),
    # effects where they may not be
    ("skill s a { on damaged { event.target = owner } }", ["SGS-E302"]),
    ("skill s a { on damaged { event.amount = owner } }", ["SGS-E301"]),
    ("skill s a { on damaged { owner.hp = 1 } }", ["SGS-E302"]),
    ("skill s a { on damaged where draw(owner, 1) == [] { } }", ["SGS-E303"]),
    ("skill s a { active where draw(owner, 1) == [] { } }", ["SGS-E303"]),
    ("skill s a locked { modify hand_limit(p) by draw(p, 1) }", ["SGS-E303", "SGS-E301"]),
    ("value v(p: player) = damage(p, 1)", ["SGS-E303"]),
    ("skill s a { on turn_start { cancel(event) } }", ["SGS-E307"]),
    # a condition on a card: checked with the card as `it`, a condition (no actions), true or false
    ("skill s a { on damaged { let k = ♥\n judge(owner, hoping: it.suit == k and owner.hp > 1) } }", []),
    ("skill s a { on damaged { judge(owner, none, it.color == red) } }", []),
    ("skill s a { on damaged { judge(owner, hoping: it.suit) } }", ["SGS-E301"]),
    ("skill s a { on damaged { judge(owner, hoping: count(draw(owner, 1)) > 0) } }", ["SGS-E303"]),
    ("skill s a { on damaged { judge(owner, hoping: it.colour == red) } }", ["SGS-E207"]),
    # (`it` is unknown past the condition)
    ("skill s a { on damaged { judge(owner, hoping: it.suit == ♥)\n draw(it, 1) } }", ["SGS-E202"]),
    ("skill s a { on damaged { break } }", ["SGS-E210"]),
    ("skill s a { on damaged { repeat 2 { break } } }", []),
    # never fires
    ("skill s a { on damaged where false { } }", ["SGS-W403"]),
    ("card 酒 jiu : basic { copies ♠3 }\nskill s a { view_as 酒 from 1 card }", ["SGS-W404"]),
    ("card 酒 jiu : basic { copies ♠3 }\nskill s a { provide 酒 { supply(酒) } }\n"
     "skill t b { on damaged { respond(owner, 酒) } }", []),
    ("card 酒 jiu : basic { }", ["SGS-W401"]),
]


@pytest.mark.parametrize(("src", "expected"), CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_checker_cases(src: str, expected: list[str]) -> None:
    assert sorted(codes(src)) == sorted(expected)


def test_lord_skill_without_a_leader_never_fires() -> None:
    src = ("mode 单挑 duel { players 2..2  roles 2 { a b }  win a when count(players()) == 1 }\n"
           "general 刘备 liubei : 蜀 male 4 { skill 激将 jijiang leader { on turn_start { draw(owner, 1) } } }\n")
    assert codes(src, prelude=False) == ["SGS-W402"]
    # with a leader somewhere in the program the skill can fire
    assert codes(src.replace("roles 2 { a b }", "roles 2 { a b }  leader a"), prelude=False) == []


def test_names_are_annotated_for_the_interpreter() -> None:
    body = ("let n = 2  draw(owner, n)  respond(owner, 闪)  set_general(owner, 关羽)  let r = lord  let c = red  "
            "let k = count(players())")
    module, _ = parse_text(PRELUDE + "skill s a { on damaged where event.card is 杀 { " + body + " } }", "t.sgs")
    assert module is not None
    assert check([module]).ok
    refs: dict[str, object] = {}
    calls: dict[str, object] = {}

    def walk(node: object) -> None:
        if isinstance(node, ast.Name):
            refs[node.ident] = node.ref
        if isinstance(node, ast.Call):
            calls[node.func.text] = node.ref
        if isinstance(node, list | tuple):
            for x in node:
                walk(x)
        elif isinstance(node, ast.Node):
            for v in vars(node).values():
                walk(v)

    walk(module.skills)
    assert refs["event"] == ("local", "event") and refs["n"] == ("local", "n")
    assert refs["闪"] == ("card", "闪") and refs["关羽"] == ("general", "guanyu")
    assert refs["lord"] == ("const", "lord") and refs["red"] == ("const", "red")
    assert calls["draw"] == "action" and calls["count"] == "function"


def test_chinese_near_misses() -> None:
    assert did_you_mean("闪电x", ["闪电", "闪", "杀"]) == "闪电"
    assert did_you_mean("无懈可鸡", ["无懈可击", "无中生有"]) == "无懈可击"
    assert did_you_mean("x", ["a", "b"]) is None
    assert did_you_mean("damagd", reg.TIMINGS) == "damaged"


def test_tables_come_from_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A primitive or timing added to the registry is known to the checker with no other edit."""
    monkeypatch.setitem(reg.PRIMITIVES, "shout", reg.Primitive("shout", "action", reg._params("player:player"),
                                                                "none", lambda f, p: None, "test"))
    monkeypatch.setitem(reg.TIMINGS, "shouted", reg.Timing("shouted", {"who": "player"}, frozenset(), False, ""))
    assert codes("skill s a { on shouted where event.who == owner { shout(owner) } }") == []
    assert codes("skill s a { on shouted { shout(event.who.hp) } }") == ["SGS-E301"]


def test_type_helpers() -> None:
    assert assignable("cards", "card") and assignable("list", "players") and assignable("family", "str")
    assert not assignable("player", "card") and not assignable("int", "bool")
    assert assignable("player", None) and assignable("some_future_type", "card")
    assert comparable("role", "str") and not comparable("color", "suit") and comparable("player", "none")
    assert {"player", "card", "int", "cards"} <= registry_types()


def test_a_declared_kingdom_is_a_name_rules_may_use(tmp_path: Path) -> None:
    """`kingdom 神` makes 神 a kingdom name although no general has it; in an imported file it counts for the
    importer too; it may not take the name of a card, general, skill or role (SGS-E219)."""
    use = ("general 左慈 zuoci : 群 male 3 { skill 化 hua {\n"
           "  on turn_start where owner.kingdom != 神 { set_kingdom(owner, 神) } } }\n")
    assert "SGS-E202" in codes(use)
    assert codes("kingdom 神 晋 群 蜀\n" + use) == []
    assert "SGS-E234" in codes("kingdom 神 晋\n" + use)  # declared kingdoms: 左慈's 群 is not one
    assert codes("kingdom 蜀 闪\n") == ["SGS-E219"]
    assert codes("kingdom 蜀 关羽\n") == ["SGS-E219"]
    assert codes("kingdom 蜀 rebel\n") == ["SGS-E219"]
    assert codes("kingdom 蜀 神\nkingdom 神\n") == []  # twice, or a general's own: harmless
    (tmp_path / "kingdoms.sgs").write_text("kingdom 神 蜀 群\n", encoding="utf-8")
    (tmp_path / "user.sgs").write_text('import "kingdoms.sgs"\n' + PRELUDE + use, encoding="utf-8")
    loaded = check_each([str(tmp_path / "user.sgs")])
    assert loaded.ok, [str(d) for d in loaded.diagnostics]


@pytest.mark.parametrize(("expr", "want"), [
    ("first(players())", "player"), ("choose(current(), hand(current()))", "card"),
    ("random_pick(1..3)", "int"), ("first([1, 2])", None),
    ("minus(players(), [current()])", "players"), ("without(hand(current()), none)", "cards"),
    ("choose_many(current(), items: hand(current()))", "cards"), ("first(mark_value(none, \"x\"))", None),
])
def test_a_call_gives_the_element_type_of_its_list(tmp_path, expr: str, want: str | None) -> None:
    """`first`, `choose`, `random_pick` give an element of their list; `minus`, `without`, `choose_many` a list of
    its kind: so a card passed where a player goes is an error at check time (SGS-E301)."""
    from sgsdsl.api import check_paths

    wrong = {"player": "draw(current(), x)", "card": "draw(x, 1)", "int": "draw(current(), x) draw(x)",
             "players": "draw(x, 1)", "cards": "draw(x, 1)"}
    body = f"let x = {expr} " + (wrong[want] if want else "draw(x, 1)")
    path = tmp_path / "t.sgs"
    path.write_text(f'import "{(Path(__file__).parent / "fixtures" / "mini.sgs").as_posix()}"\n'
                    f"rule 测 t {{ on turn_start {{ {body} }} }}\n", encoding="utf-8")
    codes = [d.code for d in check_paths([str(path)]).diagnostics if d.severity == "error"]
    assert (want is not None) == ("SGS-E301" in codes), (expr, codes)
