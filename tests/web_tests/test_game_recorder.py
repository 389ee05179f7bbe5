"""Recording a game move by move from the director console, and uploading GCG files."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.eventstore.models import StoredEvent
from games.models import GameProjection
from tests.boards import board_of

pytestmark = pytest.mark.django_db


def events_of(game_id) -> int:
    return StoredEvent.objects.filter(stream_id=game_id).count()


@pytest.fixture
def recording(director_client, paired):
    """Board 1 of round 1 (Ann Able v Ben Baker), started from the results page."""
    response = director_client.post(
        reverse("manage-board-record", args=[paired, "A", 1, 1])
    )
    assert response.status_code == 302
    game = GameProjection.objects.get(tournament_id=paired, round=1, board_number=1)
    assert response["Location"] == reverse("game-record", args=[game.game_id])
    return game.game_id


def command(client, game_id, action, **fields):
    page = client.get(reverse("game-record", args=[game_id]))
    version = page.context["version"]
    data = {"action": action, f"{action}-version": version}
    data.update({f"{action}-{name}": value for name, value in fields.items()})
    return client.post(reverse("game-record", args=[game_id]), data)


def test_a_board_is_recorded_move_by_move_with_the_board_shown(
    director_client, recording
):
    page = director_client.get(reverse("game-record", args=[recording]))
    body = page.content.decode()
    assert "Recording: Ann Able v Ben Baker" in body
    assert 'role="grid"' in body
    assert "Ann Able</strong> to move" in body
    response = command(
        director_client, recording, "place", position="8d", word="WINDY", rack="DINNVWY"
    )
    assert response.status_code == 302
    body = director_client.get(reverse("game-record", args=[recording])).content
    assert b'aria-label="H8 double word, centre, Y, last play"' in body
    assert b"Ben Baker</strong> to move" in body
    game = GameProjection.objects.get(pk=recording)
    assert game.scores == [32, 0]


def test_a_score_from_the_slip_that_differs_is_kept_and_flagged(
    director_client, recording
):
    command(director_client, recording, "place", position="8D", word="WINDY", score=30)
    body = director_client.get(reverse("game-turn", args=[recording, 1])).content
    assert b"Recorded +30, the rules give +32" in body


def test_an_illegal_play_is_refused_next_to_the_form_and_nothing_is_stored(
    director_client, recording
):
    before = events_of(recording)
    response = command(director_client, recording, "place", position="8A", word="WINDY")
    assert response.status_code == 400
    assert "H8" in response.content.decode()
    assert events_of(recording) == before


def test_a_malformed_position_is_refused_next_to_the_field(director_client, recording):
    response = command(director_client, recording, "place", position="Z99", word="CAT")
    assert response.status_code == 400
    body = response.content.decode()
    assert 'id="id_place-position-error"' in body


def test_a_phony_is_challenged_off_and_the_last_line_can_be_undone(
    director_client, recording
):
    command(director_client, recording, "place", position="8D", word="WINDY")
    response = command(director_client, recording, "challenge", outcome="phony")
    assert response.status_code == 302
    assert GameProjection.objects.get(pk=recording).scores == [0, 0]
    response = command(director_client, recording, "undo", reason="wrong slip")
    assert response.status_code == 302
    assert GameProjection.objects.get(pk=recording).scores == [32, 0]


def test_an_exchange_and_a_pass(director_client, recording):
    assert command(director_client, recording, "exchange", count=3).status_code == 302
    assert command(director_client, recording, "pass").status_code == 302
    turns = GameProjection.objects.get(pk=recording).turns.order_by("index")
    assert [t.kind for t in turns] == ["exchange", "pass"]
    response = command(director_client, recording, "exchange")
    assert response.status_code == 400
    assert "Give the tiles exchanged or how many." in response.content.decode()


def test_a_stale_form_is_told_to_reload(director_client, recording):
    page = director_client.get(reverse("game-record", args=[recording]))
    stale = page.context["version"]
    command(director_client, recording, "pass")
    response = director_client.post(
        reverse("game-record", args=[recording]),
        {"action": "pass", "pass-version": stale},
    )
    assert response.status_code == 400
    assert "Someone else changed this game" in response.content.decode()


def test_a_director_ending_and_the_result_goes_to_the_tournament(
    director_client, recording, paired
):
    command(director_client, recording, "place", position="8D", word="WINDY")
    response = command(
        director_client,
        recording,
        "end",
        reason="adjudicated",
        score_0=400,
        score_1=350,
    )
    assert response.status_code == 302
    body = director_client.get(reverse("game-record", args=[recording])).content
    assert b"The game is over" in body
    assert b"Record this result for round 1" in body
    response = director_client.post(
        reverse("manage-result-from-game", args=[paired, recording])
    )
    assert response.status_code == 302
    pairing = board_of(paired, 1, 1)
    assert (pairing.first.own_score, pairing.first.opponent_score) == (400, 350)
    assert str(pairing.game_id) == str(recording)


def test_an_ending_the_rules_refuse_is_shown(director_client, recording):
    response = command(director_client, recording, "end", reason="went_out")
    assert response.status_code == 400
    assert "Nobody has gone out" in response.content.decode()


def test_only_the_tournaments_directors_may_record(client, other_user, recording):
    client.force_login(other_user)
    assert client.get(reverse("game-record", args=[recording])).status_code == 403
    client.logout()
    response = client.get(reverse("game-record", args=[recording]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_going_back_to_a_board_being_recorded(director_client, paired, recording):
    again = director_client.post(
        reverse("manage-board-record", args=[paired, "A", 1, 1])
    )
    assert again["Location"] == reverse("game-record", args=[recording])


# --- GCG upload --------------------------------------------------------------------


def gcg_file(shared_gcg_dir, name="doug_v_emely.gcg", replace=None):
    data = (shared_gcg_dir / name).read_text()
    if replace:
        data = data.replace(*replace)
    return SimpleUploadedFile(name, data.encode())


def test_a_player_uploads_a_casual_game_and_a_scoring_mistake_is_flagged(
    client, player_user, shared_gcg_dir
):
    client.force_login(player_user)
    assert client.get(reverse("game-upload")).status_code == 200
    response = client.post(
        reverse("game-upload"),
        {
            "file": gcg_file(shared_gcg_dir, replace=("WINDY +32 32", "WINDY +30 30")),
            "rules": "",
        },
        follow=True,
    )
    body = response.content.decode()
    assert "The game is kept as recorded" in body
    assert "line 3: score 30, the rules give 32" in body
    assert "1 recorded score differs from the rules' and is kept as recorded" in body
    game = GameProjection.objects.get()
    assert game.scores == [449, 345]


def test_an_unreadable_gcg_is_refused_with_its_line(client, player_user):
    client.force_login(player_user)
    bad = SimpleUploadedFile(
        "bad.gcg", b"#player1 a A\n#player2 b B\n>a: ABC 8D XYZZY +10 10\n"
    )
    response = client.post(reverse("game-upload"), {"file": bad, "rules": ""})
    assert response.status_code == 400
    assert "Line 3:" in response.content.decode()
    assert not GameProjection.objects.exists()


def test_an_impossible_score_in_an_upload_is_refused_with_its_line(client, player_user):
    """Issue 21: the upload page answers 400 with the line, not a 500."""
    client.force_login(player_user)
    huge = SimpleUploadedFile(
        "huge.gcg",
        b"#player1 a A\n#player2 b B\n>a: DINNVWY 8D WINDY +2147483648 2147483648\n",
    )
    response = client.post(reverse("game-upload"), {"file": huge, "rules": ""})
    assert response.status_code == 400
    assert "Line 3: +2147483648 cannot be a score" in response.content.decode()
    assert not GameProjection.objects.exists()


def test_uploading_needs_a_sign_in(client):
    response = client.get(reverse("game-upload"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_director_uploads_a_boards_gcg(director_client, paired, shared_gcg_dir):
    url = reverse("manage-board-gcg", args=[paired, "A", 1, 2])
    page = director_client.get(url).content.decode()
    assert "Cy Cole (went first)" in page
    response = director_client.post(
        url, {"file": gcg_file(shared_gcg_dir), "first_in_file": "second"}
    )
    assert response.status_code == 302
    game = GameProjection.objects.get(tournament_id=paired)
    assert (game.round, game.board_number) == (1, 2)
    # The file's first player (doug) is Di Dane, the board's second.
    assert game.players[0]["player_id"] == board_of(paired, 1, 2).second.player_id
    results = director_client.get(reverse("manage-results", args=[paired, "A", 1]))
    assert b"Finished recorded games" in results.content


def test_a_boards_gcg_that_breaks_a_rule_is_refused(
    director_client, paired, shared_gcg_dir
):
    url = reverse("manage-board-gcg", args=[paired, "A", 1, 2])
    response = director_client.post(
        url,
        {
            "file": gcg_file(shared_gcg_dir, replace=("8D WINDY", "8A WINDY")),
            "first_in_file": "first",
        },
    )
    assert response.status_code == 400
    assert "Line 3:" in response.content.decode()
