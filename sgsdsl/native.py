"""The native engine: the engine's hot modules compiled to C extensions with mypyc, on by default where it can be.

A build of `NATIVE_MODULES` of `sgsdsl.engine`, with `AGENT_MODULES` of `sgsdsl.ai` (the role belief and the
heuristic agent, compiled in the same group so that they call the engine natively), comes from one of two places,
tried in this order:
- **the package**: installing sgsdsl (`pip install .`, `pip install -e .`, a wheel) compiles them with mypyc into
  `sgsdsl/_native/` (`setup.py`); without a C compiler the install goes on without it;
- **the cache**: `sgsdsl native build` compiles them into `<cache folder>/native/<digest>/`.
Each build records the digest of what it was compiled from: every source file of `sgsdsl/engine` and `sgsdsl/ai`,
the module lists and the Python version. A build is used only while that digest is the engine's (an engine edit
makes it stale, and a stale build is simply never used: the pure-Python engine runs). When one matches (and
`SGSDSL_NATIVE` is not `0`), importing `sgsdsl.engine` (or `sgsdsl.ai`) puts the build's folder first on the
package's search path, so those modules load compiled; everything else (the rules, the interpreter, the compiled
rules, the other agents) stays Python. Games are the same, byte for byte: only their speed changes
(`tests/test_native.py` plays the same seeded games both ways). `sgsdsl native status` says which engine runs and
why.

A cache build is used only when its files and every folder from the cache root down are owned by this user and
writable by nobody else (`sgsdsl.cachedir`); the package's build is trusted as the package's own Python files are
(whoever installed it), but only when nobody else may write it. Either is used only when its folder holds exactly the
files its manifest lists: a module planted beside the build is never imported in place of the Python one.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .cachedir import cache_root, private_dir, read_entry, tree_digest, trusted, usable_dir
from .install_hint import install_extra

# the engine modules compiled: the game state and its collaborators, the model, the rule records, the runtime the
# rules call and the primitives (events, agents and the registry's tables keep their dynamic Python classes)
NATIVE_MODULES = ("state", "dispatch", "using", "zones", "decisions", "turnflow", "health", "game", "model", "program",
                  "runtime", "piles", "pindian", "carry", "draws", "registry/arguments", "registry/actions",
                  "registry/functions", "registry/mechanics", "registry/requests", "registry/setup", "registry/timings")
# the agents' modules compiled with them (sgsdsl/ai): the role belief and the heuristic agent, a quarter to a half
# of a heuristic game's time, and the search agent's rollout policy
AGENT_MODULES = ("beliefs", "heuristic")
MANIFEST = "native.json"
_ENGINE = Path(__file__).resolve().parent / "engine"
_AGENTS = Path(__file__).resolve().parent / "ai"
PACKAGED = Path(__file__).resolve().parent / "_native"  # the build made when the package was installed (setup.py)


class NativeBuildError(Exception):
    """A build that could not be made; the message says why, for the user."""


def sources() -> list[str]:
    """The files a build compiles, relative to the package root: the engine's modules, then the agents'."""
    return [*(f"sgsdsl/engine/{m}.py" for m in NATIVE_MODULES), *(f"sgsdsl/ai/{m}.py" for m in AGENT_MODULES)]


@lru_cache(maxsize=1)
def engine_digest() -> str:
    """The identity of what a build was compiled from: every source file of the engine and of the agents, the
    module lists and the Python version (worked out once per process: `sgsdsl.engine`, its registry and
    `sgsdsl.ai` all ask). A module of either package may import any other, so an edit to either makes the build
    stale."""
    return _digest_now()


def _digest_now() -> str:
    """`engine_digest` read from the files as they are now (a build checks that they did not change under it)."""
    salt = f"sgsdsl-native 3 {sys.implementation.cache_tag} {sys.platform} {NATIVE_MODULES} {AGENT_MODULES}"
    engine, agents = tree_digest(_ENGINE, (".py",), salt), tree_digest(_AGENTS, (".py",), salt)
    return hashlib.sha256(f"{engine}\n{agents}".encode()).hexdigest() if engine and agents else ""


def build_dir() -> Path:
    return cache_root() / "native" / engine_digest()[:24]


def _unwritable(path: Path) -> bool:
    """A regular file (not a link) that nobody but its owner may write: the package's build, whoever owns it."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) and not st.st_mode & 0o022


