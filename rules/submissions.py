"""The ABSP results CSV, and the game checks every submission writer shares.

The writers take a ``rules.records.TournamentRecord`` and return the file's text; the
caller encodes it. The NASPA ``.t`` file is written by ``rules.tsh``, the AUPAIR
``.TOU`` by ``rules.tou``.

ABSP CSV, as the ABSP database reads results: one row per played game, no header,
the columns ``Division,Round,Player1,Score1,Player2,Score2`` (``ABSP_CSV_COLUMNS``),
quoted by the ``csv`` module, with CRLF line ends (its default, RFC 4180).
``Player1`` is the player who went first, or the lower-numbered player when neither is
recorded as first. Names written ``Last, First`` (tsh's way) are printed
``First Last``. Byes, forfeits and absences are left out: the ABSP rates games. Rows
run division by division in record order, then by round, then by the lower player
number of the pair. A name that a spreadsheet would run as a formula
(``=HYPERLINK(…)``) is written with a leading ``'`` (``spreadsheet_text``).

Every writer checks each played game against the opponent's entry for the same round
(``checked_game``) and raises ``SubmissionError`` when the two sides disagree.

Usage::

    Path("spring.csv").write_text(format_absp_csv(record), encoding="utf-8", newline="")
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from rules.errors import RulesError
from rules.records import (
    DivisionRecord,
    EntryKind,
    PlayerRecord,
    RoundEntry,
    TournamentRecord,
)

__all__ = [
    "ABSP_CSV_COLUMNS",
    "CheckedGame",
    "SubmissionError",
    "absp_name",
    "checked_game",
    "division_rounds",
    "format_absp_csv",
    "spreadsheet_text",
]

ABSP_CSV_COLUMNS = ("Division", "Round", "Player1", "Score1", "Player2", "Score2")


class SubmissionError(RulesError):
    """Raised when a record cannot be written as a submission file.

    ``code`` is stable (``bad_date``, ``bad_numbering``, ``duplicate_round``,
    ``incomplete_game``, ``unknown_player``, ``missing_opponent_entry``,
    ``mismatched_game``, ``unwritable_round``); the message names the division,
    round and players.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# A text cell starting with one of these is read as a formula by spreadsheets
# (OWASP, "CSV Injection"): =, +, - and @, and tab or carriage return before them.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_text(text: str) -> str:
    """Return a CSV text cell that a spreadsheet shows as text, never runs.

    A cell starting with a formula character gets a leading ``'`` (OWASP's advice),
    unless it is a plain number (``-12``, ``+3.5``), which no spreadsheet runs.
    """
    if text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


@dataclass(frozen=True, slots=True)
class CheckedGame:
    """A played game, checked against the opponent's entry."""

    round: int
    player: int
    opponent: int
    own_score: int
    opponent_score: int
    result: float
    went_first: bool


def _entries_by_round(
    division: DivisionRecord, player: PlayerRecord
) -> dict[int, RoundEntry]:
    entries: dict[int, RoundEntry] = {}
    for entry in player.rounds:
        if entry.round in entries:
            raise SubmissionError(
                "duplicate_round",
                f"division {division.name}: player {player.number} has two entries "
                f"for round {entry.round}",
            )
        entries[entry.round] = entry
    return entries


def _check_numbering(division: DivisionRecord) -> None:
    numbers = [player.number for player in division.players]
    if numbers != list(range(1, len(numbers) + 1)):
        raise SubmissionError(
            "bad_numbering",
            f"division {division.name}: players must be numbered 1 to "
            f"{len(numbers)} in file order, got {numbers}",
        )


def _no_result_yet(
    division: DivisionRecord, entry: RoundEntry, player: PlayerRecord
) -> str:
    """The director's message for a paired game without a result: which round,
    board and players, and what to do."""
    names = {p.number: p.name for p in division.players}
    board = f", board {entry.board}" if entry.board is not None else ""
    opponent = names.get(entry.opponent or 0, f"player {entry.opponent}")
    # The first mover first, as the round's pairings list the board.
    first, second = (
        (opponent, player.name)
        if entry.went_first is False
        else (player.name, opponent)
    )
    return (
        f"Division {division.name}, round {entry.round}{board}: {first} v "
        f"{second} has no result yet. Enter it (or a forfeit) before writing "
        "this file."
    )


