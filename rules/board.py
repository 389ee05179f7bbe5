"""The board: squares, GCG coordinates, the premium layout and the tiles on it.

Squares are numbered 0–224, row by row from the top left (row 0 is row 1 of the
board, column 0 is column A). A square's name is column letter then row number
(``H8`` is the centre). A GCG position names a play's first square and its
direction at once: row first for across (``8D``), column first for down (``D8``),
case-insensitive.

The board itself is one immutable 225-character string: ``.`` for an empty square,
an upper-case letter for a tile, a lower-case letter for a blank declared as that
letter. It is compact, hashable and cheap to copy with a change.

Usage::

    >>> Position.from_gcg("8d")
    Position(row=7, column=3, direction=<Direction.ACROSS: 'across'>)
    >>> Position.from_gcg("D8").gcg()
    'D8'
    >>> square_name(CENTER)
    'H8'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum

from rules.errors import InvalidPositionError
from rules.numbers import is_whole_number, whole_number

SIZE = 15
SQUARES = SIZE * SIZE
CENTER = 7 * SIZE + 7
EMPTY = "."
COLUMNS = "ABCDEFGHIJKLMNO"

# RULES.md, "Equipment": T triple word, D double word, t triple letter, d double
# letter. Kept as the diagram itself so the layout can be checked by eye.
STANDARD_LAYOUT = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)

_LETTER = {"d": 2, "t": 3}
_WORD = {"D": 2, "T": 3}

LETTER_MULTIPLIERS: tuple[int, ...] = tuple(
    _LETTER.get(ch, 1) for row in STANDARD_LAYOUT for ch in row
)
WORD_MULTIPLIERS: tuple[int, ...] = tuple(
    _WORD.get(ch, 1) for row in STANDARD_LAYOUT for ch in row
)


class Direction(StrEnum):
    """The direction a play reads in."""

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> int:
        """The index distance between two consecutive squares in this direction."""
        return 1 if self is Direction.ACROSS else SIZE

    @property
    def other(self) -> Direction:
        """The perpendicular direction (that of cross words)."""
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


def square_name(index: int) -> str:
    """Name a square, column letter then row number (``H8``)."""
    row, column = divmod(index, SIZE)
    return f"{COLUMNS[column]}{row + 1}"


def parse_square(name: str) -> int:
    """Return the index of a square named like ``H8`` (case-insensitive).

    Raises :class:`InvalidPositionError` when the name is not a square of the board.
    """
    text = name.strip().upper()
    if (
        len(text) >= 2
        and text[0] in COLUMNS
        and is_whole_number(text[1:], max_digits=2)
    ):
        row = whole_number(text[1:])
        if 1 <= row <= SIZE:
            return (row - 1) * SIZE + COLUMNS.index(text[0])
    raise InvalidPositionError(f"{name!r} is not a square of the board (A1 to O15)")


def gcg_coordinate(index: int, direction: Direction) -> str:
    """The GCG coordinate of a square read in a direction (``8D`` or ``D8``)."""
    if direction is Direction.ACROSS:
        return _ACROSS_NAMES[index]
    return _DOWN_NAMES[index]


# Every word scored names its square: a table lookup instead of formatting.
_ACROSS_NAMES = tuple(
    f"{index // SIZE + 1}{COLUMNS[index % SIZE]}" for index in range(SQUARES)
)
_DOWN_NAMES = tuple(
    f"{COLUMNS[index % SIZE]}{index // SIZE + 1}" for index in range(SQUARES)
)


def span_name(first: int, last: int, direction: Direction) -> str:
    """Name the squares from ``first`` to ``last`` the way a director reads them
    (``8D-8H`` across, ``D8-D12`` down; one square alone is just its coordinate)."""
    if first == last:
        return gcg_coordinate(first, direction)
    return f"{gcg_coordinate(first, direction)}-{gcg_coordinate(last, direction)}"


@dataclass(frozen=True, slots=True)
class Position:
    """Where a play starts and which way it reads; rows and columns count from 0."""

    row: int
    column: int
    direction: Direction

    @classmethod
    def from_gcg(cls, text: str) -> Position:
        """Parse a GCG coordinate: ``8D`` is across from D8, ``D8`` is down from D8.

        Raises :class:`InvalidPositionError` when ``text`` is not one.
        """
        position = _POSITIONS.get(text.strip().upper())
        if position is None:
            raise InvalidPositionError(
                f"{text!r} is not a position: write the row first for across (8D) "
                "or the column first for down (D8)"
            )
        return position

    def gcg(self) -> str:
        """Format as a GCG coordinate (the inverse of :meth:`from_gcg`)."""
        return gcg_coordinate(self.index, self.direction)

    @property
    def index(self) -> int:
        """The index of the first square."""
        return self.row * SIZE + self.column

    def __str__(self) -> str:
        return self.gcg()


def _all_positions() -> dict[str, Position]:
    positions = {}
    for row in range(SIZE):
        for column in range(SIZE):
            for direction in Direction:
                position = Position(row, column, direction)
                positions[position.gcg()] = position
    return positions


_POSITIONS = _all_positions()


@dataclass(frozen=True, slots=True)
class Square:
    """An occupied square, for rendering: 0-based row and column, the letter shown
    (upper case) and whether the tile is a blank."""

    row: int
    column: int
    letter: str
    is_blank: bool

    @property
    def name(self) -> str:
        """The square's name (``H8``)."""
        return f"{COLUMNS[self.column]}{self.row + 1}"


