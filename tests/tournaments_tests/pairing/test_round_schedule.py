"""Issue 32, items 8, 9 and 10 through the API, the console and the printouts: the
round schedule pairs a round itself when its results are in (the director sees it
and may pair it again before a result), config.tsh's autopair lines become the
schedule, a round robin seats a late entry and its scorecards list the whole
schedule, and the pairings mark the Gibsonized players."""

from __future__ import annotations

import io
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pypdf import PdfReader
from rest_framework.test import APIClient

from tests.boards import round_alone, round_games
from tournaments.audit.selectors import tournament_audit
from tournaments.models import Tournament
from tournaments.pairing import services as pairing_services

NAMES = ["Ann Able", "Ben Baker", "Cy Cole", "Di Dunn", "Ed Eve", "Flo Fox", "Gus Gray"]


@pytest.fixture(autouse=True)
def seeded_coin_flips(monkeypatch):
    """Who goes first is drawn by the service (and recorded): seeded here."""
    rng = random.Random(32)
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


def created(api, names, rounds):
    tid = ok(
        api.post(
            "/api/tournaments/",
            {
                "name": "Club RR",
                "start_date": "2026-11-27",
                "rounds": rounds,
                "divisions": ["A"],
            },
            format="json",
        )
    )["id"]
    register(api, tid, names)
    return tid


def register(api, tid, names, top=1800):
    ok(
        api.post(
            f"/api/tournaments/{tid}/players/",
            {
                "division": "A",
                "players": [
                    {"name": name, "rating": top - 10 * n}
                    for n, name in enumerate(names)
                ],
            },
            format="json",
        )
    )


def result(api, tid, round_, board, a=420, b=380):
    return api.post(
        f"/api/tournaments/{tid}/results",
        {
            "round": round_,
            "player_a": board.first.player_id,
            "player_b": board.second.player_id,
            "score_a": a,
            "score_b": b,
        },
        format="json",
    )


def paired(api, tid, round_):
    return ok(
        api.get(f"/api/tournaments/{tid}/rounds/{round_}/pairings?division=A"), 200
    )


def pdf_text(response) -> str:
    assert response.status_code == 200, response.content[:200]
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.mark.django_db
def test_a_scheduled_round_pairs_itself_when_the_last_result_is_in(api, director):
    tid = created(api, NAMES[:6], rounds=3)
    schedule = [
        {"round": 1, "method": "round_robin", "based_on_round": 0},
        {"round": 2, "method": "swiss", "based_on_round": 1},
        {"round": 3, "method": "king_of_the_hill", "based_on_round": 2},
    ]
    url = f"/api/tournaments/{tid}/divisions/A/round-schedule"
    ok(api.post(url, {"rounds": schedule}, format="json"))
    assert ok(api.get(url), 200) == {"rounds": schedule, "status": ""}
    # Round 1 is based on no result: paired at once, by the system.
    assert {line["method"] for line in paired(api, tid, 1)} == {"round_robin"}
    games = round_games(tid, 1)
    for board in games[:-1]:
        ok(result(api, tid, 1, board))
    assert paired(api, tid, 2) == []  # one result still to come
    ok(result(api, tid, 1, games[-1]))
    lines = paired(api, tid, 2)
    assert len(lines) == 3
    assert {line["method"] for line in lines} == {"swiss"}
    # The audit: the director set the schedule; the system paired round 2.
    audit = tournament_audit(Tournament.objects.get(pk=tid))
    setting = next(e for e in audit if e.event_type == "round_schedule_set")
    assert setting.recorded_by == director.username
    assert "round 2: swiss on round 1's results" in setting.summary
    pairing = [e for e in audit if e.event_type == "round_paired"][-1]
    assert pairing.recorded_by == ""
    assert "by the round schedule" in pairing.summary
    # The director sees it in the console and may pair it again before a result.
    client = api_client_login(director)
    pair_page = f"/tournaments/{tid}/manage/divisions/A/pair/"
    page = client.get(f"{pair_page}?round=2").content.decode()
    assert "Paired by the round schedule" in page
    ok(
        api.post(
            f"/api/tournaments/{tid}/rounds/2/pair",
            {"division": "A", "method": "king_of_the_hill"},
            format="json",
        )
    )
    assert {line["method"] for line in paired(api, tid, 2)} == {"king_of_the_hill"}


