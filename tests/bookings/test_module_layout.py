"""The bookings code stays readable: no import cycle between its modules (lazy
imports inside functions included: a cycle hidden in a function is still one),
the pages imported by nothing but the URLs, and no module longer than a
newcomer reads in one sitting."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "games" / "bookings"
MAX_LINES = 500  # the house rule (docs: "under ~500 lines")


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(APP.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports(path: Path, known: set[str]) -> set[str]:
    """The bookings modules ``path`` imports, anywhere in it."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                out.add(full if full in known else node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in known and m != "games.bookings"}


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports(path, known) - {name} for name, path in found.items()}


def package_of(name: str) -> str:
    return name.rsplit(".", 1)[0]


def test_no_module_imports_back_a_module_that_imports_it():
    edges = graph()
    cycles = []
    for start in edges:
        stack = [(start, [start])]
        seen = set()
        while stack:
            node, path = stack.pop()
            for nxt in edges[node]:
                # A package's __init__ importing its own submodules is how it names them.
                if nxt == start and not (package_of(path[-1]) == start or package_of(node) == start):
                    cycles.append(" -> ".join([*path, nxt]))
                elif nxt not in seen and nxt != start:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    assert not cycles, "import cycles:\n" + "\n".join(sorted(set(cycles)))


def test_only_the_urls_and_the_pages_themselves_import_the_pages():
    users = sorted(
        name for name, deps in graph().items()
        if any(d == "games.bookings.views" or d.startswith("games.bookings.views.") for d in deps)
        and name != "games.bookings.urls" and not name.startswith("games.bookings.views")
    )
    assert users == []


def test_every_module_reads_in_one_sitting():
    long = {name: n for name, path in modules().items() if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert long == {}
