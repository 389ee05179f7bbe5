"""Back up the event log as JSON Lines, restore it, and verify its hash chains.

A backup file has one JSON object per line, each written with ``canonical_json``
(so an export of the same log is the same bytes):

* line 1, the header: the format, what was exported, and the user accounts the
  events name (``[id, username]``: restoring needs them, the events keep the ids),
  with its ``mac`` (an HMAC under the log's key: a header whose users were swapped
  is refused at line 1);
* one line per event, in log order, with every column of ``event_log`` and its
  ``chain_hash`` (the keyed chain, :mod:`games.eventstore.chain`);
* the last line, the end: how many events and streams, the sha256 of every byte
  before it, and its ``mac`` over that (a line removed, added or reordered, or a
  truncated file, is refused too).

Every check that matters needs the key (``EVENT_LOG_KEY``): a forger who recomputes
plain hashes and the checksum is refused at the first line changed. Restoring needs
the key of the log that exported the file.

Usage::

    with open("backup.jsonl", "w") as out:
        export_events(out)         # or scope=StreamKey("tournament", tid)
    import_events("backup.jsonl")                # verifies everything, then writes

:func:`import_events` verifies the whole file before writing anything: the header's
and the end's authentication codes, every chain, every stream's versions (1, 2, 3…
with no gap), every event decoded and accepted by the rules in order. A refusal is
a :class:`BackupError` that names the line: ``line 17: chain hash mismatch … for
tournament/…@5``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Q

from games.eventstore.chain import (
    ChainKey,
    canonical_json,
    chain_hash_of_line,
    legacy_chain_hash,
    log_key,
)
from games.eventstore.errors import EventStoreError
from games.eventstore.models import FlaggedStream, StoredEvent
from games.eventstore.rekey import record_heads
from games.eventstore.repair import reproject
from games.eventstore.store import database_is_postgresql, reserve_positions
from games.eventstore.streams import StreamKey, stream_members
from games.eventstore.verify import EVENT_FIELDS, LogChecker, event_line

FORMAT = "scrabble-records/event-log"
# 2: keyed chain hashes and authenticated header and end (1: plain sha256 hashes).
FORMAT_VERSION = 2
LEGACY_FORMAT_VERSION = 1
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
    key = log_key()

    def write(value: dict[str, Any]) -> None:
        line = canonical_json(value) + "\n"
        digest.update(line.encode())
        out.write(line)

    write(
        _signed(
            {
                "kind": "header",
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "scope": (
                    {f"{scope.type}_id": str(scope.id)} if scope else {"all": True}
                ),
                "users": [list(user) for user in users],
            },
            key,
        )
    )
    count = 0
    streams: set[uuid.UUID] = set()
    for row in rows.order_by("position").iterator(chunk_size=_BATCH):
        write(event_line(row))
        count += 1
        streams.add(row.stream_id)
    sha = digest.hexdigest()
    end = {"kind": "end", "events": count, "streams": len(streams), "sha256": sha}
    out.write(canonical_json(_signed(end, key)) + "\n")
    return ExportSummary(count, len(streams), sha)


def _signed(line: dict[str, Any], key: ChainKey) -> dict[str, Any]:
    """The line with its ``mac``: an HMAC over its other fields. The end's fields
    hold the sha256 of every line before it, so its mac authenticates the file."""
    return {**line, "mac": key.mac(canonical_json(line).encode())}


def _mac_matches(line: dict[str, Any], key: ChainKey) -> bool:
    fields = {name: value for name, value in line.items() if name != "mac"}
    mac = line.get("mac")
    return isinstance(mac, str) and hmac.compare_digest(
        mac, key.mac(canonical_json(fields).encode())
    )


# --- verification of a file -------------------------------------------------------


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


def _check_shape(event: dict[str, Any], line: int) -> StreamKey:
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


# --- import ------------------------------------------------------------------------


@dataclass
class _VerifiedFile:
    header: dict[str, Any]
    sha256: str = ""
    events: int = 0
    streams: dict[uuid.UUID, str] = field(default_factory=dict)  # id -> type
    positions: list[int] = field(default_factory=list)

    @property
    def legacy(self) -> bool:
        """A file of the first format: plain hashes, chained again on import."""
        return self.header["format_version"] == LEGACY_FORMAT_VERSION


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    with path.open("rb") as handle:
        yield from enumerate(handle, start=1)


def _parse(raw: bytes, number: int) -> dict[str, Any]:
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


def _check_header(header: dict[str, Any], key: ChainKey, legacy: bool) -> None:
    if header.get("kind") != "header" or header.get("format") != FORMAT:
        raise BackupError(f"not a {FORMAT} file (no header)", 1)
    version = header.get("format_version")
    if version == LEGACY_FORMAT_VERSION and not legacy:
        raise BackupError(
            "format version 1: a backup made before the log had a key, whose hashes "
            "and checksum anyone can recompute; restore it with --legacy-unkeyed "
            "only if you are sure the file was kept safe",
            1,
        )
    if version not in (FORMAT_VERSION, LEGACY_FORMAT_VERSION):
        raise BackupError(
            f"format version {version!r} is not {FORMAT_VERSION}: this code cannot "
            "read it",
            1,
        )
    if version == FORMAT_VERSION and not _mac_matches(header, key):
        raise BackupError(_CHANGED.format(what="the header"), 1)
    users = header.get("users")
    if not isinstance(users, list) or not all(
        isinstance(user, list)
        and len(user) == 2
        and isinstance(user[0], int)
        and isinstance(user[1], str)
        for user in users
    ):
        raise BackupError("the header's users are not [id, username] pairs", 1)


_CHANGED = (
    "{what} does not match its authentication code: the file was changed after "
    "the export (or exported under another EVENT_LOG_KEY)"
)


def verify_file(path: str | Path, *, legacy: bool = False) -> _VerifiedFile:
    """Check a backup file completely; raise BackupError at the first bad line.

    `legacy` accepts a file of the first format (plain hashes, no key).
    """
    path = Path(path)
    digest = hashlib.sha256()
    key = log_key()
    checker = LogChecker(key, replay=True)
    verified: _VerifiedFile | None = None
    users: set[int] = set()
    ended = False
    last_position = 0
    number = 0
    for number, raw in _lines(path):
        if ended:
            raise BackupError("a line after the end line", number)
        value = _parse(raw, number)
        if number == 1:
            _check_header(value, key, legacy)
            verified = _VerifiedFile(header=value)
            if verified.legacy:
                checker = LogChecker(key, replay=True, scheme=legacy_chain_hash)
            users = {user_id for user_id, _ in value["users"]}
            digest.update(raw)
            continue
        assert verified is not None
        if value["kind"] == "end":
            verified.sha256 = digest.hexdigest()
            _check_end(value, verified, number, key)
            ended = True
            continue
        if value["kind"] != "event":
            raise BackupError("a second header", number)
        stream = _check_shape(value, number)
        if value["position"] <= last_position:
            raise BackupError(
                f"position {value['position']} after {last_position}: "
                "lines are out of order",
                number,
            )
        last_position = value["position"]
        unknown_user = _unlisted_user(value, users)
        if unknown_user is not None:
            raise BackupError(
                f"user {unknown_user} is not among the header's users", number
            )
        problems = checker.check(stream, value)
        if problems:
            raise BackupError(f"{stream}@{value['version']}: {problems[0]}", number)
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


def _unlisted_user(event: dict[str, Any], users: set[int]) -> int | None:
    for value in (
        event["recorded_by"],
        event["payload"].get("user_id"),
        event["metadata"].get("owner_id"),
    ):
        if isinstance(value, int) and value not in users:
            return value
    return None


def _check_end(
    end: dict[str, Any], verified: _VerifiedFile, number: int, key: ChainKey
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
    if end.get("sha256") != verified.sha256:
        raise BackupError(
            "file checksum mismatch: a line was changed after the export", number
        )
    if not verified.legacy and not _mac_matches(end, key):
        raise BackupError(_CHANGED.format(what="the end line"), number)


def _restore_users(users: Iterable[list[Any]]) -> int:
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
        _reset_sequences([User])
    return created


def _reset_sequences(models: list[type]) -> None:
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)


def _row(event: dict[str, Any]) -> StoredEvent:
    correlation = event["correlation_id"]
    return StoredEvent(
        position=event["position"],
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


class _Writer:
    """Writes a verified file's events in batches: at the file's positions, or after
    the log's own. The chain covers positions, so events that move are chained
    again under the key, as are a first-format file's plain hashes."""

    def __init__(self, *, keep: bool, rechain: bool) -> None:
        self.keep = keep
        self.rechain = rechain
        self.key = log_key()
        self.previous: dict[str, str] = {}
        self.batch: list[dict[str, Any]] = []

    def add(self, event: dict[str, Any]) -> None:
        self.batch.append(event)
        if len(self.batch) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        if not self.batch:
            return
        positions = (
            [event["position"] for event in self.batch]
            if self.keep
            else reserve_positions(len(self.batch))
        )
        rows = []
        for event, position in zip(self.batch, positions, strict=True):
            line = {**event, "position": position}
            if self.rechain:
                stream = line["stream_id"]
                line["chain_hash"] = chain_hash_of_line(
                    self.previous.get(stream, ""), line, self.key
                )
                self.previous[stream] = line["chain_hash"]
            rows.append(_row(line))
        StoredEvent.objects.bulk_create(rows)
        self.batch = []


