"""The board: premium layout, squares and GCG coordinates."""

from __future__ import annotations

import pytest

from rules.board import (
    CENTER,
    LETTER_MULTIPLIERS,
    STANDARD_LAYOUT,
    WORD_MULTIPLIERS,
    Board,
    Direction,
    Position,
    board_squares,
    gcg_coordinate,
    parse_square,
    span_name,
    square_name,
)
from rules.errors import InvalidPositionError
from tests.rules_tests.support import board_from


def _premium(name: str) -> tuple[int, int]:
    index = parse_square(name)
    return LETTER_MULTIPLIERS[index], WORD_MULTIPLIERS[index]


def test_layout_counts_each_premium_as_the_standard_board():
    """The standard board has 8 TW, 17 DW (the centre included), 12 TL and 24 DL."""
    assert WORD_MULTIPLIERS.count(3) == 8
    assert WORD_MULTIPLIERS.count(2) == 17
    assert LETTER_MULTIPLIERS.count(3) == 12
    assert LETTER_MULTIPLIERS.count(2) == 24
    assert len(STANDARD_LAYOUT) == 15
    assert all(len(row) == 15 for row in STANDARD_LAYOUT)


@pytest.mark.parametrize(
    ("square", "letter", "word"),
    [
        ("H8", 1, 2),  # the centre is a double word
        ("A1", 1, 3),
        ("O15", 1, 3),
        ("H1", 1, 3),
        ("D1", 2, 1),
        ("F2", 3, 1),
        ("B2", 1, 2),
        ("G7", 2, 1),
        ("F6", 3, 1),
        ("E5", 1, 2),
        ("K11", 1, 2),
        ("H2", 1, 1),
    ],
)
def test_premium_squares_match_the_rules_diagram(square, letter, word):
    """Each premium sits where RULES.md's diagram puts it."""
    assert _premium(square) == (letter, word)


def test_layout_is_symmetric():
    """The layout reads the same mirrored and transposed, as the real board does."""
    rows = STANDARD_LAYOUT
    assert all(row == row[::-1] for row in rows)
    assert rows == tuple("".join(row[c] for row in rows) for c in range(15))


def test_square_names_are_column_then_row():
    """Squares are named column letter then row number; parsing is case-insensitive."""
    assert square_name(CENTER) == "H8"
    assert parse_square("h8") == CENTER
    assert parse_square("A1") == 0
    assert parse_square("O15") == 224


@pytest.mark.parametrize("name", ["", "P1", "A0", "A16", "8H", "HH"])
def test_bad_square_names_are_refused(name):
    """A name that is not a square raises InvalidPositionError."""
    with pytest.raises(InvalidPositionError):
        parse_square(name)


def test_gcg_positions_give_the_direction_by_their_order():
    """Row first is across (8D), column first is down (D8), any case."""
    across = Position.from_gcg("8d")
    down = Position.from_gcg("D8")
    assert (across.row, across.column, across.direction) == (7, 3, Direction.ACROSS)
    assert (down.row, down.column, down.direction) == (7, 3, Direction.DOWN)
    assert across.gcg() == "8D"
    assert down.gcg() == "D8"
    assert Position.from_gcg(" 15o ").gcg() == "15O"


@pytest.mark.parametrize("text", ["", "8", "H", "16A", "A16", "8P", "P8", "D8D"])
def test_bad_positions_are_refused(text):
    """Text that is not a GCG coordinate raises InvalidPositionError."""
    with pytest.raises(InvalidPositionError) as error:
        Position.from_gcg(text)
    assert error.value.code == "bad_position"


def test_every_position_round_trips():
    """Formatting then parsing any position gives it back."""
    for index in range(225):
        for direction in Direction:
            text = gcg_coordinate(index, direction)
            assert Position.from_gcg(text).index == index
            assert Position.from_gcg(text).direction is direction


def test_span_names_read_like_a_director_would():
    """Spans are written 8D-8H across and D8-D12 down."""
    assert (
        span_name(parse_square("D8"), parse_square("H8"), Direction.ACROSS) == "8D-8H"
    )
    assert (
        span_name(parse_square("D8"), parse_square("D12"), Direction.DOWN) == "D8-D12"
    )
    assert span_name(CENTER, CENTER, Direction.DOWN) == "H8"


def test_board_lists_its_tiles_for_rendering():
    """Occupied squares come out row by row with their letter and blank flag."""
    board = board_from(("8G", "CaT"))
    squares = board_squares(board)
    assert [(s.name, s.letter, s.is_blank) for s in squares] == [
        ("G8", "C", False),
        ("H8", "A", True),
        ("I8", "T", False),
    ]
    assert (squares[0].row, squares[0].column) == (7, 6)
    assert board.letter_at("h8") == "a"
    assert board.letter_at("A1") is None
    assert board.tile_count == 3
    assert not board.is_empty
    assert Board().is_empty


def test_board_is_an_immutable_value():
    """Placing returns a new board; equal tiles make equal, hashable boards."""
    empty = Board()
    placed = empty.place([(CENTER, "A")])
    assert empty.is_empty
    assert placed == Board().place([(CENTER, "A")])
    assert hash(placed) == hash(Board().place([(CENTER, "A")]))
    assert placed.remove([CENTER]) == empty
    with pytest.raises(ValueError, match="225"):
        Board("..")


def test_board_renders_as_a_grid():
    """str(board) shows column letters, row numbers and the tiles."""
    text = str(board_from(("8H", "AB")))
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    assert lines[8].split() == ["8", *".......", "A", "B", *"......"]
