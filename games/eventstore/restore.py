"""Restore a backup in bulk: ``manage.py import_events --bulk``.

:func:`games.eventstore.backup.import_events` verifies the whole file, then writes
it in one transaction: right for a tournament's backup, slow for a whole log (one
core replays every event while nothing is written). Here:

1. one pass over the file's bytes checks what needs the whole file (its header,
   the end line's counts and sha256, positions in order) and indexes each
   stream's lines;
2. streams are checked in worker processes (``games.eventstore.bulk``), each line
   as ``verify_file`` checks it (shape, users, version, chain hash, the rules), and
   written a batch of whole streams a transaction, with their projections.

A stream that fails a check is reported with its line and not written; the other
streams are. A stopped restore keeps its committed batches (whole streams) and
resumes with ``from_stream``: the number of streams, in the file's order, already
written.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.db import connection, transaction

from games.eventstore.backup import (
    BackupError,
    _check_end,
    _check_header,
    _check_shape,
    _parse,
    _reset_sequences,
    _restore_users,
    _unlisted_user,
    _VerifiedFile,
)
from games.eventstore.bulk import (
    BulkRow,
    BulkSummary,
    Outcome,
    Rejected,
    prepare_stream,
    run_bulk,
)
from games.eventstore.chain import canonical_json, legacy_chain_hash, log_key
from games.eventstore.models import StoredEvent
from games.eventstore.streams import StreamKey
from games.eventstore.verify import LogChecker

# Events a transaction: whole streams are written together, so a national
# tournament (8,000 events) is one batch on its own.
BATCH_EVENTS = 20_000

_STREAM_ID = b'"stream_id":"'
_POSITION = b'"position":'


@dataclass(frozen=True, slots=True)
class StreamLines:
    """Where one stream's events are in the file: (line number, byte offset)."""

    stream_id: str
    lines: tuple[tuple[int, int], ...]


@dataclass
class FileIndex:
    """What the first pass learned: the header and each stream's lines, in the
    order of their first event."""

    header: dict[str, Any]
    streams: list[StreamLines] = field(default_factory=list)
    events: int = 0
    first_position: int = 0
    last_position: int = 0
    legacy: bool = False  # a first-format file: plain hashes, chained again


def index_file(path: Path, *, legacy: bool = False) -> FileIndex:
    """Check what needs the whole file (the header's and the end's authentication
    codes, the counts, the checksum, positions in order) and index its streams;
    BackupError naming the line otherwise. Each event line's stream and position
    are found by their keys, which canonical JSON writes after the payload's; the
    workers parse every line and refuse one whose values differ."""
    key = log_key()
    digest = hashlib.sha256()
    lines: dict[str, list[tuple[int, int]]] = {}
    verified: _VerifiedFile | None = None
    offset = 0
    number = 0
    ended = False
    first_position = last_position = 0
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if ended:
                raise BackupError("a line after the end line", number)
            if number == 1:
                header = _parse(raw, number)
                _check_header(header, key, legacy)
                verified = _VerifiedFile(header=header)
            elif raw.startswith(b'{"chain_hash"'):
                stream_id, position = _keys(raw, number)
                if position <= last_position:
                    raise BackupError(
                        f"position {position} after {last_position}: "
                        "lines are out of order",
                        number,
                    )
                first_position = first_position or position
                last_position = position
                lines.setdefault(stream_id, []).append((number, offset))
            else:
                end = _parse(raw, number)
                if end["kind"] != "end" or verified is None:
                    raise BackupError("not an event or end line", number)
                verified.sha256 = digest.hexdigest()
                verified.events = sum(len(value) for value in lines.values())
                verified.streams = dict.fromkeys(map(uuid.UUID, lines), "")
                _check_end(end, verified, number, key)
                ended = True
            if not ended:
                digest.update(raw)
            offset += len(raw)
    if verified is None:
        raise BackupError("the file is empty")
    if not ended:
        raise BackupError(
            "the file ends here without its end line: it is truncated", number
        )
    return FileIndex(
        verified.header,
        [StreamLines(key, tuple(value)) for key, value in lines.items()],
        verified.events,
        first_position,
        last_position,
        verified.legacy,
    )


def _keys(raw: bytes, number: int) -> tuple[str, int]:
    """An event line's stream id and position, found by key."""
    try:
        start = raw.rindex(_STREAM_ID) + len(_STREAM_ID)
        stream_id = raw[start : start + 36].decode()
        start = raw.rindex(_POSITION) + len(_POSITION)
        end = raw.index(b",", start)
        return stream_id, int(raw[start:end])
    except ValueError:
        raise BackupError("not an event line", number) from None


@dataclass(frozen=True, slots=True)
class RestoreSummary:
    streams: int
    events: int
    rejected: int
    users_created: int
    positions_kept: bool
    interrupted: bool
    resume_from_stream: int | None  # pass back as from_stream


