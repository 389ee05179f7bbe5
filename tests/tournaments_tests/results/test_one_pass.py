"""A slip in one pass (issue 29): the write starts from the aggregate the request
loaded, decides the right on it, and keeps the retry semantics of a slip."""

from __future__ import annotations

import pytest

from games.eventstore.errors import ConcurrencyError
from rules import tournament as rt
from tests.boards import round_games
from tournaments.core import aggregate
from tournaments.core.errors import PermissionDeniedError
from tournaments.core.writes import append_as_director
from tournaments.pairing import services as pairing_services
from tournaments.results import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    return round_games(club, 1)


def _record(club, game, user, loaded=None):
    return services.result_record(
        tournament_id=club,
        round_=1,
        player_a=game.first.player_id,
        player_b=game.second.player_id,
        score_a=410,
        score_b=390,
        user=user,
        loaded=loaded,
    )


def test_a_slip_appends_from_the_loaded_state_without_loading_again(
    club, director, games, monkeypatch
):
    loaded = aggregate.tournament_state(club)
    calls = []
    monkeypatch.setattr(
        "tournaments.core.writes.tournament_state", lambda *a: calls.append(a)
    )
    result = _record(club, games[0], director, loaded)
    assert calls == []
    assert result.version == loaded[0] + 1
    assert result.state.rules.round_state("A", 1).result_of(
        games[0].first.player_id, games[0].second.player_id
    )


def test_a_slip_checked_on_a_state_another_director_moved_on_still_lands(
    club, director, games
):
    # A slip's result does not depend on what its director saw: it goes in at the
    # version the stream has (the rules still refuse a duplicate).
    loaded = aggregate.tournament_state(club)
    _record(club, games[0], director)
    result = _record(club, games[1], director, loaded)
    assert result.version == loaded[0] + 2


def test_a_command_from_a_stale_loaded_state_is_told_to_reload(club, director, games):
    loaded = aggregate.tournament_state(club)
    _record(club, games[0], director)
    with pytest.raises(ConcurrencyError):
        append_as_director(
            tournament_id=club,
            events=[rt.ForfeitRecorded(round=1, absentee=games[1].first.player_id)],
            user=director,
            expected_version=None,
            loaded=loaded,
            results_only=True,
        )


def test_the_right_is_decided_on_the_loaded_aggregate(club, other_user, games):
    loaded = aggregate.tournament_state(club)
    with pytest.raises(PermissionDeniedError):
        _record(club, games[0], other_user, loaded)
