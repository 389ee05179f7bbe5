"""Streams and stream types: what the store needs from each kind of stream.

A stream is named by a :class:`StreamKey` (its type's name and an id). Each kind of
stream registers, from its app's ``ready()``, a :class:`StreamType` (its codec, how
its events are validated and projected) and, when its projections can be checked
against the log, a :class:`ProjectionIndex`. The store looks up nothing else::

    register_stream_type(
        GameStream(), projection=ProjectionIndex(GameProjection, "game_id")
    )
    stream_type("game").codec.decode(...)
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from django.db.models import Model

from games.eventstore.codec import Codec
from games.eventstore.errors import UnknownStreamTypeError

State = TypeVar("State")


@dataclass(frozen=True, slots=True)
class StreamKey:
    """A stream's type ("game", "tournament") and id."""

    type: str
    id: uuid.UUID

    def __str__(self) -> str:
        return f"{self.type}/{self.id}"


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append, with metadata the rules do not read."""

    event: object
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """A stored event, decoded."""

    position: int
    stream: StreamKey
    version: int
    type_name: str
    schema_version: int
    event: Any
    metadata: Mapping[str, Any]
    recorded_at: datetime
    recorded_by_id: int | None
    correlation_id: uuid.UUID | None
    chain_hash: str


class StreamType(Generic[State]):
    """How one kind of stream is validated and projected. Subclass per stream type.

    ``initial_state`` starts a fold; ``apply`` validates and applies one event
    (raising one of ``rejection_errors``, with ``code`` and ``message`` attributes,
    when the rules refuse it); ``project`` writes the read models inside the append's
    transaction; ``reset_projections`` empties them before a rebuild.
    """

    name: str = ""
    codec: Codec
    rejection_errors: tuple[type[Exception], ...] = ()
    # Few, long streams (a tournament has thousands of events): a parallel rebuild
    # starts them first, in fewer shares.
    long_streams: bool = False
    # Whether an append may send its statements in psycopg's pipeline mode: only
    # when `project` reads back no row count before its statements are synced
    # (the ORM's save() does, and would insert a row it just updated).
    pipelined: bool = False

    def initial_state(self, stream: StreamKey) -> State:
        raise NotImplementedError

    def apply(
        self,
        state: State,
        event: object,
        version: int,
        metadata: Mapping[str, Any],
    ) -> State:
        raise NotImplementedError

    def project(
        self,
        stream: StreamKey,
        state: State,
        new_events: Sequence[RecordedEvent],
        *,
        rebuilding: bool = False,
        previous: State | None = None,
    ) -> None:
        """Update read models for `new_events`, already applied to `state`.

        `previous` is the state before them when known (an append), so a projection
        can rewrite only what changed; None means rewrite everything.
        """

    def bulk_projection(
        self, stream: StreamKey, state: State, new_events: Sequence[RecordedEvent]
    ) -> Any:
        """A new stream's projection rows made without the database (a bulk
        import's worker makes them; the events' positions are not known there and
        read 0), for :meth:`write_bulk_projections`; None to be projected by
        :meth:`project` instead (the default)."""
        return None

    def write_bulk_projections(self, projections: Sequence[Any]) -> None:
        """Write projection rows made by :meth:`bulk_projection`."""
        raise NotImplementedError

    def admit(self, state: State, event: object) -> None:
        """Refuse a new event beyond the stream's limits (raising one of
        ``rejection_errors``): sizes and names that later rules no longer accept.

        Only an append calls it, before ``apply``; a replay never does, so a log
        keeps what earlier limits accepted and its pages still show it.
        """

    def summary(self, type_name: str, payload: Mapping[str, Any]) -> str:
        """The event in words, for whoever reads the log (the admin's list)."""
        return type_name

    def summarized_types(self) -> frozenset[str]:
        """The event types ``summary`` says in words: a test checks they are all the
        codec's."""
        return frozenset()

    def reset_projections(self) -> None:
        """Delete every read model of this stream type (they are rebuilt)."""

    def begin_rebuild(self) -> None:
        """A rebuild starts: projections may buffer their writes until the end."""

    def end_rebuild(self) -> None:
        """A rebuild ends: write whatever was buffered."""

    def stored_state(self, stream: StreamKey, version: int) -> tuple[int, State] | None:
        """A state of the stream kept at some version up to `version`, to replay
        from instead of its first event (None: replay it all)."""
        return None

    def keep_state(
        self, stream: StreamKey, since: int, version: int, state: State
    ) -> None:
        """The stream's `state` at `version`, replayed or appended since version
        `since`: keep it for ``stored_state`` when this type keeps states. Called
        outside any transaction (after the append's commit)."""

    def adopt(
        self, stream: StreamKey, new_events: Sequence[NewEvent], applied: Any
    ) -> State | None:
        """The state of a new stream after `new_events`, made from `applied`: the
        rules' own state a reader reached by applying exactly these events in
        order (a GCG file's), so the rules are not applied a second time. None
        when this type cannot (the store then validates the events itself);
        the limits are still checked, by :meth:`admit_adopted`."""
        return None

    def admit_adopted(self, new_events: Sequence[NewEvent], index: int) -> None:
        """:meth:`admit`'s limits for the `index`-th of `new_events` adopted by
        :meth:`adopt` (from the events before it: there is no state between)."""
        raise NotImplementedError

    def replay(self, stream: StreamKey, events: Iterable[RecordedEvent]) -> State:
        state = self.initial_state(stream)
        for recorded in events:
            state = self.apply(
                state, recorded.event, recorded.version, recorded.metadata
            )
        return state


@dataclass(frozen=True, slots=True)
class ProjectionIndex:
    """The row that records a stream's projected version (``repair`` compares it
    with the log's).

    Deleting that row must delete every other read model of the stream (they hang
    off it with ``on_delete=CASCADE``).
    """

    model: type[Model]
    id_field: str
    version_field: str = "version"
    # Columns of the stream's read models that a re-projection writes differently
    # by design (write times, cache keys):
    # left out when a projection is compared with a replay.
    unchecked: frozenset[str] = frozenset()


# The ids of the other streams that belong with one stream of a type (a
# tournament's games), for a backup of that stream.
Members = Callable[[uuid.UUID], Iterable[uuid.UUID]]

_registry: dict[str, StreamType[Any]] = {}
_projections: dict[str, ProjectionIndex] = {}
_members: dict[str, Members] = {}


def register_stream_type(
    stream_type: StreamType[Any],
    *,
    projection: ProjectionIndex | None = None,
    members: Members | None = None,
) -> None:
    """Make a stream type known to the store (called from AppConfig.ready).

    `projection` names the row of each stream that records its projected version;
    streams of a type registered without one are not checked by ``repair``.
    `members` gives the streams a backup of one of these streams takes along.
    """
    _registry[stream_type.name] = stream_type
    if projection is not None:
        _projections[stream_type.name] = projection
    if members is not None:
        _members[stream_type.name] = members


def unregister_stream_type(name: str) -> None:
    """Forget a stream type (tests register stream types of their own)."""
    _registry.pop(name, None)
    _projections.pop(name, None)
    _members.pop(name, None)


def stream_type(name: str) -> StreamType[Any]:
    try:
        return _registry[name]
    except KeyError:
        raise UnknownStreamTypeError(f"no stream type {name!r}") from None


def stream_types() -> list[StreamType[Any]]:
    return list(_registry.values())


def stream_members(name: str) -> Members | None:
    """What a stream type registered as the members of one of its streams."""
    return _members.get(name)


def projection_indexes() -> dict[str, ProjectionIndex]:
    """The registered projection indexes, by stream type name."""
    return dict(_projections)
