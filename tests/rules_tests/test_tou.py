"""AUPAIR .TOU files: written, read and imported as the WESPA rating programs read
them, against a hand-made golden file and hand-counted records."""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

import pytest
from anyascii import anyascii

from rules.records import (
    DivisionRecord,
    EntryKind,
    PlayerRecord,
    RoundEntry,
    TournamentRecord,
)
from rules.submissions import SubmissionError
from rules.tou import (
    TouError,
    TouRecord,
    format_tou,
    read_records,
    read_tou,
    tou_to_events,
)
from rules.tournament import (
    Outcome,
    RoundAwarded,
    RoundPaired,
    TieWinRecorded,
    TournamentCreated,
    UnpairedRoundRecorded,
    replay,
    tournament_to_records,
)

from .records import game, replace_entry, spring_open

GOLDEN = Path(__file__).parent / "golden"
tou = partial(format_tou, transliterate=anyascii)


# Writing ----------------------------------------------------------------------------


def test_tou_matches_the_golden_file_byte_for_byte() -> None:
    """Byes and forfeits by meaning, a draw, a tie-rule win, transliterated names."""
    assert (
        tou(spring_open()).encode("ascii") == (GOLDEN / "spring_open.TOU").read_bytes()
    )


def test_tou_is_ascii_with_crlf_line_ends() -> None:
    text = tou(spring_open())
    assert text.isascii()
    assert text.endswith("*** END OF FILE ***\r\n")
    assert text.count("\n") == text.count("\r\n") == 14


def test_tou_header_and_high_word_line() -> None:
    """Line 1 is *M and DD.MM.YYYY; a division's second line has 0 in column 39."""
    lines = tou(spring_open()).split("\r\n")
    assert lines[0] == "*M09.03.2024 Cafe Spring Open"
    assert lines[1] == "*A"
    assert lines[2] == " " * 38 + "0"


def test_names_are_transliterated_not_stripped() -> None:
    """Łukasz Żółć is Lukasz Zolc (not "ukasz Zoc"); what the function leaves beyond
    ASCII becomes ?."""
    record = spring_open()
    division = record.divisions[0]
    renamed = dataclasses.replace(division.players[0], name="Łukasz Żółć")
    division = dataclasses.replace(division, players=(renamed, *division.players[1:]))
    text = tou(dataclasses.replace(record, divisions=(division,)))
    assert text.split("\r\n")[3].startswith("Lukasz Zolc          ")
    lazy = format_tou(record, transliterate=lambda name: name)
    assert lazy.isascii()
    assert "Bj?rk, Zo?" in lazy


def test_a_round_block_is_space_score4_space_opponent3() -> None:
    """Zoë's line: 350 against 1, a win over 5 (410 + 2000), 2455 going first."""
    line = tou(spring_open()).split("\r\n")[4]
    assert line[20:] == "  350   1 2410   5 2455  +3 2401  +1"
    assert [line[20 + 9 * i : 29 + 9 * i] for i in range(4)][2] == " 2455  +3"


def test_byes_and_forfeits_are_written_by_meaning() -> None:
    """Tom (5): a bye won (2000 + 50), a game, absent (the missed game, 0), a
    withdrawal's forfeit (-50), all against himself; José (4): bye, forfeit loss."""
    lines = tou(spring_open()).split("\r\n")
    assert lines[7][20:] == " 2050   5  300  +2    0   5  -50   5"
    assert lines[6][20:] == " 1380  +3 2050   4  -50   4 2433   3"


def test_a_half_bye_is_1350() -> None:
    """The draw band against oneself, only for a half-bye (a result of a half)."""
    record = replace_entry(spring_open(), 4, 2, result=0.5)
    assert tou(record).split("\r\n")[6][29:38] == " 1350   4"


def test_a_draw_adds_1000_for_both_players() -> None:
    lines = tou(spring_open()).split("\r\n")
    assert lines[5][20:29] == " 1380   4"
    assert lines[6][20:29] == " 1380  +3"


def test_missing_rounds_are_missed_games() -> None:
    record = spring_open()
    division = record.divisions[0]
    short = dataclasses.replace(
        division.players[4], rounds=division.players[4].rounds[:2]
    )
    division = dataclasses.replace(division, players=(*division.players[:4], short))
    line = tou(dataclasses.replace(record, divisions=(division,))).split("\r\n")[7]
    assert line[20:] == " 2050   5  300  +2    0   5    0   5"


