"""Rating estimates through the API and the page: they follow the tournament's rating
system, its configured rounds, its club setting, the players' career games and the
round asked for, and equal what rules.ratings computes from the same games."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from rules.ratings import (
    NSA2008,
    WESPA,
    AbspEvent,
    RatedGame,
    RatedPlayer,
    absp_running_rating,
    elo_system,
    rate_division,
    rate_event,
)
from rules.records import (
    DivisionRecord,
    EntryKind,
    PlayerRecord,
    RoundEntry,
    TournamentRecord,
)
from tests.refusals import refused

# The estimates page mounted as in test_ratings_api (the project mounts it itself).
from tests.tournaments_tests.ratings.test_ratings_api import urlpatterns  # noqa: F401
from tests.tournaments_tests.ratings.test_tsh_files import (
    DIVISION_A,
    DIVISION_B,
    upload,
)
from tournaments.core import aggregate
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.ratings.estimates import division_estimates, tournament_record
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services


@pytest.fixture
def anon():
    return APIClient()


def run_event(
    director,
    players,
    games,
    *,
    rounds,
    name="Estimates Open",
    start="2026-12-05",
    **settings,
):
    """A published event: `players` as (name, rating, member id, career games),
    `games` as (round, first, second, first's score, second's score) by index."""
    tid = setup_services.tournament_create(
        user=director,
        name=name,
        start_date=start,
        end_date=start,
        rounds=rounds,
        **settings,
    ).stream.id
    players_services.players_register(
        tournament_id=tid, division="A", entries=players, user=director
    )
    ids = aggregate.tournament_state(tid)[1].rules.division_players["A"]
    by_round: dict[int, list] = {}
    for game in games:
        by_round.setdefault(game[0], []).append(game)
    for round_, played in sorted(by_round.items()):
        pairing_services.round_pair(
            tournament_id=tid,
            division="A",
            round_=round_,
            method="manual",
            games=[(b, ids[g[1]], ids[g[2]]) for b, g in enumerate(played, start=1)],
            user=director,
        )
        for _, first, second, score_a, score_b in played:
            results_services.result_record(
                tournament_id=tid,
                round_=round_,
                player_a=ids[first],
                player_b=ids[second],
                score_a=score_a,
                score_b=score_b,
                user=director,
            )
    return tid


def estimates(client, tid, **params):
    response = client.get("/api/ratings/players", {"tournament": tid, **params})
    assert response.status_code == 200, response.content
    return {row["name"]: row for row in response.json()["results"]}


def rated(games, ratings, careers=None):
    """The same games for rules.ratings, numbered from 1."""
    careers = careers or [None] * len(ratings)
    players = [
        RatedPlayer(i, r, c)
        for i, (r, c) in enumerate(zip(ratings, careers, strict=True), 1)
    ]
    won = [
        RatedGame(round_, a + 1, b + 1, 1.0 if sa > sb else 0.0 if sa < sb else 0.5)
        for round_, a, b, sa, sb in games
    ]
    return players, won


GAMES = [(1, 0, 1, 420, 380), (2, 1, 2, 400, 390), (3, 2, 0, 350, 410)]


@pytest.mark.django_db
def test_career_games_from_the_api_pick_the_multiplier(director, anon):
    """Ann has 10 career games: provisional multipliers (30 below 1800)."""
    players = [("Ann", 1500, "", 10), ("Ben", 1500, "", None), ("Cy", 1500, "", 400)]
    tid = run_event(director, players, GAMES, rounds=3)
    rows = estimates(anon, tid)
    expect = rate_event(*rated(GAMES, [1500, 1500, 1500], [10, None, 400]), rounds=3)
    assert [rows[n]["new_rating"] for n in ("Ann", "Ben", "Cy")] == [
        expect[i].new for i in (1, 2, 3)
    ]
    assert rows["Ann"]["career_games"] == 10
    assert rows["Ben"]["career_games"] is None
    # Ann won both of her games: +30 x 2 x 0.5 = 30, accelerated by 30 - 10 = 20.
    assert rows["Ann"]["new_rating"] == 1550


@pytest.mark.django_db
def test_the_estimate_after_each_round(director, anon):
    """after_round k counts rounds 1..k; after round 0 everyone keeps the pre-event
    rating (a number, never null)."""
    players = [("Ann", 1500, "", None), ("Ben", 1600, "", None), ("Cy", 0, "", None)]
    tid = run_event(director, players, GAMES, rounds=3)
    for k in (1, 2, 3):
        rows = estimates(anon, tid, after_round=k)
        expect = rate_event(*rated(GAMES, [1500, 1600, 0]), rounds=3, after_round=k)
        assert [rows[n]["new_rating"] for n in ("Ann", "Ben", "Cy")] == [
            expect[i].new for i in (1, 2, 3)
        ]
        assert {row["after_round"] for row in rows.values()} == {k}
    before = estimates(anon, tid, after_round=0)
    assert [before[n]["new_rating"] for n in ("Ann", "Ben", "Cy")] == [1500, 1600, 0]
    assert before["Ann"]["rating_change"] == 0
    # Cy's first game is in round 2: after round 1 Cy is still unrated.
    assert estimates(anon, tid, after_round=1)["Cy"]["new_rating"] == 0


@pytest.mark.django_db
def test_a_bad_round_is_a_400(director, anon):
    tid = run_event(director, [("Ann", 1500, "", None)], [], rounds=3)
    response = anon.get("/api/ratings/players", {"tournament": tid, "after_round": "x"})
    refused(response, field="after_round", code="invalid")


@pytest.mark.django_db
def test_segments_follow_the_configured_rounds(director, anon):
    """17 rounds configured, 10 played: rounds 1-9 and 10 are rated apart."""
    games = [(r, 0, 1, 400, 300) for r in range(1, 11)]
    players = [("Ann", 1500, "", None), ("Ben", 1500, "", None)]
    tid = run_event(director, players, games, rounds=17)
    split = rate_event(*rated(games, [1500, 1500]), rounds=17)
    whole = rate_event(*rated(games, [1500, 1500]), rounds=10)
    assert split[1].new != whole[1].new
    assert estimates(anon, tid)["Ann"]["new_rating"] == split[1].new


@pytest.mark.django_db
def test_a_wespa_event_estimates_with_tsh_s_wespa_beside_naspa(director, anon):
    players = [("Ann", 1800, "", None), ("Ben", 1700, "", None)]
    tid = run_event(director, players, GAMES[:1], rounds=1, rating_system="wespa")
    rows = estimates(anon, tid)
    wespa = rate_event(*rated(GAMES[:1], [1800, 1700]), WESPA)
    naspa = rate_event(*rated(GAMES[:1], [1800, 1700]), NSA2008)
    assert rows["Ann"]["rating_system"] == "wespa"
    assert rows["Ann"]["new_rating"] == rows["Ann"]["wespa_rating"] == wespa[1].new
    assert rows["Ann"]["naspa_rating"] == naspa[1].new
    assert wespa[1].new != naspa[1].new


@pytest.mark.django_db
def test_a_club_event_uses_the_lct_rule(director, anon):
    """1500 beats 1500 at a club: +10 / 3, no acceleration: 1503."""
    players = [("Ann", 1500, "", None), ("Ben", 1500, "", None)]
    tid = run_event(director, players, GAMES[:1], rounds=1, club_event=True)
    rows = estimates(anon, tid)
    assert rows["Ann"]["club_event"] is True
    assert (rows["Ann"]["new_rating"], rows["Ben"]["new_rating"]) == (1503, 1497)
    club = rate_event(*rated(GAMES[:1], [1500, 1500]), elo_system("nsa2008", club=True))
    assert club[1].new == 1503


@pytest.mark.django_db
def test_an_absp_event_has_the_event_rating_and_the_running_rating(director, anon):
    """An earlier ABSP event of Ann's (same membership id) counts in her running
    rating; the NASPA and WESPA columns are empty.

    Earlier: Ann (150) beat Ben (140): 140 + 50 = 190 over 1 game. Now: Ann (160)
    beats Cy (170): 220, loses to Ben (150): 100; event 160 over 2 games. Running:
    weights 225, 224 now and 223 before.
    """
    earlier = run_event(
        director,
        [("Ann", 150, "A1", None), ("Ben", 140, "B1", None)],
        [(1, 0, 1, 400, 300)],
        rounds=1,
        rating_system="absp",
        name="Spring",
        start="2026-03-01",
    )
    assert earlier
    tid = run_event(
        director,
        [("Ann", 160, "A1", None), ("Ben", 150, "B1", None), ("Cy", 170, "", None)],
        [(1, 0, 2, 400, 300), (2, 1, 0, 420, 380)],
        rounds=2,
        rating_system="absp",
    )
    rows = estimates(anon, tid)
    ann = rows["Ann"]
    assert ann["absp_event_rating"] == 160
    running = absp_running_rating([AbspEvent(320, 2), AbspEvent(190, 1)])
    assert running == round((225 * 160 + 224 * 160 + 223 * 190) / (225 + 224 + 223))
    assert (ann["absp_rating"], ann["new_rating"], ann["rating_change"]) == (
        running,
        running,
        running - 160,
    )
    assert (ann["naspa_rating"], ann["wespa_rating"]) == (None, None)


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_the_page_shows_the_system_the_club_rule_and_each_round(director, anon):
    players = [("Ann", 1500, "", None), ("Ben", 1600, "", None), ("Cy", 0, "", None)]
    tid = run_event(director, players, GAMES, rounds=3, club_event=True)
    page = anon.get(f"/tournaments/{tid}/ratings").content.decode()
    assert "NASPA (nsa2008)" in page
    assert "club event" in page
    assert "Rounds 1 to 3 are counted" in page
    after_one = anon.get(f"/tournaments/{tid}/ratings", {"round": 1}).content.decode()
    assert "Rounds 1 to 1 are counted" in after_one
    expect = rate_event(
        *rated(GAMES, [1500, 1600, 0]),
        elo_system("nsa2008", club=True),
        after_round=1,
    )
    assert f'<td class="num">{expect[1].new}</td>' in after_one
    assert anon.get(f"/tournaments/{tid}/ratings", {"round": "x"}).status_code == 404


def test_a_division_with_fewer_rounds_is_split_by_its_own_rounds():
    """Issue 32: NASPA cuts an event into segments by its configured rounds (20:
    rounds 1-10 and 11-20; 16: one segment). A division playing 16 of the event's
    20 rounds (max_div_rounds) is estimated on 16, not the event's 20."""

    def played(opponent, result):
        return tuple(
            RoundEntry(
                r,
                EntryKind.GAME,
                opponent,
                400 if result else 350,
                350 if result else 400,
                result=result,
            )
            for r in range(1, 12)
        )

    players = (
        PlayerRecord(1, "Ann", 1500, played(2, 1.0)),
        PlayerRecord(2, "Ben", 1500, played(1, 0.0)),
    )
    division = DivisionRecord("B", players, rounds=16)
    record = TournamentRecord("Open", "2026-07-01", (division,), rounds=20)
    estimate = division_estimates(record, division)[1].new_rating
    own = rate_division(division, NSA2008, rounds=16)[1].new
    event = rate_division(division, NSA2008, rounds=20)[1].new
    assert own != event  # the test means something: the cut changes the figure
    assert estimate == own


@pytest.mark.django_db
def test_the_record_carries_each_divisions_own_rounds(director):
    """The estimates' record gives each division its rounds_of (max_div_rounds)."""
    config = (
        "division a a.t\n"
        "division b b.t\n"
        'config event_name = "Two Lengths"\n'
        "config event_date = 'July 1, 2026'\n"
        "config max_div_rounds = { 'A' => 7, 'B' => 5 }\n"
    )
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(
        "/api/tournaments/import/tsh",
        {
            "config": upload("config.tsh", config),
            "files": [upload("a.t", DIVISION_A), upload("b.t", DIVISION_B)],
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    record = tournament_record(response.json()["tournament"]["id"])
    assert record.rounds == 7
    assert [(d.name, d.rounds) for d in record.divisions] == [("A", 7), ("B", 5)]
