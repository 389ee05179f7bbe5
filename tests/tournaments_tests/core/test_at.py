"""?at=: the record as it stood at a past point (tournaments/core/past.py).

Each test compares the past answer with a replay of the log's prefix made here
(the rules' standings over the aggregate folded up to that version), and with the
present, which must differ: on code without ``at`` the parameter was ignored and
the present came back.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from games.eventstore.models import StoredEvent
from games.eventstore.store import read_stream
from games.eventstore.streams import stream_type
from rules.tournament.standings import standings as rules_standings
from tournaments.core.aggregate import tournament_stream
from tournaments.results import services as results_services

pytestmark = pytest.mark.django_db


def _prefix_standings(tid, version):
    """The standings after a replay of the log's first `version` events, made here
    from the log and the rules alone (not through core.past)."""
    recorded = read_stream(tournament_stream(tid), to_version=version)
    state = stream_type("tournament").replay(tournament_stream(tid), recorded)
    rules = state.rules
    rows = rules_standings(rules, "A", after_round=rules.paired_rounds("A"))
    return [(row.player_id, row.wins, row.spread) for row in rows]


def _api_standings(client, tid, at=None):
    query = {} if at is None else {"at": at}
    response = client.get(reverse("api-standings", args=[tid]), query)
    assert response.status_code == 200, response.content
    return response.json()


def _rows(body):
    return [(row["player"], row["wins"], row["spread"]) for row in body["standings"]]


def _version_after_round_one(tid):
    """The event that recorded round 1's last result."""
    return (
        StoredEvent.objects.filter(stream_id=tid, event_type="result_recorded")
        .order_by("version")
        .values_list("version", flat=True)[1]
    )


def _amend_round_one(tid, ids, director):
    results_services.result_amend(
        tournament_id=tid,
        round_=1,
        player_a=ids[1],
        player_b=ids[2],
        score_a=300,
        score_b=450,
        user=director,
    )


def test_standings_at_a_past_position_are_the_prefix_replayed(
    client, club_night, director
):
    tid, ids = club_night
    version = _version_after_round_one(tid)
    _amend_round_one(tid, ids, director)
    present = _api_standings(client, tid)
    past = _api_standings(client, tid, str(version))
    assert _rows(past) != _rows(present)
    assert _rows(past) == _prefix_standings(tid, version)


def test_files_and_pages_at_a_position_are_those_served_then(
    client, club_night, director
):
    """A .t, a .TOU, the standings API and the standings page asked for at a past
    position carry what they carried when that position was the present."""
    tid, ids = club_night
    _play_round_two(tid, ids, director)  # every paired game has a result: a file
    version = StoredEvent.objects.filter(stream_id=tid).count()
    urls = [
        reverse("api-export-naspa-t", args=[tid]),
        reverse("api-export-tou", args=[tid]),
        reverse("api-standings", args=[tid]),
    ]
    then = [client.get(url).content for url in urls]
    page_then = client.get(reverse("standings", args=[tid, "A"])).content.decode()
    _amend_round_one(tid, ids, director)
    for url, body in zip(urls, then, strict=True):
        assert client.get(url).content != body  # the amendment changed it
        past = client.get(url, {"at": str(version)})
        assert past.status_code == 200
        assert past.content == body
        # Its own ETag: the past and the present never share a cached body.
        assert past["ETag"] != client.get(url)["ETag"]
    page = client.get(reverse("standings", args=[tid, "A"]), {"at": str(version)})
    text = page.content.decode()
    assert f"after event {version}" in text
    assert "See the present" in text
    assert _table(text) == _table(page_then)
    assert _table(text) != _table(
        client.get(reverse("standings", args=[tid, "A"])).content.decode()
    )


def _play_round_two(tid, ids, director):
    for a, b, score_a, score_b in ((4, 1, 390, 410), (2, 3, 377, 366)):
        results_services.result_record(
            tournament_id=tid,
            round_=2,
            player_a=ids[a],
            player_b=ids[b],
            score_a=score_a,
            score_b=score_b,
            user=director,
        )


def _table(page):
    start = page.index("<table")
    return page[start : page.index("</table>", start)]


