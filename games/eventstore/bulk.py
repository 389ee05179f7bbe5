"""Bulk appends: many new streams a transaction, validated in worker processes.

For imports of thousands of streams (``import_gcg DIR``, ``import_events``), where
one append per stream spends most of its time on round trips and commits. Each
unit of input (a GCG file, a backed-up stream) is turned into a :class:`Prepared`
stream by a caller's function running in a :class:`ProcessPoolExecutor` (one
worker per CPU): read, validated through ``rules/`` and encoded exactly as
:func:`games.eventstore.store.append` does it (its ``validate_new_stream``, or
the backup's checker). The main process writes each batch in one transaction:
positions from the log's sequence and the keyed chain (``store.chain_rows``'s
links: the chain covers positions), the rows through binary ``COPY`` (the feed's
trigger numbers them at commit), the streams' heads, then the batch's
projections in bulk, while the workers validate the next batch. Usage::

    summary = run_bulk(
        units,                      # picklable descriptions of the input
        prepare,                    # a module-level function: units -> outcomes
        batch_size=200,
        on_outcome=report,          # each Prepared or Rejected, once committed
        progress=bar.update,        # events written
    )
    summary.interrupted, summary.resume_from   # where a stopped run picks up

:func:`prepare_new_stream` is what a prepare function calls for each new stream.
A unit the rules reject comes back as :class:`Rejected` with its problems; the
others of its batch are written. Ctrl-C lets the batch being written commit and
stops before the next (a second Ctrl-C, or a KeyboardInterrupt raised in a
callback, rolls back the batch in hand): every committed batch stays, and
``resume_from`` names the first unit not written.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from types import FrameType
from typing import Any, NamedTuple

from django.db import transaction
from django.utils import timezone

from games.eventstore.chain import ChainKey, chain_hash_of_json, log_key
from games.eventstore.models import FlaggedStream, StoredEvent
from games.eventstore.rekey import record_heads
from games.eventstore.sql import BulkInsert
from games.eventstore.store import reserve_positions, validate_new_stream
from games.eventstore.streams import (
    NewEvent,
    RecordedEvent,
    StreamKey,
    projection_indexes,
    stream_type,
)
from games.eventstore.verify import EVENT_FIELDS


class BulkRow(NamedTuple):
    """One event of a prepared stream as the log stores it (the stream aside)."""

    position: int | None  # None: the log's sequence gives one
    version: int
    type_name: str
    schema_version: int
    payload_json: str
    metadata_json: str
    recorded_at: datetime
    recorded_by_id: int | None
    correlation_id: uuid.UUID | None
    # None: chained in the writing process, once the position is known (the
    # chain covers it); a restore at the file's positions keeps the file's.
    chain_hash: str | None


@dataclass(frozen=True, slots=True)
class Prepared:
    """A new stream, validated and encoded (in a worker), ready to be written.

    `projection` holds its projection rows when its stream type makes them
    without the database (``StreamType.bulk_projection``); otherwise the stream
    is projected in the writing process from `state` and `events` (each event
    with its metadata), which are then not sent back from the worker.
    """

    unit: Any  # what the caller's prepare function was given
    stream: StreamKey
    rows: list[BulkRow]
    projection: Any = None
    state: Any = None
    events: list[tuple[object, Mapping[str, Any]]] | None = None
    report: Any = None  # anything the caller wants back (a file's warnings)


@dataclass(frozen=True, slots=True)
class Rejected:
    """A unit that was not written, with its problems as (line, code, message)."""

    unit: Any
    problems: list[tuple[int | None, str, str]]


Outcome = Prepared | Rejected


@dataclass
class BulkSummary:
    streams: int = 0
    events: int = 0
    rejected: int = 0
    batches: int = 0
    interrupted: bool = False
    resume_from: Any = None  # the first unit not written when interrupted
    # Where the writing process spent its time: waiting for the workers'
    # outcomes, and writing (COPY, projections, commit).
    waiting_seconds: float = 0.0
    writing_seconds: float = 0.0


# Every column of the log, in the order a backup line names them (verify.py).
_LOG_ROWS = BulkInsert(StoredEvent, list(EVENT_FIELDS))


def prepare_new_stream(
    unit: Any,
    stream: StreamKey,
    events: Sequence[object | NewEvent],
    *,
    recorded_by_id: int | None,
    report: Any = None,
    applied: Any = None,
) -> Prepared:
    """A new stream validated and encoded as :func:`append` would write it (in a
    worker); EventRejectedError for the first event the rules refuse. `applied`
    as for :func:`append` (a GCG file's state, from its reader)."""
    new_events = [e if isinstance(e, NewEvent) else NewEvent(e) for e in events]
    now = timezone.now()
    state, encoded = validate_new_stream(stream, new_events, applied=applied)
    rows = [
        BulkRow(
            None,
            version,
            item.type_name,
            item.schema_version,
            item.payload_json,
            item.metadata_json,
            now,
            recorded_by_id,
            None,
            None,
        )
        for version, item in enumerate(encoded, start=1)
    ]
    events = [
        (new.event, item.metadata)
        for new, item in zip(new_events, encoded, strict=True)
    ]
    return prepare_stream(unit, stream, rows, state, events, report=report)


def prepare_stream(
    unit: Any,
    stream: StreamKey,
    rows: list[BulkRow],
    state: Any,
    events: list[tuple[object, Mapping[str, Any]]],
    *,
    report: Any = None,
) -> Prepared:
    """A validated stream with its projection rows when its type makes them in
    the worker (the state and events then stay here)."""
    projection = stream_type(stream.type).bulk_projection(
        stream, state, _recorded(stream, rows, events)
    )
    if projection is None:
        return Prepared(unit, stream, rows, None, state, events, report)
    return Prepared(unit, stream, rows, projection, report=report)


def _recorded(
    stream: StreamKey,
    rows: list[BulkRow],
    events: list[tuple[object, Mapping[str, Any]]],
) -> list[RecordedEvent]:
    """The rows as recorded events (in a worker, before the writer gives them
    positions and hashes, those read 0 and "")."""
    return [
        RecordedEvent(
            position=row.position or 0,
            stream=stream,
            version=row.version,
            type_name=row.type_name,
            schema_version=row.schema_version,
            event=event,
            metadata=metadata,
            recorded_at=row.recorded_at,
            recorded_by_id=row.recorded_by_id,
            correlation_id=row.correlation_id,
            chain_hash=row.chain_hash or "",
        )
        for row, (event, metadata) in zip(rows, events, strict=True)
    ]


def default_jobs() -> int:
    return os.cpu_count() or 1


def run_bulk(
    units: Iterable[Any],
    prepare: Callable[[list[Any]], list[Outcome]],
    *,
    batch_size: int,
    jobs: int | None = None,
    weight: Callable[[Any], int] | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
    progress: Callable[[int], None] | None = None,
    after_batch: Callable[[int], None] | None = None,
) -> BulkSummary:
    """Prepare `units` in a process pool and write them, `batch_size` a transaction
    (units, or the sum of their `weight` when given: a backup's streams by their
    events).

    `prepare` runs in the workers on a slice of a batch and returns an outcome for
    every unit, in order. `on_outcome` sees each outcome once its batch committed
    (rejections too); `after_batch` is called with the batch's number after each
    commit (a KeyboardInterrupt raised there stops the run like Ctrl-C).
    """
    jobs = jobs or default_jobs()
    summary = BulkSummary()
    batches = _batches(units, batch_size, weight)
    with _StopOnInterrupt() as stop, _pool(jobs) as pool:
        pending: list[tuple[list[Any], list[Future[list[Outcome]]]]] = []
        try:
            for batch in batches:
                # The next batch is validated while the previous one is written.
                pending.append((batch, _submit(pool, prepare, batch, jobs)))
                if len(pending) > 1:
                    _finish_first(pending, summary, on_outcome, progress)
                    if after_batch is not None:
                        after_batch(summary.batches)
                    if stop.requested:
                        raise KeyboardInterrupt
            while pending:
                _finish_first(pending, summary, on_outcome, progress)
                if after_batch is not None:
                    after_batch(summary.batches)
                if stop.requested and pending:
                    raise KeyboardInterrupt
        except KeyboardInterrupt:
            # Stopped after the last batch committed: nothing is left to resume.
            summary.interrupted = bool(pending)
            summary.resume_from = pending[0][0][0] if pending else None
            for _, futures in pending:
                for future in futures:
                    future.cancel()
    return summary


def _batches(
    units: Iterable[Any], size: int, weight: Callable[[Any], int] | None
) -> Iterator[list[Any]]:
    if weight is None:
        iterator = iter(units)
        while batch := list(islice(iterator, size)):
            yield batch
        return
    batch, total = [], 0
    for unit in units:
        batch.append(unit)
        total += weight(unit)
        if total >= size:
            yield batch
            batch, total = [], 0
    if batch:
        yield batch


def _pool(jobs: int) -> ProcessPoolExecutor:
    # Forked: the workers inherit Django's set-up and the registered stream types.
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_worker_init,
    )


