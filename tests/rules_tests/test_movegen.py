"""The move generator: exact play sets on hand-made positions, and properties checked
against independent brute force on random positions.

Plays are written ``"POS WORD"`` in GCG form (``8G ...S``: row 8 from column G,
across; ``H8 .S``: column H from row 8, down; ``.`` for a tile already on the board,
lowercase for a blank).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.movegen import (
    MoveGenError,
    Placement,
    WordGraph,
    generate,
    words_formed,
)

SIZE = 15
EMPTY_BOARD = ("." * SIZE,) * SIZE
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Tile = tuple[int, int, str]


def board_with(*words: tuple[str, str]) -> list[str]:
    """A board holding each ``(gcg position, word)``, e.g. ``("8G", "CAT")``."""
    grid = [["."] * SIZE for _ in range(SIZE)]
    for position, word in words:
        if position[0].isdigit():
            row, col, step = int(position[:-1]) - 1, ALPHABET.index(position[-1]), 1
            for i, letter in enumerate(word):
                grid[row][col + i * step] = letter
        else:
            col, row = ALPHABET.index(position[0]), int(position[1:]) - 1
            for i, letter in enumerate(word):
                grid[row + i][col] = letter
    return ["".join(line) for line in grid]


def notation(plays: Iterable[Placement]) -> list[str]:
    return [f"{play.gcg_position()} {play.gcg_word()}" for play in plays]


def graph(words: Iterable[str]) -> WordGraph:
    """The word graph of ``words``."""
    return WordGraph.from_words(words)


def play_set(board: Sequence[str], rack: str, words: Iterable[str]) -> set[str]:
    """The generated plays in notation; fails if any play appears twice."""
    found = notation(generate(board, rack, graph(words)))
    assert len(found) == len(set(found)), f"duplicates in {found}"
    return set(found)


def place(board: Sequence[str], tiles: Iterable[Tile]) -> list[str]:
    grid = [list(line) for line in board]
    for row, col, letter in tiles:
        grid[row][col] = letter
    return ["".join(line) for line in grid]


# The word graph


def test_graph_keeps_only_a_to_z_words_within_the_lengths_uppercased() -> None:
    """Words are uppercased; non-letters, non-ASCII, too short and too long are
    dropped; duplicates count once; iteration is alphabetical."""
    graph = WordGraph.from_words(
        ["cat", "CAT", "Cats", "a", "don't", "naïve", "x-ray", "ab", "abcdefghijklmnop"]
    )
    assert list(graph) == ["AB", "CAT", "CATS"]
    assert len(graph) == 3


def test_graph_membership_is_exact_and_case_insensitive() -> None:
    """Members are found in any case; prefixes, extensions and non-strings are not."""
    graph = WordGraph.from_words(["CAT", "CATS", "DOG"])
    assert "CAT" in graph
    assert "cats" in graph
    assert "CA" not in graph
    assert "CATSS" not in graph
    assert "" not in graph
    assert 3 not in graph


def test_graph_length_options() -> None:
    """``min_length``/``max_length`` filter; a minimum under 2 or a maximum below the
    minimum is refused."""
    graph = WordGraph.from_words(["AT", "CAT", "CATS"], min_length=3, max_length=3)
    assert list(graph) == ["CAT"]
    with pytest.raises(MoveGenError) as error:
        WordGraph.from_words(["A"], min_length=1)
    assert error.value.code == "bad_option"
    with pytest.raises(MoveGenError):
        WordGraph.from_words(["AT"], min_length=4, max_length=3)


def test_graph_is_minimised_and_holds_every_word() -> None:
    """Shared suffixes share nodes (a DAWG, not a trie), and no word is lost or
    invented by the minimisation."""
    words = [f"{first}{rest}" for first in "BCDFHMPRST" for rest in ("ATE", "ATES")]
    graph = WordGraph.from_words(words)
    assert sorted(graph) == sorted(words)
    # A trie needs 1 + 10 * 5 nodes; the DAWG shares everything after the first
    # letter: root, one node after any first letter, then A, T, E, S.
    assert graph.node_count == 6


# Placement notation


def test_placement_gcg_notation() -> None:
    """Across is row-then-column, down column-then-row; ``.`` marks board tiles and
    blanks stay lowercase."""
    across = Placement(7, 3, True, "CaTS", ((7, 3, "C"), (7, 6, "S")), ())
    down = Placement(3, 7, False, "AXe", ((3, 7, "A"), (5, 7, "e")), ("EX",))
    assert (across.gcg_position(), across.gcg_word()) == ("8D", "C..S")
    assert (down.gcg_position(), down.gcg_word()) == ("H4", "A.e")
    assert down.rack_tiles() == "A?"
    assert down.words() == ("AXE", "EX")


# Exact play sets


def test_empty_board_plays_cover_h8_both_ways() -> None:
    """On an empty board every word that fits the rack is placed across and down on
    every position that covers H8."""
    expected = {
        *(f"8{col} AT" for col in "GH"),
        *(f"8{col} TA" for col in "GH"),
        *(f"8{col} CAT" for col in "FGH"),
        *(f"8{col} ACT" for col in "FGH"),
        *(f"H{row} AT" for row in (7, 8)),
        *(f"H{row} TA" for row in (7, 8)),
        *(f"H{row} CAT" for row in (6, 7, 8)),
        *(f"H{row} ACT" for row in (6, 7, 8)),
    }
    assert play_set(EMPTY_BOARD, "ACT", ["AT", "TA", "CAT", "ACT", "TACT"]) == expected


def test_empty_board_needs_two_tiles() -> None:
    """One tile cannot open the game, even with two-letter words about."""
    assert play_set(EMPTY_BOARD, "A", ["AA", "AT"]) == set()


def test_empty_board_with_a_blank() -> None:
    """A blank stands for whichever letter a word needs, shown lowercase."""
    expected = {
        f"{pos} {word}" for pos in ("8G", "8H", "H7", "H8") for word in ("At", "zA")
    }
    assert play_set(EMPTY_BOARD, "A?", ["AT", "ZA"]) == expected


CAT_BOARD = board_with(("8G", "CAT"))
CAT_WORDS = ["CAT", "CATS", "SCAT", "AS", "AT", "TA"]


def test_small_position_exact_plays() -> None:
    """An S on CAT: both hooks and the one two-letter word it makes down."""
    assert play_set(CAT_BOARD, "S", CAT_WORDS) == {"8G ...S", "8F S...", "H8 .S"}


def test_blank_on_a_small_position() -> None:
    """A blank alone finds every hook and every two-letter word against CAT."""
    assert play_set(CAT_BOARD, "?", CAT_WORDS) == {
        "8G ...s",
        "8F s...",
        "H8 .s",
        "H8 .t",
        "H7 t.",
        "I8 .a",
        "I7 a.",
    }


def test_blank_on_the_board_keeps_its_case_in_the_word() -> None:
    """A blank already on the board spells its letter and is lowercase in ``word``;
    cross words are uppercase."""
    board = board_with(("8G", "CaT"))
    plays = {play.gcg_word(): play for play in generate(board, "S", graph(CAT_WORDS))}
    assert set(plays) == {"...S", "S...", ".S"}
    assert plays["...S"].word == "CaTS"
    assert plays[".S"].word == "aS"
    hooked = generate(board_with(("8G", "Ca"), ("H9", "T")), "S", graph(["AT", "CAS"]))
    assert [(play.word, play.cross_words) for play in hooked] == [("CaS", ())]


def test_hooks_front_back_and_both() -> None:
    """Tiles added before, after, and on both sides of a word on the board."""
    board = board_with(("8H", "AT"))
    words = ["AT", "HAT", "ATE", "HATE"]
    assert play_set(board, "HE", words) == {"8G H..", "8H ..E", "8G H..E"}


PARALLEL_BOARD = board_with(("8H", "AT"))
PARALLEL_WORDS = ["AT", "AN", "TO", "NO", "ON", "TON"]


def test_parallel_plays() -> None:
    """Plays alongside AT, each tile forming its own cross word, and plays through
    the ends of AT."""
    assert play_set(PARALLEL_BOARD, "NO", PARALLEL_WORDS) == {
        "9H NO",
        "9G ON",
        "9I ON",
        "H8 .N",
        "I8 .O",
        "I8 .ON",
    }
    plays = generate(PARALLEL_BOARD, "NO", graph(PARALLEL_WORDS))
    (no,) = (play for play in plays if notation([play]) == ["9H NO"])
    assert no.cross_words == ("AN", "TO")
    assert no.tiles == ((8, 7, "N"), (8, 8, "O"))


def test_cross_checks_reject_a_valid_main_word() -> None:
    """ON under AT is a word along but forms AO and TN across it, so it is refused;
    with those in the word list it is found."""
    plays = play_set(PARALLEL_BOARD, "NO", PARALLEL_WORDS)
    assert "9H ON" not in plays
    assert "9H ON" in play_set(PARALLEL_BOARD, "NO", [*PARALLEL_WORDS, "AO", "TN"])


def test_single_tile_play_appears_once_as_across() -> None:
    """A lone tile forming words both ways is one play, across; a lone tile forming
    only a down word is a down play."""
    board = board_with(("8H", "A"), ("7I", "T"))
    plays = generate(board, "A", graph(["AA", "TA"]))
    assert set(notation(plays)) == {"8H .A", "8G A.", "H8 .A", "7I .A"}
    both = [play for play in plays if play.tiles == ((7, 8, "A"),)]
    assert len(both) == 1
    assert both[0].across
    assert both[0].cross_words == ("TA",)
    (down,) = (play for play in plays if play.tiles == ((8, 7, "A"),))
    assert not down.across
    assert down.cross_words == ()


# Options, order and input checking


def test_output_is_deterministic_and_limit_is_a_prefix() -> None:
    """The same inputs give the same list, whatever the word list's order; ``limit``
    returns the first plays of that list."""
    words = [*PARALLEL_WORDS, "NOT", "TAN", "ANT", "OAT", "NAT"]
    shuffled = words[:]
    random.Random(4).shuffle(shuffled)
    full = generate(PARALLEL_BOARD, "NOTA?", graph(words))
    assert len(full) > 10
    assert generate(PARALLEL_BOARD, "NOTA?", graph(shuffled)) == full
    assert generate(PARALLEL_BOARD, "NOTA?", graph(words), limit=5) == full[:5]
    assert generate(PARALLEL_BOARD, "NOTA?", graph(words), limit=0) == []


def test_blanks_false_leaves_blanks_unplayed() -> None:
    """With ``blanks=False`` only the natural tiles are played."""
    words = graph(CAT_WORDS)
    assert generate(CAT_BOARD, "?", words, blanks=False) == []
    with_s = generate(CAT_BOARD, "S?", words, blanks=False)
    assert set(notation(with_s)) == {"8G ...S", "8F S...", "H8 .S"}


def test_order_is_across_then_down() -> None:
    """Across plays come first, then down plays."""
    plays = generate(PARALLEL_BOARD, "NO", graph(PARALLEL_WORDS))
    flags = [play.across for play in plays]
    assert flags == sorted(flags, reverse=True)
    assert True in flags
    assert False in flags


@pytest.mark.parametrize(
    ("board", "rack", "code"),
    [
        (EMPTY_BOARD[:14], "A", "bad_board"),
        ((*EMPTY_BOARD[:14], "." * 14), "A", "bad_board"),
        ((*EMPTY_BOARD[:14], "." * 14 + "1"), "A", "bad_board"),
        ((*EMPTY_BOARD[:14], "." * 14 + "ß"), "A", "bad_board"),
        (EMPTY_BOARD, "ABCDEFGH", "bad_rack"),
        (EMPTY_BOARD, "ab", "bad_rack"),
        (EMPTY_BOARD, "A*", "bad_rack"),
    ],
)
def test_bad_board_or_rack_is_refused(
    board: Sequence[str], rack: str, code: str
) -> None:
    """Wrong sizes and characters are refused with a stable code."""
    with pytest.raises(MoveGenError) as error:
        generate(board, rack, graph(["AT"]))
    assert error.value.code == code


def test_spaces_are_empty_squares() -> None:
    """A space is read as an empty square, like ``.``."""
    spaced = [line.replace(".", " ") for line in CAT_BOARD]
    assert play_set(spaced, "S", CAT_WORDS) == {"8G ...S", "8F S...", "H8 .S"}


# words_formed


def test_words_formed_main_then_cross_words() -> None:
    """The main word first, then each new tile's cross word, uppercase."""
    assert words_formed(PARALLEL_BOARD, [(8, 7, "N"), (8, 8, "o")]) == [
        "NO",
        "AN",
        "TO",
    ]
    assert words_formed(PARALLEL_BOARD, [(8, 7, "N")]) == ["AN"]
    assert words_formed(PARALLEL_BOARD, [(7, 9, "E")]) == ["ATE"]
    assert words_formed(EMPTY_BOARD, [(7, 7, "A")]) == []


