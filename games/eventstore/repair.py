"""Find projections that disagree with the event log and re-project those streams,
unless the log itself is in doubt.

Every top-level projection row records the last stream version it applied (its
``version`` column); each stream type registers which row that is (a
``ProjectionIndex``, with ``register_stream_type``). An append writes its events,
its stream's head and its projections in one transaction, so they can only disagree
when something went around the store. :func:`find_stale` compares each stream's
last logged version with its projection's; :func:`projection_differences` compares
a projection's rows with a fresh replay of the log.

:func:`repair_projections` re-projects a stale stream only when its log is sound: a
projection *behind* its log is staleness, but a log *shorter* than its projection
or than its recorded head (``games.eventstore.verify.head_problems``), or a chain
that does not verify under the key, is tampering: re-projecting would make a
deleted or forged event official. Such a stream is left as it is and flagged
(``FlaggedStream``); the site keeps serving. ``manage.py serve`` runs it before
serving, ``manage.py verify_events --repair`` on demand. Usage::

    for stale in find_stale():
        print(stale)            # game/…: log at 12, projection at 11
    report = repair_projections()
    report.repaired, report.refused
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import connection, models, transaction
from django.db.models import Max
from django.utils import timezone

from games.eventstore.cache import state_cache
from games.eventstore.models import FlaggedStream, StoredEvent, StreamHead
from games.eventstore.seal import verify_feed
from games.eventstore.store import database_is_postgresql, read_stream
from games.eventstore.streams import (
    ProjectionIndex,
    StreamKey,
    projection_indexes,
    stream_type,
)
from games.eventstore.verify import head_problems, verify_stream


@dataclass(frozen=True, slots=True)
class StaleProjection:
    """A stream whose projection does not stand at its log's last version."""

    stream: StreamKey
    log_version: int  # 0: the stream has no events (an orphan projection row)
    projected_version: int | None  # None: the stream has no projection row
    head_version: int | None = None  # None: no head recorded for the stream

    @property
    def log_is_shorter(self) -> bool:
        """Tampering, not staleness: the projection applied events the log no
        longer has, or the projection is gone although the stream's head says an
        append projected it (every append projects in its own transaction)."""
        if self.projected_version is None:
            return self.head_version is not None
        return self.projected_version > self.log_version

    @property
    def shortfall(self) -> str:
        """What a log shorter than its projection means."""
        if self.projected_version is None:
            return (
                f"no projection, but its head says it was projected at version "
                f"{self.head_version}: its projection rows were deleted"
            )
        return (
            f"the log ends at version {self.log_version} but its projection is at "
            f"{self.projected_version}: events were deleted"
        )

    def __str__(self) -> str:
        if self.projected_version is None:
            return f"{self.stream}: log at {self.log_version}, no projection"
        if self.log_version == 0:
            return f"{self.stream}: projection at {self.projected_version}, no events"
        return (
            f"{self.stream}: log at {self.log_version}, "
            f"projection at {self.projected_version}"
        )


@dataclass(frozen=True, slots=True)
class Refusal:
    """A stream the repair would not re-project, and why."""

    stream: StreamKey
    problem: str

    def __str__(self) -> str:
        return f"{self.stream}: {self.problem}"


@dataclass
class RepairReport:
    repaired: list[StaleProjection] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)


def log_versions(stream_type_name: str) -> dict[uuid.UUID, int]:
    """The last version of every stream of a type, by stream id."""
    rows = (
        StoredEvent.objects.filter(stream_type=stream_type_name)
        .values("stream_id")
        .annotate(last=Max("version"))
        .values_list("stream_id", "last")
    )
    return dict(rows)


def head_versions(stream_type_name: str) -> dict[uuid.UUID, int]:
    """The version each stream's recorded head stands at, by stream id."""
    rows = StreamHead.objects.filter(stream_type=stream_type_name).values_list(
        "stream_id", "version"
    )
    return dict(rows)


def projected_versions(index: ProjectionIndex) -> dict[uuid.UUID, int]:
    """The version each projection row of a stream type records, by stream id."""
    rows = index.model.objects.values_list(index.id_field, index.version_field)
    return dict(rows)


def find_stale(names: Sequence[str] | None = None) -> list[StaleProjection]:
    """Every stream whose projection is behind, ahead of, or missing from its log.

    Stream types registered without a :class:`ProjectionIndex` are not checked.
    """
    stale: list[StaleProjection] = []
    for name, index in projection_indexes().items():
        if names is not None and name not in names:
            continue
        logged = log_versions(name)
        projected = projected_versions(index)
        heads: dict[uuid.UUID, int] | None = None
        for stream_id in sorted(logged.keys() | projected.keys(), key=str):
            log_version = logged.get(stream_id, 0)
            projected_version = projected.get(stream_id)
            if projected_version != log_version:
                if heads is None:
                    heads = head_versions(name)
                stale.append(
                    StaleProjection(
                        StreamKey(name, stream_id),
                        log_version,
                        projected_version,
                        heads.get(stream_id),
                    )
                )
    return stale