def big_division(size: int = 120) -> DivisionRecord:
    """Players 1..size; round 1 pairs 1-2, 3-4, ...: the odd player goes first and
    wins 400-350. Round 2 pairs i with size + 1 - i, the higher number first, and
    the higher number wins 380-360."""
    players = []
    for number in range(1, size + 1):
        partner = number + 1 if number % 2 else number - 1
        other = size + 1 - number
        players.append(
            PlayerRecord(
                number,
                f"Player {number}",
                1500,
                (
                    game(
                        1,
                        partner,
                        *((400, 350, 1) if number % 2 else (350, 400, 0)),
                        bool(number % 2),
                    ),
                    game(
                        2,
                        other,
                        *((380, 360, 1) if number > other else (360, 380, 0)),
                        number > other,
                    ),
                ),
            )
        )
    return DivisionRecord("Open", tuple(players))


def test_an_opponent_of_100_or_more_drops_the_plus_and_the_row_reads_whole() -> None:
    """Player 99 went first against 100 in round 1: the 3 columns hold 100, with no
    +; in round 2 99 went first against 22: +22. Every line still splits into a
    name and two fields a round."""
    record = TournamentRecord("Big", "2024-05-01", (big_division(),))
    lines = tou(record).split("\r\n")[3:-2]
    assert lines[98] == "Player 99".ljust(20) + " 2400 100 2380 +22"
    assert lines[21] == "Player 22".ljust(20) + "  350  21  360  99"
    for line in lines:
        fields = line[20:].split()
        assert len(fields) == 4
        assert all(field.lstrip("+").isdigit() for field in fields)


def test_a_score_or_number_that_does_not_fit_is_refused() -> None:
    record = replace_entry(
        replace_entry(spring_open(), 1, 1, own_score=1000), 2, 1, opponent_score=1000
    )
    with pytest.raises(SubmissionError) as caught:
        tou(record)
    assert caught.value.code == "unwritable_round"


def test_tou_rejects_a_date_that_is_not_iso() -> None:
    record = dataclasses.replace(spring_open(), date="09/03/2024")
    with pytest.raises(SubmissionError) as caught:
        tou(record)
    assert caught.value.code == "bad_date"


# Reading, as the rating programs count ----------------------------------------------


def test_the_golden_file_reads_as_hand_counted_records() -> None:
    """Games by their score bands with the score difference; byes, forfeits and
    the missed game against oneself: win, loss or nothing, no spread."""
    records = read_records(read_tou((GOLDEN / "spring_open.TOU").read_text("ascii")))
    assert records == {
        "A": (
            TouRecord(2, 2, 0, 50 - 30 - 2),
            TouRecord(3, 1, 0, -50 + 110 + 85 + 2),
            TouRecord(1, 2, 1, 30 - 85 - 83),
            TouRecord(2, 1, 1, 83),
            TouRecord(1, 2, 0, -110),
        ),
        "B": (TouRecord(2, 0, 0, 167), TouRecord(0, 2, 0, -167), TouRecord(2, 0, 0, 0)),
    }


def test_the_file_is_read_back_as_written() -> None:
    tou_file = read_tou(tou(spring_open()))
    assert (tou_file.date, tou_file.name) == ("2024-03-09", "Cafe Spring Open")
    assert [d.name for d in tou_file.divisions] == ["A", "B"]
    anderson = tou_file.divisions[0].players[0]
    assert (anderson.number, anderson.line, anderson.name) == (1, 4, "Anderson, Ann")
    assert [(b.score, b.opponent, b.first) for b in anderson.blocks] == [
        (2400, 2, True),
        (390, 3, True),
        (2050, 1, False),
        (399, 2, False),
    ]


def test_a_big_division_reads_every_row() -> None:
    """The records of a 120-player event: two games each, 120 won and 120 lost;
    player 1 won round 1 (+50) and lost to 120 (-20); 2 lost both; 119 won both."""
    record = TournamentRecord("Big", "2024-05-01", (big_division(),))
    rows = read_records(read_tou(tou(record)))["Open"]
    assert len(rows) == 120
    assert all(row.wins + row.losses == 2 for row in rows)
    assert sum(row.wins for row in rows) == 120
    assert rows[0] == TouRecord(1, 1, 0, 50 - 20)
    assert (rows[1].wins, rows[118].wins) == (0, 2)


