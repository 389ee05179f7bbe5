"""The ratings REST exports: rated games (JSON and CSV), estimates, the change feed."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import include, path
from django.utils import timezone
from rest_framework.test import APIClient

from games.eventstore.feed import feed_head
from games.eventstore.models import FeedEntry, StoredEvent
from tests.boards import round_games
from tests.refusals import refused
from tests.tournaments_tests.ratings.test_exports import drive_open
from tournaments.core import aggregate
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.ratings.urls import page_urlpatterns
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services

# The estimates page is mounted by the project; these tests mount it themselves.
urlpatterns = [
    path("tournaments/<uuid:tournament_id>/ratings", include(page_urlpatterns)),
    path("", include("config.urls")),
]


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture(autouse=True)
def _feed(feed_at_once):
    """The feed numbers events at commit, and a test's transaction never commits."""


@pytest.fixture
def riverside_open(director):
    return drive_open(director)


def all_pages(client, url, params=None):
    """Every row of a paginated list, following `next` links."""
    response = client.get(url, params or {})
    assert response.status_code == 200, response.content
    body = response.json()
    rows = list(body["results"])
    while body["next"]:
        body = client.get(body["next"]).json()
        rows.extend(body["results"])
    return rows


def csv_rows(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text)))


def as_cells(row):
    """A JSON row as the CSV writes it: null empty, booleans lower case."""
    cells = {}
    for key, value in row.items():
        if value is None:
            cells[key] = ""
        elif isinstance(value, bool):
            cells[key] = "true" if value else "false"
        else:
            cells[key] = str(value)
    return cells


def of_round(rows, round_, name):
    return next(
        row
        for row in rows
        if row["round"] == round_ and name in (row["player1_name"], row["player2_name"])
    )


def two_player_event(director, players, *, name="Duel", start="2026-12-05"):
    """A published one-round event, the first player winning 400-300."""
    tid = setup_services.tournament_create(
        user=director, name=name, start_date=start, end_date=start, rounds=1
    ).stream.id
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[(n, r, "") for n, r in players],
        user=director,
    )
    ids = aggregate.tournament_state(tid)[1].rules.division_players["A"]
    pairing_services.round_pair(
        tournament_id=tid,
        division="A",
        round_=1,
        method="manual",
        games=[(1, ids[0], ids[1])],
        user=director,
    )
    results_services.result_record(
        tournament_id=tid,
        round_=1,
        player_a=ids[0],
        player_b=ids[1],
        score_a=400,
        score_b=300,
        user=director,
    )
    return tid


# --- /api/ratings/games -------------------------------------------------------------


@pytest.mark.django_db
def test_every_result_is_a_row_and_only_played_games_are_rated(riverside_open, anon):
    """16 rows: 9 played games, 4 byes and 3 forfeits (one entered, one made by the
    withdrawal, and the withdrawn player's unpaired round 5: every result the
    standings count is listed, as its own row)."""
    rows = all_pages(anon, "/api/ratings/games")
    assert len(rows) == 16
    kinds = [row["kind"] for row in rows]
    assert (kinds.count("game"), kinds.count("bye"), kinds.count("forfeit")) == (
        9,
        4,
        3,
    )
    unpaired = of_round(rows, 5, "Di Dane")
    assert (unpaired["player1_kind"], unpaired["player1_result"]) == (
        "withdrawal_forfeit",
        "loss",
    )
    assert (unpaired["player1_spread"], unpaired["player2_id"]) == (-50, None)
    assert all(row["rated"] == (row["kind"] == "game") for row in rows)
    bye = of_round(rows, 1, "Zoë Zane")
    assert bye["kind"] == "bye"
    assert (bye["player1_result"], bye["player1_spread"]) == ("win", 50)
    assert bye["player2_id"] is None
    assert bye["went_first"] is None
    withdrawal = of_round(rows, 4, "Di Dane")
    assert withdrawal["kind"] == "forfeit"
    assert (withdrawal["player1_name"], withdrawal["player1_result"]) == (
        "Ann Able",
        "win",
    )
    assert (withdrawal["player2_result"], withdrawal["player2_spread"]) == ("loss", -50)
    assert withdrawal["player1_score"] is None