@pytest.mark.parametrize(
    "tiles",
    [
        [],
        [(7, 7, "A")],  # occupied
        [(8, 7, "A"), (9, 8, "B")],  # not in one line
        [(8, 7, "A"), (8, 9, "B")],  # a gap
        [(8, 7, "A"), (8, 7, "B")],  # the same square twice
        [(15, 0, "A")],  # off the board
        [(8, 7, "1")],
    ],
)
def test_words_formed_refuses_a_malformed_placement(tiles: list[Tile]) -> None:
    """Empty, occupied, scattered, gapped, doubled, off-board or non-letter tiles."""
    with pytest.raises(MoveGenError) as error:
        words_formed(PARALLEL_BOARD, tiles)
    assert error.value.code == "bad_tiles"


# Independent checks: legality, words formed, and brute force

# Short words over common letters, so random positions grow dense quickly.
LEXICON_TEXT = """
AA AD AE AI AL AN AR AS AT DA DE DO ED EL EN ER ES ET ID IN IS IT LA LI LO NA NE NO
OD OE ON OR OS RE SI SO TA TI TO ADO AID AIL AIR AIT ALE ALT AND ANE ANT ARE ART ATE
DIE DOE DOT EAR EAT END ERA IDE IRE LAD LIE LOT NET NOD NOR NOT ODE OIL ONE ORE RAT
RED ROD SAD SAT SEA SET SIT SOD TAN TEA TEN TIE TOE TON RATE TEAR STAR RATS TARS TOES
NOTE TONE DOTE LATE TALE SEAT EAST OATS IDEA STONE NOTES TONES SNORT DINER TRAIN
ALERT SATIRE RETAINS STAINED
"""
LEXICON = LEXICON_TEXT.split()
LEXICON_SET = frozenset(LEXICON)
RACK_TILES = "AAEEIOUDLNRSTT?"


