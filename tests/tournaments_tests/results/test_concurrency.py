"""Directors entering results at the same time, on real concurrent connections."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from games.eventstore.errors import EventRejectedError
from tests.boards import round_games
from tournaments.pairing import services as pairing_services
from tournaments.results import services as results_services


def _enter(club, director, pairing, barrier, outcomes):
    try:
        barrier.wait()
        results_services.result_record(
            tournament_id=club,
            round_=1,
            player_a=pairing.first.player_id,
            player_b=pairing.second.player_id,
            score_a=410,
            score_b=390,
            user=director,
        )
        outcomes.append("stored")
    except EventRejectedError as error:
        outcomes.append(error.code)
    finally:
        connections.close_all()


def _race(club, director, pairings):
    barrier = threading.Barrier(len(pairings))
    outcomes: list[str] = []
    threads = [
        threading.Thread(target=_enter, args=(club, director, p, barrier, outcomes))
        for p in pairings
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_five_directors_entering_different_slips_at_once_all_land(club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    games = round_games(club, 1)
    outcomes = _race(club, director, games)
    assert outcomes == ["stored"] * 5
    assert sum(game.has_result for game in round_games(club, 1)) == 5


@pytest.mark.django_db(transaction=True)
def test_the_same_slip_entered_twice_at_once_is_stored_once(club, director):
    pairing_services.round_pair(
        tournament_id=club, division="A", round_=1, method="swiss", user=director
    )
    game = round_games(club, 1)[0]
    outcomes = _race(club, director, [game, game])
    assert sorted(outcomes) == ["duplicate_result", "stored"]
