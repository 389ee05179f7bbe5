"""Each process's states by stream, at the version they were replayed to."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import Any

from games.eventstore.streams import StreamKey


class StateCache:
    """States by stream at their version, per process, least recently used dropped.

    Saves replaying a whole stream on every append (a national tournament has tens of
    thousands of events). An entry says what the stream *was* at its version, which
    never changes (events are immutable): an append trusting it for an older version
    than the database's fails on the unique (stream, version) key, so a stale entry
    can cost a retry but never a wrong write.
    """

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._entries: OrderedDict[uuid.UUID, tuple[int, Any, str | None]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def entry(self, stream: StreamKey) -> tuple[int, Any, str | None] | None:
        """(version, state, chain hash of the last event) or None."""
        with self._lock:
            entry = self._entries.get(stream.id)
            if entry is not None:
                self._entries.move_to_end(stream.id)
            return entry

    def get(self, stream: StreamKey, version: int) -> Any | None:
        entry = self.entry(stream)
        if entry is None or entry[0] != version:
            return None
        return entry[1]

    def put(
        self,
        stream: StreamKey,
        version: int,
        state: Any,
        chain_hash: str | None = None,
    ) -> None:
        with self._lock:
            self._entries[stream.id] = (version, state, chain_hash)
            self._entries.move_to_end(stream.id)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def discard(self, stream: StreamKey) -> None:
        """Forget one stream (its log turned out not to be what was cached)."""
        with self._lock:
            self._entries.pop(stream.id, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


state_cache = StateCache()