EMPTY_SQUARES = EMPTY * SQUARES


@dataclass(frozen=True, slots=True)
class Board:
    """The tiles on the board, as one 225-character string (see the module notes)."""

    squares: str = EMPTY_SQUARES

    def __post_init__(self) -> None:
        if len(self.squares) != SQUARES:
            raise ValueError(f"A board has {SQUARES} squares, not {len(self.squares)}")

    def __getitem__(self, index: int) -> str:
        return self.squares[index]

    def letter_at(self, name: str) -> str | None:
        """The tile on a square named like ``H8`` (lower case for a blank), or None.

        Raises :class:`InvalidPositionError` when the name is not a square.
        """
        tile = self.squares[parse_square(name)]
        return None if tile == EMPTY else tile

    @property
    def is_empty(self) -> bool:
        """Whether no tile has been placed yet."""
        return self.squares == EMPTY_SQUARES

    @property
    def tile_count(self) -> int:
        """How many tiles are on the board."""
        return SQUARES - self.squares.count(EMPTY)

    def occupied(self) -> Iterator[Square]:
        """Every occupied square, row by row."""
        for index, tile in enumerate(self.squares):
            if tile != EMPTY:
                row, column = divmod(index, SIZE)
                yield Square(row, column, tile.upper(), tile.islower())

    def place(self, tiles: Iterable[tuple[int, str]]) -> Board:
        """Return a board with tiles put on the given squares (no rule is checked)."""
        squares = list(self.squares)
        for index, tile in tiles:
            squares[index] = tile
        return Board("".join(squares))

    def remove(self, indexes: Iterable[int]) -> Board:
        """Return a board with the given squares emptied (no rule is checked)."""
        squares = list(self.squares)
        for index in indexes:
            squares[index] = EMPTY
        return Board("".join(squares))

    def rows(self) -> tuple[str, ...]:
        """The board as 15 strings of 15 characters, top row first."""
        return tuple(self.squares[row * SIZE : (row + 1) * SIZE] for row in range(SIZE))

    def __str__(self) -> str:
        header = "    " + " ".join(COLUMNS)
        lines = [header]
        for number, row in enumerate(self.rows(), start=1):
            lines.append(f"{number:>2}  " + " ".join(row))
        return "\n".join(lines)


def board_squares(board: Board) -> list[Square]:
    """List the occupied squares of a board (row, column, letter, is_blank) for
    rendering."""
    return list(board.occupied())
