"""Concurrent writers: of two directors entering the same result, exactly one is
stored and the other is told it changed (409); racing writers leave a gap-free log."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games import services as game_services
from games.eventstore import store
from games.eventstore.cache import state_cache
from games.eventstore.errors import ConcurrencyError
from games.eventstore.models import StoredEvent
from games.eventstore.store import read_stream
from games.eventstore.streams import stream_type
from games.models import GameProjection, GameTurn
from rules import tournament as rt
from tests.reliability_tests.conftest import make_tournament, start_game
from tournaments.core import aggregate, writes
from tournaments.models import PlayerRound, Tournament
from tournaments.players import services

RACES = 8  # one per board: 16 players
WRITERS = 20
NOTES_PER_WRITER = 5


def _post_result(user, url, body, barrier, out, index):
    try:
        client = APIClient()
        client.force_authenticate(user)
        barrier.wait(timeout=30)
        response = client.post(url, body, format="json")
        out[index] = (response.status_code, response.json())
    finally:
        connections.close_all()


def _race(users, url, body):
    """POST `body` to `url` as each user at the same moment, each in its thread (and
    so on its own database connection); return the (status, body) answers."""
    barrier = threading.Barrier(len(users))
    out: list = [None] * len(users)
    threads = [
        threading.Thread(target=_post_result, args=(user, url, body, barrier, out, n))
        for n, user in enumerate(users)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return out


def _results_of(tournament_id, player_a, player_b):
    return [
        e
        for e in read_stream(aggregate.tournament_stream(tournament_id))
        if isinstance(e.event, rt.ResultRecorded)
        and {e.event.player_a, e.event.player_b} == {player_a, player_b}
    ]


@pytest.fixture
def two_directors(director, second_director):
    tournament_id, ids = make_tournament(director, players=2 * RACES)
    services.director_add(
        tournament_id=tournament_id, new_director=second_director, user=director
    )
    return tournament_id, ids


@pytest.mark.django_db(transaction=True)
def test_two_directors_entering_the_same_result_one_wins_one_gets_409(
    two_directors, director, second_director
):
    """Both read the version, then post at once: one 201, one 409 with the version."""
    tournament_id, ids = two_directors
    url = f"/api/tournaments/{tournament_id}/results"
    conflicts = 0
    for board in range(RACES):
        a, b = ids[2 * board], ids[2 * board + 1]
        version = Tournament.objects.get(pk=tournament_id).version
        body = {
            "round": 1,
            "player_a": a,
            "player_b": b,
            "score_a": 400 + board,
            "score_b": 350,
            "expected_version": version,
        }
        answers = _race([director, second_director], url, body)
        statuses = sorted(status for status, _ in answers)
        assert statuses == [201, 409], answers
        winner = next(body for status, body in answers if status == 201)
        loser = next(body for status, body in answers if status == 409)
        assert winner["version"] == version + 1
        assert loser["code"] == "stale_version"
        assert loser["current_version"] == version + 1
        assert len(_results_of(tournament_id, a, b)) == 1
        conflicts += 1
    versions = [
        e.version for e in read_stream(aggregate.tournament_stream(tournament_id))
    ]
    assert versions == list(range(1, len(versions) + 1))
    assert Tournament.objects.get(pk=tournament_id).version == versions[-1]
    assert (
        PlayerRound.objects.filter(
            tournament_id=tournament_id, kind="game", went_first=True, has_result=True
        ).count()
        == RACES
    )
    print(f"\nFIGURES two-directors: {RACES} races, {conflicts} answered 409")


@pytest.mark.django_db(transaction=True)
def test_without_a_version_the_second_slip_waits_and_is_refused_as_a_duplicate(
    two_directors, director, second_director, monkeypatch
):
    """Two directors post the same slip without a version: the service queues them
    on the stream's lock, so the second validates once, on the state with the first
    result in it, and the rules refuse the duplicate (400). No append is wasted on a
    lost race: exactly two validations of the result."""
    tournament_id, ids = two_directors
    handler = stream_type("tournament")
    original = handler.apply
    validations = []

    def slow_apply(state, event, version, metadata):
        if isinstance(event, rt.ResultRecorded):
            validations.append(version)
            time.sleep(0.2)  # wide open for the other director, were it not queued
        return original(state, event, version, metadata)

    monkeypatch.setattr(handler, "apply", slow_apply)
    version = Tournament.objects.get(pk=tournament_id).version
    a, b = ids[0], ids[1]
    body = {"round": 1, "player_a": a, "player_b": b, "score_a": 420, "score_b": 380}
    answers = _race(
        [director, second_director], f"/api/tournaments/{tournament_id}/results", body
    )
    assert sorted(status for status, _ in answers) == [201, 400], answers
    loser = next(body for status, body in answers if status != 201)
    assert loser["code"] == "duplicate_result"
    # The loser validated once, on the state with the winner's result in it. The
    # winner's event may be applied again by a thread catching its cached state
    # up with the log (a replay, not a validation), so only its presence counts.
    assert validations.count(version + 2) == 1
    assert set(validations) == {version + 1, version + 2}
    assert len(_results_of(tournament_id, a, b)) == 1
    assert StoredEvent.objects.filter(stream_id=tournament_id).count() == version + 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("sends_version", [True, False])
def test_when_both_pass_validation_the_unique_version_decides(
    two_directors, director, second_director, monkeypatch, sends_version
):
    """Force the narrowest race: both appends read version n and validate the result
    before either writes (the stream lock is bypassed, as by a writer that does not
    take it). The (stream, version) key lets one insert; the other's insert fails.
    With the version it read, the loser gets 409 and the current version; without
    one (the service read it), the service validates again on the new state and the
    rules refuse the duplicate result (400). Either way exactly one result is
    stored."""
    monkeypatch.setattr(writes, "lock_stream", lambda stream: None)
    # Without a version the service queues the append (store.append_queued): each
    # thread gets a queue of its own, as two server processes would, and the
    # queue's writer skips the lock too.
    monkeypatch.setattr(store, "lock_stream", lambda stream: None)
    monkeypatch.setattr(store, "_queues", _QueuesPerThread())
    tournament_id, ids = two_directors
    handler = stream_type("tournament")
    original = handler.apply
    both_validated = threading.Barrier(2)

    def apply(state, event, version, metadata):
        new_state = original(state, event, version, metadata)
        if isinstance(event, rt.ResultRecorded):
            both_validated.wait(timeout=30)
        return new_state

    monkeypatch.setattr(handler, "apply", apply)
    version = Tournament.objects.get(pk=tournament_id).version
    a, b = ids[0], ids[1]
    body = {"round": 1, "player_a": a, "player_b": b, "score_a": 420, "score_b": 380}
    if sends_version:
        body["expected_version"] = version
    answers = _race(
        [director, second_director], f"/api/tournaments/{tournament_id}/results", body
    )
    statuses = sorted(status for status, _ in answers)
    loser = next(body for status, body in answers if status != 201)
    if sends_version:
        assert statuses == [201, 409], answers
        assert loser["current_version"] == version + 1
    else:
        assert statuses == [201, 400], answers
        assert loser["code"] == "duplicate_result"
    assert len(_results_of(tournament_id, a, b)) == 1
    assert StoredEvent.objects.filter(stream_id=tournament_id).count() == version + 1


class _QueuesPerThread(threading.local):
    """The store's append queues, one per thread (as one per process)."""

    def __init__(self) -> None:
        store._StreamQueues.__init__(self)