@pytest.mark.django_db
def test_a_game_row_carries_both_players_and_the_result(riverside_open, anon):
    rows = all_pages(anon, "/api/ratings/games")
    game = of_round(rows, 1, "Ann Able")
    ids = riverside_open.ids
    assert {k: v for k, v in game.items() if not k.startswith("changed")} == {
        "tournament": str(riverside_open.tournament_id),
        "tournament_name": "Riverside Ratings Open",
        "division": "A",
        "round": 1,
        "board": 1,
        "date": "2026-11-21",
        "kind": "game",
        "rated": True,
        "player1_id": ids["Ann"],
        "player1_name": "Ann Able",
        "player1_member_id": "NA1001",
        "player1_rating": 1800,
        "player1_kind": "game",
        "player1_score": 420,
        # Not recorded: a slip's result without a tie has no pre-adjustment scores.
        "player1_pre_adjustment": None,
        "player1_result": "win",
        "player1_spread": 30,
        "player2_id": ids["Ben"],
        "player2_name": "Ben Baker",
        "player2_member_id": "NA1002",
        "player2_rating": 1700,
        "player2_kind": "game",
        "player2_score": 390,
        "player2_pre_adjustment": None,
        "player2_result": "loss",
        "player2_spread": -30,
        "went_first": ids["Ann"],
        "winner": ids["Ann"],
        "tie_break": None,
        "amended": True,
        "game_id": None,
    }


@pytest.mark.django_db
def test_a_tie_names_the_tie_break_and_an_equal_tie_is_a_draw(riverside_open, anon):
    rows = all_pages(anon, "/api/ratings/games")
    decided = of_round(rows, 1, "Di Dane")
    assert (decided["player1_score"], decided["player2_score"]) == (400, 400)
    assert decided["tie_break"] == "pre_adjustment_score"
    assert decided["winner"] == riverside_open.ids["Di"]
    assert (decided["player1_result"], decided["player2_result"]) == ("loss", "win")
    assert (decided["player1_pre_adjustment"], decided["player2_pre_adjustment"]) == (
        390,
        395,
    )
    draw = of_round(rows, 2, "Cy Cole")
    assert (draw["player1_result"], draw["player2_result"]) == ("draw", "draw")
    assert draw["winner"] is None
    assert draw["tie_break"] is None


@pytest.mark.django_db
def test_the_csv_has_the_same_rows_and_columns_as_the_json(riverside_open, anon):
    json_rows = all_pages(anon, "/api/ratings/games", {"page_size": 4})
    response = anon.get("/api/ratings/games", {"format": "csv"})
    assert response["Content-Disposition"] == 'attachment; filename="rated-games.csv"'
    rows = csv_rows(response)
    assert list(rows[0]) == list(json_rows[0])
    assert rows == [as_cells(row) for row in json_rows]


@pytest.mark.django_db
def test_the_csv_takes_the_same_filters(riverside_open, anon):
    params = {"rated": "true", "member_id": "NA1003"}
    json_rows = all_pages(anon, "/api/ratings/games", params)
    rows = csv_rows(anon.get("/api/ratings/games", {**params, "format": "csv"}))
    assert len(rows) == 4  # Cy's played games: rounds 1, 2, 4 and 5
    assert rows == [as_cells(row) for row in json_rows]


@pytest.mark.django_db
def test_the_games_filter_by_player_member_kind_round_and_division(
    riverside_open, anon
):
    ids = riverside_open.ids

    def count(**params):
        return len(all_pages(anon, "/api/ratings/games", params))

    # R1, R2 games, R3 bye, R4 forfeit, R5 the withdrawn player's unpaired round
    assert count(player=ids["Di"]) == 5
    assert count(player=ids["Di"], rated="true") == 2
    assert count(member_id="NA1001") == 5
    assert count(member_id="nobody") == 0
    assert count(kind="bye") == 4
    assert count(kind="forfeit") == 3
    assert count(rated="false") == 7
    assert count(round=1) == 4
    assert count(division="B") == 1
    assert count(tournament=riverside_open.tournament_id) == 16


@pytest.mark.django_db
def test_the_games_filter_by_tournament_date(riverside_open, director, anon):
    later = two_player_event(director, [("Ann", 1800), ("Ben", 1700)])
    rows = all_pages(anon, "/api/ratings/games", {"date_from": "2026-12-01"})
    assert {row["tournament"] for row in rows} == {str(later)}
    rows = all_pages(anon, "/api/ratings/games", {"date_to": "2026-11-30"})
    assert {row["tournament"] for row in rows} == {str(riverside_open.tournament_id)}
    both = {"date_from": "2026-11-21", "date_to": "2026-12-05"}
    assert len(all_pages(anon, "/api/ratings/games", both)) == 17


