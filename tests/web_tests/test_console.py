"""The director console: creating a tournament, divisions, publication, players,
pairing, and who may use it."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.eventstore.models import StoredEvent
from tests.boards import board_of, round_alone, round_games
from tests.web_tests.conftest import ids_by_number, pair_by_hand
from tournaments.models import Player, Tournament
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db

CREATE = {
    "name": "Riverside Club Championship",
    "start_date": "2026-11-21",
    "end_date": "2026-11-21",
    "venue": "Library",
    "rounds": 7,
    "preset": "classic",
    "challenge_rule": "double",
    "ties": "",
    "bye_spread": 50,
    "forfeit_spread": 50,
    "spread_cap": "",
    "divisions": "A",
    "published": "on",
}

ELEVEN = "\n".join(
    [
        "Ann Able 1800 12345",
        "Ben Baker 1750",
        "Cy Cole, 1700",
        "Di Dane\t1650",
        "Ed Eames 1600",
        "Flo Fox 1550",
        "Gus Gray 1500",
        "Hal Hart 1450",
        "Ida Ives 1400",
        "Jo Jay 1350",
        "Kit Kay 0",
    ]
)


def events() -> int:
    return StoredEvent.objects.count()


# --- creating ---------------------------------------------------------------------


def test_a_director_creates_a_tournament(director_client):
    assert director_client.get(reverse("tournament-create")).status_code == 200
    response = director_client.post(reverse("tournament-create"), CREATE)
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("manage", args=[tournament.pk])
    assert tournament.rounds == 7
    assert tournament.challenge_rule == "double"
    assert tournament.divisions == ["A"]
    assert tournament.published
    assert not tournament.ties_are_draws


def test_creating_needs_a_sign_in(client):
    response = client.get(reverse("tournament-create"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"end_date": "2026-11-20"}, "end_date", "The end date is before the start"),
        ({"rounds": 0}, "rounds", "Ensure this value is greater than or equal to 1"),
        ({"divisions": " , "}, "divisions", "Name at least one division."),
        ({"divisions": "A, A"}, "divisions", "Each division name once."),
        ({"name": ""}, "name", "This field is required."),
        ({"bye_spread": 5000}, "bye_spread", "bye_spread must be from 0 to 1000."),
    ],
)
def test_a_refused_tournament_says_why_next_to_the_field(
    director_client, change, field, message
):
    response = director_client.post(reverse("tournament-create"), {**CREATE, **change})
    assert response.status_code == 400
    body = response.content.decode()
    assert f'id="id_{field}-error"' in body
    assert message in body
    assert not Tournament.objects.exists()


def test_the_console_adds_a_division_and_refuses_a_duplicate(director_client, club):
    url = reverse("manage", args=[club])
    body = director_client.get(url).content.decode()
    assert "Director console" in body
    response = director_client.post(url, {"action": "division", "name": "B"})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=club).divisions == ["A", "B"]
    before = events()
    response = director_client.post(url, {"action": "division", "name": "B"})
    assert response.status_code == 400
    assert "Division &#x27;B&#x27; already exists." in response.content.decode()
    assert events() == before


def test_the_console_publishes_and_unpublishes(director_client, club):
    url = reverse("manage", args=[club])
    director_client.post(url, {"action": "publish"})
    assert not Tournament.objects.get(pk=club).published
    director_client.post(url, {"action": "publish", "published": "on"})
    assert Tournament.objects.get(pk=club).published


def test_the_console_is_for_the_tournaments_directors_only(client, other_user, club):
    urls = [
        reverse("manage", args=[club]),
        reverse("manage-audit", args=[club]),
        reverse("manage-players", args=[club, "A"]),
        reverse("manage-pair", args=[club, "A"]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login"))
    client.force_login(other_user)
    for url in urls:
        assert client.get(url).status_code == 403, url
    before = events()
    client.post(reverse("manage", args=[club]), {"action": "division", "name": "X"})
    assert events() == before


# --- players ----------------------------------------------------------------------


@pytest.fixture
def empty(director):
    result = setup_services.tournament_create(
        user=director,
        name="Empty",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=7,
    )
    return result.stream.id


def players_post(client, tournament_id, action, data, files=None):
    payload = {"action": action}
    payload.update({f"{action}-{key}": value for key, value in data.items()})
    if files:
        payload.update({f"{action}-{key}": value for key, value in files.items()})
    return client.post(reverse("manage-players", args=[tournament_id, "A"]), payload)


def test_a_pasted_list_registers_players_in_order(director_client, empty):
    response = players_post(director_client, empty, "register", {"players": ELEVEN})
    assert response.status_code == 302
    players = list(Player.objects.filter(tournament_id=empty).order_by("number"))
    assert [p.name for p in players][:3] == ["Ann Able", "Ben Baker", "Cy Cole"]
    assert (players[0].rating, players[0].member_id) == (1800, "12345")
    assert players[3].rating == 1650
    assert len(players) == 11


def test_an_uploaded_list_registers_players(director_client, empty):
    upload = SimpleUploadedFile("players.txt", b"Ann Able 1800\nBen Baker 1750\n")
    response = players_post(
        director_client, empty, "register", {"players": ""}, {"file": upload}
    )
    assert response.status_code == 302
    assert Player.objects.filter(tournament_id=empty).count() == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ann Able\nBen Baker 1750", "Line 1 (&#x27;Ann Able&#x27;): no rating"),
        (
            "Ann Able 1800 123 extra",
            "after the rating only a member id and the career games",
        ),
        ("", "Paste the players or choose a file."),
        ("Ann Able -5", "rating must not be negative (0: unrated)."),
    ],
)
def test_a_bad_player_list_is_refused_and_nothing_is_stored(
    director_client, empty, text, message
):
    before = events()
    response = players_post(director_client, empty, "register", {"players": text})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert events() == before


def test_a_tsh_file_is_imported(director_client, empty):
    text = (
        "Smith, Ann 1500 2 3 4; 412 388 401\n"
        "Jones, Bob 1400 1 4 3; 350 420 377\n"
        "Chew, Cal 1300 4 1 2; 365 390 377\n"
        "Dee, Dot 1200 3 2 1; 399 300 380\n"
    )
    upload = SimpleUploadedFile("a.t", text.encode())
    response = players_post(director_client, empty, "tsh", {}, {"file": upload})
    assert response.status_code == 302
    assert Player.objects.filter(tournament_id=empty).count() == 4
    played = [game for round_ in (1, 2, 3) for game in round_games(empty, round_)]
    assert sum(game.has_result for game in played) == 6


def test_an_unreadable_tsh_file_is_refused_with_its_line(director_client, empty):
    upload = SimpleUploadedFile("a.t", b"Smith, Ann 1500 2; 4-00\n")
    before = events()
    response = players_post(director_client, empty, "tsh", {}, {"file": upload})
    assert response.status_code == 400
    assert "line 1" in response.content.decode().lower()
    assert events() == before


def test_withdraw_and_reactivate_a_player(director_client, paired):
    response = players_post(
        director_client,
        paired,
        "withdraw",
        {"player": 3, "from_round": 2, "policy": "forfeit"},
    )
    assert response.status_code == 302
    assert Player.objects.get(tournament_id=paired, number=3).withdrawn
    response = players_post(
        director_client, paired, "reactivate", {"player": 3, "from_round": 4}
    )
    assert response.status_code == 302
    assert not Player.objects.get(tournament_id=paired, number=3).withdrawn


def test_a_withdrawal_of_an_unknown_player_or_round_is_refused(director_client, paired):
    response = players_post(
        director_client,
        paired,
        "withdraw",
        {"player": 40, "from_round": 2, "policy": "forfeit"},
    )
    assert response.status_code == 400
    assert "No player number 40 in this division." in response.content.decode()
    response = players_post(
        director_client,
        paired,
        "withdraw",
        {"player": 3, "from_round": 9, "policy": "forfeit"},
    )
    assert response.status_code == 400
    assert 'id="id_withdraw-from_round-error"' in response.content.decode()
    assert "Round must be a whole number from 1 to 7" in response.content.decode()


def test_a_withdrawn_players_later_rounds_are_forfeits(director_client, paired):
    players_post(
        director_client,
        paired,
        "withdraw",
        {"player": 11, "from_round": 2, "policy": "forfeit"},
    )
    pair_by_hand(
        paired,
        Tournament.objects.get(pk=paired).directors.get().user,
        2,
        [(1, 1, 2), (2, 3, 4), (3, 5, 6), (4, 7, 8), (5, 9, 10)],
    )
    body = director_client.get(
        reverse("standings-after", args=[paired, "A", 2])
    ).content.decode()
    table = body[body.index("<tbody>") :]
    kit = next(row for row in table.split("<tr") if "Kit Kay" in row)
    assert "withdrawn" in kit
    assert "1-1" in kit  # the round 1 bye, then a forfeit loss


def test_linking_a_players_account(director_client, paired, player_user):
    response = players_post(
        director_client, paired, "link", {"player": 1, "username": "dev"}
    )
    assert response.status_code == 302
    assert Player.objects.get(tournament_id=paired, number=1).user == player_user
    response = players_post(
        director_client, paired, "link", {"player": 1, "username": "nobody"}
    )
    assert response.status_code == 400
    assert "No user is called &#x27;nobody&#x27;." in response.content.decode()


# --- pairing ----------------------------------------------------------------------


def pair_post(client, tournament_id, **data):
    return client.post(reverse("manage-pair", args=[tournament_id, "A"]), data)


def test_round_1_paired_by_the_system_shows_who_goes_first(director_client, club):
    response = pair_post(director_client, club, round=1, method="swiss", manual="")
    assert response.status_code == 302
    page = director_client.get(response["Location"]).content.decode()
    assert "Round 1 as paired" in page
    assert page.count('title="goes first"') == 5
    assert ">bye<" in page
    assert len(round_games(club, 1)) == 5
    assert [bye.first.kind for bye in round_alone(club, 1)] == ["bye"]


def test_a_round_paired_by_hand(director_client, club):
    manual = "1 1 2\n2 3 4\n3 5 6\n4 7 8\n5 9 10\nbye 11"
    response = pair_post(director_client, club, round=1, method="manual", manual=manual)
    assert response.status_code == 302
    first = board_of(club, 1, 1)
    ids = ids_by_number(club)
    assert (first.first.player_id, first.second.player_id) == (ids[1], ids[2])


@pytest.mark.parametrize(
    ("manual", "message"),
    [
        (
            "1 1 2\n2 3",
            "Line 2 (&#x27;2 3&#x27;): write &quot;board first second&quot;",
        ),
        ("1 1 40", "Line 1: no player number 40."),
        ("1 1 2\n2 1 3", "Ann Able is paired more than once in round 1."),
        ("", "Write at least one board or bye."),
    ],
)
def test_a_bad_hand_pairing_is_refused(director_client, club, manual, message):
    before = events()
    response = pair_post(director_client, club, round=1, method="manual", manual=manual)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert events() == before


def test_a_round_with_results_cannot_be_paired_again(director_client, paired):
    ids = ids_by_number(paired)
    results_services.result_record(
        tournament_id=paired,
        round_=1,
        player_a=ids[1],
        player_b=ids[2],
        score_a=400,
        score_b=300,
        user=Tournament.objects.get(pk=paired).directors.get().user,
    )
    response = pair_post(director_client, paired, round=1, method="swiss", manual="")
    assert response.status_code == 400
    assert "Round 1 already has results; amend results instead" in (
        response.content.decode()
    )


def test_pairing_a_round_out_of_order_is_refused(director_client, club):
    response = pair_post(director_client, club, round=3, method="swiss", manual="")
    assert response.status_code == 400
    assert "Round 2 of division A is not paired yet." in response.content.decode()
