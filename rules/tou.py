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
- A round that is not a played game pairs the player with themself (or with 0).

Reading, as the WESPA programs read a file (``read_tou``, ``read_records``): a name
longer than 20 columns pushes the rounds right and is read whole; rounds that do
not keep to their 9-column blocks (a ``-10`` glued to its neighbour) are read as
whole numbers in pairs, score then opponent; a blank block is a missed round. A
played game counts by its score band with the score difference as spread (a win
band at equal scores is a win on the tie-break the file does not give). A round
against oneself counts by its band and adds no spread: above 2000 a win, 1000 to
2000 a half (the half-bye 1350; 2000, a win of no spread, reads as a half), 0 a
missed game, anything else a loss. Each oddity is kept and listed in
``TouFile.notes`` (``TouNote``), never a reason to refuse the file.

``tou_to_events`` turns a file into the same tournament events a ``.t`` import
makes: players (with membership ids, ratings and career games from a ratings list
when one is given: the file has none), each round paired (who went first when a
line says so: ``Board.first_known``), byes (a win of the bye spread), results, a
``TieWinRecorded`` for a win at equal scores, a ``RoundAwarded`` for a half-bye or
another win, and a credited loss of the written spread for a negative score.

Writing (``format_tou``): a ``+`` only where the system knows who went first; a
round against oneself in the band the reader takes as its result (a win of no
spread as 2001, a half as 1350, a loss of no spread as -1).

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
    Outcome,
    PairingMethod,
    PlayerRegistered,
    ResultRecorded,
    RoundAwarded,
    RoundPaired,
    TieWinRecorded,
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
    "TouNote",
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
_BLOCK = re.compile(r" ([ \d-]{3}\d) ([ +\d]{2}\d)", re.ASCII)
_DATE = re.compile(r"\*M(\d{2})\.(\d{2})\.(\d{4})(?: (.*))?", re.ASCII)


@dataclass(frozen=True, slots=True)
class TouNote:
    """An oddity of a file that is read as the WESPA programs read it, kept and
    told to the director (the import's report): ``code`` is stable
    (``tou_wide_name``, ``tou_tokens``, ``tou_blank_round``, ``tou_half_bye``,
    ``tou_zero_spread_win``, ``tou_loss_band``, ``tou_tie_win``,
    ``tou_empty_round``), ``line`` the
    physical line (1-based)."""

    code: str
    message: str
    line: int | None = None


