"""Game figures: high game, high loss, high combined score, biggest upset, low win.

Computed once here for the prizes (``rules.prizes``) and the reports
(``tournaments.reports``), so that a prize and a report never disagree on who had
the biggest upset. Both read played games with a result one side at a time (a bye,
a forfeit or a credit is no game): ``figure`` returns a side's figure, or None when
the side does not count for it (a high loss needs a loss, an upset a win over a
higher-rated opponent, both rated). How the candidates are ranked and cut is the
reader's: a prize's tie-break, a report's top ten.

Usage::

    for value, side in candidates(Figure.BIGGEST_UPSET, sides):
        print(side.rating, side.opponent_rating, value)
    figure(Figure.HIGH_LOSS, PlayedSide(score=400, opponent_score=410,
                                        outcome="loss", rating=1500,
                                        opponent_rating=1600))   # 400
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypeVar

from rules.tournament.enums import Outcome

__all__ = ["Figure", "PlayedSide", "Side", "candidates", "figure", "upset"]


class Figure(StrEnum):
    """A figure of the games (the value is the report's key)."""

    HIGH_GAME = "high_game"  # a score
    HIGH_LOSS = "high_loss"  # a score in a lost game
    HIGH_COMBINED = "high_combined"  # both players' scores added up
    BIGGEST_UPSET = "biggest_upset"  # a win's rating gap to a higher-rated opponent
    LOW_WIN = "low_win"  # a score that won

    @property
    def lowest_first(self) -> bool:
        """True when the lowest figure is the best (the lowest winning score)."""
        return self is Figure.LOW_WIN


class Side(Protocol):
    """One player's side of a played game with a result, as ``figure`` reads it.

    ``outcome`` is the player's ("win", "draw", "loss": ``Outcome``); ratings are
    the players' pre-event ratings, 0 (or None) for an unrated player.
    """

    @property
    def score(self) -> int: ...

    @property
    def opponent_score(self) -> int: ...

    @property
    def outcome(self) -> str: ...

    @property
    def rating(self) -> int | None: ...

    @property
    def opponent_rating(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class PlayedSide:
    """A ``Side`` as a value (what the prizes build from a player's entry)."""

    score: int
    opponent_score: int
    outcome: str
    rating: int | None
    opponent_rating: int | None


def upset(rating: int | None, opponent_rating: int | None) -> int | None:
    """Return how much higher-rated the beaten opponent was, or None when the win
    is no upset (the opponent was not rated higher, or either player is unrated).
    """
    # An upset needs both ratings: an unrated player (rating 0 or None) neither
    # makes nor suffers an upset. This follows tsh, whose upset reports skip
    # unrated players, and NASPA's practice of no rating gap without a rating.
    if not rating or not opponent_rating:
        return None
    gap = opponent_rating - rating
    return gap if gap > 0 else None


def figure(kind: Figure, side: Side) -> int | None:
    """Return the side's figure of ``kind``, or None when the side does not count
    for it."""
    if kind is Figure.HIGH_GAME:
        return side.score
    if kind is Figure.HIGH_LOSS:
        return side.score if side.outcome == Outcome.LOSS else None
    if kind is Figure.HIGH_COMBINED:
        return side.score + side.opponent_score
    if kind is Figure.LOW_WIN:
        return side.score if side.outcome == Outcome.WIN else None
    if side.outcome != Outcome.WIN:
        return None
    return upset(side.rating, side.opponent_rating)


_S = TypeVar("_S", bound=Side)


def candidates(kind: Figure, sides: Iterable[_S]) -> list[tuple[int, _S]]:
    """Return the sides that count for ``kind`` with their figure, in the order
    given."""
    found = []
    for side in sides:
        value = figure(kind, side)
        if value is not None:
            found.append((value, side))
    return found