def import_events(path: str | Path, *, legacy: bool = False) -> ImportSummary:
    """Verify a backup file, then write its events and project its streams.

    The file's streams must be absent from the log (a restore never merges into a
    stream). The events keep their versions, times, users and hashes; they keep
    their positions too unless the log already has events at or after the first
    of them (then they are appended in the file's order, chained again). Each
    stream's head is recorded, any flag on it cleared, and its projections
    rebuilt. `legacy` accepts a first-format file (see :func:`verify_file`).
    Raises BackupError, having written nothing.
    """
    path = Path(path)
    verified = verify_file(path, legacy=legacy)
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
        users_created = _restore_users(verified.header["users"])
        last = StoredEvent.objects.order_by("-position").values_list(
            "position", flat=True
        )
        last_position = last.first() or 0
        keep = not verified.positions or verified.positions[0] > last_position
        writer = _Writer(keep=keep, rechain=verified.legacy or not keep)
        # Read again to write: the file must still be the one verified.
        digest = hashlib.sha256()
        for _, raw in _lines(path):
            value = json.loads(raw)
            if value["kind"] == "end":
                break
            digest.update(raw)
            if value["kind"] == "event":
                writer.add(value)
        writer.flush()
        if digest.hexdigest() != verified.sha256:
            raise BackupError("the file changed while it was being imported")
        if keep:
            _reset_sequences([StoredEvent])
        streams = list(verified.streams)
        record_heads(streams)
        FlaggedStream.objects.filter(stream_id__in=streams).delete()
        for stream_id, type_name in verified.streams.items():
            reproject(StreamKey(type_name, stream_id))
    return ImportSummary(
        events=verified.events,
        streams=len(verified.streams),
        users_created=users_created,
        positions_kept=keep,
    )
