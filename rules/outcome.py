"""Who won a finished game (RULES.md, "Winner").

The highest final score wins. On a tie, the higher score before the end-of-game rack
adjustments wins (seed 001, rule 11: the system's default); if those are equal too,
the game is a draw. With ``ties_are_draws`` (NASPA/WESPA events) every tie on final
score is a draw.

Usage::

    >>> decide((400, 400), (390, 395)).winner
    1
    >>> decide((400, 400), (390, 395), ties_are_draws=True).winner is None
    True
    >>> record_points(wins=4, draws=1), points_of("draw")
    (4.5, 0.5)

The points of a result are said here once, for every reader (standings, records,
.TOU files, prizes, the pages): a win is 1, a draw ½, a loss 0 (RULES.md,
"Tournament results and standings").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# A game's points (RULES.md: "a win (1), a draw (½) or a loss (0)").
WIN_POINTS = 1.0
DRAW_POINTS = 0.5
LOSS_POINTS = 0.0
# By result, as events, entries and files name it (``rules.tournament.Outcome``).
_POINTS = {"win": WIN_POINTS, "draw": DRAW_POINTS, "loss": LOSS_POINTS}


def points_of(result: str) -> float:
    """Return the points of a result: ``"win"`` 1, ``"draw"`` ½, ``"loss"`` 0.

    Raises KeyError for anything else.
    """
    return _POINTS[result]


def record_points(wins: int, draws: int) -> float:
    """Return a record's points: a win each, half a point a draw."""
    return wins * WIN_POINTS + draws * DRAW_POINTS


def half_points(wins: int, draws: int) -> int:
    """Return a record's points counted in halves (exact: standings and score
    groups sort and compare by it)."""
    return round(record_points(wins, draws) / DRAW_POINTS)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a game: the winner (None for a draw) and whether the tie-break
    on pre-adjustment scores decided it."""

    winner: int | None
    decided_by_tiebreak: bool
    # The players sharing a draw (empty when there is a winner).
    drawn: tuple[int, ...] = ()

    def points(self, player: int) -> float:
        """The game's points for a player: 1 for a win, ½ for a draw, 0 for a loss."""
        if self.winner == player:
            return WIN_POINTS
        if player in self.drawn:
            return DRAW_POINTS
        return LOSS_POINTS


def decide(
    final_scores: Sequence[int],
    scores_before_adjustments: Sequence[int],
    *,
    ties_are_draws: bool = False,
    loser: int | None = None,
) -> Outcome:
    """Decide the winner from the final scores.

    ``loser`` is a player who lost whatever the scores (resigned, forfeited, ran out
    of time); the others are ranked among themselves.
    """
    candidates = [index for index in range(len(final_scores)) if index != loser]
    if not candidates:
        return Outcome(None, False)
    top = max(final_scores[index] for index in candidates)
    tied = [index for index in candidates if final_scores[index] == top]
    if len(tied) == 1:
        return Outcome(tied[0], False)
    if ties_are_draws:
        return Outcome(None, False, tuple(tied))
    best = max(scores_before_adjustments[index] for index in tied)
    ahead = [index for index in tied if scores_before_adjustments[index] == best]
    if len(ahead) == 1:
        return Outcome(ahead[0], True)
    return Outcome(None, False, tuple(ahead))
