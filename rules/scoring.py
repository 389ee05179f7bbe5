"""Scoring a placement (RULES.md, "Scoring a placement").

Every word the play forms scores: the main word along its line and a cross word for
each new tile that touches tiles across the line. Letter premiums apply first, then
every word premium under the word's new tiles multiplies it; premiums count only
under tiles placed this turn; a blank is worth 0; a shared tile counts in each of
its words; placing a full rack adds the bingo bonus after the multipliers.

Usage::

    >>> from rules.board import Board, Position
    >>> from rules.moves import locate
    >>> from rules.tiles import ENGLISH, tile_values
    >>> position = Position.from_gcg("8D")
    >>> located = locate(Board().squares, position, "WINDY", ENGLISH.letters)
    >>> after = Board().place(located.new_tiles).squares
    >>> score_play(after, located, tile_values(ENGLISH)).total
    32
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.board import (
    EMPTY,
    LETTER_MULTIPLIERS,
    SIZE,
    WORD_MULTIPLIERS,
    Direction,
    gcg_coordinate,
)
from rules.moves import LocatedPlay


@dataclass(frozen=True, slots=True)
class WordScore:
    """One word formed by a play and how it scored.

    ``letter_scores`` are each tile's points after its letter premium (0 for a
    blank), ``word_multiplier`` the product of the word premiums under new tiles.
    """

    word: str
    position: str
    score: int
    letter_scores: tuple[int, ...]
    word_multiplier: int

    def breakdown(self) -> str:
        """Explain the score as a director would check it (``(4+1+1+2+4)×2 = 24``)."""
        letters = "+".join(str(points) for points in self.letter_scores)
        if self.word_multiplier == 1:
            return f"{letters} = {self.score}"
        return f"({letters})×{self.word_multiplier} = {self.score}"


@dataclass(frozen=True, slots=True)
class PlayScore:
    """The score of a placement: its words (main word first), whether it was a
    bingo, and the total (bingo bonus included)."""

    words: tuple[WordScore, ...]
    bingo: bool
    total: int


def score_play(
    after: str,
    located: LocatedPlay,
    values: dict[str, int],
    *,
    bingo_bonus: int = 50,
    rack_size: int = 7,
) -> PlayScore:
    """Score a located play on ``after``, the board with the play's tiles on it.

    ``values`` maps each tile as it shows on the board to its value (a lower-case
    blank to 0), as :func:`rules.tiles.tile_values` builds it.
    """
    new = {index for index, _ in located.new_tiles}
    step = located.step
    main_direction = Direction.ACROSS if step == 1 else Direction.DOWN
    words = []
    total = 0
    if located.length >= 2:
        word = _score_run(
            after, located.start, step, located.length, new, values, main_direction
        )
        words.append(word)
        total += word.score
    cross_step = SIZE if step == 1 else 1
    cross_direction = main_direction.other
    for index, _ in located.new_tiles:
        first = index
        last = index
        if cross_step == 1:
            row_start = index - index % SIZE
            row_end = row_start + SIZE - 1
            while first > row_start and after[first - 1] != EMPTY:
                first -= 1
            while last < row_end and after[last + 1] != EMPTY:
                last += 1
        else:
            while first >= SIZE and after[first - SIZE] != EMPTY:
                first -= SIZE
            while last < SIZE * (SIZE - 1) and after[last + SIZE] != EMPTY:
                last += SIZE
        if first != last:
            word = _score_run(
                after,
                first,
                cross_step,
                (last - first) // cross_step + 1,
                new,
                values,
                cross_direction,
            )
            words.append(word)
            total += word.score
    bingo = len(located.new_tiles) == rack_size
    if bingo:
        total += bingo_bonus
    return PlayScore(tuple(words), bingo, total)


def _score_run(
    after: str,
    start: int,
    step: int,
    length: int,
    new: set[int],
    values: dict[str, int],
    direction: Direction,
) -> WordScore:
    letters = []
    word_multiplier = 1
    letter_sum = 0
    index = start
    for _ in range(length):
        points = values[after[index]]
        if index in new:
            points *= LETTER_MULTIPLIERS[index]
            word_multiplier *= WORD_MULTIPLIERS[index]
        letters.append(points)
        letter_sum += points
        index += step
    end = start + (length - 1) * step + 1
    return WordScore(
        after[start:end:step],
        gcg_coordinate(start, direction),
        letter_sum * word_multiplier,
        tuple(letters),
        word_multiplier,
    )


def score_limit(values: dict[str, int], rack_size: int, bingo_bonus: int) -> int:
    """An upper bound on the points any one line of a game can move a score by.

    No play scores more than a main word of the board's width, every tile the most
    valuable one under a triple letter, tripled by each of the three triple words
    its row can cross, plus a cross word of that width for each tile of the rack
    under its own premiums, plus the bingo bonus; no challenge bonus, rack
    adjustment or time penalty of a real game comes near it. A recorded score past
    it cannot be right (issue 21: a score of 2**31 must not reach storage).
    """
    letter = max(values.values(), default=0) * max(LETTER_MULTIPLIERS)
    word = SIZE * letter
    triple_words = max(WORD_MULTIPLIERS) ** 3
    return word * triple_words + rack_size * word * max(WORD_MULTIPLIERS) + bingo_bonus
