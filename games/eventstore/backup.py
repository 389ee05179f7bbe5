"""Back up the event log as JSON Lines, restore it, and verify its hash chains.

A backup file has one JSON object per line, each written with ``canonical_json``
(so an export of the same log is the same bytes):

* line 1, the header: the format, what was exported, and the user accounts the
  events name (``[id, username]``: restoring needs them, the events keep the ids);
* one line per event, in log order, with every column of ``event_log`` and its
  ``chain_hash`` (sha256 over the previous event's hash and this event's content,
  see :func:`games.eventstore.chain.chain_hash`);
* the last line, the end: how many events and streams, and the sha256 of every
  byte before it (a line changed outside the chained content, removed, added or a
  truncated file is refused too).

Usage::

    with open("backup.jsonl", "w") as out:
        export_events(out)         # or scope=StreamKey("tournament", tid)
    import_events("backup.jsonl")                # verifies everything, then writes
    problems = verify_log()                      # the database's own chains

:func:`import_events` verifies the whole file before writing anything: every chain,
every stream's versions (1, 2, 3… with no gap), every event decoded and accepted by
the rules in order, the end line. A refusal is a :class:`BackupError` that names
the line: ``line 17: chain hash mismatch for tournament/…@5``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Q

from games.eventstore.chain import canonical_json, chain_hash
from games.eventstore.errors import CodecError, EventStoreError
from games.eventstore.models import StoredEvent
from games.eventstore.repair import reproject
from games.eventstore.store import database_is_postgresql
from games.eventstore.streams import (
    StreamKey,
    StreamType,
    stream_members,
    stream_type,
)

FORMAT = "scrabble-records/event-log"
FORMAT_VERSION = 1
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
_BATCH = 1000


class BackupError(EventStoreError):
    """Raised when a backup file cannot be restored; nothing was written.

    ``line`` is the 1-based line of the file that fails (None for the file as a
    whole); the message starts with it.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass(frozen=True, slots=True)
class ExportSummary:
    events: int
    streams: int
    sha256: str


@dataclass(frozen=True, slots=True)
class ImportSummary:
    events: int
    streams: int
    users_created: int
    positions_kept: bool


@dataclass(frozen=True, slots=True)
class ChainProblem:
    """A place where the database's log does not verify."""

    stream: StreamKey
    version: int
    problem: str

    def __str__(self) -> str:
        return f"{self.stream}@{self.version}: {self.problem}"


# --- export ------------------------------------------------------------------------


def _scope_filter(scope: StreamKey | None) -> Q:
    if scope is None:
        return Q()
    # The streams that go with it, as its stream type registered them (a
    # tournament's games).
    members = stream_members(scope.type)
    others = list(members(scope.id)) if members is not None else []
    return Q(stream_id=scope.id) | Q(stream_id__in=others)


def _referenced_user_ids(rows: Any) -> set[int]:
    """Users an event names: who recorded it, and user ids in payloads and context
    (directors, linked player accounts, a casual game's owner)."""
    ids: set[int] = set(
        rows.exclude(recorded_by=None).values_list("recorded_by_id", flat=True)
    )
    for key, column in (("user_id", "payload"), ("owner_id", "metadata")):
        values = (
            rows.filter(**{f"{column}__has_key": key})
            .values_list(f"{column}__{key}", flat=True)
            .distinct()
        )
        ids.update(value for value in values if isinstance(value, int))
    return ids


def event_line(row: StoredEvent) -> dict[str, Any]:
    """One event row as a backup line's object."""
    return {
        "kind": "event",
        "position": row.position,
        "stream_type": row.stream_type,
        "stream_id": str(row.stream_id),
        "version": row.version,
        "event_type": row.event_type,
        "schema_version": row.schema_version,
        "payload": row.payload,
        "metadata": row.metadata,
        "recorded_at": row.recorded_at.isoformat(),
        "recorded_by": row.recorded_by_id,
        "correlation_id": str(row.correlation_id) if row.correlation_id else None,
        "chain_hash": row.chain_hash,
    }


def export_events(out: IO[str], *, scope: StreamKey | None = None) -> ExportSummary:
    """Write the whole log (or the `scope` stream with its members: a tournament
    and its games) to `out`.

    Reads one snapshot of the database (REPEATABLE READ, unless the caller already
    opened a transaction), so the header's users and the events agree and every
    stream in the file is a prefix of its chain. Raises BackupError when `scope`
    names no stream of the log.
    """
    with transaction.atomic():
        if database_is_postgresql() and _outermost():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return _export(out, scope)


