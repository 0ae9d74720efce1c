"""Injection safety: hostile names and strings compile to code that parses, imports, runs, and does only
what the rules say — every string stays a constant, every identifier is a mangled ASCII name."""

from __future__ import annotations

import ast as pyast
import importlib.util
from pathlib import Path

import pytest

from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler import rt
from sgsdsl.compiler.codegen import generate_module
from sgsdsl.compiler.names import mangle
from sgsdsl.engine import runtime as ert
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.errors import RuleError
from sgsdsl.engine.game import Game
from sgsdsl.engine.program import Program

HOSTILE_STRINGS = [
    r'\"\"\"; import os #',
    r"'''; __import__('os').system('echo pwned') #",
    r"__import__('os').system('echo pwned')",
    r"back\\slash \\\\ \\n and a real\nnewline",
    r"\" + str(exec('1')) + \"",
    r"} { ] [ ) ( # // /* */",
]
LONG = "甲" * 10_000
LONG_ID = "g" * 10_000


def hostile_source() -> str:
    logs = "\n    ".join(f'log("{s}")' for s in HOSTILE_STRINGS)
    return f'''
card 杀 sha : basic {{ copies ♠7 ♠8 ♠9 ♠10 ♥10 ♥J ♣2 ♣3 ♣4 ♣5 ♦6 ♦7 ♦8 ♦9 ♦10 ♠2 ♠3 ♠4 ♠5 ♠6 }}
general __import__ exec : 魏 male 4 {{
  skill ｅｖａｌ __class__ {{ on turn_start where event.player == owner {{
      let ｅｘｅｃ = "{HOSTILE_STRINGS[1]}"
      let exec = ｅｘｅｃ
      let {LONG} = exec
      log({LONG})
  }} }}
}}
general {LONG} {LONG_ID} : 蜀 female 3 {{ }}
mode 测试 hostile {{
  players 2..2
  option __import__ = "{HOSTILE_STRINGS[2]}"
  roles 2 {{ lord rebel }}
  leader lord
  setup {{
    deal_roles()
    for p in players() {{ set_general(p, first(random_generals(1))) }}
    {logs}
    log(__import__)
    for p in players() {{ draw(p, 2) }}
  }}
  win lord when count(alive_with_role(rebel)) == 0
  win rebel when count(alive_with_role(lord)) == 0
}}
'''


def compile_text(tmp_path: Path, text: str, name: str = "hostile.sgs"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    loaded = check_paths([str(path)])
    errors = [d for d in loaded.diagnostics if d.severity == "error"]
    assert not errors, [f"{d.span.line}: {d.message}" for d in errors]
    return loaded, generate_module(loaded.checked, loaded.sources)


def import_text(tmp_path: Path, text: str, name: str = "hostile_gen"):
    path = tmp_path / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ALLOWED_IMPORTS = {("sgsdsl.compiler", "rt"), ("sgsdsl.engine", "program"), ("sgsdsl.engine", "runtime"),
                   ("sgsdsl.engine.errors", "BreakLoop"), ("sgsdsl.engine.errors", "StopEffect")}
ALLOWED_BUILTINS = {"list", "min", "int", "range", "Exception", "staticmethod", "frozenset"}
CLASS_ATTRS = {"ident", "name", "source", "skills"}
FORBIDDEN = {"eval", "exec", "__import__", "compile", "open", "getattr", "setattr", "globals", "locals", "os",
             "sys", "subprocess", "__builtins__", "vars", "input", "breakpoint"}


def assert_only_rules_code(text: str) -> pyast.Module:
    """Walk the generated module: imports, names, attributes and calls are all the generator's own."""
    tree = pyast.parse(text)
    classes = {n.name for n in tree.body if isinstance(n, pyast.ClassDef)}
    methods = {m.name for c in tree.body if isinstance(c, pyast.ClassDef) for m in c.body
               if isinstance(m, pyast.FunctionDef)}
    module_attrs = set(dir(rt)) | set(dir(ert)) | set(dir(__import__("sgsdsl.engine.program").engine.program))
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Import):
            raise AssertionError(f"plain import in generated code: {pyast.unparse(node)}")
        if isinstance(node, pyast.ImportFrom):
            for a in node.names:
                assert (node.module, a.name) in ALLOWED_IMPORTS, pyast.unparse(node)
        if isinstance(node, (pyast.Lambda, pyast.AsyncFunctionDef, pyast.Await, pyast.Yield, pyast.Delete,
                             pyast.With, pyast.Nonlocal)):
            raise AssertionError(f"unexpected construct {type(node).__name__}")
        if isinstance(node, pyast.Name):
            ident = node.id
            assert ident not in FORBIDDEN, ident
            assert ident.isascii(), ident
            ok = (ident in ALLOWED_BUILTINS or ident in classes or ident in CLASS_ATTRS
                  or ident in {"frame", "program", "build_program"}
                  or ident.startswith(("_", "v_")) or ident.isupper() or ident == "__sgsdsl_generated__")
            assert ok, f"unexpected name {ident!r}"
            assert len(ident) < 120, ident[:80]
        if isinstance(node, pyast.Attribute):
            assert node.attr in methods or node.attr in module_attrs or node.attr in {
                "vars", "game", "value", "options", "get", "MAX_LOOP"}, f"unexpected attribute {node.attr!r}"
        if isinstance(node, pyast.FunctionDef):
            assert node.name.isascii() and node.name.isidentifier()
        if isinstance(node, pyast.Global):
            assert node.names == ["_PROGRAM"]
    return tree


