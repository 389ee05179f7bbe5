"""Ratings-body submission files: AUPAIR ``.TOU`` and the ABSP results CSV.

Both writers take a ``rules.records.TournamentRecord`` and return the file's text; the
caller encodes it (``.TOU`` text is pure ASCII, the CSV is meant for UTF-8). The NASPA
``.t`` file is written by ``rules.tsh``.

``.TOU`` (AUPAIR; WESPA via Aardvark, Australian ratings), per the format description in
the project's issue 7. Every line ends in CRLF. The layout this writer produces::

    *M09.03.2024 Spring Open
    *A
                                          0
    Anderson, Ann        2400  +2  390  +3 1350   1  399   2
    *** END OF FILE ***

- Line 1 is ``*M``, the first day as DD.MM.YYYY, a space and the tournament's name.
- Each division starts with ``*`` and its name, then a line of 38 spaces and ``0`` (the
  ``0`` in column 39), then one line per player in number order.
- ``*** END OF FILE ***`` follows the last division.
- The name is transliterated to ASCII (NFKD, dropping what has no ASCII form: "Zoë"
  becomes "Zoe", "Łukasz" becomes "ukasz") and padded or cut to 20 characters.
- A round block (9 characters) is the score right-aligned in 5, then the opponent's
  number, prefixed ``+`` when this player went first, right-aligned in 4:
  ``{score:>5}{opponent:>4}``. The number is the opponent's line in the division
  (``PlayerRecord.number``), so up to 999 players fit.
- The score is the player's own score, plus 2000 for a win or plus 1000 for a draw
  (both players), after the tie rule (``RoundEntry.result``).
- Every round that is not a played game is written as the player paired with themself
  with the neutral score 1350 (``TOU_NEUTRAL_SCORE``) and no ``+``: byes, forfeit wins,
  forfeit losses, and absent rounds (a withdrawn player's later rounds, or a round the
  player has no entry for). Ratings programs skip self-pairings, and byes and forfeits
  are never rated; writing a forfeit as a game against the real opponent would rate
  it. (So a ``.TOU`` does not carry forfeit spreads; standings come from elsewhere.)
- A division has as many blocks per player as its highest round number.

ABSP CSV: the header ``Division,Round,Player1,Score1,Player2,Score2`` and one row per
played game, quoted by the ``csv`` module, with CRLF line ends (its default, RFC 4180).
A name that a spreadsheet would run as a formula (``=HYPERLINK(…)``) is written with a
leading ``'`` (``spreadsheet_text``).
Only rated games are written: byes, forfeits and absences are left out, since the ABSP
rates games and they are not games. ``Player1`` is the player who went first, or the
lower-numbered player when neither is recorded as first. Rows run division by division
in record order, then by round, then by the lower player number of the pair.

Both writers check each played game against the opponent's entry for the same round
and raise ``SubmissionError`` when the two sides disagree.

Usage::

    Path("spring.TOU").write_bytes(format_tou(record).encode("ascii"))
    Path("spring.csv").write_text(format_absp_csv(record), encoding="utf-8", newline="")
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import unicodedata
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
    "ABSP_CSV_HEADER",
    "TOU_NAME_WIDTH",
    "TOU_NEUTRAL_SCORE",
    "TOU_OPPONENT_WIDTH",
    "TOU_SCORE_WIDTH",
    "SubmissionError",
    "format_absp_csv",
    "format_tou",
    "spreadsheet_text",
    "to_ascii",
]

TOU_NAME_WIDTH = 20
TOU_SCORE_WIDTH = 5
TOU_OPPONENT_WIDTH = 4
TOU_NEUTRAL_SCORE = 1350  # the customary neutral bye, written against oneself
TOU_WIN_FLAG = 2000
TOU_DRAW_FLAG = 1000
TOU_ZERO_COLUMN = 39  # the division's "0" line puts the 0 in this column
TOU_END = "*** END OF FILE ***"
ABSP_CSV_HEADER = ("Division", "Round", "Player1", "Score1", "Player2", "Score2")


class SubmissionError(RulesError):
    """Raised when a record cannot be written as a submission file.

    ``code`` is stable (``bad_date``, ``bad_numbering``, ``duplicate_round``,
    ``incomplete_game``, ``unknown_player``, ``missing_opponent_entry``,
    ``mismatched_game``); the message names the division, round and players.
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
class _Game:
    """A played game, checked against the opponent's entry."""

    round: int
    player: int
    opponent: int
    own_score: int
    opponent_score: int
    result: float
    went_first: bool


