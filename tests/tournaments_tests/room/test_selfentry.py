"""Self-entry: both players confirm their game's score from their phones; the
result is stored when they agree, pending for the director when they do not.
Every step is an event, and a refused report stores nothing."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from games.eventstore.errors import EventRejectedError
from games.eventstore.models import StoredEvent
from rules import selfentry as rs
from tests.boards import round_games
from tournaments.core import aggregate
from tournaments.models import PlayerRound
from tournaments.players import accounts
from tournaments.results import services as results_services
from tournaments.room import selfentry


def events_of(tournament_id) -> list[str]:
    return list(
        StoredEvent.objects.filter(stream_id=tournament_id)
        .order_by("version")
        .values_list("event_type", flat=True)
    )


def report(tid, ids, number, own, opponent, *, code=True, user=None, round_=2):
    player_id = ids[number]
    return selfentry.score_report(
        tournament_id=tid,
        round_=round_,
        player_id=player_id,
        own_score=own,
        opponent_score=opponent,
        user=user,
        code=selfentry.round_code(tid, player_id, round_) if code else None,
    )


@pytest.fixture
def open_club(club_night, director):
    tid, ids = club_night
    selfentry.self_entry_set(tournament_id=tid, enabled=True, user=director)
    return tid, ids


def test_two_reports_agree_when_they_are_the_same_game_seen_from_each_side():
    ann = rs.Report(2, "ann", "zoe", 420, 380)
    assert rs.agree(ann, rs.Report(2, "zoe", "ann", 380, 420))
    assert not rs.agree(ann, rs.Report(2, "zoe", "ann", 381, 420))
    assert not rs.agree(ann, rs.Report(3, "zoe", "ann", 380, 420))
    assert not rs.agree(ann, rs.Report(2, "cy", "ann", 380, 420))


@pytest.mark.django_db
def test_without_self_entry_a_report_is_refused(club_night):
    tid, ids = club_night
    before = events_of(tid)
    with pytest.raises(EventRejectedError) as refused:
        report(tid, ids, 1, 420, 380)
    assert refused.value.code == "self_entry_off"
    assert events_of(tid) == before


@pytest.mark.django_db
def test_the_result_is_stored_when_both_players_agree(open_club):
    tid, ids = open_club
    first = report(tid, ids, 1, 420, 380)
    assert (first.recorded, first.disagrees) == (False, False)
    _, state = aggregate.tournament_state(tid)
    (waiting,) = selfentry.pending_games(state)
    assert (waiting.round, waiting.board, waiting.disagrees) == (2, 1, False)
    assert not round_games(tid, 2)[0].has_result
    second = report(tid, ids, 4, 380, 420)
    assert second.recorded
    assert events_of(tid)[-4:] == [
        "self_entry_changed",
        "score_reported",
        "score_reported",
        "result_recorded",
    ]
    ann = PlayerRound.objects.get(tournament_id=tid, round=2, player_id=ids[1])
    assert (ann.own_score, ann.opponent_score, ann.outcome) == (420, 380, "win")
    _, state = aggregate.tournament_state(tid)
    assert selfentry.pending_games(state) == []


@pytest.mark.django_db
def test_reports_that_disagree_wait_for_the_director(open_club, director):
    tid, ids = open_club
    report(tid, ids, 2, 350, 402)
    answer = report(tid, ids, 3, 400, 352)
    assert (answer.recorded, answer.disagrees) == (False, True)
    _, state = aggregate.tournament_state(tid)
    (game,) = selfentry.pending_games(state)
    assert game.disagrees
    assert {r.player_id for r in game.reports} == {ids[2], ids[3]}
    # The director's entry decides, and the game is no longer pending.
    results_services.result_record(
        tournament_id=tid,
        round_=2,
        player_a=ids[2],
        player_b=ids[3],
        score_a=350,
        score_b=402,
        user=director,
    )
    _, state = aggregate.tournament_state(tid)
    assert selfentry.pending_games(state) == []
    # A report after the result is refused by the rules.
    with pytest.raises(EventRejectedError) as refused:
        report(tid, ids, 2, 350, 402)
    assert refused.value.code == "duplicate_result"


@pytest.mark.django_db
def test_a_report_must_be_the_players_own(open_club, director, other_user):
    tid, ids = open_club
    before = events_of(tid)
    with pytest.raises(selfentry.SelfEntryError, match="not this round's code"):
        selfentry.score_report(
            tournament_id=tid,
            round_=2,
            player_id=ids[1],
            own_score=420,
            opponent_score=380,
            user=None,
            code="AAAAAA",
        )
    with pytest.raises(selfentry.SelfEntryError, match="Sign in as this player"):
        report(tid, ids, 1, 420, 380, code=False, user=other_user)
    # Another player's code is not this player's.
    with pytest.raises(selfentry.SelfEntryError):
        selfentry.score_report(
            tournament_id=tid,
            round_=2,
            player_id=ids[1],
            own_score=420,
            opponent_score=380,
            user=None,
            code=selfentry.round_code(tid, ids[4], 2),
        )
    assert events_of(tid) == before
    # Signed in to the account linked to the player: no code needed.
    accounts.player_link_account(
        tournament_id=tid, player_id=ids[1], account=other_user, user=director
    )
    report(tid, ids, 1, 420, 380, code=False, user=other_user)
    stored = StoredEvent.objects.filter(stream_id=tid).order_by("-version")[0]
    assert stored.event_type == "score_reported"
    assert stored.payload["by_code"] is False
    assert stored.recorded_by_id == other_user.pk


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("own", "opponent", "round_", "code"),
    [
        (400, 400, 2, "tie_for_director"),
        (420, 99999, 2, "invalid_score"),
        (420, 380, 1, "duplicate_result"),
        (420, 380, 3, "round_not_paired"),
    ],
)
def test_the_rules_refuse_a_report_and_nothing_is_stored(
    open_club, own, opponent, round_, code
):
    tid, ids = open_club
    before = events_of(tid)
    with pytest.raises(EventRejectedError) as refused:
        report(tid, ids, 1, own, opponent, round_=round_)
    assert refused.value.code == code
    assert events_of(tid) == before


@pytest.mark.django_db
def test_a_player_reports_from_the_page_with_the_code(client, open_club):
    tid, ids = open_club
    url = f"/tournaments/{tid}/players/{ids[1]}/report/"
    page = client.get(url).content.decode()
    assert "Round 2 against <strong>Zoë Zane</strong>" in page
    wrong = client.post(
        url, {"round": 2, "own_score": 420, "opponent_score": 380, "code": "ZZZZZZ"}
    )
    assert wrong.status_code == 400
    assert "not this round&#x27;s code" in wrong.content.decode()
    code = selfentry.round_code(tid, ids[1], 2)
    sent = client.post(
        url, {"round": 2, "own_score": 420, "opponent_score": 380, "code": code.lower()}
    )
    assert sent.status_code == 302
    assert "once your opponent agrees" in client.get(url).content.decode()
    tie = client.post(
        f"/tournaments/{tid}/players/{ids[2]}/report/",
        {
            "round": 2,
            "own_score": 400,
            "opponent_score": 400,
            "code": selfentry.round_code(tid, ids[2], 2),
        },
    )
    assert tie.status_code == 400
    assert "tied game is the director" in tie.content.decode()
    scorecard = client.get(f"/tournaments/{tid}/players/{ids[1]}/").content.decode()
    assert url in scorecard


@pytest.mark.django_db
def test_the_report_page_is_closed_without_self_entry(client, club_night):
    tid, ids = club_night
    assert client.get(f"/tournaments/{tid}/players/{ids[1]}/report/").status_code == 404
    scorecard = client.get(f"/tournaments/{tid}/players/{ids[1]}/").content.decode()
    assert "/report/" not in scorecard


@pytest.mark.django_db
def test_the_director_turns_self_entry_on_and_sees_what_is_pending(
    client,
    club_night,
    director,
):
    tid, ids = club_night
    url = f"/tournaments/{tid}/manage/self-entry/"
    assert client.get(url).status_code == 403
    client.force_login(director)
    assert "Self-entry is <strong>off</strong>" in client.get(url).content.decode()
    assert client.post(url, {"enabled": "on"}).status_code == 302
    assert events_of(tid)[-1] == "self_entry_changed"
    report(tid, ids, 2, 350, 402)
    report(tid, ids, 3, 400, 352)
    page = client.get(url).content.decode()
    assert "Self-entry is <strong>on</strong>" in page
    disagree = page[page.index("Reports that disagree") : page.index("Waiting for")]
    assert "Ben Baker: 350–402" in disagree
    assert "Cy Cole: 400–352" in disagree
    # The printed scorecards now carry each round's code.
    pdf = client.get(f"/tournaments/{tid}/divisions/A/scorecards.pdf?player={ids[1]}")

    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert selfentry.round_code(tid, ids[1], 3) in text
    assert client.post(url, {}).status_code == 302
    assert "Self-entry is <strong>off</strong>" in client.get(url).content.decode()