def _usable(folder: Path, packaged: bool = False) -> dict | None:
    """The manifest of a complete, trusted build in FOLDER for this engine's sources, else None (PACKAGED: the
    package's own build, trusted as the package is)."""
    ok = _unwritable if packaged else trusted
    if packaged:
        try:
            blob: bytes | None = (folder / MANIFEST).read_bytes() if ok(folder / MANIFEST) else None
        except OSError:
            blob = None
    else:
        blob = read_entry(folder / MANIFEST)
    if blob is None:
        return None
    try:
        data = json.loads(blob)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("digest") != engine_digest():
        return None
    files = data.get("files")
    if not isinstance(files, list) or not files:
        return None
    if not all(isinstance(f, str) and ".." not in f.split("/") and ok(folder / f) for f in files):
        return None
    libraries = data.get("libraries")
    if not isinstance(libraries, dict) or not all(v in files for v in libraries.values()):
        return None
    return data if _exactly(folder, {*files, MANIFEST}, packaged) else None


def _exactly(folder: Path, files: set[str], packaged: bool = False) -> bool:
    """Whether FOLDER holds exactly FILES (no other file, link or module to import) in safe folders (the cache's
    own, or for the PACKAGED build folders nobody else may write)."""
    seen: set[str] = set()
    for here, dirs, names in os.walk(folder, followlinks=False):
        rel = Path(here).relative_to(folder)
        if not (_safe_dir(Path(here)) if packaged else usable_dir(Path(here), create=False)):
            return False
        for d in dirs:
            if os.path.islink(os.path.join(here, d)):
                return False
        seen.update((rel / n).as_posix() for n in names)
    return seen == files


def _safe_dir(folder: Path) -> bool:
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and not st.st_mode & 0o022


@dataclass(frozen=True)
class Choice:
    """Which engine this process runs: the native build in FOLDER, or the Python engine; WHY, for the user."""

    native: bool
    folder: Path | None
    why: str


_CHOICE: Choice | None = None  # made once, when `sgsdsl.engine` is first imported


def choose() -> Choice:
    """Which build `activate` would load now, and why (the package's first, then the cache's)."""
    if os.environ.get("SGSDSL_NATIVE", "") == "0":
        return Choice(False, None, "switched off by SGSDSL_NATIVE=0")
    if _usable(PACKAGED, packaged=True) is not None:
        return Choice(True, PACKAGED, "compiled with mypyc when the package was installed")
    if _usable(build_dir()) is not None:
        return Choice(True, build_dir(), "compiled with mypyc by `sgsdsl native build`")
    if (PACKAGED / MANIFEST).exists():
        why = ("the build made when the package was installed is for other engine sources (the engine was "
               "edited since) and the cache has none for these; reinstall, or run: sgsdsl native build")
    else:
        why = ("the package was installed without a native build (no C compiler or mypy then, or "
               "SGSDSL_NATIVE_BUILD=0) and the cache has none for these engine sources; run: sgsdsl native build")
    return Choice(False, None, why)


