"""Swiss and King of the Hill pair divisions of any size: the coin flips drawn for
who goes first follow the division's size (a fixed 64 refused over 128 players)."""

from __future__ import annotations

import pytest

from games.eventstore.cache import state_cache
from tests.reliability_tests.conftest import make_tournament
from tournaments.core import aggregate
from tournaments.pairing import services

pytestmark = pytest.mark.django_db

PLAYERS = 301  # 150 games and a bye: every game a tie for who goes first


@pytest.mark.parametrize("method", ["swiss", "king_of_the_hill"])
def test_a_national_division_is_paired_by_the_system(director, method):
    tournament_id, _ = make_tournament(
        director, players=PLAYERS, name="Nationals", rounds=31, pair_by_hand=False
    )
    services.round_pair(
        tournament_id=tournament_id,
        division="A",
        round_=1,
        method=method,
        user=director,
    )
    _, state = aggregate.tournament_state(tournament_id)
    pairing = state.rules.round_state("A", 1).pairing
    assert len(pairing.games) == PLAYERS // 2
    assert len(pairing.byes) == 1
    assert len(pairing.coin_flips) == PLAYERS // 2
    # Replayed from the log alone, the round is the same.
    state_cache.clear()
    _, replayed = aggregate.tournament_state(tournament_id)
    assert replayed.rules.round_state("A", 1).pairing == pairing