def test_a_time_maps_to_the_last_event_at_or_before_it(client, club_night, director):
    tid, ids = club_night
    version = _version_after_round_one(tid)
    recorded_at = StoredEvent.objects.get(stream_id=tid, version=version).recorded_at
    _amend_round_one(tid, ids, director)
    by_position = _rows(_api_standings(client, tid, str(version)))
    assert by_position != _rows(_api_standings(client, tid))
    # The instant itself, a moment later (still before the next event), and the
    # same wall-clock time without a zone, read in the site's zone (UTC).
    following = StoredEvent.objects.get(stream_id=tid, version=version + 1)
    between = recorded_at + (following.recorded_at - recorded_at) / 2
    naive = between.astimezone(datetime.UTC).replace(tzinfo=None).isoformat()
    for at in (recorded_at.isoformat(), between.isoformat(), naive):
        assert _rows(_api_standings(client, tid, at)) == by_position, at


def test_a_time_before_the_event_shows_no_results(client, club_night, director):
    """Before the first pairing: the players, none with a result; before the
    tournament's first event: the tournament as created, with no division yet."""
    tid, _ = club_night
    paired = (
        StoredEvent.objects.filter(stream_id=tid, event_type="round_paired")
        .order_by("version")
        .first()
    )
    registered = StoredEvent.objects.get(
        stream_id=tid, version=paired.version - 1
    ).recorded_at
    before_play = registered + (paired.recorded_at - registered) / 2
    body = _api_standings(client, tid, before_play.isoformat())
    assert len(body["standings"]) == 4
    assert all(row["games"] == row["wins"] == 0 for row in body["standings"])
    assert any(row["wins"] for row in _api_standings(client, tid)["standings"])
    first = StoredEvent.objects.get(stream_id=tid, version=1).recorded_at
    before = (first - datetime.timedelta(days=400)).isoformat()
    detail = client.get(reverse("tournament-detail", args=[tid]), {"at": before})
    assert detail.status_code == 200
    assert "after event 1<" in detail.content.decode()
    api = client.get(reverse("api-tournament", args=[tid]), {"at": before})
    assert api.json()["divisions"] == []


def test_a_position_past_the_end_is_the_present(client, club_night):
    tid, _ = club_night
    present = client.get(reverse("api-standings", args=[tid]))
    later = client.get(reverse("api-standings", args=[tid]), {"at": "999999"})
    assert later.content == present.content
    assert later["ETag"] == present["ETag"]
    page = client.get(reverse("standings", args=[tid, "A"]), {"at": "999999"})
    assert "See the present" not in page.content.decode()


@pytest.mark.parametrize("bad", ["yesterday", "12:05", "-3", "2026-13-01", "9" * 41])
def test_a_bad_at_is_refused_naming_it(client, club_night, bad):
    tid, _ = club_night
    response = client.get(reverse("api-standings", args=[tid]), {"at": bad})
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "at"
    assert body["code"] == "invalid"
    assert "at" in body["errors"]
    assert body["message"]
    page = client.get(reverse("standings", args=[tid, "A"]), {"at": bad})
    assert page.status_code == 200
    assert "at is a log position" in page.content.decode()


def test_a_write_never_takes_at(client, club_night, director):
    tid, ids = club_night
    before = StoredEvent.objects.filter(stream_id=tid).count()
    client.force_login(director)
    response = client.post(
        reverse("api-amend", args=[tid]) + "?at=3",
        {
            "round": 1,
            "player_a": ids[1],
            "player_b": ids[2],
            "score_a": 300,
            "score_b": 450,
        },
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "at"
    assert StoredEvent.objects.filter(stream_id=tid).count() == before


def test_an_unpublished_tournament_stays_hidden_at_any_at(client, club_night, director):
    tid, _ = club_night
    from tournaments.setup import services as setup_services

    setup_services.tournament_publish(tournament_id=tid, published=False, user=director)
    for at in ("3", "999999", "2000-01-01"):
        assert (
            client.get(reverse("api-standings", args=[tid]), {"at": at}).status_code
            == 404
        )
        assert (
            client.get(reverse("standings", args=[tid, "A"]), {"at": at}).status_code
            == 404
        )
