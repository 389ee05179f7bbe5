"""The .TOU and ABSP CSV writers, against hand-made golden files."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from rules.records import (
    DivisionRecord,
    EntryKind,
    PlayerRecord,
    RoundEntry,
    TournamentRecord,
)
from rules.submissions import (
    SubmissionError,
    format_absp_csv,
    format_tou,
    spreadsheet_text,
    to_ascii,
)

GOLDEN = Path(__file__).parent / "golden"

GAME = EntryKind.GAME
BYE = EntryKind.BYE

Writer = Callable[[TournamentRecord], str]


def game(
    round_: int, opponent: int, own: int, theirs: int, result: float, first: bool
) -> RoundEntry:
    return RoundEntry(
        round=round_,
        kind=GAME,
        opponent=opponent,
        own_score=own,
        opponent_score=theirs,
        went_first=first,
        result=result,
    )


def spring_open() -> TournamentRecord:
    """Two divisions with byes, a forfeit, a draw, a tie-rule win and a withdrawal.

    Division A, 5 players, 4 rounds:
      R1  1-2 (1 first) 400-350; 3-4 (4 first) 380-380 draw; 5 bye
      R2  1-3 (1 first) 390-420; 2-5 (5 first) 410-300; 4 bye
      R3  1 wins by forfeit against 4; 2-3 (2 first) 455-370; 5 absent (withdrew)
      R4  1-2 (2 first) 399-401; 3-4 (3 first) 350-433; 5 forfeits (withdrawn)
    Division B, 3 players, 2 rounds:
      R1  1-2 (2 first) 512-345; 3 bye
      R2  2-3 (3 first) 372-372, won by 3 on the pre-adjustment tie rule; 1 bye
    """
    division_a = DivisionRecord(
        name="A",
        players=(
            PlayerRecord(
                number=1,
                name="Anderson, Ann",
                rating=1650,
                rounds=(
                    game(1, 2, 400, 350, 1, True),
                    game(2, 3, 390, 420, 0, True),
                    RoundEntry(3, EntryKind.FORFEIT_WIN, opponent=4, own_score=50),
                    game(4, 2, 399, 401, 0, False),
                ),
            ),
            PlayerRecord(
                number=2,
                name="Björk, Zoë",
                rating=1500,
                rounds=(
                    game(1, 1, 350, 400, 0, False),
                    game(2, 5, 410, 300, 1, False),
                    game(3, 3, 455, 370, 1, True),
                    game(4, 1, 401, 399, 1, True),
                ),
            ),
            PlayerRecord(
                number=3,
                name="Chen, Wei",
                rating=1400,
                rounds=(
                    game(1, 4, 380, 380, 0.5, False),
                    game(2, 1, 420, 390, 1, False),
                    game(3, 2, 370, 455, 0, False),
                    game(4, 4, 350, 433, 0, True),
                ),
            ),
            PlayerRecord(
                number=4,
                name="Díaz, José",
                rating=0,
                rounds=(
                    game(1, 3, 380, 380, 0.5, True),
                    RoundEntry(2, BYE, own_score=50),
                    RoundEntry(3, EntryKind.FORFEIT_LOSS, opponent=1, own_score=-50),
                    game(4, 3, 433, 350, 1, False),
                ),
            ),
            PlayerRecord(
                number=5,
                name="Evans-Łukaszewicz, Tom",
                rating=1300,
                withdrawn=True,
                rounds=(
                    RoundEntry(1, BYE, own_score=50),
                    game(2, 2, 300, 410, 0, True),
                    RoundEntry(3, EntryKind.UNPLAYED),
                    RoundEntry(4, EntryKind.FORFEIT_LOSS),
                ),
            ),
        ),
    )
    division_b = DivisionRecord(
        name="B",
        players=(
            PlayerRecord(
                number=1,
                name="O'Brien, Seán",
                rating=1720,
                rounds=(
                    game(1, 2, 512, 345, 1, False),
                    RoundEntry(2, BYE, own_score=50),
                ),
            ),
            PlayerRecord(
                number=2,
                name="Park, Min-jun",
                rating=1690,
                rounds=(
                    game(1, 1, 345, 512, 0, True),
                    game(2, 3, 372, 372, 0, False),
                ),
            ),
            PlayerRecord(
                number=3,
                name='Quinn, Ruth "Ru"',
                rating=0,
                rounds=(
                    RoundEntry(1, BYE, own_score=50),
                    game(2, 2, 372, 372, 1, True),
                ),
            ),
        ),
    )
    return TournamentRecord(
        name="Café Spring Open", date="2024-03-09", divisions=(division_a, division_b)
    )


def replace_entry(
    record: TournamentRecord, number: int, round_: int, **changes: object
) -> TournamentRecord:
    """Return the record with one entry of division A changed."""
    division = record.divisions[0]
    players = []
    for player in division.players:
        if player.number == number:
            rounds = tuple(
                dataclasses.replace(entry, **changes)
                if entry.round == round_
                else entry
                for entry in player.rounds
            )
            player = dataclasses.replace(player, rounds=rounds)
        players.append(player)
    division = dataclasses.replace(division, players=tuple(players))
    return dataclasses.replace(record, divisions=(division, *record.divisions[1:]))


# .TOU


def test_tou_matches_the_golden_file_byte_for_byte() -> None:
    """Byes, forfeits, absences, a draw, a tie-rule win and ASCII names, in CRLF."""
    expected = (GOLDEN / "spring_open.TOU").read_bytes()
    assert format_tou(spring_open()).encode("ascii") == expected


def test_tou_is_ascii_with_crlf_line_ends() -> None:
    """Every line ends in CRLF, with no bare LF, and no character is beyond ASCII."""
    text = format_tou(spring_open())
    assert text.isascii()
    assert text.endswith("*** END OF FILE ***\r\n")
    assert text.count("\n") == text.count("\r\n") == 14


def test_tou_header_and_zero_line() -> None:
    """Line 1 is *M and DD.MM.YYYY; a division's second line has 0 in column 39."""
    lines = format_tou(spring_open()).split("\r\n")
    assert lines[0] == "*M09.03.2024 Cafe Spring Open"
    assert lines[1] == "*A"
    assert lines[2] == " " * 38 + "0"
    assert lines[2].index("0") + 1 == 39


