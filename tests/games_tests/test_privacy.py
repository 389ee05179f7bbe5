"""Who may read a game, through the API: a casual game is its owner's until they
publish it or share its secret link; a private tournament's games stay private."""

from __future__ import annotations

import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games import services
from games.eventstore.models import StoredEvent
from tests.games_tests.conftest import club_tournament
from tests.refusals import refused
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db

READS = ("", "events", "state", "gcg", "turns/1/analysis")


def client_of(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def upload(client, shared_gcg_dir, **extra):
    text = (shared_gcg_dir / "doug_v_emely.gcg").read_bytes()
    response = client.post(
        "/api/games/import",
        {"file": SimpleUploadedFile("g.gcg", text), **extra},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def readable(client, game_id, query="") -> set[str]:
    """Which of the game's reads answer (not 404) for this client."""
    found = set()
    for read in READS:
        response = client.get(f"/api/games/{game_id}/{read}{query}")
        if response.status_code != 404:
            found.add(read)
    return found


def listed(client) -> set[str]:
    return {game["id"] for game in client.get("/api/games/").json()["results"]}


def test_an_upload_is_private_to_its_owner(recorder, stranger, shared_gcg_dir):
    game_id = upload(client_of(recorder), shared_gcg_dir)
    assert readable(client_of(recorder), game_id) == set(READS)
    assert readable(client_of(stranger), game_id) == set()
    assert readable(client_of(), game_id) == set()
    assert game_id in listed(client_of(recorder))
    assert game_id not in listed(client_of(stranger))
    assert game_id not in listed(client_of())


def test_the_owner_publishes_it(recorder, stranger, shared_gcg_dir):
    owner = client_of(recorder)
    game_id = upload(owner, shared_gcg_dir)
    version = StoredEvent.objects.filter(stream_id=game_id).count()
    response = owner.post(
        f"/api/games/{game_id}/visibility",
        {"visibility": "public", "expected_version": version},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json() == {"visibility": "public", "share_url": None}
    assert readable(client_of(), game_id) == set(READS)
    assert game_id in listed(client_of(stranger))
    assert client_of().get(f"/api/games/{game_id}/").json()["visibility"] == "public"


def test_an_upload_may_be_public_at_once(recorder, shared_gcg_dir):
    game_id = upload(client_of(recorder), shared_gcg_dir, visibility="public")
    assert game_id in listed(client_of())


def test_a_secret_link_lets_its_holder_read_until_the_owner_stops_sharing(
    recorder, stranger, shared_gcg_dir
):
    owner = client_of(recorder)
    game_id = upload(owner, shared_gcg_dir)
    stream_id = uuid.UUID(game_id)
    services.game_set_visibility(game_id=stream_id, visibility="link", user=recorder)
    share_url = owner.get(f"/api/games/{game_id}/visibility").json()["share_url"]
    token = share_url.rstrip("/").rsplit("/", 1)[1]
    assert share_url.endswith(f"/games/{game_id}/shared/{token}/")
    assert readable(client_of(), game_id, f"?share={token}") == set(READS)
    assert readable(client_of(), game_id, "?share=not-the-secret") == set()
    # Shared, not listed: a link is for whoever was given it.
    assert game_id not in listed(client_of(stranger))
    # Private again: the old link stops working; sharing again makes a new one.
    services.game_set_visibility(game_id=stream_id, visibility="private", user=recorder)
    assert readable(client_of(), game_id, f"?share={token}") == set()
    services.game_set_visibility(game_id=stream_id, visibility="link", user=recorder)
    new_url = owner.get(f"/api/games/{game_id}/visibility").json()["share_url"]
    assert new_url != share_url
    assert readable(client_of(), game_id, f"?share={token}") == set()


def test_only_the_owner_changes_or_sees_who_may_read(
    recorder, stranger, shared_gcg_dir
):
    game_id = upload(client_of(recorder), shared_gcg_dir, visibility="public")
    other = client_of(stranger)
    before = StoredEvent.objects.filter(stream_id=game_id).count()
    response = other.post(
        f"/api/games/{game_id}/visibility",
        {"visibility": "private", "expected_version": before},
        format="json",
    )
    assert response.status_code == 403
    assert other.get(f"/api/games/{game_id}/visibility").status_code == 403
    assert StoredEvent.objects.filter(stream_id=game_id).count() == before


def test_a_bad_visibility_is_a_400_naming_the_field(recorder, shared_gcg_dir):
    owner = client_of(recorder)
    game_id = upload(owner, shared_gcg_dir)
    response = owner.post(
        f"/api/games/{game_id}/visibility",
        {"visibility": "friends", "expected_version": 1},
        format="json",
    )
    refused(response, field="visibility", code="invalid_choice")


@pytest.fixture
def private_tournament_game(recorder):
    """An unpublished tournament of Rita's with a game recorded for it."""
    tid, players = club_tournament(recorder, ["Ann Able", "Ben Baker"], published=False)
    started = services.game_start(
        user=recorder,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "ADEEGIL"],
        context={"tournament_id": tid, "division": "A", "player_ids": players},
    )
    services.game_place(
        game_id=started.stream.id, position="8D", word="WINDY", user=recorder
    )
    return tid, str(started.stream.id)


def test_a_private_tournaments_games_stay_private(
    private_tournament_game, recorder, stranger
):
    tid, game_id = private_tournament_game
    reads = set(READS) - {"turns/1/analysis"}  # no word list: a 400, not a 404
    assert readable(client_of(recorder), game_id) >= reads
    assert readable(client_of(stranger), game_id) == set()
    assert readable(client_of(), game_id) == set()
    assert game_id not in listed(client_of(stranger))
    # Its director may not open it by a secret link either: the tournament decides.
    response = client_of(recorder).post(
        f"/api/games/{game_id}/visibility",
        {"visibility": "public", "expected_version": 5},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "tournament_game"
    setup_services.tournament_publish(tournament_id=tid, published=True, user=recorder)
    assert game_id in listed(client_of(stranger))
