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
from tournaments.core.past import after_the_past, resolve_at, viewing
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


@pytest.mark.parametrize(
    "bad", ["yesterday", "12:05", "-3", "2026-13-01", "9" * 11, "9" * 41, " "]
)
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
    assert body["message"] in page.content.decode()


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


def _reads(tid, ids):
    """Every read of the tournament that can show round 1's scores: (url, whether
    its body shows them, so that a corrected score must differ in the present)."""
    player = ids[1]
    return [
        (reverse("tournament-detail", args=[tid]), False),
        (reverse("division-detail", args=[tid, "A"]), False),
        (reverse("standings", args=[tid, "A"]), True),
        (reverse("standings-after", args=[tid, "A", 1]), True),
        (reverse("round-pairings", args=[tid, "A", 1]), False),
        (reverse("scorecard", args=[tid, player]), True),
        (reverse("prizes", args=[tid, "A"]), False),
        (reverse("division-games", args=[tid, "A"]), False),
        (reverse("wall-chart", args=[tid, "A"]), True),
        (reverse("prize-list", args=[tid]), False),
        (reverse("reports", args=[tid]), False),
        (reverse("reports-csv", args=[tid]), False),
        (reverse("tourney-js", args=[tid]), True),
        (reverse("pairings-pdf", args=[tid, "A", 1]), False),
        (reverse("standings-pdf", args=[tid, "A"]), False),
        (reverse("wall-chart-pdf", args=[tid, "A"]), False),
        (reverse("scorecards-pdf", args=[tid, "A"]), False),
        (reverse("prize-list-pdf", args=[tid]), False),
        (reverse("api-tournament", args=[tid]), False),
        (reverse("api-players", args=[tid]), False),
        (reverse("api-scorecard", args=[tid, player]), True),
        (reverse("api-pairings", args=[tid, 1]), False),
        (reverse("api-prizes", args=[tid, "A"]), False),
        (reverse("api-export-absp-csv", args=[tid]), False),
    ]


def test_every_read_answers_at_a_past_position(client, club_night, director):
    """Each page, API answer and file of the tournament answers at a past position
    as it answered then (a page with the banner); those that show round 1's scores
    differ from the present after they were corrected."""
    tid, ids = club_night
    _play_round_two(tid, ids, director)
    version = StoredEvent.objects.filter(stream_id=tid).count()
    reads = _reads(tid, ids)
    then = {url: client.get(url) for url, _ in reads}
    _amend_round_one(tid, ids, director)
    for url, shows_scores in reads:
        past = client.get(url, {"at": str(version)})
        assert past.status_code == then[url].status_code, url
        assert past["Content-Type"] == then[url]["Content-Type"], url
        if shows_scores:
            assert client.get(url).content != then[url].content, url
        if past["Content-Type"].startswith("text/html"):
            text = past.content.decode()
            assert f"after event {version}" in text, url
            if "<table" in text:
                assert _table(text) == _table(then[url].content.decode()), url
        elif past["Content-Type"] == "application/json":
            assert _without_update_time(past) == _without_update_time(then[url]), url
        elif "pdf" not in past["Content-Type"]:
            assert past.content == then[url].content, url


def _without_update_time(response):
    """The JSON body but the tournament's update time: the past's is its event's
    recording time, the present's was the moment its projection was written (a few
    milliseconds later)."""
    body = response.json()
    if isinstance(body, dict):
        body.pop("updated_at", None)
    return body


def test_what_a_past_read_must_keep_is_written_after_it(club_night, django_user_model):
    """A read of the past writes nothing that lasts (its transaction is rolled
    back), but what it hands to after_the_past (a file's issue record) is written
    once the past is over."""
    tid, _ = club_night
    at = resolve_at(tid, 3)
    assert at is not None
    with viewing(at):
        django_user_model.objects.create_user("lost")
        after_the_past(lambda: django_user_model.objects.create_user("kept"))
        assert not django_user_model.objects.filter(username="kept").exists()
    assert not django_user_model.objects.filter(username="lost").exists()
    assert django_user_model.objects.filter(username="kept").exists()
