"""Read and write AUPAIR ``.TOU`` files as the WESPA rating programs read them.

A ``.TOU`` file (AUPAIR's; WESPA ratings through Aardvark) holds a tournament's
results, every line ending in CRLF::

    *M09.03.2024 Spring Open
    *A
                                          0
    Anderson, Ann        2400  +2  390  +3 2050   1    0   1
    *** END OF FILE ***

- Line 1 is ``*M``, the first day as DD.MM.YYYY, a space and the tournament's name.
- Each division starts with ``*`` and its name, then a line of 38 spaces and ``0``
  (the high-word line; lines starting with a space are not players), then one line
  per player. A player's number is their line's place in the division (1-based).
- ``*** END OF FILE ***`` follows the last division.
- A player line is the name in 20 columns (ASCII), then one 9-character block a round:
  a space, the score in 4 columns, a space, the opponent's number in 3 columns,
  prefixed ``+`` when this player went first. An opponent number of 100 or more fills
  the 3 columns and has no ``+`` (as real files of 100+ player events write it), so
  the file cannot say that this player went first against such an opponent.
- The score is the player's own score plus 2000 for a win or 1000 for a draw.
- A round that is not a played game pairs the player with themself: a win (a bye or
  a forfeit win) is written in the win band, 2000 plus the awarded spread; a loss (a
  forfeit, or a withdrawn player's round) as the negative awarded spread; a round
  with nothing for the player (absent, not paired) as the missed game, 0; 1350 (the
  draw band) is a half-bye, which these rules never award.

Reading, as the rating programs count a player's record (``read_records``): a played
game counts by its score band, with the score difference as spread; a round against
oneself counts its band as a win, a half or a loss and adds no spread; 0 against
oneself is a missed game, neither. (So a forfeit loss whose awarded spread is 0 is
written as, and reads as, a missed game, as tsh's ``.t`` writes it.)

``tou_to_events`` turns a file into the same tournament events a ``.t`` import
makes: players (with membership ids, ratings and career games from a ratings list
when one is given: the file has none), each round paired with who went first and
byes, results, and a credited loss for each self-paired loss.

Usage::

    tou = read_tou(path.read_text("ascii"))
    records = read_records(tou)
    text = format_tou(record, transliterate=my_ascii_function)
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from rules.errors import FileLineError
from rules.numbers import whole_number
from rules.outcome import DRAW_POINTS, LOSS_POINTS, WIN_POINTS
from rules.ratings_list import ListedRating
from rules.records import (
    DivisionRecord,
    EntryKind,
    PlayerRecord,
    RoundEntry,
    TournamentRecord,
)
from rules.submissions import SubmissionError, checked_game, division_rounds
from rules.tournament import (
    Board,
    DivisionAdded,
    Event,
    PairingMethod,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    UnpairedRoundRecorded,
)

__all__ = [
    "HALF_BYE",
    "MISSED",
    "TOU_END",
    "TouBlock",
    "TouDivision",
    "TouError",
    "TouFile",
    "TouPlayer",
    "TouRecord",
    "format_tou",
    "read_records",
    "read_tou",
    "tou_to_events",
]

NAME_WIDTH = 20
SCORE_WIDTH = 4
OPPONENT_WIDTH = 3
BLOCK_WIDTH = 1 + SCORE_WIDTH + 1 + OPPONENT_WIDTH
WIN_BAND = 2000
DRAW_BAND = 1000
HALF_BYE = 1350  # the customary half-bye: 1000 + 350 against oneself
MISSED = 0
ZERO_COLUMN = 39  # the division's high-word line puts its 0 in this column
TOU_END = "*** END OF FILE ***"
_BLOCK = re.compile(r" ([ \d-]{3}\d) ([ +\d]{2}\d)")
_DATE = re.compile(r"\*M(\d{2})\.(\d{2})\.(\d{4})(?: (.*))?")


class TouError(FileLineError):
    """Raised when a ``.TOU`` file cannot be read or imported.

    ``code`` is stable (``tou_syntax``, ``tou_date``, ``tou_truncated``,
    ``tou_opponent``, ``tou_mismatch``, ``tou_half_bye``, ``tou_tie_break``,
    ``tou_empty_round``, ``tou_forfeit_spread``); ``line`` is the physical line at
    fault (1-based) or None.
    """


# Reading ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TouBlock:
    """One round of a player line."""

    score: int
    opponent: int
    first: bool  # the line's ``+``


@dataclass(frozen=True, slots=True)
class TouPlayer:
    number: int
    line: int  # physical line, for messages
    name: str
    blocks: tuple[TouBlock, ...]


@dataclass(frozen=True, slots=True)
class TouDivision:
    name: str
    line: int
    players: tuple[TouPlayer, ...]

    @property
    def rounds(self) -> int:
        return max((len(p.blocks) for p in self.players), default=0)


@dataclass(frozen=True, slots=True)
class TouFile:
    date: str  # ISO
    name: str
    divisions: tuple[TouDivision, ...]


def read_tou(text: str) -> TouFile:
    """Parse a ``.TOU`` file; raise TouError naming the line at fault."""
    lines = text.splitlines()
    if not lines or not (header := _DATE.fullmatch(lines[0].rstrip())):
        raise TouError(
            "tou_date",
            "the first line must be *M, the date DD.MM.YYYY and the name.",
            1,
        )
    day, month, year, name = header.groups()
    try:
        date = datetime.date(*(whole_number(x) for x in (year, month, day))).isoformat()
    except ValueError:
        raise TouError("tou_date", f"{day}.{month}.{year} is not a date.", 1) from None
    divisions: list[tuple[str, int, list[TouPlayer]]] = []
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip()
        if line == TOU_END:
            return TouFile(
                date,
                (name or "").strip(),
                tuple(TouDivision(n, at, tuple(ps)) for n, at, ps in divisions),
            )
        if not line or line.startswith(" "):
            continue  # blank, or a division's high-word line
        if line.startswith("*"):
            if not line[1:].strip():
                raise TouError("tou_syntax", "a division needs a name after *.", number)
            divisions.append((line[1:].strip(), number, []))
            continue
        if not divisions:
            raise TouError(
                "tou_syntax", "a player line comes before any *division line.", number
            )
        players = divisions[-1][2]
        players.append(_player(line, number, len(players) + 1))
    raise TouError(
        "tou_truncated", f"the file does not end with {TOU_END!r}: is it complete?"
    )


def _player(line: str, number: int, position: int) -> TouPlayer:
    name, rest = line[:NAME_WIDTH].rstrip(), line[NAME_WIDTH:]
    if not name or len(rest) % BLOCK_WIDTH:
        raise TouError(
            "tou_syntax",
            "expected a name in 20 columns, then 9 columns a round "
            "(' score opponent', e.g. ' 2400  +2').",
            number,
        )
    blocks = []
    for start in range(0, len(rest), BLOCK_WIDTH):
        block = _BLOCK.fullmatch(rest[start : start + BLOCK_WIDTH])
        if block is None:
            raise TouError(
                "tou_syntax",
                f"round {start // BLOCK_WIDTH + 1}: "
                f"{rest[start : start + BLOCK_WIDTH]!r} is not ' score opponent'.",
                number,
            )
        score, opponent = block.groups()
        try:
            blocks.append(
                TouBlock(
                    whole_number(score),
                    whole_number(opponent.replace("+", "")),
                    "+" in opponent,
                )
            )
        except ValueError:
            raise TouError(
                "tou_syntax",
                f"round {start // BLOCK_WIDTH + 1}: {score.strip()!r} or "
                f"{opponent.strip()!r} is not a number.",
                number,
            ) from None
    return TouPlayer(position, number, name, tuple(blocks))


@dataclass(frozen=True, slots=True)
class TouRecord:
    """A player's record as the rating programs read it."""

    wins: int
    losses: int
    draws: int
    spread: int


