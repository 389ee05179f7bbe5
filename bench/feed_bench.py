"""What numbering events at commit costs an append (the live feed's order).

    python bench/feed_bench.py [--games 8] [--rounds 3]

On a throwaway embedded PostgreSQL: games simulated move by move are appended one
event per append (as the recorder appends a move), first by one writer, then by
two writers on two games at once. Each measure runs with the feed's trigger
switched off (the log as before migration 0003) and on, interleaved, ``--rounds``
times; the best of each is kept. Prints events per second and the ratio on/off.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import _setup_django


def _games(count: int) -> list[list[object]]:
    from games.simulate import english_word_graph, simulate_game
    from rules.ruleset import ruleset

    graph = english_word_graph()
    return [
        simulate_game(
            ("First", "Second"), ruleset("classic"), graph, random.Random(f"feed-{n}")
        ).events
        for n in range(count)
    ]


def _record(events: list[object]) -> int:
    """Append a game one event at a time, as the move-by-move recorder does."""
    from games.eventstore.store import append
    from games.eventstore.streams import StreamKey

    stream = StreamKey("game", uuid.uuid4())
    for version, event in enumerate(events):
        append(stream, [event], expected_version=version)
    return len(events)


def _one_writer(games: list[list[object]]) -> float:
    start = time.perf_counter()
    count = sum(_record(events) for events in games)
    return count / (time.perf_counter() - start)


def _two_writers(games: list[list[object]]) -> float:
    from django.db import connections

    counts = [0, 0]

    def write(index: int) -> None:
        try:
            counts[index] = sum(_record(events) for events in games[index::2])
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(i,)) for i in range(2)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - start)


_RAW_INSERT = """
INSERT INTO event_log (stream_type, stream_id, version, event_type, schema_version,
                       payload, metadata, recorded_at, chain_hash)
VALUES ('raw', %s, 1, 'raw', 1, '{}', '{}', now(), '')
"""


def _raw_batch(size: int) -> float:
    """Seconds per committed one-row insert of the log (the trigger's own work,
    with nothing of the append around it)."""
    from django.db import connection, transaction

    start = time.perf_counter()
    for _ in range(size):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_RAW_INSERT, [uuid.uuid4()])
    return (time.perf_counter() - start) / size


def _raw(batches: int, size: int) -> tuple[float, float]:
    """Median seconds per insert without and with the trigger, interleaved."""
    import statistics

    times: dict[bool, list[float]] = {False: [], True: []}
    for batch in range(batches):
        for enabled in (False, True) if batch % 2 == 0 else (True, False):
            _trigger(enabled)
            times[enabled].append(_raw_batch(size))
    _trigger(True)
    return statistics.median(times[False]), statistics.median(times[True])


def _trigger(enabled: bool) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"ALTER TABLE event_log {'ENABLE' if enabled else 'DISABLE'}"
            " TRIGGER event_feed_number"
        )


def _no_flush_wait(sender: object, connection: object, **kwargs: object) -> None:
    with connection.cursor() as cursor:  # type: ignore[attr-defined]
        cursor.execute("SET synchronous_commit = off")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--no-flush-wait",
        action="store_true",
        help="synchronous_commit off: the trigger's own work, without the disk",
    )
    options = parser.parse_args()
    _setup_django(None)
    from django.core.management import call_command
    from django.db.backends.signals import connection_created

    if options.no_flush_wait:
        connection_created.connect(_no_flush_wait)
    call_command("migrate", verbosity=0)
    off, on = _raw(20, 200)
    print(
        f"one-row insert and commit: {off * 1e6:,.0f} us without the feed, "
        f"{on * 1e6:,.0f} us with it (+{(on - off) * 1e6:,.0f} us an event)"
    )
    games = _games(options.games)
    print(f"{options.games} games, {sum(map(len, games))} events each round")
    _one_writer(games[:2])  # warm up: imports, caches, the server's buffers
    best: dict[tuple[str, bool], float] = {}
    for round_ in range(options.rounds):
        for enabled in (False, True) if round_ % 2 == 0 else (True, False):
            _trigger(enabled)
            for name, measure in (("one", _one_writer), ("two", _two_writers)):
                rate = measure(games)
                key = (name, enabled)
                best[key] = max(best.get(key, 0.0), rate)
                state = "on " if enabled else "off"
                print(
                    f"round {round_ + 1} trigger {state} {name} writer(s): "
                    f"{rate:,.0f} events/s"
                )
    _trigger(True)
    for name, label in (("one", "one writer"), ("two", "two writers")):
        off, on = best[(name, False)], best[(name, True)]
        print(
            f"{label}: {off:,.0f} events/s without the feed, {on:,.0f} with it: "
            f"{on / off:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
