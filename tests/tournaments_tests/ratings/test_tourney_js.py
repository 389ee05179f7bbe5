"""Issue 31, tourney.js out and in: the live file tsh writes (``newt={...};``), its
shape as tsh's serialiser writes it and as Woogles' broadcast reader takes it, its
cache validators, the import of a whole event from one, and the round trips."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from rules.tsh import TshError, read_t
from tournaments.models import Player, Tournament

# Synthetic divisions. A: four players, round 3 paired and not yet played.
DIVISION_A = (
    "Adams, Ann 1710 2 3 4; 420 390; p12 1 2 1; lifeg 150; naspa AA000101\n"
    "Brown, Bea 1655 1 4 3; 380 410; p12 2 1 2\n"
    "Cruz, Cal 1590 4 1 2; 400 388; p12 2 1 1\n"
    "Diaz, Dee 1500 3 2 1; 350 402; p12 1 2 2\n"
)
# B: a late entry (round 1: 0 and 0), a forfeit (-50), a bye (50).
DIVISION_B = (
    "Evans, Eve 1400 2 3 0; 410 380 50\n"
    "Ford, Fay 1350 1 0 3; 300 -50 355\n"
    "Gray, Gus 1200 0 1 2; 0 390 360\n"
)
CONFIG = "division a a.t\ndivision b b.t\nconfig max_rounds = 3\n"

# tsh's serialiser (JavaScript::Serializable) exports these keys and no others.
TOP_KEYS = {"config", "divisions", "esb", "profile"}
DIVISION_KEYS = {
    "classes",
    "first_out_of_the_money",
    "maxr",
    "maxrp",
    "name",
    "players",
    "rating_list",
    "rating_system",
    "seeds",
}
PLAYER_KEYS = {
    "etc",
    "id",
    "name",
    "newr",
    "pairings",
    "photo",
    "photomood",
    "rating",
    "scores",
}


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def upload(name: str, text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/plain")


def tsh_event(api, published: bool = True) -> str:
    response = api.post(
        "/api/tournaments/import/tsh",
        {
            "name": "Synthetic Open",
            "start_date": "2026-07-04",
            "config": upload("config.tsh", CONFIG),
            "files": [upload("a.t", DIVISION_A), upload("b.t", DIVISION_B)],
            "published": published,
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    return response.json()["tournament"]["id"]


def served(client, tournament_id, **headers):
    return client.get(f"/tournaments/{tournament_id}/tourney.js", **headers)


def woogles_read(body: bytes) -> dict:
    """Read the file the way Woogles' broadcast reader (tsh_newt_json) does: the
    text after ``newt=``, trailing spaces and ``;`` cut, every ``undefined`` made
    null, then JSON into typed fields (Go's encoding/json: a field of the wrong
    type fails the player, who is then skipped, so every one must parse)."""
    text = body.decode("utf-8")
    at = text.find("newt=")
    assert at != -1, "the reader looks for 'newt='"
    text = text[at + len("newt=") :].rstrip(" \t\r\n;")
    newt = json.loads(text.replace("undefined", "null"))
    assert isinstance(newt["divisions"], list)
    assert newt["divisions"]
    for division in newt["divisions"]:
        assert isinstance(division["name"], str)
        assert is_int(division["maxr"])
        assert division["players"][0] is None  # 1-indexed; index 0 always null
        for player in division["players"][1:]:
            assert is_int(player["id"])
            assert player["id"] > 0
            assert isinstance(player["name"], str)
            assert is_int(player["rating"])
            for key in ("scores", "pairings"):
                assert all(is_int(value) for value in player[key]), (key, player)
            for key in ("board", "p12"):
                assert all(is_int(value) for value in player["etc"][key]), key
            # Its round's games are found by table: a game on table 0 is skipped.
            for index, opponent in enumerate(player["pairings"]):
                assert not opponent or player["etc"]["board"][index] > 0
    # (Its total rounds are maxr when set: tsh's maxr is 0-based, one less than
    # max_rounds, and this file writes tsh's value.)
    return newt


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def players_of(newt: dict, division: str) -> list[dict]:
    found = next(d for d in newt["divisions"] if d["name"] == division)
    return found["players"][1:]


def table(newt: dict) -> dict:
    """Every player's rating, pairings and scores, by division and name."""
    return {
        (division["name"], player["name"]): (
            player["rating"],
            player["pairings"],
            player["scores"],
        )
        for division in newt["divisions"]
        for player in division["players"][1:]
    }


