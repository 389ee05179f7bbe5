"""The commit-ordered feed: a follower resuming after feed position P never misses
an event committed later, however the log's positions were taken."""

from __future__ import annotations

import random
import threading
import time
import uuid
from itertools import pairwise

import pytest
from django.db import IntegrityError, connection, connections, transaction

from games.eventstore.feed import read_feed
from games.eventstore.models import FeedEntry, StoredEvent
from games.eventstore.store import append, current_version, read_all
from games.eventstore.streams import (
    StreamKey,
    register_stream_type,
    unregister_stream_type,
)
from tests.games_tests.streams import Added, CounterStream

WRITERS = 4
APPENDS_PER_WRITER = 30


@pytest.fixture(autouse=True)
def counter():
    register_stream_type(CounterStream())
    yield
    unregister_stream_type("counter")


def _stream() -> StreamKey:
    return StreamKey("counter", uuid.uuid4())


def _append_one(stream: StreamKey, amount: int = 1):
    return append(
        stream, [Added(amount)], expected_version=current_version(stream)
    ).recorded


@pytest.mark.django_db(transaction=True)
def test_an_event_that_commits_late_is_not_passed_by_a_follower():
    """A takes its log position first and commits last: a follower of positions
    moves past it for good, a follower of feed positions gets it next."""
    first, second = _stream(), _stream()
    inserted, committed = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def slow_writer() -> None:
        try:
            with transaction.atomic():
                _append_one(first)
                inserted.set()
                assert committed.wait(10)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=slow_writer)
    thread.start()
    assert inserted.wait(10)
    (late,) = _append_one(second)
    # The follower reads while A is still open: it sees B only.
    page = read_feed(after=0)
    assert [item.event.stream for item in page.events] == [second]
    by_position = [event.position for event in read_all(after_position=0)]
    position_cursor = by_position[-1]
    committed.set()
    thread.join(10)
    assert not errors

    resumed = read_feed(after=page.head)
    (early,) = resumed.events
    assert early.event.stream == first
    # A's log position is below B's: a follower of positions never sees it.
    assert early.event.position < late.position
    assert list(read_all(after_position=position_cursor)) == []
    assert early.feed_position > page.head


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_append_takes_no_feed_position():
    stream = _stream()

    def abandoned() -> None:
        with transaction.atomic():
            _append_one(stream)
            raise RuntimeError("abandon")

    with pytest.raises(RuntimeError):
        abandoned()
    assert FeedEntry.objects.count() == 0
    _append_one(stream)
    assert FeedEntry.objects.count() == StoredEvent.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_feed_refuses_changes():
    _append_one(_stream())
    with pytest.raises(IntegrityError), transaction.atomic():
        FeedEntry.objects.update(position=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        FeedEntry.objects.all().delete()


def _writer(seed: int, appended: list, failures: list) -> None:
    """Appends, each held open a random moment after its insert (so commits come
    out of position order); one in five appends to two streams in one
    transaction."""
    rng = random.Random(seed)
    streams = [_stream() for _ in range(3)]
    try:
        for _ in range(APPENDS_PER_WRITER):
            with transaction.atomic():
                picked = rng.sample(streams, 2 if rng.random() < 0.2 else 1)
                for stream in picked:
                    appended.extend(_append_one(stream))
                time.sleep(rng.uniform(0, 0.004))
    except BaseException as error:  # pragma: no cover - reported by the test
        failures.append(error)
    finally:
        connections.close_all()


def _reader(done: threading.Event, received: list, failures: list) -> None:
    """Reads small pages; every few pages it drops its connection and resumes from
    the last head it was given, as a reader that reconnects."""
    rng = random.Random(99)
    cursor = 0
    try:
        while True:
            finished = done.is_set()
            page = read_feed(after=cursor, limit=rng.randint(1, 7))
            received.extend(page.events)
            cursor = page.head
            if rng.random() < 0.3:
                connection.close()  # disconnect; the next read resumes at cursor
            if finished and not page.full:
                return
            time.sleep(rng.uniform(0, 0.002))
    except BaseException as error:  # pragma: no cover - reported by the test
        failures.append(error)
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_a_resuming_reader_gets_every_event_once_in_order_while_writers_race():
    appended: list = []
    received: list = []
    failures: list = []
    done = threading.Event()
    writers = [
        threading.Thread(target=_writer, args=(seed, appended, failures))
        for seed in range(WRITERS)
    ]
    reader = threading.Thread(target=_reader, args=(done, received, failures))
    reader.start()
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join(60)
    done.set()
    reader.join(60)
    assert not failures

    committed = {event.position for event in appended}
    got = [item.event.position for item in received]
    assert len(got) == len(set(got)), "an event was delivered twice"
    assert set(got) == committed, "an event was missed"
    feed_positions = [item.feed_position for item in received]
    assert feed_positions == sorted(feed_positions)
    # The race was real: in commit order, log positions went backwards.
    inversions = sum(1 for a, b in pairwise(got) if b < a)
    print(
        f"\nFIGURES feed race: {len(got)} events from {WRITERS} writers, "
        f"{inversions} commits out of position order, all received once in order"
    )
    assert inversions > 0
