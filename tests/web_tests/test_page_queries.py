"""Pages take a fixed number of queries, however many players, rounds or turns.

Each test measures a page on a small case and a larger one: an N+1 query would make
the larger count grow.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as game_services
from games.eventstore.cache import state_cache
from tests.boards import round_games
from tournaments.models import Player
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured.captured_queries)


def play_round(tid, director, round_):
    pairing_services.round_pair(
        tournament_id=tid, division="A", round_=round_, method="swiss", user=director
    )
    for pairing in round_games(tid, round_):
        results_services.result_record(
            tournament_id=tid,
            round_=round_,
            player_a=pairing.first.player_id,
            player_b=pairing.second.player_id,
            score_a=400 + round_,
            score_b=380,
            user=director,
        )


@pytest.fixture
def tournament(director):
    created = setup_services.tournament_create(
        user=director,
        name="Counting",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=6,
    )
    tid = created.stream.id
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[(f"Player {n}", 1500 + n, "") for n in range(1, 21)],
        user=director,
    )
    return tid


@pytest.mark.django_db
def test_the_standings_page_does_not_grow_with_players_or_rounds(
    client, tournament, director
):
    play_round(tournament, director, 1)
    url = f"/tournaments/{tournament}/divisions/A/standings/"
    small = queries(client, url)
    for round_ in (2, 3, 4):
        play_round(tournament, director, round_)
    assert queries(client, url) == small
    # The tournament's header, then the latest round's rows.
    assert small == 2
    # After a given round: its header, the latest round (to bound the one asked for,
    # and for the links to the others), then the rows.
    assert queries(client, f"{url}after/2/") == 3


@pytest.mark.django_db
def test_the_scorecard_page_does_not_grow_with_rounds(client, tournament, director):
    play_round(tournament, director, 1)
    player = Player.objects.filter(tournament_id=tournament).first()
    url = f"/tournaments/{tournament}/players/{player.player_id}/"
    small = queries(client, url)
    for round_ in (2, 3, 4):
        play_round(tournament, director, round_)
    assert queries(client, url) == small
    # The tournament's and the player's rows (one statement), their results rows
    # (each round's result with the standing after it), and the games recorded on
    # their boards.
    assert small == 3


@pytest.mark.django_db
def test_the_game_page_does_not_grow_with_turns(client, director, shared_gcg_dir):
    short, _ = game_services.game_import_gcg(
        text=(shared_gcg_dir / "success_six_pass.gcg").read_bytes(),
        user=director,
        visibility="public",
    )
    long, _ = game_services.game_import_gcg(
        text=(shared_gcg_dir / "noah_vs_peter.gcg").read_bytes(),
        user=director,
        visibility="public",
    )
    # Cold, as most games of a national event are read: nothing replayed yet.
    state_cache.clear()
    few = queries(client, f"/games/{short.stream.id}/")
    many = queries(client, f"/games/{long.stream.id}/")
    assert many == few
    # The game's header with its tournament's, the state the store keeps at its
    # version, then who wrote its notes and when (both games have notes:
    # games.notes).
    assert few == 3
    # A turn before the last shows a position the kept state does not hold: its
    # events instead (the store is not asked).
    assert queries(client, f"/games/{short.stream.id}/turn/2/") == 3
    assert queries(client, f"/games/{long.stream.id}/turn/2/") == 3