def _outermost() -> bool:
    # The block just opened is the only one, so no statement has run in its
    # transaction yet: the isolation level can still be chosen.
    return len(connection.atomic_blocks) == 1


def _export(out: IO[str], scope: StreamKey | None) -> ExportSummary:
    if (
        scope is not None
        and not StoredEvent.objects.filter(
            stream_id=scope.id, stream_type=scope.type
        ).exists()
    ):
        raise BackupError(f"no {scope.type} {scope.id} in the log")
    rows = StoredEvent.objects.filter(_scope_filter(scope))
    User = get_user_model()
    users = sorted(
        User.objects.filter(pk__in=_referenced_user_ids(rows)).values_list(
            "pk", User.USERNAME_FIELD
        )
    )
    digest = hashlib.sha256()

    def write(value: dict[str, Any]) -> None:
        line = canonical_json(value) + "\n"
        digest.update(line.encode())
        out.write(line)

    write(
        {
            "kind": "header",
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "scope": {f"{scope.type}_id": str(scope.id)} if scope else {"all": True},
            "users": [list(user) for user in users],
        }
    )
    count = 0
    streams: set[uuid.UUID] = set()
    for row in rows.order_by("position").iterator(chunk_size=_BATCH):
        write(event_line(row))
        count += 1
        streams.add(row.stream_id)
    sha = digest.hexdigest()
    out.write(
        canonical_json(
            {"kind": "end", "events": count, "streams": len(streams), "sha256": sha}
        )
        + "\n"
    )
    return ExportSummary(count, len(streams), sha)


# --- verification shared by the file and the database --------------------------------


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


def recompute_hash(previous_hash: str, event: dict[str, Any]) -> str:
    """The chain hash an event line (or row as a line) should carry."""
    return chain_hash(
        previous_hash,
        stream_id=uuid.UUID(event["stream_id"]),
        version=event["version"],
        event_type=event["event_type"],
        schema_version=event["schema_version"],
        payload=event["payload"],
        metadata=event["metadata"],
        recorded_at=datetime.fromisoformat(event["recorded_at"]),
    )


_TYPES: dict[str, tuple[type, ...]] = {
    "position": (int,),
    "stream_type": (str,),
    "stream_id": (str,),
    "version": (int,),
    "event_type": (str,),
    "schema_version": (int,),
    "payload": (dict,),
    "metadata": (dict,),
    "recorded_at": (str,),
    "recorded_by": (int, type(None)),
    "correlation_id": (str, type(None)),
    "chain_hash": (str,),
}


def check_shape(event: dict[str, Any], line: int) -> StreamKey:
    missing = [name for name in EVENT_FIELDS if name not in event]
    if missing:
        raise BackupError(f"event without {', '.join(missing)}", line)
    extra = set(event) - {*EVENT_FIELDS, "kind"}
    if extra:
        raise BackupError(f"unknown field(s) {', '.join(sorted(extra))}", line)
    for name, types in _TYPES.items():
        value = event[name]
        if not isinstance(value, types) or isinstance(value, bool):
            raise BackupError(f"{name} has the wrong type", line)
    try:
        stream = StreamKey(event["stream_type"], uuid.UUID(event["stream_id"]))
        recorded_at = datetime.fromisoformat(event["recorded_at"])
        if event["correlation_id"] is not None:
            uuid.UUID(event["correlation_id"])
    except ValueError as error:
        raise BackupError(f"unreadable value: {error}", line) from None
    if recorded_at.tzinfo is None:
        raise BackupError("recorded_at has no time zone", line)
    if event["version"] < 1 or event["position"] < 1:
        raise BackupError("versions and positions start at 1", line)
    return stream


class LogChecker:
    """Walks events in log order and checks each stream's versions, chain and rules."""

    def __init__(self, *, replay: bool, keep_events: bool = False) -> None:
        self.replay = replay
        self.keep_events = keep_events
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
        elif recompute_hash(seen.hash, event) != event["chain_hash"]:
            problems.append("chain hash mismatch")
        if self.replay and not problems:
            problems.extend(self._apply(stream, seen, event))
        seen.version = version
        seen.hash = event["chain_hash"]
        self.events += 1
        return problems

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