def reproject(stream: StreamKey) -> int:
    """Delete one stream's projections and project its whole log again.

    Runs in one transaction that holds a SHARE lock on the event log: appends in
    flight finish first (so their events are replayed), and appends that start
    meanwhile wait (so none can update a projection row this repair is rewriting).
    Returns the version projected (0 when the stream has no events: its orphan
    projection rows are only deleted).
    """
    index = projection_indexes()[stream.type]
    handler = stream_type(stream.type)
    with transaction.atomic():
        _lock_log()
        index.model.objects.filter(**{index.id_field: stream.id}).delete()
        events = read_stream(stream)
        if not events:
            return 0
        state = handler.replay(stream, events)
        handler.project(stream, state, events, rebuilding=True)
        version = events[-1].version
        transaction.on_commit(lambda: state_cache.put(stream, version, state))
    return version


def _lock_log() -> None:
    if database_is_postgresql():
        with connection.cursor() as cursor:
            cursor.execute("LOCK TABLE event_log IN SHARE MODE")


def repair_projections(
    names: Sequence[str] | None = None,
    progress: Callable[[StaleProjection], None] | None = None,
) -> RepairReport:
    """Re-project every stale stream whose log is sound (one transaction each).

    A stream whose log is shorter than its projection or its head, whose head or
    feed entries do not verify under the key, whose projection is gone although
    its head says it had one, or whose chain does not verify, is refused and
    flagged; so is a stream whose head disagrees with its log even where the
    projection agrees (its last events deleted and the projection set back to
    match), and one that cannot be replayed. Never raises for one stream: the
    server starts, and what was refused is in the report and flagged.
    """
    report = RepairReport()
    heads = {problem.stream.id: problem for problem in head_problems()}
    feed: _FeedDoubts | None = None
    for item in find_stale(names):
        if feed is None and not item.log_is_shorter:
            # The feed is walked only when something could be re-projected.
            feed = _FeedDoubts.found()
        problem = _why_not(item, heads, feed)
        if problem is None:
            problem = _reproject_or_why_not(item.stream)
        if problem is not None:
            report.refused.append(Refusal(item.stream, problem))
            continue
        report.repaired.append(item)
        if progress is not None:
            progress(item)
    refused = {refusal.stream.id for refusal in report.refused}
    report.refused += [
        Refusal(problem.stream, problem.problem)
        for problem in heads.values()
        if problem.stream.id not in refused
        and (names is None or problem.stream.type in names)
    ]
    flag_streams(report.refused)
    return report


def _reproject_or_why_not(stream: StreamKey) -> str | None:
    """Re-project the stream; why it could not be (its log cannot be replayed),
    or None."""
    try:
        reproject(stream)
    except Exception as error:
        message = getattr(error, "message", None) or str(error)
        return f"its log cannot be replayed: {message}"
    return None


@dataclass(frozen=True)
class _FeedDoubts:
    """What the feed's chain says against re-projecting: the streams its breaks
    name, and a break that names none (then no stream is re-projected)."""

    streams: dict[uuid.UUID, str]
    unattributed: str | None

    @classmethod
    def found(cls) -> _FeedDoubts:
        streams: dict[uuid.UUID, str] = {}
        unattributed = None
        for problem in verify_feed():
            if problem.stream is None:
                unattributed = unattributed or str(problem)
            else:
                streams.setdefault(problem.stream.id, str(problem))
        return cls(streams, unattributed)


def _why_not(
    item: StaleProjection, heads: dict[uuid.UUID, Any], feed: _FeedDoubts | None
) -> str | None:
    """Why the stream must not be re-projected, or None when its log is sound."""
    if item.log_is_shorter:
        return item.shortfall
    head = heads.get(item.stream.id)
    if head is not None:
        return head.problem
    if feed is not None:
        if item.stream.id in feed.streams:
            return feed.streams[item.stream.id]
        if feed.unattributed is not None:
            return f"the feed's chain is broken ({feed.unattributed})"
    problems = verify_stream(item.stream)
    if problems:
        first = problems[0]
        return f"version {first.version}: {first.problem}"
    return None


def stream_flag(stream_id: uuid.UUID) -> FlaggedStream | None:
    """The stream's flag, when a check found its log in doubt (the console shows
    it to the stream's team)."""
    return FlaggedStream.objects.filter(stream_id=stream_id).first()


