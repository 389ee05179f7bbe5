"""States sealed for the event store to keep: a game's as its last replay left it
(and, through ``seal``/``unseal``, a tournament's: tournaments.streams).

The game page shows a game's final position and score sheet. Built from the log, it
read the game's events and replayed them: half the page's cost. In the national
benchmark, readers open games at random among thousands, so nearly every game page
was built from scratch. Each append now leaves the replayed state with the store
(``games.eventstore.kept``, keyed by stream and version), and the page asks the
store for it. A turn page before the last turn still replays, because it shows a
position the snapshot does not hold.

A snapshot is a cache of the log: written in the append's transaction with the
projection, written again by ``rebuild_projections``, and never the record. The
events stay the record. A snapshot the current code cannot vouch for is not used,
and the page replays instead. That covers a snapshot from other rules code or another
Python, from another game or version, made with another ``SECRET_KEY``, or altered
in the database.

Pickled because the state is a tree of the rules engine's frozen dataclasses: a
national game's state loads in about 0.1 ms, where reading its events alone took
0.8-1.4 ms and replaying them 1.0 ms.
Unpickling runs code named in the data, so every snapshot carries an HMAC over the
rules' fingerprint, the game, its version and the pickle. Without the
``SECRET_KEY``, nobody who can write the table can make the server unpickle
anything. Django's own database cache backend pickles into a table with no such
check.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import hmac
import importlib
import importlib.machinery
import io
import logging
import operator
import pickle
import pkgutil
import sys
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.crypto import salted_hmac

import rules
from rules import state as rs

logger = logging.getLogger(__name__)

_EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)

# Bump when what is pickled changes shape outside rules/ (the context, the tuple).
FORMAT = b"game-snapshot-1"
_MAC_SIZE = 32  # sha256


@cache
def rules_fingerprint() -> bytes:
    """A digest of the rules engine's source and the Python that runs it: the
    pickled classes are theirs, so a snapshot made by other code is not used."""
    return source_fingerprint(Path(rules.__file__).parent)


def source_fingerprint(root: Path) -> bytes:
    """A digest of every file under `root` (names and bytes), the snapshot format,
    the Python version and the rules build (compiled or not)."""
    digest = hashlib.sha256(FORMAT)
    digest.update(f"{sys.version_info.major}.{sys.version_info.minor}".encode())
    # Which build runs (rules/compiled.py): a compiled class's default pickle is not
    # the Python class's (a kept state is used by the build that made it).
    digest.update(b"compiled" if rules.COMPILED else b"python")
    for path in sorted(root.rglob("*")):
        # Not the compiled modules (rules/compiled.py): built from these sources,
        # several megabytes to read in every new worker (the build is named above).
        if (
            path.is_file()
            and "__pycache__" not in path.parts
            and "__compiled__" not in path.parts
            and not path.name.endswith(_EXTENSION_SUFFIXES)
        ):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.digest()


def _mac(
    purpose: str, fingerprint: bytes, key: uuid.UUID, version: int, payload: bytes
) -> bytes:
    message = b"".join((fingerprint, key.bytes, version.to_bytes(8, "big"), payload))
    return salted_hmac(purpose, message, algorithm="sha256").digest()


def _positional_reducer(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    values = operator.attrgetter(*names)
    if len(names) == 1:
        return lambda obj: (type(obj), (values(obj),))
    return lambda obj: (type(obj), values(obj))


@cache
def _dispatch_table() -> dict[type, Callable[[Any], tuple[Any, ...]]]:
    """How the rules' dataclasses are pickled: as a call of the class with its
    fields in order.

    The dataclasses' own pickling restores each object through a function that
    lists the class's fields again for every object: a game's state (about 120
    objects) loaded in 0.29 ms that way, and in 0.10 ms as calls of the classes.
    Classes whose constructor does more than store its fields (``__post_init__``,
    fields outside ``__init__`` or keyword-only) keep the default.
    """
    table: dict[type, Callable[[Any], tuple[Any, ...]]] = {}
    # Every module, those of sub-packages too (rules.tournament is a package).
    for module_info in pkgutil.walk_packages(rules.__path__, f"{rules.__name__}."):
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if not (
                isinstance(value, type)
                and dataclasses.is_dataclass(value)
                and value.__module__ == module.__name__
            ):
                continue
            fields = dataclasses.fields(value)
            if (
                fields
                and not hasattr(value, "__post_init__")
                and all(field.init and not field.kw_only for field in fields)
            ):
                table[value] = _positional_reducer([field.name for field in fields])
    return table


def seal(
    purpose: str, fingerprint: bytes, key: uuid.UUID, version: int, value: Any
) -> bytes:
    """`value` (the state of stream `key` at `version`) pickled under an HMAC of
    `purpose`, the code's `fingerprint`, the stream and the version."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _dispatch_table()
    pickler.dump(value)
    payload = buffer.getvalue()
    return _mac(purpose, fingerprint, key, version, payload) + payload


def unseal(
    purpose: str,
    fingerprint: bytes,
    key: uuid.UUID,
    version: int,
    blob: bytes | memoryview | None,
) -> Any | None:
    """What `seal` sealed with the same arguments, or None when there is nothing or
    it is not this code's snapshot of this stream at this version (then replay)."""
    if not blob:
        return None
    data = bytes(blob)
    mac, payload = data[:_MAC_SIZE], data[_MAC_SIZE:]
    if not hmac.compare_digest(mac, _mac(purpose, fingerprint, key, version, payload)):
        # Expected after a deploy that changed the code (until the next rebuild) or
        # a change of SECRET_KEY; anything else means the row was altered.
        return None
    try:
        with _collector_paused():
            return pickle.loads(payload)  # authenticated above
    except Exception:  # a page must not fail on a projection: replay instead
        logger.exception("%s %s: an authenticated snapshot did not load", purpose, key)
        return None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No garbage collection while a snapshot is unpickled.

    A national tournament's state is about 210,000 objects; the collector, set off
    by every 700 new ones, walked the ones made so far again and again: its load
    took 140-210 ms with the collector running and 85-107 ms without (same process,
    alternated). The pause holds for every thread of the process, for that long.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_GAMES = "games.snapshots"


def dump(
    game_id: uuid.UUID, version: int, state: rs.GameState, context: Mapping[str, Any]
) -> bytes:
    """The snapshot of `state` (the game's state at `version`) and its context."""
    return seal(_GAMES, rules_fingerprint(), game_id, version, (state, dict(context)))


def load(
    game_id: uuid.UUID, version: int, blob: bytes | memoryview | None
) -> tuple[rs.GameState, dict[str, Any]] | None:
    """The state and context a snapshot holds, or None when there is none or it is
    not this code's snapshot of this game at this version (then replay)."""
    value = unseal(_GAMES, rules_fingerprint(), game_id, version, blob)
    if not isinstance(value, tuple) or len(value) != 2:
        return None
    state, context = value
    if not isinstance(state, rs.GameState) or not isinstance(context, dict):
        return None
    return state, context
