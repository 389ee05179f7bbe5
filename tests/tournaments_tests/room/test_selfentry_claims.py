"""Self-entry and member ids (issue 30, item 1): a member id an account claims
proves nothing. Registering or importing a player with it links nothing; the
claimer reports only with the round's code until a director confirms the link;
the real player's report is never refused for a claimer's; the pages say through
which account each report came."""

from __future__ import annotations

import pytest

from games.eventstore.models import StoredEvent
from tournaments.core import aggregate
from tournaments.models import Player, PlayerRound
from tournaments.pairing import services as pairing_services
from tournaments.players import accounts
from tournaments.players import services as players_services
from tournaments.ratings import imports
from tournaments.room import selfentry
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db

ANN = "1001"  # Ann Able's member id: public, in the players API


@pytest.fixture
def eve(django_user_model):
    """Someone who is not Ann and says on her profile that she is member 1001."""
    user = django_user_model.objects.create_user("eve", password="pw-eve-12345")
    accounts.member_id_claim(user=user, member_id=ANN)
    return user


def new_tournament(director):
    return setup_services.tournament_create(
        user=director,
        name="Riverside Open",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=3,
        published=True,
    ).stream.id


def open_round_one(tid, director):
    """Round 1 paired (Ann–Zoë, Ben–Cy) and self-entry on; the players' ids."""
    ids = dict(
        Player.objects.filter(tournament_id=tid).values_list("name", "player_id")
    )
    pairing_services.round_pair(
        tournament_id=tid,
        division="A",
        round_=1,
        method="manual",
        games=[
            (1, ids["Ann Able"], ids["Zoë Zane"]),
            (2, ids["Ben Baker"], ids["Cy Cole"]),
        ],
        user=director,
    )
    selfentry.self_entry_set(tournament_id=tid, enabled=True, user=director)
    return ids


@pytest.fixture
def registered(eve, director):
    """Eve claimed Ann's member id before Ann was registered with it."""
    tid = new_tournament(director)
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[
            ("Ann Able", 1800, ANN),
            ("Ben Baker", 1700, "1002"),
            ("Cy Cole", 1600, "1003"),
            ("Zoë Zane", 1500, "1004"),
        ],
        user=director,
    )
    return tid, open_round_one(tid, director)


def report(tid, player_id, own, opponent, *, user=None, code=False, round_=1):
    return selfentry.score_report(
        tournament_id=tid,
        round_=round_,
        player_id=player_id,
        own_score=own,
        opponent_score=opponent,
        user=user,
        code=selfentry.round_code(tid, player_id, round_) if code else None,
    )


def events_of(tid) -> list[str]:
    return list(
        StoredEvent.objects.filter(stream_id=tid)
        .order_by("version")
        .values_list("event_type", flat=True)
    )


def test_a_claim_then_a_registration_does_not_let_the_claimer_report(registered, eve):
    tid, ids = registered
    ann, zoe = ids["Ann Able"], ids["Zoë Zane"]
    assert Player.objects.get(player_id=ann).user is None
    assert accounts.player_records(eve) == []  # no "My games" either
    before = events_of(tid)
    # Eve reports Ann's loss, signed in, without a code: refused, nothing stored.
    with pytest.raises(selfentry.SelfEntryError, match="waits for a director"):
        report(tid, ann, 300, 500, user=eve)
    assert events_of(tid) == before
    # Ann's own report (by code) and Zoë's agreeing one record Ann's win.
    report(tid, ann, 420, 380, code=True)
    assert report(tid, zoe, 380, 420, code=True).recorded
    row = PlayerRound.objects.get(tournament_id=tid, round=1, player_id=ann)
    assert (row.own_score, row.opponent_score, row.outcome) == (420, 380, "win")


def test_an_import_carrying_a_claimed_member_id_links_nothing(eve, director):
    tid = new_tournament(director)
    imports.tsh_import(
        tournament_id=tid,
        division="A",
        text=f"Able, Ann 1800; ; naspa {ANN}\nZane, Zoe 1500;\n",
        user=director,
    )
    ann = Player.objects.get(tournament_id=tid, member_id=ANN)
    assert ann.user is None
    _, state = aggregate.tournament_state(tid)
    assert state.accounts == {}
    [claim] = accounts.account_claims(tid)
    assert (claim.player.player_id, claim.username) == (ann.player_id, "eve")


def test_once_a_director_confirms_the_account_reports_signed_in(
    registered, eve, director, client
):
    tid, ids = registered
    ann, zoe = ids["Ann Able"], ids["Zoë Zane"]
    url = f"/tournaments/{tid}/players/{ann}/report/"
    client.force_login(eve)
    page = client.post(url, {"round": 1, "own_score": 420, "opponent_score": 380})
    assert page.status_code == 400
    assert "waits for a director to confirm it" in page.content.decode()
    # Say Eve is Ann after all (the director checked): confirmed, she reports.
    accounts.account_link_confirm(tournament_id=tid, player_id=ann, user=director)
    sent = client.post(url, {"round": 1, "own_score": 420, "opponent_score": 380})
    assert sent.status_code == 302
    stored = StoredEvent.objects.filter(stream_id=tid).order_by("-version")[0]
    assert stored.event_type == "score_reported"
    assert (stored.payload["by_code"], stored.payload["user_id"]) == (False, eve.pk)
    # The report page says through which account the report came; Zoë's, by code.
    report(tid, zoe, 300, 500, code=True)
    page = client.get(url).content.decode()
    assert 'Ann Able: 420–380 <span class="muted">(through the account eve)' in page
    assert 'Zoë Zane: 300–500 <span class="muted">(by code)' in page
    # So does the director's list of pending games.
    client.force_login(director)
    pending = client.get(f"/tournaments/{tid}/manage/self-entry/").content.decode()
    assert '420–380 <span class="muted">(through the account eve)' in pending
    assert '300–500 <span class="muted">(by code)' in pending


def test_a_refused_account_is_told_so_and_its_reports_are_withdrawn(
    registered, eve, director
):
    tid, ids = registered
    ann, zoe = ids["Ann Able"], ids["Zoë Zane"]
    # A director confirmed Eve by mistake; Eve reports Ann's loss.
    accounts.account_link_confirm(tournament_id=tid, player_id=ann, user=director)
    report(tid, ann, 300, 500, user=eve)
    accounts.account_link_reject(
        tournament_id=tid, player_id=ann, account_id=eve.pk, user=director
    )
    _, state = aggregate.tournament_state(tid)
    assert selfentry.pending_games(state) == []  # Eve's report is gone
    with pytest.raises(selfentry.SelfEntryError, match="refused your account"):
        report(tid, ann, 300, 500, user=eve)
    # Zoë's report agreeing with what Eve said records nothing; Ann's own
    # report is not refused, and the two disagree for the director.
    assert not report(tid, zoe, 500, 300, code=True).recorded
    outcome = report(tid, ann, 420, 380, code=True)
    assert (outcome.recorded, outcome.disagrees) == (False, True)
