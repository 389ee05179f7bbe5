"""Self-entry codes (issue 30, items 7 and 10): a typed code is checked by its
alphabet and length (a message on the field, never a 500), then against the
round's code in bytes, before the tournament's lock is taken or its aggregate
loaded; wrong codes are counted in the database, and after a few for a player
and round, or from one address, codes are answered 429 and the director's page
lists the lock-out."""

from __future__ import annotations

from datetime import timedelta

import psycopg
import pytest
from django.db import OperationalError, connection
from django.utils import timezone

from games.eventstore.models import StoredEvent
from tournaments.core import aggregate
from tournaments.models import SelfEntryCodeFailure
from tournaments.room import selfentry

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_club(club_night, director):
    tid, ids = club_night
    selfentry.self_entry_set(tournament_id=tid, enabled=True, user=director)
    return tid, ids


def events_of(tid) -> int:
    return StoredEvent.objects.filter(stream_id=tid).count()


def wrong(code: str) -> str:
    """A code of the alphabet that is not `code`."""
    return ("3" if code[0] == "2" else "2") + code[1:]


def send(client, tid, player_id, code, *, round_=2, address="198.51.100.1"):
    return client.post(
        f"/tournaments/{tid}/players/{player_id}/report/",
        {"round": round_, "own_score": 420, "opponent_score": 380, "code": code},
        REMOTE_ADDR=address,
    )


@pytest.mark.parametrize("typed", ["²²²²²²", "éééééé", "ÀB3DEF", "ABC", "ABCDE1"])
def test_a_code_outside_the_alphabet_is_a_message_on_the_field(
    client, open_club, typed
):
    tid, ids = open_club
    before = events_of(tid)
    response = send(client, tid, ids[1], typed)
    assert response.status_code == 400
    page = response.content.decode()
    assert "The code on your scorecard has 6 letters and digits" in page
    assert events_of(tid) == before
    assert not SelfEntryCodeFailure.objects.exists()  # a typo is no guess


def test_the_service_refuses_a_non_ascii_code_naming_the_field(open_club):
    tid, ids = open_club
    with pytest.raises(selfentry.rt.TournamentError) as refused:
        selfentry.score_report(
            tournament_id=tid,
            round_=2,
            player_id=ids[1],
            own_score=420,
            opponent_score=380,
            user=None,
            code="²" * selfentry.CODE_LENGTH,
        )
    assert (refused.value.code, refused.value.field) == ("invalid_code", "code")


def test_wrong_codes_for_a_player_and_round_are_answered_429(
    client, open_club, director
):
    tid, ids = open_club
    right = selfentry.round_code(tid, ids[1], 2)
    for _ in range(selfentry.CODE_TRIES):
        response = send(client, tid, ids[1], wrong(right))
        assert response.status_code == 400
        assert "not this round&#x27;s code" in response.content.decode()
    before = events_of(tid)
    # Locked: even the right code is not checked now (a guess would be).
    locked = send(client, tid, ids[1], right, address="198.51.100.2")
    assert locked.status_code == 429
    assert 0 < int(locked["Retry-After"]) <= selfentry.LOCKOUT.total_seconds()
    assert "Too many wrong codes for round 2" in locked.content.decode()
    assert events_of(tid) == before
    # Another player's code is checked as ever.
    assert (
        send(client, tid, ids[4], selfentry.round_code(tid, ids[4], 2)).status_code
        == 302
    )
    # The director is told: their self-entry page lists the lock-out.
    client.force_login(director)
    page = client.get(f"/tournaments/{tid}/manage/self-entry/").content.decode()
    listed = page[page.index('id="lockouts"') :]
    assert '<td>Ann Able</td><td class="num">2</td>' in listed
    # Once the wrong codes are older than the lock-out, codes are checked again.
    SelfEntryCodeFailure.objects.update(
        failed_at=timezone.now() - selfentry.LOCKOUT - timedelta(seconds=1)
    )
    client.logout()
    assert send(client, tid, ids[1], right).status_code == 302
    assert selfentry.code_lockouts(tid) == []


def test_wrong_codes_from_one_address_are_answered_429(client, open_club):
    tid, ids = open_club
    address = "203.0.113.9"
    # Spread over players and rounds, fewer than CODE_TRIES each: a sweep.
    tries = [(pid, round_) for pid in ids.values() for round_ in range(1, 9)]
    assert len(tries) >= selfentry.ADDRESS_TRIES
    for player_id, round_ in tries[: selfentry.ADDRESS_TRIES]:
        code = wrong(selfentry.round_code(tid, player_id, round_))
        with pytest.raises(selfentry.SelfEntryError):
            selfentry.score_report(
                tournament_id=tid,
                round_=round_,
                player_id=player_id,
                own_score=420,
                opponent_score=380,
                user=None,
                code=code,
                address=address,
            )
    right = selfentry.round_code(tid, ids[1], 2)
    locked = send(client, tid, ids[1], right, address=address)
    assert locked.status_code == 429
    assert "Too many wrong codes" in locked.content.decode()
    [lockout] = selfentry.code_lockouts(tid)
    assert (lockout.address, lockout.tries) == (address, selfentry.ADDRESS_TRIES)
    # The same player and round from another address: checked, and recorded.
    assert send(client, tid, ids[1], right, address="203.0.113.10").status_code == 302


# Committed (transaction=True): in the test's own transaction the fixture's
# appends would hold the tournament's lock themselves.
@pytest.mark.django_db(transaction=True)
def test_a_wrong_code_neither_loads_the_aggregate_nor_waits_for_the_lock(
    open_club, monkeypatch
):
    tid, ids = open_club
    right = selfentry.round_code(tid, ids[1], 2)
    loads = []
    real = selfentry.tournament_state
    monkeypatch.setattr(
        selfentry, "tournament_state", lambda t: loads.append(t) or real(t)
    )
    # Another transaction (a director's append, say) holds the tournament's lock.
    key = int.from_bytes(tid.bytes[:8], "big", signed=True)
    settings = connection.settings_dict
    holder = psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"],
        host=settings["HOST"],
        port=settings["PORT"],
        autocommit=True,
    )
    try:
        holder.execute("SELECT pg_advisory_lock(%s)", [key])
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '1s'")

        def guess(code):
            return selfentry.score_report(
                tournament_id=tid,
                round_=2,
                player_id=ids[1],
                own_score=420,
                opponent_score=380,
                user=None,
                code=code,
            )

        with pytest.raises(selfentry.SelfEntryError, match="not this round's code"):
            guess(wrong(right))
        assert loads == []
        # The lock is real: the right code waits for it (and gives up here).
        with pytest.raises(OperationalError):
            guess(right)
    finally:
        holder.close()
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = DEFAULT")
    assert len(loads) <= 1
    _, state = aggregate.tournament_state(tid)
    assert state.reports == {}
