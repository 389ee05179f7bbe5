"""A tournament's kept state (the event store's KeptState, as a game's): a cold
process starts from it and applies only the events since, and never trusts one the
code cannot vouch for."""

from __future__ import annotations

import pytest
from django.db import connection

from games.eventstore.cache import state_cache
from games.eventstore.models import KeptState
from games.eventstore.store import read_stream
from games.eventstore.streams import stream_type
from tournaments.core import aggregate
from tournaments.core import stream as core_stream
from tournaments.core.stream import TournamentStream
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def every_three(monkeypatch):
    monkeypatch.setattr(core_stream, "SNAPSHOT_EVERY", 3)


def played(director, on_commit) -> tuple:
    """A tournament with round 1 paired and two results, states kept on commit."""
    with on_commit(execute=True):
        created = setup_services.tournament_create(
            user=director,
            name="Kept Open",
            start_date="2026-11-21",
            end_date="2026-11-22",
            rounds=3,
            preset="classic",
        )
        tid = created.stream.id
        players_services.players_register(
            tournament_id=tid,
            division="A",
            entries=[(f"Player {n}", 1500 - n, "") for n in range(1, 7)],
            user=director,
        )
        _, state = aggregate.tournament_state(tid)
        ids = sorted(state.rules.players, key=lambda p: state.rules.players[p].number)
        pairing_services.round_pair(
            tournament_id=tid,
            division="A",
            round_=1,
            method="manual",
            games=[(1, ids[0], ids[1]), (2, ids[2], ids[3]), (3, ids[4], ids[5])],
            user=director,
        )
        for number in range(2):
            results_services.result_record(
                tournament_id=tid,
                round_=1,
                player_a=ids[2 * number],
                player_b=ids[2 * number + 1],
                score_a=400 + number,
                score_b=350,
                user=director,
            )
    return tid, ids


def replayed(tid):
    """The tournament's state replayed from its first event (no kept state)."""
    stream = aggregate.tournament_stream(tid)
    return stream_type("tournament").replay(stream, read_stream(stream))


def test_a_cold_process_starts_from_the_kept_state(
    director, every_three, django_capture_on_commit_callbacks, monkeypatch
):
    tid, _ = played(director, django_capture_on_commit_callbacks)
    version, _ = aggregate.tournament_state(tid)
    kept = KeptState.objects.get(stream_id=tid)
    assert (kept.stream_type, kept.stream_id) == ("tournament", tid)
    assert 0 < kept.version <= version
    state_cache.clear()

    def no_replay(self, stream, events):
        raise AssertionError("replayed from the first event")

    monkeypatch.setattr(TournamentStream, "replay", no_replay)
    cold_version, cold = aggregate.tournament_state(tid)
    monkeypatch.undo()
    assert (cold_version, cold) == (version, replayed(tid))


def test_a_kept_state_altered_in_the_table_is_not_used(
    director, every_three, django_capture_on_commit_callbacks
):
    tid, _ = played(director, django_capture_on_commit_callbacks)
    version, _ = aggregate.tournament_state(tid)
    kept = KeptState.objects.get(stream_id=tid)
    blob = bytearray(kept.state)
    blob[-5] ^= 0xFF
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE event_kept_state SET state = %s WHERE stream_id = %s",
            [bytes(blob), tid],
        )
    handler = stream_type("tournament")
    assert handler.stored_state(aggregate.tournament_stream(tid), version) is None
    state_cache.clear()
    assert aggregate.tournament_state(tid) == (version, replayed(tid))


def test_a_kept_state_is_only_used_for_its_own_version(
    director, every_three, django_capture_on_commit_callbacks
):
    """Moved to another version in the table, the state is refused; and a state
    newer than the version asked for is never read."""
    tid, _ = played(director, django_capture_on_commit_callbacks)
    stream = aggregate.tournament_stream(tid)
    handler = stream_type("tournament")
    kept = KeptState.objects.get(stream_id=tid)
    assert handler.stored_state(stream, kept.version - 1) is None
    KeptState.objects.filter(stream_id=tid).update(version=kept.version - 1)
    assert handler.stored_state(stream, kept.version) is None


def test_a_tournament_keeps_no_state_between_the_marks(
    director, django_capture_on_commit_callbacks
):
    """With the real spacing, a short tournament keeps none (nothing to save)."""
    tid, _ = played(director, django_capture_on_commit_callbacks)
    version, _ = aggregate.tournament_state(tid)
    assert version < core_stream.SNAPSHOT_EVERY
    assert not KeptState.objects.filter(stream_id=tid).exists()
