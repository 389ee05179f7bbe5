"""The live feed sends followers what a signed-out reader of the public pages and
API sees, and nothing else (issue 30, item 8): no username of the team (5 wrong
passwords lock a username out of sign-in), no account of a player, no pending
self-entry report, no seed of a game's draws. Those events reach a follower as
heads: its id still moves past them."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services as game_services
from games.eventstore.models import FeedEntry, StoredEvent
from tests import sse
from tournaments.players import accounts
from tournaments.players import services as players_services
from tournaments.players.serializers import PlayerOutput
from tournaments.room import selfentry
from tournaments.setup.serializers import TournamentOutput

SSE = {"HTTP_ACCEPT": "text/event-stream"}
# The team's and the players' accounts: none of these names may reach the feed.
USERNAMES = ("mara", "kim-keeper", "cora-codirector", "ann-account")
# Event types whose payload only the team may read (the audit, the console).
TEAM_ONLY = (
    "director_added",
    "scorekeeper_added",
    "player_account_linked",
    "self_entry_changed",
    "score_reported",
)


@pytest.fixture(autouse=True)
def _feed(feed_at_once, settings):
    settings.FEED_HOLD_SECONDS = 0


@pytest.fixture
def busy_night(club_night, director, django_user_model):
    """Club night with a scorekeeper, a co-director, a player linked to an
    account, self-entry on and one player's report of round 2 pending."""
    tid, ids = club_night
    for username, role in (
        ("kim-keeper", "scorekeeper"),
        ("cora-codirector", "director"),
    ):
        django_user_model.objects.create_user(username, password=f"pw-{username}-1")
        players_services.team_add(
            tournament_id=tid, username=username, role=role, user=director
        )
    ann = django_user_model.objects.create_user("ann-account", password="pw-ann-123")
    accounts.player_link_account(
        tournament_id=tid, player_id=ids[1], account=ann, user=director
    )
    selfentry.self_entry_set(tournament_id=tid, enabled=True, user=director)
    outcome = selfentry.score_report(
        tournament_id=tid,
        round_=2,
        player_id=ids[1],
        own_score=420,
        opponent_score=380,
        user=None,
        code=selfentry.round_code(tid, ids[1], 2),
    )
    assert not outcome.recorded  # pending: the opponent has not reported
    return tid, ids


def read_body(url: str) -> str:
    response = APIClient().get(url, **SSE)
    assert response.status_code == 200
    content = response.streaming_content if response.streaming else [response.content]
    return b"".join(content).decode()


def positions(stream_id, *types) -> list[int]:
    logged = StoredEvent.objects.filter(stream_id=stream_id, event_type__in=types)
    return sorted(
        FeedEntry.objects.filter(
            position__in=logged.values_list("position", flat=True)
        ).values_list("feed_position", flat=True)
    )


@pytest.mark.django_db
def test_the_teams_events_reach_a_follower_as_heads_without_a_username(busy_night):
    tid, _ = busy_night
    body = read_body(f"/api/tournaments/{tid}/feed")
    for username in USERNAMES:
        assert username not in body
    assert "user_id" not in body
    messages, _ = sse.parse(body)
    sent = {event["event_type"] for event in sse.events(messages)}
    assert not sent & set(TEAM_ONLY)
    heads = [m.id for m in messages if m.type == "head"]
    assert heads == positions(tid, *TEAM_ONLY)
    # The follower's id moves past every event of the tournament, in order.
    assert [m.id for m in messages] == positions(
        tid,
        *StoredEvent.objects.filter(stream_id=tid).values_list("event_type", flat=True),
    )


@pytest.mark.django_db
def test_the_pending_report_is_not_on_the_feed(busy_night):
    tid, _ = busy_night
    body = read_body(f"/api/tournaments/{tid}/feed")
    messages, _ = sse.parse(body)
    round_two = [
        e
        for e in sse.events(messages)
        if e["event_type"] in ("result_recorded", "score_reported")
        and e["payload"].get("round") == 2
    ]
    assert round_two == []
    assert "own_score" not in body
    assert "by_code" not in body


@pytest.mark.django_db
def test_each_public_document_holds_only_what_the_public_api_shows(busy_night):
    tid, _ = busy_night
    messages, _ = sse.parse(read_body(f"/api/tournaments/{tid}/feed"))
    documents = {e["event_type"]: e for e in sse.events(messages)}
    envelope = {
        "position",
        "stream_type",
        "stream_id",
        "version",
        "event_type",
        "schema_version",
        "recorded_at",
        "payload",
    }
    assert all(set(e) == envelope for e in documents.values())
    shown = set(TournamentOutput.Meta.fields)
    assert set(documents["tournament_created"]["payload"]) <= shown
    player_fields = set(PlayerOutput.Meta.fields) - {"id"} | {"player_id"}
    assert set(documents["player_registered"]["payload"]) <= player_fields
    assert "coin_flips" not in documents["round_paired"]["payload"]
    results = [
        e["payload"]
        for e in sse.events(messages)
        if e["event_type"] == "result_recorded"
    ]
    assert [(r["score_a"], r["score_b"]) for r in results] == [(420, 380), (350, 402)]


@pytest.mark.django_db
def test_a_games_document_has_its_public_context_and_no_seed(busy_night, director):
    tid, ids = busy_night
    game = game_services.game_start(
        user=director,
        players=["Ann", "Zoe"],
        seed=12345,
        context={
            "tournament_id": str(tid),
            "division": "A",
            "player_ids": [ids[1], ids[4]],
        },
    )
    body = read_body(f"/api/games/{game.stream.id}/feed")
    for secret in ("12345", "seed", "owner_id"):
        assert secret not in body
    started = sse.events(sse.parse(body)[0])[0]
    assert started["event_type"] == "game_started"
    assert started["context"] == {
        "tournament_id": str(tid),
        "division": "A",
        "player_names": ["Ann", "Zoe"],
        "player_ids": [ids[1], ids[4]],
    }
    assert started["payload"]["players"] == ["Ann", "Zoe"]
    assert "metadata" not in started
