"""The players page's imports: a .TOU file (with a ratings list), a ratings list,
and a pasted list with career games."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.eventstore.models import StoredEvent
from tests.tournaments_tests.harbour import HARBOUR, RATINGS, create_harbour
from tournaments.models import Player
from tournaments.players import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def harbour(director):
    return create_harbour(director)


def post(client, tid, action, **fields):
    payload = {"action": action}
    payload.update({f"{action}-{key}": value for key, value in fields.items()})
    return client.post(reverse("manage-players", args=[tid, "Open"]), payload)


def upload(name, content):
    return SimpleUploadedFile(name, content)


def test_the_players_page_offers_both_imports(director_client, harbour, director):
    services.players_register(
        tournament_id=harbour,
        division="Open",
        entries=[("Ann Able", 1720, "NA101", 412)],
        user=director,
    )
    page = director_client.get(reverse("manage-players", args=[harbour, "Open"]))
    text = page.content.decode()
    assert 'value="tou"' in text
    assert 'value="ratings"' in text
    assert "Career games" in text
    assert '<td class="num hide-phone">412</td>' in text


def test_a_tou_file_with_a_ratings_list_is_imported(director_client, harbour):
    response = post(
        director_client,
        harbour,
        "tou",
        file=upload("harbour.TOU", HARBOUR),
        ratings_list=upload("list.csv", RATINGS),
    )
    assert response.status_code == 302
    players = {p.name: p for p in Player.objects.filter(tournament_id=harbour)}
    assert len(players) == 7
    assert (players["Ben Baker"].rating, players["Ben Baker"].career_games) == (
        1650,
        38,
    )
    followed = director_client.get(response["Location"]).content.decode()
    assert "The .TOU file is imported." in followed


def test_a_bad_tou_file_is_refused_with_its_line(director_client, harbour):
    before = StoredEvent.objects.count()
    # A letter in a score: no reader of a .TOU takes it (a round merely out of its
    # columns is read, and noted, issue 31).
    bad = HARBOUR.replace(b" 2390  +5", b" 23x0  +5")
    response = post(director_client, harbour, "tou", file=upload("bad.TOU", bad))
    assert response.status_code == 400
    assert "line 5" in response.content.decode()
    assert StoredEvent.objects.count() == before


def test_a_ratings_list_updates_the_division_and_names_who_is_missing(
    director_client, harbour, director
):
    services.players_register(
        tournament_id=harbour,
        division="Open",
        entries=[("Ann Able", 0, ""), ("Zed Zane", 1400, "")],
        user=director,
    )
    response = post(
        director_client, harbour, "ratings", file=upload("list.csv", RATINGS)
    )
    assert response.status_code == 302
    ann = Player.objects.get(tournament_id=harbour, name="Ann Able")
    assert (ann.rating, ann.career_games) == (1720, 412)
    followed = director_client.get(response["Location"]).content.decode()
    assert "Ratings updated for 1 players; not on the list: Zed Zane." in followed


def test_a_ratings_list_after_a_result_is_refused(director_client, harbour):
    post(director_client, harbour, "tou", file=upload("harbour.TOU", HARBOUR))
    response = post(
        director_client, harbour, "ratings", file=upload("list.csv", RATINGS)
    )
    assert response.status_code == 400
    assert "only before its first result" in response.content.decode()


def test_a_pasted_list_takes_career_games(director_client, harbour):
    response = post(
        director_client,
        harbour,
        "register",
        players="Ann Able 1720 NA101 412\nBen Baker 1650 - 38\nCy Cole 1580",
    )
    assert response.status_code == 302
    found = {
        p.name: (p.member_id, p.career_games)
        for p in Player.objects.filter(tournament_id=harbour)
    }
    assert found == {
        "Ann Able": ("NA101", 412),
        "Ben Baker": ("", 38),
        "Cy Cole": ("", None),
    }
