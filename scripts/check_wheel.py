#!/usr/bin/env python3
"""Prove a built wheel installs and runs anywhere (opt-in; needs the package index for the dependencies).

    python3 scripts/check_wheel.py [--work DIR] [--keep] [--native]

Builds the wheel (`pip wheel --no-deps`), installs it into a fresh venv (no system site-packages), and from
an unrelated folder, with HOME pointing there too, runs: `sgsdsl simulate --players 5 --games 20`, `sgsdsl
check design.sgs` for a design that does `import "standard"` and adds a general, a simulate of that design
(compiled into the platform cache), a log and its replay, `python -m sgsdsl cache clean`; and checks that
no top-level `generated` module was installed, and that the parser's tables came built in the package.
Prints the transcript; exit 0 when every step passed.

`--native` builds the wheel with its native engine (mypyc at build time, `setup.py`) and proves the installed
package runs it: `sgsdsl native status` says so, the engine's modules are C extensions, and seeded games give the
same JSON on the native engine and with SGSDSL_NATIVE=0 (compiled and interpreted rules alike).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs" / "examples" / "maliang.sgs"  # does `import "standard"` and adds a general


def step(cmd: list[str], cwd: Path, env: dict[str, str], expect: int = 0, show: str = "", needs: str = "") -> bool:
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    secs = time.monotonic() - start
    print(f"$ {show or ' '.join(cmd)}    [exit {p.returncode}, {secs:.1f} s]")
    out = (p.stdout + p.stderr).strip()
    if out:
        print("\n".join("  " + line for line in out.splitlines()[-14:]))
    if p.returncode != expect:
        print(f"  FAILED: expected exit {expect}")
    if needs and needs not in out:
        print(f"  FAILED: expected {needs!r} in the output")
        return False
    return p.returncode == expect


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, help="folder for the wheel, venv and run (default: a new temp folder)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    ap.add_argument("--native", action="store_true", help="require and prove the native engine (see above)")
    args = ap.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="sgsdsl-wheel-"))
    work.mkdir(parents=True, exist_ok=True)
    whl, venv, run = work / "whl", work / "venv", work / "run"
    run.mkdir(exist_ok=True)
    shutil.copy(DESIGN, run / "design.sgs")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "SGSDSL", "XDG_", "VIRTUAL_ENV"))}
    env.update(HOME=str(run), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    bin_ = venv / "bin"
    build_env = {**os.environ, "SGSDSL_NATIVE_BUILD": "1" if args.native else "0"}
    ok = step([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(whl), str(ROOT)], ROOT,
              build_env, show=f"SGSDSL_NATIVE_BUILD={build_env['SGSDSL_NATIVE_BUILD']} python3 -m pip wheel "
                              f"--no-deps -w {whl} .")
    ok = ok and step([sys.executable, "-m", "venv", str(venv)], work, env, show=f"python3 -m venv {venv}")
    wheels = sorted(whl.glob("sgsdsl-*.whl"))
    ok = ok and bool(wheels) and step([str(bin_ / "pip"), "install", "-q", str(wheels[-1])], work, env,
                                      show=f"{bin_ / 'pip'} install {wheels[-1].name}")
    if ok:
        checks = [
            ([str(bin_ / "sgsdsl"), "--version"], 0),
            ([str(bin_ / "sgsdsl"), "simulate", "--players", "5", "--games", "20"], 0),
            ([str(bin_ / "sgsdsl"), "check", "design.sgs"], 0),
            ([str(bin_ / "sgsdsl"), "simulate", "design.sgs", "--players", "5", "--games", "5", "--json",
              "--log", "game.jsonl"], 0),
            ([str(bin_ / "sgsdsl"), "replay", "game.jsonl"], 0),
            ([str(bin_ / "sgsdsl"), "simulate", "--rules", "standard,junzheng", "--players", "6", "--games", "3",
              "--json"], 0),
            ([str(bin_ / "python"), "-m", "sgsdsl", "cache", "clean"], 0),
            ([str(bin_ / "python"), "-c", "import generated"], 1),
            # the parser's tables were built into the package (setup.py), for this grammar: nothing to build
            ([str(bin_ / "python"), "-c", "import sys; from sgsdsl.lang import parse_cache; "
              "sys.exit(parse_cache.packaged_tables() is None)"], 0),
        ]
        for cmd, want in checks:
            ok = step(cmd, run, env, want, show=" ".join(Path(cmd[0]).name if i == 0 else c
                                                          for i, c in enumerate(cmd))) and ok
        # an extra the wheel user lacks: the hint names the package, not a checkout's `.`
        ok = step([str(bin_ / "sgsdsl"), "simulate", "--games", "1", "--html", "r.html"], run, env, 2,
                  show="sgsdsl simulate --games 1 --html r.html", needs="pip install 'sgsdsl[report]'") and ok
        if args.native:
            ok = _prove_native(bin_, run, env) and ok
    print(f"wheel check: {'ok' if ok else 'FAILED'} (work folder {work})")
    if not args.keep and args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


NATIVE_PROBE = """
import sgsdsl.engine.dispatch as d, sgsdsl.engine.registry.actions as a, sgsdsl.ai.heuristic as h
from sgsdsl import native
print(native.active(), d.__file__.endswith('.so'), a.__file__.endswith('.so'), h.__file__.endswith('.so'))
"""


def _games(bin_: Path, run: Path, env: dict[str, str]) -> tuple[str, str] | None:
    """The summary and game logs of the same seeded games with compiled and with interpreted rules, or None when
    one failed."""
    out = []
    for engine in ("compiled", "interpreted"):
        log = run / f"games-{engine}.jsonl"
        p = subprocess.run([str(bin_ / "sgsdsl"), "simulate", "--players", "8", "--games", "20", "--seed", "7",
                            "--engine", engine, "--json", "--log", str(log)], cwd=run, env=env, capture_output=True,
                           text=True)
        if p.returncode != 0:
            print("  " + p.stderr.strip()[-400:])
            return None
        out.append(p.stdout + log.read_text(encoding="utf-8"))  # the summary and every game's log
    return out[0], out[1]


def _prove_native(bin_: Path, run: Path, env: dict[str, str]) -> bool:
    """The installed wheel runs the native engine, and it plays the games the Python engine plays."""
    ok = step([str(bin_ / "sgsdsl"), "native", "status"], run, env, show="sgsdsl native status")
    status = subprocess.run([str(bin_ / "sgsdsl"), "native", "status"], cwd=run, env=env, capture_output=True,
                            text=True).stdout
    probe = subprocess.run([str(bin_ / "python"), "-c", NATIVE_PROBE], cwd=run, env=env, capture_output=True,
                           text=True).stdout.strip()
    print(f"$ python -c 'native.active(), dispatch, registry.actions and ai.heuristic are C extensions'\n  {probe}")
    if not status.startswith("engine: native") or probe != "True True True True":
        print("  FAILED: the installed package does not run the native engine")
        ok = False
    native_games = _games(bin_, run, env)
    python_games = _games(bin_, run, {**env, "SGSDSL_NATIVE": "0"})
    same = native_games is not None and native_games == python_games
    print("$ sgsdsl simulate --players 8 --games 20 --seed 7 --engine compiled|interpreted --json, native and "
          f"SGSDSL_NATIVE=0\n  {'the same games on both engines' if same else 'FAILED: the games differ'}")
    return ok and same


if __name__ == "__main__":
    sys.exit(main())
