"""The games API: recording a game move by move, and every status code."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from games.models import GameProjection
from tests.refusals import refused


@pytest.fixture
def api(recorder):
    client = APIClient()
    client.force_authenticate(recorder)
    return client


def start(api, **extra):
    response = api.post(
        "/api/games/",
        {"players": ["Ann", "Ben"], "racks": ["DINNVWY", "ADEEGIL"], **extra},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def events_of(game_id):
    return StoredEvent.objects.filter(stream_id=game_id).count()


@pytest.mark.django_db
def test_a_game_recorded_move_by_move(api):
    game = start(api)
    gid = game["id"]
    assert game["state"]["racks"][0] == {"known": "DINNVWY", "unknown": 0}
    response = api.post(
        f"/api/games/{gid}/place",
        {"position": "8D", "word": "WINDY", "expected_version": game["version"]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["events"] == ["tiles_placed"]
    assert body["state"]["scores"] == [32, 0]
    assert body["state"]["to_move"] == 1
    # Ben's turn: Ann's rack is refilled first, at random, and the draw recorded.
    response = api.post(
        f"/api/games/{gid}/place",
        {"position": "7C", "word": "GALE", "expected_version": body["version"]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["events"] == ["tiles_drawn", "tiles_placed"]
    assert body["state"]["racks"][0]["unknown"] == 0
    assert len(body["state"]["racks"][0]["known"]) == 7
    assert body["state"]["scores"] == [32, 16]
    detail = api.get(f"/api/games/{gid}/").json()
    assert [t["word"] for t in detail["turns"]] == ["WINDY", "GALE"]
    assert detail["board"][7][3:8] == "WINDY"


@pytest.mark.django_db
def test_an_illegal_play_is_a_400_with_the_rule_and_nothing_is_stored(api):
    game = start(api)
    before = events_of(game["id"])
    response = api.post(
        f"/api/games/{game['id']}/place",
        {"position": "8A", "word": "WINDY", "expected_version": game["version"]},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"]
    assert "H8" in body["message"]
    assert events_of(game["id"]) == before


@pytest.mark.django_db
def test_a_malformed_position_is_a_400_naming_the_field(api):
    game = start(api)
    response = api.post(
        f"/api/games/{game['id']}/place",
        {"position": "Z99", "word": "WINDY", "expected_version": game["version"]},
        format="json",
    )
    refused(response, field="position", code="invalid")


@pytest.mark.django_db
def test_a_stale_version_is_a_409(api):
    game = start(api)
    url = f"/api/games/{game['id']}/place"
    ok = api.post(
        url,
        {"position": "8D", "word": "WINDY", "expected_version": game["version"]},
        format="json",
    )
    assert ok.status_code == 201
    stale = api.post(f"/api/games/{game['id']}/pass", {"expected_version": 3})
    assert stale.status_code == 409
    assert stale.json()["current_version"] == ok.json()["version"]


@pytest.mark.django_db
def test_writes_need_the_rights(api, stranger):
    game = start(api, visibility="public")
    other = APIClient()
    other.force_authenticate(stranger)
    before = events_of(game["id"])
    response = other.post(
        f"/api/games/{game['id']}/pass", {"expected_version": game["version"]}
    )
    assert response.status_code == 403
    anonymous = APIClient().post(
        f"/api/games/{game['id']}/pass", {"expected_version": game["version"]}
    )
    assert anonymous.status_code in (401, 403)
    assert events_of(game["id"]) == before


@pytest.mark.django_db
def test_a_phony_is_withdrawn_and_a_correction_supersedes_turns(api):
    game = start(api)
    gid = game["id"]
    placed = api.post(
        f"/api/games/{gid}/place",
        {"position": "8D", "word": "WINDY", "expected_version": game["version"]},
        format="json",
    ).json()
    challenged = api.post(
        f"/api/games/{gid}/challenge",
        {"outcome": "phony", "expected_version": placed["version"]},
        format="json",
    )
    assert challenged.status_code == 201, challenged.json()
    state = challenged.json()["state"]
    assert state["scores"] == [0, 0]
    assert state["racks"][0]["known"] == "DINNVWY"
    turns = api.get(f"/api/games/{gid}/").json()["turns"]
    assert turns[0]["withdrawn"] is True
    assert turns[1]["kind"] == "phony_withdrawn"
    # The director realises the challenge was entered by mistake: supersede it.
    corrected = api.post(
        f"/api/games/{gid}/correction",
        {
            "from_version": challenged.json()["version"],
            "reason": "challenge entered by mistake",
            "expected_version": challenged.json()["version"],
        },
        format="json",
    )
    assert corrected.status_code == 201, corrected.json()
    assert corrected.json()["state"]["scores"] == [32, 0]
    # The superseded event is still in the log.
    log = api.get(f"/api/games/{gid}/events").json()
    assert [e["type"] for e in log["results"]][-2:] == [
        "play_challenged",
        "events_superseded",
    ]
    assert [e["superseded"] for e in log["results"]][-2:] == [True, False]
    assert not any(e["superseded"] for e in log["results"][:-2])


@pytest.mark.django_db
def test_state_after_any_event(api):
    game = start(api)
    gid = game["id"]
    placed = api.post(
        f"/api/games/{gid}/place",
        {"position": "8D", "word": "WINDY", "expected_version": game["version"]},
        format="json",
    ).json()
    before = api.get(f"/api/games/{gid}/state?after={game['version']}").json()
    after = api.get(f"/api/games/{gid}/state?after={placed['version']}").json()
    assert before["board"][7] == "." * 15
    assert after["board"][7][3:8] == "WINDY"
    assert before["scores"] == [0, 0]
    assert after["scores"] == [32, 0]
    assert api.get(f"/api/games/{gid}/state?after=x").status_code == 400


@pytest.mark.django_db
def test_gcg_upload_reports_discrepancies_and_download_round_trips(api, shared_gcg_dir):
    data = (shared_gcg_dir / "doug_v_emely.gcg").read_bytes()
    response = api.post(
        "/api/games/import",
        {"file": SimpleUploadedFile("g.gcg", data)},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["scores"] == [451, 345]
    text = api.get(f"/api/games/{body['id']}/gcg").content.decode()
    assert text.startswith("#character-encoding UTF-8\n")
    assert ">doug: DINNVWY 8D WINDY +32 32" in text


def upload(api, data: bytes):
    """POST a GCG file to the import endpoint."""
    return api.post(
        "/api/games/import",
        {"file": SimpleUploadedFile("g.gcg", data)},
        format="multipart",
    )


@pytest.mark.django_db
def test_a_bad_gcg_upload_is_a_400_with_line_numbers(api):
    bad = b"#player1 a A\n#player2 b B\n>c: ABC 8H AB +4 4\n"
    response = upload(api, bad)
    problems = refused(response, field=None, code="gcg")["problems"]
    assert problems[0][0] == 3
    assert GameProjection.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("score", ["2147483648", "99999"])
def test_an_impossible_gcg_score_is_a_400_with_its_line(api, score):
    """Issue 21: a score no game can reach is refused, never stored (was a 500)."""
    text = f"#player1 a A\n#player2 b B\n>a: DINNVWY 8D WINDY +{score} {score}\n"
    response = upload(api, text.encode())
    problems = refused(response, field=None, code="gcg")["problems"]
    assert problems[0][:2] == [3, "impossible_score"]
    assert GameProjection.objects.count() == 0


@pytest.mark.django_db
def test_gcg_upload_lists_warnings_with_their_lines(api):
    text = b"#player1 x Ann\n#player2 x Bob\n>x: DINNVWY 8D WINDY +32 32\n"
    response = upload(api, text)
    assert response.status_code == 201, response.json()
    assert response.json()["warnings"] == [
        {
            "line": 2,
            "code": "duplicate_nick",
            "message": "Both players have the nick 'x': each line is given to a "
            "player by the order of play",
        }
    ]


@pytest.mark.django_db
def test_an_oversized_gcg_is_refused(api):
    big = b"#player1 a A\n#player2 b B\n" + b"#note " + b"x" * (130 * 1024) + b"\n"
    response = upload(api, big)
    assert "128 KB" in refused(response, field="file")["message"]
