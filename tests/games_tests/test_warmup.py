"""A server worker replays the tournaments being played before it takes requests."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from games.eventstore.cache import state_cache
from games.eventstore.store import current_version
from games.eventstore.warmup import recent_streams
from tournaments.core.aggregate import tournament_stream
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services

GUNICORN_CONF = Path(__file__).resolve().parents[2] / "config" / "gunicorn.conf.py"


def make_tournament(user, name):
    created = setup_services.tournament_create(
        user=user,
        name=name,
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=3,
    )
    players_services.players_register(
        tournament_id=created.stream.id,
        division="A",
        entries=[("Ann", 1500, ""), ("Ben", 1400, "")],
        user=user,
    )
    return tournament_stream(created.stream.id)


@pytest.mark.django_db(transaction=True)
def test_the_worker_hook_loads_recent_tournaments_into_the_cache(django_user_model):
    director = django_user_model.objects.create_user("warm-director")
    older = make_tournament(director, "Older Open")
    newer = make_tournament(director, "Newer Open")
    state_cache.clear()
    try:
        hook = runpy.run_path(str(GUNICORN_CONF))["post_worker_init"]
        hook(None)
        for stream in (older, newer):
            entry = state_cache.entry(stream)
            assert entry is not None, stream
            version, state, _ = entry
            assert version == current_version(stream)
            assert len(state.rules.players) == 2
    finally:
        state_cache.clear()


@pytest.mark.django_db
def test_recent_streams_are_newest_first_and_bounded(django_user_model):
    director = django_user_model.objects.create_user("warm-director")
    streams = [make_tournament(director, f"Open {n}") for n in range(3)]
    assert recent_streams("tournament", limit=2) == [streams[2], streams[1]]
    # Only the last few events count: the first tournament's are further back.
    last_two_events = recent_streams("tournament", recent_events=2)
    assert last_two_events == [streams[2]]
    assert recent_streams("game") == []
