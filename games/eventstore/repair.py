"""Find projections that disagree with the event log and re-project those streams.

Every top-level projection row records the last stream version it applied (its
``version`` column); each stream type registers which row that is (a
``ProjectionIndex``, with ``register_stream_type``). An append writes its events
and its projections in one transaction, so they can only disagree when something
went around the store: a projection edited or deleted by hand, a restore of one
table without the other, a bug in a projector. :func:`find_stale` compares each
stream's last logged version with its projection's; :func:`repair_projections`
re-projects every stream that differs (``manage.py serve`` calls it before serving,
``manage.py verify_events --repair`` on demand). Usage::

    for stale in find_stale():
        print(stale)            # game/…: log at 12, projection at 11
    repaired = repair_projections()
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Max

from games.eventstore.cache import state_cache
from games.eventstore.models import StoredEvent
from games.eventstore.store import database_is_postgresql, read_stream
from games.eventstore.streams import (
    ProjectionIndex,
    StreamKey,
    projection_indexes,
    stream_type,
)


@dataclass(frozen=True, slots=True)
class StaleProjection:
    """A stream whose projection does not stand at its log's last version."""

    stream: StreamKey
    log_version: int  # 0: the stream has no events (an orphan projection row)
    projected_version: int | None  # None: the stream has no projection row

    def __str__(self) -> str:
        if self.projected_version is None:
            return f"{self.stream}: log at {self.log_version}, no projection"
        if self.log_version == 0:
            return f"{self.stream}: projection at {self.projected_version}, no events"
        return (
            f"{self.stream}: log at {self.log_version}, "
            f"projection at {self.projected_version}"
        )


def log_versions(stream_type_name: str) -> dict[uuid.UUID, int]:
    """The last version of every stream of a type, by stream id."""
    rows = (
        StoredEvent.objects.filter(stream_type=stream_type_name)
        .values("stream_id")
        .annotate(last=Max("version"))
        .values_list("stream_id", "last")
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
        for stream_id in sorted(logged.keys() | projected.keys(), key=str):
            log_version = logged.get(stream_id, 0)
            projected_version = projected.get(stream_id)
            if projected_version != log_version:
                stale.append(
                    StaleProjection(
                        StreamKey(name, stream_id), log_version, projected_version
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
        if database_is_postgresql():
            with connection.cursor() as cursor:
                cursor.execute("LOCK TABLE event_log IN SHARE MODE")
        index.model.objects.filter(**{index.id_field: stream.id}).delete()
        events = read_stream(stream)
        if not events:
            return 0
        state = handler.replay(stream, events)
        handler.project(stream, state, events, rebuilding=True)
        version = events[-1].version
        transaction.on_commit(lambda: state_cache.put(stream, version, state))
    return version


def repair_projections(
    names: Sequence[str] | None = None,
    progress: Callable[[StaleProjection], None] | None = None,
) -> list[StaleProjection]:
    """Re-project every stale stream (one transaction each); return what was stale."""
    stale = find_stale(names)
    for item in stale:
        reproject(item.stream)
        if progress is not None:
            progress(item)
    return stale