def api_client_login(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("line", "code"),
    [
        ({"round": 2, "method": "manual", "based_on_round": 1}, "invalid_choice"),
        ({"round": 2, "method": "swiss", "based_on_round": 2}, "invalid_schedule"),
        ({"round": 9, "method": "swiss", "based_on_round": 1}, "invalid_schedule"),
    ],
)
def test_a_bad_schedule_is_refused_naming_the_field_and_nothing_changes(
    api, line, code
):
    tid = created(api, NAMES[:4], rounds=3)
    url = f"/api/tournaments/{tid}/divisions/A/round-schedule"
    response = api.post(url, {"rounds": [line]}, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert set(body) >= {"code", "message", "field"}  # the project's error shape
    assert body["code"] == code
    assert body["field"].startswith("rounds")
    assert ok(api.get(url), 200)["rounds"] == []


@pytest.mark.django_db
def test_round_robin_with_a_late_entry_through_the_console(api, director):
    """The director writes the schedule in the console; round 1 pairs itself; a
    late entry arrives; round 2 pairs itself when round 1's last result is in,
    with the late entry in the bye's seat; every scorecard lists the schedule."""
    tid = created(api, NAMES, rounds=7)
    console = api_client_login(director)
    text = "1: round_robin on 0\n" + "\n".join(
        f"{r}: round_robin on {r - 1}" for r in range(2, 8)
    )
    response = console.post(
        f"/tournaments/{tid}/manage/divisions/A/round-schedule/", {"schedule": text}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    bye = round_alone(tid, 1)
    assert len(bye) == 1  # 7 players: the table's bye
    register(api, tid, ["Late Comer"], top=1500)
    for board in round_games(tid, 1):
        ok(result(api, tid, 1, board))
    games = round_games(tid, 2)
    assert len(games) == 4
    assert round_alone(tid, 2) == []  # the late entry took the bye's seat
    late = next(
        side
        for board in games
        for side in (board.first, board.second)
        if side.name == "Late Comer"
    )
    # The scorecard page and printout: rounds 3 to 7 foretold from the table.
    page = console.get(f"/tournaments/{tid}/players/{late.player_id}/").content
    page = page.decode()
    assert page.count('title="the round robin\'s table: not paired yet"') == 5
    pdf = pdf_text(
        console.get(
            f"/tournaments/{tid}/divisions/A/scorecards.pdf?player={late.player_id}"
        )
    )
    rows = pdf[pdf.index("Your score") :]
    foretold = [name for name in NAMES if name in rows]
    assert len(foretold) == 6  # round 2 as paired, rounds 3-7 foretold


@pytest.mark.django_db
def test_a_late_entry_with_no_round_robin_seat_is_shown_to_the_director(api, director):
    tid = created(api, NAMES[:6], rounds=5)
    schedule = [
        {"round": r, "method": "round_robin", "based_on_round": r - 1}
        for r in range(1, 6)
    ]
    url = f"/api/tournaments/{tid}/divisions/A/round-schedule"
    ok(api.post(url, {"rounds": schedule}, format="json"))
    register(api, tid, ["Late Comer"], top=1500)
    for board in round_games(tid, 1):
        ok(result(api, tid, 1, board))
    assert paired(api, tid, 2) == []
    status = ok(api.get(url), 200)["status"]
    assert "Round 2 is due by the schedule but could not be paired" in status
    assert "Late Comer" in status
    pair_page = f"/tournaments/{tid}/manage/divisions/A/pair/"
    page = api_client_login(director).get(pair_page)
    assert "Late Comer joined after the round robin began" in page.content.decode()


TSH_DIVISION = "".join(
    f"{name.split()[1]}, {name.split()[0]} {1700 - n};\n"
    for n, name in enumerate(NAMES[:6])
)
TSH_CONFIG = (
    "division a a.t\n"
    "config max_rounds = 7\n"
    "autopair a 0 1 rr a\n"
    "autopair a 5 6 ns 1 5 a\n"
    "autopair a 6 7 koth 0 6 a\n"
    "autopair a 6 7 pair1324 a\n"
)


@pytest.mark.django_db
def test_config_tsh_autopair_lines_become_the_schedule(api):
    response = api.post(
        "/api/tournaments/import/tsh",
        {
            "name": "Autopaired",
            "start_date": "2026-11-27",
            "config": SimpleUploadedFile("config.tsh", TSH_CONFIG.encode()),
            "files": [SimpleUploadedFile("a.t", TSH_DIVISION.encode())],
        },
        format="multipart",
    )
    body = ok(response)
    tid = body["tournament"]["id"]
    # The lines of a command this system has no system for stay not taken.
    assert body["not_taken"] == [{"line": 6, "text": "autopair a 6 7 pair1324 a"}]
    schedule = ok(api.get(f"/api/tournaments/{tid}/divisions/A/round-schedule"), 200)
    assert schedule["rounds"] == [
        {"round": 1, "method": "round_robin", "based_on_round": 0},
        *(
            {"round": r, "method": "round_robin", "based_on_round": r - 1}
            for r in range(2, 6)
        ),
        {"round": 6, "method": "swiss", "based_on_round": 5},
        {"round": 7, "method": "king_of_the_hill", "based_on_round": 6},
    ]
    # Round 1 is due on import (round 0's results): paired by the system.
    assert {line["method"] for line in paired(api, tid, 1)} == {"round_robin"}


@pytest.mark.django_db
def test_the_pairings_mark_the_gibsonized_player(api, director, client):
    """4 players, 3 rounds, Gibsonization on, one prize place: Ann wins rounds 1
    and 2 by 700 and has clinched first before round 3."""
    tid = created(api, NAMES[:4], rounds=3)
    ok(
        api.patch(
            f"/api/tournaments/{tid}/divisions/A/pairing-rules",
            {"gibson": True, "prize_places": 1},
            format="json",
        )
    )
    for round_ in (1, 2):
        ok(
            api.post(
                f"/api/tournaments/{tid}/rounds/{round_}/pair",
                {"division": "A", "method": "swiss"},
                format="json",
            )
        )
        for board in round_games(tid, round_):
            ann_first = board.first.name == "Ann Able"
            ann_second = board.second.name == "Ann Able"
            a, b = (800, 100) if ann_first else (100, 800) if ann_second else (400, 380)
            ok(result(api, tid, round_, board, a, b))
    ok(
        api.post(
            f"/api/tournaments/{tid}/rounds/3/pair",
            {"division": "A", "method": "swiss"},
            format="json",
        )
    )
    sides = [
        side
        for line in paired(api, tid, 3)
        for side in (line["first"], line["second"])
        if side is not None
    ]
    assert {side["name"] for side in sides if side["gibsonized"]} == {"Ann Able"}
    page = client.get(f"/tournaments/{tid}/divisions/A/rounds/3/").content.decode()
    assert page.count(">Gibsonized<") == 1
    text = pdf_text(client.get(f"/tournaments/{tid}/divisions/A/rounds/3/pairings.pdf"))
    assert "Ann Able (#1) · Gibsonized" in text


@pytest.mark.django_db
def test_a_due_round_is_paired_once_whoever_looks_again(api):
    """Two writers finishing a round both look for due rounds: the second finds
    the round paired and stores nothing (a re-pairing would need a director)."""
    tid = created(api, NAMES[:4], rounds=2)
    url = f"/api/tournaments/{tid}/divisions/A/round-schedule"
    schedule = [{"round": 1, "method": "king_of_the_hill", "based_on_round": 0}]
    ok(api.post(url, {"rounds": schedule}, format="json"))
    version = Tournament.objects.get(pk=tid).version
    assert pairing_services.pair_due_rounds(tid) == []
    assert Tournament.objects.get(pk=tid).version == version
    assert len(paired(api, tid, 1)) == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1: round_robin on 0\nsecond: swiss", "Line 2: write it as"),
        ("2: manual on 1", "made by the director"),
        ("2: nonsense on 1", "is not a pairing method"),
    ],
)
def test_a_bad_schedule_in_the_console_is_shown_on_its_field(api, director, text, says):
    tid = created(api, NAMES[:4], rounds=3)
    console = api_client_login(director)
    url = f"/tournaments/{tid}/manage/divisions/A/round-schedule/"
    response = console.post(url, {"schedule": text})
    assert response.status_code == 400
    assert says in response.content.decode()
    assert response.context["form"].errors["schedule"]
    assert "round_schedule_set" not in {
        e.event_type for e in tournament_audit(Tournament.objects.get(pk=tid))
    }
