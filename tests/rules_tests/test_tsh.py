"""tsh ``.t`` files: reading, importing as events, writing, round trips."""

from __future__ import annotations

import pytest

from rules.records import DivisionRecord, EntryKind, PlayerRecord, RoundEntry
from rules.tournament import (
    Board,
    DivisionAdded,
    Extension,
    ForfeitRecorded,
    Outcome,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentError,
    UnpairedRoundRecorded,
    replay,
    tournament_to_records,
)
from rules.tournament.standings import standings
from rules.tsh import TshError, read_t, t_to_events, write_t

ROUND_ROBIN = """\
Smith, Ann 1500 2 3 4; 412 388 401
Jones, Bob 1400 1 4 3; 350 420 377
Chew, Cal 1300 4 1 2; 365 390 377
Dee, Dot 1200 3 2 1; 399 300 380
"""

# Round 1: 1v2, 3v4, 5 has a bye. Round 2: 3 (first) v 1, 5 v 4, 2 forfeits
# without an opponent. Round 3: 1v5 not played yet, 4 v 2, 3 absent.
WITH_BYES_AND_FIRSTS = """\
Alpha, Ann 1800 2 3 5; 400 410; p12 1 2 1
Beta, Bo 1700 1 0 4; 380 -50 388; p12 2 0 2
Gamma, Cy 1650 4 1 0; 420 415 0; p12 1 1 0
Delta, Di 1600 3 5 2; 300 333 390; p12 2 2 1
Epsilon, Ed 1550 0 4 1; 50 350; p12 0 1 2
"""


def imported(text: str, rounds: int = 3, **settings: object):
    events = [
        TournamentCreated("Import", "2025-03-01", "2025-03-01", rounds, **settings),
        DivisionAdded("A"),
        *t_to_events(read_t(text), "A"),
    ]
    return replay(events)


def test_read_t_parses_names_ratings_opponents_scores_and_fields():
    """Each player line: name, rating, opponents by number, scores, extra fields."""
    text = (
        "# Division A\n"
        "\n"
        "Smith, Ann   1500  2 0 ; 412 50 ; p12 1 0 ; board 3 4\n"
        "Jones, Bob 1400.5 1 ;350\n"
    )
    tfile = read_t(text)
    smith, jones = tfile.players
    assert (smith.number, smith.line, smith.name, smith.rating) == (
        1,
        3,
        "Smith, Ann",
        1500,
    )
    assert smith.opponents == (2, 0)
    assert smith.scores == (412, 50)
    assert smith.fields == (Extension("p12", "1 0"), Extension("board", "3 4"))
    assert smith.field("board") == ("3", "4")
    assert smith.field("off") is None
    assert (jones.number, jones.line, jones.rating_text) == (2, 4, "1400.5")
    assert jones.opponents == (1,)
    assert jones.scores == (350,)
    assert tfile.rounds == 2


def test_import_pairs_rounds_and_records_results():
    """Imported games give the same standings as the file's scores."""
    state = imported(ROUND_ROBIN)
    rows = {r.name: r for r in standings(state, "A")}
    assert rows["Smith, Ann"].record == "2-1"
    assert rows["Smith, Ann"].spread == 62 - 2 + 21
    # Round 3: Jones 377 - Chew 377, no pre-adjustment scores in a .t: a draw.
    assert rows["Jones, Bob"].draws == 1
    assert rows["Chew, Cal"].draws == 1
    assert state.players["A-1"].name == "Smith, Ann"
    assert state.round_state("A", 1).pairing.games[0] == Board(1, "A-1", "A-2")


def test_import_of_byes_forfeits_absences_pending_games_and_firsts():
    """Opponent 0: +bye spread a bye, -50 a credited loss, 0 a credit of neither
    (tsh's late entry's round); p12 says who went first; an opponent without a
    score yet is a game not yet played."""
    state = imported(WITH_BYES_AND_FIRSTS)
    cards = state.cards
    assert cards["A-5"].entries[0].kind is EntryKind.BYE
    assert cards["A-2"].entries[1].kind is EntryKind.CREDIT
    assert cards["A-2"].entries[1].outcome is Outcome.LOSS
    assert cards["A-2"].entries[1].round_spread == -50
    assert cards["A-3"].entries[2].kind is EntryKind.CREDIT
    assert cards["A-3"].entries[2].outcome is None
    assert cards["A-1"].entries[2].kind is EntryKind.GAME
    assert cards["A-1"].entries[2].outcome is None
    round_2 = state.round_state("A", 2).pairing.games
    assert Board(1, "A-3", "A-1") in round_2
    assert Board(2, "A-5", "A-4") in round_2
    assert cards["A-4"].entries[2].went_first is True
    assert cards["A-4"].entries[2].outcome is Outcome.WIN


