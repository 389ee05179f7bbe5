"""Boards: a round's games numbered, a pinned player's game on their fixed board.

Usage::

    games = assign_boards(games, fixed={"p1": 1})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import count, filterfalse

from rules.tournament import (
    Board,
    TournamentError,
)


def assign_boards(
    pairs: Sequence[tuple[str, str]], fixed: Mapping[str, int] | None = None
) -> tuple[Board, ...]:
    """Number the games: a pinned player's game on their board, the rest in order.

    ``pairs`` is in board order (best first); the games without a pinned player
    take the lowest free numbers in that order. When both players of a game are
    pinned to different boards, the lower board is used. Raises TournamentError
    (``board_conflict``) when two games would need the same board.
    """
    fixed = fixed or {}
    wanted: dict[int, int] = {}
    holder: dict[int, tuple[str, str]] = {}
    for index, pair in enumerate(pairs):
        boards = [fixed[p] for p in pair if p in fixed]
        if not boards:
            continue
        board = min(boards)
        if board in holder:
            raise TournamentError(
                "board_conflict",
                f"Board {board} is fixed for both {' v '.join(holder[board])} and"
                f" {' v '.join(pair)}; change one of the fixed boards.",
                "fixed_boards",
            )
        wanted[index] = board
        holder[board] = pair
    # An iterator, not a generator expression: mypyc builds the latter as a list,
    # endless here.
    free = filterfalse(holder.__contains__, count(1))
    return tuple(
        Board(wanted[index] if index in wanted else next(free), first, second)
        for index, (first, second) in enumerate(pairs)
    )
