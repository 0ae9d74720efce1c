#!/usr/bin/env python3
"""Issues 9's and 31's "Why" lists, replayed against any checkout: each attack a hostile contributor tried, run on
that checkout's own code, with a verdict.

    python3 scripts/why_list.py CHECKOUT [--only NAME ...] [--issue 9|31] [--wheel] [--work DIR]

CHECKOUT is a source tree of sgsdsl (this one, or an older commit: `git worktree add /tmp/old a9643ca`). Its
code runs in child processes (`PYTHONPATH=CHECKOUT`, no bytecode written into it) from a scratch folder, with
HOME, XDG_CACHE_HOME and SGSDSL_CACHE pointed into that folder, under a memory cap and a time limit — so an
attack that still works harms nothing but the scratch folder. For each item the report prints what ran, what
came back, and `vulnerable` (the attack did what the issue says) or `fixed` (a clear, located refusal or the
right result). `--wheel` adds the packaging item (builds the checkout's wheel and installs it into a fresh
venv: needs the package index). Exit 0 when every item run is fixed. Issue 31's `cache-race` plays the other
user with `setpriv` when run as root (else the same user does the swap, and says so).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MEMORY_CAP = 1536 * 2**20  # bytes of address space per child: an unbounded allocation fails instead of swapping
TIMEOUT = 60.0

HOSTILE_RCE = Path(__file__).resolve().parent.parent / "tests" / "hostile" / "rce_via_marks.sgs"
CLI = 'import sys; sys.argv[0] = "sgsdsl"; from sgsdsl.cli import main; main()'

# One game of a rules file on one engine, as JSON: the outcome, the error and its type, the seats' state and
# what the log shows. Written against the API both old and new checkouts share.
GAME = r'''
import json, sys
from sgsdsl.api import check_paths, program_for
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game
path, engine, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
loaded = check_paths([path])
out = {"checked": loaded.ok, "diagnostics": [f"{d.span.file}:{d.span.line}: {d.code} {d.message[:100]}"
                                            for d in loaded.diagnostics][:2]}
if loaded.ok:
    game = Game(program_for(loaded, engine), "identity", 4, 1, [RandomAgent(i) for i in range(4)], round_cap=cap)
    try:
        game.run()
        out["error"] = None
    except Exception as err:
        out["error_type"] = f"{type(err).__module__}.{type(err).__name__}"
        out["error"] = " ".join([str(err), *getattr(err, "__notes__", [])])[:300]
    out["result"] = repr(getattr(game, "result", None))
    out["seats"] = [[p.seat, p.alive, p.hp, p.max_hp, len(p.hand)] for p in game.players]
    out["uses"] = sum(1 for e in game.log if e.get("e") == "use")
print(json.dumps(out, ensure_ascii=False))
'''

# An agent that looks behind its view and answers with int subclasses (bool is one).
AGENT = r'''
import gc, json, sys
from sgsdsl.api import check_paths, program_for
from sgsdsl.engine.agents import Agent, RandomAgent
from sgsdsl.engine.game import Game
loaded = check_paths([sys.argv[1]])
sly = sys.argv[2] == "sly"

class Sly(int):
    """An answer that is an int to isinstance() but not to the engine's contract."""

def reachable(root):
    seen, out, stack = set(), [], [root]
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, type) or type(x).__name__ in ("module", "function", "code"):
            continue
        seen.add(id(x))
        out.append(x)
        stack.extend(gc.get_referents(x))
    return out

class Cheater(Agent):
    name = "cheater"
    def __init__(self):
        self.random, self.found, self.hands = RandomAgent(7), set(), set()
    def decide(self, request, view):
        for x in reachable(view):
            if type(x).__name__ in ("Game", "Player", "Card"):
                self.found.add(type(x).__name__)
            if type(x).__name__ == "Game":
                self.hands |= {c.label() for p in x.players if p.seat != request.seat for c in p.hand}
        picks = self.random.decide(request, view)
        return [Sly(i) for i in picks] if sly else picks

cheater = Cheater()
game = Game(program_for(loaded, "interpreted"), "identity", 5, 3, [cheater] + [RandomAgent(i) for i in range(1, 5)],
            round_cap=4)
out = {}
try:
    game.run()
    out["error"] = None
except Exception as err:
    out["error"] = f"{type(err).__name__}: {str(err)[:200]}"
