"""Searching games by player, opponent, tournament, date and one's own, on the
games page and the API: within the games the reader may list."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import GameProjection
from tests.games_tests.conftest import club_tournament
from tests.refusals import refused

pytestmark = pytest.mark.django_db


def casual(user, players, visibility="public"):
    started = services.game_start(
        user=user, players=players, racks=["DINNVWY", "ADEEGIL"], visibility=visibility
    )
    return str(started.stream.id)


@pytest.fixture
def games(recorder):
    """Three public casual games and a private one; a tournament game."""
    made = {
        "ann_ben": casual(recorder, ["Ann Able", "Ben Baker"]),
        "ann_cy": casual(recorder, ["Ann Able", "Cy Cole"]),
        "ben_cy": casual(recorder, ["Ben Baker", "Cy Cole"]),
        "private": casual(recorder, ["Ann Able", "Di Dane"], visibility="private"),
    }
    tid, ids = club_tournament(recorder, ["Ann Able", "Ed Eames"])
    started = services.game_start(
        user=recorder,
        players=["Ann Able", "Ed Eames"],
        racks=["DINNVWY", "ADEEGIL"],
        context={"tournament_id": tid, "division": "A", "player_ids": ids},
    )
    made["open"] = str(started.stream.id)
    # An older game, by its start.
    GameProjection.objects.filter(pk=made["ben_cy"]).update(
        started_at=datetime.datetime(2025, 3, 1, 12, tzinfo=datetime.UTC)
    )
    return made


def found(client, **query) -> set[str]:
    response = client.get("/api/games/", query)
    assert response.status_code == 200, response.json()
    return {game["id"] for game in response.json()["results"]}


def names(games, *keys) -> set[str]:
    return {games[key] for key in keys}


def test_by_player_name_anywhere_in_it_ignoring_case(games):
    anyone = APIClient()
    assert found(anyone, player="ann") == names(games, "ann_ben", "ann_cy", "open")
    assert found(anyone, player="COLE") == names(games, "ann_cy", "ben_cy")


def test_by_player_and_opponent(games):
    assert found(APIClient(), player="Ann", opponent="Cy") == names(games, "ann_cy")
    assert found(APIClient(), player="Cy", opponent="Ann") == names(games, "ann_cy")
    # The same player is not their own opponent.
    assert found(APIClient(), player="Ann", opponent="Able") == set()


def test_by_tournament_and_date(games):
    assert found(APIClient(), tournament="riverside") == names(games, "open")
    assert found(APIClient(), date_to="2025-12-31") == names(games, "ben_cy")
    assert "ben_cy" not in {
        key
        for key, game_id in games.items()
        if game_id in found(APIClient(), date_from="2026-01-01")
    }


def test_wildcards_are_taken_literally(games):
    assert found(APIClient(), player="%") == set()
    assert found(APIClient(), player="_") == set()


def test_a_private_game_is_found_by_its_owner_only(games, recorder, stranger):
    owner, other = APIClient(), APIClient()
    owner.force_authenticate(recorder)
    other.force_authenticate(stranger)
    assert games["private"] in found(owner, player="Dane")
    assert found(other, player="Dane") == set()


def test_mine_is_the_games_i_uploaded_or_played(games, recorder, stranger):
    owner, other = APIClient(), APIClient()
    owner.force_authenticate(recorder)
    other.force_authenticate(stranger)
    assert found(owner, mine="true") == names(
        games, "ann_ben", "ann_cy", "ben_cy", "private"
    )
    assert found(other, mine="true") == set()
    assert found(APIClient(), mine="true") == set()


def test_a_bad_date_is_a_400_naming_it(games):
    response = APIClient().get("/api/games/", {"date_from": "yesterday"})
    refused(response, field="date_from", code="invalid")


def test_the_games_page_searches_the_same_way(client, games):
    body = client.get("/games/", {"player": "Ann", "opponent": "Cy"}).content.decode()
    assert games["ann_cy"] in body
    assert games["ann_ben"] not in body
    assert client.get("/games/", {"date_from": "nope"}).status_code == 400
