"""Read the log in commit order: the cursor of every live follower.

Each event gets a feed position when its transaction commits (``FeedEntry``,
numbered by migration 0003's trigger), and the numbers become visible in their
order. So a reader that has everything up to feed position P and asks for what
follows P never misses an event committed later: no settle window, no rescans::

    page = read_feed(after=cursor, stream_ids=[game_id], limit=100)
    for item in page.events:
        send(item.feed_position, item.event)
    cursor = page.head      # everything up to here is read (even unmatched events)

``head`` is the last feed position the read covered, taken in the same snapshot
as the events: a follower whose filter matched nothing can still move on to it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from psycopg.types.json import set_json_loads

from games.eventstore.sql import binary_cursor, loads_utf8
from games.eventstore.store import EVENT_COLUMNS, events_from_rows
from games.eventstore.streams import RecordedEvent, stream_type


@dataclass(frozen=True, slots=True)
class FeedEvent:
    """A stored event and its place in commit order."""

    feed_position: int
    event: RecordedEvent


@dataclass(frozen=True, slots=True)
class FeedPage:
    """Events after a feed position, and how far the read reached.

    ``head`` is the feed position a follower may resume after: the last event
    returned when the page is full, else the last committed event the read saw.
    """

    events: tuple[FeedEvent, ...]
    head: int
    full: bool


_COLUMNS = ", ".join(f"e.{column.strip()}" for column in EVENT_COLUMNS.split(","))

# One statement, so the head and the events come from one snapshot: a head read
# after the events could pass an event committed in between.
_READ = f"""
SELECT h.head, x.*
FROM (SELECT max(feed_position) AS head FROM event_feed) h
LEFT JOIN LATERAL (
    SELECT f.feed_position, f.stream_type, {_COLUMNS}
    FROM event_feed f JOIN event_log e ON e.position = f.position
    WHERE f.feed_position > %(after)s
      AND (%(until)s::bigint IS NULL OR f.feed_position <= %(until)s::bigint)
      AND (%(types)s::text[] IS NULL OR f.stream_type = ANY(%(types)s::text[]))
      AND (%(ids)s::uuid[] IS NULL OR f.stream_id = ANY(%(ids)s::uuid[]))
    ORDER BY f.feed_position
    LIMIT %(limit)s
) x ON true
ORDER BY x.feed_position
"""


def read_feed(
    *,
    after: int = 0,
    stream_ids: Sequence[uuid.UUID] | None = None,
    stream_types: Sequence[str] | None = None,
    until: int | None = None,
    limit: int = 100,
) -> FeedPage:
    """Up to `limit` committed events after feed position `after` (up to `until`),
    in commit order, of the given streams or stream types (all when None)."""
    with binary_cursor() as cursor:
        set_json_loads(loads_utf8, cursor)
        cursor.execute(
            _READ,
            {
                "after": after,
                "types": list(stream_types) if stream_types is not None else None,
                "ids": list(stream_ids) if stream_ids is not None else None,
                "until": until,
                "limit": limit,
            },
            binary=True,
        )
        rows = cursor.fetchall()
    head = rows[0][0] or 0
    if until is not None:
        head = min(head, until)
    events = tuple(
        FeedEvent(row[1], _decode(row[2], row[3:]))
        for row in rows
        if row[1] is not None
    )
    full = len(events) == limit
    if full:
        head = events[-1].feed_position
    return FeedPage(events, max(head, after), full)


def _decode(type_name: str, row: tuple[object, ...]) -> RecordedEvent:
    # One row at a time: a page mixes stream types (a tournament and its games).
    return next(events_from_rows(stream_type(type_name), [row]))


def feed_head() -> int:
    """The last feed position committed (0 for an empty log)."""
    return read_feed(after=0, stream_ids=[], limit=1).head


@dataclass(frozen=True, slots=True)
class FeedWindow:
    """The streams of the next events after a feed position, without their
    payloads: a follower with a scope the store cannot name (a tournament and its
    games) picks its streams here, then reads them with ``read_feed(until=head)``."""

    streams: tuple[tuple[str, uuid.UUID], ...]  # (stream type, id), each once
    head: int


_WINDOW = """
SELECT h.head, x.stream_type, x.stream_id, x.feed_position
FROM (SELECT max(feed_position) AS head FROM event_feed) h
LEFT JOIN LATERAL (
    SELECT stream_type, stream_id, feed_position FROM event_feed
    WHERE feed_position > %(after)s ORDER BY feed_position LIMIT %(size)s
) x ON true
ORDER BY x.feed_position
"""


def feed_window(*, after: int, size: int = 2000) -> FeedWindow:
    """The streams of the (at most `size`) events after feed position `after`;
    ``head`` is the last of them, else the last committed event."""
    with binary_cursor() as cursor:
        cursor.execute(_WINDOW, {"after": after, "size": size}, binary=True)
        rows = cursor.fetchall()
    head = rows[0][0] or 0
    streams = dict.fromkeys((row[1], row[2]) for row in rows if row[1] is not None)
    if len(rows) == size and rows[-1][1] is not None:
        head = rows[-1][3]  # a full window ends at its last event
    return FeedWindow(tuple(streams), max(head, after))
