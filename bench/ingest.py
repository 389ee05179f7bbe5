"""The bulk-ingest stages of bench/run.py, each against its anchors of the same run.

The anchors are the ``eventsourcing`` library's PostgreSQL recorders, given the
same events on the same server, one ``insert_events`` (one transaction) a game, as
the append stage gives them; measured right before ours, with the machine's load
average noted beside each figure (the 2-core machine is shared):

* ``bulk_games``: the national log's games (the tournament's boards, with their
  contexts), as new streams through ``games.eventstore.bulk``: validated in a
  process pool, a batch a transaction, projections included;
* ``bulk_gcg``: GCG files written from simulated games (10,000 at national scale),
  through ``games.imports.import_gcg_files`` (the bulk path of ``import_gcg``:
  each file read, parsed and validated in the pool). The anchors get the events
  those files became, read back from the log.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

# The boards dealt by bench/run.py (set before the pool forks: the workers read
# them from here instead of receiving them).
_DEALT: list[tuple[list[Any], dict[str, Any], tuple[str, str]]] = []
_USER_ID: int | None = None


def load() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


def recorder_rates(
    conninfo: dict[str, Any], games: list[list[tuple[str, dict[str, Any]]]]
) -> dict[str, Any]:
    """Events/s of both ``eventsourcing`` recorders appending `games` (each a list
    of (type, payload)), one ``insert_events`` a game, in a database of their own."""
    import psycopg
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import (
        PostgresAggregateRecorder,
        PostgresApplicationRecorder,
        PostgresDatastore,
    )

    dbname = f"es_bench_{uuid.uuid4().hex[:8]}"
    admin = psycopg.connect(**conninfo, autocommit=True)
    admin.execute(f'CREATE DATABASE "{dbname}"')
    figures: dict[str, Any] = {}
    try:
        for label, recorder_class in (
            ("aggregate_recorder", PostgresAggregateRecorder),
            ("application_recorder", PostgresApplicationRecorder),
        ):
            datastore = PostgresDatastore(
                dbname,
                conninfo["host"],
                conninfo["port"],
                conninfo["user"],
                conninfo["password"],
            )
            recorder = recorder_class(datastore, events_table_name=f"ev_{label}")
            recorder.create_table()
            before = load()
            events = 0
            t0 = time.perf_counter()
            for game in games:
                originator = uuid.uuid4()
                recorder.insert_events(
                    [
                        StoredEvent(
                            originator_id=originator,
                            originator_version=version,
                            topic=name,
                            state=json.dumps(payload).encode(),
                        )
                        for version, (name, payload) in enumerate(game, 1)
                    ]
                )
                events += len(game)
            seconds = time.perf_counter() - t0
            figures[label] = {
                "events": events,
                "seconds": seconds,
                "events_per_second": events / seconds,
                "load_before": before,
            }
            datastore.close()
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
        admin.close()
    return figures


def with_ratios(ours: dict[str, Any], anchors: dict[str, Any]) -> dict[str, Any]:
    for figure in anchors.values():
        figure["ours_ratio"] = ours["events_per_second"] / figure["events_per_second"]
    return {"ours": ours, "anchors": anchors}


# --- the national log's games --------------------------------------------------


def prepare_dealt(indexes: list[int]) -> list[Any]:
    """Validate and encode dealt boards as new game streams (in a worker)."""
    from games.eventstore.bulk import Rejected, prepare_new_stream
    from games.eventstore.errors import EventRejectedError
    from games.eventstore.streams import NewEvent, StreamKey

    outcomes: list[Any] = []
    for index in indexes:
        events, context, _ = _DEALT[index]
        stream = StreamKey("game", uuid.uuid4())
        try:
            outcomes.append(
                prepare_new_stream(
                    index,
                    stream,
                    [NewEvent(events[0], context), *events[1:]],
                    recorded_by_id=_USER_ID,
                )
            )
        except EventRejectedError as error:
            outcomes.append(Rejected(index, [(None, error.code, error.message)]))
    return outcomes


def bench_bulk_games(
    dealt: list[tuple[list[Any], dict[str, Any], tuple[str, str]]],
    user_id: int,
    conninfo: dict[str, Any],
) -> dict[str, Any]:
    """Our bulk append of the dealt boards against the recorders on the same
    events."""
    from games.eventstore.bulk import run_bulk
    from games.eventstore.codec import Codec
    from rules import events as ev

    global _DEALT, _USER_ID
    _DEALT, _USER_ID = dealt, user_id
    codec = Codec()
    codec.register_all(ev.EVENT_TYPES)
    games = [
        [(name, payload) for name, _, payload in map(codec.encode, events)]
        for events, _, _ in dealt
    ]
    anchors = recorder_rates(conninfo, games)
    before = load()
    t0 = time.perf_counter()
    summary = run_bulk(range(len(dealt)), prepare_dealt, batch_size=200)
    seconds = time.perf_counter() - t0
    if summary.rejected:
        raise RuntimeError(f"{summary.rejected} dealt games refused")
    ours = {
        "games": summary.streams,
        "events": summary.events,
        "seconds": seconds,
        "events_per_second": summary.events / seconds,
        "load_before": before,
        "load_after": load(),
        "writer_waiting_seconds": summary.waiting_seconds,
        "writer_writing_seconds": summary.writing_seconds,
    }
    return with_ratios(ours, anchors)


# --- GCG files -----------------------------------------------------------------


def write_gcg_files(
    folder: Path, pool: list[list[Any]], count: int, seed: int
) -> list[Path]:
    """`count` GCG files dealt from the simulated `pool`, each with its own
    players and title (as a club's archive would have them)."""
    from rules import gcg

    rng = random.Random(seed)
    paths = []
    for number in range(count):
        events = pool[rng.randrange(len(pool))]
        first, second = f"Player {rng.randrange(5000):04d}", f"Rival {number:05d}"
        meta = gcg.GcgMetadata(
            players=(gcg.GcgPlayer("p1", first), gcg.GcgPlayer("p2", second)),
            title=f"Club night {number // 40 + 1}, game {number % 40 + 1}",
        )
        path = folder / f"{number // 1000:02d}" / f"game{number:05d}.gcg"
        path.parent.mkdir(exist_ok=True)
        path.write_text(gcg.write(events, meta))
        paths.append(path)
    return paths


def _stored_games(stream_ids: list[uuid.UUID]) -> list[list[tuple[str, Any]]]:
    """The events the imported files became, game by game."""
    from games.eventstore.models import StoredEvent

    games: dict[uuid.UUID, list[tuple[str, Any]]] = {sid: [] for sid in stream_ids}
    rows = (
        StoredEvent.objects.filter(stream_id__in=stream_ids)
        .order_by("stream_id", "version")
        .values_list("stream_id", "event_type", "payload")
    )
    for stream_id, event_type, payload in rows.iterator(chunk_size=5000):
        games[stream_id].append((event_type, payload))
    return list(games.values())


def bench_bulk_gcg(
    pool: list[list[Any]], count: int, seed: int, user: Any, conninfo: dict[str, Any]
) -> dict[str, Any]:
    from games.eventstore.bulk import Prepared
    from games.imports import gcg_files, import_gcg_files

    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        write_gcg_files(Path(folder), pool, count, seed)
        written = time.perf_counter() - t0
        files = gcg_files([Path(folder)])
        stored: list[uuid.UUID] = []

        def keep(outcome: Any) -> None:
            if isinstance(outcome, Prepared):
                stored.append(outcome.stream.id)

        before = load()
        t0 = time.perf_counter()
        summary = import_gcg_files(files, user=user, on_outcome=keep)
        seconds = time.perf_counter() - t0
    if summary.rejected:
        raise RuntimeError(f"{summary.rejected} simulated GCG files refused")
    ours = {
        "files": len(files),
        "events": summary.events,
        "seconds": seconds,
        "events_per_second": summary.events / seconds,
        "files_written_seconds": written,
        "load_before": before,
        "load_after": load(),
        "writer_waiting_seconds": summary.waiting_seconds,
        "writer_writing_seconds": summary.writing_seconds,
    }
    anchors = recorder_rates(conninfo, _stored_games(stored))
    return with_ratios(ours, anchors)
