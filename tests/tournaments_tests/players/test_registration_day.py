"""Issue 32, item 11: the registration day, in the console and the API.

Check-in before round 1 and the withdrawal of those who did not come; a move to
another division before a player's first pairing; a division that plays fewer
rounds than the tournament (tsh's max_div_rounds). Each is an event the audit
shows with who and when.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.boards import round_games
from tests.refusals import refused
from tests.tournaments_tests.room.test_printouts import pdf_text
from tournaments.core import aggregate
from tournaments.models import Player, Tournament
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.room.feed import TOURNAMENT_FIELDS
from tournaments.setup import services as setup_services

NAMES = ["Ann Able", "Ben Baker", "Cy Cole", "Di Dane", "Ed Eames", "Flo Ford"]


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def day(director):
    """Six players in A, two in B, nothing paired: the registration desk opens."""
    tid = setup_services.tournament_create(
        user=director,
        name="Registration Open",
        start_date="2026-11-27",
        end_date="2026-11-27",
        rounds=6,
        divisions=("A", "B"),
        published=True,
    ).stream.id
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[(name, 1700 - 50 * n, "") for n, name in enumerate(NAMES)],
        user=director,
    )
    players_services.players_register(
        tournament_id=tid,
        division="B",
        entries=[("Gus Gray", 1200, ""), ("Hal Hart", 1100, "")],
        user=director,
    )
    return tid


def _ids(tid, division="A"):
    _, state = aggregate.tournament_state(tid)
    return {
        state.rules.players[p].name: p for p in state.rules.division_players[division]
    }


def _audit(api, tid):
    response = api.get(reverse("api-audit", args=[tid]))
    assert response.status_code == 200
    return response.json()


def test_console_walk_check_in_then_no_shows_then_round_1(director, day):
    """The desk: four of six check in, one click withdraws the other two, round 1
    pairs the four who came."""
    client = Client()
    client.force_login(director)
    url = reverse("manage-players", args=[day, "A"])
    page = client.get(url)
    assert b"Check in Ann Able" in page.content
    for number in (1, 2, 3, 5):
        response = client.post(
            url,
            {"action": "checkin", "checkin-player": number, "checkin-present": "1"},
        )
        assert response.status_code == 302, response.content.decode()
    page = client.get(url)
    assert b"4 of 6 checked in" in page.content
    assert b"Withdraw the 2 not checked in" in page.content
    response = client.post(url, {"action": "noshows"}, follow=True)
    assert "Withdrawn from round 1 (not checked in): Di Dane, Flo Ford." in (
        response.content.decode()
    )
    withdrawn = set(
        Player.objects.filter(tournament_id=day, withdrawn=True).values_list(
            "name", flat=True
        )
    )
    assert withdrawn == {"Di Dane", "Flo Ford"}
    response = client.post(
        reverse("manage-pair", args=[day, "A"]), {"round": 1, "method": "swiss"}
    )
    assert response.status_code == 302, response.content.decode()
    _, state = aggregate.tournament_state(day)
    round_1 = state.rules.round_state("A", 1)
    paired = {p for g in round_1.pairing.games for p in (g.first, g.second)}
    names = {state.rules.players[p].name for p in paired | set(round_1.pairing.byes)}
    assert names == {"Ann Able", "Ben Baker", "Cy Cole", "Ed Eames"}
    # Check-in closes with round 1.
    page = client.get(url)
    assert b"the check-in is closed" in page.content
    response = client.post(
        url, {"action": "checkin", "checkin-player": 4, "checkin-present": "1"}
    )
    assert response.status_code == 400
    assert "check-in is before round 1" in response.content.decode()


def test_the_audit_says_who_checked_in_and_who_withdrew_the_no_shows(
    api, director, day
):
    ids = _ids(day)
    for name in ("Ann Able", "Ben Baker"):
        response = api.post(reverse("api-check-in", args=[day, ids[name]]), {})
        assert response.status_code == 201, response.content
    response = api.post(reverse("api-no-shows", args=[day, "A"]), {})
    assert response.status_code == 201, response.content
    assert response.json()["withdrawn"] == [
        "Cy Cole",
        "Di Dane",
        "Ed Eames",
        "Flo Ford",
    ]
    entries = _audit(api, day)
    checked = [e for e in entries if e["event_type"] == "player_checked_in"]
    assert [e["summary"] for e in checked] == [
        "Ann Able checked in",
        "Ben Baker checked in",
    ]
    assert all(e["recorded_by"] == "mara" and e["recorded_at"] for e in checked)
    withdrawals = [e for e in entries if e["event_type"] == "player_withdrawn"]
    assert len(withdrawals) == 4
    assert {e["payload"]["policy"] for e in withdrawals} == {"not_paired"}


def test_the_check_in_list_is_the_teams_only(api, day, other_user):
    ids = _ids(day)
    api.post(reverse("api-check-in", args=[day, ids["Cy Cole"]]), {})
    rows = api.get(reverse("api-check-in-list", args=[day, "A"])).json()
    assert [(r["name"], r["checked_in"]) for r in rows][:3] == [
        ("Ann Able", False),
        ("Ben Baker", False),
        ("Cy Cole", True),
    ]
    stranger = APIClient()
    stranger.force_authenticate(other_user)
    response = stranger.get(reverse("api-check-in-list", args=[day, "A"]))
    assert response.status_code == 403
    assert "player_checked_in" not in TOURNAMENT_FIELDS


def test_no_shows_are_refused_before_any_check_in_and_after_round_1(api, director, day):
    response = api.post(reverse("api-no-shows", args=[day, "A"]), {})
    body = refused(response, field="division", code="nobody_checked_in")
    assert "check the players in first" in body["message"]
    pairing_services.round_pair(
        tournament_id=day, division="A", round_=1, method="swiss", user=director
    )
    response = api.post(reverse("api-no-shows", args=[day, "A"]), {})
    refused(response, field="division", code="round_already_paired")
    response = api.post(reverse("api-check-in", args=[day, _ids(day)["Ann Able"]]), {})
    refused(response, field="player_id", code="round_already_paired")


def test_a_move_before_the_first_pairing_and_its_refusal_after(api, director, day):
    ids = _ids(day)
    response = api.post(
        reverse("api-player-move", args=[day, ids["Flo Ford"]]), {"division": "B"}
    )
    assert response.status_code == 201, response.content
    moved = Player.objects.get(tournament_id=day, player_id=ids["Flo Ford"])
    assert (moved.division, moved.number) == ("B", 3)
    assert _audit(api, day)[-1]["summary"] == "Flo Ford moved to division B"
    assert TOURNAMENT_FIELDS["player_moved"] == ("player_id", "division")
    pairing_services.round_pair(
        tournament_id=day, division="A", round_=1, method="swiss", user=director
    )
    response = api.post(
        reverse("api-player-move", args=[day, ids["Ann Able"]]), {"division": "B"}
    )
    body = refused(response, field="player_id", code="player_already_paired")
    assert "only before their first pairing" in body["message"]
    assert Player.objects.get(player_id=ids["Ann Able"]).division == "A"


def test_a_move_in_the_console_names_a_wrong_division_on_its_field(director, day):
    client = Client()
    client.force_login(director)
    url = reverse("manage-players", args=[day, "A"])
    response = client.post(
        url, {"action": "move", "move-player": 2, "move-division": "Z"}
    )
    assert response.status_code == 400
    assert "There is no division" in response.content.decode()
    response = client.post(
        url, {"action": "move", "move-player": 2, "move-division": "B"}, follow=True
    )
    assert "Ben Baker now plays in division B." in response.content.decode()


def test_a_division_plays_fewer_rounds(api, director, day):
    response = api.post(reverse("api-division-rounds", args=[day, "B"]), {"rounds": 2})
    assert response.status_code == 201, response.content
    tournament = Tournament.objects.get(pk=day)
    assert (tournament.rounds_of("A"), tournament.rounds_of("B")) == (6, 2)
    public = APIClient().get(reverse("api-division", args=[day, "B"]))
    assert public.json()["rounds"] == 2
    page = Client().get(reverse("tournament-detail", args=[day])).content.decode()
    assert page.count("plays 2 rounds") == 1
    assert _audit(api, day)[-1]["summary"] == "Division B plays 2 rounds"
    for round_ in (1, 2):
        pairing_services.round_pair(
            tournament_id=day,
            division="B",
            round_=round_,
            method="swiss",
            user=director,
        )
        (game,) = round_games(day, round_, "B")
        results_services.result_record(
            tournament_id=day,
            round_=round_,
            player_a=game.first.player_id,
            player_b=game.second.player_id,
            score_a=420,
            score_b=380,
            user=director,
        )
    response = api.post(
        reverse("api-pair", args=[day, 3]),
        {"division": "B", "method": "swiss"},
        format="json",
    )
    body = refused(response, field="round")
    assert "division B" in body["message"]
    response = api.post(reverse("api-division-rounds", args=[day, "B"]), {"rounds": 1})
    refused(response, field="rounds", code="rounds_already_paired")
    response = api.post(reverse("api-division-rounds", args=[day, "B"]), {"rounds": 9})
    refused(response, field="rounds", code="invalid_setting")
    # The console shows each division's own count.
    client = Client()
    client.force_login(director)
    page = client.get(reverse("manage", args=[day])).content.decode()
    assert "2 of 2 rounds paired" in page
    assert "0 of 6 rounds paired" in page


def test_rounds_in_the_console(director, day):
    client = Client()
    client.force_login(director)
    url = reverse("manage-players", args=[day, "B"])
    response = client.post(url, {"action": "rounds", "rounds-rounds": "3"}, follow=True)
    assert "Division B plays 3 rounds." in response.content.decode()
    response = client.post(url, {"action": "rounds", "rounds-rounds": ""}, follow=True)
    assert "Division B plays the tournament&#x27;s rounds." in response.content.decode()
    assert Tournament.objects.get(pk=day).rounds_of("B") == 6


def test_scorecards_print_the_divisions_own_rounds(api, director, day):
    """A division of 2 rounds prints 2 rows a scorecard; the others, the
    tournament's 6."""
    api.post(reverse("api-division-rounds", args=[day, "B"]), {"rounds": 2})
    client = Client()
    client.force_login(director)
    counts = {}
    for division in ("A", "B"):
        text, _ = pdf_text(
            client.get(f"/tournaments/{day}/divisions/{division}/scorecards.pdf")
        )
        # The first card's rows: one line a round, under the table's heading.
        rows = text.split("Won–lost\n", 1)[1].split("\nWrite both", 1)[0]
        counts[division] = [int(line) for line in rows.split("\n")]
    assert counts == {"A": [1, 2, 3, 4, 5, 6], "B": [1, 2]}
