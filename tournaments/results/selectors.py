"""Reads of results: standings, a player's scorecard, the games on a board.

Results come from one read model, ``PlayerRound``: each player's round as
``rules.tournament`` decided it (kind, opponent, seat, scores, outcome, spread) with
the standing after it. Nothing here decides a result again.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from config.replicas import reading
from rules.outcome import record_points
from rules.tournament.standings import format_record
from tournaments.models import PlayerRound, Tournament

# Serves the latest standings too: the subquery finds the division's last round
# through the same index (player_round_standings).
_STANDINGS = """
SELECT round, rank, player_id, number, name, rating, wins, losses, draws,
       running_spread, total_score, games, byes, withdrawn
FROM tournaments_player_round
WHERE tournament_id = %s AND division = %s
  AND round = COALESCE(%s, (SELECT max(round) FROM tournaments_player_round
                            WHERE tournament_id = %s AND division = %s))
ORDER BY position
"""


def standings(
    tournament_id: uuid.UUID, division: str, after_round: int | None
) -> tuple[int, list[dict[str, Any]]]:
    """The division's standings after ``after_round`` (None: the latest round; 0:
    the pre-event order), shaped as ``StandingOutput`` documents them."""
    with reading().cursor() as cursor:
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
            "points": record_points(wins, draws),
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


# --- Results: a player's rounds ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScorecardLine:
    """One round of a player's scorecard: the rules' entry and the totals after it.

    ``outcome`` is "win", "draw", "loss", or "" while the game is to be played, for
    an unplayed round and for a credit of 0. The round's spread is ``round_spread``
    as the round gave it and ``counted_spread`` after a spread cap;
    ``running_spread`` is the total after the round. (The API keeps its older names:
    ``result``, ``spread`` and ``uncapped_spread``; the serializer maps them.)
    """

    round: int
    kind: str
    opponent_id: str
    opponent_name: str
    went_first: bool | None
    board: int | None
    own_score: int | None
    opponent_score: int | None
    own_pre_adjustment: int | None
    opponent_pre_adjustment: int | None
    outcome: str
    tie_break: bool
    has_result: bool
    counted_spread: int
    round_spread: int
    wins: int
    losses: int
    draws: int
    running_spread: int
    rank: int | None
    game_id: uuid.UUID | None
    amended: bool
    method: str = ""  # how the round was paired (round_robin, swiss, ...)

    @property
    def record(self) -> str:
        return format_record(self.wins, self.losses, self.draws)


# The ScorecardLine fields read from a PlayerRound row, in order.
_LINE_COLUMNS = """
r.round, r.kind, r.opponent_id, o.name, r.went_first, r.board, r.own_score,
r.opponent_score, r.own_pre_adjustment, r.opponent_pre_adjustment, r.outcome,
r.tie_break, r.has_result,
r.counted_spread, r.round_spread, r.wins, r.losses, r.draws, r.running_spread, r.rank,
r.game_id, r.amended, r.method
"""


# Served by player_round_player; the opponent's name comes along (a national
# division has hundreds of players).
_PLAYER_LINES = f"""
SELECT {_LINE_COLUMNS}
FROM tournaments_player_round r
LEFT JOIN tournaments_player o
       ON o.tournament_id = r.tournament_id AND o.player_id = r.opponent_id
WHERE r.tournament_id = %s AND r.player_id = %s AND r.division = %s AND r.round > 0
ORDER BY r.round
"""


def scorecard_lines(
    tournament_id: uuid.UUID, player_id: str, division: str
) -> list[ScorecardLine]:
    """The player's rounds 1 to the division's last paired round (one statement)."""
    with reading().cursor() as cursor:
        cursor.execute(_PLAYER_LINES, [tournament_id, player_id, division])
        rows = cursor.fetchall()
    return [_scorecard_line(row) for row in rows]


def _scorecard_line(row: tuple[Any, ...]) -> ScorecardLine:
    (round_, kind, opponent_id, opponent_name, *middle) = row
    return ScorecardLine(round_, kind, opponent_id, opponent_name or "", *middle)


@dataclass(frozen=True, slots=True)
class LatestStanding:
    """Where a player stands after the division's latest round."""

    after_round: int
    rank: int | None
    record: str
    spread: int


def latest_standing(lines: list[ScorecardLine]) -> LatestStanding | None:
    """The standing after the last of a player's scorecard lines."""
    if not lines:
        return None
    last = lines[-1]
    return LatestStanding(last.round, last.rank, last.record, last.running_spread)


# --- Results: the games recorded on a player's boards ------------------------------

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
    with reading().cursor() as cursor:
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


def missing_results(tournament: Tournament, division: str) -> int:
    """Paired games of the division still without a result."""
    return PlayerRound.objects.filter(
        tournament=tournament,
        division=division,
        kind="game",
        went_first=True,
        has_result=False,
    ).count()
