"""Verify the log itself: each stream's versions and keyed hash chain, and its head.

An event changed, inserted or removed in the database breaks its stream's chain or
leaves a gap; its hash cannot be made again without the log's key
(``games.eventstore.chain``). The last events of a stream deleted leave no gap, but
the stream's recorded head (``StreamHead``, written with every append) is then
ahead of the log. Usage::

    events, streams, problems = verify_log()       # every stream, from the database
    verify_stream(StreamKey("game", game_id))     # one stream's problems
    head_problems()                               # logs that end before their head

``manage.py verify_events`` reports all of them, and the projections' agreement
with a replay (``games.eventstore.repair``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from games.eventstore.chain import (
    ChainKey,
    chain_hash_of_line,
    head_mac,
    legacy_chain_hash,
    log_key,
)
from games.eventstore.errors import CodecError, EventStoreError
from games.eventstore.models import StoredEvent
from games.eventstore.streams import StreamKey, StreamType, stream_type

# The log's columns as a backup line names them (recorded_by: the user's id), and
# as SQL selects them in that order.
EVENT_FIELDS = (
    "position",
    "stream_type",
    "stream_id",
    "version",
    "event_type",
    "schema_version",
    "payload",
    "metadata",
    "recorded_at",
    "recorded_by",
    "correlation_id",
    "chain_hash",
)
EVENT_LINE_COLUMNS = ", ".join(
    "recorded_by_id" if name == "recorded_by" else name for name in EVENT_FIELDS
)


def line_of(*columns: Any) -> dict[str, Any]:
    """One event as a backup line holds it, from its columns in EVENT_FIELDS' order
    (ids and times written as text): the form the chain is verified in, from the
    database and from a file alike."""
    line = {"kind": "event", **dict(zip(EVENT_FIELDS, columns, strict=True))}
    line["stream_id"] = str(line["stream_id"])
    line["recorded_at"] = line["recorded_at"].isoformat()
    if line["correlation_id"] is not None:
        line["correlation_id"] = str(line["correlation_id"])
    return line


def event_line(row: StoredEvent) -> dict[str, Any]:
    """One event row as a backup line's object."""
    return line_of(*(getattr(row, name) for name in EVENT_LINE_COLUMNS.split(", ")))


@dataclass(frozen=True, slots=True)
class ChainProblem:
    """A place where the database's log does not verify."""

    stream: StreamKey
    version: int
    problem: str

    def __str__(self) -> str:
        return f"{self.stream}@{self.version}: {self.problem}"


@dataclass
class _StreamCheck:
    """What is known of one stream so far while walking a log in order."""

    handler: StreamType[Any]
    version: int = 0
    hash: str = ""
    state: Any = None
    # The decoded events with their metadata, when the checker keeps them (a
    # bulk restore projects what it checked).
    events: list[tuple[object, Any]] = field(default_factory=list)


class LogChecker:
    """Walks events in log order and checks each stream's versions, chain and rules.

    `scheme` gives the hash an event should carry (default: the keyed chain under
    `key`); a backup written before the key is checked with the legacy hash.
    """

    def __init__(
        self,
        key: ChainKey,
        *,
        replay: bool,
        scheme: Callable[[str, dict[str, Any]], str] | None = None,
        keep_events: bool = False,
    ) -> None:
        self.key = key
        self.replay = replay
        self.keep_events = keep_events
        self.scheme = scheme or (
            lambda previous, line: chain_hash_of_line(previous, line, key)
        )
        self.streams: dict[uuid.UUID, _StreamCheck] = {}
        self.events = 0

    def check(self, stream: StreamKey, event: dict[str, Any]) -> list[str]:
        """Problems of this event (empty when it verifies)."""
        try:
            handler = stream_type(stream.type)
        except EventStoreError as error:
            return [str(error)]
        seen = self.streams.setdefault(stream.id, _StreamCheck(handler))
        if seen.handler is not handler:
            return [f"stream {stream.id} is also a {seen.handler.name} stream"]
        problems = []
        version = event["version"]
        if version != seen.version + 1:
            # The chain cannot be checked across a gap: the link is what is missing.
            problems.append(
                f"version {version} follows {seen.version}: "
                f"version {seen.version + 1} is missing or out of order"
            )
        elif self.scheme(seen.hash, event) != event["chain_hash"]:
            problems.append(self._mismatch(seen.hash, event))
        if self.replay and not problems:
            problems.extend(self._apply(stream, seen, event))
        seen.version = version
        seen.hash = event["chain_hash"]
        self.events += 1
        return problems

    @staticmethod
    def _mismatch(previous: str, event: dict[str, Any]) -> str:
        if legacy_chain_hash(previous, event) == event["chain_hash"]:
            return (
                "chain hash mismatch (a plain sha256, not made with this log's key: "
                "forged, or written before the key and never migrated)"
            )
        return "chain hash mismatch (not made with this log's key: changed or forged)"

    def _apply(
        self, stream: StreamKey, seen: _StreamCheck, event: dict[str, Any]
    ) -> list[str]:
        handler = seen.handler
        try:
            decoded = handler.codec.decode(
                event["event_type"], event["schema_version"], event["payload"]
            )
            if seen.state is None:
                seen.state = handler.initial_state(stream)
            seen.state = handler.apply(
                seen.state, decoded, event["version"], event["metadata"]
            )
            if self.keep_events:
                seen.events.append((decoded, event["metadata"]))
        except CodecError as error:
            return [f"cannot be decoded: {error}"]
        except handler.rejection_errors as error:
            message = getattr(error, "message", str(error))
            return [f"refused by the rules: {message}"]
        except (TypeError, ValueError, KeyError) as error:
            return [f"refused by the rules: {error}"]
        return []