def to_ascii(text: str) -> str:
    """Return ``text`` in ASCII: NFKD, then drop what has no ASCII form."""
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


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


def _game(
    division: DivisionRecord,
    player: PlayerRecord,
    entry: RoundEntry,
    rounds: dict[int, dict[int, RoundEntry]],
) -> _Game:
    """Return a GAME entry as a checked game; raise when the two sides disagree."""
    where = f"division {division.name}, round {entry.round}, player {player.number}"
    if (
        entry.opponent is None
        or entry.own_score is None
        or entry.opponent_score is None
        or entry.result is None
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
        or mirror.result + entry.result != 1
        or (entry.went_first and mirror.went_first)
    ):
        raise SubmissionError(
            "mismatched_game",
            f"{where}: the entries of players {player.number} and {entry.opponent} "
            "disagree on the scores, the result or who went first",
        )
    return _Game(
        round=entry.round,
        player=player.number,
        opponent=entry.opponent,
        own_score=entry.own_score,
        opponent_score=entry.opponent_score,
        result=entry.result,
        went_first=bool(entry.went_first),
    )


def _division_rounds(division: DivisionRecord) -> dict[int, dict[int, RoundEntry]]:
    _check_numbering(division)
    return {
        player.number: _entries_by_round(division, player)
        for player in division.players
    }


# .TOU ---------------------------------------------------------------------------


def _tou_date(iso: str) -> str:
    try:
        date = datetime.date.fromisoformat(iso)
    except ValueError as error:
        raise SubmissionError(
            "bad_date", f"tournament date {iso!r} is not an ISO date (YYYY-MM-DD)"
        ) from error
    return f"{date.day:02d}.{date.month:02d}.{date.year:04d}"


def _tou_block(score: int, opponent: str) -> str:
    return f"{score:>{TOU_SCORE_WIDTH}}{opponent:>{TOU_OPPONENT_WIDTH}}"


def _tou_player_line(
    division: DivisionRecord,
    player: PlayerRecord,
    rounds: dict[int, dict[int, RoundEntry]],
    last_round: int,
) -> str:
    name = to_ascii(player.name)[:TOU_NAME_WIDTH].ljust(TOU_NAME_WIDTH)
    blocks = []
    own = rounds[player.number]
    for number in range(1, last_round + 1):
        entry = own.get(number)
        if entry is None or entry.kind is not EntryKind.GAME:
            blocks.append(_tou_block(TOU_NEUTRAL_SCORE, str(player.number)))
            continue
        game = _game(division, player, entry, rounds)
        flag = {1: TOU_WIN_FLAG, 0.5: TOU_DRAW_FLAG}.get(game.result, 0)
        sign = "+" if game.went_first else ""
        blocks.append(_tou_block(game.own_score + flag, f"{sign}{game.opponent}"))
    return name + "".join(blocks)


def format_tou(tournament: TournamentRecord) -> str:
    """Return the tournament as an AUPAIR ``.TOU`` file (ASCII text, CRLF line ends).

    The layout is the module docstring's. Raises ``SubmissionError`` when the date is
    not an ISO date, players are not numbered 1..n in order, a player has two entries
    for a round, or a played game is incomplete or disagrees with the opponent's entry.
    """
    lines = [f"*M{_tou_date(tournament.date)} {to_ascii(tournament.name)}"]
    for division in tournament.divisions:
        rounds = _division_rounds(division)
        last_round = max(
            (entry.round for p in division.players for entry in p.rounds), default=0
        )
        lines.append(f"*{to_ascii(division.name)}")
        lines.append("0".rjust(TOU_ZERO_COLUMN))
        lines.extend(
            _tou_player_line(division, player, rounds, last_round)
            for player in division.players
        )
    lines.append(TOU_END)
    return "".join(f"{line}\r\n" for line in lines)


# ABSP CSV -----------------------------------------------------------------------


def format_absp_csv(tournament: TournamentRecord) -> str:
    """Return the tournament's played games as an ABSP results CSV (CRLF line ends).

    The columns, the row order and who is ``Player1`` are the module docstring's.
    Raises ``SubmissionError`` like ``format_tou``.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(ABSP_CSV_HEADER)
    for division in tournament.divisions:
        rounds = _division_rounds(division)
        names = {player.number: player.name for player in division.players}
        games: list[_Game] = []
        for player in division.players:
            for entry in rounds[player.number].values():
                if entry.kind is not EntryKind.GAME:
                    continue
                game = _game(division, player, entry, rounds)
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
