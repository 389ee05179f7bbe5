"""The tournament's and the game's live feeds: every event in commit order as
Server-Sent Events, resumable from the last id, for whoever may read them."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import livefeed
from games import services as game_services
from games.eventstore.models import FeedEntry
from tests import sse
from tests.boards import round_games
from tests.refusals import refused
from tests.tournaments_tests.ratings.test_exports import drive_open

SSE = {"HTTP_ACCEPT": "text/event-stream"}


@pytest.fixture(autouse=True)
def _feed(feed_at_once, settings):
    """Numbered as inserted (a test never commits); streams close at once."""
    settings.FEED_HOLD_SECONDS = 0


@pytest.fixture
def anon():
    return APIClient()


def body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def read(client, url, **headers):
    response = client.get(url, **SSE, **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["Cache-Control"] == "no-cache"
    return sse.parse(body(response))


@pytest.fixture
def open_with_game(director):
    """Riverside Ratings Open, a game recorded on its round-5 board 1, and a
    casual game beside it (not the tournament's)."""
    riverside = drive_open(director)
    board = round_games(riverside.tournament_id, 5)[0]
    game = game_services.game_start(
        user=director,
        players=["Ben", "Ann"],
        racks=["DINNVWY", "ADEEGIL"],
        context={
            "tournament_id": str(riverside.tournament_id),
            "division": "A",
            "round": 5,
            "board": board.board,
            "player_ids": [board.first.player_id, board.second.player_id],
        },
    )
    game_services.game_place(
        game_id=game.stream.id, position="8D", word="WINDY", user=director
    )
    casual = game_services.game_start(user=director, players=["X", "Y"], seed=3)
    return riverside.tournament_id, game.stream.id, casual.stream.id


@pytest.mark.django_db
def test_the_tournament_feed_sends_its_events_and_its_games_in_commit_order(
    open_with_game, anon
):
    tournament_id, game_id, casual_id = open_with_game
    messages, retry = read(anon, f"/api/tournaments/{tournament_id}/feed")
    assert retry == 1000
    got = sse.events(messages)
    streams = {(e["stream_type"], e["stream_id"]) for e in got}
    assert streams == {("tournament", str(tournament_id)), ("game", str(game_id))}
    # Every event of the tournament and its game reaches the follower: as a
    # document, or as a head when it is not public (the team's changes).
    expected = FeedEntry.objects.filter(stream_id__in=[tournament_id, game_id])
    ids = [m.id for m in messages]
    assert ids == sorted(expected.values_list("feed_position", flat=True))
    heads = [m for m in messages if m.type == "head"]
    assert len(heads) == 1  # the creator's director_added
    assert [e["position"] for e in got] == [m.id for m in messages if m not in heads]
    assert got[0]["event_type"] == "tournament_created"
    game_events = [e for e in got if e["stream_id"] == str(game_id)]
    assert [e["version"] for e in game_events] == list(range(1, len(game_events) + 1))
    assert game_events[0]["event_type"] == "game_started"
    assert game_events[-1]["event_type"] == "tiles_placed"
    results = [e for e in got if e["event_type"] == "result_recorded"]
    assert results[0]["payload"]["score_a"] == 420
    assert str(casual_id) not in {e["stream_id"] for e in got}


@pytest.mark.django_db
def test_a_follower_resumes_after_its_last_id(open_with_game, anon, director):
    tournament_id, game_id, _ = open_with_game
    first, _ = read(anon, f"/api/tournaments/{tournament_id}/feed")
    last = first[-1].id
    noted = game_services.game_note(
        game_id=game_id, target_version=4, text="a fine opening", user=director
    )
    messages, _ = read(
        anon, f"/api/tournaments/{tournament_id}/feed", HTTP_LAST_EVENT_ID=str(last)
    )
    got = sse.events(messages)
    assert [(e["event_type"], e["version"]) for e in got] == [
        ("note_added", noted.version)
    ]
    assert got[0]["payload"]["text"] == "a fine opening"
    # ?after= does the same for a client that is not a browser.
    again, _ = read(anon, f"/api/tournaments/{tournament_id}/feed?after={last}")
    assert sse.events(again) == got
    # Nothing new: no event, and no head marker needed.
    done, _ = read(
        anon, f"/api/tournaments/{tournament_id}/feed?after={got[0]['position']}"
    )
    assert sse.events(done) == []


@pytest.mark.django_db
def test_other_streams_events_move_the_follower_on(open_with_game, anon, director):
    """Events outside the scope are not sent, but a head marker moves the id past
    them, so a reconnecting follower does not read them again."""
    tournament_id, _, casual_id = open_with_game
    first, _ = read(anon, f"/api/tournaments/{tournament_id}/feed")
    game_services.game_pass(game_id=casual_id, user=director)
    messages, _ = read(
        anon, f"/api/tournaments/{tournament_id}/feed?after={first[-1].id}"
    )
    assert sse.events(messages) == []
    (head,) = messages
    assert head.type == "head"
    assert head.id == FeedEntry.objects.order_by("-feed_position")[0].feed_position


@pytest.mark.django_db
def test_the_game_feed_sends_one_games_events(open_with_game, anon, director):
    _, game_id, _ = open_with_game
    messages, _ = read(anon, f"/api/games/{game_id}/feed")
    got = sse.events(messages)
    assert [e["version"] for e in got] == list(range(1, len(got) + 1))
    assert {e["stream_id"] for e in got} == {str(game_id)}
    assert got[-1]["event_type"] == "tiles_placed"
    assert got[-1]["payload"]["word"] == "WINDY"


@pytest.mark.django_db
def test_a_private_tournament_and_a_private_game_are_not_followed(director, anon):
    hidden = drive_open(director, published=False)
    url = f"/api/tournaments/{hidden.tournament_id}/feed"
    assert anon.get(url, **SSE).status_code == 404
    casual = game_services.game_start(user=director, players=["X", "Y"], seed=3)
    assert anon.get(f"/api/games/{casual.stream.id}/feed", **SSE).status_code == 404
    team = APIClient()
    team.force_authenticate(director)
    messages, _ = read(team, url)
    assert sse.events(messages)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "headers", "field"),
    [
        ("?after=-1", {}, "after"),
        ("?after=x", {}, "after"),
        ("", {"HTTP_LAST_EVENT_ID": "1e9"}, "Last-Event-ID"),
    ],
)
def test_a_bad_position_is_a_400_naming_it(
    riverside_open_id, anon, query, headers, field
):
    response = anon.get(f"/api/tournaments/{riverside_open_id}/feed{query}", **headers)
    refused(response, field=field, code="invalid")


@pytest.fixture
def riverside_open_id(director):
    return drive_open(director).tournament_id


@pytest.mark.django_db
def test_beyond_the_streams_a_process_holds_a_follower_is_answered_and_retries(
    riverside_open_id, anon, settings
):
    """Every stream slot taken: the answer is what is new now, not held, with a
    retry, so the worker's threads stay free for pages."""
    slots = livefeed._stream_slots()
    taken = 0
    while slots.acquire(blocking=False):
        taken += 1
    try:
        response = anon.get(f"/api/tournaments/{riverside_open_id}/feed", **SSE)
        assert not response.streaming
        messages, retry = sse.parse(response.content.decode())
        assert retry == settings.FEED_RETRY_MS
        assert sse.events(messages)[0]["event_type"] == "tournament_created"
    finally:
        for _ in range(taken):
            slots.release()
    held = anon.get(f"/api/tournaments/{riverside_open_id}/feed", **SSE)
    assert held.streaming
    body(held)
