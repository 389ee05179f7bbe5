"""Players' accounts: a user's member id is a claim; it links them to a
tournament's player only when a director confirms it (registering or importing the
player with that id links nothing), and a director may refuse it. Both decisions
are events with who and when."""

from __future__ import annotations

import pytest

from games.eventstore.models import StoredEvent
from rules.tournament import TournamentError
from tournaments.core import errors
from tournaments.models import Player
from tournaments.players import accounts
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def dev(django_user_model):
    return django_user_model.objects.create_user("dev", password="pw-dev-12345")


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("mara", password="pw-mara-12345")


def tournament(director, *, published=True, entries=()):
    created = setup_services.tournament_create(
        user=director,
        name="Riverside",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=3,
        published=published,
    )
    tid = created.stream.id
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=list(entries) or [("Dev Patel", 1700, "12345"), ("Ann", 0, "")],
        user=director,
    )
    return tid


def linked(tid, name):
    return Player.objects.get(tournament_id=tid, name=name).user


def test_a_user_records_their_member_id(dev):
    accounts.member_id_claim(user=dev, member_id=" 12345 ")
    assert accounts.member_id_of(dev) == "12345"
    accounts.member_id_claim(user=dev, member_id="")
    assert accounts.member_id_of(dev) == ""


def test_a_member_id_is_one_accounts(dev, django_user_model):
    other = django_user_model.objects.create_user("dev2", password="pw-dev2-12345")
    accounts.member_id_claim(user=dev, member_id="12345")
    with pytest.raises(TournamentError) as error:
        accounts.member_id_claim(user=other, member_id="12345")
    assert (error.value.code, error.value.field) == ("member_id_taken", "member_id")
    assert accounts.member_id_of(other) == ""


def test_registering_a_player_with_a_claimed_member_id_links_nothing(dev, director):
    # Anyone may type anyone's member id (they are public): the claim waits for
    # a director, and gives no "My games" right meanwhile.
    accounts.member_id_claim(user=dev, member_id="12345")
    tid = tournament(director)
    assert linked(tid, "Dev Patel") is None
    assert accounts.player_records(dev) == []
    assert not StoredEvent.objects.filter(
        stream_id=tid, event_type="player_account_linked"
    ).exists()
    [claim] = accounts.account_claims(tid)
    assert (claim.player.name, claim.username, claim.user_id) == (
        "Dev Patel",
        "dev",
        dev.pk,
    )
    accounts.account_link_confirm(
        tournament_id=tid, player_id=claim.player.player_id, user=director
    )
    assert linked(tid, "Dev Patel") == dev
    [record] = accounts.player_records(dev)
    assert (record.tournament_id, record.name, record.division) == (
        str(tid),
        "Dev Patel",
        "A",
    )
    confirmed = StoredEvent.objects.filter(stream_id=tid).order_by("-version")[0]
    assert confirmed.event_type == "player_account_linked"
    assert confirmed.recorded_by_id == director.pk


def test_a_director_refuses_a_claim_and_undoes_a_link(dev, director):
    accounts.member_id_claim(user=dev, member_id="12345")
    tid = tournament(director)
    player_id = Player.objects.get(tournament_id=tid, name="Dev Patel").player_id
    with pytest.raises(errors.PermissionDeniedError):
        accounts.account_link_reject(
            tournament_id=tid, player_id=player_id, account_id=dev.pk, user=dev
        )
    accounts.account_link_reject(
        tournament_id=tid, player_id=player_id, account_id=dev.pk, user=director
    )
    refused = StoredEvent.objects.filter(stream_id=tid).order_by("-version")[0]
    assert (refused.event_type, refused.recorded_by_id) == (
        "player_account_rejected",
        director.pk,
    )
    assert refused.payload == {"player_id": player_id, "user_id": dev.pk}
    assert accounts.account_claims(tid) == []
    # The director changes their mind: confirmed, linked; then undone again.
    accounts.account_link_confirm(tournament_id=tid, player_id=player_id, user=director)
    assert linked(tid, "Dev Patel") == dev
    [link] = accounts.account_links(tid)
    assert (link.username, link.user_id) == ("dev", dev.pk)
    accounts.account_link_reject(
        tournament_id=tid, player_id=player_id, account_id=dev.pk, user=director
    )
    assert linked(tid, "Dev Patel") is None
    assert accounts.account_links(tid) == []