@pytest.mark.django_db
def test_the_games_are_paginated_by_cursor_without_repeats(riverside_open, anon):
    first = anon.get("/api/ratings/games", {"page_size": 4}).json()
    assert len(first["results"]) == 4
    assert first["next"] is not None
    rows = all_pages(anon, "/api/ratings/games", {"page_size": 4})
    keys = [(r["round"], r["division"], r["player1_id"]) for r in rows]
    assert len(keys) == len(set(keys)) == 16
    positions = [row["changed_position"] for row in rows]
    assert positions == sorted(positions)


@pytest.mark.django_db
def test_a_row_amended_while_a_follower_pages_is_not_skipped(club, director, anon):
    """Keyset pages: the amended row moves behind the cursor's end, so every row is
    still seen (with offsets, every later row would shift back by one)."""
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    games = round_games(club, 1)
    for game in games:
        results_services.result_record(
            tournament_id=club,
            round_=1,
            player_a=game.first.player_id,
            player_b=game.second.player_id,
            score_a=400,
            score_b=300,
            user=director,
        )
    page = anon.get("/api/ratings/games", {"page_size": 3, "rated": "true"}).json()
    seen = [row["player1_id"] for row in page["results"]]
    amended = page["results"][0]
    results_services.result_amend(
        tournament_id=club,
        round_=1,
        player_a=amended["player1_id"],
        player_b=amended["player2_id"],
        score_a=401,
        score_b=300,
        user=director,
    )
    while page["next"]:
        page = anon.get(page["next"]).json()
        seen.extend(row["player1_id"] for row in page["results"])
    assert sorted(set(seen)) == sorted(game.first.player_id for game in games)
    assert seen.count(amended["player1_id"]) == 2


@pytest.mark.django_db
def test_an_amended_result_shows_up_again_after_updated_since(club, director, anon):
    """Sync by time and by position: amend a round-1 result after round 2 and only
    that row is new, with the amended score."""
    for round_ in (1, 2):
        pairing_services.round_pair(
            tournament_id=club,
            division="A",
            round_=round_,
            method="swiss",
            user=director,
        )
        for game in round_games(club, round_):
            results_services.result_record(
                tournament_id=club,
                round_=round_,
                player_a=game.first.player_id,
                player_b=game.second.player_id,
                score_a=420,
                score_b=380,
                user=director,
            )
    synced_at = timezone.now()
    synced_position = StoredEvent.objects.order_by("-position")[0].position
    assert all_pages(anon, "/api/ratings/games", {"updated_since": synced_at}) == []
    game = round_games(club, 1)[0]
    results_services.result_amend(
        tournament_id=club,
        round_=1,
        player_a=game.first.player_id,
        player_b=game.second.player_id,
        score_a=420,
        score_b=400,
        reason="slip misread",
        user=director,
    )
    by_time = all_pages(anon, "/api/ratings/games", {"updated_since": synced_at})
    by_position = all_pages(
        anon, "/api/ratings/games", {"after_position": synced_position}
    )
    assert by_time == by_position
    assert len(by_time) == 1
    row = by_time[0]
    assert (row["round"], row["player1_id"]) == (1, game.first.player_id)
    assert (row["player2_score"], row["player1_spread"], row["amended"]) == (
        400,
        20,
        True,
    )
    assert row["changed_position"] > synced_position
    csv_synced = csv_rows(
        anon.get("/api/ratings/games", {"updated_since": synced_at, "format": "csv"})
    )
    assert csv_synced == [as_cells(row)]


@pytest.mark.django_db
def test_a_game_amended_into_a_forfeit_comes_back_unrated(riverside_open, director):
    """A follower that rated the game learns that it is no longer a game."""
    ids = riverside_open.ids
    since = timezone.now()
    results_services.result_amend(
        tournament_id=riverside_open.tournament_id,
        round_=3,
        player_a=ids["Zoë"],
        player_b=ids["Ben"],
        absentee=ids["Zoë"],
        user=director,
    )
    rows = all_pages(APIClient(), "/api/ratings/games", {"updated_since": since})
    assert len(rows) == 1
    assert (rows[0]["kind"], rows[0]["rated"]) == ("forfeit", False)
    assert (rows[0]["player1_result"], rows[0]["player2_result"]) == ("loss", "win")


