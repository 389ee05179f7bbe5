"""The tournaments API: status codes, field errors, rights and versions."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from tests.boards import round_games
from tests.refusals import refused
from tournaments.models import Player
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def anon():
    return APIClient()


def url(tournament_id, rest=""):
    return f"/api/tournaments/{tournament_id}/{rest}"


def events_of(tournament_id):
    return StoredEvent.objects.filter(stream_id=tournament_id).count()


@pytest.mark.django_db
def test_a_director_creates_a_tournament_and_registers_players(api):
    response = api.post(
        "/api/tournaments/",
        {
            "name": "Riverside",
            "start_date": "2026-11-21",
            "rounds": 7,
            "challenge_rule": "double",
            "divisions": ["A", "B"],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["divisions"] == ["A", "B"]
    assert body["challenge_rule"] == "double"
    response = api.post(
        url(body["id"], "players/"),
        {
            "division": "B",
            "players": [{"name": "Ann", "rating": 1500}, {"name": "Ben"}],
            "expected_version": body["version"],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["events"] == ["player_registered"] * 2
    players = api.get(url(body["id"], "players/?division=B")).json()
    assert [(p["name"], p["number"]) for p in players] == [("Ann", 1), ("Ben", 2)]


@pytest.mark.django_db
def test_bad_input_is_a_400_naming_the_field(api, club):
    response = api.post(url(club, "rounds/1/pair"), {"division": "A"}, format="json")
    refused(response, field="method", code="required")
    response = api.post(
        url(club, "results"),
        {"round": -1, "player_a": "x", "player_b": "y", "score_a": 1, "score_b": 2},
        format="json",
    )
    refused(response, field="round", code="min_value")


@pytest.mark.django_db
def test_a_player_paired_twice_in_a_round_is_refused(api, club):
    ids = list(
        Player.objects.filter(tournament_id=club).values_list("player_id", flat=True)
    )
    before = events_of(club)
    response = api.post(
        url(club, "rounds/1/pair"),
        {
            "division": "A",
            "method": "manual",
            "games": [
                {"board": 1, "first": ids[0], "second": ids[1]},
                {"board": 2, "first": ids[0], "second": ids[2]},
            ],
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "player_paired_twice"
    assert events_of(club) == before


@pytest.mark.django_db
def test_a_score_for_an_unpaired_game_is_a_400(api, club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    games = round_games(club, 1)
    before = events_of(club)
    response = api.post(
        url(club, "results"),
        {
            "round": 1,
            "player_a": games[0].first.player_id,
            "player_b": games[1].first.player_id,
            "score_a": 400,
            "score_b": 350,
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "game_not_paired"
    assert events_of(club) == before


@pytest.mark.django_db
def test_results_standings_and_scorecard_round_trip(api, anon, club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    game = round_games(club, 1)[0]
    response = api.post(
        url(club, "results"),
        {
            "round": 1,
            "player_a": game.second.player_id,
            "player_b": game.first.player_id,
            "score_a": 420,
            "score_b": 380,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    standings = anon.get(url(club, "standings?division=A&after_round=1")).json()
    row = next(
        r for r in standings["standings"] if r["player"] == game.second.player_id
    )
    assert (row["wins"], row["spread"], row["record"]) == (1, 40, "1-0")
    card = anon.get(url(club, f"players/{game.first.player_id}/scorecard")).json()
    assert card["rounds"][0]["result"] == "loss"
    assert card["rounds"][0]["went_first"] is True
    assert (card["rounds"][0]["own_score"], card["rounds"][0]["opponent_score"]) == (
        380,
        420,
    )


@pytest.mark.django_db
def test_a_stale_version_is_a_409_with_the_current_version(api, club):
    version = api.get(url(club)).json()["version"]
    first = api.post(
        url(club, "rounds/1/pair"),
        {"division": "A", "method": "swiss", "expected_version": version},
        format="json",
    )
    assert first.status_code == 201
    second = api.post(
        url(club, "rounds/1/pair"),
        {"division": "A", "method": "swiss", "expected_version": version},
        format="json",
    )
    assert second.status_code == 409
    assert second.json()["current_version"] == version + 1


@pytest.mark.django_db
def test_writes_need_a_director(club, other_user, anon):
    client = APIClient()
    client.force_authenticate(other_user)
    before = events_of(club)
    response = client.post(
        url(club, "rounds/1/pair"), {"division": "A", "method": "swiss"}, format="json"
    )
    assert response.status_code == 403
    response = anon.post(
        url(club, "rounds/1/pair"), {"division": "A", "method": "swiss"}, format="json"
    )
    assert response.status_code in (401, 403)
    assert events_of(club) == before
    assert client.get(url(club, "audit")).status_code == 403


@pytest.mark.django_db
def test_an_unpublished_tournament_is_hidden_from_others(api, anon, club, director):
    setup_services.tournament_publish(
        tournament_id=club, published=False, user=director
    )
    assert anon.get(url(club)).status_code == 404
    assert anon.get(url(club, "standings")).status_code == 404
    assert api.get(url(club)).status_code == 200
    assert str(club) not in str(anon.get("/api/tournaments/").json())


@pytest.mark.django_db
def test_the_audit_log_shows_who_amended_what(api, club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    game = round_games(club, 1)[0]
    results_services.result_record(
        tournament_id=club,
        round_=1,
        player_a=game.first.player_id,
        player_b=game.second.player_id,
        score_a=400,
        score_b=300,
        user=director,
    )
    results_services.result_amend(
        tournament_id=club,
        round_=1,
        player_a=game.first.player_id,
        player_b=game.second.player_id,
        score_a=300,
        score_b=400,
        reason="slip misread",
        user=director,
    )
    log = api.get(url(club, "audit")).json()
    amended = log[-1]
    assert amended["event_type"] == "result_amended"
    assert amended["recorded_by"] == "mara"
    assert amended["supersedes"]["score_a"] == 400
    assert amended["payload"]["reason"] == "slip misread"
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))


@pytest.mark.django_db
def test_a_t_file_imports_a_whole_division(api, director):
    created = setup_services.tournament_create(
        user=director,
        name="Imported",
        start_date="2026-01-10",
        end_date="2026-01-10",
        rounds=2,
    )
    tid = created.stream.id
    text = (
        "Ann Able 1500 2 3; 400 410\n"
        "Ben Baker 1400 1 0; 350 50\n"
        "Cy Cole 1300 0 1; 50 300\n"
    )

    response = api.post(
        url(tid, "import/tsh"),
        {"division": "A", "file": SimpleUploadedFile("a.t", text.encode())},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    standings = api.get(url(tid, "standings?division=A")).json()
    assert standings["after_round"] == 2
    ann = next(r for r in standings["standings"] if r["name"] == "Ann Able")
    assert (ann["wins"], ann["spread"]) == (2, 160)


@pytest.mark.django_db
def test_the_openapi_schema_lists_the_tournament_endpoints(anon):
    response = anon.get("/api/schema/?format=json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/tournaments/{tournament_id}/standings" in paths
    assert "/api/tournaments/{tournament_id}/results" in paths


@pytest.mark.django_db
def test_a_result_changes_only_its_own_divisions_pages(api, director):
    club = setup_services.tournament_create(
        user=director,
        name="Two Divisions Open",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=3,
        divisions=["A", "B"],
    ).stream.id
    for division, names in (("A", ["Ann", "Ben", "Cy"]), ("B", ["Lu", "Mo"])):
        players_services.players_register(
            tournament_id=club,
            division=division,
            entries=[(name, 1500, "") for name in names],
            user=director,
        )
        pairing_services.round_pair(
            tournament_id=club,
            division=division,
            round_=1,
            method="swiss",
            user=director,
        )
    pages = {
        "A standings": url(club, "standings?division=A"),
        "B standings": url(club, "standings?division=B"),
    }
    b_player = Player.objects.get(tournament_id=club, division="B", number=1)
    pages["B scorecard"] = url(club, f"players/{b_player.player_id}/scorecard")
    game = round_games(club, 1)[0]
    pages["A scorecard"] = url(club, f"players/{game.first.player_id}/scorecard")
    before = {name: api.get(page) for name, page in pages.items()}
    response = api.post(
        url(club, "results"),
        {
            "round": 1,
            "player_a": game.first.player_id,
            "player_b": game.second.player_id,
            "score_a": 401,
            "score_b": 399,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    for name, page in pages.items():
        assert before[name].status_code == 200, name
        etag = before[name]["ETag"]
        again = api.get(page, HTTP_IF_NONE_MATCH=etag)
        # Division B's pages are still valid (a 304); division A's are not.
        assert again.status_code == (304 if name.startswith("B") else 200), name
    standings = api.get(pages["A standings"]).json()["standings"]
    winner = next(row for row in standings if row["player"] == game.first.player_id)
    assert (winner["wins"], winner["spread"]) == (1, 2)