def test_hostile_program_parses_imports_and_contains_only_rules(tmp_path: Path) -> None:
    loaded, gen = compile_text(tmp_path, hostile_source())
    assert gen.ok, gen.diagnostics
    tree = assert_only_rules_code(gen.text)
    consts = {n.value for n in pyast.walk(tree) if isinstance(n, pyast.Constant) and isinstance(n.value, str)}
    expected = [lit.value for lit in _string_literals(loaded)]  # as the front end decoded them
    assert len(expected) >= len(HOSTILE_STRINGS)
    for value in expected:  # every hostile string is still exactly one data constant
        assert value in consts
    assert LONG in consts and "__import__" in consts
    mod = import_text(tmp_path, gen.text)
    program = mod.build_program()
    assert isinstance(program, Program)
    assert program.generals["exec"].name == "__import__"
    assert program.modes["hostile"].options == {"__import__": "__import__('os').system('echo pwned')"}
    interp = interpreted_program(loaded)
    logs = []
    for prog in (program, interp):  # the strings reach the game log as data, identically
        g = Game(prog, "hostile", 2, 7, [RandomAgent(1), RandomAgent(2)], round_cap=3, record=True).run()
        logs.append(g.log)
    assert logs[0] == logs[1]
    notes = [e["text"] for e in logs[0] if e.get("e") == "log"]
    for value in expected:
        assert value in notes or value == pyast.literal_eval(repr(value))


def _string_literals(loaded):
    from sgsdsl.lang import ast as sgs_ast

    out = []
    stack: list = list(loaded.checked.modules)
    while stack:
        node = stack.pop()
        if isinstance(node, sgs_ast.Lit) and node.kind == "str":
            out.append(node)
        elif isinstance(node, list | tuple):
            stack.extend(node)
        elif hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__)
    return out


def test_output_is_deterministic_and_mangled_names_are_bounded(tmp_path: Path) -> None:
    _, a = compile_text(tmp_path, hostile_source())
    _, b = compile_text(tmp_path, hostile_source())
    assert a.text == b.text
    assert len(mangle(LONG)) <= 60 and mangle(LONG).isascii()
    assert mangle("ｅｘｅｃ") != mangle("exec")  # NFKC would merge them as Python identifiers; mangling does not


def test_names_that_mangle_alike_are_a_diagnostic_pointing_at_both(tmp_path: Path) -> None:
    text = '''
general 甲 a__b : 魏 male 4 { skill 乙 c { on turn_start { log("x") } } }
general 丙 a : 魏 male 4 { skill 丁 b__c { on turn_start { log("y") } } }
general 戊 e : 魏 male 4 { skill 己 f { on turn_start { let _x4f24_ = "a"  let 伤 = "b"  log(伤) } } }
'''
    _, gen = compile_text(tmp_path, text)
    codes = [d for d in gen.diagnostics if d.code == "SGS-E501"]
    assert len(codes) == 2, gen.diagnostics
    by_msg = {d.message: d for d in codes}
    cls = next(d for m, d in by_msg.items() if "a__b__c" in m)
    loc = next(d for m, d in by_msg.items() if "伤" in m)
    assert cls.notes and cls.notes[0][1].line != cls.span.line  # points at both definitions
    assert loc.notes and loc.span.line == 4 and loc.notes[0][1].line == 4
    assert loc.notes[0][1].col != loc.span.col


def test_file_names_cannot_escape_comments(tmp_path: Path) -> None:
    name = 'evil"""\'\'\'\nimport os #\\.sgs'
    loaded, gen = compile_text(tmp_path, 'card 杀 sha : basic { copies ♠7 effect { log("x") } }', name)
    assert gen.ok
    assert_only_rules_code(gen.text)
    assert "\nimport os" not in gen.text


def test_runtime_error_names_the_sgs_line(tmp_path: Path) -> None:
    text = '''mode 测试 m {
  players 2..2
  option o = "text"
  roles 2 { lord rebel }
  setup {
    deal_roles()
    let x = -o
  }
  win lord when false
}
'''
    # a runtime helper names the expression's column; a Python error is located at its statement's
    cases = (("-o", "'-' needs a number, not text", 13), ("o < 3", "TypeError: '<' not supported", 5))
    for expr, message, col in cases:
        loaded, gen = compile_text(tmp_path, text.replace("-o", expr), "boom.sgs")
        mod = import_text(tmp_path, gen.text, "boom_gen")
        errors = []
        for prog in (mod.build_program(), interpreted_program(loaded)):  # both engines: the same located error
            with pytest.raises(RuleError) as err:
                Game(prog, "m", 2, 1, [RandomAgent(1), RandomAgent(2)], record=True).run()
            assert str(err.value).startswith(f"{loaded.checked.modules[0].path}:7:{col}: {message}")
            errors.append(str(err.value))
        assert errors[0] == errors[1]


