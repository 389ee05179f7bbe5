"""Scoring a placement (RULES.md, "Scoring a placement")."""

from __future__ import annotations

from rules.board import Board, Position
from rules.moves import locate
from rules.scoring import PlayScore, WordScore, score_play
from rules.tiles import ENGLISH, tile_values
from tests.rules_tests.support import board_from

VALUES = tile_values(ENGLISH)


def score(board: Board, position: str, word: str) -> PlayScore:
    """Score a play of ``word`` at ``position`` on ``board``."""
    located = locate(board.squares, Position.from_gcg(position), word, ENGLISH.letters)
    after = board.place(located.new_tiles).squares
    return score_play(after, located, VALUES)


def test_letter_values_sum_without_premiums():
    """A word on plain squares scores the sum of its letters (I8 is plain)."""
    result = score(board_from(("8G", "AT")), "8G", "..S")
    assert result.words[0].word == "ATS"
    assert result.words[0].word_multiplier == 1
    assert result.total == 3


def test_double_letter_doubles_one_tile():
    """A new tile on a double-letter square counts twice (WINDY: W on D8)."""
    result = score(Board(), "8D", "WINDY")
    assert result.words[0].letter_scores == (8, 1, 1, 2, 4)
    assert result.words[0].word_multiplier == 2  # Y on the centre
    assert result.total == 32


def test_triple_letter_triples_one_tile():
    """A new tile on a triple-letter square counts three times (Z on F6)."""
    result = score(board_from(("F7", "A")), "F6", "Z.")
    assert result.words[0].letter_scores == (30, 1)
    assert result.total == 31


def test_double_word_doubles_the_word():
    """A new tile on a double-word square doubles every letter of its word."""
    result = score(Board(), "8H", "QI")
    assert result.words[0].word_multiplier == 2
    assert result.total == 22


def test_triple_word_triples_the_word():
    """A new tile on a triple-word square triples the word (X on O8)."""
    result = score(board_from(("8L", "AB")), "8L", "..OX")
    assert result.words[0].word_multiplier == 3
    assert result.total == (1 + 3 + 1 + 8) * 3


def test_two_double_words_multiply_by_four():
    """A word over two double-word squares scores ×4 (E5 and K5)."""
    board = board_from(("H5", "Q"))
    result = score(board, "5E", "ABC.DEF")
    word = result.words[0]
    assert word.word_multiplier == 4
    assert word.score == (1 + 3 + 3 + 10 + 2 + 1 + 4) * 4


def test_two_triple_words_multiply_by_nine():
    """A word over two triple-word squares scores ×9 (A1 and H1; D1 is a DL)."""
    result = score(board_from(("1E", "AT")), "1A", "REPE..IN")
    word = result.words[0]
    assert word.word_multiplier == 9
    assert word.letter_scores == (1, 1, 3, 2, 1, 1, 1, 1)
    assert result.total == 11 * 9


def test_double_and_triple_word_multiply_by_six():
    """A word over a triple-word (A8) and a double-word (H8) square scores ×6."""
    result = score(board_from(("8E", "TI")), "8A", "CATS..ES")
    word = result.words[0]
    assert word.word_multiplier == 6
    assert word.letter_scores == (3, 1, 1, 2, 1, 1, 1, 1)  # S on D8 (DL) doubled
    assert not result.bingo
    assert result.total == 11 * 6


def test_premiums_count_only_under_new_tiles():
    """A tile already on a premium square counts at face value."""
    board = board_from(("8D", "WINDY"))
    result = score(board, "8D", ".....S")
    assert result.words[0].letter_scores == (4, 1, 1, 2, 4, 1)
    assert result.words[0].word_multiplier == 1
    assert result.total == 13


def test_blank_scores_zero_even_on_a_letter_premium():
    """A blank is worth 0, doubled or not."""
    result = score(Board(), "8D", "wINDY")
    assert result.words[0].letter_scores == (0, 1, 1, 2, 4)
    assert result.total == 16


def test_blank_on_a_word_premium_still_multiplies():
    """A blank on a double-word square still doubles the word."""
    result = score(Board(), "8G", "ZaP")
    assert result.words[0].letter_scores == (10, 0, 3)
    assert result.words[0].word_multiplier == 2
    assert result.total == 26


def test_cross_words_score_each_word_formed():
    """A parallel play scores its main word and every cross word it forms."""
    board = board_from(("8H", "AT"))
    # Play "NO" on row 9 under A and T: forms NO (main), AN and TO (cross words).
    result = score(board, "9H", "NO")
    words = {word.word: word.score for word in result.words}
    # H9 plain, I9 is a DL: O doubled in NO and in TO.
    assert words == {"NO": 1 + 2, "AN": 1 + 1, "TO": 1 + 2}
    assert result.total == 3 + 2 + 3
    assert result.words[0].word == "NO"  # the main word comes first


def test_shared_plain_tile_counts_in_both_words():
    """A new tile that makes two words counts in each of them."""
    board = board_from(("8H", "A"), ("9H", "XI"))
    result = score(board, "I8", "T.")
    words = {word.word: word.score for word in result.words}
    assert words == {"TI": 2, "AT": 2}
    assert result.total == 4


def test_shared_tile_on_double_letter_counts_twice_in_each_word():
    """A new tile on a double letter square counts doubled in both of its words."""
    board = board_from(("7H", "A"), ("G8", "A"))
    # G7 is a DL square: a Z there forms ZA across (with H7) and ZA down (with G8).
    result = score(board, "7G", "Z.")
    words = [(word.word, word.score) for word in result.words]
    assert words == [("ZA", 21), ("ZA", 21)]
    assert result.total == 42


def test_bingo_adds_fifty_after_multipliers():
    """Placing seven tiles adds 50 after the word multipliers."""
    result = score(Board(), "8H", "RETAINS")
    word = result.words[0]
    assert result.bingo
    assert word.score == 8 * 2  # I on L8 (DL): 1+1+1+1+2+1+1, doubled by H8
    assert result.total == 16 + 50


def test_breakdown_explains_the_score():
    """A word's breakdown lists the letter scores and the multiplier."""
    word = score(Board(), "8D", "WINDY").words[0]
    assert isinstance(word, WordScore)
    assert word.position == "8D"
    assert word.breakdown() == "(8+1+1+2+4)×2 = 32"
    plain = score(board_from(("8D", "WINDY")), "8D", ".....S").words[0]
    assert plain.breakdown() == "4+1+1+2+4+1 = 13"