def flag_streams(refusals: Iterable[Refusal]) -> None:
    """Record the streams found in doubt (kept until they verify again)."""
    now = timezone.now()
    for refusal in refusals:
        FlaggedStream.objects.update_or_create(
            stream_id=refusal.stream.id,
            defaults={
                "stream_type": refusal.stream.type,
                "problem": refusal.problem,
                "flagged_at": now,
            },
        )


# --- projections against a replay ----------------------------------------------------


class _Scratch(Exception):
    """Raised to roll back a re-projection made only to be compared."""


def projection_differences(stream: StreamKey, *, limit: int = 10) -> list[str]:
    """How the stream's read models differ from a fresh replay of its log.

    The stream is re-projected inside a savepoint that is then rolled back (with
    the log locked against appends for the comparison), so the comparison uses the
    projectors themselves and changes nothing. Columns the stream type registered
    as ``unchecked`` are left out. At most `limit` differences are listed, then a
    count of the rest.
    """
    index = projection_indexes()[stream.type]
    handler = stream_type(stream.type)
    tables = _projection_tables(index)
    with transaction.atomic():
        _lock_log()
        before = _rows_of(tables, stream)
        try:
            with transaction.atomic():
                reproject(stream)
                raise _Scratch(_rows_of(tables, stream))
        except _Scratch as scratch:
            after = scratch.args[0]
        except handler.rejection_errors as error:
            message = getattr(error, "message", str(error))
            return [f"the log cannot be replayed: {message}"]
    differences = [
        line
        for table in tables
        for line in table.differences(before[table.name], after[table.name])
    ]
    if len(differences) > limit:
        rest = len(differences) - limit
        differences = [*differences[:limit], f"… and {rest} more difference(s)"]
    return differences


@dataclass(frozen=True)
class _Table:
    """One read model of a stream type: its compared columns and its rows' key."""

    model: type[models.Model]
    stream_column: str  # the column holding the stream's id
    columns: tuple[str, ...]
    key: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.model._meta.db_table

    def rows(self, stream: StreamKey) -> dict[tuple[Any, ...], dict[str, Any]]:
        values = self.model._base_manager.filter(
            **{self.stream_column: stream.id}
        ).values(*self.columns)
        return {tuple(row[name] for name in self.key): row for row in values}

    def differences(
        self,
        projected: dict[tuple[Any, ...], dict[str, Any]],
        replayed: dict[tuple[Any, ...], dict[str, Any]],
    ) -> list[str]:
        lines = []
        for key in sorted(projected.keys() | replayed.keys(), key=repr):
            where = "".join(
                f" {name}={value!r}" for name, value in zip(self.key, key, strict=True)
            )
            row, expected = projected.get(key), replayed.get(key)
            if expected is None:
                lines.append(f"{self.name}{where}: in the projection, not in a replay")
            elif row is None:
                lines.append(f"{self.name}{where}: missing from the projection")
            else:
                lines += [
                    f"{self.name}{where}: {name} {row[name]!r} in the projection, "
                    f"{expected[name]!r} in a replay"
                    for name in self.columns
                    if row[name] != expected[name]
                ]
        return lines


def _projection_tables(index: ProjectionIndex) -> list[_Table]:
    """The projection row's table, then every table hanging off it (cascading)."""
    tables = [_table(index.model, index.id_field, index.unchecked, single=True)]
    for model in apps.get_models():
        for model_field in model._meta.concrete_fields:
            remote = model_field.remote_field
            if (
                remote is not None
                and remote.model is index.model
                and remote.on_delete is models.CASCADE
            ):
                tables.append(_table(model, model_field.attname, index.unchecked))
    return tables


def _table(
    model: type[models.Model],
    stream_column: str,
    unchecked: frozenset[str],
    *,
    single: bool = False,
) -> _Table:
    """The table's compared columns, and the columns that tell its rows apart (none
    for the stream's one projection row; else its first unique constraint's)."""
    meta = model._meta
    columns = tuple(
        model_field.attname
        for model_field in meta.concrete_fields
        if model_field.name not in unchecked
        and not isinstance(model_field, models.AutoField)
        and model_field.attname != stream_column
    )
    if single:
        return _Table(model, stream_column, columns, ())
    unique = next(
        (
            constraint.fields
            for constraint in meta.constraints
            if isinstance(constraint, models.UniqueConstraint) and constraint.fields
        ),
        (),
    )
    key = tuple(
        meta.get_field(name).attname
        for name in unique
        if meta.get_field(name).attname != stream_column
    )
    return _Table(model, stream_column, columns, key or columns)


def _rows_of(
    tables: list[_Table], stream: StreamKey
) -> dict[str, dict[tuple[Any, ...], dict[str, Any]]]:
    return {table.name: table.rows(stream) for table in tables}
