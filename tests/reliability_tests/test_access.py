"""Access: who may write what, API tokens, CSRF on forms (the sign-in throttle:
test_sign_in_throttle.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games import services as game_services
from games.eventstore.models import StoredEvent
from tests.reliability_tests.conftest import make_tournament, start_game
from tournaments.core import aggregate
from tournaments.players import accounts

# Sign-in itself is open to anyone; so is an invitation's acceptance, where the
# invitation's secret is the right (a signed-out invitee creates their account
# there): without a valid one it is a 400 and stores nothing (below).
# Posts open to signed-out users by design: signing in, accepting an invitation,
# and a ratings officer's check of a file (issue 34; it stores nothing: asserted
# below by the unchanged event count).
OPEN_POSTS = {"/api/auth/token", "/api/invitations/accept", "/api/verify"}


def post_paths(method: str = "post") -> list[str]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        path
        for path, methods in schema["paths"].items()
        if method in methods and path not in OPEN_POSTS
    )


def fill(path: str, ids: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: ids[m.group(1)], path)


def event_count() -> int:
    return StoredEvent.objects.count()


@pytest.fixture
def two_tournaments(director, other_user):
    """Tournament A directed by `director`, tournament B (published) by `other_user`,
    each with a game recorded for it."""
    a, a_players = make_tournament(director, name="A Open")
    b, b_players = make_tournament(other_user, name="B Open")
    game_a, _ = start_game(
        director, context={"tournament_id": a, "player_ids": a_players[:2]}
    )
    game_b, _ = start_game(
        other_user, context={"tournament_id": b, "player_ids": b_players[:2]}
    )
    return {
        "a": {
            "tournament_id": str(a),
            "game_id": str(game_a),
            "player_id": a_players[0],
        },
        "b": {
            "tournament_id": str(b),
            "game_id": str(game_b),
            "player_id": b_players[0],
        },
    }


BODY = {
    "expected_version": 1,
    "round": 1,
    "player_a": "x",
    "player_b": "y",
    "score_a": 1,
    "score_b": 2,
    "division": "A",
    "method": "swiss",
    "from_round": 1,
    "text": "hello",
    "target_version": 3,
    "visibility": "public",
}


@pytest.mark.django_db
def test_anonymous_users_cannot_write_anywhere(two_tournaments):
    ids = {
        **two_tournaments["a"],
        "round_": "1",
        "note_version": "3",
        "division": "A",
        "invitation_id": "x",
    }
    client = APIClient()
    before = event_count()
    paths = post_paths()
    for path in paths:
        response = client.post(fill(path, ids), BODY, format="json")
        assert response.status_code in {401, 403}, (path, response.status_code)
    invited = {
        "tournament": ids["tournament_id"],
        "token": "x.y",
        "username": "mallory",
        "password": "tiles-on-rack-42",
    }
    response = client.post("/api/invitations/accept", invited, format="json")
    assert response.json()["code"] == "invalid_invitation"
    assert event_count() == before
    print(f"\nFIGURES anonymous: {len(paths)} write endpoints refused")


@pytest.mark.django_db
def test_a_director_of_one_tournament_cannot_write_to_another(
    two_tournaments, director
):
    """Every tournament and game command of tournament B, sent by A's director with
    a body that would otherwise be accepted or refused on its merits: 403, and
    nothing stored."""
    ids = {
        **two_tournaments["b"],
        "round_": "1",
        "note_version": "3",
        "division": "A",
        "invitation_id": "x",
    }
    client = APIClient()
    client.force_authenticate(director)
    before = event_count()
    scoped = [p for p in post_paths() if "{tournament_id}" in p or "{game_id}" in p]
    assert len(scoped) >= 15
    for path in scoped:
        response = client.post(fill(path, ids), BODY, format="json")
        # A body the endpoint cannot parse is a 400 before rights are checked;
        # every body it can parse must be refused for rights.
        assert response.status_code in {400, 403}, (path, response.status_code)
    # Corrections too: every PATCH of B (a player, a division, its pairing rules,
    # the settings) with a body that parses is refused for rights.
    patches = post_paths("patch")
    assert len(patches) >= 4
    for path in patches:
        response = client.patch(fill(path, ids), {"name": "X"}, format="json")
        assert response.status_code in {400, 403}, (path, response.status_code)
        response = client.patch(fill(path, ids), {}, format="json")
        assert response.status_code in {400, 403}, (path, response.status_code)
    assert event_count() == before
    # The result a director of A would enter is refused for B with a 403.
    _, state = aggregate.tournament_state(ids["tournament_id"])
    first, second = sorted(
        state.rules.players, key=lambda p: state.rules.players[p].number
    )[:2]
    response = client.post(
        f"/api/tournaments/{ids['tournament_id']}/results",
        {"round": 1, "player_a": first, "player_b": second, "score_a": 400,
         "score_b": 300},
        format="json",
    )  # fmt: skip
    assert response.status_code == 403
    response = client.post(
        f"/api/games/{ids['game_id']}/pass", {"expected_version": 3}, format="json"
    )
    assert response.status_code == 403
    assert event_count() == before


@pytest.mark.django_db
def test_a_player_may_annotate_only_their_own_games(director, django_user_model):
    tournament_id, players = make_tournament(director)
    ann = django_user_model.objects.create_user("ann", password="pw-ann-12345")
    accounts.player_link_account(
        tournament_id=tournament_id, player_id=players[0], account=ann, user=director
    )
    own, own_turn = start_game(
        director, context={"tournament_id": tournament_id, "player_ids": players[:2]}
    )
    other, other_turn = start_game(
        director, context={"tournament_id": tournament_id, "player_ids": players[2:4]}
    )
    client = APIClient()
    client.force_authenticate(ann)
    version, _ = game_services.game_load(own)
    note = {
        "target_version": own_turn,
        "text": "I missed QI",
        "expected_version": version,
    }
    assert (
        client.post(f"/api/games/{own}/notes", note, format="json").status_code == 201
    )
    before = event_count()
    version, _ = game_services.game_load(other)
    refused = client.post(
        f"/api/games/{other}/notes",
        {"target_version": other_turn, "text": "x", "expected_version": version},
        format="json",
    )
    assert refused.status_code == 403
    # Annotating is all a player may do, even in their own game.
    version, _ = game_services.game_load(own)
    passed = client.post(
        f"/api/games/{own}/pass", {"expected_version": version}, format="json"
    )
    assert passed.status_code == 403
    assert event_count() == before


# --- tokens and sign-in --------------------------------------------------------------


@pytest.mark.django_db
def test_an_api_client_gets_a_token_and_writes_with_it(director):
    client = APIClient()
    response = client.post(
        "/api/auth/token",
        {"username": "mara", "password": "pw-mara-123"},
        format="json",
    )
    assert response.status_code == 200
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post(
        "/api/tournaments/",
        {"name": "Token Open", "start_date": "2026-12-01", "rounds": 3},
        format="json",
    )
    assert created.status_code == 201, created.json()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused = client.post(
        "/api/tournaments/",
        {"name": "Token Open", "start_date": "2026-12-01", "rounds": 3},
        format="json",
    )
    assert refused.status_code in {401, 403}
    assert "Invalid token" in refused.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_forms_refuse_a_post_without_a_csrf_token(director, url):
    client = Client(enforce_csrf_checks=True)
    refused = client.post(url, {"username": "mara", "password": "pw-mara-123"})
    assert refused.status_code == 403
    assert "_auth_user_id" not in client.session
    # With the token of the page's own form the same post goes through.
    page = client.get(url)
    token = page.cookies["csrftoken"].value
    accepted = client.post(
        url,
        {"username": "mara", "password": "pw-mara-123", "csrfmiddlewaretoken": token},
    )
    assert accepted.status_code in {200, 302}
    if url == "/accounts/login/":
        assert accepted.status_code == 302