def test_import_with_caller_ids_and_other_bye_scores():
    """Caller-supplied ids are used; a bye score other than the bye spread is an
    unpaired-round award of that spread."""
    text = "Ann Alpha 1500 0; 100\nBo Beta 1400 0; 50\n"
    events = t_to_events(read_t(text), "A", player_ids=["u1", "u2"])
    assert events[0] == PlayerRegistered(
        "u1", "A", "Ann Alpha", 1500, rating_text="1500"
    )
    assert RoundPaired("A", 1, (), ("u2",), events[2].method) in events
    assert UnpairedRoundRecorded(1, "u1", 100) in events


@pytest.mark.parametrize(
    "text", [ROUND_ROBIN, WITH_BYES_AND_FIRSTS], ids=["round_robin", "byes_firsts"]
)
def test_round_trip_read_events_state_write_gives_the_same_text(text):
    """read -> events -> state -> records -> write reproduces a canonical file."""
    state = imported(text)
    division = tournament_to_records(state).divisions[0]
    firsts = "p12" in text
    assert write_t(division, firsts=firsts) == text


def test_round_trip_normalises_spacing_and_drops_comments():
    """Non-canonical spacing and comments read fine and are written canonically."""
    messy = "# header\n" + ROUND_ROBIN.replace(" 2 3 4;", "    2  3 4 ;").replace(
        "Dee, Dot 1200", "\nDee, Dot   1200"
    )
    state = imported(messy)
    assert write_t(tournament_to_records(state).divisions[0]) == ROUND_ROBIN


def test_write_t_is_the_submission_format_for_a_replayed_tournament():
    """Forfeits are written as opponent 0 with +/- the forfeit spread (unrated)."""
    state = replay(
        [
            TournamentCreated("Club", "2025-03-01", "2025-03-01", 2),
            DivisionAdded("A"),
            PlayerRegistered("x", "A", "Xu, Xi", 1500),
            PlayerRegistered("y", "A", "Yo, Ye", 1400),
            PlayerRegistered("z", "A", "Zed, Zo", 0),
            RoundPaired("A", 1, (Board(1, "y", "x"),), ("z",)),
            ResultRecorded(1, "x", "y", 400, 402),
            RoundPaired("A", 2, (Board(1, "x", "z"),), ("y",)),
            ForfeitRecorded(2, "z"),
        ]
    )
    text = write_t(tournament_to_records(state).divisions[0], firsts=True)
    assert text == (
        "Xu, Xi 1500 2 0; 400 50; p12 2 0\n"
        "Yo, Ye 1400 1 0; 402 50; p12 1 0\n"
        "Zed, Zo 0 0 0; 50 -50; p12 0 0\n"
    )
    again = imported(text, rounds=2)
    assert [r.record for r in standings(again, "A")] == [
        r.record for r in standings(state, "A")
    ]


def test_write_t_ends_scores_at_a_game_without_result():
    """Paired but unscored rounds list the opponent and no score, as tsh does."""
    state = replay(
        [
            TournamentCreated("Club", "2025-03-01", "2025-03-01", 2),
            DivisionAdded("A"),
            PlayerRegistered("x", "A", "Xu, Xi", 1500),
            PlayerRegistered("y", "A", "Yo, Ye", 1400),
            RoundPaired("A", 1, (Board(1, "x", "y"),)),
        ]
    )
    assert write_t(tournament_to_records(state).divisions[0]) == (
        "Xu, Xi 1500 2;\nYo, Ye 1400 1;\n"
    )


# --- Errors ---------------------------------------------------------------------------


