"""Fixtures for game-store tests."""

from __future__ import annotations

import pytest

from games.eventstore.cache import state_cache
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    state_cache.clear()
    yield
    state_cache.clear()


@pytest.fixture
def recorder(django_user_model):
    return django_user_model.objects.create_user("rita", password="pw-rita-123")


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("sam", password="pw-sam-123")


def club_tournament(user, names, *, published=True):
    """A 3-round tournament of `user`'s with `names` (rated 1500 down) in division
    A: its id and the players' ids in number order."""
    created = setup_services.tournament_create(
        user=user,
        name="Riverside Open",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=3,
        published=published,
    )
    registered = players_services.players_register(
        tournament_id=created.stream.id,
        division="A",
        entries=[(name, 1500 - 100 * index, "") for index, name in enumerate(names)],
        user=user,
    )
    players = registered.state.rules.players
    return created.stream.id, sorted(players, key=lambda pid: players[pid].number)
