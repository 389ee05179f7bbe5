"""Submission files of a tournament driven through the services, against golden files.

The tournament (``drive_open``) has everything a ratings body must see handled: a
bye every round, a forfeit entered by the director, a paired game turned into a
forfeit by a withdrawal and a later round the withdrawn player is left out of, a tie
decided by the scores before the end-of-game adjustments, a draw (equal on those
too), an amended result, an unrated player, a non-ASCII name and two divisions.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.refusals import refused
from tournaments.models import Player
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services

GOLDEN = Path(__file__).parents[1] / "golden"

PLAYERS_A = [
    ("Ann Able", 1800, "NA1001"),
    ("Ben Baker", 1700, "NA1002"),
    ("Cy Cole", 1600, "NA1003"),
    ("Di Dane", 1500, ""),
    ("Zoë Zane", 0, ""),
]
PLAYERS_B = [("Kay Kim", 1500, "NA2001"), ("Lee Lin", 1400, "")]


@dataclass(frozen=True)
class Open:
    """The driven tournament: its id and its players' internal ids by first name."""

    tournament_id: object
    ids: dict[str, str]


def drive_open(director, *, published: bool = True) -> Open:
    """Run "Riverside Ratings Open" (5 rounds, divisions A and B) through services."""
    tid = setup_services.tournament_create(
        user=director,
        name="Riverside Ratings Open",
        start_date="2026-11-21",
        end_date="2026-11-22",
        rounds=5,
        venue="Riverside Library",
        divisions=("A", "B"),
        published=published,
    ).stream.id
    players_services.players_register(
        tournament_id=tid, division="A", entries=PLAYERS_A, user=director
    )
    players_services.players_register(
        tournament_id=tid, division="B", entries=PLAYERS_B, user=director
    )
    ids = {
        name.split()[0]: player_id
        for name, player_id in Player.objects.filter(tournament_id=tid).values_list(
            "name", "player_id"
        )
    }
    ann, ben, cy, di, zoe = (ids[n] for n in ("Ann", "Ben", "Cy", "Di", "Zoë"))

    def pair(round_, games, byes=(), division="A"):
        pairing_services.round_pair(
            tournament_id=tid,
            division=division,
            round_=round_,
            method="manual",
            games=[(board, a, b) for board, (a, b) in enumerate(games, start=1)],
            byes=byes,
            user=director,
        )

    def result(round_, a, b, score_a, score_b, **pre):
        results_services.result_record(
            tournament_id=tid,
            round_=round_,
            player_a=a,
            player_b=b,
            score_a=score_a,
            score_b=score_b,
            user=director,
            **pre,
        )

    pair(1, [(ann, ben), (cy, di)], byes=[zoe])
    result(1, ann, ben, 420, 380)
    # Tied at 400: Di was ahead before the end-of-game adjustments, so Di wins.
    result(1, cy, di, 400, 400, pre_adjustment_a=390, pre_adjustment_b=395)
    pair(1, [(ids["Kay"], ids["Lee"])], division="B")
    result(1, ids["Kay"], ids["Lee"], 400, 350)
    pair(2, [(ben, cy), (di, zoe)], byes=[ann])
    # Tied on both: a draw even under the classic rule.
    result(2, ben, cy, 360, 360, pre_adjustment_a=350, pre_adjustment_b=350)
    result(2, di, zoe, 410, 300)
    # Mara misread the round-1 slip: Ben had 390.
    results_services.result_amend(
        tournament_id=tid,
        round_=1,
        player_a=ann,
        player_b=ben,
        score_a=420,
        score_b=390,
        reason="slip misread",
        user=director,
    )
    pair(3, [(ann, cy), (zoe, ben)], byes=[di])
    results_services.forfeit_record(
        tournament_id=tid, round_=3, absentee=cy, user=director
    )
    result(3, zoe, ben, 390, 385)
    pair(4, [(ann, di), (cy, zoe)], byes=[ben])
    # Di leaves after round 3: the paired round-4 game becomes a forfeit.
    players_services.player_withdraw(
        tournament_id=tid, player_id=di, from_round=4, user=director
    )
    result(4, cy, zoe, 380, 390)
    pair(5, [(ben, ann), (zoe, cy)])
    result(5, ben, ann, 400, 410)
    result(5, zoe, cy, 360, 400)
    return Open(tid, ids)