LEXICON_GRAPH = graph(LEXICON)


def runs_through(board: Sequence[str], squares: set[tuple[int, int]]) -> list[str]:
    """Every maximal run of 2+ tiles, along rows and columns, holding a square of
    ``squares``: found by scanning the whole board (no knowledge of the play)."""
    found: list[str] = []
    lines = [[(row, col) for col in range(SIZE)] for row in range(SIZE)]
    lines += [[(row, col) for row in range(SIZE)] for col in range(SIZE)]
    for line in lines:
        run: list[tuple[int, int]] = []
        for square in [*line, None]:
            if square is not None and board[square[0]][square[1]] != ".":
                run.append(square)
                continue
            if len(run) >= 2 and squares & set(run):
                found.append("".join(board[r][c] for r, c in run).upper())
            run = []
    return found


def shape_is_legal(board: Sequence[str], tiles: Sequence[Tile]) -> bool:
    """Tiles on empty squares of one line, no gap, and touching a board tile (or
    covering H8 with 2+ tiles on an empty board)."""
    squares = {(row, col) for row, col, _ in tiles}
    if not tiles or len(squares) != len(tiles):
        return False
    if any(board[row][col] != "." for row, col in squares):
        return False
    rows = {row for row, _ in squares}
    cols = {col for _, col in squares}
    if len(rows) > 1 and len(cols) > 1:
        return False
    lo, hi = min(squares), max(squares)
    between = (
        [(lo[0], col) for col in range(lo[1], hi[1] + 1)]
        if len(rows) == 1
        else [(row, lo[1]) for row in range(lo[0], hi[0] + 1)]
    )
    if any(sq not in squares and board[sq[0]][sq[1]] == "." for sq in between):
        return False
    if all(line == "." * SIZE for line in board):
        return (7, 7) in squares and len(tiles) >= 2
    return any(
        0 <= r + dr < SIZE and 0 <= c + dc < SIZE and board[r + dr][c + dc] != "."
        for r, c in squares
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
    )