def _walk(
    checker: LogChecker, rows: Iterable[StoredEvent], progress: Callable[[int], None]
) -> list[ChainProblem]:
    problems: list[ChainProblem] = []
    for count, row in enumerate(rows, start=1):
        stream = StreamKey(row.stream_type, row.stream_id)
        for problem in checker.check(stream, event_line(row)):
            problems.append(ChainProblem(stream, row.version, problem))
        if count % 1000 == 0:
            progress(1000)
    return problems


def verify_log(
    *,
    replay: bool = False,
    progress: Callable[[int], None] | None = None,
    key: ChainKey | None = None,
) -> tuple[int, int, list[ChainProblem]]:
    """Recompute every stream's chain from the database.

    Returns (events, streams, problems). A changed column breaks its event's hash
    (and one written by someone without the key cannot verify); a changed hash
    breaks the next event's; a deleted event leaves a gap. After a mismatch the
    stored hash is trusted for the next event, so each problem is reported where it
    is. With `replay`, every event is also decoded and applied through the rules.
    """
    checker = LogChecker(key or log_key(), replay=replay)
    rows = StoredEvent.objects.order_by("stream_id", "version").iterator(
        chunk_size=5000
    )
    problems = _walk(checker, rows, progress or (lambda _: None))
    return checker.events, len(checker.streams), problems


def verify_stream(stream: StreamKey, key: ChainKey | None = None) -> list[ChainProblem]:
    """One stream's chain problems, from the database (empty when it verifies)."""
    checker = LogChecker(key or log_key(), replay=False)
    rows = StoredEvent.objects.filter(stream_id=stream.id).order_by("version")
    return _walk(checker, rows, lambda _: None)


@dataclass(frozen=True, slots=True)
class HeadProblem:
    """A stream whose log does not end where its recorded head says."""

    stream: StreamKey
    log_version: int  # 0: no events
    head_version: int | None  # None: no head recorded
    problem: str

    def __str__(self) -> str:
        return f"{self.stream}: {self.problem}"


# Each head against its stream's last event (one probe of the (stream_id, version)
# key per head), then the streams that have events but no head.
_HEADS = """
SELECT h.stream_type, h.stream_id, l.version, l.chain_hash, h.version, h.chain_hash
FROM event_stream_head AS h
LEFT JOIN LATERAL (
    SELECT version, chain_hash FROM event_log AS e
    WHERE e.stream_id = h.stream_id ORDER BY version DESC LIMIT 1
) AS l ON true
WHERE l.version IS DISTINCT FROM h.version OR l.chain_hash IS DISTINCT FROM h.chain_hash
UNION ALL
SELECT e.stream_type, e.stream_id, max(e.version), NULL, NULL, NULL
FROM event_log AS e
WHERE NOT EXISTS (SELECT 1 FROM event_stream_head AS h WHERE h.stream_id = e.stream_id)
GROUP BY e.stream_type, e.stream_id
"""


_ALL_HEADS = (
    "SELECT stream_type, stream_id, version, chain_hash, mac FROM event_stream_head"
)


def head_problems(key: ChainKey | None = None) -> list[HeadProblem]:
    """Every stream whose head's code does not verify under the key (rewound or
    forged), whose log ends before or after its recorded head, or whose last
    event is not the one recorded there."""
    key = key or log_key()
    with connection.cursor() as cursor:
        cursor.execute(_HEADS)
        rows = cursor.fetchall()
        cursor.execute(_ALL_HEADS)
        heads = cursor.fetchall()
    problems = [
        HeadProblem(
            StreamKey(type_name, stream_id),
            version,
            version,
            f"its head (version {version}) does not carry a code made with this "
            "log's key: it was rewound or forged in the database",
        )
        for type_name, stream_id, version, chain, mac in heads
        if mac != head_mac(key, type_name, stream_id, version, chain)
    ]
    for type_name, stream_id, log_version, log_hash, head_version, head_hash in rows:
        stream = StreamKey(type_name, stream_id)
        log_version = log_version or 0
        problems.append(
            HeadProblem(
                stream,
                log_version,
                head_version,
                _head_problem(log_version, log_hash, head_version, head_hash),
            )
        )
    return sorted(problems, key=lambda item: str(item.stream))


def _head_problem(
    log_version: int, log_hash: str | None, head_version: int | None, head_hash: Any
) -> str:
    if head_version is None:
        return (
            f"the log is at version {log_version} but no head was recorded: "
            "its events were written around the store"
        )
    if log_version < head_version:
        return (
            f"the log ends at version {log_version} but its head was recorded at "
            f"{head_version}: events were deleted"
        )
    if log_version > head_version:
        return (
            f"the log goes on to version {log_version} after its head at "
            f"{head_version}: events were added around the store"
        )
    return (
        f"its last event (version {log_version}) is not the one recorded as its "
        f"head: it was replaced (head {head_hash[:12]}…, log {(log_hash or '')[:12]}…)"
    )
