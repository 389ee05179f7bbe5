"""Read endpoints: a bounded number of queries, and a 304 until the data changes."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.boards import round_games
from tournaments.models import Player
from tournaments.pairing import services as pairing_services
from tournaments.results import selectors, serializers
from tournaments.results import services as results_services


@pytest.fixture
def played(club, director):
    """Three rounds of the club tournament, every game scored."""
    for round_ in (1, 2, 3):
        pairing_services.round_pair(
            tournament_id=club,
            division="A",
            round_=round_,
            method="swiss",
            user=director,
        )
        for pairing in round_games(club, round_):
            results_services.result_record(
                tournament_id=club,
                round_=round_,
                player_a=pairing.first.player_id,
                player_b=pairing.second.player_id,
                score_a=420,
                score_b=380,
                user=director,
            )
    cache.clear()
    return club


@pytest.mark.django_db
def test_standings_take_a_fixed_number_of_queries(
    played, django_assert_max_num_queries
):
    client = APIClient()
    # The tournament's header, then its standings rows.
    with django_assert_max_num_queries(2):
        response = client.get(f"/api/tournaments/{played}/standings?division=A")
    assert response.status_code == 200
    assert len(response.json()["standings"]) == 11
    # Served again from the cache for the same version: one query (the tournament).
    with django_assert_max_num_queries(1):
        again = client.get(f"/api/tournaments/{played}/standings?division=A")
    assert again.content == response.content


@pytest.mark.django_db
def test_a_scorecard_takes_a_fixed_number_of_queries(
    played, django_assert_max_num_queries
):
    player = Player.objects.filter(tournament_id=played).first()
    # The tournament with the player, the player's pairings (with the opponents'
    # names), the player's standings lines.
    with django_assert_max_num_queries(3):
        response = APIClient().get(
            f"/api/tournaments/{played}/players/{player.player_id}/scorecard"
        )
    assert len(response.json()["rounds"]) == 3


@pytest.mark.django_db
def test_standings_answer_304_until_a_result_changes_them(played, director):
    client = APIClient()
    url = f"/api/tournaments/{played}/standings?division=A"
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    pairing_services.round_pair(
        tournament_id=played, division="A", round_=4, method="swiss", user=director
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


@pytest.mark.django_db
def test_the_standings_rows_are_what_the_serializer_documents(played):
    """The hand-built rows carry exactly the documented fields and values."""
    from tournaments.models import PlayerRound
    from tournaments.results.serializers import StandingOutput

    row = (
        PlayerRound.objects.filter(tournament_id=played, round=3)
        .order_by("position")
        .first()
    )
    body = APIClient().get(f"/api/tournaments/{played}/standings?division=A").json()
    assert body["standings"][0] == dict(StandingOutput(row).data)


@pytest.mark.django_db
def test_the_sql_reads_give_what_the_documented_serializers_give(played):
    """The hot reads skip the serializers; their JSON must still be theirs."""
    from tournaments.models import PlayerRound

    client = APIClient()
    for player in Player.objects.filter(tournament_id=played):
        documented = serializers.ScorecardOutput(
            {
                "player": player,
                "rounds": selectors.scorecard_lines(
                    played, player.player_id, player.division
                ),
            }
        ).data
        url = f"/api/tournaments/{played}/players/{player.player_id}/scorecard"
        assert client.get(url).json() == json.loads(json.dumps(documented))
    for after_round in (1, 3):
        rows = PlayerRound.objects.filter(
            tournament_id=played, division="A", round=after_round
        ).order_by("position")
        documented = serializers.StandingsOutput(
            {"division": "A", "after_round": after_round, "standings": rows}
        ).data
        url = f"/api/tournaments/{played}/standings"
        query = {"division": "A", "after_round": after_round}
        assert client.get(url, query).json() == json.loads(json.dumps(documented))
