"""Packaging: bundled rules by name, the bundled data found without a top-level `generated` module, a cache
that verifies what it runs and lives outside the user's home during tests, `python -m sgsdsl`, and (opt-in,
`pytest -m wheel`) a built wheel that installs into a fresh venv and runs from anywhere."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import MINI, ROOT
from sgsdsl import bundled
from sgsdsl.api import check_paths, program_for
from sgsdsl.cli import main
from sgsdsl.compiler import cache
from sgsdsl.lang.diagnostics import render_text

DESIGN = (ROOT / "docs" / "examples" / "maliang.sgs").read_text(encoding="utf-8")  # imports "standard"


def test_tests_never_touch_the_users_home(tmp_path: Path) -> None:
    real_home = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()
    for var in ("HOME", "SGSDSL_CACHE", "XDG_CACHE_HOME"):
        assert real_home not in Path(os.environ[var]).resolve().parents and Path(os.environ[var]) != real_home
    root = cache.cache_root().resolve()
    assert real_home not in root.parents
    design = tmp_path / "design.sgs"
    design.write_text(DESIGN, encoding="utf-8")
    cache._loaded_modules.clear()
    cache.compiled_program(check_paths([str(design)]))
    assert list(root.rglob("rules.py")), "the compile landed in the sandboxed cache"


def test_bundled_rule_sets_import_by_name_from_anywhere(tmp_path: Path) -> None:
    design = tmp_path / "deep" / "design.sgs"
    design.parent.mkdir()
    design.write_text(DESIGN, encoding="utf-8")
    loaded = check_paths([str(design)])
    assert loaded.ok, render_text(loaded.diagnostics, loaded.sources)
    assert "maliang" in program_for(loaded, "interpreted").generals
    assert {"junzheng", "standard"} <= set(bundled.rule_set_names())


def test_unknown_bundled_name_suggests_the_known_ones(tmp_path: Path) -> None:
    f = tmp_path / "a.sgs"
    f.write_text('import "standerd"\n', encoding="utf-8")
    [d] = check_paths([str(f)]).diagnostics
    assert d.code == "SGS-E107" and "'standard'" in (d.suggestion or "")


@pytest.mark.parametrize("how", ["plain", "symlink"])
def test_importing_a_file_that_is_not_a_rules_file_never_echoes_it(tmp_path: Path, how: str) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:SECRET-TOKEN:0:0\n", encoding="utf-8")
    name = "secret.txt"
    if how == "symlink":
        (tmp_path / "innocent.sgs").symlink_to(secret)
        name = "innocent.sgs"
    f = tmp_path / "a.sgs"
    f.write_text(f'import "{name}"\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(f)])
    assert r.exit_code == 1 and "SGS-E107" in r.output and "not a .sgs rules file" in r.output
    assert "SECRET" not in r.output


def test_bundled_generated_modules_load_under_an_internal_name() -> None:
    loaded = check_paths([str(bundled.rules_dir() / "standard.sgs")])
    mod = cache.compiled_module(loaded)
    assert mod.__name__ == "sgsdsl_bundled_generated.standard"
    assert "generated" not in sys.modules


def test_cache_runs_only_what_matches_its_digest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path / "cache"))
    cache._loaded_modules.clear()
    cache.compiled_program(check_paths([str(MINI)]))
    [path] = (tmp_path / "cache").rglob("rules.py")
    good = path.read_text(encoding="utf-8")
    assert oct(path.stat().st_mode & 0o777) == "0o600" and oct(path.parent.stat().st_mode & 0o777) == "0o700"
    # keep the header (digest and source lines), change the body: the file must not be run
    path.write_text(good + "\nraise SystemExit('tampered cache entry ran')\n", encoding="utf-8")
    cache._loaded_modules.clear()
    cache.compiled_program(check_paths([str(MINI)]))
    assert path.read_text(encoding="utf-8") == good  # recompiled and rewritten
    path.chmod(0o666)  # writable by others: not trusted either
    path.write_text(good + "\nraise SystemExit('world-writable entry ran')\n", encoding="utf-8")
    cache._loaded_modules.clear()
    cache.compiled_program(check_paths([str(MINI)]))
    assert path.read_text(encoding="utf-8") == good


def test_cache_clean_and_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path / "cache"))
    cache._loaded_modules.clear()
    cache.compiled_program(check_paths([str(MINI)]))
    keep = tmp_path / "cache" / "not-ours.txt"
    keep.write_text("x", encoding="utf-8")
    r = CliRunner().invoke(main, ["cache", "dir"])
    assert r.output.strip() == str(tmp_path / "cache")
    r = CliRunner().invoke(main, ["cache", "clean"])
    assert r.exit_code == 0 and "removed 1 cached module(s)" in r.output
    assert not list((tmp_path / "cache").rglob("rules.py")) and keep.exists()


def test_python_dash_m_sgsdsl(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "sgsdsl", "--help"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0 and "Usage: sgsdsl" in p.stdout and "cache" in p.stdout


@pytest.mark.wheel
def test_wheel_installs_into_a_fresh_venv_and_runs_anywhere(tmp_path: Path) -> None:
    """Builds a wheel, installs it into a new venv (dependencies from the package index), and runs it from an
    unrelated folder: `scripts/check_wheel.py` does the work and prints the transcript."""
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_wheel.py"), "--work", str(tmp_path)],
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr


def _readme_setup() -> list[str]:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from check_readme_setup import setup_commands
    finally:
        sys.path.pop(0)
    return setup_commands((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_has_two_setup_commands_and_ci_runs_the_test_one() -> None:
    """Exactly two commands, each creating and using a venv: the main job on the bundled rules, and the tests;
    `.ci/run` runs the README's test command word for word (so the two never drift apart)."""
    main_job, tests = _readme_setup()
    for cmd in (main_job, tests):
        assert cmd.startswith("python3 -m venv .venv && . .venv/bin/activate && python3 -m pip install -e ")
    assert "sgsdsl check rules/" in main_job and "sgsdsl simulate" in main_job
    assert tests.endswith("python3 -m pytest -q -n auto")
    assert tests in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.setup
