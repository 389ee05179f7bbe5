"""The layers and their directions, pinned: ``rules`` ← ``games`` ← ``tournaments``.

- no import circle among the project's modules (an import only for type checking,
  under ``if TYPE_CHECKING:``, runs never and is left out);
- a feature package of ``tournaments`` imports another's public names only, never
  its ``_private`` helpers;
- ``tournaments/`` keeps its shape: the app's Django modules and its packages.

(``rules/`` importing only the standard library is ``rules_tests/test_purity.py``;
the event store and games importing nothing above them, ``games_tests/test_layers.py``.)
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("rules", "games", "tournaments")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for layer in LAYERS
        for path in sorted((ROOT / layer).rglob("*.py"))
        if "migrations" not in path.parts
    }


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def runtime_imports(path: Path) -> list[ast.ImportFrom | ast.Import]:
    """Every import that runs (at module level or in a function)."""
    found: list[ast.ImportFrom | ast.Import] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in runtime_imports(path):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name in modules)
            elif node.module and not node.level:
                for alias in node.names:
                    whole = f"{node.module}.{alias.name}"
                    if whole in modules:
                        targets.add(whole)
                    elif node.module in modules:
                        targets.add(node.module)
        graph[name] = targets - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_no_import_circles():
    modules = project_modules()
    assert len(modules) > 100
    assert circles(import_graph(modules)) == []


def test_the_circle_check_sees_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c"]
    ]


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_features_import_no_private_names_of_another_package():
    modules = project_modules()
    offences = []
    for name, path in modules.items():
        if not name.startswith("tournaments."):
            continue
        for node in runtime_imports(path):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            if not node.module.startswith("tournaments."):
                continue
            if _package(node.module) == _package(name):
                continue
            offences += [
                f"{name} imports {node.module}.{alias.name}"
                for alias in node.names
                if alias.name.startswith("_")
            ]
    assert offences == []


def test_the_core_imports_no_feature():
    """``tournaments.core`` is what every feature builds on: it imports none."""
    modules = project_modules()
    upward = [
        f"{name} imports {target}"
        for name, targets in import_graph(modules).items()
        if name.startswith("tournaments.core")
        for target in targets
        if target.startswith("tournaments.")
        and not target.startswith(("tournaments.core", "tournaments.models"))
    ]
    assert upward == []


def test_tournaments_top_level_is_the_apps_modules_and_its_packages():
    top = ROOT / "tournaments"
    modules = {p.name for p in top.glob("*.py")}
    assert modules == {"__init__.py", "apps.py", "models.py", "urls.py", "page_urls.py"}
    packages = {p.name for p in top.iterdir() if (p / "__init__.py").is_file()}
    features = {"core", "setup", "players", "pairing", "results", "prizes"}
    features |= {"ratings", "room", "audit"}
    assert features <= packages
    for package in features:
        doc = ast.get_docstring(ast.parse((top / package / "__init__.py").read_text()))
        assert doc, f"tournaments/{package}/__init__.py says what the package holds"