out["engine objects reached from the view"] = sorted(cheater.found)
out["other seats' hand cards seen"] = len(cheater.hands)
print(json.dumps(out, ensure_ascii=False))
'''


@dataclass
class Run:
    """What one child process did."""

    cmd: str
    code: int | None  # None: killed at the time limit
    out: str
    secs: float
    cpu: float

    @property
    def traceback(self) -> bool:
        """A Python traceback, or the CLI's last-resort report of one (an internal error)."""
        return any(s in self.out for s in ("Traceback (most recent call last)", "internal error", "MemoryError"))

    def tail(self, n: int = 4) -> str:
        lines = [ln for ln in self.out.strip().splitlines() if ln.strip()]
        return "\n".join(ln[:220] for ln in lines[-n:])

    def json(self) -> dict:
        for line in reversed(self.out.strip().splitlines()):
            if line.startswith("{"):
                try:
                    return json.loads(line)
                except ValueError:
                    break
        return {}

    def show(self) -> str:
        status = "killed at the time limit" if self.code is None else f"exit {self.code}"
        return f"$ {self.cmd}\n  [{status}, {self.secs:.1f} s wall, {self.cpu:.1f} s CPU]\n" + \
            "\n".join("  | " + ln for ln in self.tail().splitlines())


class Lab:
    """Runs a checkout's code in child processes from a scratch folder."""

    def __init__(self, checkout: Path, work: Path):
        self.co = checkout
        self.work = work
        self.home = work / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        self.mini = checkout / "tests" / "fixtures" / "mini.sgs"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SGSDSL", "XDG_", "PYTHON", "VIRTUAL_ENV"))}
        return {**env, "PYTHONPATH": str(self.co), "PYTHONDONTWRITEBYTECODE": "1", "HOME": str(self.home),
                "XDG_CACHE_HOME": str(self.home / ".cache"), "SGSDSL_CACHE": str(self.home / "sgscache"),
                "PYTHONHASHSEED": "0", "COLUMNS": "200"}

    def run(self, argv: list[str], shown: str, stdin: str = "", timeout: float = TIMEOUT,
            cwd: Path | None = None, env: dict[str, str] | None = None, memory: int = MEMORY_CAP) -> Run:
        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        p = subprocess.Popen(argv, cwd=cwd or self.work, env=env or self.env(), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=limit,
                             start_new_session=True)
        try:
            out, _ = p.communicate(stdin.encode(), timeout=timeout)
            code: int | None = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            out, _ = p.communicate()
            code = None
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return Run(shown, code, out.decode("utf-8", "replace"), time.monotonic() - start, cpu)

    def cli(self, *args: str, stdin: str = "", timeout: float = TIMEOUT, cwd: Path | None = None) -> Run:
        return self.run([sys.executable, "-c", CLI, *args], "sgsdsl " + " ".join(_short(a) for a in args),
                        stdin, timeout, cwd)

    def py(self, code: str, name: str, *args: str, timeout: float = TIMEOUT) -> Run:
        script = self.work / f"{name}.py"
        script.write_text(code, encoding="utf-8")
        return self.run([sys.executable, str(script), *args], f"python {name}.py " + " ".join(map(_short, args)),
                        timeout=timeout)

    def rules(self, name: str, body: str, timing: str = "turn_start", extra: str = "") -> Path:
        """The mini rules plus one rule running BODY at TIMING (the shape of the engine tests)."""
        path = self.work / name
        path.write_text(f'import "{self.mini.as_posix()}"\n{extra}\nrule 测 t {{\n  on {timing} {{ {body} }}\n}}\n',
                        encoding="utf-8")
        return path

    def game(self, path: Path, engine: str, cap: int = 3, timeout: float = TIMEOUT) -> Run:
        return self.py(GAME, "game", str(path), engine, str(cap), timeout=timeout)


def _short(a: str) -> str:
    return a if len(a) <= 60 else a[:40] + f"…({len(a)} chars)"


def _located(text: str, file: str) -> bool:
    return f"{file}:" in text


# ---------------------------------------------------------------------------------------------- the attacks
# Each returns (fixed, evidence).

def rce(lab: Lab) -> tuple[bool, str]:
    """A rules file can run arbitrary Python (dunder reads and writes on untyped values, through marks)."""
    text = HOSTILE_RCE.read_text(encoding="utf-8")  # this repository's corpus file: old checkouts have none
    path = lab.work / "rce.sgs"
    path.write_text(text.replace('"../fixtures/mini.sgs"', f'"{lab.mini.as_posix()}"'), encoding="utf-8")
    sentinel = lab.work / "SENTINEL"
    runs = [lab.cli("check", "rce.sgs")]
    ran = []
    for engine in ("interpreted", "compiled"):
        sentinel.unlink(missing_ok=True)
        runs.append(lab.cli("simulate", "rce.sgs", "--players", "4", "--games", "1", "--engine", engine))
        ran.append(sentinel.exists())
    evidence = "\n".join(r.show() for r in runs) + \
        f"\n  payload ran (SENTINEL created): interpreted {ran[0]}, compiled {ran[1]}"
    fixed = runs[0].code == 1 and _located(runs[0].out, "rce.sgs") and not any(ran) and not runs[0].traceback
    return fixed, evidence


def log_overwrite(lab: Lab) -> tuple[bool, str]:
    """`--log` renames a temp file onto whatever is at the path: a symlink, a FIFO, a device node."""
    target = lab.work / "precious.txt"
    target.write_text("precious\n", encoding="utf-8")
    places: dict[str, tuple[Path, Callable[[os.stat_result], bool]]] = {}
    link = lab.work / "link.jsonl"
    link.unlink(missing_ok=True)
    link.symlink_to(target)
    places["symlink"] = (link, stat.S_ISLNK)
    fifo = lab.work / "fifo.jsonl"
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    places["FIFO"] = (fifo, stat.S_ISFIFO)
    dev = lab.work / "null.jsonl"
    dev.unlink(missing_ok=True)
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers; needs root
        places["device node"] = (dev, stat.S_ISCHR)
    except OSError:
        pass
    lines, kept = [], []
    for what, (path, still) in places.items():
        r = lab.cli("simulate", str(lab.mini), "--players", "4", "--games", "1", "--log", path.name)
        ok = still(os.lstat(path).st_mode)
        kept.append(ok and not r.traceback)
        lines.append(r.show() + f"\n  the {what} is {'still there' if ok else 'REPLACED by a regular file'}")
    ok = target.read_text(encoding="utf-8") == "precious\n"
    lines.append(f"  the symlink's target kept its text: {ok}")
    return all(kept) and ok, "\n".join(lines)


def players_huge(lab: Lab) -> tuple[bool, str]:
    """A 4 KB file with `players 2..<huge>` makes `check` allocate without bound."""
    path = lab.work / "players.sgs"
    path.write_text("mode 测试 m {\n  players 2..999999999\n  roles 2 { lord rebel }\n  win lord when true\n}\n"
                    + "# padding\n" * 300, encoding="utf-8")
    r = lab.cli("check", "players.sgs")
    return r.code == 1 and _located(r.out, "players.sgs") and not r.traceback, r.show()


def nested_repeat(lab: Lab) -> tuple[bool, str]:
    """Nested `repeat` never finishes; a step budget must end it with a located error within a second or two."""
    path = lab.rules("repeat.sgs", 'repeat 1000 { repeat 1000 { repeat 1000 { log("x") } } }')
    runs = [lab.game(path, engine, timeout=30) for engine in ("interpreted", "compiled")]
    fixed = all(r.code == 0 and _located(r.json().get("error") or "", "repeat.sgs")
                and "budget" in (r.json().get("error") or "") for r in runs)
    return fixed, "\n".join(r.show() for r in runs)


def lazy_range(lab: Lab) -> tuple[bool, str]:
    """`for i in 1..10^9` builds the whole list."""
    path = lab.rules("range.sgs", 'for i in 1..1000000000 { if i > 3 { break } } log("done")')
    runs = [lab.game(path, engine, timeout=60) for engine in ("interpreted", "compiled")]
    fixed = all(r.code == 0 and r.json().get("error") is None and not r.traceback for r in runs)
    return fixed, "\n".join(r.show() for r in runs) + f"\n  (each child may use {MEMORY_CAP >> 20} MiB)"


def huge_literal(lab: Lab) -> tuple[bool, str]:
    """Integer literals over 4,300 digits crash the front end."""
    path = lab.work / "literal.sgs"
    path.write_text(f'import "{lab.mini.as_posix()}"\nvalue v(p: player) = {"9" * 5000}\n', encoding="utf-8")
    r = lab.cli("check", "literal.sgs")
    return r.code == 1 and _located(r.out, "literal.sgs") and not r.traceback, r.show()


def agent_view(lab: Lab) -> tuple[bool, str]:
    """`SeatView` holds the whole game: an agent can read other hands, hidden roles and the draw pile."""
    r = lab.py(AGENT, "cheater", str(lab.co / "rules" / "standard.sgs"), "plain")
    j = r.json()
    fixed = r.code == 0 and not j.get("engine objects reached from the view") and \
        j.get("other seats' hand cards seen") == 0
    return fixed, r.show()


def agent_int_subclass(lab: Lab) -> tuple[bool, str]:
    """Answers that are int subclasses slip past validation."""
    r = lab.py(AGENT, "sly", str(lab.co / "rules" / "standard.sgs"), "sly")
    err = r.json().get("error") or ""
    return r.code == 0 and "IllegalAnswer" in err and not r.traceback, r.show()


def interp_traceback(lab: Lab) -> tuple[bool, str]:
    """The interpreted engine leaks raw Python errors where the compiled engine gives located errors."""
    path = lab.rules("raw.sgs", 'draw(mark_value(none, "x"), 1)')
    runs = {engine: lab.game(path, engine) for engine in ("interpreted", "compiled")}
    errors = {e: r.json() for e, r in runs.items()}
    fixed = all(j.get("error_type", "").endswith("RuleError") and _located(j.get("error") or "", "raw.sgs")
                for j in errors.values())
    return fixed, "\n".join(r.show() for r in runs.values())


def replay_inputs(lab: Lab) -> tuple[bool, str]:
    """Malformed replay headers, encodings and FIFOs crash `replay`."""
    good = lab.work / "good.jsonl"
    good.unlink(missing_ok=True)
    made = lab.cli("simulate", str(lab.mini), "--players", "4", "--games", "1", "--log", good.name)
    lines = good.read_text(encoding="utf-8").splitlines() if good.exists() else []
    if not lines:
        return False, made.show() + "\n  (no log to tamper with)"
    header = json.loads(lines[0])
    bad_header = dict(header, seed="one", players=[4])
    cases = {
        "header with wrong types": json.dumps(bad_header) + "\n" + "\n".join(lines[1:]) + "\n",
        "header that is a list": "[1, 2]\n" + "\n".join(lines[1:]) + "\n",
    }
    runs = [made]
    for name, text in cases.items():
        f = lab.work / (name.replace(" ", "_") + ".jsonl")
        f.write_text(text, encoding="utf-8")
        runs.append(lab.cli("replay", f.name))
    latin = lab.work / "latin1.jsonl"
    latin.write_bytes(lines[0].encode() + b"\n\xff\xfe caf\xe9\n")
    runs.append(lab.cli("replay", latin.name))
    fifo = lab.work / "replay_fifo.jsonl"
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    runs.append(lab.cli("replay", fifo.name, timeout=20))
    fixed = all(r.code in (1, 2) and not r.traceback for r in runs[1:])
    return fixed, "\n".join(r.show() for r in runs)


def unwritable_outputs(lab: Lab) -> tuple[bool, str]:
    """Unwritable `--log` and `-o` paths crash (here: a path under a regular file, unwritable even for root)."""
    blocker = lab.work / "a_file"
    blocker.write_text("x", encoding="utf-8")
    runs = [lab.cli("simulate", str(lab.mini), "--players", "4", "--games", "1", "--log", "a_file/game.jsonl"),
            lab.cli("compile", str(lab.mini), "-o", "a_file/out")]
    return all(r.code in (1, 2) and not r.traceback for r in runs), "\n".join(r.show() for r in runs)


def play_superscript(lab: Lab) -> tuple[bool, str]:
    """`play` crashes on the keystroke `²`."""
    r = lab.cli("play", "--rules", "standard", "--players", "4", "--seed", "1", "--round-cap", "1",
                stdin="²\n" + "0\n" * 5, timeout=60)
    return not r.traceback and "engine error" not in r.out and r.code in (0, 1), r.show()


def bool_option(lab: Lab) -> tuple[bool, str]:
    """`-o two_renegades=flase` (or `maybe`) counts as true, in the CLI and in scenarios."""
    base = ["simulate", "--rules", "standard", "--players", "8", "--games", "2", "--seed", "5"]
    runs = {v: lab.cli(*base, "--option", f"two_renegades={v}") for v in ("true", "false", "flase", "maybe")}
    same_as_true = [v for v in ("flase", "maybe") if runs[v].code == 0 and _table(runs[v]) == _table(runs["true"])]
    scn = lab.work / "option.scenario"
    scn.write_text(f"scenario: a misspelt option\nrule: none\nrules: {lab.co / 'rules' / 'standard.sgs'}\n"
                   "option two_renegades = flase\nseat P0: 刘备 lord\nseat P1: 孙权 rebel\nseat P2: 吕蒙\n"
                   "seat P3: 甄姬\nexpect P0 alive\n", encoding="utf-8")
    scenario = lab.cli("test", scn.name)
    refused = [v for v in ("flase", "maybe") if runs[v].code == 2 and "two_renegades" in runs[v].out]
    fixed = not same_as_true and len(refused) == 2 and scenario.code in (1, 2) and \
        _located(scenario.out, "option.scenario")
    return fixed, "\n".join(r.show() for r in runs.values()) + \
        f"\n  same output as two_renegades=true: {same_as_true or 'none'}\n" + scenario.show()


def _table(r: Run) -> str:
    """A simulate report without its speed line."""
    return "\n".join(ln for ln in r.out.splitlines() if "games/s" not in ln)


def win_call(lab: Lab) -> tuple[bool, str]:
    """`win()` always fails (`sgsdsl.engine.registry.errors` does not exist)."""
    path = lab.rules("win.sgs", "win([rebel, renegade])")
    runs = [lab.game(path, engine) for engine in ("interpreted", "compiled")]
    fixed = all(r.json().get("error") is None and "'rebel', 'renegade'" in r.json().get("result", "") for r in runs)
    return fixed, "\n".join(r.show() for r in runs)


def end_phase_call(lab: Lab) -> tuple[bool, str]:
    """`end_phase()` does nothing."""
    path = lab.rules("endphase.sgs", "if event.phase == play { end_phase() }", timing="phase_start")
    runs = [lab.game(path, engine) for engine in ("interpreted", "compiled")]
    fixed = all(r.json().get("error") is None and r.json().get("uses") == 0 for r in runs)
    return fixed, "\n".join(r.show() for r in runs) + "\n  (fixed: no card used, for every play phase ends at once)"


PRIMITIVES = {
    "random_generals(-1)": ("random_generals(-1)", "turn_start"),
    "set_max_hp(p, 0)": ("set_max_hp(next_alive(first(players())), 0)", "game_start"),
    "move_to_judge of a card held elsewhere": ("move_to_judge(first(hand(event.player)), event.player)",
                                               "turn_start"),
    "obtain to a dead player": ("let d = next_alive(event.player) set_max_hp(d, 0) obtain(d, top_cards(1))",
                                "turn_start"),
    "give to a dead player": ("let d = next_alive(event.player) set_max_hp(d, 0) "
                              "give(event.player, d, hand(event.player))", "turn_start"),
}


def primitives(lab: Lab) -> tuple[bool, str]:
    """Primitives break invariants without an error."""
    lines, fixed = [], True
    for i, (what, (body, timing)) in enumerate(PRIMITIVES.items()):
        path = lab.rules(f"prim{i}.sgs", body, timing=timing)
        r = lab.game(path, "interpreted")
        j = r.json()
        broken = [s for s in j.get("seats", []) if (s[1] and s[3] <= 0) or (not s[1] and s[4] > 0)]
        ok = _located(j.get("error") or "", f"prim{i}.sgs") or (what == "set_max_hp(p, 0)" and not broken
                                                               and j.get("error") is None)
        fixed &= ok and not r.traceback
        lines.append(f"  {what}: error {j.get('error')!r}; seats [seat, alive, hp, max_hp, hand] {j.get('seats')}"
                     + (f"; BROKEN: {broken}" if broken else ""))
    return fixed, "\n".join(lines)


def compile_check_cwd(lab: Lab) -> tuple[bool, str]:
    """`compile --check` depends on the working directory."""
    here = lab.run([sys.executable, "-c", CLI, "compile", "rules", "-o", "generated", "--check"],
                   "(cd CHECKOUT) sgsdsl compile rules -o generated --check", cwd=lab.co)
    there = lab.cli("compile", str(lab.co / "rules"), "-o", str(lab.co / "generated"), "--check")
    return here.code == 0 and there.code == 0, here.show() + "\n" + there.show()


def compile_deletes(lab: Lab) -> tuple[bool, str]:
    """`compile FILE -o DIR` deletes modules it did not write."""
    out = lab.work / "outdir"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    mine = out / "standard_backup.py"  # a module this compile never wrote: a copy of a bundled one
    shutil.copy(lab.co / "generated" / "standard.py", mine)
    shutil.copy(lab.mini, lab.work / "design.sgs")
    r = lab.cli("compile", "design.sgs", "-o", "outdir")
    kept = mine.exists()
    return kept and r.code == 0, r.show() + f"\n  outdir/standard_backup.py still there: {kept}"


def tests_touch_home(lab: Lab) -> tuple[bool, str]:
    """The test suite writes into the user's `~/.cache`."""
    home = lab.work / "test_home"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir()
    env = {k: v for k, v in lab.env().items() if k not in ("SGSDSL_CACHE", "XDG_CACHE_HOME")}
    env["HOME"] = str(home)
    r = lab.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                 "tests/test_shan_concepts.py"],
                "(cd CHECKOUT; HOME=test_home) python -m pytest -q tests/test_shan_concepts.py",
                timeout=600, cwd=lab.co, env=env)
    written = sorted(str(p.relative_to(home)) for p in home.rglob("*"))[:4]
    return r.code == 0 and not written, r.show() + f"\n  written under HOME: {written or 'nothing'}"


def wheel(lab: Lab) -> tuple[bool, str]:
    """A built wheel cannot run: `rules/` is not shipped and a top-level `generated` package is installed."""
    dist, venv = lab.work / "wheel", lab.work / "wheelvenv"
    shutil.rmtree(dist, ignore_errors=True)
    shutil.rmtree(venv, ignore_errors=True)
    env = dict(lab.env(), PYTHONPATH="")
    src = lab.work / "src"  # pip builds in the source tree: build a copy, never write into the checkout
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(lab.co, src, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".venv", ".pytest_cache"))
    built = lab.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(dist)],
                    "pip wheel (a copy of) CHECKOUT --no-deps -w wheel", timeout=600, env=env)
    wheels = list(dist.glob("*.whl"))
    if not wheels:
        return False, built.show()
    import zipfile
    names = zipfile.ZipFile(wheels[0]).namelist()
    tops = sorted({n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))})
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    inst = lab.run([str(venv / "bin" / "pip"), "install", "-q", str(wheels[0])], "pip install the wheel (fresh venv)",
                   timeout=900, env=env)
    runs = [built, inst]
    sim = lab.run([str(venv / "bin" / "sgsdsl"), "simulate", "--players", "4", "--games", "2"],
                  "(cd /tmp) sgsdsl simulate --players 4 --games 2", cwd=Path(tempfile.gettempdir()), env=env)
    runs.append(sim)
    fixed = sim.code == 0 and "generated" not in tops
    return fixed, "\n".join(r.show() for r in runs) + f"\n  top-level entries in the wheel: {tops}"


# ---------------------------------------------------------------------------------------------- issue 31
# Each item below is one of issue 31's attacks (a shared cache that runs code, terminal escapes, reads outside what
# was asked, budgets that bound loop rounds but not work, raw tracebacks, agents raising the engine's control flow).

OSC52 = "A\x1b]52;c;aGk=\x07B\x1b]0;pwned\x07C\x1b[2JD"
AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def _shared_dir(prefix: str) -> Path:
    """A folder every user can write, as a team or CI cache shared through its group would be (no sticky bit: a
    member may rename what another made)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o777)
    return folder


def _second_user() -> bool:
    return hasattr(os, "getuid") and os.getuid() == 0 and shutil.which("setpriv") is not None


# The victim: root checks a new file with SGSDSL_CACHE at a team folder. The attacker wins the race between the
# cache's check of an entry and its open: an audit hook (the attacker's timing, staged) fires when the parser's
# cached tables are opened, and at that moment the other user renames the cache's `parse` folder away and puts
# their own in its place. Whatever is then read is theirs.
RACE = r"""
import os, subprocess, sys
root, swap, target = sys.argv[1], sys.argv[2], sys.argv[3]
done = []
def hook(event, args):
    if event == "open" and not done and isinstance(args[0], str) and args[0].startswith(root) \
            and os.path.basename(args[0]).startswith("lark."):
        done.append(args[0])
        subprocess.run(swap.replace("{ENTRY}", os.path.relpath(args[0], root)), shell=True, check=False)
sys.addaudithook(hook)
sys.argv = ["sgsdsl", "check", target]
from sgsdsl.cli import main
try:
    main()
except SystemExit:
    pass
print("swapped while opening:", done)
"""


def cache_race(lab: Lab) -> tuple[bool, str]:
    """Another local user can make sgsdsl unpickle their file: the cache checks an entry, then opens it again by
    name; a team cache folder lets them swap the folder in between."""
    team = _shared_dir("sgs-why-team-")
    sentinel = team.parent / (team.name + "-SENTINEL")
    payload = team.parent / (team.name + "-payload")
    # what the other user plants: a pickle that runs code (the same bytes serve any cache entry name)
    payload.write_bytes(b"cos\nsystem\n(S'touch " + str(sentinel).encode() + b"'\ntR.")
    payload.chmod(0o644)
    other = " ".join(AS_NOBODY) if _second_user() else ""
    swap = (f"{other} sh -c 'mv {team}/parse {team}/parse.old; mkdir -p \"$(dirname {team}/{{ENTRY}})\"; "
            f"cp {payload} {team}/{{ENTRY}}'")
    env = dict(lab.env(), SGSDSL_CACHE=str(team))
    mini = lab.work / "race_a.sgs"
    shutil.copy(lab.mini, mini)
    runs = [lab.run([sys.executable, "-c", CLI, "check", str(mini)], "sgsdsl check race_a.sgs  (warms the team cache)",
                    env=env)]
    target = lab.work / "race_b.sgs"
    target.write_text(lab.mini.read_text(encoding="utf-8") + "\n# another file: parsed afresh\n", encoding="utf-8")
    script = lab.work / "race.py"
    script.write_text(RACE, encoding="utf-8")
    runs.append(lab.run([sys.executable, str(script), str(team), swap, str(target)],
                        "python race.py  (sgsdsl check race_b.sgs; the other user swaps parse/ as lark.* is opened)",
                        env=env))
    ran = sentinel.exists()
    who = "user nobody (setpriv)" if other else "this user (no second user on this platform)"
    evidence = "\n".join(r.show() for r in runs) + f"\n  the swap is done by {who}\n  the planted pickle ran " \
        f"(SENTINEL created): {ran}"
    shutil.rmtree(team, ignore_errors=True)
    for f in (sentinel, payload):
        f.unlink(missing_ok=True)
    return not ran and not any(r.traceback for r in runs), evidence


RENAME = r"""
import shutil, sys
from pathlib import Path
from sgsdsl.lang import parse_cache
from sgsdsl.lang.loader import load
a, b = Path(sys.argv[1]), Path(sys.argv[2])
def entries():
    return set(parse_cache._folder().glob("*.ast"))
before = entries()
load([a])
entry_a = (entries() - before).pop()
load([b])
entry_b = (entries() - before - {entry_a}).pop()
shutil.copy(entry_a, entry_b)  # the entry of a.sgs, under the name of b.sgs's
parse_cache._memo.clear()
print("cards of b.sgs as loaded:", [c.name.text for c in load([b]).modules[0].cards])
"""


def cache_rename(lab: Lab) -> tuple[bool, str]:
    """A renamed `.ast` cache entry serves one file's parse for another's."""
    a, b = lab.work / "ren_a.sgs", lab.work / "ren_b.sgs"
    a.write_text("card 甲 jia : basic { copies ♠A }\n", encoding="utf-8")
    b.write_text("card 乙 yi : basic { copies ♠2 }\n", encoding="utf-8")
    r = lab.py(RENAME, "rename", str(a), str(b))
    return "['乙']" in r.out and not r.traceback, r.show()


def cache_clean(lab: Lab) -> tuple[bool, str]:
    """`cache clean` deletes what sgsdsl did not make (a file of the user's under parse/ or results/)."""
    root = Path(lab.env()["SGSDSL_CACHE"])
    lab.cli("check", str(lab.mini))
    mine = [root / "parse" / "my-notes.txt", root / "results" / "keep.json", root / "notes.txt"]
    for f in mine:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("mine\n", encoding="utf-8")
    r = lab.cli("cache", "clean")
    kept = [f.name for f in mine if f.exists()]
    return len(kept) == len(mine) and not r.traceback, r.show() + f"\n  the user's files still there: {kept}"


NATIVE = r"""
import json, shutil, sys
from pathlib import Path
from sgsdsl import native
folder = native.build_dir()
shutil.rmtree(folder, ignore_errors=True)
(folder / "sgsdsl" / "engine").mkdir(parents=True, exist_ok=True)
(folder / "sgsdsl" / "engine" / "fake.py").write_text("# the one module the manifest lists\n")
(folder / native.MANIFEST).write_text(json.dumps({"digest": native.engine_digest(), "files": ["sgsdsl/engine/fake.py"],
                                                  "libraries": {}}))
for p in [folder, *folder.rglob("*")]:
    p.chmod(0o700 if p.is_dir() else 0o600)
print("build usable, as listed:", native._usable(folder) is not None)
planted = folder / "sgsdsl" / "engine" / "events.py"  # not in the manifest: would load in place of the engine's
planted.write_text("raise SystemExit('planted module ran')\n")
planted.chmod(0o600)
print("build usable with a module beside it the manifest does not list:", native._usable(folder) is not None)
shutil.rmtree(folder)  # a fake build: never leave it for the next item to load
"""


def native_manifest(lab: Lab) -> tuple[bool, str]:
    """The native build's folder is put first on the engine's search path: a module that is not in the build's
    manifest (planted beside it) would be imported in place of the Python one."""
    r = lab.py(NATIVE, "native_manifest")
    return "listed: True" in r.out and "does not list: False" in r.out, r.show()


def terminal_escapes(lab: Lab) -> tuple[bool, str]:
    """Rule- and log-supplied text reaches the terminal as control sequences (OSC 52 clipboard write, OSC 0
    window title, CSI 2J clear screen): play, replay --show, test failure output, engine errors."""
    rules = lab.rules("esc.sgs", f'log("{OSC52}")')
    bad = lab.rules("escerr.sgs", f'draw(mark_value(none, "{OSC52}"), 1)')
    log = lab.work / "esc.jsonl"
    log.unlink(missing_ok=True)
    scn = lab.work / "esc.scenario"
    scn.write_text(f"scenario: {OSC52}\nrule: none\nrules: esc.sgs\nseat P0: 刘备 lord\nseat P1: 孙权 rebel\n"
                   "seat P2: 吕蒙\nseat P3: 甄姬\nexpect P0 dead\n", encoding="utf-8")
    runs = [lab.cli("simulate", rules.name, "--players", "4", "--games", "1", "--log", log.name),
            lab.cli("replay", log.name, "--show"),
            lab.cli("play", rules.name, "--players", "4", "--round-cap", "2", stdin="0\n" * 40),
            lab.cli("test", scn.name),
            lab.cli("simulate", bad.name, "--players", "4", "--games", "1")]
    raw = [r.cmd for r in runs if "\x1b" in r.out or "\x07" in r.out]
    shown = [r.cmd for r in runs if "\\x1b]52" in r.out]
    lines = [r.show().replace("\x1b", "<ESC>").replace("\x07", "<BEL>") for r in runs]
    return not raw and len(shown) >= 3 and not any(r.traceback for r in runs), "\n".join(lines) + \
        f"\n  printed raw control sequences: {raw or 'none'}"


def scenario_rules_line(lab: Lab) -> tuple[bool, str]:
    """A scenario's `rules:` line reads any file (and echoes its lines) or walks a folder; it cannot name a bundled
    rule set (`rules: standard, junzheng`)."""
    secret = lab.work / "secret.txt"
    secret.write_text("TOPSECRET=hunter2\n", encoding="utf-8")
    seats = "seat P0: 刘备 lord\nseat P1: 孙权 rebel\nseat P2: 吕蒙\nseat P3: 甄姬\nexpect P0 alive\n"
    runs = []
    for i, line in enumerate(("secret.txt", "/", "standard, junzheng")):
        f = lab.work / f"rules{i}.scenario"
        f.write_text(f"scenario: rules line\nrules: {line}\n{seats}", encoding="utf-8")
        runs.append(lab.cli("test", f.name, timeout=30))
    leaked = "hunter2" in runs[0].out
    fixed = not leaked and runs[0].code == 2 and runs[1].code == 2 and runs[2].code == 0 and \
        not any(r.traceback for r in runs)
    return fixed, "\n".join(r.show() for r in runs) + f"\n  the secret file's line echoed: {leaked}"


def folder_links(lab: Lab) -> tuple[bool, str]:
    """A symlink inside a folder given to check, fmt or docs is followed anywhere (a file that is not a rules file
    is read and echoed); a symlink loop or a FIFO in it crashes or hangs compile, test and docs."""
    folder = lab.work / "linked"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    secret = lab.work / "secret2.txt"
    secret.write_text("TOPSECRET=swordfish\n", encoding="utf-8")
    shutil.copy(lab.mini, folder / "real.sgs")
    (folder / "leak.sgs").symlink_to(secret)
    (folder / "loop.sgs").symlink_to(folder / "loop.sgs")
    scenarios = lab.work / "fifo_scenarios"
    shutil.rmtree(scenarios, ignore_errors=True)
    scenarios.mkdir()
    os.mkfifo(scenarios / "wait.scenario")
    runs = [lab.cli("check", folder.name), lab.cli("fmt", "--check", folder.name),
            lab.cli("docs", folder.name, "-o", "site"), lab.cli("compile", folder.name, "-o", "gen_linked"),
            lab.cli("test", scenarios.name, timeout=20), lab.cli("docs", "--scenarios", scenarios.name, "-o", "site2",
                                                                 timeout=20)]
    leaked = [r.cmd for r in runs if "swordfish" in r.out]
    broken = [r.cmd for r in runs if r.traceback or r.code is None]
    return not leaked and not broken, "\n".join(r.show() for r in runs) + \
        f"\n  echoed the linked secret: {leaked or 'none'}\n  traceback or hang: {broken or 'none'}"


BOMB = r"""
import json, resource, sys, time
from sgsdsl.api import check_paths, program_for
from sgsdsl.engine.agents import RandomAgent
from sgsdsl.engine.game import Game
loaded = check_paths([sys.argv[1]])
start = time.process_time()
game = Game(program_for(loaded, sys.argv[2]), "identity", 4, 1, [RandomAgent(i) for i in range(4)], round_cap=3)
try:
    game.run()
    error = None
except Exception as err:
    error = f"{type(err).__name__}: " + " ".join([str(err), *getattr(err, "__notes__", [])])[:160]
print(json.dumps({"cpu_s": round(time.process_time() - start, 2),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, "error": error},
                 ensure_ascii=False))
"""

LIST_BOMBS = {
    "minus of two 100,000-item lists": "repeat 1000 { repeat 1000 { let x = minus(1..100000, 1..100000) } }",
    "'in' over a 60,000-item list": "let big = [c for c in 1..60000] repeat 1000 { repeat 1000 { if 0 in big "
                                    "{ log(\"x\") } } }",
    "list '+' of 60,000 items": "let big = [c for c in 1..60000] repeat 1000 { repeat 1000 { let y = big + [] } }",
    "choose among 1..1000": "repeat 1000 { repeat 1000 { let c = choose(event.player, 1..1000) } }",
    "choose among 1..100000": "let c = choose(event.player, 1..100000)",
}


def list_bombs(lab: Lab) -> tuple[bool, str]:
    """Primitives over lists spend one step whatever their work: nested loops over `minus`, `in`, `+` and `choose`
    of big lists run for minutes (the step budget bounds loop rounds, not work)."""
    lines, fixed = [], True
    for i, (what, body) in enumerate(LIST_BOMBS.items()):
        path = lab.rules(f"bomb{i}.sgs", body)
        for engine in ("interpreted", "compiled"):
            r = lab.py(BOMB, "bomb", str(path), engine, timeout=60)
            j = r.json()
            ok = r.code == 0 and "budget" in str(j.get("error")) or "at most 1000" in str(j.get("error"))
            fixed &= ok and not r.traceback
            status = "killed at the 60 s limit" if r.code is None else \
                f"{j.get('cpu_s')} s CPU, peak {j.get('peak_mb')} MB: {j.get('error')}"
            lines.append(f"  {what} ({engine}): {status}")
    return fixed, "\n".join(lines)


def option_default(lab: Lab) -> tuple[bool, str]:
    """`option big = count(players())` crashes compile and simulate (a mode option's default runs with no game)."""
    path = lab.work / "optdef.sgs"
    path.write_text("mode 测试 m {\n  players 2..2\n  roles 2 { lord rebel }\n  option big = count(players())\n"
                    "  win lord when true\n}\n", encoding="utf-8")
    runs = [lab.cli("compile", path.name, "-o", "gen_opt"), lab.cli("simulate", path.name, "--mode", "m",
                                                                     "--players", "2", "--games", "1")]
    fixed = all(r.code in (1, 2) and _located(r.out, "optdef.sgs") and not r.traceback for r in runs)
    return fixed, "\n".join(r.show() for r in runs)


def deck_and_imports(lab: Lab) -> tuple[bool, str]:
    """Decks and imports have no cap: a deck of 20,000 cards, an import chain of 600 files."""
    deck = lab.work / "deck.sgs"
    deck.write_text("card 杀 sha : basic { copies " + " ".join(["♠A"] * 20000) + " }\n", encoding="utf-8")
    chain = lab.work / "chain"
    shutil.rmtree(chain, ignore_errors=True)
    chain.mkdir()
    for i in range(600):
        (chain / f"f{i}.sgs").write_text(f'import "f{i + 1}.sgs"\n' if i < 599 else "", encoding="utf-8")
    runs = [lab.cli("check", deck.name), lab.cli("check", "chain/f0.sgs")]
    fixed = runs[0].code == 1 and "2000 cards" in runs[0].out and runs[1].code == 1 and "500 files" in runs[1].out
    return fixed, "\n".join(r.show() for r in runs)


def recorded_bounds(lab: Lab) -> tuple[bool, str]:
    """A recorded game logs whatever the rules say: `log()` of a 50,000-character text 20,000 times makes
    `simulate --log` die of a MemoryError."""
    path = lab.rules("biglog.sgs", 'repeat 200 { repeat 100 { log("' + "x" * 50000 + '") } }')
    log = lab.work / "big.jsonl"
    log.unlink(missing_ok=True)
    r = lab.cli("simulate", path.name, "--players", "4", "--games", "1", "--log", log.name, timeout=120)
    return r.code == 1 and "at most 2000" in r.out and not r.traceback, r.show()


def replay_streams(lab: Lab) -> tuple[bool, str]:
    """`replay --show` loads a whole log (up to 256 MB) into memory at once: a 150 MB log needs over a GB."""
    good = lab.work / "small.jsonl"
    good.unlink(missing_ok=True)
    lab.cli("simulate", str(lab.mini), "--players", "4", "--games", "1", "--log", good.name)
    header = good.read_text(encoding="utf-8").splitlines()[0] if good.exists() else "{}"
    big = lab.work / "big_log.jsonl"
    note = json.dumps({"e": "note", "text": "x" * 1500}) + "\n"
    with open(big, "w", encoding="utf-8") as fh:
        fh.write(header + "\n")
        for _ in range(100):
            fh.write(note * 1000)
    r = lab.run([sys.executable, "-c", CLI, "replay", big.name, "--show"], "sgsdsl replay big_log.jsonl --show "
                f"({big.stat().st_size >> 20} MB; this child may use 350 MB)", memory=350 * 2**20, timeout=240)
    big.unlink()
    return r.code == 0 and not r.traceback and r.out.count("note: text=") == 100_000, \
        "\n".join(r.show().splitlines()[:2]) + f"\n  notes told: {r.out.count('note: text=')}"


# a mode where nobody is ever hurt: every game is a draw at its round cap, so the log's length is the cap's
CALM = """\
card 闪 shan : basic { copies ♥2 ♥3 ♥4 ♥5 ♦2 ♦3 ♦4 ♦5 ♠2 ♠3 ♠4 ♠5 ♣2 ♣3 ♣4 ♣5 }
general 刘备 liubei : 蜀 male 4 { }
general 孙权 sunquan : 吴 male 4 { }
mode 静 calm {
  players 2..2
  roles 2 { lord rebel }
  leader lord
  setup { deal_roles()  for p in players() { set_general(p, choose(p, random_generals(1)))  draw(p, 4) } }
  win lord when count(players()) == 0
}
"""

REPLAY_PEAKS = r"""
import json, sys, time, tracemalloc
from pathlib import Path
from sgsdsl.replay import replay_file
logs = [Path(a) for a in sys.argv[1:]]
replay_file(logs[0], "compiled")  # the rules loaded and cached: what is measured next is the replay
out = {}
for log in logs:
    tracemalloc.start()
    start = time.process_time()
    replay_file(log, "compiled")
    peak = tracemalloc.get_traced_memory()[1]
    out[log.name] = {"lines": sum(1 for _ in open(log, "rb")), "peak_mb": round(peak / 2**20, 2),
                     "cpu_s": round(time.process_time() - start, 1)}
    tracemalloc.stop()
print(json.dumps(out))
"""


def replay_holds_log(lab: Lab) -> tuple[bool, str]:
    """Plain `replay LOG` (not --show) holds the whole log and the game's whole log to compare them at the end: its
    memory grows with the log's length (on dc021c9 the read alone peaks at the 256 MB limit, whatever the log)."""
    rules = lab.work / "calm.sgs"
    rules.write_text(CALM, encoding="utf-8")
    logs = []
    for cap in (200, 2000):
        log = lab.work / f"calm{cap}.jsonl"
        log.unlink(missing_ok=True)
        lab.cli("simulate", rules.name, "--mode", "calm", "--players", "2", "--games", "1", "--round-cap", str(cap),
                "--log", log.name, timeout=120)
        logs.append(log)
    if not all(log.exists() for log in logs):
        return False, "  could not record the logs"
    r = lab.py(REPLAY_PEAKS, "replay_peaks", *map(str, logs), timeout=240)
    j = r.json()
    peaks = [j.get(log.name, {}).get("peak_mb") for log in logs]
    fixed = r.code == 0 and None not in peaks and peaks[1] < min(2 * peaks[0], 32)
    return fixed, r.show() + "\n  (fixed: the peak for ten times the entries stays below twice the small one's, " \
        "and below 32 MB)"


def did_you_mean(lab: Lab) -> tuple[bool, str]:
    """"Did you mean" compares every unknown name with every known one: quadratic on files with thousands of names."""
    runs = []
    for n in (1500, 3000):
        f = lab.work / f"names{n}.sgs"
        lines = [f"card 卡{i} card{i} : basic {{ copies ♠A }}" for i in range(n)]
        lines += [f"rule 规{i} r{i} {{ on turn_start {{ discard(cardz{i}) }} }}" for i in range(n)]
        f.write_text("\n".join(lines) + "\n", encoding="utf-8")
        runs.append(lab.cli("check", f.name, timeout=120))
    ratio = runs[1].cpu / max(runs[0].cpu, 0.01)
    return ratio < 2.8 and all(r.code == 1 for r in runs), "\n".join(r.show().splitlines()[0] + " " +
                                                                      r.show().splitlines()[1] for r in runs) + \
        f"\n  CPU for twice the names: x{ratio:.2f} (linear x2, quadratic x4; with fixed costs: below x2.8)"


LSP_CLIENT = r"""
import json, subprocess, sys, time
from pathlib import Path
folder = Path(sys.argv[1])
big = (folder / "big.sgs").read_text(encoding="utf-8")
p = subprocess.Popen([sys.executable, "-c", "import sys; sys.argv[0]='sgsdsl'; from sgsdsl.cli import main; main()",
                      "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=folder)
def send(msg):
    body = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()
def read():
    length = 0
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("the server closed its output")
        if line.startswith(b"Content-Length:"):
            length = int(line.split(b":")[1])
        if line in (b"\r\n", b"\n"):
            return json.loads(p.stdout.read(length))
def answer(id_):
    while True:
        m = read()
        if m.get("id") == id_:
            return m
uri = (folder / "big.sgs").resolve().as_uri()
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": folder.as_uri()}})
answer(1)
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
never = (folder / "never-opened.sgs").resolve().as_uri()
send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
      "params": {"textDocument": {"uri": never}, "position": {"line": 0, "character": 0}}})
got = answer(2)
print("hover on a URI never opened:", json.dumps(got.get("error") or got.get("result"))[:300])
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "sgs", "version": 1, "text": big}}})
for v in range(2, 12):  # typing in a big document
    send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": big + f"# {v}\n"}]}})
start = time.monotonic()
send({"jsonrpc": "2.0", "id": 3, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}})
answer(3)
print(json.dumps({"answered_after_s": round(time.monotonic() - start, 1)}))
p.kill()
"""


def lsp_bounds(lab: Lab) -> tuple[bool, str]:
    """The language server leaks a traceback on hover over a URI it was never sent, and checks every edit in full
    before answering anything: typing in a big document stalls it."""
    folder = lab.work / "lspdoc"
    folder.mkdir(exist_ok=True)
    text = lab.mini.read_text(encoding="utf-8") + "".join(f"value v{i}(p: player) = u{i} + 1\n" for i in range(3000))
    (folder / "big.sgs").write_text(text, encoding="utf-8")
    r = lab.py(LSP_CLIENT, "lsp_client", str(folder), timeout=180)
    hover_ok = "hover on a URI never opened: null" in r.out
    secs = r.json().get("answered_after_s")
    fixed = hover_ok and secs is not None and secs < 5 and r.code == 0
    return fixed, r.show() + "\n  (fixed: hover answers null; a request after 11 quick edits is answered in < 5 s)"


LSP_CANCEL = r"""
import json, sys, time
from pathlib import Path
from sgsdsl.lsp import analysis as an
n = int(sys.argv[2])
def enormous(tag):  # one rule of N statements, an unknown name in the last
    body = "".join(f"    draw(event.player, {i % 3 + 1})\n" for i in range(n))
    return f"# {tag}\nrule 测 big {{\n  on turn_start {{\n{body}    draw(nobody_here, 1)\n  }}\n}}\n"
path = Path(sys.argv[1])
out = {}
start = time.process_time()
whole = an.analyze(path, enormous("whole"), lambda: False)
out["whole_cpu_s"] = round(time.process_time() - start, 2)
out["whole_diagnostics"] = len(whole.diagnostics)
asked = []
def cancelled():  # the next edit arrives at the third question
    asked.append(1)
    return len(asked) >= 3
start = time.process_time()
try:
    an.analyze(path, enormous("edited"), cancelled)
    out["stopped"] = False
except Exception as err:
    out["stopped"] = type(err).__name__
out["cut_cpu_s"] = round(time.process_time() - start, 2)
out["questions"] = len(asked)
print(json.dumps(out))
"""


def lsp_cancel(lab: Lab) -> tuple[bool, str]:
    """The language server abandons a stale check only between definitions: one enormous definition (a rule of
    thousands of statements) is parsed and checked to its end after the next edit has made it stale."""
    r = lab.py(LSP_CANCEL, "lsp_cancel", str(lab.work / "enormous.sgs"), "8000", timeout=180)
    j = r.json()
    whole, cut = j.get("whole_cpu_s"), j.get("cut_cpu_s")
    fixed = r.code == 0 and j.get("stopped") == "CheckCancelled" and whole is not None and cut is not None \
        and cut < whole / 4
    return fixed, r.show() + "\n  (fixed: the stale check stops at the question after the edit, in under a " \
        "quarter of the whole check's CPU)"


def compare_nan(lab: Lab) -> tuple[bool, str]:
    """`compare --until-ci nan` passes the range check and never stops doubling."""
    r = lab.cli("compare", "--rules", "standard", "--a-option", "two_renegades=true", "--players", "8", "--games",
                "2", "--until-ci", "nan", timeout=30)
    return r.code == 2 and "until-ci" in r.out and not r.traceback, r.show()


def raw_tracebacks(lab: Lab) -> tuple[bool, str]:
    """Raw tracebacks: simulate --log with a rule error in the logged game; compile of a folder with a symlink loop;
    names over the file system's length limit; an over-long SGSDSL_CACHE."""
    bad = lab.rules("firstgame.sgs", 'draw(mark_value(none, "x"), 1)')
    loop = lab.work / "loopdir"
    shutil.rmtree(loop, ignore_errors=True)
    loop.mkdir()
    shutil.copy(lab.mini, loop / "ok.sgs")
    (loop / "a.sgs").symlink_to(loop / "b.sgs")
    (loop / "b.sgs").symlink_to(loop / "a.sgs")
    long = "n" * 300
    runs = [lab.cli("simulate", bad.name, "--players", "4", "--games", "1", "--log", "first.jsonl"),
            lab.cli("compile", loop.name, "-o", "gen_loop"),
            lab.cli("compile", str(lab.mini), "-o", long),
            lab.cli("check", long + ".sgs")]
    env = dict(lab.env(), SGSDSL_CACHE="/tmp/" + "c" * 5000)
    runs.append(lab.run([sys.executable, "-c", CLI, "simulate", str(lab.mini), "--players", "4", "--games", "1",
                         "--engine", "compiled"], "SGSDSL_CACHE=/tmp/ccc…(5000 chars) sgsdsl simulate mini.sgs "
                         "--engine compiled", env=env))
    broken = [r.cmd[:60] for r in runs if r.traceback or r.code is None]
    return not broken, "\n".join(r.show() for r in runs) + f"\n  traceback or hang: {broken or 'none'}"


AGENT_FLOW = r"""
import json, sys
from sgsdsl.api import check_paths, program_for
from sgsdsl.engine import errors
from sgsdsl.engine.agents import Agent, RandomAgent
from sgsdsl.engine.game import Game
class Rogue(Agent):
    name = "rogue"
    def decide(self, request, view):
        raise errors.GameOver(("rebel",), "the agent says so")
game = Game(program_for(check_paths([sys.argv[1]]), "interpreted"), "identity", 4, 1,
            [RandomAgent(0), Rogue(), RandomAgent(2), RandomAgent(3)], round_cap=3)
try:
    game.run()
    out = {"error": None, "result": repr(game.result)}
except Exception as err:
    out = {"error": f"{type(err).__name__}: {err}"[:200]}
print(json.dumps(out, ensure_ascii=False))
"""


def agent_control_flow(lab: Lab) -> tuple[bool, str]:
    """An agent raising the engine's own GameOver from decide() wins the game silently."""
    r = lab.py(AGENT_FLOW, "agent_flow", str(lab.mini))
    err = r.json().get("error") or ""
    return "AgentMisbehaved" in err and "rogue" in err, r.show()


def _interrupt(lab: Lab, args: list[str], ready: Callable[[subprocess.Popen], bool], shown: str) -> Run:
    """Run the CLI with ARGS in a session of its own, send Ctrl-C to the whole group (as a terminal does) once
    READY holds, and see how it ends (killed at 60 s after the signal: a hang)."""
    p = subprocess.Popen([sys.executable, "-c", CLI, *args], cwd=lab.work, env=lab.env(), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    start = time.monotonic()
    while p.poll() is None and not ready(p) and time.monotonic() - start < 120:
        time.sleep(0.1)
    signalled = time.monotonic()
    code: int | None
    try:
        os.killpg(p.pid, signal.SIGINT)
        out, _ = p.communicate(timeout=60)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        code = None
    except ProcessLookupError:
        out, _ = p.communicate()
        code = p.returncode
    return Run(shown, code, out.decode("utf-8", "replace"), time.monotonic() - signalled, 0.0)


def _workers_up(p: subprocess.Popen) -> bool:
    try:
        return len(Path(f"/proc/{p.pid}/task/{p.pid}/children").read_text().split()) >= 2
    except OSError:
        return False


def ctrl_c(lab: Lab) -> tuple[bool, str]:
    """Ctrl-C during `simulate` on worker processes waits for every queued game (a hang) while each worker prints a
    KeyboardInterrupt traceback; Ctrl-C on `sgsdsl studio` with a page's stream open prints uvicorn's 'Exception in
    ASGI application' (a CancelledError traceback) or ends in 'Aborted!' after the stream's wait."""
    runs = [_interrupt(lab, ["simulate", str(lab.mini), "--players", "4", "--games", "200000", "--jobs", "2"],
                       _workers_up, "sgsdsl simulate mini.sgs --games 200000 --jobs 2, then Ctrl-C")]
    stream: dict[str, str] = {}

    def page_open(p: subprocess.Popen) -> bool:  # the studio's address printed: open its event stream once
        if "thread" not in stream and p.stdout is not None:
            line = p.stdout.readline().decode("utf-8", "replace")
            stream["first"] = line
            found = __import__("re").search(r"(http://127\.0\.0\.1:\d+)/\?t=(\S+)", line)
            if not found:
                return True
            url = f"{found.group(1)}/api/events?t={found.group(2)}"
            stream["thread"] = "started"
            threading.Thread(target=_read_stream, args=(url, stream), daemon=True).start()
        return stream.get("read") == "yes"

    runs.append(_interrupt(lab, ["studio", str(lab.mini), "--no-browser", "--log-dir", "studio-logs"], page_open,
                           "sgsdsl studio mini.sgs --no-browser, a page's event stream open, then Ctrl-C"))
    runs[-1].out = stream.get("first", "") + runs[-1].out
    bad = [r for r in runs if r.code is None or "Traceback" in r.out or "Exception in ASGI" in r.out
           or "Aborted" in r.out]
    return not bad, "\n".join(r.show() for r in runs) + \
        f"\n  the page's event stream: {stream.get('ended', 'ended cleanly') if 'thread' in stream else 'not opened'}"


def _read_stream(url: str, note: dict[str, str]) -> None:
    import urllib.request
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            for line in r:
                if line.startswith(b"event: state"):
                    note["read"] = "yes"
    except Exception as err:  # the report says how the page's stream ended
        note["ended"] = f"{type(err).__name__}"


# commands whose defaults are real work, not a hang: with no arguments `compare` plays its 1000 paired games of 8
# players (an A/A check: about a minute on a loaded machine), so that one run gets a longer limit
LONG_DEFAULTS = {"compare": 300.0}
SWEEP_ARGS = [[], ["--help"], ["no-such-file.sgs"], ["."], ["/dev/null"], [""], ["--players", "-1"],
              ["--players", "99999999999999999999"], ["--seed", "x"], ["--games", "0"], ["-o", "x"], ["--zzz"]]


def cli_sweep(lab: Lab) -> tuple[bool, str]:
    """Every subcommand with bad arguments: no traceback, no hang."""
    names = ["balance", "cache", "check", "compare", "compile", "docs", "explain", "fmt", "league", "native", "play",
             "replay", "simulate", "test", "vocab", "lsp", "studio"]
    runs = 0
    broken: list[str] = []
    notes: list[str] = []
    here = lab.work / "sweep"  # a folder of its own: "." names one small rules file, not the scratch folder
    shutil.rmtree(here, ignore_errors=True)
    here.mkdir()
    shutil.copy(lab.mini, here / "mini.sgs")
    for name in names:
        for args in SWEEP_ARGS:
            if name == "lsp" and args in ([], ["."], ["-o", "x"], [""]):
                continue  # the server itself: reads a protocol on stdin (covered by lsp-bounds)
            if name == "studio" and args in ([], ["."], [""]):
                continue  # the server itself, on good rules: runs until Ctrl-C (tests/test_studio_shutdown.py)
            limit = LONG_DEFAULTS.get(name, 60.0) if not args else 60.0
            r = lab.cli(name, *args, timeout=limit, stdin="", cwd=here)
            runs += 1
            if limit > 60:
                notes.append(f"sgsdsl {name} (its default work, limit {limit:.0f} s): exit {r.code}, "
                             f"{r.secs:.0f} s wall")
            # `explain` lists every code, SGS-E000's "internal error" among them: only a real traceback counts
            real = "Traceback (most recent call last)" in r.out or "MemoryError" in r.out
            if (real if name == "explain" else r.traceback) or r.code is None:
                broken.append(f"sgsdsl {name} {' '.join(args)}: " + ("hang" if r.code is None else r.tail(1)))
    return not broken, f"  {runs} runs, {len(broken)} with a traceback or a hang" + \
        "".join(f"\n  {b[:200]}" for b in broken) + "".join(f"\n  ({n})" for n in notes)


ATTACKS: dict[str, tuple[str, Callable[[Lab], tuple[bool, str]]]] = {
    "rce": ("A rules file can run arbitrary Python", rce),
    "log-overwrite": ("--log overwrites whatever is at the path", log_overwrite),
    "players-huge": ("players 2..<huge> makes check allocate without bound", players_huge),
    "nested-repeat": ("nested repeat never finishes", nested_repeat),
    "lazy-range": ("for i in 1..10^9 builds the whole list", lazy_range),
    "huge-literal": ("integer literals over 4,300 digits crash the front end", huge_literal),
    "agent-view": ("SeatView holds the whole game", agent_view),
    "agent-int-subclass": ("answers that are int subclasses slip past validation", agent_int_subclass),
    "interp-traceback": ("the interpreted engine leaks raw Python errors", interp_traceback),
    "replay-inputs": ("malformed replay headers, encodings and FIFOs crash", replay_inputs),
    "unwritable-outputs": ("unwritable --log / -o paths crash", unwritable_outputs),
    "play-superscript": ("play crashes on the keystroke ²", play_superscript),
    "bool-option": ("-o two_renegades=flase (or maybe) counts as true, in the CLI and in scenarios", bool_option),
    "win": ("win() always fails", win_call),
    "end-phase": ("end_phase() does nothing", end_phase_call),
    "primitives": ("random_generals(-1), set_max_hp(p, 0), move_to_judge, obtain/give to the dead", primitives),
    "compile-check-cwd": ("compile --check depends on the working directory", compile_check_cwd),
    "compile-deletes": ("compile FILE -o DIR deletes modules it did not write", compile_deletes),
    "tests-touch-home": ("the test suite writes into the user's ~/.cache", tests_touch_home),
    "wheel": ("a built wheel cannot run (no rules/, a top-level generated package)", wheel),
    # issue 31
    "cache-race": ("another user swaps a team cache's folder between check and open: a planted pickle runs",
                   cache_race),
    "cache-rename": ("a renamed .ast cache entry serves one file's parse for another", cache_rename),
    "cache-clean": ("cache clean deletes what sgsdsl did not make", cache_clean),
    "native-manifest": ("a module beside the native build, missing from its manifest, would load", native_manifest),
    "terminal-escapes": ("rule and log text reaches the terminal as OSC 52 / OSC 0 / CSI 2J", terminal_escapes),
    "scenario-rules-line": ("a scenario's rules: line reads and echoes any file, walks folders, names no bundled set",
                            scenario_rules_line),
    "folder-links": ("links in folders lead anywhere; loops and FIFOs crash or hang compile, test, docs",
                     folder_links),
    "list-bombs": ("list primitives spend one step whatever their work", list_bombs),
    "option-default": ("option big = count(players()) crashes compile and simulate", option_default),
    "deck-imports": ("decks and imports have no cap", deck_and_imports),
    "recorded-bounds": ("a recorded game's log() text makes simulate --log die of a MemoryError", recorded_bounds),
    "replay-streams": ("replay --show loads a whole log into memory", replay_streams),
    "replay-holds-log": ("plain replay holds the whole log: memory grows with its length", replay_holds_log),
    "did-you-mean": ("did-you-mean is quadratic with thousands of names", did_you_mean),
    "lsp-bounds": ("LSP: traceback on hover over an unopened URI; every edit checked in full before any answer",
                   lsp_bounds),
    "lsp-cancel": ("LSP: a stale check of one enormous definition runs to its end", lsp_cancel),
    "compare-nan": ("compare --until-ci nan never stops", compare_nan),
    "raw-tracebacks": ("simulate --log rule error, symlink loop, over-long names and SGSDSL_CACHE: tracebacks",
                       raw_tracebacks),
    "agent-control-flow": ("an agent raising GameOver wins silently", agent_control_flow),
    "ctrl-c": ("Ctrl-C: simulate on workers hangs with worker tracebacks; the studio prints an ASGI traceback",
               ctrl_c),
    "cli-sweep": ("every subcommand with bad arguments: tracebacks or hangs", cli_sweep),
}
OPT_IN = {"wheel"}
ISSUE_31 = ["cache-race", "cache-rename", "cache-clean", "native-manifest", "terminal-escapes", "scenario-rules-line",
            "folder-links", "list-bombs", "option-default", "deck-imports", "recorded-bounds", "replay-streams",
            "replay-holds-log", "did-you-mean", "lsp-bounds", "lsp-cancel", "compare-nan", "raw-tracebacks",
            "agent-control-flow", "ctrl-c", "cli-sweep"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--only", nargs="+", choices=sorted(ATTACKS), help="run only these items")
    ap.add_argument("--issue", choices=["9", "31"], help="run only that issue's items (9: the first list)")
    ap.add_argument("--wheel", action="store_true", help="also build, install and run the checkout's wheel")
    ap.add_argument("--work", type=Path, help="scratch folder (default: a new temp folder)")
    args = ap.parse_args(argv)
    co = args.checkout.resolve()
    if not (co / "sgsdsl" / "cli").is_dir():
        ap.error(f"{co} is not an sgsdsl checkout")
    work = (args.work or Path(tempfile.mkdtemp(prefix="sgs-why-"))).resolve()
    work.mkdir(parents=True, exist_ok=True)
    lab = Lab(co, work)
    names = args.only or [n for n in ATTACKS if n not in OPT_IN or args.wheel]
    if args.issue and not args.only:
        names = [n for n in names if (n in ISSUE_31) == (args.issue == "31")]
    commit = subprocess.run(["git", "-C", str(co), "log", "-1", "--format=%h %s"], capture_output=True,
                            text=True).stdout.strip()[:90]
    print(f"checkout {co} ({commit or 'not a git checkout'}); scratch {work}\n")
    tally = {True: 0, False: 0}
    for name in names:
        title, attack = ATTACKS[name]
        fixed, evidence = attack(lab)
        tally[fixed] += 1
        print(f"## {name}: {title}\n{evidence}\n=> {'fixed' if fixed else 'VULNERABLE'}\n", flush=True)
    print(f"{tally[True]} fixed, {tally[False]} vulnerable of {len(names)} item(s)")
    return 0 if not tally[False] else 1


if __name__ == "__main__":
    sys.exit(main())