def test_the_readme_setup_commands_run_verbatim_on_a_fresh_machine(tmp_path: Path) -> None:
    """Both README commands, verbatim, in a copy of the checkout with a fresh environment (no user site, HOME a
    temp folder, dependencies from the package index): `scripts/check_readme_setup.py` does the work and prints
    the transcript with each command's time."""
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_readme_setup.py"), "--work", str(tmp_path)],
                       capture_output=True, text=True)
    print(p.stdout + p.stderr)
    assert p.returncode == 0 and "README set-up: ok" in p.stdout, p.stdout + p.stderr


def test_install_hints_fit_a_checkout_and_a_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    from sgsdsl import install_hint

    assert install_hint.in_checkout()  # the tests run from the repository
    assert install_hint.install_extra("report") == "pip install -e '.[report]'"
    monkeypatch.setattr(install_hint, "in_checkout", lambda: False)  # as an installed wheel (scripts/check_wheel.py)
    assert install_hint.install_extra("report") == "pip install 'sgsdsl[report]'"
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a))
    r = CliRunner().invoke(main, ["simulate", "--games", "1", "--parquet", "x.parquet"])
    assert r.exit_code == 2 and "--parquet needs pyarrow: pip install 'sgsdsl[parquet]'" in r.output, r.output


def test_a_bundled_set_imported_as_a_file_says_to_import_it_by_name(tmp_path: Path) -> None:
    f = tmp_path / "a.sgs"
    f.write_text('import "standard.sgs"\n', encoding="utf-8")
    [d] = check_paths([str(f)]).diagnostics
    assert d.code == "SGS-E107" and d.suggestion == 'the bundled rule set is imported by name: import "standard"'
@pytest.mark.native_wheel
def test_a_wheel_runs_its_native_engine_in_a_fresh_venv(tmp_path: Path) -> None:
    """The wheel compiles the engine with mypyc while it is built (setup.py); installed into a new venv it runs
    that native engine (`sgsdsl native status`, C-extension modules) and plays the games the Python engine plays.
    `scripts/check_wheel.py --native` does the work and prints the transcript."""
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_wheel.py"), "--work", str(tmp_path), "--native"],
                       capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "engine: native (mypyc): compiled with mypyc when the package was installed" in p.stdout
    from sgsdsl import native

    if sys.platform.startswith("linux") and native._gcc():  # trained in the isolated build environment too
        assert "(profile-guided: compiled again with what seeded games measured)" in p.stdout
    assert "the same games on both engines" in p.stdout