def activate(package_path: list[str], package: str) -> bool:
    """Called first thing by each package with compiled modules (PACKAGE names it from `sgsdsl/`: "engine",
    "engine/registry", "ai"): when a usable build exists, load its modules in place of the Python ones (its folder
    first on PACKAGE_PATH, its runtime library registered). True when active. The choice is made when the engine is
    imported (or by whichever of these packages comes first) and holds for the process, so the engine, its registry
    and the agents always come from the same build."""
    global _CHOICE
    if _CHOICE is None or package == "engine":
        _CHOICE = choose()
    choice = _CHOICE
    if not choice.native or choice.folder is None:
        return False
    folder = choice.folder
    data = _usable(folder, packaged=folder == PACKAGED)
    if data is None:
        return False
    for name, file in data["libraries"].items():  # mypyc's shared runtime of the group, imported by each module
        if name in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(name, folder / file)
        try:
            if spec is None or spec.loader is None:
                raise ImportError("not a loadable module")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except (ImportError, OSError) as err:  # e.g. built for another interpreter: the Python engine runs
            _CHOICE = Choice(False, None, f"the native build in {folder} does not load here ({err})")
            return False
        sys.modules[name] = module
    package_path.insert(0, str(folder / "sgsdsl" / package))
    return True


def active() -> bool:
    """Whether this process runs the compiled engine modules (False before the engine is imported)."""
    dispatch = sys.modules.get("sgsdsl.engine.dispatch")
    return dispatch is not None and not str(getattr(dispatch, "__file__", "")).endswith(".py")


def in_use() -> Choice:
    """Which engine this process runs, and why. The caller imports the engine first (the import makes the choice;
    this module, which the engine imports, never imports it back)."""
    choice = _CHOICE or choose()
    if active() == choice.native:
        return choice
    return Choice(active(), None, "a build was chosen but its modules did not load; the Python engine runs")


def profile_guided(folder: Path) -> bool:
    """Whether the usable build in FOLDER was compiled profile-guided (`_guided`)."""
    data = _usable(folder, packaged=folder == PACKAGED)
    return data is not None and data.get("profile_guided") is True


def status() -> tuple[Path, bool]:
    """(where a cache build for these sources goes, whether one is there)."""
    folder = build_dir()
    return folder, _usable(folder) is not None


def build(log: Path | None = None) -> Path:
    """Compile NATIVE_MODULES with mypyc into the cache's build folder (replacing a stale or partial one); the
    folder. Raises NativeBuildError, with the tail of the compiler's output, when mypyc or a C compiler is missing
    or the build fails."""
    folder = build_dir()
    private_dir(folder.parent)
    build_into(folder, log)
    return folder


def build_into(folder: Path, log: Path | None = None) -> None:
    """Compile NATIVE_MODULES with mypyc into FOLDER (replaced whole): `build` for the cache, `setup.py` for the
    package. With GCC the build is profile-guided (`_guided`): compiled once instrumented, trained on seeded games,
    compiled again with what the training measured; should any of that fail, the plain build is made. Raises
    NativeBuildError as `build` says."""
    if importlib.util.find_spec("mypyc") is None or importlib.util.find_spec("setuptools") is None:
        raise NativeBuildError(f"the native engine is built with mypyc: {install_extra('native')} "
                               "(mypy and setuptools) first")
    with tempfile.TemporaryDirectory(prefix="sgsdsl-native-") as tmp:
        work = Path(tmp)
        notes: list[str] = []
        profile = work / "profile"
        guided = _guided(work, profile, notes)
        try:
            staging = _compile(work, work / "out", _use_flags(profile) if guided else [], [], notes)
        except NativeBuildError:
            if not guided:
                raise
            notes.append("sgsdsl: the profile-guided compile failed; compiling without the profile\n")
            guided = False
            staging = _compile(work, work / "out", [], [], notes)
        finally:
            if log is not None:
                log.write_text("".join(notes), encoding="utf-8")
        if _digest_now() != engine_digest():
            # (mypyc read the files minutes after the digest was taken: a build labelled with the old digest would
            # run the edited code wherever the old sources are, and fail there)
            raise NativeBuildError("the engine's sources changed while it was being built (an edit to "
                                   "sgsdsl/engine or sgsdsl/ai); nothing was installed: build again")
        _seal(staging, guided)
        shutil.rmtree(folder, ignore_errors=True)
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staging), str(folder))