# --- Out ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_live_file_is_newt_as_tsh_writes_it(api, client):
    tournament_id = tsh_event(api)
    response = served(client, tournament_id)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    text = response.content.decode()
    # tsh: "newt=" + the object + ";\n", no spaces, keys sorted and quoted.
    assert text.startswith('newt={"config":{')
    assert text.endswith("};\n")
    keys = re.findall(r'"([a-z_0-9]+)":', text)
    assert keys[:2] == ["config", "_termdict"]
    newt = woogles_read(response.content)
    assert set(newt) == TOP_KEYS
    assert newt["config"]["event_name"] == "Synthetic Open"
    assert newt["config"]["event_date"] == "2026-07-04"
    assert newt["config"]["max_rounds"] == 3
    assert newt["config"]["rating_system"] == "nsa2008"
    for division in newt["divisions"]:
        assert set(division) == DIVISION_KEYS
        assert division["maxr"] == 2  # 0-based, as tsh's
        assert all(set(p) == PLAYER_KEYS for p in division["players"][1:])
    a = players_of(newt, "A")
    assert [p["id"] for p in a] == [1, 2, 3, 4]
    adams = a[0]
    assert adams["name"] == "Adams, Ann"
    assert adams["rating"] == 1710
    # Round 3 is paired and not played: its opponent, no score yet.
    assert adams["pairings"] == [2, 3, 4]
    assert adams["scores"] == [420, 390]
    assert adams["etc"]["p12"] == [1, 2, 1]
    assert adams["etc"]["board"][:2] != [0, 0]
    assert adams["etc"]["lifeg"] == [150]
    assert adams["etc"]["naspa"] == ["AA000101"]
    # rrank: the pre-event rank, then after each round with a result.
    assert len(adams["etc"]["rrank"]) == 3
    assert adams["etc"]["rrank"][0] == 1
    # newr: an estimate after each round with a result.
    assert len(adams["etc"]["newr"]) == 2
    assert all(is_int(r) for r in adams["etc"]["newr"])
    division_a = next(d for d in newt["divisions"] if d["name"] == "A")
    assert division_a["seeds"] == [1, 2, 3, 4]


@pytest.mark.django_db
def test_a_tsh_event_serves_the_pairings_and_scores_of_its_t_files(api, client):
    tournament_id = tsh_event(api)
    newt = woogles_read(served(client, tournament_id).content)
    for division, text in (("A", DIVISION_A), ("B", DIVISION_B)):
        expected = [
            (p.name, p.rating, list(p.opponents), list(p.scores))
            for p in read_t(text).players
        ]
        got = [
            (p["name"], p["rating"], p["pairings"], p["scores"])
            for p in players_of(newt, division)
        ]
        assert got == expected


