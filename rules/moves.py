"""Placements: parsing and formatting them, and where their tiles go on a board.

Parsing a play (:meth:`Placement.from_gcg`), checking where it lands
(:func:`locate`) and applying it to a game (``rules.state``) are separate steps, as
in python-chess. :func:`locate` checks the geometry of RULES.md, "A turn": one line,
no gaps, the whole word recorded, the first play covering H8 with at least two
tiles, every later play touching a tile already on the board. It says nothing about
racks or words.

Usage::

    >>> play = Placement.from_gcg("8d", "WINDY")
    >>> play.gcg()
    '8D WINDY'
    >>> letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    >>> located = locate(Board().squares, play.position, play.word, letters)
    >>> [square_name(index) for index, _ in located.new_tiles]
    ['D8', 'E8', 'F8', 'G8', 'H8']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.board import (
    CENTER,
    EMPTY,
    EMPTY_SQUARES,
    SIZE,
    Board,
    Direction,
    Position,
    gcg_coordinate,
    parse_square,
    span_name,
    square_name,
)
from rules.errors import (
    BoardMismatchError,
    FirstPlayCenterError,
    FirstPlayTooShortError,
    GapError,
    IncompleteWordError,
    InvalidEventError,
    NotConnectedError,
    NoTilesError,
    NotInLineError,
    OccupiedSquareError,
    OffBoardError,
)

PLAYED_THROUGH = "."


@dataclass(frozen=True, slots=True)
class Placement:
    """A play as GCG writes it: a position and the whole main word (``.`` for a tile
    already on the board, lower case for a blank)."""

    position: Position
    word: str

    @classmethod
    def from_gcg(cls, position: str, word: str) -> Placement:
        """Parse a GCG position and word.

        Raises :class:`InvalidPositionError` for a bad coordinate and
        :class:`InvalidEventError` for a word with characters that are neither
        letters nor ``.``.
        """
        parsed = Position.from_gcg(position)
        if not word or not all(ch == PLAYED_THROUGH or ch.isalpha() for ch in word):
            raise InvalidEventError(
                f"{word!r} is not a word: use letters, lower case for a blank, and "
                "'.' for a tile already on the board"
            )
        return cls(parsed, word)

    def gcg(self) -> str:
        """Format as GCG writes it (``8D WINDY``)."""
        return f"{self.position.gcg()} {self.word}"

    def __str__(self) -> str:
        return self.gcg()


@dataclass(frozen=True, slots=True)
class LocatedPlay:
    """Where a play's tiles land: the main line and the new tiles on it.

    ``start`` is the index of the main word's first square, ``step`` 1 (across) or
    15 (down), ``length`` the main word's length; ``new_tiles`` are the squares
    covered this turn with the tile as it shows on the board (lower case: a blank).
    """

    start: int
    step: int
    length: int
    new_tiles: tuple[tuple[int, str], ...]

    @property
    def direction(self) -> Direction:
        """The direction of the main word."""
        return Direction.ACROSS if self.step == 1 else Direction.DOWN

    @property
    def tiles(self) -> str:
        """The rack tiles the play uses (``?`` for each blank)."""
        return "".join("?" if tile.islower() else tile for _, tile in self.new_tiles)


def locate(squares: str, position: Position, word: str, letters: str) -> LocatedPlay:
    """Find where a play's tiles go and check its geometry against the board.

    ``squares`` is the board before the play, ``letters`` the letters of the tile set
    (a new tile must be one of them, a blank must be declared as one).

    Raises :class:`OffBoardError`, :class:`GapError` (a ``.`` on an empty square),
    :class:`BoardMismatchError` (a played-through letter that differs from the
    board), :class:`IncompleteWordError`, :class:`NoTilesError`,
    :class:`FirstPlayCenterError`, :class:`FirstPlayTooShortError`,
    :class:`NotConnectedError` or :class:`InvalidEventError` (an unknown letter).
    """
    across = position.direction is Direction.ACROSS
    step = 1 if across else SIZE
    start = position.row * SIZE + position.column
    length = len(word)
    if length == 0:
        raise NoTilesError(f"The play at {position.gcg()} places no tile")
    along = position.column if across else position.row
    if along + length > SIZE:
        last_on_board = (
            (position.row * SIZE + SIZE - 1)
            if across
            else ((SIZE - 1) * SIZE + position.column)
        )
        raise OffBoardError(
            f"{word} at {position.gcg()} runs off the board past "
            f"{gcg_coordinate(last_on_board, position.direction)}"
        )
    new_tiles, through = _new_tiles(squares, position, word, letters, start, step)
    end = start + (length - 1) * step
    before_open = along == 0 or squares[start - step] == EMPTY
    after_open = along + length == SIZE or squares[end + step] == EMPTY
    if not (before_open and after_open):
        raise IncompleteWordError(
            f"{word} at {position.gcg()} is not the whole word: a tile touches "
            f"{'its start' if not before_open else 'its end'}; record the whole word"
        )
    _check_connected(squares, position, word, new_tiles, through, start, end)
    return LocatedPlay(start, step, length, tuple(new_tiles))


def _new_tiles(
    squares: str, position: Position, word: str, letters: str, start: int, step: int
) -> tuple[list[tuple[int, str]], bool]:
    """Return the squares and letters of the tiles the play places, and whether it
    plays through a tile on the board; check each letter against the board."""
    new_tiles = []
    through = False
    index = start
    for ch in word:
        on_board = squares[index]
        if ch == PLAYED_THROUGH:
            if on_board == EMPTY:
                raise GapError(
                    f"{gcg_coordinate(index, position.direction)} is empty: '.' in "
                    f"{word} stands for a tile already on the board"
                )
            through = True
        elif on_board != EMPTY:
            if on_board.upper() != ch.upper():
                raise BoardMismatchError(
                    f"{word} at {position.gcg()} names {ch.upper()} at "
                    f"{square_name(index)}, but the board has {on_board.upper()} there"
                )
            through = True
        else:
            if ch.upper() not in letters or not ch.isalpha():
                raise InvalidEventError(
                    f"{ch!r} in {word} is not a letter of the tile set"
                )
            new_tiles.append((index, ch))
        index += step
    if not new_tiles:
        raise NoTilesError(
            f"{word} at {position.gcg()} places no tile: every square is already "
            "covered"
        )
    return new_tiles, through


def _check_connected(
    squares: str,
    position: Position,
    word: str,
    new_tiles: list[tuple[int, str]],
    through: bool,
    start: int,
    end: int,
) -> None:
    """Check that the first play covers the centre with two tiles or more, and that
    any later play connects to the tiles on the board."""
    span = span_name(new_tiles[0][0], new_tiles[-1][0], position.direction)
    if squares == EMPTY_SQUARES:
        across = position.direction is Direction.ACROSS
        # RULES.md: the first play has at least two tiles and covers H8.
        if len(new_tiles) < 2:
            raise FirstPlayTooShortError(
                f"The first play ({word} at {position.gcg()}) must place at least "
                "two tiles"
            )
        if (
            not start <= CENTER <= end
            or (across and position.row != CENTER // SIZE)
            or (not across and position.column != CENTER % SIZE)
        ):
            raise FirstPlayCenterError(
                f"The first play must cover the centre square H8; tiles at {span} "
                "do not"
            )
    elif not through and not _touches(squares, new_tiles):
        raise NotConnectedError(
            f"Tiles at {span} do not connect to any tile on the board"
        )


def _touches(squares: str, new_tiles: list[tuple[int, str]]) -> bool:
    for index, _ in new_tiles:
        column = index % SIZE
        if column > 0 and squares[index - 1] != EMPTY:
            return True
        if column < SIZE - 1 and squares[index + 1] != EMPTY:
            return True
        if index >= SIZE and squares[index - SIZE] != EMPTY:
            return True
        if index < SIZE * (SIZE - 1) and squares[index + SIZE] != EMPTY:
            return True
    return False


def placement_from_tiles(board: Board, tiles: Iterable[tuple[str, str]]) -> Placement:
    """Build the placement that puts tiles on named squares (``("H8", "C")``…).

    Use it where a play is entered tile by tile. A letter in lower case is a blank.
    The placement's word is the whole main word, ``.`` for the tiles it runs through.
    A single tile reads in the direction that forms the longer word (across on a
    tie).

    Raises :class:`NoTilesError`, :class:`OccupiedSquareError`,
    :class:`NotInLineError` (the tiles are not in one row or column) or
    :class:`GapError` (an empty square between them).
    """
    placed: dict[int, str] = {}
    for name, letter in tiles:
        index = parse_square(name)
        if board[index] != EMPTY:
            raise OccupiedSquareError(f"{square_name(index)} already holds a tile")
        if index in placed:
            raise OccupiedSquareError(f"Two tiles are placed on {square_name(index)}")
        placed[index] = letter
    if not placed:
        raise NoTilesError("The play places no tile")
    rows = {index // SIZE for index in placed}
    columns = {index % SIZE for index in placed}
    if len(placed) == 1:
        (index,) = placed
        direction = (
            Direction.ACROSS
            if _run_length(board, index, 1) >= _run_length(board, index, SIZE)
            else Direction.DOWN
        )
    elif len(rows) == 1:
        direction = Direction.ACROSS
    elif len(columns) == 1:
        direction = Direction.DOWN
    else:
        names = ", ".join(square_name(index) for index in sorted(placed))
        raise NotInLineError(f"Tiles at {names} are not in one row or one column")
    step = direction.step
    first, last = min(placed), max(placed)
    for index in range(first, last + 1, step):
        if index not in placed and board[index] == EMPTY:
            raise GapError(
                f"{square_name(index)} is empty: the tiles at "
                f"{span_name(first, last, direction)} leave a gap"
            )
    start = _extend(board, first, -step)
    end = _extend(board, last, step)
    word = "".join(
        placed.get(index, PLAYED_THROUGH) for index in range(start, end + 1, step)
    )
    row, column = divmod(start, SIZE)
    return Placement(Position(row, column, direction), word)


def _run_length(board: Board, index: int, step: int) -> int:
    return (_extend(board, index, step) - _extend(board, index, -step)) // step + 1


def _extend(board: Board, index: int, step: int) -> int:
    """Walk from ``index`` over occupied squares in one direction; return the last."""
    while True:
        following = index + step
        if not 0 <= following < SIZE * SIZE:
            return index
        if abs(step) == 1 and following // SIZE != index // SIZE:
            return index
        if board[following] == EMPTY:
            return index
        index = following
