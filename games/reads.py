"""The game reads in plain SQL: one statement for the game, one for its turns, and
the page's header.

A national event has thousands of games and players open them at random, so most
reads of a game are first reads and must be cheap to build. Through the ORM and the
serializer a game took 7 ms, mostly Django's query compilation, model instances and
per-field serializer work; these statements return plain tuples shaped as
``GameDetailOutput`` documents.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import connection
from rest_framework.fields import DateTimeField

from games.models import GameProjection
from games.serializers import GameDetailOutput, TurnOutput

# The columns, in the documented order (GameDetailOutput's "id" is game_id; its
# turns come from their own table).
GAME_FIELDS = tuple(name for name in GameDetailOutput.Meta.fields if name != "turns")
TURN_FIELDS = tuple(TurnOutput.Meta.fields)
_JSON_GAME_FIELDS = (
    "players",
    "scores",
    "scores_before_adjustments",
    "discrepancies",
    "board",
)
_DATETIME = DateTimeField()  # the API's one datetime format


def _game_sql() -> str:
    # The tournament's published flag comes along: it decides who may read the game.
    tournaments = apps.get_model("tournaments", "Tournament")._meta.db_table
    columns = ", ".join(
        f"g.{'game_id' if name == 'id' else name}" for name in GAME_FIELDS
    )
    return (
        f"SELECT {columns}, t.published FROM {GameProjection._meta.db_table} g "
        f"LEFT JOIN {tournaments} t ON t.tournament_id = g.tournament_id "
        "WHERE g.game_id = %s"
    )


_TURNS = f"""
SELECT {", ".join(f'"{name}"' for name in TURN_FIELDS)}
FROM games_turn WHERE game_id = %s ORDER BY index
"""


def game_detail(game_id: uuid.UUID) -> tuple[dict[str, Any], bool | None] | None:
    """The game's fields (without turns) and its tournament's published flag (None
    for a casual game), or None when there is no such game."""
    with connection.cursor() as cursor:
        cursor.execute(_game_sql(), [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    game = dict(zip(GAME_FIELDS, row[:-1], strict=True))
    # Django's connection hands jsonb over as text (JSONField parses it itself).
    for name in _JSON_GAME_FIELDS:
        game[name] = json.loads(game[name])
    game["id"] = str(game["id"])
    if game["tournament_id"] is not None:
        game["tournament_id"] = str(game["tournament_id"])
    game["started_at"] = _DATETIME.to_representation(game["started_at"])
    game["updated_at"] = _DATETIME.to_representation(game["updated_at"])
    return game, row[-1]


def game_turns(game_id: uuid.UUID) -> list[dict[str, Any]]:
    """The score sheet, in turn order."""
    with connection.cursor() as cursor:
        cursor.execute(_TURNS, [game_id])
        rows = cursor.fetchall()
    loads = json.loads
    turns = []
    for row in rows:
        turn = dict(zip(TURN_FIELDS, row, strict=True))
        turn["words"] = loads(turn["words"])
        turn["notes"] = loads(turn["notes"])
        turns.append(turn)
    return turns


@dataclass(frozen=True, slots=True)
class GameHeader:
    """What the game page needs before it replays: the game's version (the replay's
    bound) and title, its tournament's name and published flag (who may read), and
    the state snapshot written with that version (games.snapshots)."""

    game_id: uuid.UUID
    version: int
    title: str
    tournament_id: uuid.UUID | None
    tournament_name: str | None
    published: bool | None
    turn_count: int = 0
    snapshot: bytes | None = field(default=None, repr=False)


def _header_sql() -> str:
    tournaments = apps.get_model("tournaments", "Tournament")._meta.db_table
    return (
        "SELECT g.game_id, g.version, g.title, g.tournament_id, t.name, t.published, "
        "g.turn_count, g.snapshot "
        f"FROM {GameProjection._meta.db_table} g "
        f"LEFT JOIN {tournaments} t ON t.tournament_id = g.tournament_id "
        "WHERE g.game_id = %s"
    )


def game_header(game_id: uuid.UUID) -> GameHeader | None:
    """The game's header in one statement, or None when there is no such game."""
    with connection.cursor() as cursor:
        cursor.execute(_header_sql(), [game_id])
        row = cursor.fetchone()
    return None if row is None else GameHeader(*row)
