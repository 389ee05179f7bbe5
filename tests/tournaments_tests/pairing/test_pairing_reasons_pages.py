"""Issue 34, item 5, through the API and the pages: each system pairing stores
why each board is what it is, and the pairing page and API show it; a director's
hand pairing shows what the system would have done."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from tests.boards import round_games

NAMES = ["Ann Able", "Ben Baker", "Cy Cole", "Di Dunn", "Ed Eve"]


@pytest.fixture(autouse=True)
def seeded_coin_flips(monkeypatch):
    rng = random.Random(34)
    monkeypatch.setattr(
        "tournaments.pairing.services._coin_flips",
        lambda count: tuple(bool(rng.getrandbits(1)) for _ in range(count)),
    )


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def ok(response, status=201):
    assert response.status_code == status, response.content[:500]
    return response.json()


def _tournament(api, names):
    tid = ok(
        api.post(
            "/api/tournaments/",
            {
                "name": "Why Open",
                "start_date": "2026-11-27",
                "rounds": 4,
                "divisions": ["A"],
                "published": True,
            },
            format="json",
        )
    )["id"]
    ok(
        api.post(
            f"/api/tournaments/{tid}/players/",
            {
                "division": "A",
                "players": [
                    {"name": name, "rating": 1800 - 10 * n}
                    for n, name in enumerate(names)
                ],
            },
            format="json",
        )
    )
    return tid


def _pair(api, tid, round_, **body):
    return ok(
        api.post(
            f"/api/tournaments/{tid}/rounds/{round_}/pair",
            {"division": "A", "method": "swiss", **body},
            format="json",
        )
    )


def _results(api, tid, round_):
    for n, board in enumerate(round_games(tid, round_)):
        ok(
            api.post(
                f"/api/tournaments/{tid}/results",
                {
                    "round": round_,
                    "player_a": board.first.player_id,
                    "player_b": board.second.player_id,
                    "score_a": 420 + 10 * n,
                    "score_b": 380,
                },
                format="json",
            )
        )


def _reasons(api, tid, round_):
    return ok(
        api.get(f"/api/tournaments/{tid}/rounds/{round_}/pairings/reasons?division=A"),
        200,
    )


@pytest.mark.django_db
def test_a_system_pairing_keeps_its_reasons_and_the_api_and_page_show_them(
    api, director
):
    tid = _tournament(api, NAMES)
    _pair(api, tid, 1)
    _results(api, tid, 1)
    _pair(api, tid, 2)
    # Stored in the log with the event, not worked out again when read.
    stored = StoredEvent.objects.filter(
        stream_id=tid, event_type="round_paired"
    ).order_by("-position")[0]
    kept = stored.payload["reasons"]
    assert kept["system"] == "swiss"
    assert kept["based_on_round"] == 1
    games = {(g["board"], g["first"], g["second"]) for g in stored.payload["games"]}
    assert {(b["board"], b["first"], b["second"]) for b in kept["boards"]} == games
    document = _reasons(api, tid, 2)
    assert document["hand_paired"] is False
    assert document["kept"] is True
    assert document["repeat_limit"] == 0
    assert document["over_limit"] == 0
    assert len(document["boards"]) == 2
    assert len(document["byes"]) == 1
    assert all(" goes first: " in board["text"] for board in document["boards"])
    # The bye went to the lowest ranked of those without one (round 1's went to
    # the fifth seed): the reason says so.
    (bye,) = document["byes"]
    assert bye["byes_before"] == 0
    assert "fewest byes (0)" in bye["text"]
    assert document["summary"].startswith("Paired by Swiss on the standings after")
    # The public page says the same, under "Why these pairings".
    page = Client().get(reverse("round-pairings", args=[tid, "A", 2]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Why these pairings" in text
    assert document["boards"][0]["text"] in text.replace("&#x27;", "'")


@pytest.mark.django_db
def test_a_hand_pairing_shows_what_the_system_would_have_done(api, director):
    tid = _tournament(api, NAMES[:4])
    _pair(api, tid, 1)
    _results(api, tid, 1)
    round1 = {
        frozenset((b.first.player_id, b.second.player_id)) for b in round_games(tid, 1)
    }
    players = sorted({p for pair in round1 for p in pair})
    # By hand: a pairing different from any the system makes on these results
    # (the round-1 winners do not meet each other).
    winners = sorted(
        b.first.player_id if b.first.outcome == "win" else b.second.player_id
        for b in round_games(tid, 1)
    )
    losers = [p for p in players if p not in winners]
    games = [
        {"board": 1, "first": winners[0], "second": losers[0]},
        {"board": 2, "first": winners[1], "second": losers[1]},
    ]
    if frozenset((winners[0], losers[0])) in round1:
        games = [
            {"board": 1, "first": winners[0], "second": losers[1]},
            {"board": 2, "first": winners[1], "second": losers[0]},
        ]
    _pair(api, tid, 2, method="manual", games=games, allow_repeats=True)
    document = _reasons(api, tid, 2)
    assert document["hand_paired"] is True
    assert document["system"] == "swiss"
    would = {frozenset((b["first"], b["second"])) for b in document["boards"]}
    # Swiss pairs the two winners together: the hand pairing gave everyone
    # another opponent.
    assert frozenset(winners) in would
    assert sorted(document["differences"]) == players
    assert "4 players would have had another opponent" in document["summary"]
    console = Client()
    console.force_login(director)
    page = console.get(
        reverse("manage-pair", args=[tid, "A"]) + "?round=2"
    ).content.decode()
    assert "Paired by hand: what the system would have done" in page
    # And beside the form, what the system would pair the next round as.
    assert "What the system would pair round 3 as" in page


@pytest.mark.django_db
def test_reasons_of_a_round_not_paired_are_a_404(api):
    tid = _tournament(api, NAMES[:4])
    response = api.get(f"/api/tournaments/{tid}/rounds/1/pairings/reasons?division=A")
    assert response.status_code == 404
