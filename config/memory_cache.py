"""A per-process cache bounded by the bytes it holds, for rendered pages and bodies.

Django's local-memory cache bounds the number of entries, not their size: a few
thousand pages of a national event's divisions can hold hundreds of megabytes in
each worker. This backend keeps the same contract (pickled values, timeouts) in a
``cachetools.LRUCache`` whose size is the pickled bytes plus the key: when a new entry
does not fit, the least recently used ones go first, and an entry larger than the
whole budget is not kept. Configure it in ``CACHES``::

    "default": {
        "BACKEND": "config.memory_cache.BoundedMemoryCache",
        "LOCATION": "scrabble-records",
        "OPTIONS": {"MAX_BYTES": 64 * 2**20},
    }

Like ``LocMemCache`` it is per process: it holds what may be rebuilt, never a limit
that must hold across workers (the sign-in throttle lives in the database).
"""

from __future__ import annotations

import pickle
import threading
import time
from typing import Any

from cachetools import LRUCache
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

DEFAULT_MAX_BYTES = 64 * 2**20
# What an entry costs beside its pickled value: the key's string, the tuple, the
# LRU order's node (measured with sys.getsizeof, rounded up).
ENTRY_OVERHEAD = 256

_Entry = tuple[float | None, bytes, int]  # expiry, pickled value, key length

_stores: dict[str, tuple[LRUCache, threading.Lock]] = {}
_stores_lock = threading.Lock()


def _entry_size(entry: _Entry) -> int:
    return len(entry[1]) + entry[2] + ENTRY_OVERHEAD


class BoundedMemoryCache(BaseCache):
    """Django's cache API over an LRU cache bounded in bytes (``OPTIONS.MAX_BYTES``)."""

    pickle_protocol = pickle.HIGHEST_PROTOCOL

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        options = params.get("OPTIONS", {})
        max_bytes = max(0, int(options.get("MAX_BYTES", DEFAULT_MAX_BYTES)))
        # One store per LOCATION, shared by every thread's backend instance.
        with _stores_lock:
            if name not in _stores:
                _stores[name] = (
                    LRUCache(maxsize=max_bytes, getsizeof=_entry_size),
                    threading.Lock(),
                )
        self._store, self._lock = _stores[name]

    @property
    def max_bytes(self) -> int:
        return int(self._store.maxsize)

    @property
    def current_bytes(self) -> int:
        """The bytes the entries hold now, as the bound counts them."""
        return int(self._store.currsize)

    def __len__(self) -> int:
        return len(self._store)

    def _live(self, key: str) -> _Entry | None:
        """The entry under `key` unless it has expired (then it is dropped)."""
        entry = self._store.get(key)
        if entry is not None and entry[0] is not None and entry[0] <= time.time():
            del self._store[key]
            return None
        return entry

    def _put(self, key: str, value: Any, timeout: Any) -> None:
        pickled = pickle.dumps(value, self.pickle_protocol)
        entry = (self.get_backend_timeout(timeout), pickled, len(key))
        try:
            self._store[key] = entry
        except ValueError:
            # Larger than the whole budget: not kept, and no stale value either.
            self._store.pop(key, None)

    def add(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._live(key) is not None:
                return False
            self._put(key, value, timeout)
            return True

    def get(self, key: str, default: Any = None, version: Any = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            entry = self._live(key)
        return default if entry is None else pickle.loads(entry[1])

    def set(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            self._put(key, value, timeout)

    def touch(
        self, key: str, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            entry = self._live(key)
            if entry is None:
                return False
            self._store[key] = (self.get_backend_timeout(timeout), *entry[1:])
            return True

    def delete(self, key: str, version: Any = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            return self._store.pop(key, None) is not None

    def has_key(self, key: str, version: Any = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            return self._live(key) is not None

    def clear(self) -> None:
        with self._lock:
            self._store.clear()
