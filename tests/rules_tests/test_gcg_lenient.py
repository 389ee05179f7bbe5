"""Issue 20: reading real records the way the reference readers do.

Each rule of the issue has a hand-written record here: accepted, accepted with a
warning on its line, or refused with its line.
"""

from __future__ import annotations

import pytest

from rules.errors import GcgError
from rules.events import RackForgotten, RackRecorded, TimePenalty
from rules.gcg import read, write
from tests.rules_tests.support import GAMES

HEAD = "#player1 ann Ann\n#player2 bob Bob\n"
OPEN = HEAD + ">ann: DINNVWY 8D WINDY +32 32\n>bob: ADEEGIL E7 A.E +3 3\n"


def refused(text: str | bytes) -> list[tuple[int, str]]:
    """The (line, code) of every problem of a record the reader refuses."""
    with pytest.raises(GcgError) as error:
        read(text)
    return [(line, code) for line, code, _ in error.value.problems]


def warned(text: str) -> list[tuple[int, str]]:
    return [(warning.line, warning.code) for warning in read(text).warnings]


def doug(replace: str, by: str) -> str:
    """The real game doug_v_emely.gcg with one line changed."""
    text = (GAMES / "doug_v_emely.gcg").read_text(encoding="latin-1")
    assert replace in text
    return text.replace(replace, by)


# --- rule 1: #rack1 / #rack2 ------------------------------------------------------

UNTRACKED = HEAD + ">ann:  8D WINDY +32 32\n>bob:  E7 A.E +3 3\n"


def test_final_racks_are_kept_when_earlier_racks_were_not_recorded():
    """With no rack recorded before, #rack1/#rack2 still become the racks, and a
    written record keeps them."""
    record = read(UNTRACKED + "#rack1 AEJNOSV\n#rack2 BDEGIKL\n")
    assert record.warnings == []
    assert [rack.known for rack in record.state.racks] == ["AEJNOSV", "BDEGIKL"]
    assert RackRecorded(player=0, tiles="AEJNOSV") in record.events
    assert record.event_lines[-1] == 6
    text = write(record.events, record.metadata)
    assert text.endswith("#rack1 AEJNOSV\n#rack2 BDEGIKL\n")
    assert read(text).state.racks == record.state.racks


def test_final_rack_that_cannot_fit_the_tiles_left_is_refused():
    """Three blanks, or a second W when the board has one of the two, cannot be."""
    assert refused(UNTRACKED + "#rack1 ???AEJN\n") == [(5, "tile_unavailable")]
    assert refused(UNTRACKED + "#rack2 WWAEJNO\n") == [(5, "tile_unavailable")]


def test_final_racks_that_fit_alone_but_not_together_are_refused():
    """English has one Q: both racks cannot hold it."""
    text = UNTRACKED + "#rack1 AEIOQRS\n#rack2 BCDFGHQ\n"
    assert refused(text) == [(6, "tile_unavailable")]


def test_final_rack_wins_over_an_inferred_rack():
    """A #rack line that needs a tile only inferred on the other rack (ann's Q, read
    off her rack at line 5) drops that inference, with a warning on its line."""
    text = OPEN + ">ann: AEJNQSV - +0 32\n>bob:  - +0 3\n#rack2 DEGILQZ\n"
    record = read(text)
    assert [(w.line, w.code) for w in record.warnings] == [(7, "inference_dropped")]
    assert RackForgotten(player=0) in record.events
    assert record.state.racks[1].known == "DEGILQZ"
    assert write(record.events, record.metadata).endswith("#rack2 DEGILQZ\n")


# --- rule 2: only the board is a hard limit -----------------------------------------


def test_clash_with_the_other_players_inferred_rack_is_a_warning():
    """Both racks are written with the one K: each side's inference is dropped where
    the other's record needs the K (ann's draw read off line 5, then bob's rack on
    line 4); the record is read on and kept as written."""
    text = (
        HEAD
        + ">ann: DINNVWY 8D WINDY +32 32\n"
        + ">bob: ADEEGKL E7 A.E +3 3\n"
        + ">ann: AEKNOSV - +0 32\n"
        + ">bob: DGKLRST - +0 3\n"
    )
    record = read(text)
    assert [(w.line, w.code) for w in record.warnings] == [
        (4, "inference_dropped"),
        (5, "inference_dropped"),
    ]
    assert "bob's rack was only inferred" in record.warnings[1].message
    assert RackForgotten(player=0) in record.events
    assert RackForgotten(player=1) in record.events
    assert record.state.scores == (32, 3)
    assert ">ann: AEKNOSV - +0 32" in write(record.events, record.metadata)


