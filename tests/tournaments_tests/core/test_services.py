"""Tournament services: director actions are validated appends with projections."""

from __future__ import annotations

import pytest

from games.eventstore.cache import state_cache
from games.eventstore.errors import ConcurrencyError, EventRejectedError
from games.eventstore.models import StoredEvent
from games.eventstore.rebuild import rebuild_projections
from games.eventstore.store import current_version
from tests.boards import board_of, round_alone, round_games
from tournaments.core import aggregate, errors
from tournaments.models import Director, Player, PlayerRound, Tournament
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services


def snapshot(tournament_id):
    """Every read-model row of a tournament, comparable across rebuilds."""
    return {
        "tournament": list(
            Tournament.objects.filter(pk=tournament_id).values(
                "version", "name", "rounds", "divisions", "published"
            )
        ),
        "directors": sorted(
            Director.objects.filter(tournament_id=tournament_id).values_list(
                "user_id", flat=True
            )
        ),
        "players": list(
            Player.objects.filter(tournament_id=tournament_id)
            .order_by("division", "number")
            .values("player_id", "number", "name", "rating", "withdrawn")
        ),
        "results": list(
            PlayerRound.objects.filter(tournament_id=tournament_id)
            .order_by("division", "round", "position")
            .values(
                "round",
                "rank",
                "player_id",
                "wins",
                "losses",
                "running_spread",
                "kind",
                "opponent_id",
                "board",
                "own_score",
                "opponent_score",
                "outcome",
                "amended",
            )
        ),
    }


def enter_round(tournament_id, director, round_, margin=100):
    """Enter every game of a round: the first player wins by `margin`."""
    for game in round_games(tournament_id, round_):
        results_services.result_record(
            tournament_id=tournament_id,
            round_=round_,
            player_a=game.first.player_id,
            player_b=game.second.player_id,
            score_a=400 + margin,
            score_b=400,
            user=director,
        )


@pytest.mark.django_db
def test_creating_a_tournament_projects_it_with_its_director(club, director):
    tournament = Tournament.objects.get(pk=club)
    assert tournament.name == "Riverside Club Championship"
    assert tournament.rounds == 7
    assert tournament.divisions == ["A"]
    assert tournament.published
    assert list(tournament.directors.values_list("user_id", flat=True)) == [director.pk]
    assert Player.objects.filter(tournament_id=club).count() == 11
    assert list(
        Player.objects.filter(tournament_id=club).values_list("number", flat=True)
    ) == list(range(1, 12))