def verify_log(
    *, replay: bool = False, progress: Callable[[int], None] | None = None
) -> tuple[int, int, list[ChainProblem]]:
    """Recompute every stream's chain from the database.

    Returns (events, streams, problems). A changed payload, metadata, time or type
    breaks its event's hash; a changed hash breaks the next event's; a deleted event
    leaves a gap. After a mismatch the stored hash is trusted for the next event, so
    each problem is reported where it is. With `replay`, every event is also decoded
    and applied through the rules (slower: the whole log is replayed).
    """
    checker = LogChecker(replay=replay)
    problems: list[ChainProblem] = []
    rows = StoredEvent.objects.order_by("stream_id", "version").iterator(
        chunk_size=5000
    )
    for count, row in enumerate(rows, start=1):
        stream = StreamKey(row.stream_type, row.stream_id)
        for problem in checker.check(stream, event_line(row)):
            problems.append(ChainProblem(stream, row.version, problem))
        if progress is not None and count % 1000 == 0:
            progress(1000)
    return checker.events, len(checker.streams), problems


# --- import ------------------------------------------------------------------------


@dataclass
class _VerifiedFile:
    header: dict[str, Any]
    sha256: str = ""
    events: int = 0
    streams: dict[uuid.UUID, str] = field(default_factory=dict)  # id -> type
    positions: list[int] = field(default_factory=list)


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    with path.open("rb") as handle:
        yield from enumerate(handle, start=1)


def parse(raw: bytes, number: int) -> dict[str, Any]:
    if not raw.endswith(b"\n"):
        raise BackupError("the line is cut short (the file is truncated)", number)
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BackupError(f"not a JSON line: {error}", number) from None
    if not isinstance(value, dict) or value.get("kind") not in {
        "header",
        "event",
        "end",
    }:
        raise BackupError("not a header, event or end line", number)
    return value


def check_header(header: dict[str, Any]) -> None:
    if header.get("kind") != "header" or header.get("format") != FORMAT:
        raise BackupError(f"not a {FORMAT} file (no header)", 1)
    if header.get("format_version") != FORMAT_VERSION:
        raise BackupError(
            f"format version {header.get('format_version')!r} is not "
            f"{FORMAT_VERSION}: this code cannot read it",
            1,
        )
    users = header.get("users")
    if not isinstance(users, list) or not all(
        isinstance(user, list)
        and len(user) == 2
        and isinstance(user[0], int)
        and isinstance(user[1], str)
        for user in users
    ):
        raise BackupError("the header's users are not [id, username] pairs", 1)


def verify_file(path: str | Path) -> _VerifiedFile:
    """Check a backup file completely; raise BackupError at the first bad line."""
    path = Path(path)
    digest = hashlib.sha256()
    checker = LogChecker(replay=True)
    verified: _VerifiedFile | None = None
    users: set[int] = set()
    ended = False
    last_position = 0
    number = 0
    for number, raw in _lines(path):
        if ended:
            raise BackupError("a line after the end line", number)
        value = parse(raw, number)
        if number == 1:
            check_header(value)
            verified = _VerifiedFile(header=value)
            users = {user_id for user_id, _ in value["users"]}
            digest.update(raw)
            continue
        assert verified is not None
        if value["kind"] == "end":
            verified.sha256 = digest.hexdigest()
            _check_end(value, verified, verified.sha256, number)
            ended = True
            continue
        if value["kind"] != "event":
            raise BackupError("a second header", number)
        stream = check_shape(value, number)
        if value["position"] <= last_position:
            raise BackupError(
                f"position {value['position']} after {last_position}: "
                "lines are out of order",
                number,
            )
        last_position = value["position"]
        unknown_user = unlisted_user(value, users)
        if unknown_user is not None:
            raise BackupError(
                f"user {unknown_user} is not among the header's users", number
            )
        problems = checker.check(stream, value)
        if problems:
            raise BackupError(f"{problems[0]} for {stream}@{value['version']}", number)
        verified.events += 1
        verified.streams[stream.id] = stream.type
        verified.positions.append(value["position"])
        digest.update(raw)
    if verified is None:
        raise BackupError("the file is empty")
    if not ended:
        raise BackupError(
            "the file ends here without its end line: it is truncated", number
        )
    return verified


def unlisted_user(event: dict[str, Any], users: set[int]) -> int | None:
    for value in (
        event["recorded_by"],
        event["payload"].get("user_id"),
        event["metadata"].get("owner_id"),
    ):
        if isinstance(value, int) and value not in users:
            return value
    return None