def is_valid(
    board: Sequence[str], tiles: Sequence[Tile], words: frozenset[str]
) -> bool:
    """A legal shape whose words, found by scanning, are all in ``words``."""
    if not shape_is_legal(board, tiles):
        return False
    formed = runs_through(place(board, tiles), {(r, c) for r, c, _ in tiles})
    return bool(formed) and all(word in words for word in formed)


def brute_force(
    board: Sequence[str], rack: str, words: frozenset[str], most: int = 3
) -> set[frozenset[Tile]]:
    """Every valid placement of 1..``most`` rack tiles, by trying them all."""
    empties = [(r, c) for r in range(SIZE) for c in range(SIZE) if board[r][c] == "."]
    lines = [[sq for sq in empties if sq[0] == row] for row in range(SIZE)]
    lines += [[sq for sq in empties if sq[1] == col] for col in range(SIZE)]
    found: set[frozenset[Tile]] = set()
    for count in range(1, min(most, len(rack)) + 1):
        spellings = set(itertools.permutations(rack, count))
        for line in lines:
            for squares in itertools.combinations(line, count):
                if not shape_is_legal(board, [(r, c, "A") for r, c in squares]):
                    continue
                for spelling in spellings:
                    options = [
                        ALPHABET.lower() if tile == "?" else tile for tile in spelling
                    ]
                    for letters in itertools.product(*options):
                        tiles = [
                            (r, c, x)
                            for (r, c), x in zip(squares, letters, strict=True)
                        ]
                        if is_valid(board, tiles, words):
                            found.add(frozenset(tiles))
    return found


