"""The console's tile set and lexicon (creation, the settings, a division's own)
and a Polish division's game on the viewer (issue 20)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games import services as game_services
from games.eventstore.models import StoredEvent
from rules import state as rs
from tests.boards import board_of
from tests.web_tests.test_console import CREATE
from tournaments.core import aggregate as core_aggregate
from tournaments.models import Tournament
from tournaments.pairing import services

pytestmark = pytest.mark.django_db


def events() -> int:
    return StoredEvent.objects.count()


def test_a_tournament_is_created_with_its_tile_set_and_lexicon(director_client):
    page = director_client.get(reverse("tournament-create")).content.decode()
    assert '<option value="polish">Polish</option>' in page
    response = director_client.post(
        reverse("tournament-create"),
        {**CREATE, "tile_set": "polish", "lexicon": "OSPS49"},
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.tile_set, tournament.lexicon) == ("polish", "OSPS49")


def test_a_clash_at_creation_is_shown_by_the_lexicon(director_client):
    response = director_client.post(
        reverse("tournament-create"),
        {**CREATE, "tile_set": "polish", "lexicon": "NWL23"},
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert (
        "played with the english tile set, not the polish set" in (errors["lexicon"][0])
    )
    assert not Tournament.objects.exists()


def test_the_settings_form_changes_only_what_was_edited(director_client, club):
    manage = reverse("manage", args=[club])
    page = director_client.get(manage).content.decode()
    assert "games with the english tile set and no lexicon named" in page
    # A browser sends the tile set and lexicon shown: unchanged, not changed.
    shown = {"action": "settings", "tile_set": "english", "lexicon": ""}
    response = director_client.post(manage, {**shown, "bye_spread": "60"})
    assert response.status_code == 302
    stored = StoredEvent.objects.filter(stream_id=club).order_by("-version").first()
    assert stored.event_type == "settings_changed"
    assert stored.payload["tile_set"] is None
    assert stored.payload["lexicon"] is None
    response = director_client.post(
        manage, {**shown, "tile_set": "french", "lexicon": "FRA24"}
    )
    assert response.status_code == 302
    assert Tournament.objects.get().tile_set == "french"
    before = events()
    refused = director_client.post(
        manage, {"action": "settings", "tile_set": "french", "lexicon": "CSW24"}
    )
    assert refused.status_code == 400
    assert (
        "CSW24 is played with the english tile set"
        in (refused.context["forms"]["settings"].errors["lexicon"][0])
    )
    assert events() == before


def test_a_divisions_page_chooses_its_own_tile_set_and_lexicon(director_client, club):
    url = reverse("manage-division-setup", args=[club, "A"])
    page = director_client.get(url).content.decode()
    assert "As the tournament (english)" in page
    response = director_client.post(url, {"tile_set": "polish", "lexicon": "OSPS49"})
    assert response.status_code == 302
    _, state = core_aggregate.tournament_state(club)
    assert state.rules.game_setup("A").tile_set == "polish"
    assert "the <strong>polish</strong> tile set" in (
        director_client.get(url).content.decode()
    )
    before = events()
    again = director_client.post(url, {"tile_set": "polish", "lexicon": "OSPS49"})
    assert again.status_code == 400
    assert "already played with the polish tile set" in again.content.decode()
    clash = director_client.post(url, {"tile_set": "", "lexicon": "OSPS49"})
    assert clash.status_code == 400
    assert clash.context["form"].errors["tile_set"]
    assert events() == before
    response = director_client.post(url, {"tile_set": "polish", "no_lexicon": "on"})
    assert response.status_code == 302
    _, state = core_aggregate.tournament_state(club)
    assert state.rules.game_setup("A").lexicon == ""


POLISH_GAME = (
    "#character-encoding UTF-8\n"
    "#player1 ala Ala\n"
    "#player2 jan Jan\n"
    ">ala: AEIŁÓWŻ 8G ŻÓŁW +28 28\n"
    ">jan: ADEIKMO - +0 0\n"
)


@pytest.fixture
def polish_game(director_client, director, club):
    """Division A plays Polish; round 1 board 1's game uploaded on the console."""
    director_client.post(
        reverse("manage-division-setup", args=[club, "A"]),
        {"tile_set": "polish", "lexicon": "OSPS49"},
    )
    services.round_pair(
        tournament_id=club, division="A", round_=1, method="round_robin",
        user=director,
    )  # fmt: skip
    board = board_of(club, 1, 1)
    response = director_client.post(
        reverse("manage-board-gcg", args=[club, "A", 1, board.board]),
        {
            "file": SimpleUploadedFile("game.gcg", POLISH_GAME.encode("utf-8")),
            "first_in_file": "first",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    return (
        StoredEvent.objects.filter(stream_type="game")
        .order_by("-position")
        .values_list("stream_id", flat=True)
        .first()
    )


def test_a_polish_divisions_game_replays_as_polish(polish_game):
    _, aggregate = game_services.game_load(polish_game)
    state = aggregate.state
    assert state.tile_set.name == "polish"
    assert state.lexicon == "OSPS49"
    # ŻÓŁW on the centre, as Polish tiles score it: (5 + 5 + 3 + 1) x 2.
    assert state.scores == (28, 0)
    assert rs.replay(list(aggregate.events)).scores == state.scores


def test_the_viewer_shows_the_polish_board_and_unseen_tiles(client, polish_game):
    body = client.get(reverse("game-turn", args=[polish_game, 1])).content.decode()
    assert "Ż<sub>5</sub>" in body
    # Unseen by Jan after Ala's turn: Polish tiles, each kind once with its value
    # and count (Ź, worth 9, is not on the board; one Ż was played, none is left).
    assert '<span class="pool">Ź<sub>9</sub></span>' in body
    assert '<span class="pool">A<sub>1</sub>×' in body
    assert '<span class="pool">Ż<sub>' not in body