def _band(score: int) -> tuple[float, int]:
    """(result, own score) of a block's score."""
    if score >= WIN_BAND:
        return WIN_POINTS, score - WIN_BAND
    if score >= DRAW_BAND:
        return DRAW_POINTS, score - DRAW_BAND
    return LOSS_POINTS, score


def _block(player: TouPlayer, round_: int) -> TouBlock:
    if round_ <= len(player.blocks):
        return player.blocks[round_ - 1]
    return TouBlock(MISSED, player.number, False)


def _self_paired(block: TouBlock, player: TouPlayer) -> bool:
    return block.opponent in (player.number, 0)


def _opponent(
    division: TouDivision, player: TouPlayer, round_: int
) -> tuple[TouPlayer, TouBlock]:
    """The opponent of a played game and their block, checked against this one."""
    block = _block(player, round_)
    where = f"round {round_}"
    if not 1 <= block.opponent <= len(division.players):
        raise TouError(
            "tou_opponent",
            f"{where}: opponent {block.opponent} is not a player of division "
            f"{division.name}.",
            player.line,
        )
    opponent = division.players[block.opponent - 1]
    mirror = _block(opponent, round_)
    result, own = _band(block.score)
    theirs, _ = _band(mirror.score)
    if (
        mirror.opponent != player.number
        or result + theirs != 1
        or own < 0
        or (block.first and mirror.first)
    ):
        raise TouError(
            "tou_mismatch",
            f"{where}: {player.name} and {opponent.name} (line {opponent.line}) "
            "disagree on the pairing, the result or who went first.",
            player.line,
        )
    return opponent, mirror