def _note_writer(game_id, target, user, writer, out, conflicts):
    try:
        for n in range(NOTES_PER_WRITER):
            while True:
                try:
                    game_services.game_note(
                        game_id=game_id,
                        target_version=target,
                        text=f"writer {writer} note {n}",
                        user=user,
                    )
                    break
                except ConcurrencyError:
                    conflicts.append(writer)
            out.append((writer, n))
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_twenty_writers_racing_on_one_game_lose_no_event(director, settings):
    """20 threads, each on its own connection, annotate one real game through the
    services, retrying on ConcurrencyError: every note is stored exactly once, the
    versions run 1..n without a gap, and the projection is at the last version.
    Without the notes quota, whose lock per user would queue the writers."""
    settings.NOTES_PER_MINUTE = 0
    game_id, turn_version = start_game(director)
    state_cache.clear()
    before = StoredEvent.objects.filter(stream_id=game_id).count()
    done: list = []
    conflicts: list = []
    threads = [
        threading.Thread(
            target=_note_writer,
            args=(game_id, turn_version, director, writer, done, conflicts),
        )
        for writer in range(WRITERS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    total = WRITERS * NOTES_PER_WRITER
    assert len(done) == total
    events = read_stream(game_services.game_stream(game_id))
    assert [e.version for e in events] == list(range(1, before + total + 1))
    texts = [e.event.text for e in events if e.type_name == "note_added"]
    expected = {
        f"writer {w} note {n}" for w in range(WRITERS) for n in range(NOTES_PER_WRITER)
    }
    assert sorted(texts) == sorted(expected)
    projection = GameProjection.objects.get(pk=game_id)
    assert projection.version == before + total
    turn = GameTurn.objects.get(game_id=game_id, version=turn_version)
    assert sorted(note["text"] for note in turn.notes) == sorted(expected)
    print(
        f"\nFIGURES twenty-writers: {WRITERS} writers, {total} events, "
        f"{len(conflicts)} conflicts retried"
    )