def check_play(board: Sequence[str], rack: str, play: Placement) -> None:
    """Everything a generated play must satisfy, checked without the generator."""
    assert shape_is_legal(board, play.tiles), play
    used = Counter("?" if x.islower() else x for _, _, x in play.tiles)
    assert not used - Counter(rack), (play, rack)
    after = place(board, play.tiles)
    formed = runs_through(after, {(r, c) for r, c, _ in play.tiles})
    assert sorted(formed) == sorted(play.words()), play
    assert all(word in LEXICON_SET for word in formed), play
    assert words_formed(board, play.tiles) == list(play.words())
    # The main word lies where the play says, with empty squares or edges around it.
    step = (0, 1) if play.across else (1, 0)
    squares = [
        (play.row + i * step[0], play.col + i * step[1]) for i in range(len(play.word))
    ]
    assert "".join(after[r][c] for r, c in squares) == play.word
    before = (play.row - step[0], play.col - step[1])
    beyond = (squares[-1][0] + step[0], squares[-1][1] + step[1])
    for r, c in (before, beyond):
        assert not (0 <= r < SIZE and 0 <= c < SIZE) or after[r][c] == "."
    assert play.gcg_word().count(".") == len(play.word) - len(play.tiles)
    if len(play.tiles) == 1:
        # A lone tile is across exactly when it has a tile beside it in its row.
        row, col, _ = play.tiles[0]
        line = after[row]
        beside = any(0 <= c < SIZE and line[c] != "." for c in (col - 1, col + 1))
        assert play.across == beside, play


racks = st.text(alphabet=RACK_TILES, min_size=1, max_size=7)
histories = st.lists(st.tuples(racks, st.integers(0, 10**6)), max_size=10)


def build_board(history: list[tuple[str, int]]) -> list[str]:
    """A position reached by playing, in turn, a generated play chosen by index."""
    board = list(EMPTY_BOARD)
    for rack, choice in history:
        plays = generate(board, rack, LEXICON_GRAPH, blanks=rack.count("?") < 2)
        if plays:
            board = place(board, plays[choice % len(plays)].tiles)
    return board


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories, rack=racks)
def test_every_generated_play_is_legal_and_forms_only_words(
    history: list[tuple[str, int]], rack: str
) -> None:
    """On positions built from generated plays, every play generated is legal (one
    line, no gap, connected, rack tiles only), forms exactly the words a scan of the
    board finds, all in the word list, and appears once."""
    board = build_board(history)
    plays = generate(board, rack, LEXICON_GRAPH)
    keys = [frozenset(play.tiles) for play in plays]
    assert len(keys) == len(set(keys))
    for play in plays:
        check_play(board, rack, play)


small_racks = st.text(alphabet=RACK_TILES, min_size=1, max_size=3).filter(
    lambda rack: rack.count("?") < 2
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories, rack=small_racks)
def test_generator_matches_brute_force(
    history: list[tuple[str, int]], rack: str
) -> None:
    """With up to three tiles, the generator finds exactly the placements that trying
    every square and letter finds valid, each once."""
    board = build_board(history)
    plays = generate(board, rack, LEXICON_GRAPH)
    keys = [frozenset(play.tiles) for play in plays]
    assert len(keys) == len(set(keys))
    assert set(keys) == brute_force(board, rack, LEXICON_SET)


def test_brute_force_on_fixed_positions() -> None:
    """The same comparison on an empty board and on a hand-made crossing, with a
    blank, so it always runs on a populated case."""
    crossing = board_with(("8F", "STONE"), ("J6", "TIE"))
    assert crossing[5][9] + crossing[6][9] + crossing[7][9] == "TIE"
    for board, rack in [(EMPTY_BOARD, "TA?"), (crossing, "DE?"), (crossing, "RAT")]:
        found = brute_force(board, rack, LEXICON_SET)
        plays = generate(board, rack, LEXICON_GRAPH)
        assert len(found) > 5
        assert {frozenset(play.tiles) for play in plays} == found
        assert len(plays) == len(found)
