"""Test helpers: a round's boards, read the way the pages and the API read them."""

from __future__ import annotations

import uuid

from tournaments.pairing import selectors


def round_games(
    tournament_id: uuid.UUID, round_: int, division: str = "A"
) -> list[selectors.Board]:
    """The round's games (both sides), by board; byes and credits left out."""
    return [
        board
        for board in selectors.round_boards(tournament_id, division, round_)
        if board.second is not None
    ]


def round_alone(
    tournament_id: uuid.UUID, round_: int, division: str = "A"
) -> list[selectors.Board]:
    """The round's players without an opponent (byes, credits, unpaired forfeits)."""
    return [
        board
        for board in selectors.round_boards(tournament_id, division, round_)
        if board.second is None
    ]


def board_of(
    tournament_id: uuid.UUID, round_: int, board: int, division: str = "A"
) -> selectors.Board:
    """The game on ``board`` of the round."""
    return next(
        line
        for line in round_games(tournament_id, round_, division)
        if line.board == board
    )
