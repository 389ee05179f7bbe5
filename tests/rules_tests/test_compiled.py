"""The compiled rules core's gate (rules/compiled.py): edited sources never run as
stale compiled code, ``RULES_PURE`` and a missing build run the Python sources, and
the two builds agree (README, "The compiled rules core")."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from rules import compiled as gate
from rules.gcg import read
from rules.state import replay

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT.parent / "shared" / "gcg"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of rules/'s sources (no build) that the gate's checks look at."""
    copy = tmp_path / "rules"
    shutil.copytree(
        gate.PACKAGE_DIR,
        copy,
        ignore=shutil.ignore_patterns("__pycache__", "__compiled__", "*.so", "*.pyd"),
    )
    monkeypatch.setattr(gate, "PACKAGE_DIR", copy)
    monkeypatch.setattr(gate, "BUILD_DIR", copy / "__compiled__")
    monkeypatch.setattr(gate, "STAMP", copy / "__compiled__" / "stamp.json")
    return copy


def _stamp(package: Path) -> None:
    """The stamp a build of the sources as they are now would leave."""
    (package / "__compiled__").mkdir(exist_ok=True)
    stamp = {
        "tag": gate.build_tag(),
        "sources": {name: gate.record(name) for name in gate.sources()},
    }
    (package / "__compiled__" / "stamp.json").write_text(json.dumps(stamp))


def test_no_build_is_not_stale_but_not_built(package: Path) -> None:
    assert gate.stale_reason() == "not built"


def test_a_fresh_stamp_lets_the_compiled_modules_run(package: Path) -> None:
    _stamp(package)
    assert gate.stale_reason() is None


def test_an_edited_source_is_named(package: Path) -> None:
    _stamp(package)
    board = package / "board.py"
    board.write_text(board.read_text() + "\n# edited\n")
    reason = gate.stale_reason()
    assert reason is not None
    assert "board.py" in reason


def test_an_edit_that_keeps_time_and_size_is_still_found(package: Path) -> None:
    """A digit changed within a second: time and size as stamped, bytes not."""
    board = package / "board.py"
    text = board.read_text()
    _stamp(package)
    status = board.stat()
    index = text.index("0")
    board.write_text(text[:index] + "1" + text[index + 1 :])
    os.utime(board, ns=(status.st_atime_ns, status.st_mtime_ns + 1))
    reason = gate.stale_reason()
    assert reason is not None
    assert "board.py" in reason


def test_a_touched_but_unchanged_source_keeps_the_build(package: Path) -> None:
    _stamp(package)
    board = package / "board.py"
    status = board.stat()
    os.utime(board, ns=(status.st_atime_ns, status.st_mtime_ns + 10**9))
    assert gate.stale_reason() is None


def test_an_added_or_removed_source_is_named(package: Path) -> None:
    _stamp(package)
    (package / "extra.py").write_text("X = 1\n")
    assert "extra.py" in (gate.stale_reason() or "")
    (package / "extra.py").unlink()
    (package / "tsh.py").unlink()
    assert "tsh.py" in (gate.stale_reason() or "")


def test_a_build_for_another_python_is_not_used(package: Path) -> None:
    _stamp(package)
    stamp = json.loads(gate.STAMP.read_text())
    stamp["tag"] = "cpython-39-plan9"
    gate.STAMP.write_text(json.dumps(stamp))
    assert "cpython-39-plan9" in (gate.stale_reason() or "")


def _import_in(directory: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Import rules from `directory` in a new interpreter; print what ran."""
    script = (
        "import rules, rules.board; "
        "print(rules.COMPILED, rules.board.__file__.rsplit('.', 1)[-1])"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=directory,
        env={**os.environ, "PYTHONPATH": str(directory), **env},
        capture_output=True,
        text=True,
        check=False,
    )


def _broken_build(package: Path) -> None:
    """An extension module beside board.py that crashes the import if loaded."""
    suffix = gate.importlib.machinery.EXTENSION_SUFFIXES[0]
    (package / f"board{suffix}").write_bytes(b"not a shared library")


def test_an_edited_source_runs_as_python_with_a_warning(package: Path) -> None:
    _broken_build(package)
    _stamp(package)
    board = package / "board.py"
    board.write_text(board.read_text() + "\n# edited after the build\n")
    done = _import_in(package.parent, RULES_PURE="")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "py"]
    assert "board.py" in done.stderr
    assert "config/build_rules.py" in done.stderr


def test_rules_pure_runs_the_python_sources(package: Path) -> None:
    _broken_build(package)
    _stamp(package)
    done = _import_in(package.parent, RULES_PURE="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "py"]
    assert done.stderr == ""


def test_no_build_runs_the_python_sources_quietly(package: Path) -> None:
    done = _import_in(package.parent, RULES_PURE="")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "py"]
    assert done.stderr == ""


def test_a_fresh_build_is_the_one_that_runs() -> None:
    """Where config/build_rules.py built the tree's rules, this process runs it
    (./test.sh builds first: the suite runs compiled where a compiler is)."""
    expected = gate.stale_reason() is None and not gate.pure_requested()
    assert rules.COMPILED is expected
    suffix = Path(rules.board.__file__ or "").suffix
    assert suffix == (".so" if expected else ".py")


_PURE_REPLAY = """
import pickle, sys
from pathlib import Path
import rules
from rules.gcg import read
from rules.state import replay
assert not rules.COMPILED
games = sorted(Path(sys.argv[1]).glob("*.gcg"))
states = [replay(read(path.read_bytes()).events) for path in games]
sys.stdout.buffer.write(pickle.dumps(states, protocol=pickle.HIGHEST_PROTOCOL))
"""


def test_the_python_sources_agree_with_this_build() -> None:
    """The six real games replayed by the Python sources (in a child) equal this
    process's replays (compared here, from the child's pickle: a compiled class's
    own pickle does not load into the Python class, so kept states name their
    build, games.snapshots)."""
    ours = [
        replay(read(path.read_bytes()).events) for path in sorted(GAMES.glob("*.gcg"))
    ]
    assert len(ours) == 6
    child = subprocess.run(
        [sys.executable, "-c", _PURE_REPLAY, str(GAMES)],
        cwd=ROOT,
        env={**os.environ, "RULES_PURE": "1"},
        capture_output=True,
        check=False,
    )
    assert child.returncode == 0, child.stderr.decode()
    assert pickle.loads(child.stdout) == ours


_LOADED = """
import importlib, json, pkgutil, sys
before = set(sys.modules)
import rules
for info in pkgutil.walk_packages(rules.__path__, "rules."):
    if not info.name.endswith("__main__"):
        importlib.import_module(info.name)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_the_rules_load_only_the_standard_library_at_run_time() -> None:
    """Every module of rules/, as this run's build has it (compiled: the shared
    library, no mypyc runtime package), loads nothing but the standard library."""
    done = subprocess.run(
        [sys.executable, "-c", _LOADED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = {name.split(".")[0] for name in json.loads(done.stdout)}
    outside = loaded - set(sys.stdlib_module_names) - {"rules", gate.SHARED_LIB}
    assert not outside
    assert "rules" in loaded
