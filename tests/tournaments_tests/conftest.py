"""Fixtures for tournament tests: a director and a small tournament."""

from __future__ import annotations

import pytest

from games.eventstore.cache import state_cache
from tournaments import services


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    """Each test starts with an empty per-process state cache."""
    state_cache.clear()
    yield
    state_cache.clear()


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("mara", password="pw-mara-123")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("oscar", password="pw-oscar-123")


NAMES = [
    ("Ann Able", 1800),
    ("Ben Baker", 1750),
    ("Cy Cole", 1700),
    ("Di Dane", 1650),
    ("Ed Eames", 1600),
    ("Flo Fox", 1550),
    ("Gus Gray", 1500),
    ("Hal Hart", 1450),
    ("Ida Ives", 1400),
    ("Jo Jay", 1350),
    ("Kit Kay", 1300),
]


@pytest.fixture
def club(director):
    """A 7-round club tournament (classic rules) with 11 players in division A."""
    result = services.tournament_create(
        user=director,
        name="Riverside Club Championship",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=7,
        venue="Riverside Library",
    )
    tournament_id = result.stream.id
    services.players_register(
        tournament_id=tournament_id,
        division="A",
        entries=[(name, rating, "") for name, rating in NAMES],
        user=director,
    )
    return tournament_id
