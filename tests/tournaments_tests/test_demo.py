"""The demo command (the tournaments app's) loads the tournament the README
promises."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.eventstore.models import StoredEvent
from games.models import GameProjection, GameTurn
from tournaments.models import Player, PlayerRound, Tournament
from tournaments.prizes.selectors import prize_board


@pytest.mark.django_db
def test_the_demo_has_everything_it_promises():
    call_command("demo", verbosity=0)
    tournament = Tournament.objects.get()
    assert tournament.divisions == ["A", "B"]
    assert tournament.rounds >= 7
    games = GameProjection.objects.filter(tournament_id=tournament.pk)
    played = PlayerRound.objects.filter(
        tournament=tournament, kind="game", went_first=True
    )
    # Every paired game was recorded move by move and its result linked to it.
    assert games.count() == played.count() == 49
    assert all(p.has_result and p.game_id for p in played)
    assert set(played.values_list("game_id", flat=True)) == set(
        games.values_list("game_id", flat=True)
    )
    assert (
        StoredEvent.objects.filter(stream_type="game", event_type="tiles_drawn").count()
        > 49 * 5
    )
    assert GameTurn.objects.filter(kind="phony_withdrawn").count() >= 1
    assert GameTurn.objects.exclude(notes=[]).count() >= 2
    assert PlayerRound.objects.filter(tournament=tournament, kind="bye").count() == 7
    tie = games.get(decided_by_tiebreak=True)
    assert tie.scores[0] == tie.scores[1]
    assert (
        tie.scores_before_adjustments[tie.winner]
        > (tie.scores_before_adjustments[1 - tie.winner])
    )
    assert PlayerRound.objects.filter(tournament=tournament, round=7).count() == 15
    assert Player.objects.get(name="Dev Patel").user.username == "dev"
    # Each division's prizes go to the players the standings put first.
    for division in tournament.divisions:
        board = prize_board(tournament.pk, division)
        leaders = {
            p.player_id
            for p in PlayerRound.objects.filter(
                tournament=tournament, division=division, round=7, rank=1
            )
        }
        assert {w.player_id for w in board.lines[0].winners} == leaders
    # Loading again on a database with a tournament does nothing.
    call_command("demo", if_empty=True, verbosity=0)
    assert Tournament.objects.count() == 1
