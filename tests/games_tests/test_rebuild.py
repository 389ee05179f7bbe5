"""Rebuilding game projections from the log gives exactly the incremental rows."""

from __future__ import annotations

import itertools
import random
import uuid

import pytest
from django.core.management import call_command

from games import services
from games.eventstore.cache import state_cache
from games.eventstore.rebuild import id_range, rebuild_projections
from games.eventstore.streams import StreamKey
from games.models import GameProjection, GameTurn
from games.streams import kept_game

EXCLUDED = {"updated_at"}  # when a row was written differs by nature


def snapshot():
    games = {
        g["game_id"]: {k: v for k, v in g.items() if k not in EXCLUDED}
        for g in GameProjection.objects.values()
    }
    for game in games.values():
        # The state the store keeps for it. Equal states need not pickle to equal
        # bytes (shared objects differ between a replay and a run of appends):
        # compare what the kept states hold.
        game["snapshot"] = kept_game(game["game_id"], game["version"])
        assert game["snapshot"] is not None
    turns = sorted(
        (t["game_id"], t["index"], tuple(sorted(t.items())))
        for t in GameTurn.objects.values(
            "game_id",
            "index",
            "version",
            "player",
            "kind",
            "rack",
            "position",
            "word",
            "words",
            "score",
            "cumulative",
            "withdrawn",
            "notes",
        )
    )
    return games, turns


def record_games(user, shared_gcg_dir):
    for path in sorted(shared_gcg_dir.glob("*.gcg")):
        services.game_import_gcg(text=path.read_bytes(), user=user)
    # A game recorded move by move, with a phony, a note and a correction.
    started = services.game_start(
        user=user, players=["Ann", "Ben"], racks=["DINNVWY", "ADEEGIL"]
    )
    gid = started.stream.id
    placed = services.game_place(game_id=gid, position="8D", word="WINDY", user=user)
    services.game_challenge(game_id=gid, outcome="phony", user=user)
    services.game_note(
        game_id=gid, target_version=placed.version, text="Bold.", user=user
    )
    services.game_supersede(
        game_id=gid, from_version=placed.version + 1, reason="misentered", user=user
    )


@pytest.mark.django_db
def test_rebuild_equals_the_incremental_projection(recorder, shared_gcg_dir):
    record_games(recorder, shared_gcg_dir)
    incremental = snapshot()
    assert len(incremental[0]) == 7
    state_cache.clear()
    rebuild_projections(["game"])
    assert snapshot() == incremental


@pytest.mark.django_db
def test_a_rebuild_does_not_keep_the_game_states_it_replays(recorder, shared_gcg_dir):
    # Thousands of kept game states made the collector's full passes a quarter of
    # a national rebuild; a game replays in a millisecond when next asked for.
    record_games(recorder, shared_gcg_dir)
    state_cache.clear()
    rebuild_projections(["game"])
    game_ids = GameProjection.objects.values_list("game_id", flat=True)
    assert len(game_ids) == 7
    for game_id in game_ids:
        assert state_cache.entry(StreamKey("game", game_id)) is None


@pytest.mark.django_db(transaction=True)
def test_a_parallel_rebuild_equals_the_incremental_projection(recorder, shared_gcg_dir):
    record_games(recorder, shared_gcg_dir)
    incremental = snapshot()
    call_command("rebuild_projections", "game", jobs=2, verbosity=0)
    assert snapshot() == incremental


def test_the_shares_of_a_parallel_rebuild_cover_every_stream_id_once():
    shares = [id_range(index, 5) for index in range(5)]
    assert shares[0][0] == uuid.UUID(int=0)
    assert shares[-1][1] is None
    for (_, high), (next_low, _) in itertools.pairwise(shares):
        assert high == next_low
    rng = random.Random(3)
    for _ in range(2000):
        stream_id = uuid.UUID(int=rng.getrandbits(128))
        holders = [
            (low, high)
            for low, high in shares
            if low <= stream_id and (high is None or stream_id < high)
        ]
        assert len(holders) == 1, stream_id
    with pytest.raises(ValueError, match="no share 5 of 5"):
        id_range(5, 5)
