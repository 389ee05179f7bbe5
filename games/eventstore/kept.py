"""States the store keeps: each stream's replayed state at one version, sealed.

One mechanism for every stream type. A stream type seals its state (an HMAC over
its code's fingerprint, the stream and the version, under ``SECRET_KEY``: see
``games.snapshots``) and hands the store the bytes; the store keeps one per stream,
keyed by stream and version (``KeptState``), and gives them back for that stream
only. A kept state is a cache of the log: never the record, not compared by
``verify_events``, emptied and written again by ``rebuild_projections``::

    keep(stream, 12, sealed)                 # in the caller's transaction
    kept(stream, 12, exact=True)             # (12, sealed), or None
    kept(stream, 500)                        # the state kept at 500 or before
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection

from games.eventstore.models import KeptState
from games.eventstore.streams import StreamKey

TABLE = KeptState._meta.db_table

_READ = f"SELECT version, state FROM {TABLE} WHERE stream_id = %s AND version <= %s"
# Never replaces a newer state (two workers may keep one at once).
_WRITE = f"""
INSERT INTO {TABLE} (stream_id, stream_type, version, state)
SELECT * FROM unnest(%s::uuid[], %s::varchar[], %s::integer[], %s::bytea[])
ON CONFLICT (stream_id) DO UPDATE
SET version = excluded.version, state = excluded.state
WHERE {TABLE}.version < excluded.version
"""


def kept(
    stream: StreamKey, version: int, *, exact: bool = False
) -> tuple[int, bytes] | None:
    """The (version, sealed state) kept for `stream` at `version` or before (at
    `version` itself when `exact`), or None. On the primary, as every read of
    the store."""
    with connection.cursor() as cursor:
        cursor.execute(_READ, [stream.id, version])
        row = cursor.fetchone()
    if row is None or (exact and row[0] != version):
        return None
    return row[0], bytes(row[1])


def keep(stream: StreamKey, version: int, sealed: bytes) -> None:
    """Keep `sealed`, the stream's state at `version`, unless a newer one is kept
    (in the caller's transaction)."""
    keep_many([(stream, version, sealed)])


def keep_many(states: Iterable[tuple[StreamKey, int, bytes]]) -> None:
    """:func:`keep` for many streams, in one statement (a rebuild, a bulk import)."""
    rows = list(states)
    if not rows:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            _WRITE,
            [
                [stream.id for stream, _, _ in rows],
                [stream.type for stream, _, _ in rows],
                [version for _, version, _ in rows],
                [sealed for _, _, sealed in rows],
            ],
        )


def forget(stream_type: str) -> None:
    """Drop every state kept for streams of `stream_type` (before a rebuild)."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE} WHERE stream_type = %s", [stream_type])
