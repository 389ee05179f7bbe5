"""What the pages and printouts show of prizes: titles, amounts, winners."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from rules.division_rules import Prize, PrizeKind, RatingClass
from tournaments.prizes.selectors import PrizeBoard, PrizeWinner

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
