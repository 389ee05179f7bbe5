"""A tournament's and each division's tile set and lexicon through the API, and
the games started for its boards (issue 20)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from rules.tournament import GameSetup
from tests.boards import board_of
from tests.refusals import refused as refusal
from tournaments.models import Tournament
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def create(api, **fields):
    return api.post(
        "/api/tournaments/",
        {
            "name": "Warsaw Open",
            "start_date": "2026-05-01",
            "rounds": 3,
            "divisions": ["A", "B"],
            **fields,
        },
        format="json",
    )


def events_of(tournament_id):
    return StoredEvent.objects.filter(stream_id=tournament_id).count()


@pytest.mark.django_db
def test_a_tournament_is_created_with_a_polish_tile_set(api):
    response = create(api, tile_set="polish", lexicon="OSPS49")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["tile_set"], body["lexicon"]) == ("polish", "OSPS49")
    division = api.get(f"/api/tournaments/{body['id']}/divisions/B").json()
    assert division == {
        "name": "B",
        "rounds": 3,
        "tile_set": "polish",
        "lexicon": "OSPS49",
        "own_tile_set": None,
        "own_lexicon": None,
    }


@pytest.mark.django_db
def test_a_tournament_plays_english_with_no_lexicon_by_default(api):
    body = create(api).json()
    assert (body["tile_set"], body["lexicon"]) == ("english", "")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"tile_set": "klingon"}, "tile_set"),
        ({"lexicon": "CSW 24"}, "lexicon"),
        ({"lexicon": "../words.txt"}, "lexicon"),
        ({"tile_set": "polish", "lexicon": "CSW24"}, "lexicon"),
    ],
)
def test_bad_values_at_creation_are_400_naming_the_field(api, fields, field):
    refusal(create(api, **fields), field=field)
    assert not Tournament.objects.exists()
    assert not StoredEvent.objects.exists()


@pytest.mark.django_db
def test_the_clash_is_explained(api):
    body = create(api, tile_set="polish", lexicon="CSW24").json()
    assert body["code"] == "tile_set_clash"
    assert (
        "CSW24 is played with the english tile set, not the polish set"
        in (body["message"])
    )


@pytest.mark.django_db
def test_the_settings_change_the_tile_set_and_lexicon(api):
    tid = create(api).json()["id"]
    response = api.patch(
        f"/api/tournaments/{tid}/",
        {"tile_set": "french", "lexicon": "FRA24"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = api.get(f"/api/tournaments/{tid}/").json()
    assert (body["tile_set"], body["lexicon"]) == ("french", "FRA24")
    before = events_of(tid)
    for patch, code, field in (
        ({"tile_set": "french"}, "nothing_to_change", "tile_set"),
        ({"lexicon": "NWL23"}, "tile_set_clash", "lexicon"),
        ({"lexicon": "a b"}, "invalid_lexicon", "lexicon"),
    ):
        refused = api.patch(f"/api/tournaments/{tid}/", patch, format="json")
        assert refused.status_code == 400, patch
        assert (refused.json()["code"], refused.json()["field"]) == (code, field)
    refused = api.patch(f"/api/tournaments/{tid}/", {"tile_set": "latin"}, "json")
    assert refusal(refused, field="tile_set")["code"] == "invalid_choice"
    assert events_of(tid) == before


@pytest.mark.django_db
def test_a_division_chooses_its_own_and_goes_back_to_the_tournaments(api):
    tid = create(api, lexicon="CSW24").json()["id"]
    division = f"/api/tournaments/{tid}/divisions/B"
    response = api.patch(
        division, {"tile_set": "polish", "lexicon": "OSPS49"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["events"] == ["game_setup_set"]
    assert api.get(division).json() == {
        "name": "B",
        "rounds": 3,
        "tile_set": "polish",
        "lexicon": "OSPS49",
        "own_tile_set": "polish",
        "own_lexicon": "OSPS49",
    }
    assert api.get(f"/api/tournaments/{tid}/divisions/A").json()["lexicon"] == "CSW24"
    # Only the lexicon back to the tournament's: CSW24 with Polish tiles clashes.
    refused = api.patch(division, {"lexicon": None}, format="json")
    assert refused.status_code == 400
    assert (refused.json()["code"], refused.json()["field"]) == (
        "tile_set_clash",
        "lexicon",
    )
    response = api.patch(division, {"tile_set": None, "lexicon": None}, "json")
    assert response.status_code == 201, response.json()
    assert api.get(division).json()["tile_set"] == "english"


@pytest.mark.django_db
def test_bad_division_values_are_400_and_store_nothing(api):
    tid = create(api).json()["id"]
    division = f"/api/tournaments/{tid}/divisions/B"
    before = events_of(tid)
    bad = [
        ({"tile_set": "klingon"}, "tile_set"),
        ({"lexicon": "two words"}, "lexicon"),
        ({"lexicon": "OSPS49"}, "lexicon"),
        ({}, None),  # about the whole input: no field
    ]
    for patch, field in bad:
        refusal(api.patch(division, patch, format="json"), field=field)
    unchanged = api.patch(division, {"tile_set": None}, format="json")
    assert unchanged.json()["code"] == "nothing_to_change"
    assert events_of(tid) == before
    assert api.get(f"/api/tournaments/{tid}/divisions/C").status_code == 404


@pytest.mark.django_db
def test_a_rename_and_a_tile_set_in_one_patch(api):
    tid = create(api).json()["id"]
    response = api.patch(
        f"/api/tournaments/{tid}/divisions/B",
        {"name": "Polska", "tile_set": "polish"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = api.get(f"/api/tournaments/{tid}/divisions/Polska").json()
    assert body["tile_set"] == "polish"


@pytest.fixture
def polish_board(director):
    """A tournament (CSW24) whose division B plays Polish with OSPS49: its
    round 1 board."""
    created = setup_services.tournament_create(
        user=director,
        name="Warsaw Open",
        start_date="2026-05-01",
        end_date="2026-05-01",
        rounds=3,
        lexicon="CSW24",
        divisions=["A", "B"],
    )
    tid = created.stream.id
    setup_services.game_setup_set(
        tournament_id=tid,
        division="B",
        setup=GameSetup(tile_set="polish", lexicon="OSPS49"),
        user=director,
    )
    players_services.players_register(
        tournament_id=tid,
        division="B",
        entries=[("Ala Nowak", 1500, ""), ("Jan Kos", 1400, "")],
        user=director,
    )
    pairing_services.round_pair(
        tournament_id=tid, division="B", round_=1, method="round_robin", user=director
    )
    board = board_of(tid, 1, 1, "B")
    return {
        "tournament_id": str(tid),
        "division": "B",
        "round": 1,
        "board": 1,
        "player_ids": [board.first.player_id, board.second.player_id],
    }


@pytest.mark.django_db
def test_a_game_started_for_a_polish_board_plays_polish(api, polish_board):
    response = api.post(
        "/api/games/",
        {"players": ["Ala", "Jan"], "racks": ["AEIŁÓWŻ", ""], **polish_board},
        format="json",
    )
    assert response.status_code == 201, response.json()
    state = response.json()["state"]
    assert (state["tile_set"], state["lexicon"]) == ("polish", "OSPS49")
    assert sorted(state["racks"][0]["known"]) == sorted("AEIŁÓWŻ")
    # 100 Polish tiles less the rack recorded (the other is drawn at its turn).
    assert state["bag_count"] == 93
    gid, version = response.json()["id"], response.json()["version"]
    placed = api.post(
        f"/api/games/{gid}/place",
        {"position": "8G", "word": "ŻÓŁW", "expected_version": version},
        format="json",
    )
    assert placed.status_code == 201, placed.json()
    # Polish values: (5 + 5 + 3 + 1) x 2 on the centre.
    assert placed.json()["state"]["scores"] == [28, 0]
    bad = api.post(
        f"/api/games/{gid}/place",
        {"position": "9G", "word": "ÑO", "expected_version": placed.json()["version"]},
        format="json",
    )
    assert bad.status_code == 400


@pytest.mark.django_db
def test_a_board_game_naming_another_tile_set_or_lexicon_is_refused(api, polish_board):
    for extra, field in (
        ({"tile_set": "english"}, "tile_set"),
        ({"lexicon": "CSW24"}, "lexicon"),
    ):
        response = api.post(
            "/api/games/", {"players": ["Ala", "Jan"], **polish_board, **extra}, "json"
        )
        assert response.status_code == 400
        assert response.json()["field"] == field
        assert "division B is played with" in response.json()["message"]


def upload(api, text, context):
    return api.post(
        "/api/games/import",
        {
            "file": SimpleUploadedFile("game.gcg", text.encode("utf-8")),
            **{key: value for key, value in context.items() if key != "player_ids"},
        },
        format="multipart",
    )


@pytest.mark.django_db
def test_a_gcg_imported_into_the_polish_division_reads_as_polish(api, polish_board):
    """No pragma: read with the division's tiles and lexicon (DOM scores 10 in
    Polish, 12 in English)."""
    text = "#player1 ala Ala Nowak\n#player2 jan Jan Kos\n>ala: DMOAEIK 8G DOM +10 10\n"
    response = upload(api, text, polish_board)
    assert response.status_code == 201, response.json()
    assert response.json()["discrepancies"] == []
    state = api.get(f"/api/games/{response.json()['id']}/state").json()
    assert (state["tile_set"], state["lexicon"]) == ("polish", "OSPS49")


@pytest.mark.django_db
def test_a_gcg_of_another_tile_set_is_refused_with_its_line(api, polish_board):
    text = (
        "#player1 ala Ala Nowak\n#player2 jan Jan Kos\n#lexicon CSW21\n"
        ">ala: DMOAEIK 8G DOM +12 12\n"
    )
    response = upload(api, text, polish_board)
    assert response.status_code == 400
    problems = response.json()["problems"]
    assert problems[0][:2] == [3, "tile_set_mismatch"]
    assert "#lexicon CSW21 names the english tile set" in problems[0][2]
    assert not StoredEvent.objects.filter(stream_type="game").exists()