@pytest.mark.parametrize(
    ("text", "code", "line"),
    [
        ("*M31.02.2024 X\r\n*** END OF FILE ***\r\n", "tou_date", 1),
        ("Spring\r\n", "tou_date", 1),
        ("*M01.02.2024 X\r\n*A\r\nAnn Able\r\n", "tou_truncated", None),
        ("*M01.02.2024 X\r\nAnn Able             2400   2\r\n", "tou_syntax", 2),
        ("*M01.02.2024 X\r\n*A\r\nAnn Able             2400  +\r\n", "tou_syntax", 3),
        (
            "*M01.02.2024 X\r\n*A\r\nAnn Able             2400   2 350\r\n",
            "tou_syntax",
            3,
        ),
        ("*M01.02.2024 X\r\n*A\r\nAnn Able             24x0   2\r\n", "tou_syntax", 3),
    ],
)
def test_bad_files_are_refused_with_the_line(
    text: str, code: str, line: int | None
) -> None:
    with pytest.raises(TouError) as caught:
        read_tou(text)
    assert (caught.value.code, caught.value.line) == (code, line)


def test_lines_that_disagree_about_a_game_are_refused() -> None:
    text = (
        "*M01.02.2024 X\r\n*A\r\n"
        "Ann Able             2400  +2\r\n"
        "Ben Bell             2350   1\r\n"
        "*** END OF FILE ***\r\n"
    )
    with pytest.raises(TouError) as caught:
        read_records(read_tou(text))
    assert (caught.value.code, caught.value.line) == ("tou_mismatch", 3)


# Importing --------------------------------------------------------------------------


def importable() -> TournamentRecord:
    """Spring Open without the tie won on the pre-adjustment scores (B, round 2),
    which a .TOU cannot carry: Quinn wins 372-370 instead."""
    record = spring_open()
    division = record.divisions[1]
    park, quinn = division.players[1], division.players[2]
    park = dataclasses.replace(
        park, rounds=(park.rounds[0], game(2, 3, 370, 372, 0, False))
    )
    quinn = dataclasses.replace(
        quinn, rounds=(quinn.rounds[0], game(2, 2, 372, 370, 1, True))
    )
    division = dataclasses.replace(division, players=(division.players[0], park, quinn))
    return dataclasses.replace(record, divisions=(record.divisions[0], division))


def imported(text: str) -> tuple[list[object], TournamentRecord]:
    tou_file = read_tou(text)
    count = sum(len(d.players) for d in tou_file.divisions)
    events = tou_to_events(
        tou_file,
        existing_divisions=(),
        player_ids=[f"p{i}" for i in range(count)],
    )
    state = replay(
        [
            TournamentCreated(
                name=tou_file.name,
                start_date=tou_file.date,
                end_date=tou_file.date,
                rounds=4,
            ),
            *events,
        ]
    )
    return events, tournament_to_records(state)


def test_import_then_export_reads_the_same() -> None:
    """The round trip .TOU -> events -> .TOU gives every player the same record."""
    text = tou(importable())
    _, record = imported(text)
    assert read_records(read_tou(tou(record))) == read_records(read_tou(text))


def test_import_pairs_who_went_first_byes_and_credited_losses() -> None:
    events, record = imported(tou(importable()))
    round_one = next(e for e in events if isinstance(e, RoundPaired) and e.round == 1)
    assert [(b.first, b.second) for b in round_one.games] == [
        ("p0", "p1"),
        ("p3", "p2"),
    ]
    assert round_one.byes == ("p4",)
    credits = [e for e in events if isinstance(e, UnpairedRoundRecorded)]
    assert [(c.round, c.player_id, c.spread) for c in credits] == [
        (3, "p3", -50),
        (4, "p4", -50),
    ]
    ann = record.divisions[0].players[0]
    assert [e.kind for e in ann.rounds] == [
        EntryKind.GAME,
        EntryKind.GAME,
        EntryKind.BYE,
        EntryKind.GAME,
    ]
    assert ann.rating == 0  # a .TOU has no ratings: a ratings list fills them


def test_who_went_first_is_read_from_either_line_in_a_big_division() -> None:
    """Round 2: 99 went first against 22 (+22 on 99's line), read from 22's side
    too; the round trip reads the same."""
    text = tou(TournamentRecord("Big", "2024-05-01", (big_division(),)))
    events, _ = imported(text)
    pairings = {e.round: e for e in events if isinstance(e, RoundPaired)}
    by_pair = {frozenset((b.first, b.second)): b.first for b in pairings[2].games}
    assert by_pair[frozenset(("p21", "p98"))] == "p98"  # 99 went first (round 2)
    assert read_records(read_tou(tou(imported(text)[1]))) == read_records(
        read_tou(text)
    )