def test_clash_with_exchanged_letters_typed_as_placeholders_is_a_warning():
    """ann's exchange was typed -IIIII; her next rack holds I's that could only be
    the ones she exchanged: those letters are taken as not recorded."""
    text = (
        HEAD
        + ">ann: IIIIIII -IIIII +0 0\n"
        + ">bob: ADEEGIL - +0 0\n"
        + ">ann: ABIIIII - +0 0\n"
    )
    record = read(text)
    assert [(w.line, w.code) for w in record.warnings] == [(5, "inference_dropped")]
    assert "exchange was written as -IIIII" in record.warnings[0].message
    assert RackForgotten(player=0, exchanged=True) in record.events
    assert ">ann: IIIIIII -IIIII +0 0" in write(record.events, record.metadata)


def test_play_from_an_unrecorded_rack_against_an_annotated_rack_is_a_warning():
    """Only ann's racks are annotated; bob plays the K her rack was inferred to
    hold: the play is on the board, so her rack's inference goes."""
    text = (
        HEAD
        + ">ann: DINNVWY 8D WINDY +32 32\n"
        + ">bob:  E7 A.E +3 3\n"
        + ">ann: AEKNOSV - +0 32\n"
        + ">bob:  H7 K. +9 12\n"
    )
    assert warned(text) == [(6, "inference_dropped")]
    assert read(text).state.board.letter_at("H7") == "K"


def test_clash_with_the_board_is_refused():
    """The board is certain: a rack holding a second X after the X was played."""
    text = HEAD + ">ann: ADEIOTX 8D OXIDATE +74 74\n" + ">bob: AEIRSTX - +0 0\n"
    assert refused(text) == [(4, "tile_unavailable")]


def test_drawing_back_your_own_exchanged_tile_says_so():
    """The message names the exchange, not the board or a known rack."""
    text = (
        HEAD
        + ">ann: ABCDEFX -X +0 0\n"
        + ">bob: ADEEGIL - +0 0\n"
        + ">ann: ABCDEFX - +0 0\n"
    )
    record = read(text)
    # The X is read back as the exchange's letter not being the tile she typed.
    assert [(w.line, w.code) for w in record.warnings] == [(5, "inference_dropped")]


# --- rule 3: one pass between going out and the end lines ----------------------------

GOING_OUT = ">emely: ?FS 14L .aFS +21 331\n"


def test_pass_between_going_out_and_the_end_lines_is_accepted():
    """A failed double challenge of the going-out play, written as a pass, changes
    nothing: same scores, same end, no warning."""
    original = read((GAMES / "doug_v_emely.gcg").read_bytes())
    record = read(doug(GOING_OUT, GOING_OUT + ">doug: EGOP - +0 451\n"))
    assert record.warnings == []
    assert record.state.scores == original.state.scores == (451, 345)
    assert record.events == original.events
    assert record.state.turns == original.state.turns


def test_second_pass_or_a_placement_after_going_out_is_refused():
    """Only one such pass: a second line, or a placement, is a move after the end."""
    twice = GOING_OUT + ">doug: EGOP - +0 451\n>doug: EGOP - +0 451\n"
    assert refused(doug(GOING_OUT, twice)) == [(31, "game_over")]
    placed = GOING_OUT + ">doug: EGOP 15E POGE +20 471\n"
    assert refused(doug(GOING_OUT, placed)) == [(30, "game_over")]
    own_pass = GOING_OUT + ">emely:  - +0 331\n"
    assert refused(doug(GOING_OUT, own_pass)) == [(30, "game_over")]


def test_anything_after_the_end_lines_is_refused():
    """A pass after the end-of-game lines is not the pass rule 3 allows."""
    text = doug(">emely:  (OPEG) +14 345", ">emely:  (OPEG) +14 345\n>doug: - +0 451")
    assert refused(text) == [(31, "game_over")]


# --- rule 4: a withdrawal removes exactly what was credited --------------------------


@pytest.mark.parametrize(("written", "recorded"), [("+0", 0), ("-30", -30)])
def test_withdrawal_removes_the_points_credited_and_flags_another_figure(
    written, recorded
):
    """An old "-- +0" (or any other figure) never leaves the phony's points on."""
    text = (
        HEAD
        + ">ann: DINNVWY 8D WINDY +32 32\n"
        + f">ann: DINNVWY -- {written} {32 + recorded}\n"
        + ">bob: ADEEGIL 8D AGILE +14 14\n"
    )
    record = read(text)
    assert record.state.scores == (0, 14)
    assert [(d.line, d.kind, d.recorded, d.computed) for d in record.discrepancies] == [
        (4, "challenge", recorded, -32)
    ]


