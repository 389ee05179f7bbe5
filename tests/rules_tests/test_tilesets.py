"""The tile sets of the languages played, and GCG records in each (issue 20)."""

from __future__ import annotations

import pytest

from rules.errors import GcgError, UnknownTileSetError
from rules.gcg import read, write
from rules.tiles import ENGLISH
from rules.tilesets import (
    CATALAN,
    POLISH,
    SPANISH,
    TILE_SETS,
    tile_set,
    tile_set_for_letters,
    tile_set_for_lexicon,
)
from tests.rules_tests.support import GAMES

# Tiles in each set and the value of a few tiles (the national associations'
# published distributions, as Macondo's letter distributions carry them).
FACTS = {
    "english": (100, {"Q": 10, "Z": 10, "K": 5}),
    "polish": (100, {"Ź": 9, "Ń": 7, "Ż": 5, "Ł": 3}),
    "french": (102, {"K": 10, "W": 10, "Q": 8}),
    "spanish": (100, {"[CH]": 5, "[LL]": 8, "[RR]": 8, "Ñ": 8}),
    "german": (102, {"Ä": 6, "Ö": 8, "Ü": 6, "Y": 10}),
    "dutch": (102, {"Q": 10, "C": 5, "E": 1}),
    "catalan": (100, {"L·L": 10, "NY": 10, "QU": 8, "Ç": 10}),
}


@pytest.mark.parametrize("name", sorted(FACTS))
def test_each_set_has_its_published_counts_and_values(name):
    """Every set is valid data with its tile count, two blanks and its values."""
    tiles = tile_set(name)
    tiles.validate()
    total, values = FACTS[name]
    assert tiles.total == total
    assert tiles.tiles().count("?") == 2
    labels = {kind.label: kind.value for kind in tiles.kinds}
    for label, value in values.items():
        assert labels[label] == value


def test_multi_letter_tiles_read_and_write_as_macondo_writes_them():
    """Spanish [CH], Catalan L·L: one tile each, lower case for a blank."""
    word = SPANISH.read_tiles("[CH]e[rr]A")
    assert word is not None
    assert len(word) == 4
    assert SPANISH.write_tiles(word) == "[CH]e[rr]A"
    catalan = CATALAN.read_tiles("COL·LAny")
    assert catalan is not None
    assert len(catalan) == 5
    assert CATALAN.write_tiles(catalan) == "COL·LAny"
    assert CATALAN.read_tiles("L·") is None
    assert ENGLISH.read_tiles("Ñ") is None


def test_a_record_names_its_set_by_name_or_by_lexicon():
    """Names are looked up in any case; lexicons by their family's prefix."""
    assert tile_set("Polish") is TILE_SETS["polish"]
    with pytest.raises(UnknownTileSetError):
        tile_set("klingon")
    assert tile_set_for_lexicon("OSPS49").name == "polish"
    assert tile_set_for_lexicon("FRA24").name == "french"
    assert tile_set_for_lexicon("FILE2017").name == "spanish"
    assert tile_set_for_lexicon("DISC2").name == "catalan"
    assert tile_set_for_lexicon("NWL23").name == "english"
    assert tile_set_for_lexicon("MYLIST") is None
    assert tile_set_for_letters("ĆĘIKPST").name == "polish"
    assert tile_set_for_letters("AEINRST") is None


# One opening play in each set, scored by hand: 8D doubles its first letter and the
# centre doubles the word; 8E doubles the word only.
OPENINGS = {
    "english": ("", "DINNVWY", "8D WINDY", 32),  # (2*4+1+1+2+4)*2
    "polish": ("#lexicon OSPS49\n", "ŻÓŁTAEI", "8D ŻÓŁTA", 42),  # (10+5+3+2+1)*2
    "french": ("#lexicon FRA24\n", "KIWISAE", "8D KIWIS", 66),  # (20+1+10+1+1)*2
    "spanish": ("#lexicon FILE2017\n", "[CH]ICOAER", "8E [CH]ICO", 20),  # (5+1+3+1)*2
    "german": ("#tile-distribution german\n", "ÄRGERST", "8D ÄRGER", 34),
    "dutch": ("#letterdist dutch\n", "ZIJNAEO", "8E ZIJN", 20),  # (4+1+4+1)*2
    "catalan": ("#lexicon DISC2\n", "COL·LAE?", "8E COl·lA", 8),  # (2+1+0+1)*2
}


