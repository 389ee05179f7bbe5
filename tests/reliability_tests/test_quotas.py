"""Who may create tournaments, and how many notes a user may add (issue 21, item 7).

Creating a tournament is a site setting (TOURNAMENT_CREATORS: staff accounts by
default, any signed-in user with ``users``), read in one place and enforced by the
service, so the API and the page answer 403 alike. Notes are limited per user per
minute (NOTES_PER_MINUTE), counted from the event log that every worker shares;
past it, a 429 with Retry-After and nothing stored.
"""

from __future__ import annotations

import datetime
import subprocess

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from games import quotas
from games.eventstore.models import StoredEvent
from games.eventstore.store import append
from rules import events as ev
from tests.reliability_tests.conftest import (
    PROJECT_DIR,
    manage,
    start_game,
    subprocess_env,
)

pytestmark = pytest.mark.django_db

BODY = {"name": "Open", "start_date": "2026-11-21", "rounds": 5}


@pytest.fixture
def staff_only(settings):
    settings.TOURNAMENT_CREATORS = "staff"


def upload(name: str, text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/plain")


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_by_default_only_staff_create_tournaments(staff_only, client, director):
    before = StoredEvent.objects.count()
    response = api_for(director).post("/api/tournaments/", BODY, format="json")
    assert response.status_code == 403
    assert "only staff accounts may create tournaments" in response.json()["detail"]
    client.force_login(director)
    for way_in in ("tournament-create", "tournament-import-tsh"):
        assert client.get(reverse(way_in)).status_code == 403
        assert client.post(reverse(way_in), {}).status_code == 403
    response = api_for(director).post(
        "/api/tournaments/import/tsh",
        {
            "name": "Open",
            "start_date": "2026-11-21",
            "config": upload("config.tsh", "division a a.t\n"),
            "files": [upload("a.t", "Able, Ann 1500 2; 400\nBaker, Ben 1400 1; 350\n")],
        },
        format="multipart",
    )
    assert response.status_code == 403
    response = api_for(director).post(
        "/api/tournaments/import/tourney-js",
        {"file": upload("tourney.js", 'newt={"divisions":[]};')},
        format="multipart",
    )
    assert response.status_code == 403
    assert (
        "New tournament" not in client.get(reverse("tournament-list")).content.decode()
    )
    assert StoredEvent.objects.count() == before

    director.is_staff = True
    director.save()
    assert (
        api_for(director).post("/api/tournaments/", BODY, format="json").status_code
        == 201
    )
    assert client.get(reverse("tournament-create")).status_code == 200
    assert "New tournament" in client.get(reverse("tournament-list")).content.decode()


def test_the_setting_lets_any_signed_in_user_create(settings, client, director):
    settings.TOURNAMENT_CREATORS = "users"
    assert (
        api_for(director).post("/api/tournaments/", BODY, format="json").status_code
        == 201
    )
    client.force_login(director)
    assert client.get(reverse("tournament-create")).status_code == 200


@pytest.mark.parametrize(
    ("value", "expected"), [(None, "staff"), ("users", "users"), ("anyone", None)]
)
def test_the_setting_is_read_from_the_environment(value, expected):
    env = subprocess_env()
    env.pop("TOURNAMENT_CREATORS", None)
    if value is not None:
        env["TOURNAMENT_CREATORS"] = value
    done = subprocess.run(
        manage(
            "shell",
            "-c",
            "from django.conf import settings; print(settings.TOURNAMENT_CREATORS)",
        ),
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if expected is None:
        assert done.returncode != 0
        assert "TOURNAMENT_CREATORS='anyone' is not one of staff, users" in done.stderr
    else:
        assert done.stdout.strip().splitlines()[-1] == expected


# --- notes -------------------------------------------------------------------------


def note_body(version: int, n: int) -> dict:
    return {"expected_version": version + n, "target_version": version, "text": f"n{n}"}


def test_notes_past_the_quota_are_a_429_with_retry_after(
    settings, director, other_user
):
    settings.NOTES_PER_MINUTE = 3
    game_id, version = start_game(director)
    api = api_for(director)
    for n in range(3):
        response = api.post(
            f"/api/games/{game_id}/notes", note_body(version, n), format="json"
        )
        assert response.status_code == 201, response.content
    before = StoredEvent.objects.filter(stream_id=game_id).count()

    response = api.post(
        f"/api/games/{game_id}/notes", note_body(version, 3), format="json"
    )

    assert response.status_code == 429
    assert response.json()["code"] == "note_quota"
    assert response.json()["message"].startswith("You may add 3 notes a minute")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert StoredEvent.objects.filter(stream_id=game_id).count() == before


def test_the_page_answers_429_too(settings, client, director):
    settings.NOTES_PER_MINUTE = 1
    game_id, _version = start_game(director)
    client.force_login(director)
    url = reverse("game-note", args=[game_id])
    assert client.post(url, {"turn": 1, "text": "first"}).status_code == 302
    response = client.post(url, {"turn": 1, "text": "second"})
    assert response.status_code == 429
    assert "You may add 1 notes a minute" in response.content.decode()
    assert response["Retry-After"]


def test_the_count_is_the_logs_so_every_worker_shares_it(settings, director):
    """Notes another process appended (straight to the store, nothing of this
    process involved) count: the quota keeps no count of its own."""
    settings.NOTES_PER_MINUTE = 2
    game_id, version = start_game(director)
    from games.services import game_note, game_stream

    for n in range(2):
        append(
            game_stream(game_id),
            [ev.NoteAdded(target_version=version, text=f"elsewhere {n}")],
            expected_version=version + n,
            recorded_by=director,
        )
    with pytest.raises(quotas.QuotaExceededError):
        game_note(game_id=game_id, target_version=version, text="x", user=director)


def test_the_quota_is_per_user_and_per_minute(settings, director, monkeypatch):
    from games.services import game_note

    settings.NOTES_PER_MINUTE = 1
    game_id, version = start_game(director)
    game_note(game_id=game_id, target_version=version, text="one", user=director)
    with pytest.raises(quotas.QuotaExceededError):
        game_note(game_id=game_id, target_version=version, text="two", user=director)
    later = quotas.timezone.now() + datetime.timedelta(seconds=61)
    monkeypatch.setattr(quotas.timezone, "now", lambda: later)
    game_note(game_id=game_id, target_version=version, text="two", user=director)


def test_the_count_reads_the_notes_index():
    """The quota's count uses the partial index the games app made for it, whose
    predicate names the notes' event types."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'event_log_notes'"
        )
        (definition,) = cursor.fetchone()
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(
            "EXPLAIN " + quotas._RECENT_NOTES,
            [
                *quotas.NOTE_TYPES,
                1,
                datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC),
            ],
        )
        plan = "\n".join(row[0] for row in cursor.fetchall())
    for type_name in quotas.NOTE_TYPES:
        assert f"'{type_name}'" in definition
    assert "event_log_notes" in plan
