"""Issue 18 through the API and the pages: tsh's ranking, the pre-event order, .t
imports that keep everything and export it back, config.tsh, duplicate players."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from tournaments.models import Player, Tournament

DIVISION_A = (
    "O'Brien, Seán Jr. 1500+1480+0 2 3 0; 410 380 50; class A; lifeg 312;"
    " naspa AA100234; team North; p12 1 2 0\n"
    "Quinn, Mara 1620.5 1 0 3; 400 -50 390; p12 2 0 1; newr 1608\n"
    "Zhou, Lin 1700 0 1 2; 0 420 380; lifeg 40; p12 0 1 2\n"
)
DIVISION_B = "Able, Ann 1500 2; 400\nBaker, Ben 1400 1; 350\n"
CONFIG = (
    "# A club weekend\n"
    "division a a.t\n"
    "division b b.t\n"
    "config max_rounds = 3\n"
    "config spread_cap = [300, 500]\n"
    "config bye_spread = 50\n"
    "config rating_system = 'naspa-csw'\n"
    "config gibson = 1\n"
    "prize rank 1 A $100\n"
)


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def upload(name: str, text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/plain")


def create(api, **extra) -> dict:
    body = {"name": "Weekend", "start_date": "2026-11-21", "rounds": 3, **extra}
    response = api.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def export(api, tournament_id, division: str) -> str:
    response = api.get(
        f"/api/tournaments/{tournament_id}/export/naspa.t",
        {"division": division},
        HTTP_ACCEPT="text/plain",
    )
    assert response.status_code == 200, response.content
    return response.content.decode()


@pytest.mark.django_db
def test_a_t_import_then_export_gives_back_every_field(api):
    """Names, rating texts, opponents, scores, p12 and every other field, in order,
    come back as the file wrote them; tsh's own fields from the system's data."""
    tournament = create(api, ranking="tsh")
    response = api.post(
        f"/api/tournaments/{tournament['id']}/import/tsh",
        {"division": "A", "file": upload("a.t", DIVISION_A)},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    assert export(api, tournament["id"], "A") == "#division A\n" + DIVISION_A
    obrien = Player.objects.get(name="O'Brien, Seán Jr.")
    assert (obrien.rating, obrien.rating_text) == (1500, "1500+1480+0")
    assert (obrien.career_games, obrien.member_id) == (312, "AA100234")


@pytest.mark.django_db
def test_a_whole_event_is_set_up_from_config_tsh_and_its_files(api):
    """config.tsh sets the divisions, rounds, caps, bye spread and rating system;
    the tournament ranks as tsh; the lines it has no setting for are listed."""
    response = api.post(
        "/api/tournaments/import/tsh",
        {
            "name": "Club weekend",
            "start_date": "2026-11-21",
            "config": upload("config.tsh", CONFIG),
            "files": [upload("a.t", DIVISION_A), upload("B.T", DIVISION_B)],
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["divisions"] == ["A", "B"]
    assert body["not_taken"] == []  # gibson and the prize are mapped (below)
    made = body["tournament"]
    assert (made["rounds"], made["ranking"], made["rating_system"]) == (
        3,
        "tsh",
        "naspa-csw",
    )
    assert made["spread_caps"] == [300, 500]
    assert export(api, made["id"], "A") == "#division A\n" + DIVISION_A
    assert export(api, made["id"], "B") == "#division B\n" + DIVISION_B
    standings = api.get(
        f"/api/tournaments/{made['id']}/standings", {"division": "A"}
    ).json()
    # tsh's ranks: O'Brien 2-1 (a bye in round 3), Zhou 1-1 (round 1 a credit of
    # 0: neither), Quinn 1-2 (round 2 a credit of -50).
    assert [
        (row["name"], row["rank"], row["record"], row["spread"])
        for row in standings["standings"]
    ] == [
        ("O'Brien, Seán Jr.", 1, "2-1", 20),
        ("Zhou, Lin", 2, "1-1", 30),
        ("Quinn, Mara", 3, "1-2", -50),
    ]


AUS_CONFIG = (
    "division a a.t\n"
    "division b b.t\n"
    'config event_name = "Harbour Nationals"\n'
    "config event_date = 'July 1-5, 2026'\n"
    "config max_div_rounds = { 'A' => 3, 'B' => 1 }\n"
    "config rating_system = 'aus'\n"
    "config gibson = 1\n"
    "config prize_bands = { 'A' => [1, 2] }\n"
    "autopair a 0 1 rr a\n"
    "prize rank 1 A $100\n"
    "prize rank 2 A $50.50\n"
)


@pytest.mark.django_db
def test_an_event_rated_by_a_body_not_computed_here_is_kept_with_its_settings(api):
    """config.tsh's 'aus' is kept (estimates off, said in the notes), not refused;
    the name and first day come from the config, the rounds from max_div_rounds,
    Gibsonization and prize bands onto the pairing rules, the prize lines onto
    the prize table; autopair onto division A's round schedule."""
    response = api.post(
        "/api/tournaments/import/tsh",
        {
            "config": upload("config.tsh", AUS_CONFIG),
            "files": [upload("a.t", DIVISION_A), upload("b.t", DIVISION_B)],
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    made = body["tournament"]
    assert (made["name"], made["start_date"], made["rounds"]) == (
        "Harbour Nationals",
        "2026-07-01",
        3,
    )
    assert made["rating_system"] == "none"
    assert any("'aus'" in note for note in body["notes"])
    assert body["not_taken"] == []
    stored = StoredEvent.objects.filter(stream_id=made["id"])
    # max_div_rounds gives B 1 round: the event has 3, B its own 1.
    assert [e.payload for e in stored.filter(event_type="division_rounds_set")] == [
        {"division": "B", "rounds": 1}
    ]
    schedule = stored.get(event_type="round_schedule_set").payload
    assert schedule["division"] == "A"
    rules = stored.get(event_type="pairing_rules_set", payload__division="A")
    assert rules.payload["options"]["gibson"] is True
    assert rules.payload["options"]["prize_bands"] == [1, 2]
    table = stored.get(event_type="prize_table_set").payload["table"]
    assert [(p["kind"], p["place"], p["amount"]) for p in table["prizes"]] == [
        ("place", 1, 10000),
        ("place", 2, 5050),
    ]
    estimates = api.get("/api/ratings/players", {"tournament": made["id"]}).json()
    rows = estimates if isinstance(estimates, list) else estimates["results"]
    assert rows
    assert all(row["new_rating"] is None for row in rows)
    assert {row["rating_system"] for row in rows} == {"none"}
    page = api.get(f"/tournaments/{made['id']}/ratings")
    assert page.status_code == 200


@pytest.mark.django_db
def test_a_config_naming_a_file_not_uploaded_is_refused_and_stores_nothing(api):
    before = StoredEvent.objects.count()
    response = api.post(
        "/api/tournaments/import/tsh",
        {
            "name": "Club weekend",
            "start_date": "2026-11-21",
            "config": upload("config.tsh", CONFIG),
            "files": [upload("a.t", DIVISION_A)],
        },
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "tsh_config_missing_file"
    assert "b.t" in response.json()["message"]
    assert StoredEvent.objects.count() == before


@pytest.mark.django_db
def test_the_pre_event_order_is_after_round_0(api):
    tournament = create(api, ranking="tsh")
    api.post(
        f"/api/tournaments/{tournament['id']}/import/tsh",
        {"division": "A", "file": upload("a.t", DIVISION_A)},
        format="multipart",
    )
    body = APIClient().get(
        f"/api/tournaments/{tournament['id']}/standings",
        {"division": "A", "after_round": 0},
    )
    assert body.status_code == 200
    assert [(r["name"], r["rank"]) for r in body.json()["standings"]] == [
        ("Zhou, Lin", 1),
        ("Quinn, Mara", 2),
        ("O'Brien, Seán Jr.", 3),
    ]
    assert body.json()["after_round"] == 0


@pytest.mark.django_db
def test_the_standings_page_says_which_rule_ranked_it(api, client):
    tsh = create(api, ranking="tsh")
    extended = create(api)
    for made in (tsh, extended):
        api.post(
            f"/api/tournaments/{made['id']}/import/tsh",
            {"division": "A", "file": upload("a.t", DIVISION_A)},
            format="multipart",
        )
    page = client.get(reverse("standings", args=[tsh["id"], "A"])).content.decode()
    assert "Ranked as tsh ranks" in page
    page = client.get(reverse("standings", args=[extended["id"], "A"])).content.decode()
    assert "total score before the end-of-game adjustments" in page
    start = client.get(
        reverse("standings-after", args=[tsh["id"], "A", 0])
    ).content.decode()
    assert "Standings before round 1" in start
    assert "by rating" in start


@pytest.mark.django_db
def test_a_player_registered_twice_is_flagged_and_not_stored(api):
    tournament = create(api)
    players = f"/api/tournaments/{tournament['id']}/players/"
    first = api.post(
        players,
        {"division": "A", "players": [{"name": "Quinn, Mara", "member_id": "77"}]},
        format="json",
    )
    assert first.status_code == 201
    before = StoredEvent.objects.count()
    again = api.post(
        players,
        {"division": "A", "players": [{"name": "quinn,  mara", "member_id": "77"}]},
        format="json",
    )
    assert again.status_code == 400
    assert (again.json()["code"], again.json()["field"]) == (
        "duplicate_registration",
        "name",
    )
    assert StoredEvent.objects.count() == before
    other = api.post(
        players,
        {"division": "A", "players": [{"name": "Quinn, Mara", "member_id": "78"}]},
        format="json",
    )
    assert other.status_code == 201  # the same name, another member
    respelled = api.post(
        players,
        {"division": "A", "players": [{"name": "Quinn, M.", "member_id": "77"}]},
        format="json",
    )
    assert respelled.status_code == 400
    answer = respelled.json()
    assert (answer["code"], answer["field"]) == ("duplicate_member_id", "member_id")
    assert "Quinn, Mara, player #1 of division A" in answer["message"]
    assert StoredEvent.objects.count() == before + 1


@pytest.mark.django_db
def test_a_pasted_last_first_name_keeps_its_comma(director, client):
    client.force_login(director)
    made = APIClient()
    made.force_authenticate(director)
    tournament = create(made)
    response = client.post(
        reverse("manage-players", args=[tournament["id"], "A"]),
        {
            "action": "register",
            "register-players": "Quinn, Mara 1820\nAble, Ann, 1500, 99",
        },
    )
    assert response.status_code == 302, response.content.decode()
    assert sorted(
        Player.objects.filter(tournament_id=tournament["id"]).values_list(
            "name", "rating", "member_id"
        )
    ) == [("Able, Ann", 1500, "99"), ("Quinn, Mara", 1820, "")]


@pytest.mark.django_db
def test_the_console_imports_a_tsh_event(director, client):
    client.force_login(director)
    response = client.post(
        reverse("tournament-import-tsh"),
        {
            "name": "Club weekend",
            "start_date": "2026-11-21",
            "config": upload("config.tsh", CONFIG),
            "files": [upload("a.t", DIVISION_A), upload("b.t", DIVISION_B)],
        },
        follow=True,
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Imported divisions A, B" in page
    assert "not taken" not in page  # every line of CONFIG is mapped
    tournament = Tournament.objects.get(name="Club weekend")
    assert tournament.ranking == "tsh"


@pytest.mark.django_db
def test_a_t_with_an_off_player_given_byes_imports_with_notes(api):
    """tsh kept an off player's byes (off 50): the import keeps them and says so;
    the export gives the file back."""
    text = (
        "Alpha, Ann 1500 2 3 2; 400 420 380\n"
        "Beta, Bo 1700 1 0 1; 390 -50 400\n"
        "Gamma, Cy 1600 0 1 0; 50 300 50\n"
        "Delta, Di 1800 0 0 0; 50 50 50; off 50\n"
    )
    tournament = create(api, ranking="tsh")
    response = api.post(
        f"/api/tournaments/{tournament['id']}/import/tsh",
        {"division": "A", "file": upload("a.t", text)},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    assert any("Delta, Di is off" in note for note in response.json()["notes"])
    assert export(api, tournament["id"], "A") == "#division A\n" + text


@pytest.mark.django_db
def test_max_div_rounds_gives_each_division_its_own_rounds(api):
    """config.tsh's max_div_rounds { 'A' => 7, 'B' => 5 }: the event plays 7 rounds
    (the most), division B its own 5, division A the event's 7."""
    config = (
        "division a a.t\n"
        "division b b.t\n"
        'config event_name = "Two Lengths"\n'
        "config event_date = 'July 1, 2026'\n"
        "config max_div_rounds = { 'A' => 7, 'B' => 5 }\n"
    )
    response = api.post(
        "/api/tournaments/import/tsh",
        {
            "config": upload("config.tsh", config),
            "files": [upload("a.t", DIVISION_A), upload("b.t", DIVISION_B)],
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["tournament"]["rounds"] == 7
    assert not any("max_div_rounds" in note for note in body["notes"])
    tournament = Tournament.objects.get(pk=body["tournament"]["id"])
    assert (tournament.rounds_of("A"), tournament.rounds_of("B")) == (7, 5)
