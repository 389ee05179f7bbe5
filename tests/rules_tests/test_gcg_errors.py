"""What a GCG importer must check (GCG.md), each reported with its line number."""

from __future__ import annotations

import pytest

from rules.errors import GcgError
from rules.gcg import read
from tests.rules_tests.support import GAMES

HEAD = "#player1 ann Ann Smith\n#player2 bob Bob Jones\n"
OPEN = HEAD + ">ann: DINNVWY 8D WINDY +32 32\n"


def problems(text: str | bytes) -> list[tuple[int, str]]:
    """The (line, code) of every problem reported for a record."""
    with pytest.raises(GcgError) as error:
        read(text)
    assert error.value.code == "gcg"
    for line, code, message in error.value.problems:
        assert message, (line, code)
    return [(line, code) for line, code, _ in error.value.problems]


def doug(replace: str, by: str) -> str:
    """The real game doug_v_emely.gcg with one line changed."""
    text = (GAMES / "doug_v_emely.gcg").read_text(encoding="latin-1")
    assert replace in text
    return text.replace(replace, by)


def test_unknown_nick():
    """An event by a nick that is not a player."""
    assert problems(OPEN + ">carl: ADEEGIL E7 A.E +3 3\n") == [(4, "unknown_nick")]


def test_event_before_the_players():
    """An event line before #player1 and #player2."""
    text = "#player1 ann Ann\n>ann: DINNVWY 8D WINDY +32 32\n#player2 bob Bob\n"
    assert problems(text) == [(2, "event_before_players"), (3, "pragma_after_events")]


def test_pragma_after_events():
    """Metadata pragmas must precede the first event."""
    assert problems(OPEN + "#title Late title\n") == [(4, "pragma_after_events")]


def test_duplicate_or_impossible_player_numbers():
    """The same #player line twice, or a #player0."""
    text = "#player1 ann Ann\n#player1 bob Bob\n#player2 cy Cy\n#player0 di Di\n"
    assert problems(text) == [(2, "bad_pragma"), (4, "bad_pragma")]


def test_missing_players():
    """A record must name both players."""
    assert problems("#player1 ann Ann\n") == [(1, "missing_players")]


def test_play_off_the_board():
    """A word running past the edge."""
    assert problems(HEAD + ">ann: DINNVWY 8L WINDY +32 32\n") == [(3, "off_board")]


def test_play_not_in_one_line():
    """A position that names no line of the board (GCG has no other way to write a
    play that is not in one line)."""
    assert problems(HEAD + ">ann: DINNVWY 8D8 WINDY +32 32\n") == [(3, "bad_position")]


def test_play_with_a_gap():
    """A '.' on an empty square leaves a gap in the play."""
    assert problems(OPEN + ">bob: ADEEGIL 9D A.E +3 3\n") == [(4, "gap")]


def test_play_through_a_different_letter():
    """A played-through letter that differs from the board."""
    assert problems(OPEN + ">bob: ADEEGIL E7 AXE +3 3\n") == [(4, "board_mismatch")]


def test_play_not_connected():
    """A later play that touches no tile."""
    assert problems(OPEN + ">bob: ADEEGIL 2A AGE +10 10\n") == [(4, "not_connected")]


def test_play_off_centre_first():
    """The first play must cover H8."""
    assert problems(HEAD + ">ann: DINNVWY 2A WINDY +32 32\n") == [
        (3, "first_play_center")
    ]


def test_play_with_tiles_not_on_the_rack():
    """A play using a tile the recorded rack does not have."""
    assert problems(HEAD + ">ann: DINNVWY 8D WINDS +32 32\n") == [(3, "not_on_rack")]


def test_exchange_with_fewer_than_seven_in_the_bag():
    """An exchange when the bag holds fewer than seven tiles (4 are left here)."""
    text = doug(">emely: ?HOQSTU M2 QUOTH +46 310", ">emely: ?HOQSTU -Q +0 264")
    assert problems(text) == [(27, "exchange_not_allowed")]


def test_withdrawal_with_no_play_before_it():
    """A withdrawn phony with no play of the same player just before."""
    assert problems(OPEN + ">bob: ADEEGIL -- -3 0\n") == [(4, "no_play_to_challenge")]
    assert problems(HEAD + ">ann: DINNVWY -- -3 0\n") == [(3, "no_play_to_challenge")]