def test_tou_writes_byes_forfeits_and_absences_as_neutral_self_pairings() -> None:
    """Player 5 of A: bye, game, absent, forfeit: every non-game is 1350 against 5."""
    line = format_tou(spring_open()).split("\r\n")[7]
    blocks = [line[20 + 9 * i : 29 + 9 * i] for i in range(4)]
    assert blocks == [" 1350   5", "  300  +2", " 1350   5", " 1350   5"]


def test_tou_draw_adds_1000_for_both_players() -> None:
    """The 380-380 draw is 1380 on both lines."""
    lines = format_tou(spring_open()).split("\r\n")
    assert lines[5][20:29] == " 1380   4"
    assert lines[6][20:29] == " 1380  +3"


def test_tou_pads_missing_rounds_as_absences() -> None:
    """A player without an entry for a round gets a neutral self-pairing there."""
    record = spring_open()
    division = record.divisions[0]
    withdrawn = dataclasses.replace(
        division.players[4], rounds=division.players[4].rounds[:2]
    )
    division = dataclasses.replace(division, players=(*division.players[:4], withdrawn))
    record = dataclasses.replace(record, divisions=(division,))
    line = format_tou(record).split("\r\n")[7]
    assert line == "Evans-ukaszewicz, To 1350   5  300  +2 1350   5 1350   5"


def test_to_ascii_drops_what_has_no_ascii_form() -> None:
    """Accents decompose to their base letter; Ł has no decomposition and is dropped."""
    assert to_ascii("Zoë Ñúñez") == "Zoe Nunez"
    assert to_ascii("Łukasz") == "ukasz"


# ABSP CSV


def test_absp_csv_matches_the_golden_file_byte_for_byte() -> None:
    """Played games only, first player first, csv-module quoting, CRLF."""
    expected = (GOLDEN / "spring_open_absp.csv").read_bytes()
    assert format_absp_csv(spring_open()).encode("utf-8") == expected