@pytest.fixture
def riverside_open(director):
    return drive_open(director)


def export(client, tournament_id, name, **params):
    return client.get(f"/api/tournaments/{tournament_id}/export/{name}", params)


def golden(name: str, content: bytes) -> bytes:
    """The golden file's bytes; ``UPDATE_GOLDEN=1`` rewrites it from ``content``."""
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(content)
    return path.read_bytes()


@pytest.mark.django_db
def test_the_naspa_t_file_matches_the_golden_file(riverside_open):
    """Every division, each after its #division line; forfeits and byes are
    opponent 0 with the signed spread, the withdrawn player's later rounds -50."""
    response = export(APIClient(), riverside_open.tournament_id, "naspa.t")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="riverside-ratings-open.t"'
    )
    assert response.content == golden("riverside_ratings_open.t", response.content)


@pytest.mark.django_db
def test_the_naspa_t_file_of_one_division_is_that_block_alone(riverside_open):
    client = APIClient()
    whole = export(client, riverside_open.tournament_id, "naspa.t").content.decode()
    response = export(client, riverside_open.tournament_id, "naspa.t", division="B")
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('riverside-ratings-open-b.t"')
    text = response.content.decode()
    assert text == (
        "#division B\nKay Kim 1500 2; 400; naspa NA2001\nLee Lin 1400 1; 350\n"
    )
    assert whole.endswith(text)


@pytest.mark.django_db
def test_the_naspa_t_file_can_say_who_went_first(riverside_open):
    response = export(
        APIClient(), riverside_open.tournament_id, "naspa.t", division="B", firsts=1
    )
    assert response.content.decode().splitlines()[1] == (
        "Kay Kim 1500 2; 400; p12 1; naspa NA2001"
    )


@pytest.mark.django_db
def test_an_unknown_division_is_a_400(riverside_open):
    response = export(
        APIClient(), riverside_open.tournament_id, "naspa.t", division="Z"
    )
    refused(response, field="division")


@pytest.mark.django_db
def test_the_tou_file_matches_the_golden_file(riverside_open):
    """ASCII with CRLF ends; wins +2000, draws +1000; against oneself, byes and
    forfeit wins in the win band (2050), forfeit losses as -50; the tie won on
    pre-adjustment scores is a win for Di."""
    response = export(APIClient(), riverside_open.tournament_id, "tournament.tou")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=us-ascii"
    assert response["Content-Disposition"] == (
        'attachment; filename="riverside-ratings-open.TOU"'
    )
    assert b"\r\n" in response.content
    assert response.content == golden("riverside_ratings_open.TOU", response.content)


@pytest.mark.django_db
def test_the_absp_csv_matches_the_golden_file(riverside_open):
    """Played games only, the amended score, names in UTF-8."""
    response = export(APIClient(), riverside_open.tournament_id, "absp.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="riverside-ratings-open-absp.csv"'
    )
    assert response.content == golden(
        "riverside_ratings_open_absp.csv", response.content
    )


@pytest.mark.django_db
def test_the_files_follow_an_amendment(riverside_open, director):
    """The files are replays: amend a result and the next download shows it."""
    ids = riverside_open.ids
    results_services.result_amend(
        tournament_id=riverside_open.tournament_id,
        round_=5,
        player_a=ids["Zoë"],
        player_b=ids["Cy"],
        score_a=450,
        score_b=400,
        user=director,
    )
    client = APIClient()
    t_file = export(client, riverside_open.tournament_id, "naspa.t").content.decode()
    assert "Cy Cole 1600 4 2 0 5 5; 400 360 -50 380 400" in t_file
    assert "Zoë Zane 0 0 4 2 3 3; 50 300 390 390 450" in t_file
    absp = export(client, riverside_open.tournament_id, "absp.csv").content.decode()
    assert "A,5,Zoë Zane,450,Cy Cole,400\r\n" in absp


