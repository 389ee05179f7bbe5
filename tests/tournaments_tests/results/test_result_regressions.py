"""Issue 17's five defects, each through the API and through the page.

1. An amendment kept the superseded result's finals as its pre-adjustment scores.
2. A withdrawal under the forfeit policy with forfeit_spread 0 showed "unplayed".
3. The pairings of rounds after a withdrawal did not show its forfeits.
4. A result contradicting its linked game was stored.
5. A game started over REST ignored the tournament's rules (tested in
   tests/games_tests/test_tournament_games.py, page and API).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import services as game_services
from games.eventstore.models import StoredEvent
from games.models import GameProjection
from tests.boards import board_of
from tournaments.core import aggregate
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
def page(director):
    client = Client()
    client.force_login(director)
    return client


def make(director, *, forfeit_spread: int = 50, preset: str = "classic", n: int = 4):
    """A tournament of ``n`` players, round 1 paired by hand (1 v 2, 3 v 4)."""
    tid = setup_services.tournament_create(
        user=director,
        name="Regression Open",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=3,
        preset=preset,
        ties_are_draws=False,
        forfeit_spread=forfeit_spread,
    ).stream.id
    names = ["Ann Able", "Ben Baker", "Cy Cole", "Di Dane", "Ed Eames"][:n]
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[(name, 1500 - 10 * i, "") for i, name in enumerate(names)],
        user=director,
    )
    _, state = aggregate.tournament_state(tid)
    ids = list(state.rules.division_players["A"])
    pairing_services.round_pair(
        tournament_id=tid,
        division="A",
        round_=1,
        method="manual",
        games=[(1, ids[0], ids[1]), (2, ids[2], ids[3])],
        byes=ids[4:],
        user=director,
    )
    return tid, ids


def rating_row(api, tid, round_, player_id):
    rows = api.get("/api/ratings/games", {"tournament": tid, "round": round_}).json()
    return next(r for r in rows["results"] if player_id in (r["player1_id"],))


def standing(api, tid, player_id, after_round):
    body = api.get(
        f"/api/tournaments/{tid}/standings",
        {"division": "A", "after_round": after_round},
    ).json()
    return next(r for r in body["standings"] if r["player"] == player_id)


# --- 1. An amendment replaces the whole result ------------------------------------


@pytest.mark.django_db
def test_an_amendment_through_the_api_keeps_no_stale_pre_adjustment_scores(
    api, director
):
    tid, ids = make(director)
    result = {"round": 1, "player_a": ids[0], "player_b": ids[1]}
    assert (
        api.post(
            f"/api/tournaments/{tid}/results",
            {**result, "score_a": 377, "score_b": 365},
            format="json",
        ).status_code
        == 201
    )
    amended = api.post(
        f"/api/tournaments/{tid}/results/amend",
        {**result, "score_a": 357, "score_b": 365, "reason": "misread"},
        format="json",
    )
    assert amended.status_code == 201, amended.json()
    row = rating_row(api, tid, 1, ids[0])
    assert (row["player1_score"], row["player1_pre_adjustment"]) == (357, None)
    assert standing(api, tid, ids[0], 1)["total_score"] == 357
    # Pre-adjustment scores sent with a non-tied amendment are refused, not kept.
    before = StoredEvent.objects.filter(stream_id=tid).count()
    stale = api.post(
        f"/api/tournaments/{tid}/results/amend",
        {
            **result,
            "score_a": 350,
            "score_b": 365,
            "pre_adjustment_a": 377,
            "pre_adjustment_b": 365,
        },
        format="json",
    )
    assert stale.status_code == 400
    assert (stale.json()["code"], stale.json()["field"]) == (
        "pre_adjustment_not_needed",
        "pre_adjustment_a",
    )
    assert StoredEvent.objects.filter(stream_id=tid).count() == before
    # Amended into a tie, the rule asks for the scores before the adjustments.
    tie = api.post(
        f"/api/tournaments/{tid}/results/amend",
        {**result, "score_a": 402, "score_b": 402},
        format="json",
    )
    assert tie.status_code == 400
    assert tie.json()["code"] == "pre_adjustment_scores_required"
    decided = api.post(
        f"/api/tournaments/{tid}/results/amend",
        {
            **result,
            "score_a": 402,
            "score_b": 402,
            "pre_adjustment_a": 390,
            "pre_adjustment_b": 396,
        },
        format="json",
    )
    assert decided.status_code == 201
    row = rating_row(api, tid, 1, ids[0])
    assert (row["winner"], row["tie_break"]) == (ids[1], "pre_adjustment_score")
    assert standing(api, tid, ids[1], 1)["total_score"] == 396


@pytest.mark.django_db
def test_the_amend_page_shows_the_result_and_sends_only_what_is_confirmed(
    api, page, director
):
    tid, ids = make(director)
    results_services.result_record(
        tournament_id=tid,
        round_=1,
        player_a=ids[0],
        player_b=ids[1],
        score_a=377,
        score_b=365,
        user=director,
    )
    url = reverse("manage-amend", args=[tid, "A", 1, 1])
    shown = page.get(url)
    body = shown.content.decode()
    assert "Ann Able 377 – 365 Ben Baker, won by Ann Able" in body
    initial = shown.context["form"].initial
    assert (initial["a_score"], initial["b_score"]) == (377, 365)
    assert "a_pre" not in initial  # no tie: nothing before the adjustments
    # A browser sends the hidden tie boxes too; for a non-tie they are dropped.
    response = page.post(
        url,
        {
            "a_score": 357,
            "b_score": 365,
            "a_pre": 377,
            "b_pre": 365,
            "reason": "misread",
            "version": initial["version"],
            "confirm": "1",  # the preview's Confirm (tests/.../test_amend_impact.py)
        },
    )
    assert response.status_code == 302
    row = rating_row(api, tid, 1, ids[0])
    assert (row["player1_score"], row["player1_pre_adjustment"]) == (357, None)
    tied = page.post(
        url,
        {
            "a_score": 402,
            "b_score": 402,
            "version": page.get(url).context["form"].initial["version"],
        },
    )
    assert tied.status_code == 400
    assert "enter both scores before the end-of-game adjustments" in (
        tied.content.decode()
    )


# --- 2 and 3. A withdrawal's forfeits, forfeit spread 0 ----------------------------


@pytest.mark.django_db
def test_a_withdrawal_forfeit_with_a_zero_spread_is_a_loss_everywhere(
    api, page, director
):
    tid, ids = make(director, forfeit_spread=0, n=5)
    results_services.result_record(
        tournament_id=tid,
        round_=1,
        player_a=ids[0],
        player_b=ids[1],
        score_a=400,
        score_b=300,
        user=director,
    )
    for a, b in ((ids[2], ids[3]),):
        results_services.result_record(
            tournament_id=tid,
            round_=1,
            player_a=a,
            player_b=b,
            score_a=390,
            score_b=380,
            user=director,
        )
    players_services.player_withdraw(
        tournament_id=tid, player_id=ids[0], from_round=2, user=director
    )
    pairing_services.round_pair(
        tournament_id=tid,
        division="A",
        round_=2,
        method="manual",
        games=[(1, ids[1], ids[2]), (2, ids[3], ids[4])],
        user=director,
    )
    card = api.get(f"/api/tournaments/{tid}/players/{ids[0]}/scorecard").json()
    second = card["rounds"][1]
    assert (second["kind"], second["result"], second["spread"]) == (
        "withdrawal_forfeit",
        "loss",
        0,
    )
    assert (second["record"], second["has_result"]) == ("1-1", True)
    body = page.get(reverse("scorecard", args=[tid, ids[0]])).content.decode()
    assert "withdrawn" in body
    assert '<span class="">loss</span>' in body
    # The round's pairings show the withdrawn player's forfeit too.
    pairings = api.get(
        f"/api/tournaments/{tid}/rounds/2/pairings", {"division": "A"}
    ).json()
    alone = [line for line in pairings if line["second"] is None]
    assert [(line["first"]["player"], line["first"]["kind"]) for line in alone] == [
        (ids[0], "withdrawal_forfeit")
    ]
    text = page.get(reverse("round-pairings", args=[tid, "A", 2])).content.decode()
    assert "Ann Able" in text
    assert ">absent<" in text  # the round's badge; her own says "withdrawn"


# --- 4. A linked game's result is read from its replay -----------------------------


@pytest.mark.django_db
def test_a_result_that_contradicts_its_game_is_refused_and_the_game_decides(
    api, page, director, shared_gcg_dir
):
    tid, ids = make(director, preset="naspa")
    text = (shared_gcg_dir / "doug_v_emely.gcg").read_bytes()
    result, _ = game_services.game_import_gcg(
        text=text,
        user=director,
        context={
            "tournament_id": str(tid),
            "division": "A",
            "round": 1,
            "board": 1,
            "player_ids": [ids[0], ids[1]],
        },
    )
    game = GameProjection.objects.get(pk=result.stream.id)
    assert game.is_over
    before = StoredEvent.objects.filter(stream_id=tid).count()
    wrong = api.post(
        f"/api/tournaments/{tid}/results",
        {
            "round": 1,
            "player_a": ids[0],
            "player_b": ids[1],
            "score_a": 100,
            "score_b": 200,
            "game_id": str(game.game_id),
        },
        format="json",
    )
    assert wrong.status_code == 400
    assert (wrong.json()["code"], wrong.json()["field"]) == (
        "result_contradicts_game",
        "score_a",
    )
    assert StoredEvent.objects.filter(stream_id=tid).count() == before
    other_board = api.post(
        f"/api/tournaments/{tid}/results",
        {
            "round": 1,
            "player_a": ids[2],
            "player_b": ids[3],
            "game_id": str(game.game_id),
        },
        format="json",
    )
    assert other_board.status_code == 400
    assert other_board.json()["code"] == "game_not_of_pairing"
    # The page's "record this result" reads the game; nothing is typed twice.
    response = page.post(reverse("manage-result-from-game", args=[tid, game.game_id]))
    assert response.status_code == 302
    board = board_of(tid, 1, 1)
    assert (board.first.own_score, board.first.opponent_score) == tuple(game.scores)
    assert (
        board.first.own_pre_adjustment,
        board.first.opponent_pre_adjustment,
    ) == tuple(game.scores_before_adjustments or game.scores)
    assert board.game_id == game.game_id


# --- Issue 32, item 5: a missed round is not a withdrawal ---------------------------


@pytest.mark.django_db
def test_a_missed_round_reads_absent_not_withdrawn(api, page, director):
    """Ann misses round 2 and plays round 3: the round's pairings, the wall chart
    and her scorecard say she was absent for round 2, not that she withdrew."""
    tid, ids = make(director, n=4)
    for a, b in ((ids[0], ids[1]), (ids[2], ids[3])):
        results_services.result_record(
            tournament_id=tid,
            round_=1,
            player_a=a,
            player_b=b,
            score_a=400,
            score_b=300,
            user=director,
        )
    players_services.round_missed(
        tournament_id=tid, player_id=ids[0], round_=2, user=director
    )
    pairing_services.round_pair(
        tournament_id=tid,
        division="A",
        round_=2,
        method="manual",
        games=[(1, ids[1], ids[2])],
        byes=[ids[3]],
        user=director,
    )
    pairings = page.get(f"/tournaments/{tid}/divisions/A/rounds/2/").content.decode()
    chart = page.get(f"/tournaments/{tid}/divisions/A/wallchart/").content.decode()
    card = page.get(reverse("scorecard", args=[tid, ids[0]])).content.decode()
    for body in (pairings, chart, card):
        assert re.search(r">\s*absent\b", body)
        assert not re.search(r">\s*withdrawn\b", body)
