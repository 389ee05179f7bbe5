"""Issue 22: a division's pairing rules and prize table, through the API.

The rules are events (``PairingRulesSet``, ``PrizeTableSet``) the system pairings
and the prize page read; the winners are computed from the results on read, so a
corrected result moves a prize. A hand pairing that repeats earlier rounds is shown
(refused with the repeats named) before it is stored.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.boards import round_games
from tests.refusals import refused
from tests.tournaments_tests.players.test_directors_day import (
    audit,
    enter_round,
    paired_club,
)
from tournaments.results import services


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def rules_url(tid, division="A"):
    return f"/api/tournaments/{tid}/divisions/{division}/pairing-rules"


def prizes_url(tid, division="A"):
    return f"/api/tournaments/{tid}/divisions/{division}/prizes"


@pytest.mark.django_db
def test_pairing_rules_are_set_read_and_audited(api, director):
    tid, ids = paired_club(director)
    assert api.get(rules_url(tid)).json()["gibson"] is False
    response = api.patch(
        rules_url(tid),
        {
            "gibson": True,
            "max_repeats": 1,
            "fixed_boards": [{"player_id": ids[3], "board": 5}],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    read = api.get(rules_url(tid)).json()
    assert (read["gibson"], read["max_repeats"], read["gibson_spread"]) == (
        True,
        1,
        500,
    )
    assert read["fixed_boards"] == [{"player_id": ids[3], "board": 5}]
    last = audit(api, tid)[-1]
    assert last["recorded_by"] == director.username
    # A correction changes the fields it gives and keeps the others.
    assert (
        api.patch(rules_url(tid), {"max_repeats": 2}, format="json").status_code == 201
    )
    again = api.get(rules_url(tid)).json()
    assert (again["gibson"], again["max_repeats"], again["fixed_boards"]) == (
        True,
        2,
        read["fixed_boards"],
    )
    assert "gibson False → True" in last["summary"]
    assert "max_repeats None → 1" in last["summary"]


@pytest.mark.django_db
def test_bad_pairing_rules_are_refused_naming_the_field(
    api, director, django_user_model
):
    tid, _ = paired_club(director)
    _, other_ids = paired_club(director)
    stranger = django_user_model.objects.create_user("zed", password="pw-zed-12345")
    cases = [
        ({"fixed_boards": [{"player_id": other_ids[0], "board": 2}]}, "fixed_boards"),
        ({"prize_bands": [3, 1]}, "prize_bands"),
        ({"gibson_spread": -5}, "gibson_spread"),
        ({"max_repeats": "often"}, "max_repeats"),
    ]
    before = len(audit(api, tid))
    for body, field in cases:
        response = api.patch(rules_url(tid), body, format="json")
        assert response.status_code == 400, body
        answer = response.json()
        assert answer.get("field") == field or field in answer, answer
    assert len(audit(api, tid)) == before
    assert api.patch(rules_url(tid, "Z"), {}, format="json").status_code == 404
    outsider = APIClient()
    outsider.force_authenticate(stranger)
    assert (
        outsider.patch(rules_url(tid), {"gibson": True}, format="json").status_code
        == 403
    )
    stale = api.patch(
        rules_url(tid), {"gibson": True, "expected_version": 1}, format="json"
    )
    assert stale.status_code == 409


@pytest.mark.django_db
def test_system_pairings_follow_the_division_s_rules(api, director):
    tid, ids = paired_club(director, players=6)
    enter_round(tid, director, 1)
    pinned = ids[4]
    api.patch(
        rules_url(tid),
        {"fixed_boards": [{"player_id": pinned, "board": 7}]},
        format="json",
    )
    for method in ("chew", "cop", "swiss"):
        response = api.post(
            f"/api/tournaments/{tid}/rounds/2/pair",
            {"division": "A", "method": method},
            format="json",
        )
        assert response.status_code == 201, (method, response.json())
        boards = {
            g.board
            for g in round_games(tid, 2)
            if pinned in (g.first.player_id, g.second.player_id)
        }
        assert boards == {7}, method


@pytest.mark.django_db
def test_a_hand_pairing_that_repeats_is_shown_before_it_is_stored(api, director):
    tid, _ = paired_club(director)
    enter_round(tid, director, 1)
    games = [
        {"board": g.board, "first": g.first.player_id, "second": g.second.player_id}
        for g in round_games(tid, 1)
    ]
    body = {"division": "A", "method": "manual", "games": games}
    before = len(audit(api, tid))
    refused = api.post(f"/api/tournaments/{tid}/rounds/2/pair", body, format="json")
    assert refused.status_code == 400
    answer = refused.json()
    assert (answer["code"], answer["field"]) == ("repeat_pairing", "games")
    assert answer["message"].startswith(
        "2 games of this pairing repeat an earlier round"
    )
    first = round_games(tid, 1)[0]
    assert f"{first.first.name} and {first.second.name} (round 1)" in answer["message"]
    assert len(audit(api, tid)) == before
    kept = api.post(
        f"/api/tournaments/{tid}/rounds/2/pair",
        {**body, "allow_repeats": True},
        format="json",
    )
    assert kept.status_code == 201, kept.json()


def _slip(tid, director, round_, scores):
    """Record round ``round_``'s boards in board order with ``scores``."""
    for game, (a, b) in zip(round_games(tid, round_), scores, strict=True):
        services.result_record(
            tournament_id=tid,
            round_=round_,
            player_a=game.first.player_id,
            player_b=game.second.player_id,
            score_a=a,
            score_b=b,
            user=director,
        )


