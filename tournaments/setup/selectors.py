"""Reads of the tournament itself: a tournament's divisions at a glance, and a
division as the API shows it (the list a user may see is an access rule:
``core.access.readable_tournaments``).
"""

from __future__ import annotations

import uuid
from typing import Any

from config.replicas import reading
from rules import tournament as rt

# --- A tournament's page -------------------------------------------------------------

# One statement whatever the number of divisions shown: per division, its players
# (player_division), its last round with rows (player_round_standings) and its
# recorded games (games_game_division), each through its index.
_DIVISION_SUMMARIES = """
SELECT d.name,
       (SELECT count(*) FROM tournaments_player p
        WHERE p.tournament_id = %(t)s AND p.division = d.name),
       (SELECT max(r.round) FROM tournaments_player_round r
        WHERE r.tournament_id = %(t)s AND r.division = d.name),
       (SELECT count(*) FROM games_game g
        WHERE g.tournament_id = %(t)s AND g.division = d.name)
FROM unnest(%(names)s::text[]) WITH ORDINALITY AS d(name, n)
ORDER BY d.n
"""


def division_summaries(
    tournament_id: uuid.UUID, divisions: list[str]
) -> list[dict[str, Any]]:
    """The tournament page's card of each division: its players, paired rounds,
    latest standings (None: no player yet) and recorded games."""
    with reading().cursor() as cursor:
        cursor.execute(_DIVISION_SUMMARIES, {"t": tournament_id, "names": divisions})
        rows = cursor.fetchall()
    return [
        {
            "name": name,
            "players": players,
            "paired": last or 0,
            "rounds": range(1, (last or 0) + 1),
            "standings_after": last,
            "games": games,
        }
        for name, players, last, games in rows
    ]


def division_document(state: rt.TournamentState, division: str) -> dict[str, Any]:
    """The division as the API shows it: what its games are played with."""
    own = state.setup_of(division)
    played = state.game_setup(division)
    return {
        "name": division,
        "rounds": state.rounds_of(division),
        "tile_set": played.tile_set,
        "lexicon": played.lexicon,
        "own_tile_set": own.tile_set,
        "own_lexicon": own.lexicon,
    }
