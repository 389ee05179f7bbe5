"""Which rules modules run: the ones mypyc compiled, or the Python sources.

``config/build_rules.py`` compiles every module of ``rules/`` but this one and the
package's ``__init__`` (README, "The compiled rules core"): an extension module
beside each source (``rules/board.cpython-311-….so`` beside ``rules/board.py``) and
the shared library they all load, with a stamp of the sources it was built from, in
``rules/__compiled__/``. Importing this module (``rules/__init__`` does it before
anything else of the package) makes the choice, `ACTIVE`:

- the compiled modules run when the stamp matches the sources (same files, same
  bytes) and the Python is the one they were built for;
- the Python sources run when ``RULES_PURE`` is set (to anything but "" or "0"),
  when nothing was built (no C compiler, or never asked), and, with a warning,
  when a source changed since the build: edited rules never run as stale
  compiled code.

Checking the stamp costs a ``stat`` of each source (about 100, under a
millisecond); a file whose time or size changed is read and hashed, so a checkout
that touched a file without changing it keeps the compiled modules.
Standard library only, and never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
BUILD_DIR = PACKAGE_DIR / "__compiled__"
STAMP = BUILD_DIR / "stamp.json"
# The shared library every compiled module loads, by this top-level name.
SHARED_LIB = "rules__mypyc"
PURE_ENV = "RULES_PURE"
# Run as Python whatever was built: the gate itself and what runs before it; the
# event classes, whose ``type_name: ClassVar[str] = ...`` mypyc hands to the
# dataclass decorator as a field (mypyc/mypyc#740: "non-default argument follows
# default argument" at import); and every class an event holds (the rules, tile
# sets, division rules): a compiled dataclass's annotations lose their type
# arguments (``tuple[str, ...]`` becomes ``tuple``, ``int | None`` becomes
# ``type``), and the event store's codec and ``ruleset_from_text`` read them.
NOT_COMPILED = frozenset(
    {
        "compiled.py",
        "gcg/__main__.py",
        "events.py",
        "tournament/events.py",
        "ruleset.py",
        "tiles.py",
        "division_rules.py",
        # The project's own errors subclass RulesError, and Python code cannot
        # subclass a compiled class.
        "errors.py",
    }
)

# A source as the stamp records it: [mtime_ns, size, sha256 hex].
SourceRecord = list[int | str]


def sources() -> list[str]:
    """Every Python source of the package, relative to it, in a stable order."""
    return sorted(
        path.relative_to(PACKAGE_DIR).as_posix()
        for path in PACKAGE_DIR.rglob("*.py")
        if "__pycache__" not in path.parts
    )


def compiled_sources() -> list[str]:
    """The sources the build compiles: not the packages' ``__init__`` either (a
    compiled one runs before the import system gives the package its path, so it
    cannot import a module of its own that stays Python)."""
    return [
        name
        for name in sources()
        if name not in NOT_COMPILED and not name.endswith("__init__.py")
    ]


def record(name: str) -> SourceRecord:
    """The stamp's record of source `name` as it is now."""
    path = PACKAGE_DIR / name
    status = path.stat()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return [status.st_mtime_ns, status.st_size, digest]


def build_tag() -> str:
    """The interpreter the extension modules are for."""
    return f"{sys.implementation.cache_tag}-{sys.platform}"


def changed_sources(recorded: dict[str, SourceRecord]) -> list[str]:
    """The sources added, removed or changed since `recorded` was taken: cheap
    when nothing changed (one ``stat`` each), a hash only where time or size did."""
    # This module decides, it is not compiled and no compiled code depends on it.
    names = [name for name in sources() if name != "compiled.py"]
    recorded = {name: item for name, item in recorded.items() if name != "compiled.py"}
    changed = sorted(set(names).symmetric_difference(recorded))
    for name in names:
        if name not in recorded:
            continue
        status = (PACKAGE_DIR / name).stat()
        mtime_ns, size, digest = recorded[name]
        if (status.st_mtime_ns, status.st_size) == (mtime_ns, size):
            continue
        if record(name)[2] != digest:
            changed.append(name)
    return changed


def read_stamp() -> dict[str, object] | None:
    """The stamp of the last complete build, or None."""
    try:
        value = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def stale_reason() -> str | None:
    """Why the compiled modules cannot run (None: they can). "not built" when
    there is no build at all."""
    stamp = read_stamp()
    if stamp is None:
        return "not built"
    if stamp.get("tag") != build_tag():
        return f"built for {stamp.get('tag')}, this is {build_tag()}"
    recorded = stamp.get("sources")
    if not isinstance(recorded, dict):
        return "the stamp lists no sources"
    changed = changed_sources(recorded)
    if changed:
        shown = ", ".join(changed[:5]) + (" …" if len(changed) > 5 else "")
        return f"changed since the build: {shown}"
    return None


class _SourcesOnly:
    """A finder that loads the package's modules from their Python sources (or
    their bytecode cache), never from an extension module beside them."""

    def __init__(self) -> None:
        self._finders: dict[str, importlib.machinery.FileFinder] = {}

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(f"{__package__}.") or path is None:
            return None
        for directory in path:
            finder = self._finders.get(directory)
            if finder is None:
                finder = importlib.machinery.FileFinder(
                    directory,
                    (
                        importlib.machinery.SourceFileLoader,
                        importlib.machinery.SOURCE_SUFFIXES,
                    ),
                    (
                        importlib.machinery.SourcelessFileLoader,
                        importlib.machinery.BYTECODE_SUFFIXES,
                    ),
                )
                self._finders[directory] = finder
            spec = finder.find_spec(fullname)
            if spec is not None:
                return spec
        return None


def _use_sources() -> None:
    if not any(isinstance(finder, _SourcesOnly) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourcesOnly())


def _load_shared_lib() -> None:
    """Load the compiled modules' shared library from the build folder, whatever
    ``sys.path`` holds (the modules import it by its top-level name)."""
    if SHARED_LIB in sys.modules:
        return
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    location = BUILD_DIR / f"{SHARED_LIB}{suffix}"
    spec = importlib.util.spec_from_file_location(SHARED_LIB, location)
    if spec is None or spec.loader is None:
        raise ImportError(f"no shared library at {location}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[SHARED_LIB] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[SHARED_LIB]
        raise


def pure_requested() -> bool:
    """Whether ``RULES_PURE`` asks for the Python sources."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def choose() -> bool:
    """Make the package's imports load the compiled modules (True) or the Python
    sources (False); see the module notes."""
    if pure_requested():
        _use_sources()
        return False
    reason = stale_reason()
    if reason is None:
        try:
            _load_shared_lib()
        except ImportError as error:
            reason = f"the shared library did not load ({error})"
        else:
            return True
    if reason != "not built":
        warnings.warn(
            f"rules: running the Python sources, not the compiled modules: "
            f"{reason}. Rebuild with `python config/build_rules.py`.",
            RuntimeWarning,
            stacklevel=2,
        )
    _use_sources()
    return False


# Chosen once, before any other module of the package is imported.
ACTIVE: bool = choose()
