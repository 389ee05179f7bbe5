"""Bulk appends: many new streams a transaction, validated in worker processes.

For imports of thousands of streams (``import_gcg DIR``, ``import_events``), where
one append per stream spends most of its time on round trips and commits. Each
unit of input (a GCG file, a backed-up stream) is turned into a :class:`Prepared`
stream by a caller's function running in a :class:`ProcessPoolExecutor` (one
worker per CPU): read, validated through ``rules/`` and encoded with its hash
chain exactly as :func:`games.eventstore.store.append` does it (its
``validate_new_stream``, or the backup's checker). The main process writes each
batch in one transaction: the log's rows through binary ``COPY``, then the
batch's projections in bulk (the rebuild's buffered writers), while the workers
validate the next batch. Usage::

    summary = run_bulk(
        units,                      # picklable descriptions of the input
        prepare,                    # a module-level function: units -> outcomes
        batch_size=200,
        on_outcome=report,          # each Prepared or Rejected, once committed
        progress=bar.update,        # events written
    )
    summary.interrupted, summary.resume_from   # where a stopped run picks up

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
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from itertools import islice
from types import FrameType
from typing import Any, NamedTuple

from django.db import transaction

from games.eventstore.models import StoredEvent
from games.eventstore.sql import BulkInsert, binary_cursor
from games.eventstore.streams import (
    RecordedEvent,
    StreamKey,
    projection_indexes,
    stream_type,
)


class BulkRow(NamedTuple):
    """One event of a prepared stream, encoded as the log stores it."""

    version: int
    type_name: str
    schema_version: int
    event: Any
    metadata: dict[str, Any]
    payload_json: str
    metadata_json: str
    recorded_at: datetime
    recorded_by_id: int | None
    correlation_id: Any
    chain_hash: str
    position: int | None  # None: the log's sequence gives one


@dataclass(frozen=True, slots=True)
class Prepared:
    """A new stream, validated and encoded (in a worker), ready to be written."""

    unit: Any  # what the caller's prepare function was given
    stream: StreamKey
    state: Any
    rows: list[BulkRow]
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


_LOG_ROWS = BulkInsert(
    StoredEvent,
    [
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
    ],
)


def default_jobs() -> int:
    return os.cpu_count() or 1


def run_bulk(
    units: Iterable[Any],
    prepare: Callable[[list[Any]], list[Outcome]],
    *,
    batch_size: int,
    jobs: int | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
    progress: Callable[[int], None] | None = None,
    after_batch: Callable[[int], None] | None = None,
) -> BulkSummary:
    """Prepare `units` in a process pool and write them, `batch_size` a transaction.

    `prepare` runs in the workers on a slice of a batch and returns an outcome for
    every unit, in order. `on_outcome` sees each outcome once its batch committed
    (rejections too); `after_batch` is called with the batch's number after each
    commit (a KeyboardInterrupt raised there stops the run like Ctrl-C).
    """
    jobs = jobs or default_jobs()
    summary = BulkSummary()
    batches = _batches(units, batch_size)
    with _StopOnInterrupt() as stop, _pool(jobs) as pool:
        pending: list[tuple[list[Any], list[Future[list[Outcome]]]]] = []
        try:
            for batch in batches:
                # The next batch is validated while the previous one is written.
                pending.append((batch, _submit(pool, prepare, batch, jobs)))
                if len(pending) > 1:
                    _finish(pending.pop(0), summary, on_outcome, progress)
                    if after_batch is not None:
                        after_batch(summary.batches)
                    if stop.requested:
                        raise KeyboardInterrupt
            while pending:
                _finish(pending.pop(0), summary, on_outcome, progress)
                if after_batch is not None:
                    after_batch(summary.batches)
                if stop.requested and pending:
                    raise KeyboardInterrupt
        except KeyboardInterrupt:
            summary.interrupted = True
            summary.resume_from = pending[0][0][0] if pending else None
            for _, futures in pending:
                for future in futures:
                    future.cancel()
    return summary


def _batches(units: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(units)
    while batch := list(islice(iterator, size)):
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


def _finish(
    pending: tuple[list[Any], list[Future[list[Outcome]]]],
    summary: BulkSummary,
    on_outcome: Callable[[Outcome], None] | None,
    progress: Callable[[int], None] | None,
) -> None:
    batch, futures = pending
    jobs = len(futures)
    slices = [future.result() for future in futures]
    outcomes: list[Outcome] = [
        slices[index % jobs][index // jobs] for index in range(len(batch))
    ]
    prepared = [o for o in outcomes if isinstance(o, Prepared)]
    events = write_prepared(prepared)
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
    """Write prepared new streams and their projections in one transaction; the
    number of events written."""
    if not prepared:
        return 0
    with transaction.atomic():
        recorded = _copy_rows(prepared)
        _project(prepared, recorded)
    return sum(len(item.rows) for item in prepared)


_NEXT_POSITIONS = (
    "SELECT nextval(pg_get_serial_sequence('event_log', 'position'))"
    " FROM generate_series(1, %s)"
)


def _copy_rows(prepared: Sequence[Prepared]) -> list[list[RecordedEvent]]:
    """COPY every row of the batch; the recorded events, stream by stream."""
    wanted = sum(1 for item in prepared for row in item.rows if row.position is None)
    positions: Iterator[int] = iter(())
    if wanted:
        # Positions from the log's own sequence, in the order of the batch, so
        # appends running meanwhile interleave as they would with ours.
        with binary_cursor() as cursor:
            cursor.execute(_NEXT_POSITIONS, [wanted], binary=True)
            positions = iter([value for (value,) in cursor.fetchall()])
    recorded: list[list[RecordedEvent]] = []
    values: list[tuple[Any, ...]] = []
    for item in prepared:
        stream = item.stream
        events = []
        for row in item.rows:
            position = row.position if row.position is not None else next(positions)
            values.append(
                (
                    position,
                    stream.type,
                    stream.id,
                    row.version,
                    row.type_name,
                    row.schema_version,
                    row.payload_json,
                    row.metadata_json,
                    row.recorded_at,
                    row.recorded_by_id,
                    row.correlation_id,
                    row.chain_hash,
                )
            )
            events.append(
                RecordedEvent(
                    position=position,
                    stream=stream,
                    version=row.version,
                    type_name=row.type_name,
                    schema_version=row.schema_version,
                    event=row.event,
                    metadata=row.metadata,
                    recorded_at=row.recorded_at,
                    recorded_by_id=row.recorded_by_id,
                    correlation_id=row.correlation_id,
                    chain_hash=row.chain_hash,
                )
            )
        recorded.append(events)
    _LOG_ROWS.copy_binary(values)
    return recorded


def _project(prepared: Sequence[Prepared], recorded: list[list[RecordedEvent]]) -> None:
    """Project the batch's streams with the rebuild's writers: each stream type
    buffers its rows and writes them in a few statements."""
    by_type: dict[str, list[tuple[Prepared, list[RecordedEvent]]]] = {}
    for item, events in zip(prepared, recorded, strict=True):
        by_type.setdefault(item.stream.type, []).append((item, events))
    indexes = projection_indexes()
    for type_name, items in by_type.items():
        handler = stream_type(type_name)
        index = indexes.get(type_name)
        if index is not None:
            # A projection row left for one of these ids (deleted events cannot
            # leave one, but a hand-made row could): the stream is projected anew.
            ids = [item.stream.id for item, _ in items]
            index.model.objects.filter(**{f"{index.id_field}__in": ids}).delete()
        handler.begin_rebuild()
        try:
            for item, events in items:
                handler.project(item.stream, item.state, events, rebuilding=True)
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
        self._installed = False

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> _StopOnInterrupt:
        # Signal handlers can only be installed from the main thread.
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
