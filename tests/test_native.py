"""The native engine (issue 15): `sgsdsl native build` compiles the engine's hot modules with mypyc; with the
build in place the same seeded games come out byte for byte (logs, state hashes, results; both back ends, random
and heuristic agents, several modes), every scenario still passes, and a stale or switched-off build is not used.

One build (about a minute on two cores) serves the whole module; it lives in a temporary cache folder."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sgsdsl import native

ROOT = Path(__file__).resolve().parent.parent

# plays seeded games and prints one digest of everything they recorded, and whether the engine ran native
FINGERPRINT = r"""
import hashlib, json, sys
from sgsdsl import native
from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.sim import play_one
h = hashlib.sha256()
for rules, mode, players, agents in (("rules/standard.sgs", "identity", 8, ("random",)),
                                     ("rules/standard.sgs", "identity", 5, ("heuristic", "random")),
                                     ("rules/shan.sgs", "identity", 6, ("heuristic",)),
                                     ("rules/3v3.sgs", "three_v_three", 6, ("random",)),
                                     ("rules/tongzhou.sgs", "tongzhou", 8, ("heuristic", "random"))):
    loaded = check_paths([rules])
    for program in (compiled_program(loaded), interpreted_program(loaded)):
        for seed in range(int(sys.argv[1])):
            g = play_one(program, mode, players, seed, record=True, agents=agents)
            h.update(json.dumps([g.result, g.log, g.hashes], sort_keys=True, default=str).encode())
import sgsdsl.ai.beliefs, sgsdsl.ai.heuristic
agents_native = not any(m.__file__.endswith(".py") for m in (sgsdsl.ai.beliefs, sgsdsl.ai.heuristic))
print(native.active() and agents_native, h.hexdigest())
"""


def _env(cache: Path, **more: str) -> dict[str, str]:
    # (the suite runs the Python engine, tests/conftest.py: these children use a build unless told SGSDSL_NATIVE=0)
    return {**os.environ, "SGSDSL_CACHE": str(cache), "PYTHONPATH": str(ROOT), "SGSDSL_NATIVE": "1", **more}


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("mypyc") is None:
        pytest.fail("mypy (with mypyc) is a test dependency: pip install -e '.[test]'")
    cache = tmp_path_factory.mktemp("native-cache")
    done = _run([sys.executable, "-m", "sgsdsl", "native", "build"], _env(cache))
    assert done.returncode == 0, done.stdout + done.stderr
    return cache


def test_the_native_engine_plays_the_same_games(built: Path) -> None:
    fast = _run([sys.executable, "-c", FINGERPRINT, "4"], _env(built))
    slow = _run([sys.executable, "-c", FINGERPRINT, "4"], _env(built, SGSDSL_NATIVE="0"))
    assert fast.returncode == 0 and slow.returncode == 0, fast.stderr + slow.stderr
    assert fast.stdout.split()[0] == "True" and slow.stdout.split()[0] == "False"
    assert fast.stdout.split()[1] == slow.stdout.split()[1]


# plays seeded heuristic games with the collector saving what it frees, and prints the kinds of garbage found that
# a decision made: a compiled nested function's environment (it and its function hold each other), a request, a view
GARBAGE = r"""
import gc
from sgsdsl import native
from sgsdsl.api import check_paths
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.engine import collector
from sgsdsl.sim import play_one
program = compiled_program(check_paths(["rules/standard.sgs"]))
play_one(program, "identity", 8, 1, agents=("heuristic",))
collector.settle()
gc.set_debug(gc.DEBUG_SAVEALL)
for players in (5, 8):
    for seed in range(2, 8):
        play_one(program, "identity", players, seed, agents=("heuristic",))