def _check_end(
    end: dict[str, Any], verified: _VerifiedFile, sha: str, number: int
) -> None:
    if end.get("events") != verified.events:
        raise BackupError(
            f"the end line counts {end.get('events')} events, the file has "
            f"{verified.events}: events were added or removed",
            number,
        )
    if end.get("streams") != len(verified.streams):
        raise BackupError(
            f"the end line counts {end.get('streams')} streams, the file has "
            f"{len(verified.streams)}",
            number,
        )
    if end.get("sha256") != sha:
        raise BackupError(
            "file checksum mismatch: a line was changed after the export", number
        )


def restore_users(users: Iterable[list[Any]]) -> int:
    """Make sure every user the events name exists with the same id and username.

    A missing account is created without a usable password (an administrator sets
    one); an id or username that belongs to someone else here is refused, since the
    events would then name the wrong person.
    """
    User = get_user_model()
    field_name = User.USERNAME_FIELD
    created = 0
    for user_id, username in users:
        existing = User.objects.filter(pk=user_id).values_list(field_name, flat=True)
        if existing:
            if existing[0] != username:
                raise BackupError(
                    f"user {user_id} is {existing[0]!r} in this database but "
                    f"{username!r} in the file"
                )
            continue
        if User.objects.filter(**{field_name: username}).exists():
            raise BackupError(
                f"user {username!r} has another id in this database than in the "
                f"file ({user_id})"
            )
        user = User(pk=user_id, **{field_name: username})
        user.set_unusable_password()
        user.save()
        created += 1
    if created:
        reset_sequences([User])
    return created


def reset_sequences(models: list[type]) -> None:
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)


def _row(event: dict[str, Any], position: int | None) -> StoredEvent:
    correlation = event["correlation_id"]
    return StoredEvent(
        position=position,
        stream_type=event["stream_type"],
        stream_id=uuid.UUID(event["stream_id"]),
        version=event["version"],
        event_type=event["event_type"],
        schema_version=event["schema_version"],
        payload=event["payload"],
        metadata=event["metadata"],
        recorded_at=datetime.fromisoformat(event["recorded_at"]),
        recorded_by_id=event["recorded_by"],
        correlation_id=uuid.UUID(correlation) if correlation else None,
        chain_hash=event["chain_hash"],
    )


def import_events(path: str | Path) -> ImportSummary:
    """Verify a backup file, then write its events and project its streams.

    The file's streams must be absent from the log (a restore never merges into a
    stream). The events keep their versions, times, users and hashes; they keep
    their positions too unless the log already has events at or after the first
    of them (then they are appended in the file's order). Projections of the
    imported streams are rebuilt. Raises BackupError, having written nothing.
    """
    path = Path(path)
    verified = verify_file(path)
    with transaction.atomic():
        if database_is_postgresql():
            # No append or other import may interleave with the restore.
            with connection.cursor() as cursor:
                cursor.execute("LOCK TABLE event_log IN SHARE ROW EXCLUSIVE MODE")
        present = set(
            StoredEvent.objects.filter(stream_id__in=list(verified.streams))
            .values_list("stream_id", flat=True)
            .distinct()
        )
        if present:
            first = sorted(present, key=str)[0]
            raise BackupError(
                f"{len(present)} of the file's streams are already in the log "
                f"(e.g. {verified.streams[first]}/{first}): a restore does not "
                "merge into existing streams"
            )
        users_created = restore_users(verified.header["users"])
        last = StoredEvent.objects.order_by("-position").values_list(
            "position", flat=True
        )
        last_position = last.first() or 0
        keep = not verified.positions or verified.positions[0] > last_position
        # Read again to write: the file must still be the one verified.
        digest = hashlib.sha256()
        batch: list[StoredEvent] = []
        for _, raw in _lines(path):
            value = json.loads(raw)
            if value["kind"] == "end":
                break
            digest.update(raw)
            if value["kind"] != "event":
                continue
            batch.append(_row(value, value["position"] if keep else None))
            if len(batch) >= _BATCH:
                StoredEvent.objects.bulk_create(batch)
                batch = []
        if batch:
            StoredEvent.objects.bulk_create(batch)
        if digest.hexdigest() != verified.sha256:
            raise BackupError("the file changed while it was being imported")
        if keep:
            reset_sequences([StoredEvent])
        for stream_id, type_name in verified.streams.items():
            reproject(StreamKey(type_name, stream_id))
    return ImportSummary(
        events=verified.events,
        streams=len(verified.streams),
        users_created=users_created,
        positions_kept=keep,
    )
