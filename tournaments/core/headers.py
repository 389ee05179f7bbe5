"""A tournament's header row: the few columns every page reads first.

One query (``tournament_header``) gives what access and the page frame need, without
loading the aggregate; ``scorecard_header`` adds one player's row.
"""

from __future__ import annotations

import dataclasses
import json
import uuid
from typing import Any

from config.replicas import reading
from tournaments.core.access import TournamentHeader

# --- Headers -----------------------------------------------------------------------

_HEADER = """
SELECT tournament_id, version, published, rounds, divisions, division_versions, name,
       ranking, self_entry, updated_at
FROM tournaments_tournament WHERE tournament_id = %s
"""


def _header(
    row: tuple[Any, ...], player: dict[str, Any] | None = None
) -> TournamentHeader:
    # Django's connection hands jsonb over as text (JSONField parses it itself).
    (
        pk,
        version,
        published,
        rounds,
        divisions,
        division_versions,
        name,
        ranking,
        self_entry,
    ) = row
    return TournamentHeader(
        pk,
        version,
        published,
        rounds,
        json.loads(divisions),
        json.loads(division_versions),
        name,
        player,
        ranking,
        self_entry,
    )


def tournament_header(tournament_id: uuid.UUID) -> TournamentHeader | None:
    with reading().cursor() as cursor:
        cursor.execute(_HEADER, [tournament_id])
        row = cursor.fetchone()
    if row is None:
        return None
    # The time of the last change: a file's Last-Modified (tourney.js).
    return dataclasses.replace(_header(row[:9]), updated_at=row[9])


# A player's public fields, as the API shows them (players.serializers.PlayerOutput)
# and the scorecard's header reads them ("id" is the player_id column).
PLAYER_FIELDS = (
    "id",
    "division",
    "number",
    "name",
    "rating",
    "member_id",
    "withdrawn",
    "joined_after_round",
    "rating_text",
    "career_games",
)


_PLAYER_COLUMNS = ", ".join(
    f"p.{'player_id' if name == 'id' else name}" for name in PLAYER_FIELDS
)


# The player's row comes with the tournament's: a scorecard's cache key needs the
# player's division.
_SCORECARD_HEADER = f"""
SELECT t.tournament_id, t.version, t.published, t.rounds, t.divisions,
       t.division_versions, t.name, t.ranking, t.self_entry,
       {_PLAYER_COLUMNS}
FROM tournaments_tournament t
LEFT JOIN tournaments_player p
       ON p.tournament_id = t.tournament_id AND p.player_id = %s
WHERE t.tournament_id = %s
"""


def scorecard_header(
    tournament_id: uuid.UUID, player_id: str
) -> TournamentHeader | None:
    with reading().cursor() as cursor:
        cursor.execute(_SCORECARD_HEADER, [player_id, tournament_id])
        row = cursor.fetchone()
    if row is None:
        return None
    player = None if row[9] is None else dict(zip(PLAYER_FIELDS, row[9:], strict=True))
    return _header(row[:9], player)
