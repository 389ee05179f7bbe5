"""The game detail endpoint takes a fixed number of queries, whatever the length."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games import services


@pytest.mark.django_db
def test_game_detail_queries_do_not_grow_with_turns(
    recorder, shared_gcg_dir, django_assert_max_num_queries
):
    result, record = services.game_import_gcg(
        text=(shared_gcg_dir / "noah_vs_peter.gcg").read_bytes(),
        user=recorder,
        visibility="public",
    )
    cache.clear()
    # The game (with its tournament's published flag), then its turns.
    with django_assert_max_num_queries(2):
        response = APIClient().get(f"/api/games/{result.stream.id}/")
    assert len(response.json()["turns"]) == len(record.state.turns)


@pytest.mark.django_db
def test_the_sql_read_gives_what_the_documented_serializer_gives(
    recorder, shared_gcg_dir
):
    """The game read skips the serializer; its JSON must still be the serializer's."""
    from games import serializers as s
    from games.models import GameProjection

    result, _ = services.game_import_gcg(
        text=(shared_gcg_dir / "noah_vs_peter.gcg").read_bytes(),
        user=recorder,
        visibility="public",
    )
    game = GameProjection.objects.get(pk=result.stream.id)
    documented = s.GameDetailOutput(game).data
    response = APIClient().get(f"/api/games/{game.pk}/")
    assert response.json() == json.loads(json.dumps(documented))
