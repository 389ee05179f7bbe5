"""The event store's contract: append, read, versions, concurrency, immutability."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import DatabaseError, connection, connections, transaction

from games.eventstore import store
from games.eventstore.cache import state_cache
from games.eventstore.chain import chain_hash_of_line, log_key
from games.eventstore.errors import ConcurrencyError, EventRejectedError
from games.eventstore.models import StoredEvent
from games.eventstore.rebuild import rebuild_projections
from games.eventstore.store import (
    append,
    current_version,
    load_state,
    read_all,
    read_stream,
)
from games.eventstore.streams import (
    NewEvent,
    StreamKey,
    register_stream_type,
    unregister_stream_type,
)
from tests.games_tests.streams import Added, CounterStream


@pytest.fixture
def counter():
    stream_type = CounterStream()
    register_stream_type(stream_type)
    state_cache.clear()
    yield stream_type
    unregister_stream_type("counter")
    state_cache.clear()


def new_stream() -> StreamKey:
    return StreamKey("counter", uuid.uuid4())


@pytest.mark.django_db
def test_append_stores_events_with_consecutive_versions(counter):
    stream = new_stream()
    result = append(stream, [Added(1), Added(2)], expected_version=0)
    assert result.version == 2
    assert result.state == 3
    result = append(stream, [Added(4, note="x")], expected_version=2)
    events = read_stream(stream)
    assert [e.version for e in events] == [1, 2, 3]
    assert [e.event for e in events] == [Added(1), Added(2), Added(4, note="x")]
    assert events[0].position < events[1].position < events[2].position
    assert counter.projected[stream.id] == 7


@pytest.mark.django_db
def test_a_stale_expected_version_raises_and_writes_nothing(counter):
    stream = new_stream()
    append(stream, [Added(1)], expected_version=0)
    with pytest.raises(ConcurrencyError) as raised:
        append(stream, [Added(1)], expected_version=0)
    assert raised.value.current == 1
    assert raised.value.expected == 0
    assert StoredEvent.objects.filter(stream_id=stream.id).count() == 1


@pytest.mark.django_db
def test_an_event_the_rules_reject_is_never_stored(counter):
    stream = new_stream()
    append(stream, [Added(60)], expected_version=0)
    with pytest.raises(EventRejectedError) as raised:
        append(stream, [Added(10), Added(50)], expected_version=1)
    assert raised.value.code == "too_big"
    assert raised.value.index == 1
    assert StoredEvent.objects.filter(stream_id=stream.id).count() == 1
    assert counter.projected[stream.id] == 60


@pytest.mark.django_db
def test_metadata_user_and_correlation_id_are_recorded(counter, django_user_model):
    user = django_user_model.objects.create_user("mara")
    stream = new_stream()
    correlation = uuid.uuid4()
    append(
        stream,
        [NewEvent(Added(5), {"line": 3})],
        expected_version=0,
        recorded_by=user,
        correlation_id=correlation,
    )
    (event,) = read_stream(stream)
    assert event.metadata == {"line": 3}
    assert event.recorded_by_id == user.pk
    assert event.correlation_id == correlation


@pytest.mark.django_db
def test_read_all_follows_the_global_order_across_streams(counter):
    first, second = new_stream(), new_stream()
    append(first, [Added(1)], expected_version=0)
    append(second, [Added(2)], expected_version=0)
    append(first, [Added(3)], expected_version=1)
    start = StoredEvent.objects.order_by("position").first().position - 1
    seen = [(e.stream.id, e.event.amount) for e in read_all(after_position=start)]
    assert seen == [(first.id, 1), (second.id, 2), (first.id, 3)]
    after_two = list(read_all(after_position=start + 2))
    assert [e.event.amount for e in after_two] == [3]


@pytest.mark.django_db
def test_the_hash_chain_links_each_event_to_the_previous(counter):
    stream = new_stream()
    append(stream, [Added(1), Added(2)], expected_version=0)
    first, second = read_stream(stream)
    line = {
        "position": second.position,
        "stream_type": stream.type,
        "stream_id": str(stream.id),
        "version": 2,
        "event_type": "added",
        "schema_version": 1,
        "payload": {"amount": 2, "note": ""},
        "metadata": {},
        "recorded_at": second.recorded_at.isoformat(),
        "recorded_by": None,
        "correlation_id": None,
    }
    assert second.chain_hash == chain_hash_of_line(first.chain_hash, line, log_key())
    assert first.chain_hash != second.chain_hash
    # The hash covers the position: the same event elsewhere in the log differs.
    moved = {**line, "position": second.position + 1}
    assert second.chain_hash != chain_hash_of_line(first.chain_hash, moved, log_key())


@pytest.mark.django_db
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE event_log SET payload = '{\"amount\": 99}'",
        "DELETE FROM event_log",
        "TRUNCATE event_log",
        "TRUNCATE event_log CASCADE",
    ],
)
def test_the_database_refuses_to_change_stored_events(counter, statement):
    stream = new_stream()
    append(stream, [Added(1)], expected_version=0)
    with connection.cursor() as cursor:
        # Fire the deferred foreign-key checks of the append first: TRUNCATE refuses
        # to run with pending trigger events, which would hide what we test.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement)
    assert [e.event for e in read_stream(stream)] == [Added(1)]


@pytest.mark.django_db
def test_the_orm_cannot_update_or_delete_a_stored_event(counter):
    stream = new_stream()
    append(stream, [Added(1)], expected_version=0)
    row = StoredEvent.objects.get(stream_id=stream.id)
    row.payload = {"amount": 50}
    with pytest.raises(DatabaseError), transaction.atomic():
        row.save()
    with pytest.raises(DatabaseError), transaction.atomic():
        StoredEvent.objects.filter(stream_id=stream.id).delete()
    assert StoredEvent.objects.get(stream_id=stream.id).payload == {
        "amount": 1,
        "note": "",
    }


@pytest.mark.django_db
def test_rebuild_gives_the_same_projection_as_the_incremental_path(counter):
    streams = [new_stream() for _ in range(3)]
    for n, stream in enumerate(streams, start=1):
        append(stream, [Added(n)], expected_version=0)
        append(stream, [Added(10 * n)], expected_version=1)
    incremental = {s.id: counter.projected[s.id] for s in streams}
    counter.reset_projections()
    counts = rebuild_projections(["counter"])
    assert counts["counter"] >= 3
    assert {s.id: counter.projected[s.id] for s in streams} == incremental


def _race(stream: StreamKey, expected: int, barrier: threading.Barrier, out: list):
    try:
        barrier.wait()
        append(stream, [Added(1)], expected_version=expected)
        out.append("ok")
    except ConcurrencyError as error:
        out.append(("conflict", error.current))
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_appenders_at_the_same_version_exactly_one_wins(counter):
    stream = new_stream()
    append(stream, [Added(1)], expected_version=0)
    state_cache.clear()
    barrier = threading.Barrier(2)
    outcomes: list = []
    threads = [
        threading.Thread(target=_race, args=(stream, 1, barrier, outcomes))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(map(str, outcomes)) == sorted(["ok", str(("conflict", 2))])
    assert [e.version for e in read_stream(stream)] == [1, 2]


def _writer(stream: StreamKey, attempts: int, out: list) -> None:
    try:
        written = 0
        while written < attempts:
            version = current_version(stream)
            try:
                append(stream, [Added(1)], expected_version=version)
                written += 1
            except ConcurrencyError:
                continue
        out.append(written)
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_twenty_racing_writers_leave_a_gap_free_log(counter):
    stream = new_stream()
    outcomes: list[int] = []
    threads = [
        threading.Thread(target=_writer, args=(stream, 4, outcomes)) for _ in range(20)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sum(outcomes) == 80
    versions = [e.version for e in read_stream(stream)]
    assert versions == list(range(1, 81))


@pytest.mark.django_db
def test_a_cache_behind_the_log_catches_up_with_only_the_newer_events(
    counter, monkeypatch
):
    """Another process appended: this one reads what it lacks, not the stream.

    Inside the test's transaction nothing commits, so appends never refresh the
    cache, just as appends made by another process would not.
    """
    stream = new_stream()
    append(stream, [Added(1), Added(2)], expected_version=0)
    load_state(stream)  # this process has seen version 2
    reads = []

    def counting(*args, **kwargs):
        events = read_stream(*args, **kwargs)
        reads.append([e.version for e in events])
        return events

    monkeypatch.setattr(store, "read_stream", counting)
    append(stream, [Added(4)], expected_version=2)  # the cache is current
    append(stream, [Added(8)], expected_version=3)  # one event behind
    version, state = load_state(stream)  # one more behind
    result = append(stream, [Added(16)], expected_version=4)
    monkeypatch.undo()
    assert reads == [[3], [4]]
    assert (version, state) == (4, 15)
    assert result.state == 31
    assert [e.version for e in read_stream(stream)] == [1, 2, 3, 4, 5]


# --- issue 33: a game's append in psycopg's pipeline mode ---------------------------


@pytest.fixture
def pipelined_counter(counter, monkeypatch):
    monkeypatch.setattr(counter, "pipelined", True, raising=False)
    return counter


@pytest.mark.django_db
def test_a_game_append_sends_its_statements_in_one_pipeline(
    monkeypatch, django_user_model
):
    """Before: seven round trips an append (BEGIN, positions, events and head,
    game row, kept state, score sheet, COMMIT), each waiting for the server."""
    from games import services
    from games.streams import GameStream

    seen = []
    original = GameStream.project

    def project(self, *args, **options):
        seen.append(connection.connection._pipeline is not None)
        return original(self, *args, **options)

    monkeypatch.setattr(GameStream, "project", project)
    user = django_user_model.objects.create_user("pia")
    services.game_import_gcg(
        text="#player1 ann Ann\n#player2 bob Bob\n>ann: DINNVWY 8D WINDY +30 30\n",
        user=user,
    )
    assert seen == [True]
    # Out of pipeline mode once the append is done.
    assert connection.connection._pipeline is None


@pytest.mark.django_db
def test_a_stale_version_in_pipeline_mode_leaves_the_transaction_usable(
    pipelined_counter,
):
    stream = new_stream()
    append(stream, [Added(1)], expected_version=0)
    with pytest.raises(ConcurrencyError) as raised:
        append(stream, [Added(1)], expected_version=0)
    assert raised.value.current == 1
    assert StoredEvent.objects.filter(stream_id=stream.id).count() == 1
    # The caller's transaction (the test's) goes on.
    assert append(stream, [Added(2)], expected_version=1).version == 2


@pytest.mark.django_db(transaction=True)
def test_a_stale_version_in_pipeline_mode_outside_a_transaction(pipelined_counter):
    stream = new_stream()
    append(stream, [Added(1)], expected_version=0)
    with pytest.raises(ConcurrencyError):
        append(stream, [Added(1)], expected_version=0)
    assert append(stream, [Added(2)], expected_version=1).version == 2
    assert [e.version for e in read_stream(stream)] == [1, 2]
