"""The catalogue's layout: every module imports, no two modules import each other
(directly or round a longer circle), and each room builds only on the rooms below
it: the collection on nothing else, the shelves on the collection, the rulebooks
on both, the play log on the collection and the shelves; pages (views, urls,
admin) may show any room.

The graph is read from the source (ast). Both rules hold for the imports a module
runs when it loads (its top level and class bodies) and for those deferred into
functions as well: a deferred import does not excuse a circle.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "catalog"
# What each room's modules (pages aside) may import of the other rooms.
BELOW = {
    "collection": set(),
    "shelves": {"collection"},
    "rulebooks": {"collection", "shelves"},
    "playlog": {"collection", "shelves"},
}
PAGES = {"views", "urls", "admin"}


def module_name(path: Path) -> str:
    parts = ["catalog", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py")) if "migrations" not in p.parts}


def _load_time_statements(body: list[ast.stmt]):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue  # runs when called, not when the module loads
        yield node
        for field in ("body", "orelse", "finalbody"):  # class bodies, if, try, with
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _load_time_statements(inner)
        for handler in getattr(node, "handlers", []):
            yield from _load_time_statements(handler.body)


def imports_of(name: str, path: Path, known: dict[str, Path], deferred: bool = True) -> set[str]:
    """The catalogue's modules ``name`` imports: anywhere, or only when it loads."""
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree) if deferred else _load_time_statements(tree.body):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from . import x, from ..y import z
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph(deferred: bool = True) -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known, deferred) for name, path in known.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 on the path being walked, 2 done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := walk(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (cycle := walk(start)):
            return cycle
    return None


def test_the_graph_reader_sees_a_circle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
    known = modules()
    # An import in a function (catalog.apps.ready) runs later than the module's load.
    apps, models = known["catalog.apps"], known["catalog.models"]
    assert "catalog.search_schema" in imports_of("catalog.apps", apps, known)
    assert "catalog.search_schema" not in imports_of("catalog.apps", apps, known, deferred=False)
    assert "catalog.collection.models" in imports_of("catalog.models", models, known, deferred=False)


def test_no_import_circle_in_the_catalogue():
    edges = graph()
    assert len(edges) > 40
    assert find_cycle(edges) is None, " -> ".join(find_cycle(edges))
    assert find_cycle(graph(deferred=False)) is None


def misplaced(edges: dict[str, set[str]]) -> list[str]:
    """The imports of a room's module (pages aside) from a room it may not build on."""
    wrong = []
    for name, targets in edges.items():
        parts = name.split(".")
        if len(parts) < 3 or parts[1] not in BELOW or parts[2] in PAGES:
            continue
        for target in sorted(targets):
            room = target.split(".")[1] if "." in target else ""
            if room in BELOW and room != parts[1] and room not in BELOW[parts[1]]:
                wrong.append(f"{name} -> {target}")
    return wrong


def test_the_room_rule_sees_a_room_built_on_a_later_one():
    edges = {
        "catalog.collection.models": {"catalog.shelves.models", "catalog.text"},
        "catalog.collection.views": {"catalog.shelves.models"},  # a page may show any room
        "catalog.shelves.qr": {"catalog.collection.models"},
    }
    assert misplaced(edges) == ["catalog.collection.models -> catalog.shelves.models"]


def test_each_room_builds_only_on_the_rooms_below_it():
    assert misplaced(graph()) == []


@pytest.mark.parametrize("name", sorted(modules()))
def test_every_module_imports(name):
    importlib.import_module(name)