def test_a_tie_won_on_the_adjustments_is_kept_as_recorded() -> None:
    """Park-Quinn, B round 2: 2372 against 372, a win at equal scores. Kept as a
    win decided by the tie-break (the file gives no pre-adjustment scores),
    flagged, and the whole file comes back byte for byte."""
    text = tou(spring_open())
    events, record = imported(text)
    ties = [e for e in events if isinstance(e, TieWinRecorded)]
    assert [(t.round, t.winner, t.loser, t.score) for t in ties] == [
        (2, "p7", "p6", 372)
    ]
    quinn = record.divisions[1].players[2]
    assert quinn.rounds[1].result == 1.0
    assert "tou_tie_win" in {note.code for note in read_tou(text).notes}
    assert tou(record) == text


def test_a_half_bye_is_imported_as_a_half() -> None:
    """1350 against oneself: a half-bye, a half and no spread, written back as
    1350."""
    text = tou(replace_entry(importable(), 4, 2, result=0.5))
    events, record = imported(text)
    awarded = [e for e in events if isinstance(e, RoundAwarded)]
    assert [(a.round, a.player_id, a.outcome, a.spread) for a in awarded] == [
        (2, "p3", Outcome.DRAW, 0)
    ]
    diaz = record.divisions[0].players[3]
    assert (diaz.rounds[1].kind, diaz.rounds[1].result) == (EntryKind.CREDIT, 0.5)
    assert ("tou_half_bye", 7) in {(n.code, n.line) for n in read_tou(text).notes}
    assert tou(record) == text
    assert read_records(read_tou(tou(record))) == read_records(read_tou(text))


def lines(*players: str) -> str:
    return (
        "".join(
            f"{line}\r\n"
            for line in ("*M01.02.2024 Odd Open", "*A", "0".rjust(39), *players)
        )
        + "*** END OF FILE ***\r\n"
    )


def test_a_name_wider_than_20_columns_pushes_the_rounds_right() -> None:
    text = lines(
        "Evans-Lukaszewicz, Tomasz 2400  +2  350   3",
        "Bell, Ben" + " " * 11 + "  350   1 2050   2",
        "Cole, Cy" + " " * 12 + " 2050   3 2360  +1",
    )
    tou_file = read_tou(text)
    evans = tou_file.divisions[0].players[0]
    assert evans.name == "Evans-Lukaszewicz, Tomasz"
    assert [(b.score, b.opponent, b.first) for b in evans.blocks] == [
        (2400, 2, True),
        (350, 3, False),
    ]
    assert [(n.code, n.line) for n in tou_file.notes] == [("tou_wide_name", 4)]
    assert read_records(tou_file)["A"] == (
        TouRecord(1, 1, 0, 50 - 10),
        TouRecord(1, 1, 0, -50),
        TouRecord(2, 0, 0, 10),
    )
    imported(text)  # imports: nothing refused


def test_glued_and_negative_tokens_are_read_as_numbers() -> None:
    """Round 2 of Ann: ``-10`` glued to the block before it (a loss of 10
    against herself), read as the WESPA programs read a line: numbers in pairs."""
    text = lines(
        "Able, Ann" + " " * 11 + " 2400  +2-10   1",
        "Bell, Ben" + " " * 11 + "  350   1 2050   2",
    )
    tou_file = read_tou(text)
    ann = tou_file.divisions[0].players[0]
    assert [(b.score, b.opponent) for b in ann.blocks] == [(2400, 2), (-10, 1)]
    assert ("tou_tokens", 4) in {(n.code, n.line) for n in tou_file.notes}
    events, record = imported(text)
    credits = [e for e in events if isinstance(e, UnpairedRoundRecorded)]
    assert [(c.round, c.player_id, c.spread) for c in credits] == [(2, "p0", -10)]
    assert read_records(read_tou(tou(record))) == read_records(tou_file)


def test_a_blank_round_is_a_missed_round() -> None:
    text = lines(
        "Able, Ann" + " " * 11 + " 2400  +2" + " " * 9 + "  380   2",
        "Bell, Ben" + " " * 11 + "  350   1 2050   2 2390  +1",
    )
    tou_file = read_tou(text)
    ann = tou_file.divisions[0].players[0]
    assert [(b.score, b.opponent) for b in ann.blocks][1] == (0, 0)
    assert ("tou_blank_round", 4) in {(n.code, n.line) for n in tou_file.notes}
    assert read_records(tou_file)["A"] == (
        TouRecord(1, 1, 0, 50 - 10),
        TouRecord(2, 1, 0, -50 + 10),
    )
    _, record = imported(text)
    assert record.divisions[0].players[0].rounds[1].kind is EntryKind.UNPLAYED


