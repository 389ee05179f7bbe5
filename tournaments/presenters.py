"""What the pages show of a result: labels and badges, from the rules' answer.

A presenter never decides a result: it reads the kind and outcome that
``rules.tournament`` stored (``tournaments.selectors`` rows) and says them in words.

Usage::

    line = board_line(tournament, board, game)
    line.badge        # "forfeit: Ann Smith", "bye", "credited +50", ...
    KIND_LABELS["withdrawal_forfeit"]
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from rules.division_rules import Prize, PrizeKind, RatingClass
from rules.records import LOSING_KINDS, EntryKind
from tournaments.selectors import Board, PrizeBoard, PrizeWinner, Side

# How each kind of round reads on a page.
KIND_LABELS: dict[str, str] = {
    EntryKind.GAME: "game",
    EntryKind.BYE: "bye",
    EntryKind.FORFEIT_WIN: "won by forfeit",
    EntryKind.FORFEIT_LOSS: "forfeit",
    EntryKind.WITHDRAWAL_FORFEIT: "withdrawn",
    EntryKind.CREDIT: "credited",
    EntryKind.UNPLAYED: "not paired",
}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def kind_badge(kind: str, spread: int) -> str:
    """The badge of a round that is not a played game ("" for a game)."""
    if kind == EntryKind.GAME:
        return ""
    if kind == EntryKind.CREDIT:
        return f"credited {signed(spread)}"
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
        return kind_badge(board.first.kind, board.first.spread)
    losers = [
        side.name for side in (board.first, board.second) if side.kind in LOSING_KINDS
    ]
    if not losers:
        return ""
    kinds = {board.first.kind, board.second.kind}
    word = "withdrawn" if EntryKind.WITHDRAWAL_FORFEIT in kinds else "forfeit"
    return f"{word}: {', '.join(losers)}"


# --- Prizes --------------------------------------------------------------------------

_PRIZE_NAMES = {
    PrizeKind.PLACE: "place",
    PrizeKind.MOST_WINS: "most wins",
    PrizeKind.HIGH_GAME: "high game",
    PrizeKind.HIGH_LOSS: "high loss",
    PrizeKind.LOW_WIN: "low win",
    PrizeKind.BEST_UPSET: "best upset",
}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10)
    return f"{n}{suffix or 'th'}"


def prize_title(prize: Prize) -> str:
    """What a prize is called on the prize page: its label, or its kind, place,
    class and rounds in words ("2nd place, class B", "High game, rounds 1–7")."""
    if prize.label:
        return prize.label
    name = _PRIZE_NAMES[prize.kind]
    if prize.kind is PrizeKind.PLACE:
        title = f"{ordinal(prize.place)} place"
    elif prize.place > 1:
        title = f"{ordinal(prize.place)} {name}"
    else:
        title = name.capitalize()
    if prize.rating_class:
        title += f", class {prize.rating_class}"
    if prize.first_round or prize.last_round:
        title += f", rounds {prize.first_round or 1}–{prize.last_round or 'end'}"
    return title


def money(cents: Fraction | int) -> str:
    """An amount in cents (never negative) as currency units, rounded half up to
    the cent: a third of 100.00 is 33.33."""
    whole = int(Fraction(cents) + Fraction(1, 2))
    return f"{whole // 100}.{whole % 100:02d}"


def prize_lines(board: PrizeBoard) -> list[dict[str, Any]]:
    """A division's prizes as the prize page and the printed prize list show
    them: each prize's title and amount, and its winners with what they won it
    with and their share."""
    return [
        {
            "title": prize_title(line.prize),
            "amount": money(line.prize.amount),
            "winners": [
                {
                    "winner": winner,
                    "amount": money(winner.amount_cents),
                    "figure": award_figure(line.prize, winner),
                }
                for winner in line.winners
            ],
        }
        for line in board.lines
    ]


def prize_board_document(board: PrizeBoard) -> dict[str, Any]:
    """The prize page's data as the API writes it (``PrizeBoardOutput``)."""
    table = board.table
    return {
        "division": board.division,
        "after_round": board.after_round,
        "classes": [class_document(c) for c in table.classes] if table else [],
        "player_classes": board.classes,
        "prizes": [
            {
                "prize": prize_document(line.prize),
                "title": prize_title(line.prize),
                "winners": [
                    {
                        "player": w.player_id,
                        "number": w.number,
                        "name": w.name,
                        "amount": money(w.amount_cents),
                        "value": w.value,
                        "round": w.round,
                        "opponent": w.opponent,
                        "shared_with": w.shared_with,
                    }
                    for w in line.winners
                ],
            }
            for line in board.lines
        ],
    }


def prize_document(prize: Prize) -> dict[str, Any]:
    """A prize as the API writes it (the amount in currency units)."""
    return {
        "kind": prize.kind.value,
        "amount": f"{Decimal(prize.amount) / 100:.2f}",
        "place": prize.place,
        "rating_class": prize.rating_class,
        "ties": prize.ties.value,
        "tie_break": prize.tie_break.value,
        "exclusive": prize.exclusive,
        "label": prize.label,
        "first_round": prize.first_round,
        "last_round": prize.last_round,
    }


def class_document(rating_class: RatingClass) -> dict[str, Any]:
    return {
        "name": rating_class.name,
        "lowest": rating_class.lowest,
        "highest": rating_class.highest,
    }


def award_figure(prize: Prize, winner: PrizeWinner) -> str:
    """What a prize was won with, in words: "2nd overall", "14 points", "512",
    "+250 rating, round 3 v Ann Able"."""
    if prize.kind is PrizeKind.PLACE:
        return f"{ordinal(winner.value)} overall"
    if prize.kind is PrizeKind.MOST_WINS:
        wins = Fraction(winner.value, 2)
        return f"{wins if wins.denominator == 1 else float(wins)} wins"
    figure = (
        f"+{winner.value} rating"
        if prize.kind is PrizeKind.BEST_UPSET
        else str(winner.value)
    )
    if winner.round is not None:
        figure += f", round {winner.round} v {winner.opponent}"
    return figure
