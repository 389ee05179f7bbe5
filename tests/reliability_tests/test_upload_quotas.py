"""Issue 30, item 6: uploads have quotas.

One player added about 6,000 permanent events a second through private GCG
uploads, and the notes inside an upload were not counted. Now a user's UTC day
holds at most UPLOADS_PER_DAY files and UPLOAD_EVENTS_PER_DAY events from
uploads, and NOTES_PER_DAY notes typed or inside uploads (a 429 with Retry-After
beyond, nothing stored); a game holds at most 500 notes (a 1,000-note upload is a
400 naming the reason); staff and a tournament's directors uploading its games
have UPLOAD_QUOTA_RAISED_FACTOR times the day's limits.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from games import services as game_services
from games.eventstore.models import StoredEvent
from games.models import GameProjection
from rules.events import MAX_NOTES_PER_GAME


@pytest.fixture
def game_text(shared_gcg_dir):
    """A real game with `notes` notes on its first move."""
    text = (shared_gcg_dir / "doug_v_emely.gcg").read_text(encoding="latin-1")
    first_move = text.split("\n", 3)  # two #player lines, the first move, the rest

    def make(notes: int = 0) -> bytes:
        annotated = [*first_move[:3], *(f"#note n{i}" for i in range(notes))]
        return "\n".join([*annotated, first_move[3]]).encode("latin-1")

    return make


def upload(client, content: bytes, **data):
    return client.post(
        "/api/games/import",
        {"file": SimpleUploadedFile("game.gcg", content), **data},
        format="multipart",
    )


@pytest.fixture
def api(other_user):
    client = APIClient()
    client.force_authenticate(other_user)
    return client


def turn_version(game_id) -> int:
    _, aggregate = game_services.game_load(game_id)
    return aggregate.state.turns[0].version


def stored() -> tuple[int, int]:
    return GameProjection.objects.count(), StoredEvent.objects.count()


@pytest.mark.django_db
def test_an_upload_of_1000_notes_is_refused_naming_the_reason(api, game_text):
    before = stored()
    response = upload(api, game_text(1000))
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "too_many_notes", body
    assert f"{MAX_NOTES_PER_GAME:,} notes" in body["message"], body
    assert stored() == before
    # A game of a note on every turn, and more, is far below the cap.
    assert upload(api, game_text(60)).status_code == 201


@pytest.mark.django_db
def test_a_typed_note_past_the_cap_is_refused(director, game_text, settings):
    settings.NOTES_PER_MINUTE = 0
    result, _ = game_services.game_import_gcg(
        text=game_text(MAX_NOTES_PER_GAME), user=director
    )
    client = Client()
    client.force_login(director)
    response = client.post(
        f"/api/games/{result.stream.id}/notes",
        {
            "target_version": turn_version(result.stream.id),
            "text": "one more",
            "expected_version": result.version,
        },
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "too_many_notes"


@pytest.mark.django_db
def test_files_per_day_are_counted_and_the_next_is_a_429(api, game_text, settings):
    settings.UPLOADS_PER_DAY = 3
    for _ in range(3):
        assert upload(api, game_text()).status_code == 201
    before = stored()
    response = upload(api, game_text())
    assert response.status_code == 429, response.content
    assert response.json()["code"] == "upload_quota"
    assert "3 GCG files a day" in response.json()["message"]
    assert 1 <= int(response["Retry-After"]) <= 86_400
    assert stored() == before


@pytest.mark.django_db
def test_events_per_day_are_counted(api, game_text, settings):
    settings.UPLOAD_EVENTS_PER_DAY = 120  # a real game is about 55 events
    assert upload(api, game_text()).status_code == 201
    assert upload(api, game_text()).status_code == 201
    response = upload(api, game_text())
    assert response.status_code == 429
    assert "events from uploads a day" in response.json()["message"]


@pytest.mark.django_db
def test_notes_inside_an_upload_count_with_typed_notes(
    api, other_user, game_text, settings
):
    settings.NOTES_PER_DAY = 10
    settings.NOTES_PER_MINUTE = 0
    first = upload(api, game_text(8))
    assert first.status_code == 201
    game_id, version = first.json()["id"], first.json()["version"]
    # A refused file counts nothing, so the day still has 2 notes.
    assert upload(api, game_text(5)).status_code == 429
    note = {"target_version": turn_version(game_id), "text": "typed"}
    for typed in range(3):
        response = api.post(
            f"/api/games/{game_id}/notes",
            {**note, "expected_version": version + typed},
            format="json",
        )
        if typed < 2:
            assert response.status_code == 201, response.content
    refused = response
    assert refused.status_code == 429
    assert refused.json()["code"] == "upload_quota"
    assert StoredEvent.objects.filter(stream_id=game_id).count() == version + 2


@pytest.mark.django_db
def test_a_director_uploading_a_tournament_s_games_has_raised_limits(
    director, paired, game_text, settings
):
    settings.UPLOADS_PER_DAY = 1
    settings.UPLOAD_QUOTA_RAISED_FACTOR = 3
    tournament_id, _ = paired
    client = APIClient()
    client.force_authenticate(director)
    for board in (1, 2, 3):
        response = upload(
            client,
            game_text(),
            tournament_id=str(tournament_id),
            division="A",
            round=1,
            board=board,
        )
        assert response.status_code == 201, response.content
    fourth = upload(
        client, game_text(), tournament_id=str(tournament_id), division="A", round=1,
        board=4,
    )  # fmt: skip
    assert fourth.status_code == 429


@pytest.mark.django_db
def test_the_upload_page_says_the_day_is_spent(other_user, game_text, settings):
    settings.UPLOADS_PER_DAY = 1
    client = Client()
    client.force_login(other_user)
    page = "/games/upload/"
    form = {"rules": "", "visibility": "private"}
    first = client.post(
        page, {**form, "file": SimpleUploadedFile("a.gcg", game_text())}
    )
    assert first.status_code == 302
    second = client.post(
        page, {**form, "file": SimpleUploadedFile("b.gcg", game_text())}
    )
    assert second.status_code == 429
    assert "1 GCG files a day" in second.context["form"].errors["file"][0]
    assert second["Retry-After"]