class TouError(FileLineError):
    """Raised when a ``.TOU`` file cannot be read or imported.

    ``code`` is stable (``tou_syntax``, ``tou_date``, ``tou_truncated``,
    ``tou_opponent``, ``tou_mismatch``); ``line`` is the physical line at fault
    (1-based) or None. What the WESPA programs read is never refused: its
    oddities are ``TouNote``s.
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
    notes: tuple[TouNote, ...] = ()  # what is odd in the file, kept as read


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
    notes: list[TouNote] = []
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip()
        if line == TOU_END:
            read = tuple(TouDivision(n, at, tuple(ps)) for n, at, ps in divisions)
            for division in read:
                notes.extend(_band_notes(division))
            return TouFile(date, (name or "").strip(), read, tuple(notes))
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
        players.append(_player(line, number, len(players) + 1, notes))
    raise TouError(
        "tou_truncated", f"the file does not end with {TOU_END!r}: is it complete?"
    )


# The rounds of a player line: digits, spaces and signs to the end of the line.
_ROUNDS_TAIL = re.compile(r"[\d\s+-]*$", re.ASCII)
_TOKEN = re.compile(r"[+-]?\d+|\S", re.ASCII)
_DIGIT = re.compile(r"[0-9]")
# A digit of another script (a fullwidth "４"): no reader of a .TOU takes it as a
# number, and read as a letter it would turn a round into part of a name.
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")
_BLANK_BLOCK = " " * BLOCK_WIDTH


def _player(line: str, number: int, position: int, notes: list[TouNote]) -> TouPlayer:
    """A player line: the name (20 columns, or more when a longer name pushes the
    rounds right, as the AUPAIR writer leaves it), then the rounds, read in their
    9-column blocks when they keep to them (a blank block is a missed round) and
    else as whole numbers in pairs, score then opponent, as the WESPA programs read
    a line (a ``-10`` glued to its neighbour is a number of its own)."""
    other = _OTHER_DIGIT.search(line)
    if other is not None:
        raise _syntax(number, f"{other.group()!r} is not a digit 0-9")
    tail = _ROUNDS_TAIL.search(line)
    name_end = max(NAME_WIDTH, tail.start() if tail else len(line))
    if _DIGIT.search(line, NAME_WIDTH, name_end):
        name_end = NAME_WIDTH  # not a longer name: a round with a stray character
    name, rest = line[:name_end].rstrip(), line[name_end:]
    if not name:
        raise _syntax(number, "expected a name in the first 20 columns")
    if name_end > NAME_WIDTH:
        notes.append(
            TouNote(
                "tou_wide_name",
                f"the name {name!r} runs past column {NAME_WIDTH}: read whole, the"
                " rounds after it",
                number,
            )
        )
    blocks = _fixed_blocks(rest, number, notes)
    if blocks is None:
        blocks = _token_blocks(rest, number)
        notes.append(
            TouNote(
                "tou_tokens",
                "the rounds are not in 9-column blocks (a number glued to its"
                " neighbour or shifted): read as numbers in pairs",
                number,
            )
        )
    return TouPlayer(position, number, name, tuple(blocks))


def _syntax(number: int, what: str) -> TouError:
    return TouError(
        "tou_syntax",
        f"{what}: a name, then a score and an opponent a round"
        " (' score opponent', e.g. ' 2400  +2').",
        number,
    )


def _fixed_blocks(
    rest: str, number: int, notes: list[TouNote]
) -> list[TouBlock] | None:
    """The rounds in 9-column blocks, or None when they do not keep to them."""
    if len(rest) % BLOCK_WIDTH:
        return None
    blocks = []
    for start in range(0, len(rest), BLOCK_WIDTH):
        text = rest[start : start + BLOCK_WIDTH]
        round_ = start // BLOCK_WIDTH + 1
        if text == _BLANK_BLOCK:
            notes.append(
                TouNote(
                    "tou_blank_round",
                    f"round {round_} is left blank: read as a missed round (0)",
                    number,
                )
            )
            blocks.append(TouBlock(MISSED, 0, False))
            continue
        block = _BLOCK.fullmatch(text)
        if block is None:
            return None
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
            return None
    return blocks


def _token_blocks(rest: str, number: int) -> list[TouBlock]:
    tokens = _TOKEN.findall(rest)
    if len(tokens) % 2 or not all(_DIGIT.fullmatch(t[-1]) for t in tokens):
        raise _syntax(number, f"{rest.strip()!r} is not pairs of numbers")
    blocks = []
    for score, opponent in zip(tokens[::2], tokens[1::2], strict=True):
        if score.startswith("+") or opponent.startswith("-"):
            raise _syntax(number, f"{score} {opponent} is not ' score opponent'")
        blocks.append(TouBlock(int(score), int(opponent.lstrip("+")), "+" in opponent))
    return blocks


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


def _self_band(score: int) -> float | None:
    """The result of a round against oneself, as the WESPA reader takes its score:
    above 2000 a win (a bye or forfeit win and its awarded spread), 1000 to 2000 a
    half (the half-bye 1350; 2000, a win band with no spread, reads as the tie it
    spells), 0 a missed round (None), anything else a loss."""
    if score > WIN_BAND:
        return WIN_POINTS
    if score >= DRAW_BAND:
        return DRAW_POINTS
    if score == MISSED:
        return None
    return LOSS_POINTS


def _band_notes(division: TouDivision) -> list[TouNote]:
    """The results a file holds that are odd to this system, kept as read."""
    notes = [
        TouNote(
            "tou_empty_round",
            f"division {division.name}, round {round_}: no game was played; kept"
            " as a round of byes, credits or nothing, as each line says",
            division.line,
        )
        for round_ in range(1, division.rounds + 1)
        if all(_self_paired(_block(p, round_), p) for p in division.players)
    ]
    for player in division.players:
        for round_, block in enumerate(player.blocks, start=1):
            where = f"division {division.name}, round {round_}"
            if _self_paired(block, player):
                result = _self_band(block.score)
                if block.score == WIN_BAND:
                    notes.append(
                        TouNote(
                            "tou_zero_spread_win",
                            f"{where}: 2000 against oneself reads as a half (a win"
                            " band with no spread); kept as a half-bye",
                            player.line,
                        )
                    )
                elif result == DRAW_POINTS:
                    notes.append(
                        TouNote(
                            "tou_half_bye",
                            f"{where}: {block.score} against oneself is a half-bye",
                            player.line,
                        )
                    )
                elif result == LOSS_POINTS and block.score > 0:
                    notes.append(
                        TouNote(
                            "tou_loss_band",
                            f"{where}: {block.score} against oneself is a loss with"
                            " no spread",
                            player.line,
                        )
                    )
                continue
            if not 1 <= block.opponent <= len(division.players):
                continue  # refused when read (tou_opponent)
            mirror = _block(division.players[block.opponent - 1], round_)
            result, own = _band(block.score)
            if result == WIN_POINTS and own == _band(mirror.score)[1]:
                notes.append(
                    TouNote(
                        "tou_tie_win",
                        f"{where}: a win at equal scores ({own}-{own}), decided by"
                        " the scores before the end-of-game adjustments, which the"
                        " file does not give; kept as a win",
                        player.line,
                    )
                )
    return notes


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
                    awarded = _self_band(block.score)
                    if awarded is not None:
                        counts[awarded] += 1
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
    bye_spread: int = 50,
    listed: Sequence[ListedRating | None] = (),
) -> list[Event]:
    """Return the events that add (if new), register, pair and score every division.

    ``player_ids`` gives a stable id to each player, in file order over all
    divisions; ``listed``, in the same order, each player's row of a ratings list
    (membership id, rating, career games; None or missing: unrated, unknown).
    Every round against oneself is kept as its band says (``_self_band``): a win
    with the tournament's ``bye_spread`` is a bye of the round's pairing, any
    other win or a half (a half-bye) a ``RoundAwarded`` with the spread written,
    a negative score a credited loss of that spread, 0 nothing. A win at equal
    scores is a ``TieWinRecorded``. A game without a ``+`` on either line is
    paired with who went first unknown; a round in which no one played is an
    empty imported pairing. Raises TouError for lines that disagree.
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
            events.extend(_round_events(division, round_, division_ids, bye_spread))
    return events


