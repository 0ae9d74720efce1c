"""Collect every `tests/scenarios/**/*.scenario` file as a test item (pending/ only with --pending)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw new examples on every local run (how the generated-program test found the generator's gap in
# SGS-E308's session), but CI (CI=true) replays the same examples, derived from each test's name: its verdict is
# then the change's, never the draw's, and a latent bug a draw might hit cannot turn an unrelated change red. The
# long runs (`-m fuzz`, scripts/) explore further.
settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile("ci" if os.environ.get("CI") else "explore")

SCENARIOS = Path(__file__).parent / "scenarios"

# Tests never touch the user's home: the compile cache, XDG folders and HOME itself point into one
# temporary folder for the whole run (subprocesses inherit it). test_packaging.py proves it.
_SANDBOX_HOME = Path(tempfile.mkdtemp(prefix="sgsdsl-test-home-"))
REAL_HOME = os.environ.get("HOME", "")
os.environ.update({
    "HOME": str(_SANDBOX_HOME),
    "SGSDSL_CACHE": str(_SANDBOX_HOME / "sgsdsl-cache"),
    "XDG_CACHE_HOME": str(_SANDBOX_HOME / ".cache"),
    "XDG_CONFIG_HOME": str(_SANDBOX_HOME / ".config"),
    "XDG_DATA_HOME": str(_SANDBOX_HOME / ".local" / "share"),
})
# The suite runs the Python engine, the reference, even where the install built the native one (setup.py):
# SGSDSL_NATIVE=1 runs it on the native build instead; tests/test_native.py compares the two either way.
os.environ.setdefault("SGSDSL_NATIVE", "0")


def pytest_configure(config: pytest.Config) -> None:
    """SGSDSL_NATIVE=1 must run the native build, never fall back to the Python engine in silence: the suite's
    cache is the sandbox above, so only the package's own build (made by `pip install -e .`) can serve it, and a
    build made for older engine sources is not used."""
    if os.environ.get("SGSDSL_NATIVE") != "1":
        return
    import sgsdsl.ai.heuristic  # noqa: F401 - the imports make the choice (sgsdsl/native.py) and load the modules
    import sgsdsl.engine.game  # noqa: F401
    from sgsdsl import native

    if not native.active():
        pytest.exit(f"SGSDSL_NATIVE=1, but the native build does not run here: {native.in_use().why}. The suite "
                    "sandboxes the cache, so only the package's build counts: run `pip install -e .` to remake it",
                    returncode=4)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_SANDBOX_HOME, ignore_errors=True)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--pending", action="store_true", default=False,
                     help="also run tests/scenarios/pending (scenarios that state rulings the rules still break)")


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix != ".scenario":
        return None
    try:
        rel = file_path.relative_to(SCENARIOS)
    except ValueError:
        return None
    if "pending" in rel.parts[:-1] and not parent.config.getoption("--pending"):
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


class ScenarioFile(pytest.File):
    """One .scenario file holds one scenario: one test item."""

    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    """Runs the scenario; a failure shows the same report as `sgsdsl test`."""

    def runtest(self) -> None:
        from sgsdsl.lang.diagnostics import render_text
        from sgsdsl.scenario import ScenarioError, report, run_file

        try:
            out = run_file(self.path)
        except ScenarioError as err:
            raise ScenarioFailed("malformed scenario:\n" + render_text(err.diagnostics, err.sources)) from None
        if not out.passed:
            raise ScenarioFailed(f"{out.scenario.title}\n{report(out)}")

    def repr_failure(self, excinfo, style=None):  # type: ignore[override]
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.path.name}"
