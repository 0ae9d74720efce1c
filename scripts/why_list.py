#!/usr/bin/env python3
"""Issue 9's "Why" list, replayed against any checkout: each attack a hostile contributor tried, run on that
checkout's own code, with a verdict.

    python3 scripts/why_list.py CHECKOUT [--only NAME ...] [--wheel] [--work DIR]

CHECKOUT is a source tree of sgsdsl (this one, or an older commit: `git worktree add /tmp/old a9643ca`). Its
code runs in child processes (`PYTHONPATH=CHECKOUT`, no bytecode written into it) from a scratch folder, with
HOME, XDG_CACHE_HOME and SGSDSL_CACHE pointed into that folder, under a memory cap and a time limit — so an
attack that still works harms nothing but the scratch folder. For each item the report prints what ran, what
came back, and `vulnerable` (the attack did what the issue says) or `fixed` (a clear, located refusal or the
right result). `--wheel` adds the packaging item (builds the checkout's wheel and installs it into a fresh
venv: needs the package index). Exit 0 when every item run is fixed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
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
            cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

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
}
OPT_IN = {"wheel"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--only", nargs="+", choices=sorted(ATTACKS), help="run only these items")
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
