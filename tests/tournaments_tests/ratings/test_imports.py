"""Importing a .TOU file and a ratings list through the API: what they record, the
round trip .TOU -> import -> export, and the refusals (nothing stored)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from rules.ratings import RatedGame, RatedPlayer, rate_event
from rules.tou import read_records, read_tou
from tests.refusals import refused
from tests.tournaments_tests.harbour import HARBOUR, RATINGS, create_harbour
from tournaments.models import Player
from tournaments.players import services


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def harbour(director):
    return create_harbour(director)


def upload(api, tid, what, content, **data):
    return api.post(
        f"/api/tournaments/{tid}/import/{what}",
        {"file": SimpleUploadedFile("upload", content), **data},
        format="multipart",
    )


def stored(tid):
    return StoredEvent.objects.filter(stream_id=tid).count()


def players(tid):
    return {
        p.name: p
        for p in Player.objects.filter(tournament_id=tid).order_by("division", "number")
    }


# .TOU -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_tou_import_exports_back_byte_for_byte(api, harbour):
    """Players, pairings with who went first, results, a draw, a bye, a forfeit
    loss, a missed game and a division the tournament lacked: the exported file is
    the imported one."""
    response = upload(api, harbour, "tou", HARBOUR)
    assert response.status_code == 201, response.json()
    assert "division_added" in response.json()["events"]
    exported = api.get(f"/api/tournaments/{harbour}/export/tournament.tou")
    assert exported.status_code == 200
    assert exported.content == HARBOUR
    text = HARBOUR.decode("ascii")
    assert read_records(read_tou(exported.content.decode())) == read_records(
        read_tou(text)
    )


@pytest.mark.django_db
def test_a_tou_import_records_what_the_standings_show(api, harbour):
    upload(api, harbour, "tou", HARBOUR)
    standings = api.get(f"/api/tournaments/{harbour}/standings?division=Open").json()
    rows = {row["name"]: row for row in standings["standings"]}
    assert (rows["Ann Able"]["wins"], rows["Ann Able"]["spread"]) == (2, 110)
    # Di: a draw, a forfeit loss of the tournament's 50, a loss by 130.
    di = rows["Di Dane"]
    assert (di["wins"], di["losses"], di["draws"], di["spread"]) == (0, 2, 1, -180)
    # Ed: the bye's 50, a loss by 30, then nothing in round 3.
    ed = rows["Ed Eames"]
    assert (ed["wins"], ed["losses"], ed["spread"]) == (1, 1, 20)
    pairings = api.get(f"/api/tournaments/{harbour}/rounds/2/pairings?division=Open")
    firsts = {
        (p["first"]["name"], p["second"]["name"])
        for p in pairings.json()
        if p["second"] is not None
    }
    assert ("Cy Cole", "Ann Able") in firsts


# A file with what real WESPA-rated files hold: no + markers at all, a half-bye
# (Ann, round 2) and a win at equal scores (Ben over Cy, 380-380, round 2).
ODD = (
    "*M14.02.2027 Harbour Cup\r\n*Open\r\n" + "0".rjust(39) + "\r\n"
    "Ann Able            "
    " 2400   2 1350   1\r\n"
    "Ben Baker           "
    "  350   1 2380   3\r\n"
    "Cy Cole             "
    " 2050   3  380   2\r\n"
    "*** END OF FILE ***\r\n"
).encode("ascii")


@pytest.mark.django_db
def test_a_tou_with_half_byes_tie_wins_and_no_markers_imports_flagged(
    api, harbour, client, director
):
    """Nothing refused: each oddity is in the import's notes and the audit, the
    standings count the half-bye and the tie-win, and the export is the file."""
    response = upload(api, harbour, "tou", ODD)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert {"round_awarded", "tie_win_recorded"} <= set(body["events"])
    assert any("half-bye" in note for note in body["notes"])
    assert any("equal scores" in note for note in body["notes"])
    standings = api.get(f"/api/tournaments/{harbour}/standings?division=Open").json()
    rows = {row["name"]: row for row in standings["standings"]}
    assert (rows["Ann Able"]["wins"], rows["Ann Able"]["draws"]) == (1, 1)
    assert (rows["Ben Baker"]["wins"], rows["Ben Baker"]["losses"]) == (1, 1)
    exported = api.get(f"/api/tournaments/{harbour}/export/tournament.tou")
    assert exported.content == ODD
    audit = api.get(f"/api/tournaments/{harbour}/audit").json()
    entries = audit if isinstance(audit, list) else audit["results"]
    summaries = " | ".join(entry["summary"] for entry in entries)
    assert "Ann Able awarded a half (half-bye)" in summaries
    assert "Ben Baker beat Cy Cole on a tie" in summaries
    noted = [note for entry in entries for note in entry["notes"]]
    assert noted == body["notes"]
    client.force_login(director)
    page = client.get(reverse("manage-audit", args=[harbour]))
    assert page.status_code == 200
    assert "Import: line 4:" in page.content.decode()


@pytest.mark.django_db
def test_a_bad_tou_file_is_a_400_naming_the_line_and_stores_nothing(api, harbour):
    before = stored(harbour)
    bad = HARBOUR.replace(b" 2390  +5", b" 23x0  +5")
    response = upload(api, harbour, "tou", bad)
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["field"]) == ("tou_syntax", "file")
    assert body["message"].startswith("line 5:")
    assert stored(harbour) == before


@pytest.mark.django_db
def test_only_directors_import(harbour, other_user):
    client = APIClient()
    client.force_authenticate(other_user)
    assert upload(client, harbour, "tou", HARBOUR).status_code == 403
    assert upload(client, harbour, "ratings-list", RATINGS).status_code == 403


# Ratings list -----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_ratings_list_sets_ratings_and_career_games_before_round_1(api, director):
    """Before any result: the list's ratings and career games, matched by name
    (the players have no membership ids); Gus is not on the list."""
    tid = create_harbour(director, divisions=("Open", "Reserve"))
    names = ["Ann Able", "Ben Baker", "Cy Cole", "Di Dane", "Ed Eames"]
    services.players_register(
        tournament_id=tid,
        division="Open",
        entries=[(n, 0, "") for n in names],
        user=director,
    )
    services.players_register(
        tournament_id=tid,
        division="Reserve",
        entries=[("Flo Fox", 0, ""), ("Gus Gray", 0, "")],
        user=director,
    )
    response = upload(api, tid, "ratings-list", RATINGS)
    assert response.status_code == 201, response.json()
    body = response.json()
    # Everyone but Gus: Di's 0 career games are news too (they were unknown).
    assert len(body["updated"]) == 6
    assert [p["name"] for p in body["unmatched"]] == ["Gus Gray"]
    found = players(tid)
    assert (found["Ann Able"].rating, found["Ann Able"].career_games) == (1720, 412)
    assert (found["Cy Cole"].rating, found["Cy Cole"].career_games) == (1580, None)
    again = upload(api, tid, "ratings-list", RATINGS)
    assert again.status_code == 200
    assert (again.json()["events"], again.json()["updated"]) == ([], [])


@pytest.mark.django_db
def test_a_ratings_list_for_one_division(api, harbour):
    upload(api, harbour, "tou", HARBOUR)
    # Results exist in both divisions, so only a check of the division parameter:
    response = upload(api, harbour, "ratings-list", RATINGS, division="Nowhere")
    refused(response, field="division")


@pytest.mark.django_db
def test_a_ratings_list_is_refused_once_the_division_has_results(api, harbour):
    upload(api, harbour, "tou", HARBOUR)
    before = stored(harbour)
    response = upload(api, harbour, "ratings-list", RATINGS)
    assert response.status_code == 400
    assert response.json()["code"] == "division_has_results"
    assert stored(harbour) == before


@pytest.mark.django_db
def test_a_bad_ratings_list_is_a_400_naming_the_line(api, harbour):
    response = upload(api, harbour, "ratings-list", b"NA1,Ann Able,high,3\n")
    assert response.status_code == 400
    assert response.json()["code"] == "ratings_list_syntax"
    assert response.json()["message"].startswith("line 1:")


@pytest.mark.django_db
def test_a_tou_import_with_a_ratings_list_registers_the_players_rated(api, harbour):
    """A .TOU has no ratings: with the ratings body's list the players are
    registered with its membership ids, ratings and career games (by name), and
    the estimates are rules.ratings' for those numbers (Ben's 38 career games
    give him the provisional multiplier)."""
    response = upload(
        api,
        harbour,
        "tou",
        HARBOUR,
        ratings_list=SimpleUploadedFile("list.csv", RATINGS),
    )
    assert response.status_code == 201, response.json()
    found = players(harbour)
    ann = found["Ann Able"]
    assert (ann.member_id, ann.rating, ann.career_games) == ("NA101", 1720, 412)
    assert (found["Gus Gray"].rating, found["Gus Gray"].member_id) == (0, "")
    ratings = [1720, 1650, 1580, 0, 1490]
    careers = [412, 38, None, 0, 1200]
    games = [
        RatedGame(1, 1, 2, 1.0),
        RatedGame(1, 3, 4, 0.5),
        RatedGame(2, 1, 3, 0.0),
        RatedGame(2, 2, 5, 1.0),
        RatedGame(3, 1, 4, 1.0),
        RatedGame(3, 2, 3, 1.0),
    ]
    rated = [
        RatedPlayer(number, rating, career)
        for number, (rating, career) in enumerate(
            zip(ratings, careers, strict=True), start=1
        )
    ]
    expect = rate_event(rated, games, rounds=3)
    assert expect[2].segments[0].multiplier == 30
    rows = api.get(
        "/api/ratings/players", {"tournament": harbour, "division": "Open"}
    ).json()["results"]
    assert {row["name"]: row["new_rating"] for row in rows} == {
        name: expect[number].new
        for number, name in enumerate(
            ["Ann Able", "Ben Baker", "Cy Cole", "Di Dane", "Ed Eames"], start=1
        )
    }


@pytest.mark.django_db
def test_a_tou_round_in_which_no_one_played_imports_and_shows(api, harbour):
    blank = (
        "*M14.02.2027 Harbour Cup\r\n*Open\r\n" + "0".rjust(39) + "\r\n"
        "Ann Able            "
        " 2400  +2" + " " * 9 + "  380   2\r\n"
        "Ben Baker           "
        "  350   1" + " " * 9 + " 2390  +1\r\n"
        "*** END OF FILE ***\r\n"
    ).encode("ascii")
    response = upload(api, harbour, "tou", blank)
    assert response.status_code == 201, response.json()
    assert any("no game was played" in note for note in response.json()["notes"])
    pairings = api.get(f"/api/tournaments/{harbour}/rounds/2/pairings?division=Open")
    assert pairings.status_code == 200
    assert pairings.json() == []
    standings = api.get(f"/api/tournaments/{harbour}/standings?division=Open").json()
    rows = {row["name"]: row for row in standings["standings"]}
    assert (rows["Ben Baker"]["wins"], rows["Ben Baker"]["spread"]) == (1, -40)
    assert api.get(f"/tournaments/{harbour}/").status_code == 200
    assert api.get(f"/tournaments/{harbour}/ratings").status_code == 200
