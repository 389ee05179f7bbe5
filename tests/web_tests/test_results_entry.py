"""Fast results entry (with its instant check), forfeits, amendments and the audit
log. Every refused slip says why next to the field, and stores nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.eventstore.models import StoredEvent
from tests.boards import board_of
from tests.web_tests.conftest import ids_by_number, pair_by_hand
from tournaments.models import PlayerRound
from tournaments.players import services as players_services
from tournaments.results import services as results_services

pytestmark = pytest.mark.django_db


def url(tournament_id, name="manage-results", round_=1):
    return reverse(name, args=[tournament_id, "A", round_])


def slip(a, score_a, b, score_b, **extra):
    data = {"a_number": a, "a_score": score_a, "b_number": b, "b_score": score_b}
    data.update(extra)
    return data


def events() -> int:
    return StoredEvent.objects.count()


def result_of(tournament_id, board, round_=1):
    return board_of(tournament_id, round_, board)


def test_the_results_page_lists_the_missing_results(director_client, paired):
    body = director_client.get(url(paired)).content.decode()
    assert "Missing results" in body
    assert body.count("Board ") >= 5
    assert "Without an opponent: #11 Kit Kay (bye)" in body
    assert 'name="a_number"' in body
    assert "autofocus" in body


def test_a_slip_is_recorded(director_client, paired):
    response = director_client.post(url(paired), slip(1, 412, 2, 388))
    assert response.status_code == 302
    board = result_of(paired, 1)
    assert (board.first.own_score, board.first.opponent_score) == (412, 388)
    page = director_client.get(response["Location"]).content.decode()
    assert "Recorded: #1 Ann Able 412 – 388 #2 Ben Baker." in page


def test_a_slip_in_either_order(director_client, paired):
    director_client.post(url(paired), slip(2, 388, 1, 412))
    board = result_of(paired, 1)
    assert (board.first.own_score, board.first.opponent_score) == (412, 388)


def test_with_htmx_the_panel_comes_back_ready_for_the_next_slip(
    director_client, paired
):
    response = director_client.post(
        url(paired), slip(1, 412, 2, 388), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith('<div id="results-panel">')
    assert "Recorded: #1 Ann Able 412 – 388 #2 Ben Baker." in body
    assert 'value="1"' not in body  # a fresh slip
    assert '<span class="count">4</span>' in body
    assert 'name="a_number"' in body
    assert "autofocus" in body


def refused(director_client, tournament_id, data, field, message, **headers):
    before = events()
    response = director_client.post(url(tournament_id), data, **headers)
    body = response.content.decode()
    assert response.status_code == (200 if headers else 400)
    note = body[body.index(f'data-for="{field}"') :]
    assert message in note[: note.index("</")], note[:400]
    assert events() == before
    return body


def test_an_unknown_player_number_is_refused(director_client, paired):
    refused(
        director_client,
        paired,
        slip(12, 400, 2, 300),
        "a_number",
        "No player number 12 in division A.",
    )


def test_a_player_with_a_bye_is_refused(director_client, paired):
    # The rules' refusal, on the field they name (the opponent Kit Kay lacks).
    refused(
        director_client,
        paired,
        slip(11, 400, 2, 300),
        "b_number",
        "Kit Kay and Ben Baker are not paired in round 1: Kit Kay has a bye.",
    )


def test_a_player_not_paired_is_refused(director_client, paired, director):
    players_services.players_register(
        tournament_id=paired,
        division="A",
        entries=[("Lu Lee", 1200, "")],
        user=director,
    )
    refused(
        director_client,
        paired,
        slip(12, 400, 2, 300),
        "a_number",
        "Lu Lee and Ben Baker are not paired in round 1: Lu Lee is not paired.",
    )


def test_the_wrong_opponent_is_refused(director_client, paired):
    refused(
        director_client,
        paired,
        slip(1, 400, 3, 300),
        "b_number",
        "Ann Able and Cy Cole are not paired in round 1: Ann Able plays Ben Baker.",
    )


def test_a_duplicate_entry_is_refused(director_client, paired):
    director_client.post(url(paired), slip(1, 412, 2, 388))
    # The rules name the round's game, not a box: the refusal is the slip's.
    refused(
        director_client,
        paired,
        slip(2, 390, 1, 400),
        "__all__",
        "The round 1 game of Ben Baker and Ann Able already has a result; amend it "
        "instead.",
    )


def test_the_same_slip_sent_again_is_already_recorded_not_stored_twice(
    director_client, paired
):
    """A console that lost the answer sends the slip again (either order of the
    players): it reads as recorded, and no second event is stored."""
    director_client.post(url(paired), slip(1, 412, 2, 388))
    before = events()
    again = director_client.post(
        url(paired), slip(2, 388, 1, 412), HTTP_HX_REQUEST="true"
    )
    assert again.status_code == 200
    assert "Already recorded: #2 Ben Baker 388 – 412 #1 Ann Able." in (
        again.content.decode()
    )
    assert events() == before


def test_a_missing_score_is_asked_for(director_client, paired):
    refused(
        director_client,
        paired,
        {"a_number": 1, "a_score": 400, "b_number": 2, "b_score": ""},
        "b_score",
        "Type the opponent&#x27;s score.",
    )


def test_a_score_that_is_not_a_number_is_refused(director_client, paired):
    refused(
        director_client,
        paired,
        slip(1, "4x0", 2, 300),
        "a_score",
        "Enter a whole number.",
    )


def test_an_out_of_range_score_is_the_rules_refusal(director_client, paired):
    refused(
        director_client,
        paired,
        slip(1, 4004, 2, 300, confirmed="4004,300"),
        "a_score",
        "score_a 4004 is out of range (-1000 to 2000).",
    )


def test_an_unusual_score_asks_for_confirmation_then_is_recorded(
    director_client, paired
):
    body = refused(
        director_client,
        paired,
        slip(1, 95, 2, 430),
        "a_score",
        "95 is an unusual final score: check the slip, then press Enter again",
    )
    assert 'name="confirmed" value="95,430"' in body
    # A different slip is not confirmed by that answer.
    refused(
        director_client,
        paired,
        slip(1, 96, 2, 430, confirmed="95,430"),
        "a_score",
        "96 is an unusual final score",
    )
    response = director_client.post(
        url(paired), slip(1, 95, 2, 430, confirmed="95,430")
    )
    assert response.status_code == 302
    assert result_of(paired, 1).first.own_score == 95


def test_a_tie_asks_for_the_scores_before_the_adjustments(director_client, paired):
    body = refused(
        director_client,
        paired,
        slip(1, 400, 2, 400),
        "a_pre",
        "The final scores are tied at 400: enter both scores before the end-of-game "
        "adjustments to decide the winner.",
    )
    assert '<fieldset class="tie-fields">' in body  # shown, not hidden
    refused(
        director_client,
        paired,
        slip(1, 400, 2, 400, a_pre=390),
        "b_pre",
        "Give both scores before the end-of-game adjustments, or neither.",
    )
    response = director_client.post(
        url(paired), slip(1, 400, 2, 400, a_pre=390, b_pre=395)
    )
    assert response.status_code == 302
    board = result_of(paired, 1)
    assert board.second.outcome == "win"
    assert board.first.tie_break


def test_with_htmx_a_refusal_comes_back_in_the_panel(director_client, paired):
    body = refused(
        director_client,
        paired,
        slip(12, 400, 2, 300),
        "a_number",
        "No player number 12 in division A.",
        HTTP_HX_REQUEST="true",
    )
    assert body.startswith('<div id="results-panel">')


# --- the instant check ------------------------------------------------------------


def check(client, tournament_id, **data):
    response = client.post(url(tournament_id, "manage-results-check"), data)
    assert response.status_code == 200
    return response.json()


def test_the_check_names_the_player_and_their_board(director_client, paired):
    answer = check(director_client, paired, a_number="1")
    assert answer["notes"]["a_number"] == {
        "level": "hint",
        "text": "Ann Able: board 1, goes first, v #2 Ben Baker",
    }
    assert answer["notes"]["b_number"] is None
    assert answer["notes"]["a_score"] is None  # not typed yet: no complaint


@pytest.mark.parametrize(
    ("data", "field", "level", "text"),
    [
        ({"a_number": "12"}, "a_number", "error", "No player number 12 in division A."),
        ({"a_number": "11"}, "a_number", "error", "Kit Kay has a bye in round 1."),
        (
            {"a_number": "1", "b_number": "3"},
            "b_number",
            "error",
            "Ann Able and Cy Cole are not paired in round 1: Ann Able plays Ben Baker.",
        ),
        (
            {"a_number": "11", "b_number": "2"},
            "b_number",
            "error",
            "Kit Kay and Ben Baker are not paired in round 1: Kit Kay has a bye.",
        ),
        ({"a_score": "950"}, "a_score", "warn", "950 is an unusual final score"),
        ({"a_score": "abc"}, "a_score", "error", "Enter a whole number."),
        (
            {"a_number": "1", "a_score": "400", "b_number": "2", "b_score": "400"},
            "a_pre",
            "error",
            "The final scores are tied at 400",
        ),
    ],
)
def test_the_check_gives_each_message_as_it_is_typed(
    director_client, paired, data, field, level, text
):
    note = check(director_client, paired, **data)["notes"][field]
    assert note["level"] == level
    assert note["text"].startswith(text)


def test_the_check_says_when_a_game_already_has_a_result(director_client, paired):
    director_client.post(url(paired), slip(1, 412, 2, 388))
    # One number typed: the rules judge it against that player's paired opponent.
    note = check(director_client, paired, a_number="2")["notes"]["__all__"]
    assert note == {
        "level": "error",
        "text": "The round 1 game of Ben Baker and Ann Able already has a result; "
        "amend it instead.",
    }


def test_the_check_opens_the_tie_inputs(director_client, paired):
    answer = check(director_client, paired, a_score="400", b_score="400")
    assert answer["tied"] is True


def test_the_check_stores_nothing_and_needs_a_director(client, other_user, paired):
    before = events()
    client.force_login(other_user)
    response = client.post(url(paired, "manage-results-check"), {"a_number": "1"})
    assert response.status_code == 403
    assert events() == before


# --- forfeits ---------------------------------------------------------------------


def test_a_forfeit_is_recorded(director_client, paired):
    response = director_client.post(
        url(paired, "manage-forfeit"), {"absentee": 3}, follow=True
    )
    assert "Cy Cole forfeits round 1." in response.content.decode()
    board = result_of(paired, 2)
    absent = ids_by_number(paired)[3]
    side = board.first if board.first.player_id == absent else board.second
    assert side.kind == "forfeit_loss"


@pytest.mark.parametrize(
    ("number", "message"),
    [
        (40, "No player number 40 in this division."),
        (11, "Kit Kay has no game in round 1 to forfeit."),
    ],
)
def test_a_forfeit_that_cannot_be_is_refused(director_client, paired, number, message):
    before = events()
    response = director_client.post(url(paired, "manage-forfeit"), {"absentee": number})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert events() == before


# --- amendments and the audit log ---------------------------------------------------


@pytest.fixture
def two_rounds(paired, director, director_client):
    """Round 1 entered; round 2 paired (1v3, 2v4) and partly entered."""
    for data in (
        slip(1, 412, 2, 388),
        slip(3, 350, 4, 420),
        slip(5, 400, 6, 300),
        slip(7, 410, 8, 400),
        slip(9, 380, 10, 370),
    ):
        assert director_client.post(url(paired), data).status_code == 302
    pair_by_hand(paired, director, 2, [(1, 1, 3), (2, 2, 4)])
    director_client.post(url(paired, round_=2), slip(1, 400, 3, 390))
    return paired


def amend_url(tournament_id, board, round_=1):
    return reverse("manage-amend", args=[tournament_id, "A", round_, board])


def test_an_amendment_changes_every_later_standing_and_is_audited(
    director_client, two_rounds
):
    t = two_rounds

    def spread(after_round, name):
        return PlayerRound.objects.get(
            tournament_id=t, round=after_round, name=name
        ).running_spread

    assert (spread(1, "Ann Able"), spread(2, "Ann Able")) == (24, 34)
    page = director_client.get(amend_url(t, 1))
    assert "Ann Able 412 – 388 Ben Baker, won by Ann Able" in page.content.decode()
    version = page.context["form"].initial["version"]
    response = director_client.post(
        amend_url(t, 1),
        {
            "a_score": 432,
            "b_score": 388,
            "reason": "slip misread",
            "version": version,
            "confirm": "1",
        },
    )
    assert response.status_code == 302
    assert (spread(1, "Ann Able"), spread(2, "Ann Able")) == (44, 54)
    assert result_of(t, 1).first.amended

    audit = director_client.get(reverse("manage-audit", args=[t])).content.decode()
    assert "Amended round 1: Ann Able 432–388 Ben Baker" in audit
    assert "Replaced: Ann Able 412–388 Ben Baker · reason: slip misread" in audit
    assert "Result round 1: Ann Able 412–388 Ben Baker" in audit
    assert ">mara<" in audit
    assert "amendment" in audit


def test_a_stale_amendment_is_told_to_reload(director_client, two_rounds, director):
    t = two_rounds
    version = director_client.get(amend_url(t, 1)).context["form"].initial["version"]
    ids = ids_by_number(t)
    results_services.result_amend(
        tournament_id=t,
        round_=1,
        player_a=ids[1],
        player_b=ids[2],
        score_a=420,
        score_b=388,
        user=director,
    )
    before = events()
    response = director_client.post(
        amend_url(t, 1),
        {"a_score": 432, "b_score": 388, "version": version, "confirm": "1"},
    )
    assert response.status_code == 400
    assert "Someone else changed this tournament" in response.content.decode()
    assert events() == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"a_score": 400, "b_score": 400}, "The final scores are tied at 400"),
        ({"a_score": 400, "b_score": ""}, "Type the score (or choose a forfeit)."),
    ],
)
def test_an_amendment_the_rules_refuse_is_shown(
    director_client, two_rounds, data, message
):
    t = two_rounds
    version = director_client.get(amend_url(t, 1)).context["form"].initial["version"]
    before = events()
    response = director_client.post(amend_url(t, 1), {**data, "version": version})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert events() == before


def test_an_amendment_to_a_forfeit(director_client, two_rounds):
    t = two_rounds
    version = director_client.get(amend_url(t, 2)).context["form"].initial["version"]
    ids = ids_by_number(t)
    response = director_client.post(
        amend_url(t, 2),
        {"absentee": ids[3], "version": version, "reason": "no show", "confirm": "1"},
    )
    assert response.status_code == 302
    board = result_of(t, 2)
    side = board.first if board.first.player_id == ids[3] else board.second
    assert side.kind == "forfeit_loss"
    assert side.amended


def test_the_audit_log_is_for_directors_only(client, other_user, two_rounds):
    client.force_login(other_user)
    assert client.get(reverse("manage-audit", args=[two_rounds])).status_code == 403


def test_a_round_that_is_not_paired_has_no_results_page(director_client, paired):
    assert director_client.get(url(paired, round_=2)).status_code == 404


def test_every_form_needs_its_csrf_token(director, paired):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    before = events()
    assert client.post(url(paired), slip(1, 412, 2, 388)).status_code == 403
    assert events() == before
    for page in (
        url(paired),
        reverse("manage", args=[paired]),
        reverse("manage-players", args=[paired, "A"]),
        reverse("manage-pair", args=[paired, "A"]),
        reverse("tournament-create"),
        amend_url(paired, 1),
    ):
        body = client.get(page).content.decode()
        forms = body.count('method="post"')
        assert forms, page
        assert body.count('name="csrfmiddlewaretoken"') == forms, page


# --- one pass (issue 29) -------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, {"HTTP_HX_REQUEST": "true"}])
def test_a_slip_loads_the_tournament_once(
    director_client, paired, monkeypatch, headers
):
    from tournaments.core import aggregate, writes

    original = aggregate.tournament_state
    calls = []

    def counted(tournament_id):
        calls.append(tournament_id)
        return original(tournament_id)

    monkeypatch.setattr(aggregate, "tournament_state", counted)
    monkeypatch.setattr(writes, "tournament_state", counted)
    response = director_client.post(url(paired), slip(1, 412, 2, 388), **headers)
    assert response.status_code == (200 if headers else 302)
    assert len(calls) == 1
    assert result_of(paired, 1).first.own_score == 412
