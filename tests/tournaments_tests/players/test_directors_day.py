"""Issue 22: a director's day after set-up, through the API and the console.

Corrections (a player, a division's name, the settings) are events with the old and
new values in the audit log; the team (co-directors, scorekeepers who may enter
results and nothing else); late entries credited as the director chooses; a player
who misses a round and comes back.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from tests.boards import round_games
from tests.refusals import refused
from tournaments.core import aggregate
from tournaments.models import Player, PlayerRound, Tournament
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
def lee(django_user_model):
    return django_user_model.objects.create_user("lee", password="pw-lee-12345")


@pytest.fixture
def sam(django_user_model):
    return django_user_model.objects.create_user("sam", password="pw-sam-12345")


def paired_club(director, players: int = 4) -> tuple:
    tid = setup_services.tournament_create(
        user=director,
        name="Day Open",
        start_date="2026-11-21",
        end_date="2026-11-22",
        rounds=4,
    ).stream.id
    names = ["Ann Able", "Ben Baker", "Cy Cole", "Di Dane", "Ed Eames", "Flo Ford"][
        :players
    ]
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[(name, 1600 - 50 * n, f"M{n}") for n, name in enumerate(names)],
        user=director,
    )
    pairing_services.round_pair(
        tournament_id=tid, division="A", round_=1, method="swiss", user=director
    )
    _, state = aggregate.tournament_state(tid)
    return tid, list(state.rules.division_players["A"])


def enter_round(tid, director, round_):
    for game in round_games(tid, round_):
        if not game.has_result:
            results_services.result_record(
                tournament_id=tid,
                round_=round_,
                player_a=game.first.player_id,
                player_b=game.second.player_id,
                score_a=420,
                score_b=380,
                user=director,
            )


def audit(api, tid) -> list[dict]:
    return api.get(f"/api/tournaments/{tid}/audit").json()


# --- Corrections ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_player_is_corrected_and_the_audit_says_old_and_new(api, director):
    tid, ids = paired_club(director)
    response = api.patch(
        f"/api/tournaments/{tid}/players/{ids[0]}",
        {"name": "Ann Abel", "rating": 1650, "member_id": "NA9", "career_games": 80},
        format="json",
    )
    assert response.status_code == 201, response.json()
    # Round 1 was paired with the old rating: the director is told, nothing moves.
    assert "paired with Ann Able's old rating 1600" in response.json()["notes"][0]
    assert "Round 1 has no result yet: pair it again" in response.json()["notes"][0]
    ann = Player.objects.get(player_id=ids[0])
    assert (ann.name, ann.rating, ann.member_id, ann.career_games) == (
        "Ann Abel",
        1650,
        "NA9",
        80,
    )
    last = audit(api, tid)[-1]
    assert last["event_type"] == "player_edited"
    assert last["recorded_by"] == "mara"
    assert "name Ann Able → Ann Abel" in last["summary"]
    assert "rating 1600 → 1650" in last["summary"]
    assert "career_games None → 80" in last["summary"]
    assert PlayerRound.objects.filter(player_id=ids[0], name="Ann Abel").exists()


@pytest.mark.django_db
def test_a_correction_from_a_stale_page_is_a_conflict(api, director):
    tid, ids = paired_club(director)
    version = api.get(f"/api/tournaments/{tid}/").json()["version"]
    setup_services.tournament_publish(tournament_id=tid, published=True, user=director)
    before = StoredEvent.objects.filter(stream_id=tid).count()
    response = api.patch(
        f"/api/tournaments/{tid}/players/{ids[0]}",
        {"rating": 1700, "expected_version": version},
        format="json",
    )
    assert response.status_code == 409
    assert StoredEvent.objects.filter(stream_id=tid).count() == before


@pytest.mark.django_db
def test_a_division_is_renamed_everywhere(api, director):
    tid, _ = paired_club(director)
    enter_round(tid, director, 1)
    response = api.patch(
        f"/api/tournaments/{tid}/divisions/A", {"name": "Premier"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert Tournament.objects.get(pk=tid).divisions == ["Premier"]
    standings = api.get(
        f"/api/tournaments/{tid}/standings", {"division": "Premier"}
    ).json()
    assert standings["after_round"] == 1
    assert len(standings["standings"]) == 4
    assert not PlayerRound.objects.filter(tournament_id=tid, division="A").exists()
    text = api.get(
        f"/api/tournaments/{tid}/export/naspa.t", HTTP_ACCEPT="text/plain"
    ).content.decode()
    assert text.startswith("#division Premier\n")
    refused = api.patch(
        f"/api/tournaments/{tid}/divisions/Premier", {"name": "A/B"}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["field"] == "new_name"


@pytest.mark.django_db
def test_settings_are_corrected_and_every_standing_is_counted_again(api, director):
    tid, _ = paired_club(director, players=5)
    enter_round(tid, director, 1)
    bye = PlayerRound.objects.get(tournament_id=tid, round=1, kind="bye")
    assert bye.running_spread == 50
    response = api.patch(
        f"/api/tournaments/{tid}/",
        {"bye_spread": 75, "spread_cap": 30, "rounds": 6},
        format="json",
    )
    assert response.status_code == 201, response.json()
    bye = PlayerRound.objects.get(tournament_id=tid, round=1, kind="bye")
    assert bye.running_spread == 30  # 75, capped at 30 like every round's spread
    winner = PlayerRound.objects.filter(
        tournament_id=tid, round=1, kind="game", outcome="win"
    ).first()
    assert (winner.round_spread, winner.counted_spread) == (40, 30)
    assert Tournament.objects.get(pk=tid).rounds == 6
    last = audit(api, tid)[-1]["summary"]
    assert "bye_spread 50 → 75" in last
    assert "rounds 4 → 6" in last
    too_few = api.patch(f"/api/tournaments/{tid}/", {"rounds": 0}, format="json")
    refused(too_few, field="rounds")


# --- The team ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_scorekeeper_enters_results_and_nothing_else(api, director, lee):
    tid, ids = paired_club(director)
    added = api.post(
        f"/api/tournaments/{tid}/team",
        {"username": "lee", "role": "scorekeeper"},
        format="json",
    )
    assert added.status_code == 201, added.json()
    assert api.get(f"/api/tournaments/{tid}/team").json() == [
        {"username": "mara", "role": "director"},
        {"username": "lee", "role": "scorekeeper"},
    ]
    keeper = APIClient()
    keeper.force_authenticate(lee)
    game = round_games(tid, 1)[0]
    result = {
        "round": 1,
        "player_a": game.first.player_id,
        "player_b": game.second.player_id,
    }
    entered = keeper.post(
        f"/api/tournaments/{tid}/results",
        {**result, "score_a": 400, "score_b": 300},
        format="json",
    )
    assert entered.status_code == 201, entered.json()
    amended = keeper.post(
        f"/api/tournaments/{tid}/results/amend",
        {**result, "score_a": 410, "score_b": 300},
        format="json",
    )
    assert amended.status_code == 201
    before = StoredEvent.objects.filter(stream_id=tid).count()
    for forbidden in (
        keeper.post(
            f"/api/tournaments/{tid}/rounds/2/pair",
            {"division": "A", "method": "swiss"},
            format="json",
        ),
        keeper.patch(
            f"/api/tournaments/{tid}/players/{ids[0]}", {"rating": 1}, format="json"
        ),
        keeper.post(
            f"/api/tournaments/{tid}/team",
            {"username": "lee", "role": "director"},
            format="json",
        ),
    ):
        assert forbidden.status_code == 403
    assert StoredEvent.objects.filter(stream_id=tid).count() == before
    assert audit(api, tid)[-1]["recorded_by"] == "lee"


@pytest.mark.django_db
def test_a_co_director_is_added_and_removed_but_never_the_last(api, director, sam):
    tid, _ = paired_club(director)
    assert (
        api.post(
            f"/api/tournaments/{tid}/team",
            {"username": "sam", "role": "director"},
            format="json",
        ).status_code
        == 201
    )
    co = APIClient()
    co.force_authenticate(sam)
    assert (
        co.post(
            f"/api/tournaments/{tid}/team/remove", {"username": "mara"}, format="json"
        ).status_code
        == 201
    )
    last = co.post(
        f"/api/tournaments/{tid}/team/remove", {"username": "sam"}, format="json"
    )
    assert last.status_code == 400
    assert last.json()["code"] == "last_director"
    nobody = co.post(
        f"/api/tournaments/{tid}/team",
        {"username": "ghost", "role": "director"},
        format="json",
    )
    assert (nobody.status_code, nobody.json()["field"]) == (400, "username")


# --- Late entries and a missed round ------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("credit", "kind", "spread", "record"),
    [("forfeit", "credit", -50, "0-1"), ("neither", "credit", 0, "0-0")],
)
def test_a_late_entry_is_credited_as_the_director_chooses(
    api, director, credit, kind, spread, record
):
    tid, _ = paired_club(director)
    enter_round(tid, director, 1)
    response = api.post(
        f"/api/tournaments/{tid}/players/late",
        {"division": "A", "name": "Kim, Ada", "rating": 1500, "credit": credit},
        format="json",
    )
    assert response.status_code == 201, response.json()
    late = Player.objects.get(name="Kim, Ada")
    assert late.joined_after_round == 1
    card = api.get(f"/api/tournaments/{tid}/players/{late.player_id}/scorecard").json()
    first = card["rounds"][0]
    assert (first["kind"], first["spread"], first["record"]) == (kind, spread, record)


@pytest.mark.django_db
def test_a_player_misses_a_round_and_comes_back(api, director):
    tid, ids = paired_club(director, players=6)
    enter_round(tid, director, 1)
    missed = api.post(
        f"/api/tournaments/{tid}/players/{ids[0]}/miss-round",
        {"round": 2, "policy": "not_paired"},
        format="json",
    )
    assert missed.status_code == 201, missed.json()
    pairing_services.round_pair(
        tournament_id=tid, division="A", round_=2, method="swiss", user=director
    )
    seated = {g.first.player_id for g in round_games(tid, 2)} | {
        g.second.player_id for g in round_games(tid, 2)
    }
    assert ids[0] not in seated
    enter_round(tid, director, 2)
    pairing_services.round_pair(
        tournament_id=tid, division="A", round_=3, method="swiss", user=director
    )
    seated = {g.first.player_id for g in round_games(tid, 3)} | {
        g.second.player_id for g in round_games(tid, 3)
    }
    assert ids[0] in seated
    assert not Player.objects.get(player_id=ids[0]).withdrawn


# --- The console ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_console_corrects_shares_and_enters_late(director, lee):
    tid, _ = paired_club(director)
    enter_round(tid, director, 1)
    page = Client()
    page.force_login(director)
    manage = reverse("manage", args=[tid])
    players = reverse("manage-players", args=[tid, "A"])
    steps = [
        (manage, {"action": "team", "username": "lee", "role": "scorekeeper"}),
        (manage, {"action": "settings", "bye_spread": "60"}),
        (players, {"action": "edit", "edit-player": "2", "edit-rating": "1575"}),
        (
            players,
            {
                "action": "late",
                "late-name": "Kim, Ada",
                "late-rating": "1500",
                "late-credit": "forfeit",
            },
        ),
        (players, {"action": "miss", "miss-player": "3", "miss-round": "2",
                   "miss-policy": "forfeit"}),
        (manage, {"action": "rename", "division": "A", "name": "Open"}),
    ]  # fmt: skip
    for url, data in steps:
        response = page.post(url, data)
        assert response.status_code == 302, (data, response.content.decode()[-800:])
    tournament = Tournament.objects.get(pk=tid)
    assert (tournament.bye_spread, tournament.divisions) == (60, ["Open"])
    assert Player.objects.get(number=2, tournament=tournament).rating == 1575
    keeper = Client()
    keeper.force_login(lee)
    console = keeper.get(manage).content.decode()
    assert "Scorekeeper console" in console
    assert "Correct the settings" not in console
    assert (
        keeper.get(reverse("manage-results", args=[tid, "Open", 1])).status_code == 200
    )
    assert keeper.get(reverse("manage-pair", args=[tid, "Open"])).status_code == 403
    refused = page.post(manage, {"action": "settings", "rounds": "0"})
    assert refused.status_code == 400