@pytest.mark.django_db
def test_a_swiss_round_of_eleven_gives_five_boards_and_a_bye(club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    games = round_games(club, 1)
    assert len(games) == 5
    byes = round_alone(club, 1)
    assert [bye.first.kind for bye in byes] == ["bye"]
    seen = [g.first.player_id for g in games + byes] + [
        g.second.player_id for g in games
    ]
    assert len(seen) == len(set(seen)) == 11
    # The bye counts as a win straight away (RULES.md: +50 spread).
    standing = PlayerRound.objects.get(
        tournament_id=club, round=1, player_id=byes[0].first.player_id
    )
    assert (standing.wins, standing.running_spread) == (1, 50)


@pytest.mark.django_db
def test_someone_who_is_not_a_director_cannot_write(club, other_user):
    before = StoredEvent.objects.filter(stream_id=club).count()
    with pytest.raises(errors.PermissionDeniedError):
        pairing_services.round_pair(
            tournament_id=club, division="A", round_=1, method="swiss", user=other_user
        )
    assert StoredEvent.objects.filter(stream_id=club).count() == before


@pytest.mark.django_db
def test_a_score_for_an_unpaired_game_is_refused_and_nothing_stored(club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    pairing, other = round_games(club, 1)[:2]
    before = StoredEvent.objects.filter(stream_id=club).count()
    with pytest.raises(EventRejectedError) as raised:
        results_services.result_record(
            tournament_id=club,
            round_=1,
            player_a=pairing.first.player_id,
            player_b=other.first.player_id,
            score_a=400,
            score_b=300,
            user=director,
        )
    assert raised.value.code == "game_not_paired"
    assert StoredEvent.objects.filter(stream_id=club).count() == before


@pytest.mark.django_db
def test_a_tie_needs_the_scores_before_adjustments(club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    pairing = round_games(club, 1)[0]
    first, second = pairing.first.player_id, pairing.second.player_id
    with pytest.raises(EventRejectedError) as raised:
        results_services.result_record(
            tournament_id=club,
            round_=1,
            player_a=first,
            player_b=second,
            score_a=380,
            score_b=380,
            user=director,
        )
    assert raised.value.code == "pre_adjustment_scores_required"
    results_services.result_record(
        tournament_id=club,
        round_=1,
        player_a=first,
        player_b=second,
        score_a=380,
        score_b=380,
        pre_adjustment_a=372,
        pre_adjustment_b=384,
        user=director,
    )
    # Projections are rewritten, not updated: read the row again by its key.
    pairing = board_of(club, 1, pairing.board)
    assert (pairing.first.outcome, pairing.second.outcome) == ("loss", "win")
    assert pairing.first.tie_break


@pytest.mark.django_db
def test_an_amendment_in_round_one_changes_every_later_standing(club, director):
    for round_ in (1, 2):
        pairing_services.round_pair(
            tournament_id=club,
            division="A",
            round_=round_,
            method="swiss",
            user=director,
        )
        enter_round(club, director, round_)
    game = round_games(club, 1)[0]
    first, second = game.first.player_id, game.second.player_id
    before = {
        (s.round, s.player_id): (s.wins, s.running_spread)
        for s in PlayerRound.objects.filter(tournament_id=club)
    }
    results_services.result_amend(
        tournament_id=club,
        round_=1,
        player_a=first,
        player_b=second,
        score_a=350,
        score_b=450,
        reason="slip misread",
        user=director,
    )
    after = {
        (s.round, s.player_id): (s.wins, s.running_spread)
        for s in PlayerRound.objects.filter(tournament_id=club)
    }
    for round_ in (1, 2):
        assert before[(round_, first)] != after[(round_, first)]
        assert before[(round_, second)] != after[(round_, second)]
    assert after[(2, second)][1] - before[(2, second)][1] == 200
    game = board_of(club, 1, game.board)
    assert game.first.amended
    assert game.second.outcome == "win"


@pytest.mark.django_db
def test_a_stale_expected_version_is_a_conflict(club, director):
    version = current_version(aggregate.tournament_stream(club))
    pairing_services.round_pair(
        tournament_id=club,
        division="A",
        round_=1,
        method="swiss",
        user=director,
        expected_version=version,
    )
    with pytest.raises(ConcurrencyError) as raised:
        setup_services.tournament_publish(
            tournament_id=club, published=False, user=director, expected_version=version
        )
    assert raised.value.current == version + 1


@pytest.mark.django_db
def test_projections_rebuilt_from_the_log_equal_the_incremental_ones(club, director):
    for round_ in (1, 2, 3):
        pairing_services.round_pair(
            tournament_id=club,
            division="A",
            round_=round_,
            method="swiss",
            user=director,
        )
        enter_round(club, director, round_, margin=10 * round_)
    some = Player.objects.filter(tournament_id=club)[3]
    players_services.player_withdraw(
        tournament_id=club, player_id=some.player_id, from_round=4, user=director
    )
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=4, method="swiss", user=director
    )
    incremental = snapshot(club)
    state_cache.clear()
    rebuild_projections(["tournament"])
    assert snapshot(club) == incremental


@pytest.mark.django_db
def test_each_pairing_row_names_the_event_that_last_changed_it(club, director):
    setup_services.tournament_publish(tournament_id=club, published=True, user=director)
    paired = pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    game = round_games(club, 1)[0]
    rows = PlayerRound.objects.filter(tournament_id=club, round=1)
    assert {r.changed_version for r in rows} == {paired.version}
    recorded = results_services.result_record(
        tournament_id=club,
        round_=1,
        player_a=game.first.player_id,
        player_b=game.second.player_id,
        score_a=400,
        score_b=300,
        user=director,
    )
    players = (game.first.player_id, game.second.player_id)
    for row in PlayerRound.objects.filter(
        tournament_id=club, round=1, player_id__in=players
    ):
        assert row.changed_version == recorded.version
        assert row.changed_position == recorded.recorded[0].position
        assert row.changed_at == recorded.recorded[0].recorded_at
    untouched = PlayerRound.objects.filter(tournament_id=club, round=1).exclude(
        player_id__in=players
    )
    assert {r.changed_version for r in untouched} == {paired.version}


@pytest.mark.django_db
def test_a_forfeit_made_by_a_withdrawal_is_stamped_with_the_withdrawal(club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    game = round_games(club, 1)[0]
    withdrawn = players_services.player_withdraw(
        tournament_id=club, player_id=game.first.player_id, from_round=1, user=director
    )
    game = board_of(club, 1, game.board)
    assert game.first.kind == "withdrawal_forfeit"
    assert game.second.kind == "forfeit_win"
    row = PlayerRound.objects.get(
        tournament_id=club, round=1, player_id=game.second.player_id
    )
    assert row.changed_version == withdrawn.version
    assert row.changed_position == withdrawn.recorded[0].position