gc.collect()
kinds = sorted({type(o).__name__ for o in gc.garbage})
made = [k for k in kinds if k.endswith("_env") or k in ("Request", "SeatView")]
print(native.active(), len(gc.garbage), " ".join(made) or "-")
"""


def test_decisions_leave_no_garbage_cycles_on_the_native_engine(built: Path) -> None:
    """A finished game is one cycle, freed by the collector between games (engine/collector.py); nothing a decision
    makes should outlive it so. Compiled, a nested function and its environment hold each other: the agent's ranking
    of seats was one, and every choice of characters kept its view and request alive until the collector came
    (about 1,800 of a game's 2,900 objects freed so)."""
    done = _run([sys.executable, "-c", GARBAGE], _env(built))
    assert done.returncode == 0, done.stderr
    active, count, made = done.stdout.split()
    assert active == "True" and int(count) > 0
    assert made == "-", f"garbage cycles made by decisions: {made}"


def test_every_scenario_passes_on_the_native_engine(built: Path) -> None:
    done = _run([sys.executable, "-m", "sgsdsl", "test", "tests/scenarios"], _env(built))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    status = _run([sys.executable, "-m", "sgsdsl", "native", "status"], _env(built))
    assert status.stdout.startswith("engine: native (mypyc): compiled with mypyc"), status.stdout
    assert "agents (role belief, heuristic agent): compiled with it" in status.stdout
    if sys.platform.startswith("linux") and native._gcc():  # GCC: the build is trained on seeded games first
        assert "(profile-guided: compiled again with what seeded games measured)" in status.stdout, status.stdout


def test_a_stale_build_is_not_used(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SGSDSL_CACHE", str(built))
    folder, present = native.status()
    assert present
    monkeypatch.setattr(native, "engine_digest", lambda: "0" * 64)  # the engine's sources changed since
    assert native.status()[1] is False
    assert native.activate([], "engine") is False


def test_an_untrusted_build_is_not_used(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SGSDSL_CACHE", str(built))
    folder, _ = native.status()
    library = next(folder.glob("*.so"))
    library.chmod(0o777)
    try:
        assert native.status()[1] is False
        probe = _run([sys.executable, "-c", "from sgsdsl import native; import sgsdsl.engine.game; "
                      "print(native.in_use().folder)"], _env(built))
        assert probe.returncode == 0 and probe.stdout.strip() != str(folder), probe.stderr  # the package's, or none
    finally:
        library.chmod(0o700)
    assert native.status()[1] is True


def test_status_says_which_engine_runs_and_why(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SGSDSL_NATIVE", raising=False)
    monkeypatch.setattr(native, "PACKAGED", tmp_path / "no-build")  # a package installed without one
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path))
    none = native.choose()
    assert not none.native and "installed without a native build" in none.why and "sgsdsl native build" in none.why
    monkeypatch.setenv("SGSDSL_CACHE", str(built))
    cached = native.choose()
    assert cached.native and cached.folder == native.status()[0] and "sgsdsl native build" in cached.why
    monkeypatch.setenv("SGSDSL_NATIVE", "0")
    assert native.choose() == native.Choice(False, None, "switched off by SGSDSL_NATIVE=0")


def test_the_build_made_with_the_package_comes_first(built: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """setup.py puts a build into sgsdsl/_native/ (`build_into`); it is used before the cache's, whoever owns it,
    while it is for these engine sources and nobody else may write it."""
    monkeypatch.delenv("SGSDSL_NATIVE", raising=False)
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path))  # no cache build
    folder = built / "native" / native.build_dir().name
    monkeypatch.setattr(native, "PACKAGED", folder)
    chosen = native.choose()
    assert chosen == native.Choice(True, folder, "compiled with mypyc when the package was installed")
    manifest = folder / native.MANIFEST
    manifest.chmod(0o666)
    try:
        assert not native.choose().native
    finally:
        manifest.chmod(0o600)
    monkeypatch.setattr(native, "engine_digest", lambda: "0" * 64)  # the engine edited since the install
    stale = native.choose()
    assert not stale.native and "for other engine sources" in stale.why


def test_without_mypyc_the_build_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SGSDSL_CACHE", str(tmp_path))
    real = native.importlib.util.find_spec
    monkeypatch.setattr(native.importlib.util, "find_spec", lambda name, *a: None if name == "mypyc" else real(name))
    from sgsdsl.install_hint import install_extra

    with pytest.raises(native.NativeBuildError, match=re.escape(install_extra("native"))):  # the checkout's hint
        native.build()
    assert not (tmp_path / "native").exists() or not any((tmp_path / "native").iterdir())


def test_sources_edited_during_a_build_install_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build takes minutes and mypyc reads the files only when it gets to them: an edit made meanwhile would be
    compiled under the digest of the sources as they were, and that build would then load (and fail, or play other
    games) wherever those sources are. The build checks the sources again before installing anything."""
    monkeypatch.setattr(native, "_guided", lambda *args: False)

    def compiled_after_an_edit(work: Path, staging: Path, flags: list[str], link: list[str], notes: list[str]) -> Path:
        staging.mkdir(parents=True)
        monkeypatch.setattr(native, "_digest_now", lambda: "1" * 64)  # an engine file edited during the compile
        return staging

    monkeypatch.setattr(native, "_compile", compiled_after_an_edit)
    folder = tmp_path / "native" / "build"
    with pytest.raises(native.NativeBuildError, match="changed while it was being built"):
        native.build_into(folder)
    assert not folder.exists()


def test_a_failed_training_leaves_the_plain_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The profile-guided build's first steps (an instrumented compile, the training games) may fail where the plain
    build works: then there is no profile, the notes say why, and build_into compiles without one."""
    monkeypatch.delenv("SGSDSL_NATIVE_PGO", raising=False)
    monkeypatch.setattr(native, "_gcc", lambda: True)
    monkeypatch.setattr(native.sys, "platform", "linux")

    def no_compiler(work: Path, staging: Path, flags: list[str], link: list[str], notes: list[str]) -> Path:
        assert flags == [f"-fprofile-generate={tmp_path / 'profile'}"]  # only the instrumented compile is tried
        raise native.NativeBuildError("unknown flag -fprofile-generate")

    monkeypatch.setattr(native, "_compile", no_compiler)
    notes: list[str] = []
    assert native._guided(tmp_path, tmp_path / "profile", notes) is False
    assert notes == ["sgsdsl: no profile-guided build: unknown flag -fprofile-generate\n"]
    monkeypatch.setenv("SGSDSL_NATIVE_PGO", "0")  # switched off: nothing is compiled for it
    monkeypatch.setattr(native, "_compile", lambda *args: pytest.fail("compiled with SGSDSL_NATIVE_PGO=0"))
    assert native._guided(tmp_path, tmp_path / "profile", []) is False


def test_the_benchmark_times_both_engines_side_by_side(built: Path) -> None:
    done = _run([sys.executable, "benchmarks/bench.py", "--players", "4", "--games", "2", "--no-startup", "--no-record",
                 "--heuristic-games", "1", "--memory-games", "1", "--eval-reps", "1", "--native", "4", "--json"],
                _env(built))
    assert done.returncode == 0, done.stderr[-3000:]
    native_figures = json.loads(done.stdout)["figures"]["native"]
    assert native_figures["same_games"] is True and native_figures["games"] == 4
    assert native_figures["native_compiled"]["games_per_s"] > 0 and native_figures["python_compiled"]["cpu_s"] > 0


NONE_CALLS = [("next_alive(event.by)", "argument 'player' of next_alive() is none"),  # a primitive
              ("distance(current(), event.by)", "argument 'to' of distance() is none")]  # an engine value


@pytest.mark.parametrize(("call", "message"), NONE_CALLS)
def test_a_missing_character_is_the_same_rule_error_on_both_engines(built: Path, tmp_path: Path, call: str,
                                                                    message: str) -> None:
    """`event.by` is none when the discard phase discards: the native build's typed functions refuse the none
    where the Python engine fails reading it, and both say which argument of which primitive or value it was."""
    rules = tmp_path / "none.sgs"
    rules.write_text(f'import "{(ROOT / "tests" / "fixtures" / "mini.sgs").as_posix()}"\n'
                     f"rule 测 r_test {{ on discarded {{ {call} }} }}\n", encoding="utf-8")
    errors = []
    for flag in ("1", "0"):
        done = _run([sys.executable, "-m", "sgsdsl", "simulate", str(rules), "--games", "2", "--players", "4"],
                    _env(built, SGSDSL_NATIVE=flag))
        assert "Traceback" not in done.stdout + done.stderr
        errors.append([line for line in (done.stdout + done.stderr).splitlines() if line.startswith("engine error")])
    assert errors[0] == errors[1] and errors[0] and all(message in line for line in errors[0]), errors


# rules whose games once went otherwise on the native build: a typed engine local refused a none a rule had made
ODD_RULES = {
    "damage redirected to none": 'rule 移 r_move { on creating_damage { event.target = event.source } }\n'
                                 'rule 伤 r_hurt { on turn_start { damage(current(), 1) } }\n',
    # a character none asked for its attack range (the error named another primitive natively)
    "none in attack range": 'rule 距 r_range { on turn_start {\n'
                            '  if in_attack_range(current(), first([])) { draw(current(), 1) } } }\n',
    # a converted card in a judge area handed to a move of cards (the native build once refused it there)
    "converted card moved": 'rule 乐 r_le { on round_start { use_virtual(first(players()), 乐不思蜀) } }\n'
                            'rule 底 r_bottom { on turn_start { put_on_bottom(cards_of(current())) } }\n',
    # a draw for none, as a delayed trick's effect drawing for its user when judged (the native build's typed
    # primitive refused the none before the primitive's own check could name it)
    "draw for none": 'rule 摸 r_draw { on turn_start { draw(first([]), 1) } }\n',
    # nobody choosing a card from no area (the Python engine gave none for the empty choice, the native build's
    # typed request refused the none chooser; found by fuzz_runtime --both-builds --seed 20261203, input 708)
    "card chosen by none": 'rule 选 r_pick { on turn_start { choose_card_from(first([]), current(), areas: [1]) } }\n',
}

ODD_FINGERPRINT = r"""
import hashlib, json, sys
from sgsdsl import native
from sgsdsl.api import check_paths, interpreted_program
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.sim import play_one
loaded = check_paths([sys.argv[1]])
h = hashlib.sha256()
for program in (compiled_program(loaded), interpreted_program(loaded)):
    for seed in range(4):
        try:
            g = play_one(program, "identity", 4, seed, record=True)
            h.update(json.dumps([g.result, g.log, g.hashes], sort_keys=True, default=str).encode())
        except Exception as err:  # a rule error ends the game: the same one on both engines
            h.update(f"{type(err).__name__}: {err}".encode())
print(native.active(), h.hexdigest())
"""


@pytest.mark.parametrize("name", sorted(ODD_RULES))
def test_odd_rules_play_the_same_games_on_both_engines(built: Path, tmp_path: Path, name: str) -> None:
    rules = tmp_path / "odd.sgs"
    rules.write_text(f'import "{(ROOT / "tests" / "fixtures" / "mini.sgs").as_posix()}"\n{ODD_RULES[name]}',
                     encoding="utf-8")
    fast = _run([sys.executable, "-c", ODD_FINGERPRINT, str(rules)], _env(built))
    slow = _run([sys.executable, "-c", ODD_FINGERPRINT, str(rules)], _env(built, SGSDSL_NATIVE="0"))
    assert fast.returncode == 0 and slow.returncode == 0, fast.stderr[-2000:] + slow.stderr[-2000:]
    assert fast.stdout.split()[0] == "True" and slow.stdout.split()[0] == "False"
    assert fast.stdout.split()[1] == slow.stdout.split()[1]


def test_the_runtime_fuzz_compares_the_native_build_with_the_python_engine(built: Path) -> None:
    done = _run([sys.executable, "scripts/fuzz_runtime.py", "--inputs", "6", "--seed", "5", "--both-builds"],
                _env(built))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "native build against the Python engine: 6 inputs compared, 0 differ" in done.stdout
