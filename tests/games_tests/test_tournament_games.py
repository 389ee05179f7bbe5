"""A game started for a tournament, by the API or by a page, plays under the
tournament's rules, for a pairing the tournament really has."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import resolve, reverse
from rest_framework.test import APIClient

from games import services as game_services
from games.eventstore.models import StoredEvent
from tests.refusals import refused


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("mara", password="pw-mara-123")


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def void_open(api):
    """A tournament created through the API with challenges void; round 1 of
    division A paired by hand: board 1 Ann v Ben, board 2 Cy v Di."""
    created = api.post(
        "/api/tournaments/",
        {
            "name": "Void Open",
            "start_date": "2026-11-21",
            "rounds": 3,
            "challenge_rule": "void",
            "divisions": ["A"],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    tid = created.json()["id"]
    names = ["Ann", "Ben", "Cy", "Di"]
    response = api.post(
        f"/api/tournaments/{tid}/players/",
        {"division": "A", "players": [{"name": name} for name in names]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    players = api.get(f"/api/tournaments/{tid}/players/?division=A").json()
    ids = {player["name"]: player["id"] for player in players}
    response = api.post(
        f"/api/tournaments/{tid}/rounds/1/pair",
        {
            "division": "A",
            "method": "manual",
            "games": [
                {"board": 1, "first": ids["Ann"], "second": ids["Ben"]},
                {"board": 2, "first": ids["Cy"], "second": ids["Di"]},
            ],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return tid, ids


DROP = object()  # a field left out


def board_game(void_open, **changes):
    tid, ids = void_open
    body = {
        "players": ["Ann", "Ben"],
        "tournament_id": tid,
        "division": "A",
        "round": 1,
        "board": 1,
        "player_ids": [ids["Ann"], ids["Ben"]],
    }
    body.update(changes)
    return {key: value for key, value in body.items() if value is not DROP}


def challenge_rule(api, game_id) -> str:
    events = api.get(f"/api/games/{game_id}/events").json()
    rows = events["results"] if isinstance(events, dict) else events
    assert rows[0]["type"] == "game_started"
    return rows[0]["payload"]["ruleset"]["challenge"]


@pytest.mark.django_db
def test_a_game_started_by_the_api_for_a_board_plays_under_the_tournaments_rules(
    api, void_open
):
    response = api.post("/api/games/", board_game(void_open), format="json")
    assert response.status_code == 201, response.json()
    assert challenge_rule(api, response.json()["id"]) == "void"
    # Naming the tournament's own preset changes nothing.
    response = api.post(
        "/api/games/", board_game(void_open, ruleset="classic"), format="json"
    )
    assert response.status_code == 201, response.json()
    assert challenge_rule(api, response.json()["id"]) == "void"


@pytest.mark.django_db
def test_a_casual_game_still_plays_under_the_preset_it_names(api):
    response = api.post("/api/games/", {"players": ["Ann", "Ben"]}, format="json")
    assert challenge_rule(api, response.json()["id"]) == "double"  # classic
    response = api.post(
        "/api/games/", {"players": ["Ann", "Ben"], "ruleset": "wespa"}, format="json"
    )
    assert challenge_rule(api, response.json()["id"]) == "five_point"


@pytest.mark.django_db
def test_a_gcg_uploaded_for_a_board_plays_under_the_tournaments_rules(api, void_open):
    tid, _ = void_open
    upload = SimpleUploadedFile(
        "board1.gcg", b"#player1 Ann Ann\n#player2 Ben Ben\n", "text/plain"
    )
    response = api.post(
        "/api/games/import",
        {"file": upload, "tournament_id": tid, "division": "A", "round": 1, "board": 1},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    assert challenge_rule(api, response.json()["id"]) == "void"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"division": "Z"}, "division"),
        ({"round": 2}, "round"),
        ({"board": 9}, "board"),
        ({"board": 2}, "player_ids"),
        ({"player_ids": ["nobody", "nobody-else"]}, "player_ids"),
        ({"division": DROP}, "division"),
        ({"ruleset": "wespa"}, "ruleset"),
    ],
)
@pytest.mark.django_db
def test_a_game_for_no_real_pairing_is_a_400_naming_the_field(
    api, void_open, changes, field
):
    """Nothing is stored: the pairing and the rules are checked before the start."""
    before = StoredEvent.objects.count()
    response = api.post("/api/games/", board_game(void_open, **changes), format="json")
    refused(response, field=field)
    assert StoredEvent.objects.count() == before


@pytest.mark.django_db
def test_the_page_path_records_a_board_under_the_tournaments_rules(
    client, director, void_open
):
    """The director console's "record this board" starts the same kind of game."""
    tid, ids = void_open
    client.force_login(director)
    response = client.post(reverse("manage-board-record", args=[tid, "A", 1, 1]))
    assert response.status_code == 302
    game_id = resolve(response["Location"]).kwargs["game_id"]
    _, aggregate = game_services.game_load(game_id)
    assert aggregate.state.ruleset.challenge.value == "void"
    assert aggregate.context["player_ids"] == [ids["Ann"], ids["Ben"]]
