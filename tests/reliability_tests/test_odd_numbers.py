"""Issue 30, item 7: numbers read from odd text are a clear refusal, never a 500.

``"²".isdigit()`` is True and ``int("²")`` raises; ``int()`` of 5,000 digits raises;
each GET parameter that takes a number read it so (seven endpoints, both feeds'
``after`` and ``Last-Event-ID``). Director-only: a prize table's 4,300-digit
place, a ratings list's rating of 10^30 and a partial ``PATCH`` of a fixed board
without its board were 500s. Every number is now read by ``rules.numbers``:
the API answers 400 naming the parameter, a page shows its default or a 404, a
form names the line, and nothing is stored.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from tests.refusals import refused
from tests.reliability_tests.conftest import record_result, start_game

# A superscript two (isdigit, not int), a fullwidth one (int, not ASCII), more
# digits than int() reads, a negative, and a number past every column.
ODD = ["²", "１", "9" * 5000, "-1", "1" * 30]

# (route, parameter, what a refusal is): "400" an API refusal naming the
# parameter; "page" a page that shows its default (200) or has no such thing (404).
ANONYMOUS = [
    ("/api/games/{game}/state", "after", "400"),
    ("/api/tournaments/{tournament}/standings", "after_round", "400"),
    ("/api/tournaments/{tournament}/divisions/A/prizes", "after_round", "400"),
    ("/games/{game}/", "turn", "page"),
    ("/tournaments/{tournament}/divisions/A/", "page", "page"),
    ("/tournaments/{tournament}/divisions/A/games/", "page", "page"),
    ("/tournaments/{tournament}/ratings", "round", "page"),
    ("/api/games/{game}/feed", "after", "400"),
    ("/api/tournaments/{tournament}/feed", "after", "400"),
    ("/api/games/{game}/feed", "Last-Event-ID", "400"),
    ("/api/tournaments/{tournament}/feed", "Last-Event-ID", "400"),
]


@pytest.fixture
def published(director, paired):
    tournament_id, players = paired
    record_result(director, tournament_id, players[0], players[1])
    game_id, _ = start_game(
        director, context={"tournament_id": tournament_id, "player_ids": players[:2]}
    )
    return {"tournament": tournament_id, "game": game_id, "players": players}


def _get(client: Client, url: str, parameter: str, value: str):
    if parameter == "Last-Event-ID":
        return client.get(url, headers={"Last-Event-ID": value})
    return client.get(url, {parameter: value})


@pytest.mark.django_db
@pytest.mark.parametrize(("route", "parameter", "answer"), ANONYMOUS)
@pytest.mark.parametrize(
    "value", ODD, ids=["superscript", "fullwidth", "5000", "-1", "1e30"]
)
def test_an_odd_number_in_a_get_parameter_is_no_server_error(
    published, route, parameter, answer, value
):
    client = Client(raise_request_exception=False)
    url = route.format(**published)
    response = _get(client, url, parameter, value)
    if answer == "400":
        refused(response, field=parameter)
    else:
        assert response.status_code in (200, 404), (url, response.status_code)


@pytest.mark.django_db
def test_a_good_number_still_reads(published):
    client = Client()
    assert (
        client.get(f"/api/games/{published['game']}/state", {"after": "2"}).json()[
            "version"
        ]
        == 2
    )
    standings = client.get(
        f"/api/tournaments/{published['tournament']}/standings", {"after_round": "1"}
    )
    assert standings.status_code == 200


@pytest.mark.django_db
def test_a_director_s_odd_round_on_the_pairing_page_shows_the_default(
    director, published
):
    client = Client(raise_request_exception=False)
    client.force_login(director)
    url = f"/tournaments/{published['tournament']}/manage/divisions/A/pair/"
    for value in ODD:
        assert client.get(url, {"round": value}).status_code == 200, value


def _events(tournament_id) -> int:
    return StoredEvent.objects.filter(stream_id=tournament_id).count()


@pytest.mark.django_db
def test_a_4300_digit_prize_number_is_an_error_on_its_line(director, published):
    client = Client(raise_request_exception=False)
    client.force_login(director)
    tid = published["tournament"]
    before = _events(tid)
    url = f"/tournaments/{tid}/manage/divisions/A/prizes/"
    for text in (
        "place 1 100\nplace " + "9" * 4300 + " 50",
        "class A " + "1" * 4300 + "-",
        "high_game 20 rounds=1-" + "7" * 4300,
        "place ² 50",
    ):
        response = client.post(url, {"text": text})
        assert response.status_code == 400, text[:30]
        errors = response.context["form"].errors["text"]
        assert any(error.startswith("Line ") for error in errors), errors
    assert _events(tid) == before


@pytest.mark.django_db
def test_a_ratings_list_rating_of_10_to_the_30_is_a_400_naming_the_line(director):
    from tests.tournaments_tests.players.test_directors_day import paired_club

    tid, _ = paired_club(director)
    api = APIClient()
    api.force_authenticate(director)
    before = _events(tid)
    for rating in ("1" + "0" * 30, "²", "3501"):
        content = f"M9,Zed Zane,1500,3\nM1,Ben Baker,{rating},12\n".encode()
        response = api.post(
            f"/api/tournaments/{tid}/import/ratings-list",
            {"file": SimpleUploadedFile("list.csv", content)},
            format="multipart",
        )
        body = refused(response, field="file", code="ratings_list_syntax")
        assert body["message"].startswith("line 2:"), body
        assert "rating" in body["message"], body
    assert _events(tid) == before


@pytest.mark.django_db
def test_a_partial_patch_of_a_fixed_board_without_its_board_is_a_400(
    director, published
):
    api = APIClient()
    api.force_authenticate(director)
    tid = published["tournament"]
    url = f"/api/tournaments/{tid}/divisions/A/pairing-rules"
    before = _events(tid)
    for pin, missing in (
        ({"player_id": published["players"][0]}, "board"),
        ({"board": 3}, "player_id"),
    ):
        response = api.patch(url, {"fixed_boards": [pin]}, format="json")
        refused(response, field=f"fixed_boards.0.{missing}")
    assert _events(tid) == before
    whole = {"player_id": published["players"][0], "board": 3}
    assert api.patch(url, {"fixed_boards": [whole]}, format="json").status_code == 201
