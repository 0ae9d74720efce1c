"""The README's two set-up commands, run verbatim on a fresh machine's terms.

The checkout's files (those git knows, as they are now) are copied to a temporary folder, and each command of the
README's "Set-up" section runs there with `bash -c`, exactly as written, in an environment stripped like a fresh
container's: no `PYTHON*`, `SGSDSL*`, `XDG_*` or `VIRTUAL_ENV` variables, no user site-packages
(`PYTHONNOUSERSITE=1`), `HOME` a new empty folder, and a PATH without any virtual environment. The commands create
their own venv and take their dependencies from the package index. Prints each command, its exit status, the
tail of its output and how long it took; exit 1 when one fails.

    python3 scripts/check_readme_setup.py [--work DIR] [--keep]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_commands(readme: str) -> list[str]:
    """The ```sh blocks of the README's "## Set-up" section, in order (the main job, then the tests)."""
    m = re.search(r"^## Set-up\n(.*?)(?=^## )", readme, re.S | re.M)
    if m is None:
        raise SystemExit("the README has no '## Set-up' section")
    return [b.strip() for b in re.findall(r"^```sh\n(.*?)^```", m.group(1), re.S | re.M)]


def fresh_env(home: Path) -> dict[str, str]:
    """A fresh container's environment: nothing of this session's Python set-up leaks in."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "SGSDSL", "XDG_", "VIRTUAL_ENV", "PIP_USER"))}
    venv = os.environ.get("VIRTUAL_ENV")
    path = [p for p in env.get("PATH", "/usr/bin:/bin").split(os.pathsep) if not (venv and p.startswith(venv))]
    env.update(HOME=str(home), PYTHONNOUSERSITE="1", PATH=os.pathsep.join(path))
    return env


def copy_checkout(dest: Path) -> None:
    """The files git tracks (as they are in the working tree), without .venv, caches or build output."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for rel in filter(None, listed.decode("utf-8").split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, help="folder for the copy and its venv (default: a new temp folder)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    ap.add_argument("--verbose", action="store_true", help="print every line (pip's progress and tables too)")
    args = ap.parse_args(argv)
    commands = setup_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    if len(commands) != 2:
        print(f"the README's Set-up section should hold exactly two commands, not {len(commands)}")
        return 1
    work = args.work or Path(tempfile.mkdtemp(prefix="sgsdsl-setup-"))
    checkout, home = work / "sgsdsl", work / "home"
    checkout.mkdir(parents=True, exist_ok=True)
    home.mkdir(exist_ok=True)
    copy_checkout(checkout)
    env = fresh_env(home)
    ok = True
    for name, cmd in zip(("main job", "tests"), commands, strict=True):
        print(f"== {name}: $ {cmd}", flush=True)
        start = time.monotonic()
        # the output streams as it comes (a long run killed half-way still shows how far it got)
        with subprocess.Popen(["bash", "-c", cmd], cwd=checkout, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) as p:
            assert p.stdout is not None
            for line in p.stdout:
                if args.verbose or not line.startswith(("  ", "Requirement already", "Collecting", "Downloading")):
                    print("   " + line.rstrip("\n"), flush=True)
        secs = time.monotonic() - start
        print(f"   [{name}: exit {p.returncode}, {secs:.0f} s]", flush=True)
        ok = ok and p.returncode == 0
    print(f"README set-up: {'ok' if ok else 'FAILED'} (work folder {work})")
    if not args.keep and args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
