"""Append to streams and read them: validated, all-or-nothing appends.

Each stream type registers a ``StreamType`` (``games.eventstore.streams``), which
knows how to replay the stream's events through ``rules/`` (validation) and how to
update its projections. Usage::

    result = append(
        StreamKey("game", game_id),
        [TilesPlaced(...)],
        expected_version=12,
        recorded_by=request.user,
    )
    result.state      # the stream's state after the append
    result.recorded   # the stored events, with their versions and positions

`append` replays the stream (or reuses the state cached for its current version),
applies the new events through the rules, and only then writes: an event the rules
reject is never stored (:class:`EventRejectedError` carries the rule's code and
message). A stale ``expected_version`` raises :class:`ConcurrencyError` with the
current version; the unique (stream, version) key guarantees that of two appenders at
the same version exactly one wins, even when both passed validation. Projections are
updated in the same transaction as the append.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

import psycopg
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone
from psycopg.types.json import set_json_loads

from games.eventstore.cache import state_cache
from games.eventstore.chain import (
    ChainKey,
    canonical_json,
    chain_hash_of_json,
    head_mac,
    log_key,
)
from games.eventstore.errors import (
    CodecError,
    ConcurrencyError,
    EventRejectedError,
    LogKeyChangedError,
    StreamUnderReviewError,
    TamperedStreamError,
)
from games.eventstore.models import StoredEvent, StreamHead
from games.eventstore.seal import log_key_matches, seal_after_commit
from games.eventstore.sql import BulkInsert, binary_cursor, loads_utf8
from games.eventstore.streams import (
    NewEvent,
    RecordedEvent,
    StreamKey,
    StreamType,
    stream_type,
)

# --- reading ---------------------------------------------------------------------


def current_version(stream: StreamKey) -> int:
    """The stream's last version, 0 when it has no events."""
    row = (
        StoredEvent.objects.filter(stream_id=stream.id)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    return row or 0


def _stream_end(stream: StreamKey) -> tuple[int, str]:
    """The stream's last version and chain hash: (0, "") when it has no events."""
    last = (
        StoredEvent.objects.filter(stream_id=stream.id)
        .order_by("-version")
        .values_list("version", "chain_hash")
        .first()
    )
    return last if last is not None else (0, "")


# Every column of the log, in the order events_from_rows reads them.
EVENT_COLUMNS = """position, stream_id, version, event_type, schema_version, payload,
       metadata, recorded_at, recorded_by_id, correlation_id, chain_hash"""

_READ_STREAM = f"""
SELECT {EVENT_COLUMNS}
FROM event_log
WHERE stream_id = %s AND stream_type = %s AND version > %s
  AND (%s::int IS NULL OR version <= %s::int)
ORDER BY version
"""


def read_stream(
    stream: StreamKey,
    *,
    to_version: int | None = None,
    after_version: int | None = None,
) -> list[RecordedEvent]:
    """The stream's events in version order (after `after_version`, up to
    `to_version`, when given)."""
    handler = stream_type(stream.type)
    # Plain rows through the (stream_id, version) key: a game page reads its whole
    # stream on a cold cache, and a model instance per event cost more than the
    # replay.
    with binary_cursor() as cursor:
        set_json_loads(loads_utf8, cursor)
        cursor.execute(
            _READ_STREAM,
            [stream.id, stream.type, after_version or 0, to_version, to_version],
            binary=True,
        )
        return list(events_from_rows(handler, cursor))


def events_from_rows(
    handler: StreamType[Any], rows: Iterable[tuple[Any, ...]]
) -> Iterator[RecordedEvent]:
    """Events from rows of EVENT_COLUMNS read in binary: psycopg's C loaders parse
    the timestamps and ids (Django replaces the text-format timestamptz loader with
    a Python one), and jsonb arrives decoded (through loads_utf8: json.loads would
    sniff the bytes' encoding)."""
    decode = handler.codec.decode
    name = handler.name
    for (
        position,
        stream_id,
        version,
        event_type,
        schema_version,
        payload,
        metadata,
        recorded_at,
        recorded_by_id,
        correlation_id,
        chain,
    ) in rows:
        yield RecordedEvent(
            position=position,
            stream=StreamKey(name, stream_id),
            version=version,
            type_name=event_type,
            schema_version=schema_version,
            event=decode(event_type, schema_version, payload),
            metadata=metadata,
            recorded_at=recorded_at,
            recorded_by_id=recorded_by_id,
            correlation_id=correlation_id,
            chain_hash=chain,
        )


def _decode(row: StoredEvent, handler: StreamType[Any]) -> RecordedEvent:
    return RecordedEvent(
        position=row.position,
        stream=StreamKey(row.stream_type, row.stream_id),
        version=row.version,
        type_name=row.event_type,
        schema_version=row.schema_version,
        event=handler.codec.decode(row.event_type, row.schema_version, row.payload),
        metadata=row.metadata,
        recorded_at=row.recorded_at,
        recorded_by_id=row.recorded_by_id,
        correlation_id=row.correlation_id,
        chain_hash=row.chain_hash,
    )


def read_all(
    *,
    after_position: int = 0,
    stream_type_name: str | None = None,
    event_types: Sequence[str] | None = None,
    limit: int | None = None,
    chunk_size: int = 2000,
) -> Iterator[RecordedEvent]:
    """Every event after `after_position` in global order, streamed from the server."""
    rows = StoredEvent.objects.filter(position__gt=after_position)
    if stream_type_name is not None:
        rows = rows.filter(stream_type=stream_type_name)
    if event_types is not None:
        rows = rows.filter(event_type__in=event_types)
    rows = rows.order_by("position")
    if limit is not None:
        rows = rows[:limit]
    for row in rows.iterator(chunk_size=chunk_size):
        yield _decode(row, stream_type(row.stream_type))


def _state_at(
    stream: StreamKey, version: int, *, keep: bool = True
) -> tuple[Any, str | None]:
    """The stream's state and last chain hash at `version` (its current version).

    From the cache when it holds that version; when it holds an older one (another
    process appended since), only the newer events are read and applied: with
    several server processes, each one's cache falls behind on every append made by
    the others, and a full replay of a national tournament takes seconds.
    """
    handler = stream_type(stream.type)
    entry = state_cache.entry(stream)
    if entry is not None and entry[0] == version:
        return entry[1], entry[2]
    try:
        state, chain, stored = _replayed(handler, stream, entry, version)
    except (*handler.rejection_errors, CodecError, TypeError, ValueError) as error:
        # A logged event the rules refuse (inserted in the database, or accepted by
        # an older version of the rules): the record is under review, not a 500,
        # and the caller (a warm-up, a repair) can flag it and go on.
        message = getattr(error, "message", str(error))
        raise StreamUnderReviewError(stream, version, message) from error
    if stored is not False:
        since = stored[0] if stored is not None else 0
        transaction.on_commit(lambda: handler.keep_state(stream, since, version, state))
    if keep:
        state_cache.put(stream, version, state, chain)
    return state, chain


def _replayed(
    handler: StreamType[Any],
    stream: StreamKey,
    entry: tuple[int, Any, str | None] | None,
    version: int,
) -> tuple[Any, str | None, Any]:
    """(state, last chain hash, the kept state started from: None when replayed
    from the start, False when caught up from the cache) at `version`."""
    if entry is not None and 0 < entry[0] < version:
        # Bounded: a later commit must not slip into a state cached as `version`.
        newer = read_stream(stream, after_version=entry[0], to_version=version)
        state = _apply_recorded(handler, entry[1], newer)
        return state, newer[-1].chain_hash if newer else entry[2], False
    stored = handler.stored_state(stream, version) if version else None
    if stored is None:
        events = read_stream(stream, to_version=version) if version else []
        state = handler.replay(stream, events)
    else:
        # A kept state (a national tournament's replay takes most of a second):
        # only the events since it.
        start, state = stored
        events = read_stream(stream, after_version=start, to_version=version)
        state = _apply_recorded(handler, state, events)
    return state, events[-1].chain_hash if events else None, stored


def _apply_recorded(
    handler: StreamType[Any], state: Any, events: Sequence[RecordedEvent]
) -> Any:
    """`state` with logged events applied (a replay: no limits checked)."""
    for recorded in events:
        state = handler.apply(
            state, recorded.event, recorded.version, recorded.metadata
        )
    return state


def load_state(
    stream: StreamKey, *, version: int | None = None, keep: bool = True
) -> tuple[int, Any]:
    """The stream's (version, state), from the cache when it is current; at
    `version` instead of the current one when given (one query fewer). With
    `keep=False` a state replayed here is not kept in the cache: a reader opening
    one game of thousands once would push out the states appenders need, and the
    collector walks every kept object (thousands per game) on each full pass."""
    if version is None:
        version = current_version(stream)
    state, _ = _state_at(stream, version, keep=keep)
    return version, state


def event_count(stream_type_name: str | None = None) -> int:
    rows = StoredEvent.objects.all()
    if stream_type_name is not None:
        rows = rows.filter(stream_type=stream_type_name)
    return rows.count()


# --- appending -------------------------------------------------------------------


def lock_stream(stream: StreamKey) -> None:
    """Queue this transaction behind any other holding the stream's lock, until
    commit or rollback.

    For appenders that read the stream and append whatever its version then is (a
    result typed in from a slip): without it, five directors in one tournament
    collided on most appends and each retry replayed and validated again. Appends
    that skip the lock are still kept safe by the unique (stream, version) key.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("lock_stream needs a transaction (transaction.atomic)")
    # An advisory lock keyed by the stream id's first 64 bits (signed, as bigint).
    key = int.from_bytes(stream.id.bytes[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


@dataclass(frozen=True, slots=True)
class AppendResult:
    """What an append stored and the stream's state after it."""

    stream: StreamKey
    version: int
    state: Any
    recorded: tuple[RecordedEvent, ...]


def append(
    stream: StreamKey,
    events: Sequence[object | NewEvent],
    *,
    expected_version: int,
    recorded_by: Any = None,
    correlation_id: uuid.UUID | None = None,
    after_validate: Callable[[Any], None] | None = None,
    applied: Any = None,
) -> AppendResult:
    """Validate `events` against the stream and append them, all or nothing.

    Raises ConcurrencyError when the stream is not at `expected_version`, and
    EventRejectedError when the rules refuse an event; in both cases nothing is
    written. `after_validate`, when given, sees the state after the new events and may
    raise to refuse the append (a service's own check that needs the final state).
    `applied`, for a new stream (`expected_version` 0), is the rules' state a
    reader reached applying exactly `events` (a GCG file's): the store adopts it
    (StreamType.adopt) and checks only the limits, instead of applying the rules
    a second time.
    """
    if not events:
        raise ValueError("append needs at least one event")
    handler = stream_type(stream.type)
    new_events = [e if isinstance(e, NewEvent) else NewEvent(e) for e in events]
    user_id = getattr(recorded_by, "pk", recorded_by)
    # Inside a caller's transaction a failed insert must not poison it: a savepoint
    # keeps it usable (to read the current version for the ConcurrencyError).
    savepoint = connection.in_atomic_block
    try:
        with pipelined(handler.pipelined), transaction.atomic():
            current, state, previous_hash = _starting_point(
                handler, stream, expected_version
            )
            new_state = _validated(handler, stream, state, new_events, current, applied)
            if after_validate is not None:
                after_validate(new_state)
            positions = reserve_positions(len(new_events))
            stamp = Stamp(timezone.now(), user_id, correlation_id, positions)
            rows = _rows(
                stream, handler.codec.encode, new_events, current, previous_hash, stamp
            )
            recorded = _insert(
                stream,
                rows,
                new_events,
                stamp,
                current,
                savepoint,
                then=lambda recorded: handler.project(
                    stream, new_state, recorded, previous=state
                ),
            )
            seal_after_commit()
            version, last_hash = rows[-1].version, rows[-1].chain_hash
            transaction.on_commit(
                lambda: state_cache.put(stream, version, new_state, last_hash)
            )
            transaction.on_commit(
                lambda: handler.keep_state(stream, current, version, new_state)
            )
    except _VersionTaken as taken:
        raise ConcurrencyError(
            stream, expected_version, current_version(stream)
        ) from taken.__cause__
    return AppendResult(stream, version, new_state, recorded)


def _starting_point(
    handler: StreamType[Any], stream: StreamKey, expected_version: int
) -> tuple[int, Any, str]:
    """(version, state, chain hash) the append starts from; ConcurrencyError when the
    stream is not at `expected_version`."""
    if expected_version == 0:
        # A new stream: if it exists after all, the insert of version 1 fails.
        return 0, handler.initial_state(stream), ""
    cached = state_cache.entry(stream)
    if cached is not None and cached[0] == expected_version and cached[2] is not None:
        # Events never change, so the cached state is what the stream was at this
        # version; if it has moved on, the insert hits the unique key.
        return cached[0], cached[1], cached[2]
    current, previous_hash = _stream_end(stream)
    if current != expected_version:
        raise ConcurrencyError(stream, expected_version, current)
    state, _ = _state_at(stream, current)
    return current, state, previous_hash


def _validated(
    handler: StreamType[Any],
    stream: StreamKey,
    state: Any,
    new_events: list[NewEvent],
    current: int,
    applied: Any,
) -> Any:
    """The state after the new events: adopted from `applied` (see append) where
    the stream type can, with the limits checked; else validated here."""
    if applied is not None and current == 0:
        adopted = handler.adopt(stream, new_events, applied)
        if adopted is not None:
            for index in range(len(new_events)):
                with _rejected_as(handler, index):
                    handler.admit_adopted(new_events, index)
            return adopted
    return _validate(handler, state, new_events, current)


@contextmanager
def _rejected_as(handler: StreamType[Any], index: int) -> Iterator[None]:
    """A rule's refusal of the `index`-th new event as EventRejectedError."""
    try:
        yield
    except handler.rejection_errors as error:
        raise EventRejectedError(
            getattr(error, "code", "rejected"),
            getattr(error, "message", str(error)),
            index,
            getattr(error, "field", None),
        ) from error


def _validate(
    handler: StreamType[Any], state: Any, new_events: list[NewEvent], current: int
) -> Any:
    """The state after the new events; EventRejectedError for the first one the
    rules refuse."""
    for index, new in enumerate(new_events):
        try:
            # Limits on what may be added (never checked on a replay of the log).
            handler.admit(state, new.event)
            state = handler.apply(state, new.event, current + index + 1, new.metadata)
        except handler.rejection_errors as error:
            raise EventRejectedError(
                getattr(error, "code", "rejected"),
                getattr(error, "message", str(error)),
                index,
                getattr(error, "field", None),
            ) from error
    return state


class _Row(NamedTuple):
    """An event as written: its JSON encoded once, for both the hash and the row."""

    position: int
    version: int
    type_name: str
    schema_version: int
    payload_json: str
    metadata: dict[str, Any]
    metadata_json: str
    chain_hash: str
    previous_hash: str  # the hash this row's is chained to


class Stamp(NamedTuple):
    """What every event of one append shares, and the positions reserved for them."""

    recorded_at: datetime
    recorded_by: int | None
    correlation_id: uuid.UUID | None
    positions: list[int]


def reserve_positions(count: int) -> list[int]:
    """Positions for `count` new events, taken from the log's sequence before the
    insert: the chain hash covers each event's position."""
    with connection.cursor() as cursor:
        cursor.execute(_RESERVE, [count])
        return sorted(position for (position,) in cursor.fetchall())


_RESERVE = (
    "SELECT nextval(pg_get_serial_sequence('event_log', 'position'))"
    " FROM generate_series(1, %s)"
)


def _rows(
    stream: StreamKey,
    encode: Callable[[object], tuple[str, int, dict[str, Any]]],
    new_events: list[NewEvent],
    current: int,
    previous_hash: str,
    stamp: Stamp,
    key: ChainKey | None = None,
) -> list[_Row]:
    """Encode the new events and chain each one's hash to the previous one's."""
    return chain_rows(
        stream, encode_events(encode, new_events), current, previous_hash, stamp, key
    )


class EncodedEvent(NamedTuple):
    """An event encoded as the log stores it, before it has a place in the chain."""

    type_name: str
    schema_version: int
    payload_json: str
    metadata: dict[str, Any]
    metadata_json: str


def encode_events(
    encode: Callable[[object], tuple[str, int, dict[str, Any]]],
    new_events: Sequence[NewEvent],
) -> list[EncodedEvent]:
    """The events' JSON, encoded once for both the hash and the row."""
    encoded = []
    for new in new_events:
        type_name, schema_version, payload = encode(new.event)
        metadata = dict(new.metadata)
        encoded.append(
            EncodedEvent(
                type_name,
                schema_version,
                canonical_json(payload),
                metadata,
                canonical_json(metadata) if metadata else "{}",
            )
        )
    return encoded


def chain_rows(
    stream: StreamKey,
    encoded: Sequence[EncodedEvent],
    current: int,
    previous_hash: str,
    stamp: Stamp,
    key: ChainKey | None = None,
) -> list[_Row]:
    """Chain each encoded event's hash to the previous one's, at the positions
    reserved for them."""
    key = key or log_key()
    rows = []
    pairs = zip(encoded, stamp.positions, strict=True)
    for version, (item, position) in enumerate(pairs, start=current + 1):
        before = previous_hash
        previous_hash = chain_hash_of_json(
            previous_hash,
            key,
            position=position,
            stream_type=stream.type,
            stream_id=stream.id,
            version=version,
            event_type=item.type_name,
            schema_version=item.schema_version,
            payload_json=item.payload_json,
            metadata_json=item.metadata_json,
            recorded_at=stamp.recorded_at,
            recorded_by=stamp.recorded_by,
            correlation_id=stamp.correlation_id,
        )
        rows.append(
            _Row(
                position,
                version,
                item.type_name,
                item.schema_version,
                item.payload_json,
                item.metadata,
                item.metadata_json,
                previous_hash,
                before,
            )
        )
    return rows


def validate_new_stream(
    stream: StreamKey, new_events: Sequence[NewEvent], *, applied: Any = None
) -> tuple[Any, list[EncodedEvent]]:
    """The state of a new stream after `new_events` and the events encoded, each
    validated (limits and rules) and encoded exactly as :func:`append` does it,
    without the database: bulk writers (``games.eventstore.bulk``) validate in
    worker processes and chain the rows once positions are reserved
    (:func:`chain_rows`). EventRejectedError for the first event refused.
    `applied` as for :func:`append`."""
    handler = stream_type(stream.type)
    events = list(new_events)
    initial = handler.initial_state(stream)
    state = _validated(handler, stream, initial, events, 0, applied)
    return state, encode_events(handler.codec.encode, events)


class _VersionTaken(Exception):
    """Raised inside an append whose version another appender committed first."""

    expected = 0  # the version the append started from, when the caller sets it


_INSERT_EVENTS = BulkInsert(
    StoredEvent,
    [
        "position",
        "version",
        "event_type",
        "schema_version",
        "payload",
        "metadata",
        "chain_hash",
    ],
    constant=[
        "stream_type",
        "stream_id",
        "recorded_at",
        "recorded_by",
        "correlation_id",
    ],
    returning=["stream_id", "stream_type", "version", "chain_hash"],
)
# The events and the stream's head in one statement (the head's insert reads the
# events', so they happen in that order). The head moves only from the head the
# append started from, authenticated under this process's key: a head elsewhere
# (rows deleted or inserted around the store, a head rewound or forged), a cached
# chain hash the log no longer has, or a log re-keyed under another key than this
# process's, and nothing is written (TamperedStreamError, LogKeyChangedError).
_HEAD = StreamHead._meta.db_table
_APPEND = f"""
WITH inserted AS ({_INSERT_EVENTS.sql})
INSERT INTO {_HEAD} (stream_id, stream_type, version, chain_hash, mac)
SELECT stream_id, stream_type, version, chain_hash, %s FROM inserted
ORDER BY version DESC LIMIT 1
ON CONFLICT (stream_id) DO UPDATE
SET version = EXCLUDED.version, chain_hash = EXCLUDED.chain_hash,
    mac = EXCLUDED.mac
WHERE {_HEAD}.version = %s AND {_HEAD}.mac = %s
RETURNING version
"""


def _insert(
    stream: StreamKey,
    rows: list[_Row],
    new_events: list[NewEvent],
    stamp: Stamp,
    current: int,
    savepoint: bool,
    then: Callable[[tuple[RecordedEvent, ...]], None] | None = None,
) -> tuple[RecordedEvent, ...]:
    """Write the rows and move the stream's head in one statement, then call
    `then` with the recorded events (the projections: in pipeline mode their
    statements go out with the insert, in one round trip); the recorded events.
    Raises TamperedStreamError when the head was not where the log ended."""
    parameters = _INSERT_EVENTS.parameters(
        [
            (
                row.position,
                row.version,
                row.type_name,
                row.schema_version,
                row.payload_json,
                row.metadata_json,
                row.chain_hash,
            )
            for row in rows
        ],
        [
            stream.type,
            stream.id,
            stamp.recorded_at,
            stamp.recorded_by,
            stamp.correlation_id,
        ],
    )
    key = log_key()
    last = rows[-1]
    new_mac = head_mac(key, stream.type, stream.id, last.version, last.chain_hash)
    previous_hash = rows[0].previous_hash
    expected_mac = head_mac(key, stream.type, stream.id, current, previous_hash)
    recorded = tuple(
        RecordedEvent(
            position=row.position,
            stream=stream,
            version=row.version,
            type_name=row.type_name,
            schema_version=row.schema_version,
            event=new.event,
            metadata=row.metadata,
            recorded_at=stamp.recorded_at,
            recorded_by_id=stamp.recorded_by,
            correlation_id=stamp.correlation_id,
            chain_hash=row.chain_hash,
        )
        for row, new in zip(rows, new_events, strict=True)
    )
    try:
        # The projections run before the head's move is read back: in pipeline
        # mode that read is the round trip that sends them all. Should the head
        # not have moved, the error below rolls them back with the events.
        with transaction.atomic(savepoint=savepoint), binary_cursor() as cursor:
            try:
                cursor.execute(_APPEND, [*parameters, new_mac, current, expected_mac])
                if then is not None:
                    then(recorded)
                moved = cursor.fetchall()
            except (psycopg.Error, DatabaseError):
                _end_aborted_pipeline()
                raise
    except IntegrityError as error:
        # Another appender committed this version after we read the stream.
        if "event_log_stream_version" not in str(error):
            raise
        raise _VersionTaken from error
    if not moved:
        # What this process cached of the stream may be what was rewritten.
        state_cache.discard(stream)
        if not log_key_matches(key):
            raise LogKeyChangedError(stream)
        raise TamperedStreamError(stream)
    return recorded


def _end_aborted_pipeline() -> None:
    """After an error in pipeline mode, take the pipeline out of its aborted
    state: until then the server drops every statement sent, the rollback to the
    savepoint included."""
    pipeline = connection.connection._pipeline
    if pipeline is None:
        return
    # The error being raised already says what failed.
    with suppress(psycopg.Error):
        pipeline.sync()


@contextmanager
def pipelined(wanted: bool = True) -> Iterator[None]:
    """Send the statements of the block in psycopg's pipeline mode: each goes out
    at once and only a statement whose result is read (or the commit) waits for
    the server, so a game's append waits four times (the positions, the events
    with the projections, the commit, and psycopg's sync as the transaction
    opens) instead of seven. Errors are the same, raised at the next read or the
    commit."""
    connection.ensure_connection()
    raw = connection.connection
    if not wanted or raw._pipeline is not None:  # not, or in a caller's already
        yield
        return
    with raw.pipeline():
        yield


def database_is_postgresql() -> bool:
    return connection.vendor == "postgresql"


# --- appends queued together -------------------------------------------------------


@dataclass(eq=False)
class _Queued:
    """An append waiting in a stream's queue, and what became of it."""

    events: list[NewEvent]
    recorded_by: Any
    correlation_id: uuid.UUID | None
    woken: threading.Event = field(default_factory=threading.Event)
    leads: bool = False
    result: AppendResult | None = None
    error: BaseException | None = None

    def outcome(self) -> AppendResult:
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result


class _StreamQueues:
    """Per process: the appends waiting for each stream, and which streams have a
    thread writing for them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: dict[StreamKey, list[_Queued]] = {}
        self.leading: set[StreamKey] = set()


_queues = _StreamQueues()


def append_queued(
    stream: StreamKey,
    events: Sequence[object | NewEvent],
    *,
    recorded_by: Any = None,
    correlation_id: uuid.UUID | None = None,
) -> AppendResult:
    """Append `events` at whatever version the stream has when their turn comes,
    together with the other appends to the stream this process's threads queued
    meanwhile: one lock, one projection and one commit for all of them.

    For facts that do not depend on what the caller saw (a result from a slip).
    Each append is validated on the state the ones before it left, and stands or
    falls alone: the rules may reject it, and the error is raised to its caller
    only (who may append was decided before it was queued). One thread
    writes the queue while the others wait; under five directors entering results
    into one tournament, each append used to wait for every other one's projection
    and commit in turn (the lock queue was most of its 150-220 ms at p95). A stale
    write by an appender that skips the lock fails the whole batch with
    ConcurrencyError, for the callers to retry.

    Not inside a transaction: the batch commits on its own.
    """
    if connection.in_atomic_block:
        raise RuntimeError("append_queued commits on its own: not in a transaction")
    queued = _Queued(
        [e if isinstance(e, NewEvent) else NewEvent(e) for e in events],
        recorded_by,
        correlation_id,
    )
    with _queues.lock:
        _queues.waiting.setdefault(stream, []).append(queued)
        leads = stream not in _queues.leading
        if leads:
            _queues.leading.add(stream)
    if not leads:
        queued.woken.wait()
        if not queued.leads:
            return queued.outcome()
    _write_queue(stream)
    return queued.outcome()


def _write_queue(stream: StreamKey) -> None:
    """Write what is queued for `stream`, then hand the writing over to the first
    thread queued since (or let it go)."""
    with _queues.lock:
        batch = _queues.waiting.pop(stream, [])
    keep: Callable[[], None] | None = None
    try:
        keep = _write_batch(stream, batch)
    except BaseException as error:
        for queued in batch:
            if queued.error is None:
                queued.result, queued.error = None, error
    finally:
        with _queues.lock:
            waiting = _queues.waiting.get(stream)
            if waiting:
                waiting[0].leads = True
                waiting[0].woken.set()
            else:
                _queues.leading.discard(stream)
        for queued in batch:
            queued.woken.set()
    if keep is not None:
        # Once every few hundred versions this pickles a national tournament's
        # state (150-200 ms): after the batch's callers have their answers.
        keep()


def _write_batch(stream: StreamKey, batch: list[_Queued]) -> Callable[[], None] | None:
    """Validate and insert each queued append in turn, then project them all;
    return what keeps the new state (StreamType.keep_state), to call once the
    batch is committed and answered."""
    handler = stream_type(stream.type)
    try:
        return _write_locked(handler, stream, batch)
    except _VersionTaken as taken:
        # An appender that skips the lock wrote first; the transaction is gone, so
        # the version is read afresh. The callers validate again and retry.
        raise ConcurrencyError(
            stream, taken.expected, current_version(stream)
        ) from taken.__cause__


def _write_locked(
    handler: StreamType[Any], stream: StreamKey, batch: list[_Queued]
) -> Callable[[], None] | None:
    with transaction.atomic():
        lock_stream(stream)
        current, chain = _stream_end(stream)
        before, _ = _state_at(stream, current)
        accepted = _validate_queued(handler, batch, current, before)
        if not accepted:
            return None
        recorded, current, chain = _insert_queued(
            handler, stream, accepted, current, chain
        )
        state = accepted[-1][1]
        handler.project(stream, state, recorded, previous=before)
        seal_after_commit()
        since, version, last_hash = recorded[0].version - 1, current, chain
        transaction.on_commit(
            lambda: state_cache.put(stream, version, state, last_hash)
        )
    return lambda: handler.keep_state(stream, since, version, state)


def _insert_queued(
    handler: StreamType[Any],
    stream: StreamKey,
    accepted: list[tuple[_Queued, Any]],
    current: int,
    chain: str,
) -> tuple[list[RecordedEvent], int, str]:
    """Insert the accepted appends in order, each answered with its own result;
    the recorded events, the last version and its chain hash."""
    # One call of the sequence for the whole batch, handed out in order.
    positions = reserve_positions(sum(len(queued.events) for queued, _ in accepted))
    recorded: list[RecordedEvent] = []
    for queued, state in accepted:
        count = len(queued.events)
        stamp = Stamp(
            timezone.now(),
            getattr(queued.recorded_by, "pk", queued.recorded_by),
            queued.correlation_id,
            positions[:count],
        )
        positions = positions[count:]
        rows = _rows(stream, handler.codec.encode, queued.events, current, chain, stamp)
        try:
            # No savepoint (two round trips an append): a version taken fails the
            # whole batch anyway.
            written = _insert(stream, rows, queued.events, stamp, current, False)
        except _VersionTaken as taken:
            taken.expected = current
            raise
        current, chain = rows[-1].version, rows[-1].chain_hash
        queued.result = AppendResult(stream, current, state, written)
        recorded.extend(written)
    return recorded, current, chain


def _validate_queued(
    handler: StreamType[Any], batch: list[_Queued], current: int, state: Any
) -> list[tuple[_Queued, Any]]:
    """The appends the rules accept, each on the state the accepted
    ones before it left, with that state; a refused one keeps its error for its
    caller alone."""
    accepted = []
    for queued in batch:
        try:
            state = _validate(handler, state, queued.events, current)
        except Exception as error:  # refused: this append alone
            queued.error = error
            continue
        accepted.append((queued, state))
        current += len(queued.events)
    return accepted