def test_only_the_claiming_or_linked_account_can_be_refused(
    dev, director, django_user_model
):
    other = django_user_model.objects.create_user("eve", password="pw-eve-12345")
    tid = tournament(director)
    player_id = Player.objects.get(tournament_id=tid, name="Dev Patel").player_id
    with pytest.raises(TournamentError) as error:
        accounts.account_link_reject(
            tournament_id=tid, player_id=player_id, account_id=other.pk, user=director
        )
    assert error.value.code == "no_claim"


def test_a_claim_made_after_registration_waits_for_a_director(dev, director):
    tid = tournament(director)
    accounts.member_id_claim(user=dev, member_id="12345")
    assert linked(tid, "Dev Patel") is None
    [claim] = accounts.account_claims(tid)
    assert (claim.player.name, claim.username) == ("Dev Patel", "dev")
    player_id = claim.player.player_id
    with pytest.raises(errors.PermissionDeniedError):
        accounts.account_link_confirm(tournament_id=tid, player_id=player_id, user=dev)
    accounts.account_link_confirm(tournament_id=tid, player_id=player_id, user=director)
    assert linked(tid, "Dev Patel") == dev
    assert accounts.account_claims(tid) == []


def test_a_player_nobody_claims_cannot_be_confirmed(director):
    tid = tournament(director)
    ann = Player.objects.get(tournament_id=tid, name="Ann")
    with pytest.raises(TournamentError) as error:
        accounts.account_link_confirm(
            tournament_id=tid, player_id=ann.player_id, user=director
        )
    assert error.value.code == "no_claim"


def test_a_private_tournament_is_not_among_a_players_records(dev, director):
    accounts.member_id_claim(user=dev, member_id="12345")
    tid = tournament(director, published=False)
    [claim] = accounts.account_claims(tid)
    accounts.account_link_confirm(
        tournament_id=tid, player_id=claim.player.player_id, user=director
    )
    assert linked(tid, "Dev Patel") == dev
    assert accounts.player_records(dev) == []


def test_the_profile_page_saves_and_refuses_a_taken_id(client, dev, django_user_model):
    other = django_user_model.objects.create_user("dev2", password="pw-dev2-12345")
    accounts.member_id_claim(user=other, member_id="999")
    client.force_login(dev)
    response = client.post("/accounts/profile/", {"member_id": "12345"})
    assert response.status_code == 302
    assert accounts.member_id_of(dev) == "12345"
    response = client.post("/accounts/profile/", {"member_id": "999"})
    assert response.status_code == 400
    assert "Another account already says member 999" in response.content.decode()
    assert accounts.member_id_of(dev) == "12345"


def test_the_directors_page_confirms_a_claim(client, dev, director):
    tid = tournament(director)
    accounts.member_id_claim(user=dev, member_id="12345")
    client.force_login(director)
    page = client.get(f"/tournaments/{tid}/manage/accounts/").content.decode()
    assert "Dev Patel" in page
    dev_player = Player.objects.get(tournament_id=tid, name="Dev Patel")
    response = client.post(
        f"/tournaments/{tid}/manage/accounts/", {"confirm": dev_player.player_id}
    )
    assert response.status_code == 302
    assert linked(tid, "Dev Patel") == dev
    client.force_login(dev)
    assert client.get(f"/tournaments/{tid}/manage/accounts/").status_code == 403


def test_the_directors_page_refuses_a_claim_and_unlinks(client, dev, director):
    accounts.member_id_claim(user=dev, member_id="12345")
    tid = tournament(director)
    url = f"/tournaments/{tid}/manage/accounts/"
    dev_player = Player.objects.get(tournament_id=tid, name="Dev Patel")
    client.force_login(director)
    page = client.get(url).content.decode()
    assert "Refuse dev as Dev Patel" in page
    # An account id that is not a number is a message, nothing stored.
    before = StoredEvent.objects.filter(stream_id=tid).count()
    response = client.post(url, {"reject": dev_player.player_id, "account": "²"})
    assert response.status_code == 400
    assert "Choose the player and the account" in response.content.decode()
    assert StoredEvent.objects.filter(stream_id=tid).count() == before
    response = client.post(url, {"reject": dev_player.player_id, "account": dev.pk})
    assert response.status_code == 302
    assert "Refuse dev" not in client.get(url).content.decode()
    client.post(url, {"confirm": dev_player.player_id})
    page = client.get(url).content.decode()
    assert "Unlink Dev Patel from dev" in page
    client.post(url, {"reject": dev_player.player_id, "account": dev.pk})
    assert linked(tid, "Dev Patel") is None