def read_records(tou: TouFile) -> dict[str, tuple[TouRecord, ...]]:
    """Return each division's players' records (by number) as the rating programs
    read them; raise TouError when two lines disagree about a game."""
    records = {}
    for division in tou.divisions:
        rows = []
        for player in division.players:
            counts = {WIN_POINTS: 0, DRAW_POINTS: 0, LOSS_POINTS: 0}
            spread = 0
            for round_ in range(1, division.rounds + 1):
                block = _block(player, round_)
                result, own = _band(block.score)
                if _self_paired(block, player):
                    if block.score != MISSED:
                        counts[result] += 1
                    continue
                _, mirror = _opponent(division, player, round_)
                counts[result] += 1
                spread += own - _band(mirror.score)[1]
            rows.append(
                TouRecord(
                    counts[WIN_POINTS], counts[LOSS_POINTS], counts[DRAW_POINTS], spread
                )
            )
        records[division.name] = tuple(rows)
    return records


# Importing --------------------------------------------------------------------------


def tou_to_events(
    tou: TouFile,
    *,
    existing_divisions: Collection[str],
    player_ids: Sequence[str],
    forfeit_spread: int,
    listed: Sequence[ListedRating | None] = (),
) -> list[Event]:
    """Return the events that add (if new), register, pair and score every division.

    ``player_ids`` gives a stable id to each player, in file order over all
    divisions; ``listed``, in the same order, each player's row of a ratings list
    (membership id, rating, career games; None or missing: unrated, unknown).
    A self-paired win is a bye of the round's pairing, a self-paired loss
    a credited loss of ``forfeit_spread``. Raises TouError for what these rules
    cannot hold: a half-bye (``tou_half_bye``), a game won on tied scores
    (``tou_tie_break``: the file has no scores before the end-of-game adjustments),
    a round without a game or bye (``tou_empty_round``), a loss to credit with a
    forfeit spread of 0 (``tou_forfeit_spread``), and lines that disagree.
    """
    ids = iter(player_ids)
    rows = iter(listed)
    events: list[Event] = []
    for division in tou.divisions:
        if division.name not in existing_divisions:
            events.append(DivisionAdded(name=division.name))
        division_ids = [next(ids) for _ in division.players]
        for player in division.players:
            row = next(rows, None)
            events.append(
                PlayerRegistered(
                    player_id=division_ids[player.number - 1],
                    division=division.name,
                    name=player.name,
                    rating=0 if row is None else row.rating,
                    member_id="" if row is None else row.member_id,
                    rating_text="" if row is None else row.rating_text,
                    career_games=None if row is None else row.career_games,
                )
            )
        for round_ in range(1, division.rounds + 1):
            events.extend(_round_events(division, round_, division_ids, forfeit_spread))
    return events


def _round_events(
    division: TouDivision, round_: int, ids: Sequence[str], forfeit_spread: int
) -> list[Event]:
    boards: list[Board] = []
    byes: list[str] = []
    results: list[Event] = []
    credits: list[Event] = []
    for player in division.players:
        block = _block(player, round_)
        pid = ids[player.number - 1]
        result, own = _band(block.score)
        if _self_paired(block, player):
            if block.score == MISSED:
                continue
            if result == DRAW_POINTS:
                raise TouError(
                    "tou_half_bye",
                    f"round {round_}: {block.score} is a half-bye, which these "
                    "rules cannot award.",
                    player.line,
                )
            if result == WIN_POINTS:
                byes.append(pid)
                continue
            if not forfeit_spread:
                raise TouError(
                    "tou_forfeit_spread",
                    f"round {round_}: a loss against oneself is credited as a "
                    "forfeit, but the tournament's forfeit spread is 0.",
                    player.line,
                )
            credits.append(
                UnpairedRoundRecorded(
                    round=round_, player_id=pid, spread=-forfeit_spread
                )
            )
            continue
        opponent, mirror = _opponent(division, player, round_)
        if player.number > opponent.number:
            continue  # each game once, from the lower number's side
        oid = ids[opponent.number - 1]
        scores = (own, _band(mirror.score)[1])
        game = _game_result(round_, (pid, oid), scores, result, player.line)
        # Who went first: the line with the +; neither (no + is written against an
        # opponent of 100 or more), the lower number, as a .t import does.
        first, second = (oid, pid) if mirror.first else (pid, oid)
        boards.append(Board(len(boards) + 1, first, second))
        results.append(game)
    if not boards and not byes:
        raise TouError(
            "tou_empty_round",
            f"division {division.name}, round {round_} has no game and no bye.",
            division.line,
        )
    pairing = RoundPaired(
        division=division.name,
        round=round_,
        games=tuple(boards),
        byes=tuple(byes),
        method=PairingMethod.IMPORTED,
    )
    return [pairing, *results, *credits]