def test_self_pairings_are_kept_by_band() -> None:
    """Against oneself: 2075 a win of 75 (not the bye's 50), 2000 a half (a win
    band with no spread), 2050 the bye, -30 a loss of 30."""
    text = lines(
        "Able, Ann" + " " * 11 + " 2400  +2 2075   1",
        "Bell, Ben" + " " * 11 + "  350   1 2000   2",
        "Cole, Cy" + " " * 12 + " 2050   3 2400  +4",
        "Dane, Di" + " " * 12 + "  -30   4  380   3",
    )
    tou_file = read_tou(text)
    assert read_records(tou_file)["A"] == (
        TouRecord(2, 0, 0, 50),
        TouRecord(0, 1, 1, -50),
        TouRecord(2, 0, 0, 20),
        TouRecord(0, 2, 0, -20),
    )
    assert "tou_zero_spread_win" in {note.code for note in tou_file.notes}
    events, record = imported(text)
    awarded = {
        (e.player_id, e.outcome, e.spread)
        for e in events
        if isinstance(e, RoundAwarded)
    }
    assert awarded == {("p0", Outcome.WIN, 75), ("p1", Outcome.DRAW, 0)}
    pairing = next(e for e in events if isinstance(e, RoundPaired) and e.round == 1)
    assert pairing.byes == ("p2",)
    assert read_records(read_tou(tou(record))) == read_records(tou_file)


def test_no_plus_is_invented_where_the_file_has_none() -> None:
    """A writer that marks no first move: the export marks none either."""
    text = lines(
        "Able, Ann" + " " * 11 + " 2400   2 2380   2",
        "Bell, Ben" + " " * 11 + "  350   1  360   1",
    )
    events, record = imported(text)
    pairing = next(e for e in events if isinstance(e, RoundPaired))
    assert pairing.games[0].first_known is False
    assert record.divisions[0].players[0].rounds[0].went_first is None
    assert tou(record) == text


def test_a_win_or_loss_of_no_spread_is_written_in_its_band() -> None:
    """A forfeit win of spread 0 is 2001 (2000 reads as a half), a forfeit loss
    of spread 0 is -1 (0 reads as a missed round)."""
    record = replace_entry(importable(), 5, 1, kind=EntryKind.FORFEIT_WIN, own_score=0)
    record = replace_entry(record, 4, 3, kind=EntryKind.FORFEIT_LOSS, own_score=0)
    text = tou(record)
    tom, diaz = (read_tou(text).divisions[0].players[i] for i in (4, 3))
    assert (tom.blocks[0].score, diaz.blocks[2].score) == (2001, -1)
    # Still Tom's win and Diaz's loss, as the bye and the -50 were.
    assert read_records(read_tou(text)) == read_records(read_tou(tou(importable())))


def test_the_missed_game_imports_as_nothing() -> None:
    """Tom's round 3 (0 against himself) is an unplayed round after the import."""
    _, record = imported(tou(importable()))
    tom = record.divisions[0].players[4]
    assert tom.rounds[2] == RoundEntry(3, EntryKind.UNPLAYED)


def test_a_round_in_which_no_one_played_is_kept_empty() -> None:
    """Round 2 is blank on both lines (a missed round each): an empty imported
    round, flagged; round 3 stands where the file has it."""
    text = lines(
        "Able, Ann" + " " * 11 + " 2400  +2" + " " * 9 + "  380   2",
        "Bell, Ben" + " " * 11 + "  350   1" + " " * 9 + " 2390  +1",
    )
    tou_file = read_tou(text)
    assert "tou_empty_round" in {note.code for note in tou_file.notes}
    events, record = imported(text)
    pairing = next(e for e in events if isinstance(e, RoundPaired) and e.round == 2)
    assert (pairing.games, pairing.byes) == ((), ())
    ann = record.divisions[0].players[0]
    assert [e.kind for e in ann.rounds] == [
        EntryKind.GAME,
        EntryKind.UNPLAYED,
        EntryKind.GAME,
    ]
    assert read_records(read_tou(tou(record))) == read_records(tou_file)