def _self_paired_event(
    block: TouBlock, round_: int, pid: str, bye_spread: int
) -> Event | None:
    """The event of a round against oneself; None for a bye of the pairing or a
    missed round."""
    result = _self_band(block.score)
    if result is None:
        return None
    if result == WIN_POINTS:
        spread = block.score - WIN_BAND
        if spread == bye_spread:
            return None
        return RoundAwarded(round_, pid, Outcome.WIN, spread)
    if result == DRAW_POINTS:
        return RoundAwarded(round_, pid, Outcome.DRAW, 0)
    if block.score < 0:
        return UnpairedRoundRecorded(round=round_, player_id=pid, spread=block.score)
    return RoundAwarded(round_, pid, Outcome.LOSS, 0)


def _round_events(
    division: TouDivision, round_: int, ids: Sequence[str], bye_spread: int
) -> list[Event]:
    boards: list[Board] = []
    byes: list[str] = []
    results: list[Event] = []
    credits: list[Event] = []
    for player in division.players:
        block = _block(player, round_)
        pid = ids[player.number - 1]
        if _self_paired(block, player):
            event = _self_paired_event(block, round_, pid, bye_spread)
            if event is not None:
                credits.append(event)
            elif _self_band(block.score) == WIN_POINTS:
                byes.append(pid)
            continue
        result, own = _band(block.score)
        opponent, mirror = _opponent(division, player, round_)
        if player.number > opponent.number:
            continue  # each game once, from the lower number's side
        oid = ids[opponent.number - 1]
        scores = (own, _band(mirror.score)[1])
        results.append(_game_result(round_, (pid, oid), scores, result))
        # Who went first: the line with the +; neither line, not known (no + is
        # written against an opponent of 100 or more, nor by every writer).
        first, second = (oid, pid) if mirror.first else (pid, oid)
        known = block.first or mirror.first
        boards.append(Board(len(boards) + 1, first, second, first_known=known))
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
) -> Event:
    """Return the result of a game read from the lower-numbered player's block: a
    tie in the draw band is a draw, a tie in a win or loss band a win on the
    tie-break as recorded (a .TOU gives no scores before the adjustments)."""
    own, theirs = scores
    if own == theirs and result != DRAW_POINTS:
        winner, loser = players if result == WIN_POINTS else players[::-1]
        return TieWinRecorded(round=round_, winner=winner, loser=loser, score=own)
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
    """The self-paired score of a round that is not a played game, in the band the
    WESPA reader takes as its result (``_self_band``): a win above 2000 (a win of
    no spread as 2001: 2000 reads as a half), a half as the half-bye 1350, a loss
    as its negative spread (a loss of no spread as -1: 0 reads as a missed
    round), nothing as 0. The reader adds no spread for these rounds."""
    if result is None:
        return MISSED
    if result == WIN_POINTS:
        return WIN_BAND + max(spread, 1)
    if result == DRAW_POINTS:
        return HALF_BYE
    return min(spread, -1)


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