@pytest.mark.django_db
def test_every_result_changes_the_file_and_pollers_get_304_between(api, client):
    tournament_id = tsh_event(api)
    first = served(client, tournament_id)
    etag, modified = first["ETag"], first["Last-Modified"]
    assert etag
    assert modified
    assert "no-cache" in first["Cache-Control"]
    again = served(client, tournament_id, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    since = served(client, tournament_id, HTTP_IF_MODIFIED_SINCE=modified)
    assert since.status_code == 304
    weak = served(client, tournament_id, HTTP_IF_NONE_MATCH=f"W/{etag}")
    assert weak.status_code == 304
    head = client.head(f"/tournaments/{tournament_id}/tourney.js")
    assert head.status_code == 200
    assert head["ETag"] == etag
    ids = dict(
        Player.objects.filter(tournament_id=tournament_id).values_list(
            "name", "player_id"
        )
    )
    response = api.post(
        f"/api/tournaments/{tournament_id}/results",
        {
            "round": 3,
            "player_a": ids["Adams, Ann"],
            "player_b": ids["Diaz, Dee"],
            "score_a": 433,
            "score_b": 401,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    after = served(client, tournament_id, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert after["ETag"] != etag
    adams = players_of(woogles_read(after.content), "A")[0]
    assert adams["scores"] == [420, 390, 433]
    assert len(adams["etc"]["newr"]) == 3


@pytest.mark.django_db
def test_an_unpublished_event_is_its_teams_only(api, client, director):
    tournament_id = tsh_event(api, published=False)
    assert served(client, tournament_id).status_code == 404
    client.force_login(director)
    response = served(client, tournament_id)
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]


@pytest.mark.django_db
def test_an_unknown_tournament_is_a_404(client):
    missing = "00000000-0000-4000-8000-000000000000"
    assert served(client, missing).status_code == 404


# --- In -------------------------------------------------------------------------

# A tourney.js as a tool that pretty-prints JavaScript writes it: a comment,
# "var", unquoted keys, single quotes, trailing commas, tsh's undefined.
LITERAL = """// written by a tool
var newt = {
  config: {
    event_name: 'Lakeside Cup',
    event_date: "July 4-5, 2026",
    max_rounds: 2,
    rating_system: 'nsa2008',
    gibson: 1,
    check_by_winner: undefined,
  },
  divisions: [
    {
      name: 'a',
      maxr: 1,
      players: [
        undefined,
        {id: 1, name: 'Hill, Hal', rating: 1600, pairings: [2, 0],
         scores: [400, 50], etc: {p12: [1, 0], board: [1, 0], off: [-50],},
         photo: 'pix/hill.jpg'},
        {id: 2, name: 'Ives, Ida', rating: 1550, pairings: [1, 3],
         scores: [380, 411], etc: {p12: [2, 1], board: [1, 1]},},
        {id: 3, name: 'Jones, Jo', rating: 1500, pairings: [0, 2],
         scores: [0, 399], etc: {p12: [0, 2], board: [0, 1]}},
      ],
    },
  ],
};
"""


def post_import(api, text: str, **extra):
    return api.post(
        "/api/tournaments/import/tourney-js",
        {"file": upload("tourney.js", text), **extra},
        format="multipart",
    )


@pytest.mark.django_db
def test_a_javascript_literal_creates_the_whole_event_and_flags_its_oddities(api):
    response = post_import(api, LITERAL)
    assert response.status_code == 201, response.json()
    body = response.json()
    tournament = Tournament.objects.get(pk=body["id"])
    assert (tournament.name, tournament.divisions, tournament.rounds) == (
        "Lakeside Cup",
        ["A"],
        2,
    )
    assert (str(tournament.start_date), str(tournament.end_date)) == (
        "2026-07-04",
        "2026-07-05",
    )
    assert body["not_taken"] == [{"key": "gibson", "value": "1"}]
    codes = {(note["code"], note["player"], note["round"]) for note in body["report"]}
    assert ("bye", 1, 2) in codes  # Hill's round 2: 0 and 50
    assert ("late_entry", 3, 1) in codes  # Jones's round 1: 0 and 0
    assert ("withdrawn", 1, None) in codes  # Hill's off
    assert ("config_not_taken", None, None) in codes
    assert any(
        note["code"] == "player_field_not_kept" and "photo" in note["message"]
        for note in body["report"]
    )
    hill = Player.objects.get(tournament=tournament, name="Hill, Hal")
    assert hill.rating == 1600
    # The report is kept in the log: the audit shows it with the creation.
    audit = api.get(f"/api/tournaments/{tournament.pk}/audit").json()
    entries = audit if isinstance(audit, list) else audit["results"]
    flagged = entries[0]["notes"]
    assert flagged == [note["message"] for note in body["report"]]


@pytest.mark.django_db
def test_a_file_that_cannot_be_read_is_a_400_with_its_line_and_column(api):
    broken = LITERAL.replace("rating: 1550,", "rating: 1550 ratings: 3,")
    before = StoredEvent.objects.count()
    response = post_import(api, broken)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "tourney_js_syntax"
    assert body["field"] == "file"
    line = next(
        number
        for number, text in enumerate(broken.splitlines(), start=1)
        if "ratings: 3" in text
    )
    column = broken.splitlines()[line - 1].index("ratings") + 1
    assert body["message"].startswith(f"line {line}: column {column}:")
    assert StoredEvent.objects.count() == before


@pytest.mark.django_db
def test_a_file_of_the_wrong_shape_names_the_path(api):
    response = post_import(api, 'newt={"divisions":[{"name":"A","players":7}]};')
    assert response.status_code == 400
    assert response.json()["code"] == "tourney_js_shape"
    assert "divisions[0].players" in response.json()["message"]


@pytest.mark.django_db
def test_an_unreadable_event_date_asks_for_the_first_day(api):
    text = LITERAL.replace('"July 4-5, 2026"', "'the first weekend of July'")
    response = post_import(api, text)
    assert response.status_code == 400
    assert response.json()["code"] == "tourney_js_date"
    response = post_import(api, text, start_date="2026-07-04")
    assert response.status_code == 201, response.json()


@pytest.mark.django_db
def test_served_imported_and_served_again_gives_the_same_event(api, client):
    """Ratings, pairings and scores of every player and round, and the newt's
    other fields (p12, boards, ranks, estimates), come back as served."""
    tournament_id = tsh_event(api)
    first = served(client, tournament_id).content
    response = post_import(api, first.decode())
    assert response.status_code == 201, response.json()
    second = served(client, response.json()["id"]).content
    one, two = woogles_read(first), woogles_read(second)
    assert table(one) == table(two)
    for division in ("A", "B"):
        for a, b in zip(
            players_of(one, division), players_of(two, division), strict=True
        ):
            for key in ("p12", "board", "rrank", "newr", "lifeg"):
                assert a["etc"].get(key) == b["etc"].get(key), (a["name"], key)


@pytest.mark.django_db
def test_the_json_form_imports_too(api, client):
    tournament_id = tsh_event(api)
    text = served(client, tournament_id).content.decode()
    bare = text.removeprefix("newt=").rstrip().rstrip(";").replace("undefined", "null")
    response = post_import(api, bare)
    assert response.status_code == 201, response.json()
    assert response.json()["divisions"] == ["A", "B"]


@pytest.mark.django_db
def test_the_console_imports_a_tourney_js(director, client):
    director.is_staff = True
    director.save()
    client.force_login(director)
    page = client.get(reverse("tournament-import-tsh"))
    assert page.status_code == 200
    assert b"tourney.js" in page.content
    response = client.post(
        reverse("tournament-import-tsh"),
        {"source": "tourney-js", "file": upload("tourney.js", LITERAL)},
    )
    assert response.status_code == 302, response.content.decode()
    made = Tournament.objects.get(name="Lakeside Cup")
    assert response["Location"] == reverse("manage", args=[made.pk])


# --- The reader, alone ----------------------------------------------------------


def test_the_reader_takes_json_and_javascript_literals_without_eval():
    from tournaments.ratings.tourneyjs import parse

    assert parse('newt={"a":[1,undefined]};\n') == {"a": [1, None]}
    assert parse("window.newt = {a: 'undefined', b: .5,};") == {
        "a": "undefined",
        "b": 0.5,
    }
    assert parse('{"a": 1}') == {"a": 1}
    # A comment or string left open is read once, to the end, and refused there.
    for broken in ("newt={/*" + "a/*" * 1000, "newt={a:'" + "x'y" * 1000):
        with pytest.raises(TshError) as raised:
            parse(broken)
        assert raised.value.code == "tourney_js_syntax"
