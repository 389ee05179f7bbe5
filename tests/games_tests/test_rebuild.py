"""Rebuilding game projections from the log gives exactly the incremental rows."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games import eventstore, services
from games.models import GameProjection, GameTurn

EXCLUDED = {"updated_at"}  # when a row was written differs by nature


def snapshot():
    games = {
        g["game_id"]: {k: v for k, v in g.items() if k not in EXCLUDED}
        for g in GameProjection.objects.values()
    }
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
    eventstore.state_cache.clear()
    eventstore.rebuild_projections(["game"])
    assert snapshot() == incremental


@pytest.mark.django_db(transaction=True)
def test_a_parallel_rebuild_equals_the_incremental_projection(recorder, shared_gcg_dir):
    record_games(recorder, shared_gcg_dir)
    incremental = snapshot()
    call_command("rebuild_projections", "game", jobs=2, verbosity=0)
    assert snapshot() == incremental
