"""Linking: a compiled module holds only its own file's code and imports the compiled modules of what it imports,
in `generated/` and in the designer cache alike."""

from __future__ import annotations

import importlib
import importlib.util
import re
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.cli import main
from sgsdsl.compiler import cache
from sgsdsl.compiler.crosscheck import GameSpec, compare

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini.sgs"
CLASS = re.compile(r"^class (\w+):", re.M)


def _classes(text: str) -> set[str]:
    return set(CLASS.findall(text))


def test_bundled_modules_hold_only_their_own_classes() -> None:
    standard = (ROOT / "generated" / "standard.py").read_text(encoding="utf-8")
    lin = (ROOT / "generated" / "lin.py").read_text(encoding="utf-8")
    assert "Card_sha" in _classes(standard)
    assert not _classes(standard) & _classes(lin)  # no class repeated
    assert "from . import standard as _L_standard" in lin and "from . import junzheng as _L_junzheng" in lin
    assert "_L_standard.Card_sha.effect" in lin


def test_compiling_one_file_writes_the_modules_it_links_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(MINI, tmp_path / "mini.sgs")
    (tmp_path / "more.sgs").write_text('import "mini.sgs"\n', encoding="utf-8")
    res = CliRunner().invoke(main, ["compile", "more.sgs", "-o", "out"])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in (tmp_path / "out").glob("*.py")) == ["__init__.py", "mini.py", "more.py"]
    more = (tmp_path / "out" / "more.py").read_text(encoding="utf-8")
    assert "from . import mini as _L_mini" in more and not _classes(more)
    check = CliRunner().invoke(main, ["compile", "more.sgs", "-o", "out", "--check"])
    assert check.exit_code == 0, check.output


def test_a_stale_linked_module_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module is only run with the very linked module it was compiled against (`_rt.linked`)."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(MINI, tmp_path / "mini.sgs")
    (tmp_path / "more.sgs").write_text('import "mini.sgs"\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["compile", "more.sgs", "-o", "out"]).exit_code == 0
    (tmp_path / "mini.sgs").write_text(MINI.read_text(encoding="utf-8").replace("copies ♥5", "copies ♥5 ♦K"),
                                       encoding="utf-8")
    assert CliRunner().invoke(main, ["compile", "mini.sgs", "-o", "new"]).exit_code == 0
    shutil.copy(tmp_path / "new" / "mini.py", tmp_path / "out" / "mini.py")  # more.py left as it was

    spec = importlib.util.spec_from_file_location("linktest_pkg", tmp_path / "out" / "__init__.py",
                                                  submodule_search_locations=[str(tmp_path / "out")])
    assert spec is not None and spec.loader is not None
    pkg = importlib.util.module_from_spec(spec)
    sys.modules["linktest_pkg"] = pkg
    try:
        spec.loader.exec_module(pkg)
        with pytest.raises(ImportError, match="out of date"):
            importlib.import_module("linktest_pkg.more")
    finally:
        for name in [n for n in sys.modules if n.startswith("linktest_pkg")]:
            del sys.modules[name]


def test_a_designer_module_links_to_the_bundled_modules_and_plays_the_same_games(tmp_path: Path) -> None:
    rules = tmp_path / "mine.sgs"
    rules.write_text(f'import "{ROOT / "rules" / "lin.sgs"}"\n\n'
                     "general 测试 ceshi : 魏 male 4 {\n  skill 测 ce {\n"
                     "    on damaged where event.target == owner optional {\n      draw(owner, 2)\n    }\n  }\n}\n",
                     encoding="utf-8")
    loaded = check_paths([str(rules)])
    assert loaded.ok, loaded.diagnostics
    mod = cache.compiled_module(loaded)
    text = Path(mod.__file__ or "").read_text(encoding="utf-8")
    assert "from . import lin as _L_lin" in text and "from . import standard as _L_standard" in text
    assert _classes(text) == {"General_ceshi", "Skill_ceshi__ce"}  # its own code only
    assert mod._L_standard is cache.bundled_module(mod._L_standard.SOURCE_KEY)
    compiled = mod.build_program()
    interpreted = interpreted_program(loaded)
    for seed in range(3):
        spec = GameSpec(str(rules), "identity", 5, seed, generals=("ceshi",))
        problem, _ = compare(spec, compiled, interpreted)
        assert problem is None, problem
