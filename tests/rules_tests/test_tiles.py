"""Tile sets as data, and multiset arithmetic on tiles."""

from __future__ import annotations

import pytest

from rules.errors import InvalidTileSetError
from rules.tiles import (
    ENGLISH,
    TileKind,
    TileSet,
    as_tiles,
    difference,
    rack_value,
    remove_tiles,
    split_known,
    tile_values,
)

# RULES.md, "Equipment".
EXPECTED = {
    "A": (9, 1), "B": (2, 3), "C": (2, 3), "D": (4, 2), "E": (12, 1), "F": (2, 4),
    "G": (3, 2), "H": (2, 4), "I": (9, 1), "J": (1, 8), "K": (1, 5), "L": (4, 1),
    "M": (2, 3), "N": (6, 1), "O": (8, 1), "P": (2, 3), "Q": (1, 10), "R": (6, 1),
    "S": (4, 1), "T": (6, 1), "U": (4, 1), "V": (2, 4), "W": (2, 4), "X": (1, 8),
    "Y": (2, 4), "Z": (1, 10), "?": (2, 0),
}  # fmt: skip


def test_english_set_matches_the_rules():
    """The English set has every letter's count and value from RULES.md, 100 tiles."""
    assert {kind.letter: (kind.count, kind.value) for kind in ENGLISH.kinds} == EXPECTED
    assert ENGLISH.total == 100
    assert len(ENGLISH.tiles()) == 100
    assert ENGLISH.tiles() == "".join(sorted(ENGLISH.tiles()))


def test_values_give_blanks_zero_under_any_letter():
    """A blank is worth 0 on the rack (?) and as its declared lower-case letter."""
    values = tile_values(ENGLISH)
    assert values["Q"] == 10
    assert values["?"] == 0
    assert values["q"] == 0
    assert ENGLISH.value("Z") == 10


def test_other_languages_are_data():
    """A new tile set is data: its letters, counts and values drive the engine."""
    tiny = TileSet(
        "tiny", (TileKind("Ñ", 2, 8), TileKind("A", 3, 1), TileKind("?", 1, 0))
    )
    tiny.validate()
    assert tiny.total == 6
    assert tile_values(tiny)["ñ"] == 0
    assert tile_values(tiny)["Ñ"] == 8


@pytest.mark.parametrize(
    "kinds",
    [
        (TileKind("A", 1, 1), TileKind("A", 1, 1)),
        (TileKind("a", 1, 1),),
        (TileKind("AB", 1, 1),),
        (TileKind("1", 1, 1),),
        (TileKind("A", -1, 1),),
        (TileKind("A", 1, -1),),
    ],
)
def test_unusable_tile_sets_are_refused(kinds):
    """Duplicate, lower-case, multi-character, digit or negative tiles are refused."""
    with pytest.raises(InvalidTileSetError):
        TileSet("bad", kinds).validate()


def test_multiset_arithmetic():
    """Racks are multisets: removing, splitting and differences respect counts."""
    assert remove_tiles("AEINRST", "TAN") == "EIRS"
    assert remove_tiles("AEINRST", "TT") is None
    assert split_known("AAB", "ABC") == ("A", "C")
    assert difference("AABC", "AB") == "AC"
    assert difference("AB", "ABBB") == ""
    assert as_tiles("CAt") == "CA?"
    assert rack_value("QZ?", tile_values(ENGLISH)) == 20
