"""Bounded input and bounded pages (issue 21, items 2 and 4).

Every list and string a request carries has a maximum (the rules' and the
serializers', documented in the schema), refused with a 400 naming the field and
nothing stored. The public pages of a tournament cost a fixed number of statements
and a bounded size, at the maximums and for a tournament whose log went past them
before they existed (its events cannot be removed); a division name that cannot
be part of an address is refused, and one already in a log does not break a page.
"""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from games.eventstore.errors import EventRejectedError
from games.eventstore.models import StoredEvent
from rules import tournament as rt
from tests.boards import round_games
from tests.refusals import refused
from tests.reliability_tests.conftest import start_game
from tournaments.core import writes
from tournaments.core.pages import PLAYERS_PER_PAGE
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def tournament_body(**changes) -> dict:
    return {"name": "Open", "start_date": "2026-11-21", "rounds": 5, **changes}


def test_the_issues_hundred_thousand_divisions_are_a_400(api):
    before = StoredEvent.objects.count()
    response = api.post(
        "/api/tournaments/",
        tournament_body(divisions=[f"D{n}" for n in range(100_000)]),
        format="json",
    )
    message = f"Ensure this field has no more than {rt.MAX_DIVISIONS} elements."
    assert refused(response) == {
        "code": "max_length",
        "message": message,
        "field": "divisions",
        "errors": {"divisions": [message]},
    }
    assert StoredEvent.objects.count() == before


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/tournaments/", tournament_body(name="x" * 201), "name"),
        ("/api/tournaments/", tournament_body(venue="x" * 201), "venue"),
        ("/api/tournaments/", tournament_body(rounds=rt.MAX_ROUNDS + 1), "rounds"),
        ("/api/tournaments/", tournament_body(divisions=["x" * 65]), "divisions.0"),
        ("/api/tournaments/", tournament_body(divisions=["A/B"]), "divisions.0"),
        ("/api/tournaments/", tournament_body(divisions=[".."]), "divisions.0"),
        (
            "{t}players/",
            {
                "division": "A",
                "players": [{"name": f"P{n}"} for n in range(1001)],
            },
            "players",
        ),
        (
            "{t}players/",
            {"division": "A", "players": [{"name": "x" * 201}]},
            "players.0.name",
        ),
        (
            "{t}rounds/2/pair",
            {"division": "A", "method": "manual", "byes": ["p"] * 1001},
            "byes",
        ),
        (
            "{t}results/amend",
            {
                "round": 1,
                "player_a": "a",
                "player_b": "b",
                "score_a": 1,
                "score_b": 0,
                "reason": "x" * 501,
            },
            "reason",
        ),
    ],
)
def test_every_list_and_string_has_a_maximum_named_in_the_400(
    api, paired, path, body, field
):
    tournament_id, _ = paired
    before = StoredEvent.objects.count()
    response = api.post(
        path.format(t=f"/api/tournaments/{tournament_id}/"), body, format="json"
    )
    refused(response, field=field)
    assert StoredEvent.objects.count() == before


def test_a_slash_in_a_division_name_is_refused_with_the_rules_message(api):
    response = api.post(
        "/api/tournaments/", tournament_body(divisions=["A", "A/B"]), format="json"
    )
    message = (
        "The division name 'A/B' cannot contain / or \\: it is part of a web address."
    )
    assert refused(response) == {
        "code": "invalid",
        "message": message,
        "field": "divisions.1",
        "errors": {"divisions": {"1": [message]}},
    }


def test_the_rules_refuse_it_whatever_the_caller(director, paired):
    """The service path (the forms' and a .t import's) meets the same rule."""
    with pytest.raises(EventRejectedError) as refused:
        setup_services.tournament_create(
            user=director,
            name="Slashed",
            start_date="2026-11-21",
            end_date="2026-11-21",
            rounds=3,
            divisions=["A/B"],
        )
    assert refused.value.code == "invalid_name"
    tournament_id, _ = paired
    with pytest.raises(EventRejectedError) as refused:
        writes.tournament_append(
            tournament_id=tournament_id,
            events=[rt.DivisionAdded(name="C/D")],
            user=director,
        )
    assert refused.value.code == "invalid_name"


def test_the_console_form_refuses_it(client, director, paired):
    tournament_id, _ = paired
    client.force_login(director)
    response = client.post(
        reverse("manage", args=[tournament_id]),
        {"action": "division", "name": "A/B"},
    )
    assert "cannot contain / or \\" in response.content.decode()
    assert StoredEvent.objects.filter(event_type="division_added").count() == 1


def test_a_note_over_the_maximum_is_a_400(api, director):
    game_id, version = start_game(director)
    response = api.post(
        f"/api/games/{game_id}/notes",
        {"expected_version": version, "target_version": version, "text": "x" * 4001},
        format="json",
    )
    refused(response, field="text", code="max_length")


# --- logs from before the limits ---------------------------------------------------


def old_tournament(director, monkeypatch, divisions: list[str], players: int = 0):
    """A tournament written as the code before the limits allowed: the rules'
    limits switched off for its appends only."""
    monkeypatch.setattr(rt, "admit", lambda state, event: None)
    result = setup_services.tournament_create(
        user=director,
        name="From before the limits",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=5,
        divisions=divisions,
    )
    tournament_id = result.stream.id
    if players:
        players_services.players_register(
            tournament_id=tournament_id,
            division=divisions[0],
            entries=[(f"Player {n}", 1500, "") for n in range(players)],
            user=director,
        )
    monkeypatch.undo()
    return tournament_id


