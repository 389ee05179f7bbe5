"""Warm a server process's state cache before it takes requests.

A process's first append to a stream replays the whole stream: about a second for a
national tournament. In a threaded worker that replay holds the GIL, so every read
the process is serving at that moment waits for it (at national scale it was most of
the benchmark's p99). gunicorn's ``post_worker_init`` hook (config/gunicorn.conf.py)
calls :func:`warm_recent_streams` before the worker accepts a connection; later
appends by other processes are caught up event by event (``eventstore._state_at``).

A warm-up never stops a worker from booting: a stream that cannot be replayed (an
event inserted in the database that the rules refuse, a rules change that no
longer accepts an old event) is flagged (``FlaggedStream``, reported by
``verify_events`` and the admin), logged, and skipped; so is any other failure.
"""

from __future__ import annotations

import logging
import time
import uuid

from django.db import connection, connections

from games.eventstore.errors import StreamUnderReviewError
from games.eventstore.store import load_state
from games.eventstore.streams import StreamKey

logger = logging.getLogger(__name__)

# The streams with an event among the last `recent_events` of the log, newest first.
# Served by the primary key (a range of positions), not a scan of the whole log.
_RECENT_STREAMS = """
SELECT stream_id FROM event_log
WHERE stream_type = %s
  AND position > (SELECT coalesce(max(position), 0) FROM event_log) - %s
GROUP BY stream_id
ORDER BY max(position) DESC
LIMIT %s
"""


def recent_streams(
    stream_type_name: str, *, recent_events: int = 50_000, limit: int = 8
) -> list[StreamKey]:
    with connection.cursor() as cursor:
        cursor.execute(_RECENT_STREAMS, [stream_type_name, recent_events, limit])
        return [
            StreamKey(stream_type_name, uuid.UUID(str(stream_id)))
            for (stream_id,) in cursor.fetchall()
        ]


def warm_recent_streams(
    stream_type_name: str, *, recent_events: int = 50_000, limit: int = 8
) -> list[StreamKey]:
    """Load the state of the streams being written now into this process's cache;
    the streams warmed. Never raises: what fails is flagged or logged."""
    started = time.perf_counter()
    warmed: list[StreamKey] = []
    try:
        streams = recent_streams(
            stream_type_name, recent_events=recent_events, limit=limit
        )
        for stream in streams:
            if _warm(stream):
                warmed.append(stream)
    except Exception:
        logger.exception("warming %s streams failed; serving cold", stream_type_name)
    finally:
        # The worker's request threads open their own connections; this thread's
        # would sit idle for the worker's lifetime.
        connections.close_all()
    logger.info(
        "warmed %d %s streams in %.2f s",
        len(warmed),
        stream_type_name,
        time.perf_counter() - started,
    )
    return warmed


def _warm(stream: StreamKey) -> bool:
    """Load one stream's state; False (and the stream flagged) when it cannot be
    replayed."""
    try:
        load_state(stream)
    except StreamUnderReviewError as error:
        logger.error("TAMPERING or a rules change: %s; flagged, not warmed", error)
        _flag(stream, f"version {error.version} cannot be replayed: {error.reason}")
        return False
    except Exception:
        logger.exception("warming %s failed; not warmed", stream)
        return False
    return True


def _flag(stream: StreamKey, problem: str) -> None:
    # Imported here: repair imports the store's verification, which the warm-up
    # does not otherwise need.
    from games.eventstore.repair import Refusal, flag_streams

    try:
        flag_streams([Refusal(stream, problem)])
    except Exception:
        logger.exception("could not flag %s", stream)