@pytest.mark.django_db
def test_a_tournament_published_late_shows_all_its_rows_as_new(director, anon):
    hidden = drive_open(director, published=False)
    since = timezone.now()
    assert all_pages(anon, "/api/ratings/games") == []
    setup_services.tournament_publish(
        tournament_id=hidden.tournament_id, published=True, user=director
    )
    rows = all_pages(anon, "/api/ratings/games", {"updated_since": since})
    assert len(rows) == 16


@pytest.mark.django_db
def test_unpublished_tournaments_are_invisible_to_the_ratings_lists(director):
    """Even to their own director: the lists are what ratings bodies may read."""
    hidden = drive_open(director, published=False)
    client = APIClient()
    client.force_authenticate(director)
    for url in ("/api/ratings/games", "/api/ratings/players"):
        assert all_pages(client, url) == []
        assert all_pages(client, url, {"tournament": hidden.tournament_id}) == []
    feed = client.get("/api/ratings/changes").json()
    assert feed["results"] == []
    # The follower still moves past the hidden events.
    assert feed["next"] == feed_head()


@pytest.mark.django_db
def test_a_bad_filter_value_is_a_400(anon):
    response = anon.get("/api/ratings/games", {"updated_since": "yesterday"})
    refused(response, field="updated_since", code="invalid")
    refused(anon.get("/api/ratings/games", {"kind": "draw"}), field="kind")


# --- /api/ratings/players -----------------------------------------------------------


@pytest.mark.django_db
def test_an_1800_beating_an_1700_as_tsh_rates_it(director, anon):
    """By hand: expectation 1 - 1/(1 + e^(0.0031879 x 100)) = 0.57903. The winner
    (16 from 1800) gains 16 x 0.42097 = 6.74 and accelerates by 6.74 - 5 = 1.74:
    1808.47 -> 1808; the loser (20 below 1800) loses 20 x 0.42097 = 8.42 and gets
    1.74 / 20 back: 1691.67 -> 1692. Performance, tsh's search with 95% of a win:
    1700 + 924 and 1800 - 923. tsh's wespa beside it: E = 1/(1 + e^(-100/172)) =
    0.64139; 1800 + 16 x 0.35861 = 1805.74, + 2/3 x 0.74 -> 1806; 1700 - 20 x
    0.35861 -> 1693. No ABSP numbers for a NASPA event."""
    tid = two_player_event(director, [("Ann Able", 1800), ("Ben Baker", 1700)])
    rows = all_pages(anon, "/api/ratings/players", {"tournament": tid})
    got = {
        row["name"]: (
            row["games"],
            row["wins"],
            row["losses"],
            row["spread"],
            row["expected_wins"],
            row["new_rating"],
            row["rating_change"],
            row["performance_rating"],
            row["naspa_rating"],
            row["wespa_rating"],
            row["absp_event_rating"],
        )
        for row in rows
    }
    assert got == {
        "Ann Able": (1, 1, 0, 100, 0.579, 1808, 8, 2624, 1808, 1806, None),
        "Ben Baker": (1, 0, 1, -100, 0.421, 1692, -8, 877, 1692, 1693, None),
    }
    assert {row["rating_system"] for row in rows} == {"nsa2008"}


@pytest.mark.django_db
def test_an_unrated_player_gets_the_iterated_initial_rating(director, anon):
    """An unrated player who beats a 1600 starts at 1600 + 400 = 2000 (the cap); the
    1600 expected 1/(1 + e^(0.0031879 x 400)) = 0.21837 and loses 20 x that: 1596."""
    tid = two_player_event(director, [("New Comer", 0), ("Cy Cole", 1600)])
    rows = {
        row["name"]: row
        for row in all_pages(anon, "/api/ratings/players", {"tournament": tid})
    }
    new = rows["New Comer"]
    assert (new["rating"], new["new_rating"], new["rating_change"]) == (0, 2000, None)
    assert new["absp_event_rating"] is None
    assert (rows["Cy Cole"]["new_rating"], rows["Cy Cole"]["rating_change"]) == (
        1596,
        -4,
    )


