"""Imports point down: the event store knows no game or tournament, and games know
tournaments only through the link tournaments register."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    """Every module a file imports, by its full dotted name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def _modules(folder: Path, *, skip: str | None = None) -> list[Path]:
    return [
        path
        for path in sorted(folder.rglob("*.py"))
        if skip is None or skip not in path.relative_to(folder).parts
    ]


def test_the_event_store_imports_no_game_or_tournament_code():
    store = ROOT / "games" / "eventstore"
    modules = _modules(store)
    assert len(modules) > 10
    for path in modules:
        domain = {
            name
            for name in _imports(path)
            if name.startswith("tournaments")
            or (name.startswith("games") and not name.startswith("games.eventstore"))
        }
        assert not domain, f"{path.relative_to(ROOT)} imports {sorted(domain)}"


def test_games_import_nothing_of_tournaments():
    games = ROOT / "games"
    for path in _modules(games, skip="eventstore"):
        upward = {name for name in _imports(path) if name.startswith("tournaments")}
        assert not upward, f"{path.relative_to(ROOT)} imports {sorted(upward)}"
        # Nor look tournaments' models up by name.
        assert '"tournaments"' not in path.read_text(encoding="utf-8"), path.name


def test_the_check_sees_a_nested_import(tmp_path):
    module = tmp_path / "upward.py"
    module.write_text("def f():\n    from tournaments.models import Tournament\n")
    assert _imports(module) == {"tournaments.models"}
