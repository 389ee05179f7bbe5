"""rules/ has no import cycle: its modules form layers, each importing only below.

Every import counts, at module level or inside a function (an import deferred into a
function to dodge a circle is still a circle). Importing ``rules.a.b`` from outside
the package ``rules.a`` runs ``rules/a/__init__.py`` first, so it counts as an
import of the package too.
"""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"


def _module_name(root: Path, path: Path) -> str:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Return each module of the package at ``root`` with the package's modules it
    imports (anywhere in its source)."""
    modules = {_module_name(root, path): path for path in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[
                        : len(package.split(".")) - node.level + 1
                    ]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    targets.add(submodule if submodule in modules else base)
        edges = set()
        for target in targets:
            if target not in modules:
                continue
            edges.add(target)
            # The packages above the target run first, unless the importer is
            # already inside them (then they are being initialised already).
            parts = target.split(".")
            for size in range(1, len(parts)):
                parent = ".".join(parts[:size])
                if parent in modules and not (name + ".").startswith(parent + "."):
                    edges.add(parent)
        edges.discard(name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one import cycle (its modules, the first repeated at the end), or
    None when the graph has none."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack = [(start, iter(sorted(graph[start])))]
        path.append(start)
        on_path.add(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif child in on_path:
                return [*path[path.index(child) :], child]
            elif child not in done:
                stack.append((child, iter(sorted(graph[child]))))
                path.append(child)
                on_path.add(child)
    return None


def test_rules_has_no_import_cycle():
    """No module of rules/ imports, directly or through others, itself."""
    graph = import_graph(RULES)
    assert "rules.tournament.replay" in graph
    assert "rules.tournament.state" in graph["rules.tournament.standings"]
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(cycle or ())


def test_the_check_finds_a_cycle_through_a_function_import(tmp_path):
    """The checker itself sees a circle closed by an import inside a function."""
    package = tmp_path / "rules"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from rules.sub.b import thing\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "b.py").write_text(
        "def thing():\n    from rules import a\n    return a\n"
    )
    graph = import_graph(package)
    assert graph["rules.a"] == {"rules.sub.b", "rules.sub"}
    assert find_cycle(graph) == ["rules.a", "rules.sub.b", "rules.a"]
    (package / "sub" / "b.py").write_text("def thing():\n    return 1\n")
    assert find_cycle(import_graph(package)) is None


def test_the_check_counts_a_package_imported_from_outside(tmp_path):
    """Importing a sub-package's module from outside runs the package first: a
    circle through its ``__init__`` is a circle."""
    package = tmp_path / "rules"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("from rules.sub.base import x\n")
    (package / "sub" / "__init__.py").write_text("from rules.sub.top import y\n")
    (package / "sub" / "base.py").write_text("x = 1\n")
    (package / "sub" / "top.py").write_text("from rules.low import x\ny = x\n")
    cycle = find_cycle(import_graph(package))
    assert cycle is not None
    assert "rules.sub" in cycle
