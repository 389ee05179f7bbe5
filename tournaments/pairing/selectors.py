"""Reads of pairing: how many rounds are paired, a round's boards."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from config.replicas import reading

# --- Results: standings ------------------------------------------------------------

# Served by player_round_standings (tournament, division, round, position).
_LAST_ROUND = """
SELECT max(round) FROM tournaments_player_round
WHERE tournament_id = %s AND division = %s
"""


def last_round(tournament_id: uuid.UUID, division: str) -> int | None:
    """The division's last round with rows: its last paired round, 0 before round 1
    is paired (the pre-event order), None while the division has no player."""
    with reading().cursor() as cursor:
        cursor.execute(_LAST_ROUND, [tournament_id, division])
        (last,) = cursor.fetchone()
    return last


def paired_rounds(tournament_id: uuid.UUID, division: str) -> int:
    """How many rounds of the division are paired."""
    return last_round(tournament_id, division) or 0


# --- Results: a round's boards -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One player's side of a board: the row of ``PlayerRound`` with names."""

    player_id: str
    number: int
    name: str
    kind: str
    went_first: bool | None
    own_score: int | None
    opponent_score: int | None
    own_pre_adjustment: int | None
    opponent_pre_adjustment: int | None
    outcome: str
    tie_break: bool
    has_result: bool
    round_spread: int
    counted_spread: int
    game_id: uuid.UUID | None
    amended: bool


@dataclass(frozen=True, slots=True)
class Board:
    """One line of a round's pairings: a game (both sides, the first mover first)
    or a player alone (a bye, a credit, a withdrawn player's forfeit)."""

    round: int
    board: int | None
    method: str
    first: Side
    second: Side | None

    @property
    def has_result(self) -> bool:
        return self.first.has_result

    @property
    def game_id(self) -> uuid.UUID | None:
        return self.first.game_id


_ROUND_ROWS = """
SELECT player_id, number, name, kind, went_first, own_score, opponent_score,
       own_pre_adjustment, opponent_pre_adjustment, outcome, tie_break, has_result,
       round_spread, counted_spread, game_id, amended, board, opponent_id, method
FROM tournaments_player_round
WHERE tournament_id = %s AND division = %s AND round = %s AND kind <> 'unplayed'
"""


def round_boards(tournament_id: uuid.UUID, division: str, round_: int) -> list[Board]:
    """The round's games by board, then the players alone, by number."""
    with reading().cursor() as cursor:
        cursor.execute(_ROUND_ROWS, [tournament_id, division, round_])
        rows = cursor.fetchall()
    sides = {row[0]: (Side(*row[:16]), row[16], row[17], row[18]) for row in rows}
    boards = []
    for side, board, opponent_id, method in sides.values():
        if opponent_id and side.went_first is not True:
            continue  # the second mover: on the first mover's line
        second = sides[opponent_id][0] if opponent_id else None
        boards.append(Board(round_, board, method, side, second))
    boards.sort(key=lambda b: (b.board is None, b.board or 0, b.first.number))
    return boards
