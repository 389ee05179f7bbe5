"""rules/ is pure: it imports nothing outside the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # a relative import stays inside rules/
                found.add("rules")
            elif node.module:
                found.add(node.module.split(".")[0])
    return found


def test_rules_imports_only_the_standard_library():
    """Every module of rules/ (its sub-packages too) imports only stdlib modules or
    rules itself."""
    modules = sorted(RULES.rglob("*.py"))
    assert RULES / "tournament" / "replay.py" in modules
    assert len(modules) > 5
    for path in modules:
        outside = {
            name
            for name in _imported_modules(path)
            if name != "rules" and name not in sys.stdlib_module_names
        }
        assert not outside, f"{path.relative_to(RULES)} imports {sorted(outside)}"


def test_purity_check_catches_a_third_party_import(tmp_path):
    """The check itself flags a module that is not in the standard library."""
    module = tmp_path / "impure.py"
    module.write_text("import django\nfrom rules import board\nimport json\n")
    assert _imported_modules(module) == {"django", "rules", "json"}
    assert "django" not in sys.stdlib_module_names
