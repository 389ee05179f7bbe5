"""The best plays of a turn through the API and the page: the game's word list
(or its tournament's), computed on demand, cached by the game's version, never
stored. The position is rules_tests/test_analysis.py's, worked out by hand there:
after WINDY at 8D, the rack AJKQSXZ with the words AS, YA and WINDY has 9H AS (8)
and H8 .A (5)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import analysis, services
from games.eventstore.models import StoredEvent
from tests.games_tests.conftest import club_tournament
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def tiny_lexicon(settings, tmp_path):
    words = tmp_path / "tiny.txt"
    words.write_text("AS\nYA\nWINDY\n")
    leaves = tmp_path / "leaves.csv"
    leaves.write_text("JKQSXZ,8\n")
    settings.LEXICONS = {"TINY": str(words), "EQUITY": str(words)}
    settings.LEAVES = {"EQUITY": str(leaves)}
    for kept in (services._LEXICONS, analysis._GRAPHS, analysis._LEAVES):
        kept.clear()
    yield
    for kept in (services._LEXICONS, analysis._GRAPHS, analysis._LEAVES):
        kept.clear()


def play(user, *, lexicon="TINY", context=None):
    started = services.game_start(
        user=user,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "AJKQSXZ"],
        lexicon=lexicon,
        context=context,
        visibility="public",
        seed=3,
    )
    gid = started.stream.id
    services.game_place(game_id=gid, position="8D", word="WINDY", user=user)
    services.game_place(game_id=gid, position="H8", word=".A", user=user)
    return gid


def recording(user) -> APIClient:
    """The game's recorder: the racks of a game being recorded are theirs to see
    (games.selectors.rack_view); test_racks.py shows they are hidden from others."""
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_best_plays_and_where_the_move_made_ranks(recorder):
    gid = play(recorder)
    response = recording(recorder).get(f"/api/games/{gid}/turns/2/analysis")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert [(p["move"], p["score"], p["rank"]) for p in body["plays"]] == [
        ("9H AS", 8, 1),
        ("H8 .A", 5, 2),
    ]
    assert body["played"]["move"] == "H8 .A"
    assert body["played_rank"] == 2
    assert (body["rack"], body["lexicon"], body["by_equity"]) == (
        "AJKQSXZ",
        "TINY",
        False,
    )


def test_a_leave_table_ranks_by_equity(recorder):
    gid = play(recorder, lexicon="EQUITY")
    body = recording(recorder).get(f"/api/games/{gid}/turns/2/analysis").json()
    assert body["by_equity"]
    assert body["plays"][0]["move"] == "H8 .A"
    assert body["plays"][0]["equity"] == 13.0
    assert body["played_rank"] == 1


def test_it_is_computed_once_per_version_and_never_stored(recorder, monkeypatch):
    gid = play(recorder)
    calls = []
    real = analysis.analyse
    monkeypatch.setattr(
        analysis, "analyse", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    events = StoredEvent.objects.count()
    for _ in range(3):
        response = recording(recorder).get(f"/api/games/{gid}/turns/2/analysis")
        assert response.status_code == 200
    assert len(calls) == 1
    assert StoredEvent.objects.count() == events
    # A new event (a note) is a new version: computed again.
    services.game_note(game_id=gid, target_version=4, text="hm", user=recorder)
    recording(recorder).get(f"/api/games/{gid}/turns/2/analysis")
    assert len(calls) == 2


def test_the_tournaments_word_list_serves_its_games(recorder):
    tid, ids = club_tournament(recorder, ["Ann Able", "Ben Baker"])
    setup_services.settings_change(
        tournament_id=tid, changes={"lexicon": "TINY"}, user=recorder
    )
    gid = play(
        recorder,
        lexicon=None,
        context={"tournament_id": tid, "division": "A", "player_ids": ids},
    )
    body = recording(recorder).get(f"/api/games/{gid}/turns/2/analysis").json()
    assert (body["lexicon"], body["played_rank"]) == ("TINY", 2)


@pytest.mark.parametrize(
    ("lexicon", "turn", "code"),
    [(None, 2, "no_lexicon"), ("NOT-SET-UP", 2, "no_lexicon"), ("TINY", 9, "no_turn")],
)
def test_what_cannot_be_analysed_says_why(recorder, lexicon, turn, code):
    gid = play(recorder, lexicon=lexicon)
    response = recording(recorder).get(f"/api/games/{gid}/turns/{turn}/analysis")
    assert response.status_code == 400
    assert response.json()["code"] == code


def test_the_page_shows_the_ranking(client, recorder):
    gid = play(recorder)
    client.force_login(recorder)
    body = client.get(f"/games/{gid}/turn/2/analysis/").content.decode()
    assert "ranks <strong>2</strong> of 2" in body
    assert "9H AS" in body
