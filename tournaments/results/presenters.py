"""What the pages show of a result: labels and badges, from the rules' answer.

A presenter never decides a result: it reads the kind and outcome that
``rules.tournament`` stored (``results.selectors`` rows) and says them in words.

Usage::

    line = board_line(tournament, board, game)
    line.badge        # "forfeit: Ann Smith", "bye", "credited +50", ...
    KIND_LABELS["withdrawal_forfeit"]  # "absent"
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from games.formatting import signed
from rules.records import LOSING_KINDS, EntryKind
from tournaments.pairing.selectors import Board, Side

# How each kind of round reads on a page.
KIND_LABELS: dict[str, str] = {
    EntryKind.GAME: "game",
    EntryKind.BYE: "bye",
    EntryKind.FORFEIT_WIN: "won by forfeit",
    EntryKind.FORFEIT_LOSS: "forfeit",
    # A round a player was withdrawn for: a missed round (withdrawn for it, back for
    # the next) or a round after a withdrawal. "absent" is true of both; whether the
    # player is withdrawn now is their own badge, not the round's.
    EntryKind.WITHDRAWAL_FORFEIT: "absent",
    EntryKind.CREDIT: "credited",
    EntryKind.UNPLAYED: "not paired",
}


def signed_spread(value: int) -> str:
    """A spread with its sign, as tsh and the printed tables write it (+50, -12)."""
    return signed(value, minus="-")


def kind_badge(kind: str, spread: int) -> str:
    """The badge of a round that is not a played game ("" for a game)."""
    if kind == EntryKind.GAME:
        return ""
    if kind == EntryKind.CREDIT:
        return f"credited {signed_spread(spread)}"
    return KIND_LABELS[kind]


@dataclass(frozen=True, slots=True)
class BoardLine:
    """A line of a round's pairings, as the pages show it."""

    board: int | None
    first: Side
    second: Side | None
    has_result: bool
    amended: bool
    game_id: uuid.UUID | None
    game: Any  # the board's recorded game (games.models.GameProjection) or None
    badge: str  # forfeits, byes, credits; "" for a played game or one to play

    @property
    def alone(self) -> bool:
        """A player without an opponent: a bye, a credit, an unpaired forfeit."""
        return self.second is None

    @property
    def played(self) -> bool:
        return self.first.kind == EntryKind.GAME

    @property
    def draw(self) -> bool:
        return self.first.outcome == "draw"

    @property
    def first_won(self) -> bool:
        return self.first.outcome == "win"

    @property
    def second_won(self) -> bool:
        return self.second is not None and self.second.outcome == "win"


def board_line(tournament: Any, board: Board, game: Any) -> BoardLine:
    """Present a board (both sides as the rules decided them) with its game."""
    return BoardLine(
        board=board.board,
        first=board.first,
        second=board.second,
        has_result=board.has_result,
        amended=board.first.amended,
        game_id=board.game_id or (game.game_id if game is not None else None),
        game=game,
        badge=_badge(board),
    )


def _badge(board: Board) -> str:
    if board.second is None:
        return kind_badge(board.first.kind, board.first.round_spread)
    losers = [
        side.name for side in (board.first, board.second) if side.kind in LOSING_KINDS
    ]
    if not losers:
        return ""
    kinds = {board.first.kind, board.second.kind}
    word = "absent" if EntryKind.WITHDRAWAL_FORFEIT in kinds else "forfeit"
    return f"{word}: {', '.join(losers)}"