# The training: seeded games of the bundled rules on the instrumented build, the way the engine is mostly used
# (random agents at 8 and 5 players, heuristic agents, a second mode), a few seconds. Run in a child whose cache is
# the work folder, so it loads the build being made (never the package's own build, which may be an older one).
_TRAIN_SCRIPT = """
import sys
from pathlib import Path
from sgsdsl import native
native.PACKAGED = Path({cache!r}) / "no-package-build"
from sgsdsl.api import check_paths
from sgsdsl.bundled import rules_dir
from sgsdsl.compiler.cache import compiled_program
from sgsdsl.sim import play_one
import sgsdsl.ai.heuristic
if not native.active():
    sys.exit("the instrumented build did not load")
for rules, mode, players, agents, games in (("standard.sgs", "identity", 8, ("random",), 150),
                                           ("standard.sgs", "identity", 5, ("random",), 50),
                                           ("standard.sgs", "identity", 8, ("heuristic", "random"), 8),
                                           ("3v3.sgs", "three_v_three", 6, ("random",), 30)):
    program = compiled_program(check_paths([str(rules_dir() / rules)]))
    for seed in range(games):
        play_one(program, mode, players, seed, agents=agents)
"""


def _gcc() -> bool:
    """Whether the C compiler extensions are built with is GCC (whose profile flags `_guided` uses)."""
    import sysconfig

    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "").split()
    if not cc:
        return False
    try:
        done = subprocess.run([cc[0], "--version"], capture_output=True, text=True, check=False, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and "Free Software Foundation" in done.stdout


def _use_flags(profile: Path) -> list[str]:
    # (partial training: code the training never ran is optimised as usual, not for size)
    return [f"-fprofile-use={profile}", "-fprofile-partial-training", "-Wno-missing-profile"]


def _guided(work: Path, profile: Path, notes: list[str]) -> bool:
    """Make the profile of a profile-guided build in PROFILE: an instrumented build, trained. Whether there is one
    (GCC only; SGSDSL_NATIVE_PGO=0 skips it). A profile-guided build plays the same games (the same C code, laid
    out and inlined by what runs most) and was x1.04 faster on 8-player random games (docs/performance.md)."""
    if os.environ.get("SGSDSL_NATIVE_PGO", "1") == "0" or not sys.platform.startswith("linux") or not _gcc():
        return False
    cache = work / "train-cache"
    try:
        for folder in (cache, cache / "native"):  # private whatever the umask: the loader refuses others' folders
            folder.mkdir(mode=0o700)
        instrumented = _compile(work, cache / "native" / engine_digest()[:24], [f"-fprofile-generate={profile}"],
                                [f"-fprofile-generate={profile}"], notes)
        _seal(instrumented, False)
        env = {**os.environ, "SGSDSL_CACHE": str(cache), "SGSDSL_NATIVE": "1", "PYTHONHASHSEED": "0"}
        done = subprocess.run([sys.executable, "-c", _TRAIN_SCRIPT.format(cache=str(cache))], cwd=_ENGINE.parent.parent,
                              env=env, capture_output=True, text=True, check=False)
        notes.append(done.stdout + done.stderr)
        trained = done.returncode == 0 and any(profile.rglob("*.gcda"))
    except (NativeBuildError, OSError) as err:
        notes.append(f"sgsdsl: no profile-guided build: {err}\n")
        return False
    shutil.rmtree(cache, ignore_errors=True)
    if not trained:
        notes.append(f"sgsdsl: no profile-guided build: the training exited with {done.returncode}\n")
    return trained


def _compile(work: Path, staging: Path, flags: list[str], link: list[str], notes: list[str]) -> Path:
    """Run mypyc and the C compiler (with extra FLAGS and LINK flags) on the sources into STAGING, made afresh;
    STAGING. The C files and objects go to the same folders under WORK every time, which a profile-guided compile
    needs (the profile names each object by its path)."""
    package_root = _ENGINE.parent.parent
    shutil.rmtree(staging, ignore_errors=True)
    env = {**os.environ, "MYPY_CACHE_DIR": str(work / "mypy-cache"), "SGSDSL_NATIVE": "0"}
    # mypy's settings given here, not read from wherever the package lies (a checkout's pyproject.toml, or
    # none in site-packages): the bodies of the registry's unannotated primitives are compiled too
    config = work / "mypy.ini"
    config.write_text("[mypy]\ncheck_untyped_defs = True\nignore_missing_imports = True\n", encoding="utf-8")
    script = _BUILD_SCRIPT.format(modules=["--config-file", str(config), *sources()], out=str(staging),
                                  temp=str(work / "build"), c=str(work / "c"), flags=flags, link=link)
    done = subprocess.run([sys.executable, "-c", script], cwd=package_root, env=env, capture_output=True,
                          text=True, check=False)
    notes.append(done.stdout + done.stderr)
    if done.returncode != 0:
        lines = (done.stdout + done.stderr).strip().splitlines()
        errors = [line for line in lines if "error" in line.lower()]  # the compiler's notes would hide them
        tail = "\n".join((errors or lines)[-12:])
        raise NativeBuildError(f"mypyc could not build the engine (exit {done.returncode}):\n{tail}")
    return staging


def _seal(staging: Path, guided: bool) -> None:
    """Check a compiled STAGING folder, write its manifest and make it all private."""
    files = sorted(p.relative_to(staging).as_posix() for p in staging.rglob("*") if p.is_file())
    libraries = [f for f in files if "/" not in f]
    modules = [f for f in files if f.startswith(("sgsdsl/engine/", "sgsdsl/ai/"))]
    if len(modules) != len(sources()):
        raise NativeBuildError(f"mypyc built {len(modules)} of {len(sources())} modules")
    for f in files:
        os.chmod(staging / f, 0o700)
    manifest = {"digest": engine_digest(), "modules": [*NATIVE_MODULES, *(f"ai/{m}" for m in AGENT_MODULES)],
                "files": libraries + modules, "libraries": {f.split(".", 1)[0]: f for f in libraries},
                "profile_guided": guided}
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.chmod(staging / MANIFEST, 0o600)
    for d in [staging, *(p for p in staging.rglob("*") if p.is_dir())]:
        os.chmod(d, 0o700)


def clean() -> int:
    """Remove every native build (current or stale); how many went."""
    root = cache_root() / "native"
    if not usable_dir(root, create=False):
        return 0
    gone = 0
    for entry in sorted(root.iterdir()):
        if entry.is_dir() and not entry.is_symlink() and _remove_build(entry):
            gone += 1
    return gone


def _remove_build(folder: Path) -> bool:
    """Remove the files a build's manifest lists, the manifest, and the folders left empty; whether it all went
    (anything sgsdsl did not write stays, and so does its folder)."""
    try:
        data = json.loads(read_entry(folder / MANIFEST) or b"null")
    except ValueError:
        return False
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        return False
    for f in [*files, MANIFEST]:
        path = folder / str(f)
        if ".." not in str(f).split("/") and trusted(path):
            path.unlink(missing_ok=True)
    for here, _, _ in sorted(os.walk(folder, followlinks=False), key=lambda w: -len(w[0])):
        try:
            os.rmdir(here)
        except OSError:
            return False
    return True


_BUILD_SCRIPT = """
import sys
from setuptools import setup
from mypyc.build import mypycify
extensions = mypycify({modules!r}, opt_level="3", target_dir={c!r})
if sys.platform.startswith("linux"):  # compiled functions call each other directly, not through the PLT (x1.015)
    for extension in extensions:
        extension.extra_compile_args.append("-fno-semantic-interposition")
for extension in extensions:  # a profile-guided build's flags (native._guided)
    extension.extra_compile_args += {flags!r}
    extension.extra_link_args += {link!r}
setup(name="sgsdsl-native", packages=[], py_modules=[], ext_modules=extensions,
      script_args=["build_ext", "--build-lib", {out!r}, "--build-temp", {temp!r}])
"""
