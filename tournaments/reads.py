"""The public API's hottest reads, in plain SQL: standings and scorecards.

These are what hundreds of players reload while a round's results come in. Through
the ORM, compiling each query and building a model instance per row cost several
times what PostgreSQL spent answering (profiled at national scale: a scorecard took
13 ms, 4.5 queries of which about 2 ms each was Django's own work, plus 3.6 ms of
serializer). Here a read is one to three statements returning plain tuples (a
header, then the body); the shapes are the documented ones (``StandingOutput``,
``ScorecardOutput``). The public pages read through them too.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import connection

from rules.standings import format_record
from tournaments.serializers import PlayerOutput


@dataclass(frozen=True, slots=True)
class TournamentHeader:
    """What a read needs before its body: who may see it and its cache key."""

    pk: uuid.UUID
    version: int
    published: bool
    rounds: int
    divisions: list[str]
    division_versions: dict[str, int]
    name: str = ""
    # Set by scorecard_header: the player's row, when the player exists.
    player: dict[str, Any] | None = None

    def division_version(self, division: str) -> int:
        # A tournament projected before division versions existed: the stream's.
        return self.division_versions.get(division, self.version)


_HEADER = """
SELECT tournament_id, version, published, rounds, divisions, division_versions, name
FROM tournaments_tournament WHERE tournament_id = %s
"""


def _header(
    row: tuple[Any, ...], player: dict[str, Any] | None = None
) -> TournamentHeader:
    # Django's connection hands jsonb over as text (JSONField parses it itself).
    pk, version, published, rounds, divisions, division_versions, name = row
    return TournamentHeader(
        pk,
        version,
        published,
        rounds,
        json.loads(divisions),
        json.loads(division_versions),
        name,
        player,
    )


def tournament_header(tournament_id: uuid.UUID) -> TournamentHeader | None:
    with connection.cursor() as cursor:
        cursor.execute(_HEADER, [tournament_id])
        row = cursor.fetchone()
    return None if row is None else _header(row)


# The columns, in PlayerOutput's order (its "id" is the player_id column).
PLAYER_FIELDS = tuple(PlayerOutput.Meta.fields)
_PLAYER_COLUMNS = ", ".join(
    f"p.{'player_id' if name == 'id' else name}" for name in PLAYER_FIELDS
)

# The player's row comes with the tournament's: a scorecard's cache key needs the
# player's division.
_SCORECARD_HEADER = f"""
SELECT t.tournament_id, t.version, t.published, t.rounds, t.divisions,
       t.division_versions, t.name,
       {_PLAYER_COLUMNS}
FROM tournaments_tournament t
LEFT JOIN tournaments_player p
       ON p.tournament_id = t.tournament_id AND p.player_id = %s
WHERE t.tournament_id = %s
"""


def scorecard_header(
    tournament_id: uuid.UUID, player_id: str
) -> TournamentHeader | None:
    with connection.cursor() as cursor:
        cursor.execute(_SCORECARD_HEADER, [player_id, tournament_id])
        row = cursor.fetchone()
    if row is None:
        return None
    player = None if row[7] is None else dict(zip(PLAYER_FIELDS, row[7:], strict=True))
    return _header(row[:7], player)


# Serves the latest standings too: the subquery finds the division's last round
# with standings through the same index (standing_page).
_STANDINGS = """
SELECT after_round, rank, player_id, number, name, rating, wins, losses, draws,
       spread, total_score, games, byes, withdrawn
FROM tournaments_standing
WHERE tournament_id = %s AND division = %s
  AND after_round = COALESCE(%s, (SELECT max(after_round) FROM tournaments_standing
                                  WHERE tournament_id = %s AND division = %s))
ORDER BY rank, number
"""


# Served by standing_page (tournament, division, after_round, …).
_LAST_ROUND = """
SELECT max(after_round) FROM tournaments_standing
WHERE tournament_id = %s AND division = %s
"""


def last_round_with_standings(tournament_id: uuid.UUID, division: str) -> int:
    """The division's latest round with standings (0 before any)."""
    with connection.cursor() as cursor:
        cursor.execute(_LAST_ROUND, [tournament_id, division])
        (last,) = cursor.fetchone()
    return last or 0