def test_engine_errors_keep_their_message_and_gain_a_location(tmp_path: Path) -> None:
    text = '''mode 测试 m {
  players 2..2
  roles 2 { lord rebel }
  setup {
    deal_roles()
    draw(none, 1)
  }
  win lord when false
}
'''
    loaded, gen = compile_text(tmp_path, text, "need.sgs")
    mod = import_text(tmp_path, gen.text, "need_gen")
    errs = []
    for prog in (mod.build_program(), interpreted_program(loaded)):
        with pytest.raises(Exception) as err:
            Game(prog, "m", 2, 1, [RandomAgent(1), RandomAgent(2)], record=True).run()
        errs.append(err.value)
    assert str(errs[0]) == str(errs[1])
    assert any(":6" in n for n in getattr(errs[0], "__notes__", []))


def test_deep_expressions_compile(tmp_path: Path) -> None:
    deep = "-(" * 94 + "1" + ")" * 94
    chain = " + ".join(["1"] * 150)
    text = f'''mode 测试 m {{
  players 2..2
  roles 2 {{ lord rebel }}
  setup {{ deal_roles()  let a = {deep}  let b = {chain}  if a + b == 151 {{ log("151") }} }}
  win lord when true
}}
'''
    loaded, gen = compile_text(tmp_path, text, "deep.sgs")
    assert gen.ok
    assert "def _h1():" in gen.text  # deep parts became local helpers
    mod = import_text(tmp_path, gen.text, "deep_gen")
    logs = []
    for prog in (mod.build_program(), interpreted_program(loaded)):
        logs.append(Game(prog, "m", 2, 1, [RandomAgent(1), RandomAgent(2)], record=True).run().log)
    assert logs[0] == logs[1]
    assert any(e.get("text") == "151" for e in logs[0])


@pytest.mark.parametrize("value", [0, 1, -1, "", "x", [], [0], (), (1,), None, True, False, range(0), range(2), {}])
def test_truthy_is_python_truth(value: object) -> None:
    """Generated tests use Python truth directly; this pins `runtime.truthy` to it."""
    assert ert.truthy(value) is bool(value)


def test_deeply_nested_blocks_compile_and_match(tmp_path: Path) -> None:
    """Python caps nested loops (20 blocks) and indentation (100); deep rules still compile and agree."""
    loops = "".join(f"for i{k} in [1, 2] {{ let n = n + 1 if n > {400 + k} {{ break }} " for k in range(30))
    ifs = "".join(f"if n > {k} {{ let m = m + 1 " for k in range(45))
    body = (f"let n = 0 let m = 0 {loops} {'}' * 30} for j in [1, 2, 3] {{ {ifs} break {'}' * 45} let m = m + 1 }} "
            'repeat 3 { while m < 1000 { let m = m + 7 if m > 500 { break } } } '
            'repeat n { log("n") } repeat m { log("m") }')
    text = f'''mode 测试 m {{
  players 2..2
  roles 2 {{ lord rebel }}
  setup {{ deal_roles() {body} }}
  win lord when true
}}
'''
    loaded, gen = compile_text(tmp_path, text, "nest.sgs")
    assert gen.ok, gen.diagnostics
    assert "nonlocal" in gen.text and "raise _BreakLoop()" in gen.text
    mod = import_text(tmp_path, gen.text, "nest_gen")
    logs = []
    for prog in (mod.build_program(), interpreted_program(loaded)):
        logs.append(Game(prog, "m", 2, 1, [RandomAgent(1), RandomAgent(2)], record=True).run().log)
    assert logs[0] == logs[1]
    counts = {k: sum(1 for e in logs[0] if e.get("text") == k) for k in ("n", "m")}
    assert counts["n"] > 30 and counts["m"] > 0, counts


def test_two_inline_skills_with_one_id_stay_two_skills(tmp_path: Path) -> None:
    text = '''
general 甲 a : 魏 male 4 { skill 乙 x { on turn_start where event.player == owner { log("one") } }
                           skill 丙 x { on turn_start where event.player == owner { log("two") } } }
card 杀 sha : basic { copies ♠7 ♠8 ♠9 ♠10 ♥10 ♥J ♣2 ♣3 ♣4 ♣5 }
mode 测试 m {
  players 2..2
  roles 2 { lord rebel }
  setup { deal_roles()  for p in players() { set_general(p, 甲) } }
  win lord when false
}
'''
    loaded, gen = compile_text(tmp_path, text, "dup.sgs")
    assert gen.ok, gen.diagnostics
    mod = import_text(tmp_path, gen.text, "dup_gen")
    logs = [Game(prog, "m", 2, 1, [RandomAgent(1), RandomAgent(2)], round_cap=2, record=True).run().log
            for prog in (mod.build_program(), interpreted_program(loaded))]
    assert logs[0] == logs[1]
    notes = [e["text"] for e in logs[0] if e.get("e") == "log"]
    assert notes.count("one") == notes.count("two") > 0