def checked_game(
    division: DivisionRecord,
    player: PlayerRecord,
    entry: RoundEntry,
    rounds: dict[int, dict[int, RoundEntry]],
) -> CheckedGame:
    """Return a GAME entry as a checked game; raise SubmissionError when the two
    sides disagree or the game is incomplete."""
    where = f"division {division.name}, round {entry.round}, player {player.number}"
    result = entry.result
    if result is None and entry.opponent is not None:
        message = _no_result_yet(division, entry, player)
        raise SubmissionError("incomplete_game", message)
    if (
        entry.opponent is None
        or entry.own_score is None
        or entry.opponent_score is None
        or result is None
    ):
        raise SubmissionError(
            "incomplete_game",
            f"{where}: a played game needs an opponent, both scores and a result",
        )
    if entry.opponent not in rounds:
        raise SubmissionError(
            "unknown_player", f"{where}: opponent {entry.opponent} is not listed"
        )
    mirror = rounds[entry.opponent].get(entry.round)
    if (
        mirror is None
        or mirror.kind is not EntryKind.GAME
        or mirror.opponent != player.number
    ):
        raise SubmissionError(
            "missing_opponent_entry",
            f"{where}: player {entry.opponent} has no game against {player.number}",
        )
    if (
        mirror.own_score != entry.opponent_score
        or mirror.opponent_score != entry.own_score
        or mirror.result is None
        or mirror.result + result != 1
        or (entry.went_first and mirror.went_first)
    ):
        raise SubmissionError(
            "mismatched_game",
            f"{where}: the entries of players {player.number} and {entry.opponent} "
            "disagree on the scores, the result or who went first",
        )
    return CheckedGame(
        round=entry.round,
        player=player.number,
        opponent=entry.opponent,
        own_score=entry.own_score,
        opponent_score=entry.opponent_score,
        result=result,
        went_first=bool(entry.went_first),
    )


def division_rounds(division: DivisionRecord) -> dict[int, dict[int, RoundEntry]]:
    """Return each player's entries by round, by player number; raise
    SubmissionError when players are not numbered 1..n or a round is doubled."""
    _check_numbering(division)
    return {
        player.number: _entries_by_round(division, player)
        for player in division.players
    }


# ABSP CSV -----------------------------------------------------------------------


def absp_name(name: str) -> str:
    """Return a ``Last, First`` name as ``First Last`` (other names as they are)."""
    last, comma, first = name.rpartition(",")
    if not comma or not last.strip() or not first.strip():
        return name
    return f"{first.strip()} {last.strip()}"


def format_absp_csv(tournament: TournamentRecord) -> str:
    """Return the tournament's played games as an ABSP results CSV (CRLF line ends,
    no header).

    The columns, the row order, the names and who is ``Player1`` are the module
    docstring's. Raises ``SubmissionError`` like ``checked_game``.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for division in tournament.divisions:
        rounds = division_rounds(division)
        names = {player.number: absp_name(player.name) for player in division.players}
        games: list[CheckedGame] = []
        for player in division.players:
            for entry in rounds[player.number].values():
                if entry.kind is not EntryKind.GAME:
                    continue
                game = checked_game(division, player, entry, rounds)
                mirror = rounds[game.opponent][game.round]
                # Each game once: from the side of the player who went first, or of
                # the lower number when neither is recorded as first.
                first = game.went_first or (
                    not mirror.went_first and game.player < game.opponent
                )
                if first:
                    games.append(game)
        games.sort(key=lambda g: (g.round, min(g.player, g.opponent)))
        for game in games:
            writer.writerow(
                (
                    spreadsheet_text(division.name),
                    game.round,
                    spreadsheet_text(names[game.player]),
                    game.own_score,
                    spreadsheet_text(names[game.opponent]),
                    game.opponent_score,
                )
            )
    return buffer.getvalue()
