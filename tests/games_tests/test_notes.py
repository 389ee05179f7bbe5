"""Notes say who wrote them and when; their author edits or deletes them by new
events that supersede them, never by changing one."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from games.eventstore.models import StoredEvent
from games.models import GameTurn

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(recorder):
    """A casual game of Rita's, public, with WINDY played (version 4)."""
    started = services.game_start(
        user=recorder,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "ADEEGIL"],
        visibility="public",
    )
    placed = services.game_place(
        game_id=started.stream.id, position="8D", word="WINDY", user=recorder
    )
    return started.stream.id, placed.version


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def notes_of(game_id) -> list[dict]:
    return GameTurn.objects.get(game_id=game_id, index=1).notes


def test_a_note_says_who_wrote_it_and_when(game, recorder):
    recorder.first_name, recorder.last_name = "Rita", "Reyes"
    recorder.save()
    game_id, version = game
    result = services.game_note(
        game_id=game_id, target_version=version, text="QAID was better", user=recorder
    )
    written = StoredEvent.objects.get(stream_id=game_id, version=result.version)
    body = APIClient().get(f"/api/games/{game_id}/").json()
    [note] = body["turns"][0]["notes"]
    assert note["id"] == result.version
    assert note["text"] == "QAID was better"
    assert note["author"] == "Rita Reyes"
    assert note["author_id"] == recorder.pk
    assert note["written_at"] == written.recorded_at.isoformat().replace("+00:00", "Z")
    assert note["edited_at"] is None


def test_the_author_edits_a_note_by_a_new_event(game, recorder):
    game_id, version = game
    added = services.game_note(
        game_id=game_id, target_version=version, text="first thought", user=recorder
    )
    response = client_of(recorder).post(
        f"/api/games/{game_id}/notes/{added.version}/edit",
        {"text": "second thought", "expected_version": added.version},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["events"] == ["note_edited"]
    [note] = notes_of(game_id)
    assert (note["id"], note["text"]) == (added.version, "second thought")
    assert note["edited_at"] is not None
    # The first text is still in the log, unchanged.
    first = StoredEvent.objects.get(stream_id=game_id, version=added.version)
    assert first.payload["text"] == "first thought"


def test_the_author_deletes_a_note_and_the_log_keeps_it(game, recorder):
    game_id, version = game
    added = services.game_note(
        game_id=game_id, target_version=version, text="oops", user=recorder
    )
    response = client_of(recorder).post(
        f"/api/games/{game_id}/notes/{added.version}/delete",
        {"expected_version": added.version},
        format="json",
    )
    assert response.status_code == 201
    assert notes_of(game_id) == []
    assert StoredEvent.objects.filter(stream_id=game_id).count() == added.version + 1


def test_only_the_author_changes_a_note(game, recorder, stranger):
    """Another reader (here one who may read the public game) is refused with a
    403, and nothing is written."""
    game_id, version = game
    added = services.game_note(
        game_id=game_id, target_version=version, text="mine", user=recorder
    )
    other = client_of(stranger)
    for action, body in (("edit", {"text": "theirs"}), ("delete", {})):
        response = other.post(
            f"/api/games/{game_id}/notes/{added.version}/{action}",
            {**body, "expected_version": added.version},
            format="json",
        )
        assert response.status_code == 403
    assert StoredEvent.objects.filter(stream_id=game_id).count() == added.version
    assert notes_of(game_id)[0]["text"] == "mine"


def test_a_version_that_is_no_note_is_a_400_naming_it(game, recorder):
    game_id, version = game
    response = client_of(recorder).post(
        f"/api/games/{game_id}/notes/{version}/edit",
        {"text": "x", "expected_version": version},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_note_target"


def test_notes_read_from_a_gcg_file_have_no_author(recorder, shared_gcg_dir):
    """The importer did not write them: no author, no time, and nobody may edit
    them (they are the record's)."""
    result, _ = services.game_import_gcg(
        text=(shared_gcg_dir / "noah_vs_peter.gcg").read_bytes(), user=recorder
    )
    turns = client_of(recorder).get(f"/api/games/{result.stream.id}/").json()["turns"]
    notes = [note for turn in turns for note in turn["notes"]]
    assert notes
    assert {(note["author"], note["written_at"]) for note in notes} == {("", None)}
    response = client_of(recorder).post(
        f"/api/games/{result.stream.id}/notes/{notes[0]['id']}/delete",
        {"expected_version": result.version},
        format="json",
    )
    assert response.status_code == 403
