"""No import circle in sgsdsl/ (issue 15): modules that need each other are one module in disguise, and a
circle makes the import order, and so what a partly initialised module holds, a trap.

The graph is read with `ast`, not by importing, so every import statement counts: at module level, inside
functions and under `if TYPE_CHECKING:` (a type-only circle is still two modules that know each other).
Importing `a.b.c` also imports the packages `a` and `a.b`; a module's own parent packages are not counted as
implied by its imports, since Python initialises them before the module itself runs. `from pkg import name`
depends on `pkg.name` when that is a module, and on `pkg` (its `__init__`) too unless `pkg` is one of the
importer's own parents, which have started already. Imports made from strings (`importlib`) are not seen.
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

import pytest

SGSDSL = Path(__file__).resolve().parent.parent / "sgsdsl"

def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module below ROOT (the folder of PACKAGE) by dotted name; a package is its `__init__.py`."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _parents(name: str) -> list[str]:
    """`a.b.c` -> [`a`, `a.b`]: the packages importing `a.b.c` initialises first."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _from_base(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a `from … import` reads from, relative levels resolved against the importer."""
    if not node.level:
        return node.module or ""
    parts = name.split(".") if is_package else name.split(".")[:-1]
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of KNOWN that module NAME's import statements (anywhere in it) load."""
    is_package = path.name == "__init__.py"
    own = set(_parents(name))
    named: set[str] = set()  # named by a statement: always a dependency
    implied: set[str] = set()  # parent packages initialised on the way: a dependency unless one of NAME's own
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                named.add(alias.name)
                implied.update(_parents(alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(name, is_package, node)
            subs = {f"{base}.{alias.name}" for alias in node.names} & known
            named.update(subs)
            implied.update(_parents(base))
            if len(subs) < len(node.names):  # some name is read from base's __init__
                named.add(base)
            else:
                implied.add(base)
    return {m for m in named | (implied - own) if m in known and m != name}


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports."""
    found = modules(root, package)
    known = set(found)
    return {name: imported(name, path, known) for name, path in found.items()}


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion),
    each sorted, in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def cycle_path(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One concrete circle through the component's first module: the shortest way back to it."""
    start, inside = component[0], set(component)
    came: dict[str, str] = {}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph[v] & inside):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if w not in came:
                came[w] = v
                queue.append(w)
    raise AssertionError(f"{component} is not strongly connected")


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of GRAPH: its strongly connected components of more than one module."""
    return components(graph)


def report(graph: dict[str, set[str]], found: list[list[str]]) -> str:
    return "\n".join(f"{len(c)} modules: {', '.join(c)}\n  e.g. {' -> '.join(cycle_path(graph, c))}" for c in found)


def test_sgsdsl_has_no_import_circle() -> None:
    graph = import_graph(SGSDSL, "sgsdsl")
    assert len(graph) > 50 and "sgsdsl.api" in graph["sgsdsl.cli.loading"]  # the graph is really read
    found = circles(graph)
    assert not found, "import circles in sgsdsl/ (a third module should hold what both sides need):\n" + report(
        graph, found)


def _package(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root / "pkg"


@pytest.mark.parametrize("a_text", [
    "from . import b\n",  # runtime, at module level
    "def f():\n    from .b import g\n    return g\n",  # runtime, inside a function
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import g\n",  # type-only
    "import pkg.sub.c\n",  # via a package: pkg.sub's __init__ imports b
])
def test_the_detector_finds_a_circle(tmp_path: Path, a_text: str) -> None:
    root = _package(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": a_text, "pkg/b.py": "from .a import f\n",
                               "pkg/sub/__init__.py": "from .. import b\n", "pkg/sub/c.py": ""})
    graph = import_graph(root, "pkg")
    found = circles(graph)
    assert found and all("pkg.a" in c and "pkg.b" in c for c in found), found
    path = cycle_path(graph, found[0])
    assert path[0] == path[-1] and all(w in graph[v] for v, w in zip(path, path[1:], strict=False))
    assert "pkg.a -> pkg." in report(graph, found)


def test_a_package_importing_its_children_is_no_circle(tmp_path: Path) -> None:
    root = _package(tmp_path, {"pkg/__init__.py": "from .a import f\nfrom . import b\n",
                               "pkg/a.py": "from . import b\nfrom .b import g\nimport pkg.b\n",
                               "pkg/b.py": "g = 1\n"})
    graph = import_graph(root, "pkg")
    assert graph == {"pkg": {"pkg.a", "pkg.b"}, "pkg.a": {"pkg.b"}, "pkg.b": set()}
    assert circles(graph) == []