@pytest.mark.parametrize("name", sorted(OPENINGS))
def test_a_game_in_each_tile_set(name):
    """A record in each set reads with its values, writes back naming its set, and
    reads back to the same game."""
    pragma, rack, play, score = OPENINGS[name]
    text = (
        "#character-encoding UTF-8\n#player1 ann Ann\n#player2 bob Bob\n"
        f"{pragma}>ann: {rack} {play} +{score} {score}\n"
    )
    record = read(text.encode("utf-8"))
    assert record.state.tile_set.name == name
    assert record.discrepancies == []
    assert record.warnings == []
    assert record.state.scores == (score, 0)
    written = write(record.events, record.metadata)
    assert f">ann: {rack} {play} +{score} {score}\n" in written
    if name != "english":
        assert f"#tile-distribution {name}\n" in written
    again = read(written.encode("utf-8"))
    assert again.events == record.events
    assert write(again.events, again.metadata) == written


def test_catalan_writes_its_multi_letter_tiles_as_macondo_does():
    """Macondo declares each tile of several letters with #tile."""
    _, rack, play, score = OPENINGS["catalan"]
    record = read(
        "#player1 ann Ann\n#player2 bob Bob\n#lexicon DISC2\n"
        f">ann: {rack} {play} +{score} {score}\n"
    )
    written = write(record.events, record.metadata)
    assert "#tile L·L l·l\n#tile NY ny\n#tile QU qu\n" in written


def test_a_polish_record_without_a_lexicon_reads_with_a_warning():
    """With no pragma naming the set, letters only Polish has choose it."""
    text = (
        "#character-encoding UTF-8\n#player1 a A\n#player2 b B\n"
        ">a: ĆĘIKPST 8G STĘPIĆ +46 46\n"
    )
    record = read(text.encode("utf-8"))
    assert record.state.tile_set.name == "polish"
    assert [(w.line, w.code) for w in record.warnings] == [(4, "tile_set_guessed")]
    assert record.discrepancies == []


def test_letters_not_of_the_set_and_unknown_sets_are_refused_with_their_line():
    """A tile the named set does not have, or a set that does not exist."""
    with pytest.raises(GcgError) as error:
        read("#player1 a A\n#player2 b B\n#lexicon NWL23\n>a: ÑAEIRST 8D ÑAME +9 9\n")
    assert [problem[:2] for problem in error.value.problems] == [
        (4, "bad_rack"),
        (4, "bad_word"),
    ]
    with pytest.raises(GcgError) as error:
        read("#player1 a A\n#player2 b B\n#tile-distribution klingon\n")
    assert error.value.problems[0][:2] == (3, "unknown_tile_set")


def test_a_record_naming_no_set_reads_with_the_set_expected():
    """A division's game: plain letters are read as the division's tiles (DOM is
    Polish too), with no guess and no warning."""
    text = "#player1 a A\n#player2 b B\n>a: DMOAEIK 8G DOM +10 10\n"
    record = read(text, tile_set=POLISH)
    assert record.state.tile_set is POLISH
    assert record.warnings == []
    # DOM on the centre is (2 + 1 + 2) x 2 in Polish; read as English, (2 + 1 +
    # 3) x 2 = 12 and the recorded 10 would be a discrepancy.
    assert record.discrepancies == []
    assert [d.computed for d in read(text).discrepancies] == [12]


def test_a_record_of_another_set_than_expected_is_refused_at_its_line():
    for pragma, line in (("#lexicon CSW24", 3), ("#tile-distribution english", 3)):
        text = f"#player1 a A\n#player2 b B\n{pragma}\n>a: DMOAEIK 8G DOM +10 10\n"
        with pytest.raises(GcgError) as error:
            read(text, tile_set=POLISH)
        assert error.value.problems[0][:2] == (line, "tile_set_mismatch")
        assert (
            "names the english tile set, but this game is played with the polish"
            in (error.value.problems[0][2])
        )


def test_english_records_are_unchanged():
    """The real English games write no tile-set pragma."""
    record = read((GAMES / "josh2.gcg").read_bytes())
    assert "#tile" not in write(record.events, record.metadata)