def _game_result(
    round_: int,
    players: tuple[str, str],
    scores: tuple[int, int],
    result: float,
    line: int,
) -> ResultRecorded:
    """Return the result of a game read from the lower-numbered player's block; a
    tie is a draw (a .TOU gives no scores before the end-of-game adjustments)."""
    own, theirs = scores
    if own == theirs and result != DRAW_POINTS:
        raise TouError(
            "tou_tie_break",
            f"round {round_}: {own}-{theirs} is a tie won on the scores before "
            "the end-of-game adjustments, which a .TOU does not give.",
            line,
        )
    tied = own == theirs
    return ResultRecorded(
        round=round_,
        player_a=players[0],
        player_b=players[1],
        score_a=own,
        score_b=theirs,
        pre_adjustment_a=own if tied else None,
        pre_adjustment_b=theirs if tied else None,
    )


# Writing ----------------------------------------------------------------------------


def _date(iso: str) -> str:
    try:
        date = datetime.date.fromisoformat(iso)
    except ValueError as error:
        raise SubmissionError(
            "bad_date", f"tournament date {iso!r} is not an ISO date (YYYY-MM-DD)"
        ) from error
    return f"{date.day:02d}.{date.month:02d}.{date.year:04d}"


def _ascii(text: str, transliterate: Callable[[str], str]) -> str:
    # Whatever the transliteration leaves beyond ASCII cannot be in the file.
    return transliterate(text).encode("ascii", "replace").decode("ascii")


def _format_block(score: int, opponent: int, first: bool, where: str) -> str:
    if not -999 <= score <= 9999 or not 1 <= opponent <= 999:
        raise SubmissionError(
            "unwritable_round",
            f"{where}: score {score} or opponent {opponent} does not fit a .TOU "
            "round (4 and 3 columns)",
        )
    mark = "+" if first and opponent < 100 else ""
    return f" {score:>{SCORE_WIDTH}} {mark + str(opponent):>{OPPONENT_WIDTH}}"


def _awarded_score(result: float | None, spread: int) -> int:
    """The self-paired score of a round that is not a played game."""
    if result is None:
        return MISSED
    if result == WIN_POINTS:
        return WIN_BAND + spread
    if result == DRAW_POINTS:
        return HALF_BYE
    return spread  # a loss: the negative awarded spread


def _player_line(
    division: DivisionRecord,
    player: PlayerRecord,
    rounds: dict[int, dict[int, RoundEntry]],
    last_round: int,
    transliterate: Callable[[str], str],
) -> str:
    name = _ascii(player.name, transliterate)[:NAME_WIDTH].ljust(NAME_WIDTH)
    own = rounds[player.number]
    blocks = []
    for number in range(1, last_round + 1):
        entry = own.get(number)
        where = f"division {division.name}, round {number}, player {player.number}"
        if entry is None or entry.kind is not EntryKind.GAME:
            result = None if entry is None else entry.result
            spread = 0 if entry is None else entry.own_score or 0
            score = _awarded_score(result, spread)
            blocks.append(_format_block(score, player.number, False, where))
            continue
        game = checked_game(division, player, entry, rounds)
        band = {WIN_POINTS: WIN_BAND, DRAW_POINTS: DRAW_BAND}.get(game.result, 0)
        if not 0 <= game.own_score < DRAW_BAND:
            raise SubmissionError(
                "unwritable_round", f"{where}: score {game.own_score} is not 0-999"
            )
        blocks.append(
            _format_block(game.own_score + band, game.opponent, game.went_first, where)
        )
    return name + "".join(blocks)


def format_tou(
    tournament: TournamentRecord, *, transliterate: Callable[[str], str]
) -> str:
    """Return the tournament as a ``.TOU`` file (ASCII text, CRLF line ends).

    ``transliterate`` turns names into ASCII (a transliteration library's, so that
    "Łukasz" is "Lukasz"); anything it leaves beyond ASCII becomes ``?``. Raises
    ``SubmissionError`` when the date is not an ISO date, players are not numbered
    1..n in order, a player has two entries for a round, a played game is
    incomplete or disagrees with the opponent's entry, or a score or player number
    does not fit its columns.
    """
    lines = [f"*M{_date(tournament.date)} {_ascii(tournament.name, transliterate)}"]
    for division in tournament.divisions:
        rounds = division_rounds(division)
        last_round = max(
            (entry.round for p in division.players for entry in p.rounds), default=0
        )
        lines.append(f"*{_ascii(division.name, transliterate)}")
        lines.append("0".rjust(ZERO_COLUMN))
        lines.extend(
            _player_line(division, player, rounds, last_round, transliterate)
            for player in division.players
        )
    lines.append(TOU_END)
    return "".join(f"{line}\r\n" for line in lines)