def test_absp_csv_leaves_out_byes_and_forfeits() -> None:
    """Division A's round 3 has one row: the forfeit between 1 and 4 is not a game."""
    rows = format_absp_csv(spring_open()).split("\r\n")
    round_three = [row for row in rows if row.startswith("A,3,")]
    assert round_three == ['A,3,"Björk, Zoë",455,"Chen, Wei",370']
    assert len(rows) == 1 + 9 + 1  # header, nine games, the empty string after CRLF


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-12", "-12"),
        ("+3.5", "+3.5"),
        ("-0.25e3", "-0.25e3"),
        ("Ann = Able", "Ann = Able"),
        ("", ""),
    ],
)
def test_spreadsheet_text_neutralises_formulas_but_not_numbers(text, cell) -> None:
    assert spreadsheet_text(text) == cell


def test_absp_csv_writes_a_formula_name_as_text() -> None:
    record = spring_open()
    division = record.divisions[0]
    players = list(division.players)
    players[0] = dataclasses.replace(players[0], name='=HYPERLINK("http://x","y")')
    renamed = dataclasses.replace(division, name="@A", players=tuple(players))
    text = format_absp_csv(
        dataclasses.replace(record, divisions=(renamed, *record.divisions[1:]))
    )
    row = text.split("\r\n")[1]
    assert row.startswith('\'@A,1,"\'=HYPERLINK(""http://x"",""y"")",400,')


# Errors, raised by both writers


@pytest.mark.parametrize("writer", [format_tou, format_absp_csv])
def test_writers_reject_scores_the_opponent_disagrees_with(writer: Writer) -> None:
    """Player 1 says 400-350 in round 1, player 2 says 350-401."""
    record = replace_entry(spring_open(), 1, 1, own_score=401)
    with pytest.raises(SubmissionError) as caught:
        writer(record)
    assert caught.value.code == "mismatched_game"


@pytest.mark.parametrize("writer", [format_tou, format_absp_csv])
def test_writers_reject_a_game_the_opponent_did_not_play(writer: Writer) -> None:
    """Player 4's round 4 is turned into a bye while player 3 still played 4."""
    record = replace_entry(spring_open(), 4, 4, kind=EntryKind.BYE)
    with pytest.raises(SubmissionError) as caught:
        writer(record)
    assert caught.value.code == "missing_opponent_entry"


@pytest.mark.parametrize("writer", [format_tou, format_absp_csv])
def test_writers_reject_both_players_going_first(writer: Writer) -> None:
    """Round 1: player 2 also claims to have gone first against player 1."""
    record = replace_entry(spring_open(), 2, 1, went_first=True)
    with pytest.raises(SubmissionError) as caught:
        writer(record)
    assert caught.value.code == "mismatched_game"


def test_writers_reject_an_incomplete_game() -> None:
    """A played game without a result cannot be written."""
    record = replace_entry(spring_open(), 1, 1, result=None)
    with pytest.raises(SubmissionError) as caught:
        format_tou(record)
    assert caught.value.code == "incomplete_game"


def test_writers_reject_numbers_out_of_file_order() -> None:
    """Opponent numbers are line numbers, so players must be numbered 1..n in order."""
    record = spring_open()
    division = record.divisions[1]
    shuffled = dataclasses.replace(division, players=division.players[::-1])
    with pytest.raises(SubmissionError) as caught:
        format_tou(dataclasses.replace(record, divisions=(shuffled,)))
    assert caught.value.code == "bad_numbering"


def test_writers_reject_two_entries_for_one_round() -> None:
    """A player with two round-2 entries cannot be written."""
    record = spring_open()
    division = record.divisions[1]
    first = division.players[0]
    doubled = dataclasses.replace(first, rounds=(*first.rounds, first.rounds[1]))
    division = dataclasses.replace(division, players=(doubled, *division.players[1:]))
    with pytest.raises(SubmissionError) as caught:
        format_absp_csv(dataclasses.replace(record, divisions=(division,)))
    assert caught.value.code == "duplicate_round"


def test_tou_rejects_a_date_that_is_not_iso() -> None:
    """The date must be YYYY-MM-DD to be written as DD.MM.YYYY."""
    record = dataclasses.replace(spring_open(), date="09/03/2024")
    with pytest.raises(SubmissionError) as caught:
        format_tou(record)
    assert caught.value.code == "bad_date"