def import_events_bulk(
    path: str | Path,
    *,
    from_stream: int = 0,
    jobs: int | None = None,
    batch_events: int = BATCH_EVENTS,
    on_outcome: Callable[[Outcome], None] | None = None,
    progress: Callable[[int], None] | None = None,
    after_batch: Callable[[int], None] | None = None,
    legacy: bool = False,
) -> RestoreSummary:
    """Restore a backup file a batch of whole streams a transaction.

    Raises BackupError, having written nothing, when the file as a whole does not
    verify or its streams (from `from_stream` on) are in the log already (or,
    resuming, those before it are not). The events keep their versions, times,
    users and hashes, and their positions unless the log has other events at or
    after the file's first (then the log's sequence numbers them, stream by
    stream, and they are chained again under the key, as a first-format file's
    plain hashes are: `legacy` accepts one, see ``backup.verify_file``).
    """
    path = Path(path)
    index = index_file(path, legacy=legacy)
    done, todo = index.streams[:from_stream], index.streams[from_stream:]
    users_created, keep = _begin(index, done, todo)
    order = {item.stream_id: number for number, item in enumerate(todo)}
    prepare = functools.partial(
        prepare_streams,
        path=str(path),
        users=frozenset(user_id for user_id, _ in index.header["users"]),
        keep_positions=keep,
        legacy=index.legacy,
    )
    summary: BulkSummary = run_bulk(
        todo,
        prepare,
        batch_size=batch_events,
        jobs=jobs,
        weight=lambda item: len(item.lines),
        on_outcome=on_outcome,
        progress=progress,
        after_batch=after_batch,
    )
    if keep:
        _reset_sequences([StoredEvent])
    resume = None
    if summary.interrupted and summary.resume_from is not None:
        resume = from_stream + order[summary.resume_from.stream_id]
    return RestoreSummary(
        streams=summary.streams,
        events=summary.events,
        rejected=summary.rejected,
        users_created=users_created,
        positions_kept=keep,
        interrupted=summary.interrupted,
        resume_from_stream=resume,
    )


def _begin(
    index: FileIndex, done: list[StreamLines], todo: list[StreamLines]
) -> tuple[int, bool]:
    """Check which of the file's streams the log holds, restore the users, and
    decide the positions (committed before the first batch); (users created,
    positions kept)."""
    todo_ids = [uuid.UUID(item.stream_id) for item in todo]
    with transaction.atomic():
        present = set(
            StoredEvent.objects.filter(stream_id__in=todo_ids)
            .values_list("stream_id", flat=True)
            .distinct()
        )
        if present:
            first = sorted(present, key=str)[0]
            raise BackupError(
                f"{len(present)} of the file's streams are already in the log "
                f"(e.g. {first}): a restore does not merge into existing streams"
            )
        done_ids = [uuid.UUID(item.stream_id) for item in done]
        written = (
            StoredEvent.objects.filter(stream_id__in=done_ids)
            .values("stream_id")
            .distinct()
            .count()
        )
        if written != len(done):
            raise BackupError(
                f"resuming from stream {len(done)}, but only {written} of the "
                "file's streams before it are in the log"
            )
        users_created = _restore_users(index.header["users"])
        keep = not (
            StoredEvent.objects.filter(position__gte=index.first_position)
            .exclude(stream_id__in=done_ids)
            .exists()
        )
        if keep and index.last_position:
            # Appends made meanwhile must not take the file's positions.
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence('event_log', 'position'),"
                    " GREATEST(%s, (SELECT COALESCE(MAX(position), 1)"
                    " FROM event_log)))",
                    [index.last_position],
                )
    return users_created, keep


def prepare_streams(
    streams: list[StreamLines],
    *,
    path: str,
    users: frozenset[int],
    keep_positions: bool,
    legacy: bool,
) -> list[Outcome]:
    """Check and encode each stream (in a worker process)."""
    with open(path, "rb") as handle:
        return [
            _prepare(handle, item, set(users), keep_positions, legacy)
            for item in streams
        ]


def _prepare(
    handle: Any, item: StreamLines, users: set[int], keep: bool, legacy: bool
) -> Outcome:
    """One stream's lines checked as ``verify_file`` checks them."""
    checker = LogChecker(
        log_key(),
        replay=True,
        scheme=legacy_chain_hash if legacy else None,
        keep_events=True,
    )
    rows: list[BulkRow] = []
    stream: StreamKey | None = None
    for number, offset in item.lines:
        handle.seek(offset)
        raw = handle.readline()
        try:
            value = _parse(raw, number)
            stream = _check_shape(value, number)
            if str(stream.id) != item.stream_id or _keys(raw, number) != (
                item.stream_id,
                value["position"],
            ):
                raise BackupError("the line's stream or position is not where it says")
            unknown = _unlisted_user(value, users)
            if unknown is not None:
                raise BackupError(f"user {unknown} is not among the header's users")
            problems = checker.check(stream, value)
            if problems:
                raise BackupError(f"{stream}@{value['version']}: {problems[0]}")
        except BackupError as error:
            return Rejected(item, [(number, "backup", error.message)])
        # Moved or plainly hashed events are chained again by the writer.
        rows.append(_row(value, keep and not legacy, keep))
    assert stream is not None
    seen = checker.streams[stream.id]
    return prepare_stream(item, stream, rows, seen.state, seen.events)


def _row(event: dict[str, Any], keep_hash: bool, keep_position: bool) -> BulkRow:
    correlation = event["correlation_id"]
    return BulkRow(
        event["position"] if keep_position else None,
        event["version"],
        event["event_type"],
        event["schema_version"],
        canonical_json(event["payload"]),
        canonical_json(event["metadata"]),
        datetime.fromisoformat(event["recorded_at"]),
        event["recorded_by"],
        uuid.UUID(correlation) if correlation else None,
        event["chain_hash"] if keep_hash else None,
    )