@pytest.mark.django_db
def test_byes_and_forfeits_are_counted_apart_from_rated_games(riverside_open, anon):
    rows = {
        row["name"]: row
        for row in all_pages(
            anon, "/api/ratings/players", {"tournament": riverside_open.tournament_id}
        )
    }
    ann = rows["Ann Able"]
    assert (ann["games"], ann["wins"], ann["byes"], ann["forfeits"]) == (2, 2, 1, 2)
    assert ann["spread"] == 40  # 420-390 and 410-400; awarded spreads excluded
    # 1800 twice against 1700: 16 x (2 - 2 x 0.57903) = 13.47, accelerated by
    # 13.47 - 2 x 5 = 3.47: 1816.94.
    assert (ann["new_rating"], ann["rating_change"]) == (1817, 17)
    di = rows["Di Dane"]
    assert di["withdrawn"] is True
    # Round 1's 400-400, won on the tie-break, is rated as the draw its final
    # scores spell, as every estimate rates it (rules.ratings.rated_result).
    assert (di["games"], di["wins"], di["draws"], di["forfeits"]) == (2, 1, 1, 2)
    cy = rows["Cy Cole"]
    assert (cy["wins"], cy["losses"], cy["draws"]) == (1, 1, 2)
    zoe = rows["Zoë Zane"]
    assert (zoe["rating"], zoe["rating_change"]) == (0, None)
    assert zoe["new_rating"] == zoe["performance_rating"]


@pytest.mark.django_db
def test_the_players_filter_paginate_and_export_as_csv(riverside_open, anon):
    body = anon.get("/api/ratings/players", {"limit": 3}).json()
    assert body["count"] == 7
    assert len(body["results"]) == 3
    every = all_pages(anon, "/api/ratings/players", {"limit": 3})
    assert [(r["division"], r["number"]) for r in every] == [
        ("A", 1),
        ("A", 2),
        ("A", 3),
        ("A", 4),
        ("A", 5),
        ("B", 1),
        ("B", 2),
    ]
    only = all_pages(anon, "/api/ratings/players", {"member_id": "NA2001"})
    assert [row["name"] for row in only] == ["Kay Kim"]
    rows = csv_rows(anon.get("/api/ratings/players", {"format": "csv"}))
    assert rows == [as_cells(row) for row in every]


# --- /api/ratings/changes -----------------------------------------------------------

RESULT_TYPES = {
    "result_recorded",
    "result_amended",
    "forfeit_recorded",
    "player_withdrawn",
    "publication_changed",
}


@pytest.mark.django_db
def test_the_feed_lists_the_events_that_changed_results(riverside_open, anon):
    body = anon.get("/api/ratings/changes").json()
    events = body["results"]
    assert {event["event_type"] for event in events} == RESULT_TYPES
    # 9 results, an amendment, a forfeit, a withdrawal and the publication.
    assert len(events) == 13
    positions = [event["position"] for event in events]
    assert positions == sorted(positions)
    assert body["next"] == positions[-1]
    assert body["more"] is False
    amendment = next(e for e in events if e["event_type"] == "result_amended")
    assert amendment["tournament"] == str(riverside_open.tournament_id)
    assert amendment["payload"]["score_b"] == 390
    assert amendment["payload"]["reason"] == "slip misread"
    stored = FeedEntry.objects.get(feed_position=amendment["position"])
    assert amendment["version"] == StoredEvent.objects.get(pk=stored.position).version


@pytest.mark.django_db
def test_the_feed_pages_by_position(riverside_open, anon):
    whole = anon.get("/api/ratings/changes").json()["results"]
    first = anon.get("/api/ratings/changes", {"limit": 10}).json()
    assert (len(first["results"]), first["more"]) == (10, True)
    rest = anon.get("/api/ratings/changes", {"after": first["next"]}).json()
    assert first["results"] + rest["results"] == whole
    done = anon.get("/api/ratings/changes", {"after": rest["next"]}).json()
    assert done == {"results": [], "next": rest["next"], "more": False}


