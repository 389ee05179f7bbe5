"""Fixtures for game-store tests."""

from __future__ import annotations

import pytest

from games.eventstore.cache import state_cache


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
