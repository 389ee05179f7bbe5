"""The tournament's and the game's live feeds: every event in commit order as
Server-Sent Events, resumable from the last id, for whoever may read them."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import livefeed
from games import services as game_services
from games.eventstore.feed import feed_head
from games.eventstore.models import FeedEntry
from games.eventstore.store import append
from games.eventstore.streams import StreamKey
from games.selectors import share_token
from rules import events as ev
from tests import sse
from tests.boards import round_games
from tests.refusals import refused
from tests.tournaments_tests.ratings.test_exports import drive_open
from tournaments.setup import services as setup_services

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


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "header", "field"),
    [("?after={}", None, "after"), ("", "{}", "Last-Event-ID")],
)
def test_a_position_past_the_feed_head_is_a_400_naming_it(
    riverside_open_id, anon, query, header, field
):
    """A follower cannot skip what is not written yet: before, it was accepted
    and the events committed up to that position were never sent."""
    past = feed_head() + 1
    headers = {"HTTP_LAST_EVENT_ID": header.format(past)} if header else {}
    response = anon.get(
        f"/api/tournaments/{riverside_open_id}/feed{query.format(past)}", **headers
    )
    body = refused(response, field=field, code="invalid")
    assert str(feed_head()) in body["message"] + str(body["errors"])
    at_head = read(anon, f"/api/tournaments/{riverside_open_id}/feed?after={past - 1}")
    assert sse.events(at_head[0]) == []


@pytest.fixture
def long_game(director):
    """A public game with a page and a half of notes after its first move."""
    game = game_services.game_start(
        user=director,
        players=["Ben", "Ann"],
        racks=["DINNVWY", "ADEEGIL"],
        visibility=ev.Visibility.PUBLIC,
    )
    placed = game_services.game_place(
        game_id=game.stream.id, position="8D", word="WINDY", user=director
    )
    append(
        StreamKey("game", game.stream.id),
        [ev.NoteAdded(target_version=placed.version, text="n" * 500)]
        * (livefeed.PAGE + livefeed.PAGE // 2),
        expected_version=placed.version,
        recorded_by=director,
    )
    return game.stream.id, placed.version


@pytest.mark.django_db
def test_a_follower_far_behind_is_told_where_to_read_then_follows_live(
    long_game, anon, director, settings
):
    """More than a page behind (a catch-up from 0): one `behind` message naming
    its position, the head and the API to read, not the backlog."""
    settings.NOTES_PER_MINUTE = 0  # the fixture's notes count for the director
    long_game, turn = long_game
    url = f"/api/games/{long_game}/feed"
    messages, _ = read(anon, url)
    head = feed_head()
    assert messages == [
        sse.Message(
            "behind",
            head,
            {
                "position": 0,
                "head": head,
                "limit": livefeed.PAGE,
                "pages": {"events": f"/api/games/{long_game}/events"},
            },
        )
    ]
    assert anon.get(f"/api/games/{long_game}/events").status_code == 200
    # It follows live from the head: the next event, and only it.
    noted = game_services.game_note(
        game_id=long_game, target_version=turn, text="live", user=director
    )
    live, _ = read(anon, url, HTTP_LAST_EVENT_ID=str(head))
    assert [e["version"] for e in sse.events(live)] == [noted.version]
    # Less than a page behind: the events themselves.
    near, _ = read(anon, f"{url}?after={head - 10}")
    assert len(sse.events(near)) == 11


@pytest.mark.django_db
def test_a_held_stream_ends_at_its_next_poll_once_unpublished(
    open_with_game, anon, director, settings
):
    """Asked again at every poll: nothing more is sent once the tournament is
    unpublished (before, the stream went on for its 30 s hold, events included)."""
    settings.FEED_HOLD_SECONDS = 600
    settings.FEED_POLL_SECONDS = 0
    tournament_id, _, _ = open_with_game
    response = anon.get(f"/api/tournaments/{tournament_id}/feed", **SSE)
    chunks = iter(response.streaming_content)
    try:
        assert b"tournament_created" in next(chunks)
        setup_services.tournament_publish(
            tournament_id=tournament_id, published=False, user=director
        )
        assert next(chunks, None) is None
    finally:
        response.close()


@pytest.mark.django_db
def test_a_held_stream_ends_at_its_next_poll_once_its_share_link_is_revoked(
    anon, director, settings
):
    settings.FEED_HOLD_SECONDS = 600
    settings.FEED_POLL_SECONDS = 0
    game = game_services.game_start(user=director, players=["X", "Y"], seed=3)
    shared = game_services.game_set_visibility(
        game_id=game.stream.id, visibility=ev.Visibility.LINK, user=director
    )
    token = share_token(game.stream.id, shared.version)
    response = anon.get(f"/api/games/{game.stream.id}/feed?share={token}", **SSE)
    chunks = iter(response.streaming_content)
    try:
        assert b"game_started" in next(chunks)
        game_services.game_set_visibility(
            game_id=game.stream.id, visibility=ev.Visibility.PRIVATE, user=director
        )
        assert next(chunks, None) is None
    finally:
        response.close()