@pytest.mark.django_db
def test_a_follower_sees_mara_amend_round_one_after_round_two(club, director, anon):
    """JOURNEYS, a ratings body's Monday: the amendment arrives as an event."""
    for round_ in (1, 2):
        pairing_services.round_pair(
            tournament_id=club,
            division="A",
            round_=round_,
            method="swiss",
            user=director,
        )
        for game in round_games(club, round_):
            results_services.result_record(
                tournament_id=club,
                round_=round_,
                player_a=game.first.player_id,
                player_b=game.second.player_id,
                score_a=420,
                score_b=380,
                user=director,
            )
    cursor = anon.get("/api/ratings/changes").json()["next"]
    game = round_games(club, 1)[0]
    amended = results_services.result_amend(
        tournament_id=club,
        round_=1,
        player_a=game.first.player_id,
        player_b=game.second.player_id,
        score_a=420,
        score_b=400,
        user=director,
    )
    body = anon.get("/api/ratings/changes", {"after": cursor}).json()
    assert [(e["event_type"], e["version"]) for e in body["results"]] == [
        ("result_amended", amended.version)
    ]
    assert body["results"][0]["payload"]["round"] == 1
    assert (
        body["next"]
        == FeedEntry.objects.get(position=amended.recorded[0].position).feed_position
    )


@pytest.mark.django_db
def test_the_feed_can_follow_one_tournament(riverside_open, director, anon):
    other = two_player_event(director, [("Ann", 1800), ("Ben", 1700)])
    body = anon.get("/api/ratings/changes", {"tournament": other}).json()
    assert {e["tournament"] for e in body["results"]} == {str(other)}
    assert [e["event_type"] for e in body["results"]] == [
        "publication_changed",
        "result_recorded",
    ]


@pytest.mark.django_db
def test_the_feed_holds_nothing_back(riverside_open, director, anon):
    """Numbered at commit, an event is in the feed as soon as it is committed: the
    old settle window (events younger than 5 s held back) is gone."""
    cursor = anon.get("/api/ratings/changes").json()["next"]
    game = round_games(riverside_open.tournament_id, 2)[0]
    amended = results_services.result_amend(
        tournament_id=riverside_open.tournament_id,
        round_=2,
        player_a=game.first.player_id,
        player_b=game.second.player_id,
        score_a=401,
        score_b=399,
        user=director,
    )
    body = anon.get("/api/ratings/changes", {"after": cursor}).json()
    assert [e["version"] for e in body["results"]] == [amended.version]
    assert body["more"] is False


@pytest.mark.django_db
def test_the_feed_refuses_a_bad_cursor(anon):
    response = anon.get("/api/ratings/changes", {"after": "-1"})
    refused(response, field="after", code="min_value")
    refused(anon.get("/api/ratings/changes", {"limit": 5000}), field="limit")


# --- Schema and page ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_openapi_schema_documents_the_ratings_exports(anon):
    schema = anon.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path_ in (
        "/api/ratings/games",
        "/api/ratings/players",
        "/api/ratings/changes",
        "/api/tournaments/{tournament_id}/export/naspa.t",
        "/api/tournaments/{tournament_id}/export/tournament.tou",
        "/api/tournaments/{tournament_id}/export/absp.csv",
    ):
        assert "get" in paths[path_], path_
    games = paths["/api/ratings/games"]["get"]
    names = {p["name"] for p in games["parameters"]}
    assert {"updated_since", "member_id", "player", "date_from", "format"} <= names
    assert set(games["responses"]["200"]["content"]) == {"application/json", "text/csv"}
    tou = paths["/api/tournaments/{tournament_id}/export/tournament.tou"]["get"]
    assert set(tou["responses"]["200"]["content"]) == {"text/plain"}


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_the_estimates_page_shows_each_players_estimate(riverside_open, anon):
    response = anon.get(f"/tournaments/{riverside_open.tournament_id}/ratings")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Rating estimates" in page
    assert "Ann Able" in page
    assert "1817" in page  # Ann's new rating
    assert "+17" in page
    assert "unrated" in page  # Zoë
    assert f"/api/tournaments/{riverside_open.tournament_id}/export/naspa.t" in page
    response = anon.get(
        f"/tournaments/{riverside_open.tournament_id}/ratings", {"division": "B"}
    )
    assert "Kay Kim" in response.content.decode()
    assert "Ann Able" not in response.content.decode()


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_the_estimates_page_of_an_unpublished_tournament_is_for_its_directors(
    director, anon
):
    hidden = drive_open(director, published=False)
    url = f"/tournaments/{hidden.tournament_id}/ratings"
    assert anon.get(url).status_code == 404
    client = APIClient()
    client.force_login(director)
    assert client.get(url).status_code == 200
    assert client.get(url, {"division": "Z"}).status_code == 404