def standings(
    tournament_id: uuid.UUID, division: str, after_round: int | None
) -> tuple[int, list[dict[str, Any]]]:
    """The division's standings after `after_round` (default: the latest round)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _STANDINGS,
            [tournament_id, division, after_round, tournament_id, division],
        )
        rows = cursor.fetchall()
    shown = rows[0][0] if rows else (after_round or 0)
    return shown, [
        {
            "rank": rank,
            "player": player_id,
            "number": number,
            "name": name,
            "rating": rating,
            "wins": wins,
            "losses": losses,
            "draws": draws,
            "points": wins + draws / 2,
            "record": format_record(wins, losses, draws),
            "spread": spread,
            "total_score": total_score,
            "games": games,
            "byes": byes,
            "withdrawn": withdrawn,
        }
        for (
            _,
            rank,
            player_id,
            number,
            name,
            rating,
            wins,
            losses,
            draws,
            spread,
            total_score,
            games,
            byes,
            withdrawn,
        ) in rows
    ]


class PairingRow(NamedTuple):
    """The columns of a pairing a scorecard line reads."""

    round: int
    first_id: str
    second_id: str
    first_score: int | None
    second_score: int | None
    has_result: bool
    winner_id: str
    absentee_id: str
    game_id: uuid.UUID | None
    opponent_name: str | None
    board: int | None


class StandingRow(NamedTuple):
    """The columns of a standings line a scorecard line reads (and the scorecard
    page's heading, the latest one's rank)."""

    after_round: int
    wins: int
    losses: int
    draws: int
    spread: int
    rank: int


# Served by pairing_first / pairing_second (a bitmap OR of the two); the opponent's
# name comes along (a national division has hundreds of players).
_PLAYER_PAIRINGS = """
SELECT p.round, p.first_id, p.second_id, p.first_score, p.second_score,
       p.has_result, p.winner_id, p.absentee_id, p.game_id, o.name, p.board
FROM tournaments_pairing p
LEFT JOIN tournaments_player o
       ON o.tournament_id = p.tournament_id
      AND o.player_id = CASE WHEN p.first_id = %s THEN p.second_id ELSE p.first_id END
WHERE p.tournament_id = %s AND p.division = %s
  AND (p.first_id = %s OR p.second_id = %s)
"""

# Served by standing_player.
_PLAYER_STANDINGS = """
SELECT after_round, wins, losses, draws, spread, rank FROM tournaments_standing
WHERE tournament_id = %s AND player_id = %s AND division = %s
"""


def player_rounds(
    tournament_id: uuid.UUID, player_id: str, division: str
) -> tuple[list[PairingRow], list[StandingRow]]:
    """A player's pairings (with opponents' names) and standings lines."""
    with connection.cursor() as cursor:
        cursor.execute(
            _PLAYER_PAIRINGS,
            [player_id, tournament_id, division, player_id, player_id],
        )
        pairings = [PairingRow(*row) for row in cursor.fetchall()]
        cursor.execute(_PLAYER_STANDINGS, [tournament_id, player_id, division])
        lines = [StandingRow(*row) for row in cursor.fetchall()]
    return pairings, lines


# Served by games_game_division (tournament, division, round, board); the exact
# (round, board) pairs are picked from the rounds' and boards' cross product here.
_BOARD_GAMES = """
SELECT round, board_number, game_id FROM games_game
WHERE tournament_id = %s AND division = %s
  AND round = ANY(%s) AND board_number = ANY(%s)
ORDER BY started_at
"""


def board_game_ids(
    tournament_id: uuid.UUID, division: str, boards: list[tuple[int, int | None]]
) -> dict[tuple[int, int | None], uuid.UUID]:
    """The latest recorded game of each (round, board), by id: the games a
    scorecard links when no result names them."""
    wanted = {(round_, board) for round_, board in boards if board is not None}
    if not wanted:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            _BOARD_GAMES,
            [
                tournament_id,
                division,
                sorted({round_ for round_, _ in wanted}),
                sorted({board for _, board in wanted}),
            ],
        )
        rows = cursor.fetchall()
    # Ordered by start: a later game of the same board replaces an earlier one.
    return {
        (round_, board): game_id
        for round_, board, game_id in rows
        if (round_, board) in wanted
    }