# --- rule 5: UNKNOWN and impossible racks on (challenge) lines ------------------------

FIVE_POINT = HEAD + ">ann: DINNVWY 8D WINDY +32 32\n"


def test_unknown_written_as_a_rack_is_not_recorded():
    """Quackle's UNKNOWN on a challenge line means no rack was recorded."""
    record = read(FIVE_POINT + ">ann: UNKNOWN (challenge) +5 37\n")
    assert record.warnings == []
    assert record.state.scores == (37, 0)
    assert record.events[-1].rack == ""


def test_impossible_rack_on_a_challenge_line_is_a_warning():
    """A rack that cannot be the player's is left out, with a warning on its line;
    the bonus still counts and the draw is recorded without letters."""
    record = read(FIVE_POINT + ">ann: QQQQQQQ (challenge) +5 37\n")
    assert [(w.line, w.code) for w in record.warnings] == [(4, "rack_mismatch")]
    assert "the rack is left out" in record.warnings[0].message
    assert record.state.scores == (37, 0)
    assert record.events[-1].rack is None


# --- rule 6: at most one (time) line per player --------------------------------------


def test_second_time_line_for_a_player_is_refused():
    """One penalty counts every minute over time; a second is an error."""
    text = (GAMES / "issue_476.gcg").read_text(encoding="latin-1")
    first = next(line for line in text.splitlines() if "(time)" in line)
    lines = text.splitlines().index(first) + 1
    assert refused(text.replace(first, f"{first}\n{first}")) == [
        (lines + 1, "time_penalty_repeated")
    ]
    assert read(text).events[-1] == TimePenalty(player=0, minutes=1, score=-10)


def test_time_line_before_the_end_says_the_game_has_not_ended():
    """The message of a mid-game (time) line is about the end not having come, and
    its rack is not taken as the player's next rack."""
    with pytest.raises(GcgError) as error:
        read(OPEN + ">ann: QQQ (time) -10 22\n>ann: AEJNOSV - +0 22\n")
    line, code, message = error.value.problems[0]
    assert (line, code) == (5, "game_not_over")
    assert "has not ended" in message
    assert "after the end of the game" in message


# --- rule 7: lenient readings ---------------------------------------------------------


def test_both_players_with_the_same_nick_alternate():
    """The same nick for both players is read by the order of play, with a warning
    on the second #player line."""
    text = (
        "#player1 NoName Ann\n#player2 NoName Bob\n"
        ">NoName: DINNVWY 8D WINDY +32 32\n"
        ">NoName: ADEEGIL E7 A.E +3 3\n"
        ">NoName: AEJNOSV - +0 32\n"
    )
    record = read(text)
    assert [(w.line, w.code) for w in record.warnings] == [(2, "duplicate_nick")]
    assert record.state.scores == (32, 3)
    assert record.state.players == ("Ann", "Bob")
    assert record.state.turn == 1


def test_more_than_two_players_is_one_clear_error():
    """#player3 and #player4 give one error, not a run of unknown nicks."""
    text = (
        HEAD
        + "#player3 cy Cy\n#player4 di Di\n"
        + ">ann: DINNVWY 8D WINDY +32 32\n"
        + ">bob: ADEEGIL E7 A.E +3 3\n"
        + ">cy: ABC - +0 0\n"
        + ">di: ABC - +0 0\n"
    )
    with pytest.raises(GcgError) as error:
        read(text)
    assert [(line, code) for line, code, _ in error.value.problems] == [
        (3, "too_many_players")
    ]
    assert "more than two players is not supported" in error.value.message.lower()


# --- issue 21: impossible scores ------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (">ann: DINNVWY 8D WINDY +2147483648 2147483648\n", "impossible_score"),
        (">ann: DINNVWY 8D WINDY +99999 99999\n", "impossible_score"),
        (">ann: DINNVWY 8D WINDY +32 999999999\n", "impossible_score"),
    ],
)
def test_impossible_scores_are_refused_with_their_line(line, code):
    """A score of 2**31, or any score or cumulative no game can reach, is refused
    at its line instead of being kept as a discrepancy."""
    assert refused(HEAD + line) == [(3, code)]