@pytest.mark.django_db
def test_a_round_without_all_its_results_cannot_be_written_to_a_tou(
    riverside_open, director
):
    """The .TOU and ABSP writers need every paired game scored: a 400 naming the
    round; the .t file simply ends each line at the first missing score."""
    ids = riverside_open.ids
    pairing_services.round_pair(
        tournament_id=riverside_open.tournament_id,
        division="B",
        round_=2,
        method="manual",
        games=[(1, ids["Lee"], ids["Kay"])],
        user=director,
    )
    client = APIClient()
    for name in ("tournament.tou", "absp.csv"):
        response = export(client, riverside_open.tournament_id, name)
        assert response.status_code == 400, name
        assert response.json()["code"] == "incomplete_game"
        # Issue 32: the message names the round, the board and the players.
        assert response.json()["message"] == (
            "Division B, round 2, board 1: Lee Lin v Kay Kim has no result yet."
            " Enter it (or a forfeit) before writing this file."
        ), name
    response = export(client, riverside_open.tournament_id, "naspa.t", division="B")
    assert response.status_code == 200
    assert response.content.decode() == (
        "#division B\nKay Kim 1500 2 2; 400; naspa NA2001\nLee Lin 1400 1 1; 350\n"
    )


@pytest.mark.django_db
def test_the_files_of_an_unpublished_tournament_are_for_its_directors(director):
    hidden = drive_open(director, published=False)
    for name in ("naspa.t", "tournament.tou", "absp.csv"):
        assert export(APIClient(), hidden.tournament_id, name).status_code == 404
    client = APIClient()
    client.force_authenticate(director)
    response = export(client, hidden.tournament_id, "naspa.t")
    assert response.status_code == 200
    assert response.content == (GOLDEN / "riverside_ratings_open.t").read_bytes()


@pytest.mark.django_db
def test_a_client_that_accepts_only_text_gets_the_file(riverside_open):
    response = APIClient().get(
        f"/api/tournaments/{riverside_open.tournament_id}/export/naspa.t",
        HTTP_ACCEPT="text/plain",
    )
    assert response.status_code == 200
    assert response.content.startswith(b"#division A\n")


@pytest.mark.django_db
def test_a_tie_won_on_the_tie_break_is_told_the_same_way_everywhere(riverside_open):
    """Di beat Cy 400-400 on the scores before the adjustments (round 1): the
    standings count Di's win; the ratings record and every estimate a draw (the
    bodies rate the final scores), and the page says so per rating system; the
    .TOU keeps the win band, the .t says in a note that it reads as a draw."""
    client = APIClient()
    tid = riverside_open.tournament_id
    standings = client.get(
        f"/api/tournaments/{tid}/standings", {"division": "A", "after_round": 1}
    ).json()
    di = next(row for row in standings["standings"] if row["name"] == "Di Dane")
    assert (di["wins"], di["draws"]) == (1, 0)
    rated = client.get("/api/ratings/players", {"tournament": tid}).json()
    rows = rated if isinstance(rated, list) else rated["results"]
    di_rated = next(row for row in rows if row["name"] == "Di Dane")
    cy_rated = next(row for row in rows if row["name"] == "Cy Cole")
    assert (di_rated["wins"], di_rated["draws"]) == (1, 1)  # round 2's win, the tie
    assert cy_rated["draws"] == 2  # the tie of round 1, the draw of round 2
    page = client.get(f"/tournaments/{tid}/ratings", {"division": "A"})
    text = page.content.decode()
    assert "Round 1: Di Dane beat Cy Cole 400–400" in text
    assert "WESPA rates it as a draw" in text
    assert "NASPA rates it as a draw" in text
    tou = export(client, tid, "tournament.tou").content.decode("ascii")
    di_line = next(line for line in tou.splitlines() if line.startswith("Di Dane"))
    assert di_line[20:29] == " 2400   3"
    naspa = export(client, tid, "naspa.t").content.decode()
    assert "# note: round 1: Di Dane beat Cy Cole on a tie" in naspa
