"""The rack rule (issue 32, item 2): the racks of a game still being recorded are
hidden from everyone but its recorders and the tournament's team, in every
reader (the game page, the state, detail and events API, the GCG download, the
live feed), until the game ends or the tournament's delay passes (a setting;
default: until the end). One decision: ``games.selectors.rack_view``."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import racks as hidden_racks
from games import selectors, services
from games.eventstore.models import StoredEvent
from games.models import GameProjection
from rules import gcg
from rules.events import EVENT_TYPES
from tests import sse
from tests.games_tests.conftest import club_tournament
from tests.refusals import refused
from tournaments.audit import selectors as audit_selectors
from tournaments.models import Tournament
from tournaments.players import accounts
from tournaments.players import services as players_services

pytestmark = pytest.mark.django_db

SSE = {"HTTP_ACCEPT": "text/event-stream"}
ANN_RACK, BEN_RACK = "DINNVWY", "AJKQSXZ"


@pytest.fixture(autouse=True)
def _feed(feed_at_once, settings):
    settings.FEED_HOLD_SECONDS = 0


@pytest.fixture
def live(recorder, django_user_model):
    """A published tournament's game being recorded by its director (rita): Ann
    opened with WINDY; Ben holds AJKQSXZ. Kim keeps score; Ann's account is
    linked to her player."""
    tid, ids = club_tournament(recorder, ["Ann Able", "Ben Baker"])
    django_user_model.objects.create_user("kim", password="pw-kim-123")
    players_services.team_add(
        tournament_id=tid, username="kim", role="scorekeeper", user=recorder
    )
    ann = django_user_model.objects.create_user("ann", password="pw-ann-123")
    accounts.player_link_account(
        tournament_id=tid, player_id=ids[0], account=ann, user=recorder
    )
    started = services.game_start(
        user=recorder,
        players=["Ann", "Ben"],
        racks=[ANN_RACK, BEN_RACK],
        seed=4242,
        context={"tournament_id": tid, "division": "A", "player_ids": ids},
    )
    gid = started.stream.id
    services.game_place(game_id=gid, position="8D", word="WINDY", user=recorder)
    return tid, gid


def as_user(django_user_model, username: str | None) -> APIClient:
    client = APIClient()
    if username is not None:
        client.force_authenticate(django_user_model.objects.get(username=username))
    return client


def state(client, gid, after=None) -> dict:
    url = f"/api/games/{gid}/state" + (f"?after={after}" if after else "")
    response = client.get(url)
    assert response.status_code == 200, response.content
    return response.json()


def feed_events(gid) -> list[dict]:
    response = APIClient().get(f"/api/games/{gid}/feed", **SSE)
    content = response.streaming_content if response.streaming else [response.content]
    return sse.events(sse.parse(b"".join(content).decode())[0])


def events_of(client, gid) -> list[dict]:
    events = client.get(f"/api/games/{gid}/events").json()
    return events["results"] if isinstance(events, dict) else events


def shows_racks(client, gid) -> bool:
    """Whether `client` sees the racks in the state API, asserting it sees all or
    none of them in every other API reader."""
    racks = state(client, gid)["racks"]
    turns = client.get(f"/api/games/{gid}/").json()["turns"]
    events = events_of(client, gid)
    drawn = [e["payload"]["tiles"] for e in events if e["type"] == "tiles_drawn"]
    gcg_text = client.get(f"/api/games/{gid}/gcg").content.decode()
    seen = [
        racks[1]["known"] == BEN_RACK,
        turns[0]["rack"] == ANN_RACK,
        drawn[:2] == [ANN_RACK, BEN_RACK],
        f"{ANN_RACK} 8D WINDY" in gcg_text,
    ]
    assert all(seen) or not any(seen), seen
    return all(seen)


def test_signed_out_readers_see_no_rack_of_a_live_game_in_the_api(live):
    _, gid = live
    anon = APIClient()
    assert not shows_racks(anon, gid)
    body = state(anon, gid)
    assert [rack["known"] for rack in body["racks"]] == ["", ""]
    # Counts only: Ann has N and V left of her rack (drawn when the next turn begins).
    assert [rack["unknown"] for rack in body["racks"]] == [2, 7]
    # One player's unseen tiles would tell their rack: every player's are a
    # spectator's (every tile not on the board).
    assert body["unseen"][0] == body["unseen"][1]
    assert len(body["unseen"][0]) == 100 - 5
    gcg_text = anon.get(f"/api/games/{gid}/gcg").content.decode()
    assert ">Ann:  8D WINDY" in gcg_text
    assert "#rack" not in gcg_text
    # The GCG without racks is still a record the reader takes back.
    assert list(gcg.read(gcg_text).state.scores) == body["scores"]
    # The seed of the draws tells every rack to come.
    assert "seed" not in events_of(anon, gid)[0]["metadata"]
    # The best plays of a turn would tell the rack.
    assert anon.get(f"/api/games/{gid}/turns/1/analysis").status_code == 403


def test_recorders_and_the_team_see_the_racks_others_do_not(
    live, django_user_model, stranger
):
    _, gid = live
    rita = as_user(django_user_model, "rita")
    assert shows_racks(rita, gid)  # its recorder
    assert "seed" in events_of(rita, gid)[0]["metadata"]
    assert shows_racks(as_user(django_user_model, "kim"), gid)  # a scorekeeper
    assert not shows_racks(as_user(django_user_model, "sam"), gid)
    # Ann plays in the game: her opponent's rack is the last she may see.
    assert not shows_racks(as_user(django_user_model, "ann"), gid)


def test_a_player_annotating_their_own_live_game_gets_no_rack_back(
    live, django_user_model
):
    _, gid = live
    ann = as_user(django_user_model, "ann")
    version = GameProjection.objects.get(pk=gid).version
    response = ann.post(
        f"/api/games/{gid}/notes",
        {"expected_version": version, "target_version": 4, "text": "WINDY!"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    racks = response.json()["state"]["racks"]
    assert [rack["known"] for rack in racks] == ["", ""]


def test_the_page_shows_no_rack_of_a_live_game_to_a_signed_out_reader(
    live, django_user_model
):
    _, gid = live
    url = reverse("game-turn", args=[gid, 1])
    page = Client().get(url)
    assert page.status_code == 200
    position = page.context["position"]
    assert [(r.tiles, r.unknown) for r in position.racks] == [("", 2), ("", 7)]
    assert [line.rack for line in page.context["lines"]] == [""]
    assert "racks-hidden" in page.content.decode()
    assert "Rack:" not in page.content.decode()
    recorder = Client()
    recorder.force_login(django_user_model.objects.get(username="rita"))
    page = recorder.get(url)
    assert [line.rack for line in page.context["lines"]] == [ANN_RACK]
    assert page.context["position"].racks[1].tiles == BEN_RACK
    # The signed-out page was not served to the recorder from the cache, nor the
    # other way round.
    again = Client().get(url)
    assert "racks-hidden" in again.content.decode()
    assert (
        ANN_RACK not in Client().get(reverse("game-gcg", args=[gid])).content.decode()
    )


def test_the_feed_sends_no_rack_of_a_live_game(live):
    _, gid = live
    events = feed_events(gid)
    drawn = [e["payload"] for e in events if e["event_type"] == "tiles_drawn"]
    assert drawn == [
        {"player": 0, "tiles": "", "unknown": 7},
        {"player": 1, "tiles": "", "unknown": 7},
    ]
    (placed,) = [e["payload"] for e in events if e["event_type"] == "tiles_placed"]
    assert (placed["rack"], placed["word"]) == (None, "WINDY")


def test_after_the_end_everyone_sees_the_racks(live, recorder):
    _, gid = live
    services.game_end(game_id=gid, reason="resigned", player=1, user=recorder)
    assert shows_racks(APIClient(), gid)
    page = Client().get(reverse("game-turn", args=[gid, 1]))
    assert page.context["lines"][0].rack == ANN_RACK
    drawn = [e for e in feed_events(gid) if e["event_type"] == "tiles_drawn"]
    assert drawn[1]["payload"]["tiles"] == BEN_RACK


def test_with_a_delay_the_racks_appear_once_it_has_passed(live, recorder, monkeypatch):
    tid, gid = live
    director = APIClient()
    director.force_authenticate(recorder)
    response = director.patch(
        f"/api/tournaments/{tid}/", {"rack_delay_minutes": 10}, format="json"
    )
    assert response.status_code == 201, response.json()
    placed = StoredEvent.objects.get(stream_id=gid, event_type="tiles_placed")
    anon = APIClient()

    def at(minutes: float) -> None:
        moment = placed.recorded_at + datetime.timedelta(minutes=minutes)
        monkeypatch.setattr(timezone, "now", lambda: moment)

    at(9.9)
    # WINDY was recorded 9.9 minutes ago: the racks after it, and the rack it
    # was played from, are still hidden.
    assert state(anon, gid)["racks"][1]["known"] == ""
    assert anon.get(f"/api/games/{gid}/").json()["turns"][0]["rack"] == ""
    assert ANN_RACK not in anon.get(f"/api/games/{gid}/gcg").content.decode()
    at(10)
    assert state(anon, gid)["racks"][1]["known"] == BEN_RACK
    assert shows_racks(anon, gid)
    drawn = [e for e in feed_events(gid) if e["event_type"] == "tiles_drawn"]
    assert [e["payload"]["tiles"] for e in drawn] == [ANN_RACK, BEN_RACK]


def test_the_delay_shows_the_racks_as_they_stood_that_long_ago(live, recorder):
    """The decision itself, with an injected clock: racks up to the last event
    recorded at least the delay ago."""
    tid, gid = live
    Tournament.objects.filter(pk=tid).update(rack_delay_minutes=5)
    game = GameProjection.objects.get(pk=gid)
    times = dict(
        StoredEvent.objects.filter(stream_id=gid).values_list("version", "recorded_at")
    )
    last = max(times)
    anon = None
    five = datetime.timedelta(minutes=5)
    assert selectors.rack_view(game, anon, now=times[1]).through == 0
    view = selectors.rack_view(game, anon, now=times[last] + five)
    assert (view.through, view.shows(last), view.every) == (last, True, False)
    tiny = datetime.timedelta(microseconds=1)
    earlier = selectors.rack_view(game, anon, now=times[last] + five - tiny)
    assert not earlier.shows(last)
    # The team sees every rack at once, and everyone once the game has ended.
    assert selectors.rack_view(game, recorder, now=times[1]).every
    GameProjection.objects.filter(pk=gid).update(is_over=True)
    ended = GameProjection.objects.get(pk=gid)
    assert selectors.rack_view(ended, anon, now=times[1]).every


def test_the_delay_is_a_setting_in_the_api_the_console_and_the_audit(live, recorder):
    tid, _ = live
    director = APIClient()
    director.force_authenticate(recorder)
    url = f"/api/tournaments/{tid}/"
    assert director.get(url).json()["rack_delay_minutes"] is None
    before = StoredEvent.objects.filter(stream_id=tid).count()
    for bad in (-1, 24 * 60 + 1, "soon"):
        response = director.patch(url, {"rack_delay_minutes": bad}, format="json")
        refused(response, field="rack_delay_minutes")
    assert StoredEvent.objects.filter(stream_id=tid).count() == before
    page = Client()
    page.force_login(recorder)
    manage = reverse("manage", args=[tid])
    form = page.get(manage).content.decode()
    assert 'name="rack_delay_minutes"' in form
    response = page.post(
        manage,
        {"action": "settings", "rack_delay_minutes": "15", "racks_at_end": ""},
    )
    assert response.status_code in (200, 302)
    assert director.get(url).json()["rack_delay_minutes"] == 15
    director.patch(url, {"rack_delay_minutes": None}, format="json")
    assert director.get(url).json()["rack_delay_minutes"] is None
    summaries = [
        entry.summary
        for entry in audit_selectors.tournament_audit(Tournament.objects.get(pk=tid))
        if entry.event_type == "rack_delay_set"
    ]
    assert summaries == [
        "Racks of a game being recorded: shown 15 min after each move",
        "Racks of a game being recorded: shown once it has ended",
    ]


def test_every_game_event_with_a_rack_is_redacted():
    """Every event type of the game stream either carries no tile of a rack or
    has its rack-free form (games.racks.WITHOUT_RACKS)."""
    rack_fields = {"tiles", "rack", "racks"}
    for type_name, cls in EVENT_TYPES.items():
        fields = set(getattr(cls, "__dataclass_fields__", {}))
        if type_name == "note_added" or type_name == "note_edited":
            continue  # a note's text is its author's
        if fields & rack_fields:
            assert type_name in hidden_racks.WITHOUT_RACKS, type_name