def test_pages_of_a_tournament_with_a_slashed_division_work(
    client, director, monkeypatch
):
    """A division named 'A/B' already in a log: every page that links it (the
    tournament's, the division's own, its standings, a scorecard, the console)
    answers 200, through an address that escapes the slash."""
    tournament_id = old_tournament(director, monkeypatch, ["A/B", "C"], players=4)
    pairing_services.round_pair(
        tournament_id=tournament_id,
        division="A/B",
        round_=1,
        method="swiss",
        user=director,
    )
    division_url = reverse("division-detail", args=[tournament_id, "A/B"])
    assert "A%252FB" in division_url
    player = round_games(tournament_id, 1, "A/B")[0].first.player_id
    pages = [
        reverse("tournament-detail", args=[tournament_id]),
        division_url,
        reverse("standings", args=[tournament_id, "A/B"]),
        reverse("round-pairings", args=[tournament_id, "A/B", 1]),
        reverse("division-games", args=[tournament_id, "A/B"]),
        reverse("scorecard", args=[tournament_id, player]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
    assert "Division A/B" in client.get(division_url).content.decode()
    client.force_login(director)
    assert client.get(reverse("manage", args=[tournament_id])).status_code == 200
    assert (
        client.get(
            reverse("manage-results", args=[tournament_id, "A/B", 1])
        ).status_code
        == 200
    )


def statements_and_size(client, url) -> tuple[int, int]:
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured.captured_queries), len(response.content)


def tournament_with_divisions(director, count: int, players: int = 4):
    result = setup_services.tournament_create(
        user=director,
        name=f"{count} divisions",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=5,
        divisions=[f"D{n}" for n in range(count)],
    )
    tournament_id = result.stream.id
    for n in range(count):
        players_services.players_register(
            tournament_id=tournament_id,
            division=f"D{n}",
            entries=[(f"Player {n}.{m}", 1500, "") for m in range(players)],
            user=director,
        )
    return tournament_id


def test_the_tournament_page_costs_the_same_at_the_maximum_and_past_it(
    client, director, monkeypatch
):
    """One division, the maximum of 32, and 2,000 from before the limits: the
    same statements, and the page lists at most 32 cards (the rest counted)."""
    one = tournament_with_divisions(director, 1)
    full = tournament_with_divisions(director, rt.MAX_DIVISIONS)
    past = old_tournament(director, monkeypatch, [f"D{n}" for n in range(2000)])

    small = statements_and_size(client, reverse("tournament-detail", args=[one]))
    most = statements_and_size(client, reverse("tournament-detail", args=[full]))
    legacy = statements_and_size(client, reverse("tournament-detail", args=[past]))

    assert small[0] == most[0] == legacy[0]
    assert legacy[1] <= most[1] * 1.2
    page = client.get(reverse("tournament-detail", args=[past])).content.decode()
    assert page.count('class="panel"') == rt.MAX_DIVISIONS
    assert "… and 1968 more divisions, not shown." in page
    # Cached for signed-out readers: the next request reads the header only.
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("tournament-detail", args=[past])).status_code == 200
    assert len(captured.captured_queries) == 1
    print(
        f"\nFIGURES tournament page: {small[0]} statements for 1, {rt.MAX_DIVISIONS}"
        f" and 2,000 divisions; {most[1]:,} and {legacy[1]:,} bytes; 1 statement"
        " when cached"
    )


def test_the_division_page_is_paged_at_the_maximum_and_past_it(
    client, director, monkeypatch
):
    few = tournament_with_divisions(director, 1, players=10)
    full = old_tournament(
        director, monkeypatch, ["A"], players=rt.MAX_PLAYERS_PER_DIVISION
    )
    past = old_tournament(
        director, monkeypatch, ["A"], players=3 * rt.MAX_PLAYERS_PER_DIVISION
    )

    small = statements_and_size(client, reverse("division-detail", args=[few, "D0"]))
    most = statements_and_size(client, reverse("division-detail", args=[full, "A"]))
    legacy = statements_and_size(client, reverse("division-detail", args=[past, "A"]))

    assert small[0] == most[0] == legacy[0]
    assert legacy[1] == pytest.approx(most[1], rel=0.05)
    page = client.get(reverse("division-detail", args=[past, "A"])).content
    assert page.decode().count("<tr") == PLAYERS_PER_PAGE + 1  # and the header
    assert f"Players 1–{PLAYERS_PER_PAGE} of 3000" in page.decode()
    last = reverse("division-detail", args=[past, "A"]) + "?page=12"
    assert client.get(last).status_code == 200
    assert client.get(last.replace("12", "13")).status_code == 404
    print(
        f"\nFIGURES division page: {small[0]} statements for 10, 1,000 and 3,000"
        f" players; {most[1]:,} and {legacy[1]:,} bytes"
    )


def test_a_made_up_page_number_adds_no_cache_entry(client, director):
    tournament_id = tournament_with_divisions(director, 1)
    url = reverse("division-detail", args=[tournament_id, "D0"])
    client.get(url)
    for made_up in ("abc", "0", "-1", "9" * 5000):
        assert client.get(f"{url}?page={made_up}").status_code == 200
    assert client.get(f"{url}?page=2").status_code == 404
    assert uuid.UUID(str(tournament_id))
