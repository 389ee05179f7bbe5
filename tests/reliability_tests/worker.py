"""A process that appends in a loop until it is killed (started by test_faults).

    python -m tests.reliability_tests.worker GAME TOURNAMENT USER TURN_VERSION MODE

Each iteration annotates the game and amends a tournament result (its projection
rewrites a round's pairings and standings). Before an append the worker prints
``appending``, after it returns ``committed <stream id> <version>``. Modes:

* ``loop``: append as fast as it can;
* ``in-projection``: the tournament projector first writes part of its rows, then
  prints ``projecting <version>`` and sleeps: the parent kills it there, after the
  event rows were inserted and while the projection is half rewritten.
"""

from __future__ import annotations

import sys
import time
import uuid

import django


def main(
    game_id: str, tournament_id: str, user_id: str, turn_version: str, mode: str
) -> None:
    django.setup()
    from django.contrib.auth import get_user_model

    from games import services as game_services
    from games.eventstore.streams import stream_type
    from tests.boards import round_games
    from tournaments.results import services

    user = get_user_model().objects.get(pk=int(user_id))
    game = uuid.UUID(game_id)
    tournament = uuid.UUID(tournament_id)
    pairing = next(
        (board for board in round_games(tournament, 1) if board.has_result), None
    )

    if mode == "in-projection":
        handler = stream_type("tournament")
        original = handler.project

        def project(stream, state, new_events, **kwargs):
            # Delete this tournament's standings (a projector's first step), then
            # stop with the transaction open: the kill lands mid-projection.
            from tournaments.models import PlayerRound

            PlayerRound.objects.filter(tournament_id=stream.id).delete()
            print(f"projecting {new_events[-1].version}", flush=True)
            time.sleep(60)
            original(stream, state, new_events, **kwargs)

        handler.project = project

    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        print("appending", flush=True)
        result = game_services.game_note(
            game_id=game, target_version=int(turn_version), text=f"note {n}", user=user
        )
        print(f"committed {game} {result.version}", flush=True)
        print("appending", flush=True)
        result = services.result_amend(
            tournament_id=tournament,
            round_=1,
            player_a=pairing.first.player_id,
            player_b=pairing.second.player_id,
            score_a=400 + n % 300,
            score_b=300 + n % 250,
            reason=f"slip {n}",
            user=user,
        )
        print(f"committed {tournament} {result.version}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:6])