def test_syntax_error_names_the_physical_line():
    """Errors count blank and comment lines: 'line 4: ...'."""
    text = "# comment\nSmith, Ann 1500 2; 400\n\nJones Bob; 300\n"
    with pytest.raises(TshError) as caught:
        read_t(text)
    assert caught.value.code == "tsh_syntax"
    assert caught.value.line == 4
    assert caught.value.message.startswith("line 4:")
    assert isinstance(caught.value, TournamentError)


def test_bad_scores_are_a_syntax_error():
    """Scores must be whole numbers."""
    with pytest.raises(TshError) as caught:
        read_t("Smith, Ann 1500 2; 4-00\n")
    assert (caught.value.code, caught.value.line) == ("tsh_syntax", 1)


@pytest.mark.parametrize(
    ("text", "code", "line"),
    [
        ("Ann A 1500 2; 400\nBo B 1400 0; 300\n", "tsh_pairing_mismatch", 1),
        ("Ann A 1500 3; 400\nBo B 1400 1; 300\n", "tsh_unknown_opponent", 1),
        ("Ann A 1500 1; 400\nBo B 1400 0; 300\n", "tsh_unknown_opponent", 1),
        ("Ann A 1500 2; 400\nBo B 1400 1;\n", "tsh_missing_score", 2),
        ("Ann A 1500 2; 400 300\nBo B 1400 1; 300\n", "tsh_missing_score", 1),
    ],
)
def test_import_errors_name_the_line(text, code, line):
    """Inconsistent pairings and missing scores are refused with the line."""
    with pytest.raises(TshError) as caught:
        t_to_events(read_t(text), "A")
    assert caught.value.code == code
    assert caught.value.line == line


def test_a_round_of_credits_only_is_kept_as_an_empty_pairing():
    """Round 1 of neither player is a game (0 and 0 each, tsh's "neither"): read
    as tsh reads it, an empty imported round with the two credits."""
    events = t_to_events(read_t("Ann A 1500 0; 0\nBo B 1400 0; 0\n"), "A")
    pairing = next(e for e in events if isinstance(e, RoundPaired))
    assert (pairing.games, pairing.byes) == ((), ())
    state = replay(
        [
            TournamentCreated("T", "2026-01-01", "2026-01-01", 1),
            DivisionAdded("A"),
            *events,
        ]
    )
    assert all(state.cards[pid].entries[0] is not None for pid in ("A-1", "A-2"))


def test_import_refuses_the_wrong_number_of_ids():
    """One caller id per player line."""
    with pytest.raises(TshError) as caught:
        t_to_events(read_t("Ann A 1500 0; 50\n"), "A", player_ids=["a", "b"])
    assert caught.value.code == "tsh_player_ids"


def _record(*players: PlayerRecord) -> DivisionRecord:
    return DivisionRecord("A", players)


@pytest.mark.parametrize("name", ["Semi; Colon", "#Hash", "Player 2", " Space"])
def test_write_t_refuses_names_it_cannot_write_unambiguously(name):
    """A name that would not read back as itself is refused."""
    with pytest.raises(TshError) as caught:
        write_t(_record(PlayerRecord(1, name, 1500, ())))
    assert caught.value.code == "tsh_unwritable_name"


def test_write_t_writes_a_gap_in_results_as_an_empty_round_and_refuses_numbering():
    """A game without a result before a round with one is written as tsh holds an
    empty round (0 and 0: it counts as the unscored game does); numbers out of
    line order are refused."""
    rounds = (
        RoundEntry(1, EntryKind.GAME, opponent=2),
        RoundEntry(2, EntryKind.BYE, own_score=50, result=1.0),
    )
    assert write_t(_record(PlayerRecord(1, "Ann", 1500, rounds))) == (
        "Ann 1500 0 0; 0 50\n"
    )
    with pytest.raises(TshError) as caught:
        write_t(_record(PlayerRecord(2, "Ann", 1500, ())))
    assert caught.value.code == "tsh_player_numbers"


def test_imported_events_are_applied_by_the_ordinary_rules():
    """A .t with more rounds than the tournament is refused by apply itself."""
    with pytest.raises(TournamentError) as caught:
        imported(ROUND_ROBIN, rounds=2)
    assert caught.value.code == "invalid_round"
