"""The ABSP results CSV and the game checks every submission writer shares,
against hand-made golden files."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from anyascii import anyascii

from rules.records import EntryKind, TournamentRecord
from rules.submissions import (
    SubmissionError,
    absp_name,
    format_absp_csv,
    spreadsheet_text,
)
from rules.tou import format_tou

from .records import replace_entry, spring_open

GOLDEN = Path(__file__).parent / "golden"

Writer = Callable[[TournamentRecord], str]
tou = partial(format_tou, transliterate=anyascii)


# ABSP CSV


def test_absp_csv_matches_the_golden_file_byte_for_byte() -> None:
    """No header; played games only; the player who went first as Player1; names
    as First Last; by round, then the lower player number; CRLF."""
    expected = (GOLDEN / "spring_open_absp.csv").read_bytes()
    assert format_absp_csv(spring_open()).encode("utf-8") == expected


def test_absp_csv_leaves_out_byes_and_forfeits() -> None:
    """Division A's round 3 has one row: the forfeit between 1 and 4 is not a game."""
    rows = format_absp_csv(spring_open()).split("\r\n")
    round_three = [row for row in rows if row.startswith("A,3,")]
    assert round_three == ["A,3,Zoë Björk,455,Wei Chen,370"]
    assert len(rows) == 9 + 1  # nine games, the empty string after the last CRLF
    assert not rows[0].startswith("Division")


@pytest.mark.parametrize(
    ("name", "printed"),
    [
        ("Anderson, Ann", "Ann Anderson"),
        ("Evans-Łukaszewicz, Tom", "Tom Evans-Łukaszewicz"),
        ("Smith, Jr., John", "John Smith, Jr."),
        ("Ann Able", "Ann Able"),
        ("Cher,", "Cher,"),
    ],
)
def test_absp_names_are_printed_first_last(name: str, printed: str) -> None:
    assert absp_name(name) == printed


def test_absp_player1_is_who_went_first_else_the_lower_number() -> None:
    """Round 4: Björk (2) went first against Anderson (1); with no first recorded,
    the lower number (Anderson) is Player1."""
    rows = format_absp_csv(spring_open()).split("\r\n")
    assert "A,4,Zoë Björk,401,Ann Anderson,399" in rows
    unknown = replace_entry(
        replace_entry(spring_open(), 1, 4, went_first=None), 2, 4, went_first=None
    )
    rows = format_absp_csv(unknown).split("\r\n")
    assert "A,4,Ann Anderson,399,Zoë Björk,401" in rows


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
    players[0] = dataclasses.replace(players[0], name='=HYPERLINK("http://x")')
    renamed = dataclasses.replace(division, name="@A", players=tuple(players))
    text = format_absp_csv(
        dataclasses.replace(record, divisions=(renamed, *record.divisions[1:]))
    )
    row = text.split("\r\n")[0]
    assert row.startswith('\'@A,1,"\'=HYPERLINK(""http://x"")",400,')


# Errors, raised by both writers


@pytest.mark.parametrize("writer", [tou, format_absp_csv])
def test_writers_reject_scores_the_opponent_disagrees_with(writer: Writer) -> None:
    """Player 1 says 400-350 in round 1, player 2 says 350-401."""
    record = replace_entry(spring_open(), 1, 1, own_score=401)
    with pytest.raises(SubmissionError) as caught:
        writer(record)
    assert caught.value.code == "mismatched_game"


@pytest.mark.parametrize("writer", [tou, format_absp_csv])
def test_writers_reject_a_game_the_opponent_did_not_play(writer: Writer) -> None:
    """Player 4's round 4 is turned into a bye while player 3 still played 4."""
    record = replace_entry(spring_open(), 4, 4, kind=EntryKind.BYE)
    with pytest.raises(SubmissionError) as caught:
        writer(record)
    assert caught.value.code == "missing_opponent_entry"


@pytest.mark.parametrize("writer", [tou, format_absp_csv])
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
        tou(record)
    assert caught.value.code == "incomplete_game"


def test_writers_reject_numbers_out_of_file_order() -> None:
    """Opponent numbers are line numbers, so players must be numbered 1..n in order."""
    record = spring_open()
    division = record.divisions[1]
    shuffled = dataclasses.replace(division, players=division.players[::-1])
    with pytest.raises(SubmissionError) as caught:
        tou(dataclasses.replace(record, divisions=(shuffled,)))
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