@pytest.mark.django_db
def test_prize_winners_come_from_the_results_with_ties_split(api, director):
    tid, _ = paired_club(director)
    _slip(tid, director, 1, [(400, 300), (400, 300)])
    table = {
        "classes": [{"name": "B", "highest": 1499}],
        "prizes": [
            {"kind": "place", "amount": "100.00", "place": 1},
            {"kind": "place", "amount": "50.00", "place": 2},
            {"kind": "high_game", "amount": "20.00"},
            {"kind": "high_loss", "amount": "10.00", "label": "Best loser"},
        ],
    }
    response = api.post(prizes_url(tid), table, format="json")
    assert response.status_code == 201, response.json()
    board = api.get(prizes_url(tid)).json()
    standings = api.get(f"/api/tournaments/{tid}/standings").json()["standings"]
    leaders = {row["player"] for row in standings if row["rank"] == 1}
    first, second = board["prizes"][0], board["prizes"][1]
    # Both winners are 1–0, +100, 400 points: tied for 1st, 1st and 2nd pooled.
    assert standings[0]["rank"] == standings[1]["rank"] == 1
    assert {w["player"] for w in first["winners"]} == leaders
    assert [w["amount"] for w in first["winners"]] == ["50.00", "50.00"]
    assert [w["amount"] for w in second["winners"]] == ["25.00", "25.00"]
    high = board["prizes"][2]
    assert high["title"] == "High game"
    assert [(w["value"], w["amount"], w["shared_with"]) for w in high["winners"]] == [
        (400, "10.00", 2),
        (400, "10.00", 2),
    ]
    assert board["prizes"][3]["title"] == "Best loser"
    assert {w["value"] for w in board["prizes"][3]["winners"]} == {300}
    assert all(board["player_classes"][p] == "B" for p in board["player_classes"])
    # A corrected result moves the prize: no new prize event, only the result's.
    game = round_games(tid, 1)[1]
    services.result_amend(
        tournament_id=tid,
        round_=1,
        player_a=game.first.player_id,
        player_b=game.second.player_id,
        score_a=450,
        score_b=300,
        user=director,
    )
    moved = api.get(prizes_url(tid)).json()["prizes"][0]["winners"]
    assert [(w["player"], w["amount"]) for w in moved] == [
        (game.first.player_id, "100.00")
    ]
    assert "Prize table of A: 4 prizes, 1 rating classes" in [
        e["summary"] for e in audit(api, tid)
    ]


@pytest.mark.django_db
def test_a_prize_table_that_makes_no_sense_is_refused(api, director):
    tid, _ = paired_club(director)
    cases = [
        (
            {"prizes": [{"kind": "place", "amount": "5", "rating_class": "Z"}]},
            "prizes[0]",
        ),
        (
            {"classes": [{"name": "A", "lowest": 1600, "highest": 1500}], "prizes": []},
            "classes",
        ),
        (
            {
                "prizes": [
                    {
                        "kind": "high_game",
                        "amount": "5",
                        "first_round": 3,
                        "last_round": 2,
                    }
                ]
            },
            "prizes[0]",
        ),
        ({"prizes": [{"kind": "place", "amount": "5", "first_round": 1}]}, "prizes[0]"),
    ]
    for body, field in cases:
        response = api.post(prizes_url(tid), body, format="json")
        assert response.status_code == 400, body
        assert response.json()["field"] == field, response.json()
    bad_kind = api.post(
        prizes_url(tid), {"prizes": [{"kind": "luck", "amount": "5"}]}, format="json"
    )
    refused(bad_kind, field="prizes.0.kind", code="invalid_choice")
    assert api.get(prizes_url(tid)).json()["prizes"] == []


@pytest.mark.django_db
def test_rules_and_prizes_follow_a_division_renamed(api, director):
    tid, _ = paired_club(director)
    api.patch(rules_url(tid), {"gibson": True}, format="json")
    api.post(
        prizes_url(tid), {"prizes": [{"kind": "place", "amount": "10"}]}, format="json"
    )
    api.patch(f"/api/tournaments/{tid}/divisions/A", {"name": "Premier"}, format="json")
    assert api.get(rules_url(tid, "Premier")).json()["gibson"] is True
    assert len(api.get(prizes_url(tid, "Premier")).json()["prizes"]) == 1