def test_rack_tiles_that_cannot_be_in_the_bag():
    """A rack with three blanks, or more of a letter than the set has."""
    assert problems(HEAD + ">ann: ???ABCD - +0 0\n") == [(3, "tile_unavailable")]
    text = OPEN + ">bob: QZXJKQA - +0 0\n"
    assert problems(text) == [(4, "tile_unavailable")]


def test_rack_that_contradicts_the_tiles_kept():
    """A partial rack with more new tiles than were drawn cannot be right."""
    text = OPEN + ">bob: ADEEGIL E7 A.E +3 3\n>ann: QXZJKL - +0 32\n"
    assert problems(text) == [(5, "rack_mismatch")]


def test_going_out_points_that_are_not_twice_the_rack():
    """Going-out points other than 2× the rack are kept and reported."""
    record = read(doug(">emely:  (OPEG) +14 345", ">emely:  (OPEG) +12 343"))
    assert [(d.line, d.recorded, d.computed) for d in record.discrepancies] == [
        (30, 12, 14)
    ]
    assert record.state.scores == (451, 343)


def test_going_out_rack_that_is_not_the_opponents():
    """The rack in a going-out line must be the opponent's rack."""
    text = doug(">emely:  (OPEG) +14 345", ">emely:  (OPEX) +26 357")
    assert problems(text) == [(30, "rack_mismatch")]


def test_move_after_the_game_ended():
    """Nothing but a time penalty may follow the end of the game."""
    text = doug(
        ">emely:  (OPEG) +14 345", ">emely:  (OPEG) +14 345\n>doug: EGOP - +0 451"
    )
    assert problems(text) == [(31, "game_over")]


def test_move_after_a_player_went_out():
    """After going out, a further turn is refused (one 0-point pass by the opponent
    is how some programs wrote the end: see test_gcg_lenient)."""
    text = doug(">emely:  (OPEG) +14 345", ">doug: EGOP -EG +0 451")
    assert problems(text) == [(30, "game_over")]


def test_end_lines_before_the_end():
    """End-of-game lines while nobody went out and turns still scored."""
    assert problems(OPEN + ">bob: ADEEGIL (ADEEGIL) -10 -10\n") == [
        (4, "bad_end_reason")
    ]


def test_time_penalty_before_the_end():
    """A time penalty belongs after the end-of-game lines."""
    assert problems(OPEN + ">bob: ADEEGIL (time) -10 -10\n") == [(4, "game_not_over")]


def test_event_out_of_turn():
    """A player moving twice in a row."""
    text = OPEN + ">ann: AEJNOSV E7 J. +9 41\n"
    assert problems(text) == [(4, "out_of_turn")]


def test_recorded_score_that_differs():
    """A wrong score is not an error: it is kept and reported as a discrepancy."""
    record = read(OPEN.replace("+32 32", "+23 23"))
    assert [(d.line, d.recorded, d.computed) for d in record.discrepancies] == [
        (3, 23, 32)
    ]


def test_every_syntax_problem_is_reported_at_once():
    """All syntax problems of a file come back together, each with its line."""
    text = (
        HEAD
        + ">ann: DINNVWY 8D WINDY +x 32\n"
        + "just some text\n"
        + ">bob ADEEGIL\n"
        + ">bob: ADEEGIL -QQQQQQQQ +0 0\n"
        + ">bob: ADEEGIL - +5 5\n"
        + "#note\n"
        + ">bob: ADEEGILXY - +0 0\n"
    )
    assert problems(text) == [
        (3, "bad_score"),
        (4, "bad_line"),
        (5, "bad_event"),
        (6, "bad_exchange"),
        (7, "bad_score"),
        (8, "misplaced_note"),  # it follows a line that could not be read
        (9, "bad_rack"),
    ]


def test_note_before_any_event():
    """A note must follow an event line."""
    assert problems(HEAD + "#note hello\n") == [(3, "misplaced_note")]


def test_error_carries_the_game_so_far():
    """A rule problem carries the state just before it."""
    with pytest.raises(GcgError) as error:
        read(OPEN + ">bob: ADEEGIL 2A AGE +10 10\n")
    assert error.value.state.scores == (32, 0)
    assert str(error.value).startswith("Line 4:")