def _worker_init() -> None:
    # The workers never touch the database: the parent's connection, inherited,
    # is left alone (closing it here would end the parent's session), and the
    # process ends without finalizers. Ctrl-C reaches the whole process group:
    # the parent decides when to stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _submit(
    pool: ProcessPoolExecutor,
    prepare: Callable[[list[Any]], list[Outcome]],
    batch: list[Any],
    jobs: int,
) -> list[Future[list[Outcome]]]:
    # Interleaved slices: neighbouring units (a director's files, a tournament's
    # games) are often alike in size, so each worker gets a fair share.
    return [pool.submit(prepare, batch[index::jobs]) for index in range(jobs)]


def _finish_first(
    pending: list[tuple[list[Any], list[Future[list[Outcome]]]]],
    summary: BulkSummary,
    on_outcome: Callable[[Outcome], None] | None,
    progress: Callable[[int], None] | None,
) -> None:
    """Write the first pending batch; it leaves `pending` once committed (an
    interruption before then resumes from it)."""
    batch, futures = pending[0]
    jobs = len(futures)
    started = time.perf_counter()
    slices = [future.result() for future in futures]
    summary.waiting_seconds += time.perf_counter() - started
    outcomes: list[Outcome] = [
        slices[index % jobs][index // jobs] for index in range(len(batch))
    ]
    prepared = [o for o in outcomes if isinstance(o, Prepared)]
    started = time.perf_counter()
    events = write_prepared(prepared)
    summary.writing_seconds += time.perf_counter() - started
    pending.pop(0)
    summary.batches += 1
    summary.streams += len(prepared)
    summary.events += events
    summary.rejected += len(outcomes) - len(prepared)
    if progress is not None:
        progress(events)
    if on_outcome is not None:
        for outcome in outcomes:
            on_outcome(outcome)


def write_prepared(prepared: Sequence[Prepared]) -> int:
    """Write prepared new streams, their heads and their projections in one
    transaction; the number of events written."""
    if not prepared:
        return 0
    with transaction.atomic():
        to_project = _copy_rows(prepared)
        ids = [item.stream.id for item in prepared]
        # Each stream's head where its log now ends, as an append leaves it; a
        # restored stream verifies again, so any flag on it goes.
        record_heads(ids)
        FlaggedStream.objects.filter(stream_id__in=ids).delete()
        _project(prepared, to_project)
    return sum(len(item.rows) for item in prepared)


def _copy_rows(prepared: Sequence[Prepared]) -> dict[int, list[RecordedEvent]]:
    """COPY every row of the batch, at positions from the log's sequence (in the
    batch's order) where none is given, chained under the log's key where no hash
    is; the recorded events of the streams to be projected here, by their index in
    the batch."""
    wanted = sum(1 for item in prepared for row in item.rows if row.position is None)
    positions = iter(reserve_positions(wanted) if wanted else ())
    key = log_key()
    values: list[tuple[Any, ...]] = []
    to_project: dict[int, list[RecordedEvent]] = {}
    for index, item in enumerate(prepared):
        stream = item.stream
        type_name, stream_id = stream.type, stream.id
        given = []
        previous = ""
        for row in item.rows:
            if row.position is None:
                row = row._replace(position=next(positions))
            if row.chain_hash is None:
                row = row._replace(chain_hash=_link(previous, key, stream, row))
            previous = row.chain_hash
            given.append(row)
        values.extend((row[0], type_name, stream_id, *row[1:]) for row in given)
        if item.projection is None:
            assert item.events is not None
            to_project[index] = _recorded(stream, given, item.events)
    _LOG_ROWS.copy_binary(values)
    return to_project


def _link(previous: str, key: ChainKey, stream: StreamKey, row: BulkRow) -> str:
    assert row.position is not None
    return chain_hash_of_json(
        previous,
        key,
        position=row.position,
        stream_type=stream.type,
        stream_id=stream.id,
        version=row.version,
        event_type=row.type_name,
        schema_version=row.schema_version,
        payload_json=row.payload_json,
        metadata_json=row.metadata_json,
        recorded_at=row.recorded_at,
        recorded_by=row.recorded_by_id,
        correlation_id=row.correlation_id,
    )


def _project(
    prepared: Sequence[Prepared], to_project: dict[int, list[RecordedEvent]]
) -> None:
    """Project the batch's streams: rows made by the workers in a few statements
    a stream type; the others with the rebuild's buffered writers."""
    by_type: dict[str, list[int]] = {}
    for index, item in enumerate(prepared):
        by_type.setdefault(item.stream.type, []).append(index)
    indexes = projection_indexes()
    for type_name, members in by_type.items():
        handler = stream_type(type_name)
        index = indexes.get(type_name)
        if index is not None:
            # A projection row left for one of these ids (deleted events cannot
            # leave one, but a hand-made row could): the stream is projected anew.
            ids = [prepared[member].stream.id for member in members]
            index.model.objects.filter(**{f"{index.id_field}__in": ids}).delete()
        made = [prepared[m].projection for m in members if m not in to_project]
        if made:
            handler.write_bulk_projections(made)
        here = [m for m in members if m in to_project]
        if not here:
            continue
        handler.begin_rebuild()
        try:
            for member in here:
                item = prepared[member]
                handler.project(
                    item.stream, item.state, to_project[member], rebuilding=True
                )
        except BaseException:
            # Drop what was buffered (the transaction rolls back its rows).
            handler.begin_rebuild()
            raise
        finally:
            handler.end_rebuild()


class _StopOnInterrupt:
    """The first Ctrl-C asks the run to stop after the batch it is writing; a
    second one interrupts at once (the batch in hand rolls back)."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None
        self._previous_term: Any = None
        self._installed = False

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> _StopOnInterrupt:
        # Signal handlers can only be installed from the main thread. A SIGTERM
        # (kill, a service manager stopping the run) stops it like Ctrl-C, so the
        # run still says where to resume.
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._previous_term = signal.signal(signal.SIGTERM, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            signal.signal(signal.SIGTERM, self._previous_term)
