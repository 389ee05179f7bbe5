"""Results queued by several threads of one process are written together
(eventstore.append_queued): one projection and one commit for the batch, each
append validated alone, each caller told its own outcome."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from games.eventstore import store
from games.eventstore.errors import EventRejectedError
from games.eventstore.models import StoredEvent
from games.eventstore.streams import stream_type
from tests.reliability_tests.conftest import make_tournament
from tournaments.core import aggregate
from tournaments.models import PlayerRound
from tournaments.results import services

pytestmark = pytest.mark.django_db(transaction=True)


def _enter(director, tournament_id, pair, scores, outcomes, index):
    try:
        outcomes[index] = services.result_record(
            tournament_id=tournament_id,
            round_=1,
            player_a=pair[0],
            player_b=pair[1],
            score_a=scores[0],
            score_b=scores[1],
            user=director,
        )
    except Exception as error:
        outcomes[index] = error
    finally:
        connections.close_all()


def test_results_queued_meanwhile_are_written_in_one_batch(director, monkeypatch):
    tournament_id, ids = make_tournament(director, players=10)
    handler = stream_type("tournament")
    original = handler.project
    first_batch_started, queue_filled = threading.Event(), threading.Event()
    batches = []

    def project(stream, state, new_events, **kwargs):
        batches.append(len(new_events))
        if len(batches) == 1:
            # Hold the first batch until the other threads have queued theirs.
            first_batch_started.set()
            assert queue_filled.wait(30)
        return original(stream, state, new_events, **kwargs)

    monkeypatch.setattr(handler, "project", project)
    pairs = [(ids[n], ids[n + 1]) for n in range(0, 10, 2)]
    # The last one repeats the first pairing: the rules refuse it, alone.
    entries = [(pair, (400 + n, 300)) for n, pair in enumerate(pairs)]
    entries.append((pairs[0], (500, 200)))
    outcomes: list[object] = [None] * len(entries)
    threads = [
        threading.Thread(
            target=_enter, args=(director, tournament_id, *entry, outcomes, n)
        )
        for n, entry in enumerate(entries)
    ]
    threads[0].start()
    assert first_batch_started.wait(30)
    for thread in threads[1:]:
        thread.start()
    _wait_until_queued(tournament_id, len(entries) - 1)
    queue_filled.set()
    for thread in threads:
        thread.join(60)

    assert batches == [1, len(pairs) - 1]
    refused = outcomes[-1]
    assert isinstance(refused, EventRejectedError), outcomes
    assert refused.code == "duplicate_result"
    versions = sorted(outcome.version for outcome in outcomes[:-1])
    start = versions[0]
    assert versions == list(range(start, start + len(pairs)))
    assert StoredEvent.objects.filter(stream_id=tournament_id).count() == versions[-1]
    recorded = PlayerRound.objects.filter(
        tournament_id=tournament_id, round=1, has_result=True
    ).count()
    assert recorded == 2 * len(pairs)


def _wait_until_queued(tournament_id, count: int) -> None:
    stream = aggregate.tournament_stream(tournament_id)
    for _ in range(3000):
        with store._queues.lock:
            if len(store._queues.waiting.get(stream, [])) == count:
                return
        threading.Event().wait(0.01)
    raise AssertionError("the appends never queued")
