"""The layers of the code base, read from the source with :mod:`ast` (docs/architecture.md).

Every ``import`` counts: at the top of a module, under ``if TYPE_CHECKING``, and inside a
function (a lazy import is still a dependency). The rules:

* no import cycle between modules;
* ``bridgecore`` imports only the standard library (endplay excepted, lazily, inside
  ``bridgecore.doubledummy`` alone), and no module outside it imports endplay;
* nothing imports ``tenace`` but ``tenace`` (it is the command line, on top of everything);
* ``wire`` imports no application;
* no application (``hub``, ``tablet``, ``firmware_bridge``) imports another.

"""

from __future__ import annotations

import ast
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bridgecore", "wire", "hub", "tablet", "firmware_bridge", "tenace")
APPLICATIONS = ("hub", "tablet", "firmware_bridge")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            out[_module_name(path)] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str:
    """The project module that ``name`` (a module or a name in one) is, or ``name``."""
    while name and name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _imports(module: str, path: Path) -> Iterator[tuple[str, int, bool]]:
    """(imported name, line, inside a function) for every import of ``module``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST, in_function: bool) -> Iterator[tuple[str, int, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, child.lineno, in_function
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - child.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in child.names:
                    yield (f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES
                           else base), child.lineno, in_function
            yield from visit(child, in_function or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    yield from visit(tree, False)


def _graph() -> dict[str, dict[str, tuple[int, bool]]]:
    """module -> {imported module (project or third-party top name): (line, lazy)}."""
    graph: dict[str, dict[str, tuple[int, bool]]] = {}
    for module, path in MODULES.items():
        edges: dict[str, tuple[int, bool]] = {}
        for name, line, lazy in _imports(module, path):
            target = _resolve(name) if name.split(".")[0] in PACKAGES else name
            if target != module:
                edges.setdefault(target, (line, lazy))
        graph[module] = edges
    return graph


GRAPH = _graph()


def _top(name: str) -> str:
    return name.split(".")[0]


def _violations(rule: str, bad: list[str]) -> str:
    return f"{rule}:\n  " + "\n  ".join(bad)


def _edges() -> Iterator[tuple[str, str, int, bool]]:
    for module, edges in GRAPH.items():
        for target, (line, lazy) in edges.items():
            yield module, target, line, lazy


def _where(module: str, target: str, line: int, lazy: bool) -> str:
    return f"{MODULES[module].relative_to(ROOT)}:{line}: {module} -> {target}" + (
        " (inside a function)" if lazy else "")


def test_the_graph_sees_every_kind_of_import() -> None:
    """The reader finds top-level, TYPE_CHECKING, lazy and relative imports."""
    assert "bridgecore.cards" in GRAPH["bridgecore.deal"]
    assert len(MODULES) > 50


def test_no_import_cycle() -> None:
    """No two modules import each other, directly or through others (Tarjan's SCCs)."""
    graph = {m: [t for t in edges if t in MODULES]
             for m, edges in GRAPH.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    assert not cycles, _violations("import cycles (one loop of each tangle)", [
        " -> ".join(loop) + ": " + "; ".join(
            _where(m, t, *GRAPH[m][t]) for m, t in itertools.pairwise(loop))
        for loop in (_loop(graph, c) for c in cycles)])


def _loop(graph: dict[str, list[str]], component: list[str]) -> list[str]:
    """A shortest import loop through the first module of a strongly connected component."""
    start = component[0]
    inside = set(component)
    previous: dict[str, str] = {}
    queue = [start]
    for v in queue:
        for w in graph[v]:
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if w in inside and w not in previous:
                previous[w] = v
                queue.append(w)
    return component  # pragma: no cover - a component always loops back


def test_bridgecore_imports_only_the_standard_library() -> None:
    """bridgecore is the game: the standard library only; endplay lazily, in one module."""
    bad = [_where(m, t, line, lazy) for m, t, line, lazy in _edges() if _top(m) == "bridgecore"
           and _top(t) != "bridgecore" and _top(t) not in sys.stdlib_module_names
           and not (m == "bridgecore.doubledummy" and _top(t) == "endplay" and lazy)]
    assert not bad, _violations("bridgecore imports outside the standard library", bad)


def test_endplay_is_imported_by_one_module() -> None:
    bad = [_where(m, t, line, lazy) for m, t, line, lazy in _edges()
           if _top(t) == "endplay" and m != "bridgecore.doubledummy"]
    assert not bad, _violations("endplay imported outside bridgecore.doubledummy", bad)


def test_nothing_imports_tenace() -> None:
    """tenace is the command line: nothing below it imports it."""
    bad = [_where(m, t, line, lazy) for m, t, line, lazy in _edges()
           if _top(t) == "tenace" and _top(m) != "tenace"]
    assert not bad, _violations("imports of tenace", bad)


def test_wire_imports_no_application() -> None:
    bad = [_where(m, t, line, lazy) for m, t, line, lazy in _edges()
           if _top(m) == "wire" and _top(t) in (*APPLICATIONS, "tenace")]
    assert not bad, _violations("wire imports an application", bad)


def test_no_application_imports_another() -> None:
    bad = [_where(m, t, line, lazy) for m, t, line, lazy in _edges()
           if _top(m) in APPLICATIONS and _top(t) in APPLICATIONS and _top(t) != _top(m)]
    assert not bad, _violations("applications importing one another", bad)
