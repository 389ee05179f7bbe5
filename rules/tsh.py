"""Read and write tsh ``.t`` division files and ``config.tsh`` (NASPA's format too).

tsh, John Chew's tournament software, keeps one ``.t`` file per division, one player
per line::

    Smith, Ann        1500  2 3 0; 412 388 50; p12 1 2 0; lifeg 212

name, rating, the opponent of each round by player number (the player's position
among the file's player lines, 1-based), ``;``, the player's own score of each round,
then ``; key values`` fields. Blank lines and ``#`` comments are skipped; errors name
the physical line. A line is read by splitting it, never by a backtracking pattern:
reading is linear in the line's length, and lines, players and rounds are bounded
(``MAX_LINE_CHARS``, ``MAX_PLAYERS``, ``rules.tournament.MAX_ROUNDS``).

The name is every word before the rating, kept exactly as written (``Last, First``,
apostrophes, suffixes, a member id after ``:``); the rating is the first word after
it that is a rating (``1500``, ``1500.5``, tsh's multi-list ``0+0+0``) with nothing
but opponent numbers after it. The rating is kept as written (``rating_text``) beside
the whole number the system rates with (its first list's integer part).

Opponent 0 means no opponent. tsh enters a bye as the player's number and one score,
"usually 50, or -50 for a forfeit" (tsh manual, data entry), and a forfeit between
paired players the same way, so that ratings bodies never rate it; a late entry's
missed round, or a round a player was not paired in, is opponent 0 with score 0,
which counts neither as a win nor as a loss. Hence, reading:

- opponent 0 with the bye spread (``bye_spread``): a bye of the round's pairing;
- opponent 0 with any other score: an ``UnpairedRoundRecorded`` credit of that score
  (a win if positive, a loss if negative, neither if 0), exactly as tsh counts it;
- opponent 0 with no score yet: a bye of the pairing.

and writing, from ``rules.records``: a bye is 0 and the bye spread, a forfeit or a
credit 0 and its signed spread, a round the player was not paired in 0 and 0; a
player's trailing rounds without anything are not written (an export never invents a
round), and a game without a result yet ends the scores.

The fields after the scores are kept on the player (``extensions``) and written back
in their order. Those the system computes are written from its own data (equal to
the source's where nothing changed): ``p12`` (1 went first, 2 second, 0 no game; tsh's
other codes mean "not yet decided"), ``board`` (the board of each round, 0 without
one), ``off`` (a withdrawn player, with the forfeit score of their rounds), ``rrank``
(the rank after each round; with one value more than the rounds, the first is the
pre-event rank) and ``lifeg`` (career games). Reading, ``p12`` says who went first
(without it the lower player number is recorded first), ``board`` numbers the boards,
``lifeg`` gives the career games, ``naspa`` the member id, and ``off`` withdraws the
player from the round their trailing run of forfeit scores starts, forfeiting those
rounds, or, with no such run, from the round after their last, not paired (left out
of tsh's ranking from then on either way). A tie in a ``.t`` file has no
pre-adjustment scores: it is imported as a draw (the pre-adjustment scores are
recorded equal to the finals), as tsh scores it.

``config.tsh`` (``read_config``) gives the divisions and their files, the settings
this system has (``CONFIG_KEYS``: the event's name and date, ``max_rounds`` and
``max_div_rounds``, ``spread_cap`` (a number or a list, one per round),
``bye_spread``, ``rating_system``, ``gibson`` and ``prize_bands``, a value or a
perl hash by division), the ``prize`` lines paid in money as each division's
prizes; every other line is listed, with its number, as not taken.
``read_autopair`` reads its ``autopair`` lines (``autopair a 9 10 ns 0 9 a``: round
10 paired Swiss on round 9's results) and ``autopair_rounds`` makes them a
division's round schedule.

Usage::

    tfile = read_t(text)
    events = t_to_events(tfile, "A")
    text = write_t(tournament_to_records(replay([...events])).divisions[0])
    config = read_config(config_text)
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence, Set
from dataclasses import dataclass, field
from itertools import filterfalse

from rules.division_rules import Prize, PrizeKind
from rules.numbers import NumberError, is_whole_number, whole_number
from rules.records import DivisionRecord, EntryKind, PlayerRecord, RoundEntry
from rules.tournament import (
    MAX_ROUNDS,
    Board,
    Event,
    Extension,
    PairingMethod,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    TournamentError,
    UnpairedRoundRecorded,
    WithdrawalPolicy,
)

__all__ = [
    "MAX_FILE_CHARS",
    "MAX_LINE_CHARS",
    "MAX_PLAYERS",
    "AutopairLine",
    "TFile",
    "TPlayer",
    "TshConfig",
    "TshError",
    "autopair_rounds",
    "by_division",
    "import_notes",
    "read_autopair",
    "read_config",
    "read_t",
    "t_notes",
    "t_to_events",
    "write_t",
]

# Generous bounds: a 40-round line of a national event, with every field tsh
# keeps, is under 1,500 characters; a division of a national event has 500 players.
MAX_LINE_CHARS = 20_000
MAX_PLAYERS = 2_000
MAX_FILE_CHARS = 4 * 1024 * 1024

# The fields the system writes from its own data, whatever the source said.
COMPUTED_FIELDS = ("p12", "board", "off", "rrank", "lifeg", "naspa")

_RATING = re.compile(r"\d+(?:[.+]\d+)*")
_WORD = re.compile(r"\S+")


class TshError(TournamentError):
    """Raised when a ``.t`` or ``config.tsh`` file cannot be read, imported or
    written.

    ``line`` is the physical line number (1-based) at fault, or None.
    """

    def __init__(self, code: str, message: str, line: int | None = None) -> None:
        super().__init__(code, message if line is None else f"line {line}: {message}")
        self.field = "file"
        self.line = line


@dataclass(frozen=True, slots=True)
class TPlayer:
    """One player line of a ``.t`` file."""

    number: int  # position among the player lines, 1-based: the id opponents use
    line: int  # physical line number, for messages
    name: str
    rating: int
    rating_text: str  # as written
    opponents: tuple[int, ...]
    scores: tuple[int, ...]
    fields: tuple[Extension, ...] = ()  # each "; key values" field, as written

    def field(self, key: str) -> tuple[str, ...] | None:
        """Return the values of the field ``key`` (e.g. ``"p12"``), or None."""
        for extension in self.fields:
            if extension.key == key:
                return tuple(extension.value.split())
        return None


@dataclass(frozen=True, slots=True)
class TFile:
    """A parsed ``.t`` file: its players in file order."""

    players: tuple[TPlayer, ...]

    @property
    def rounds(self) -> int:
        """The number of rounds paired for anyone."""
        return max((len(p.opponents) for p in self.players), default=0)


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """Yield (physical line number, stripped line) of the lines that hold data."""
    if len(text) > MAX_FILE_CHARS:
        raise TshError(
            "tsh_too_large", f"the file is over {MAX_FILE_CHARS // 1024} KB."
        )
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE_CHARS:
            raise TshError(
                "tsh_line_too_long",
                f"the line is over {MAX_LINE_CHARS} characters.",
                number,
            )
        line = raw.strip()
        if line and not line.startswith("#"):
            yield number, line


def read_t(text: str) -> TFile:
    """Parse a ``.t`` file; raise TshError (``tsh_syntax`` and the bounds' codes)
    naming the bad line."""
    players: list[TPlayer] = []
    for line_number, line in _lines(text):
        if len(players) == MAX_PLAYERS:
            raise TshError(
                "tsh_too_many_players",
                f"a division holds at most {MAX_PLAYERS} players.",
                line_number,
            )
        players.append(_player(line, len(players) + 1, line_number))
    return TFile(tuple(players))


def _player(line: str, number: int, line_number: int) -> TPlayer:
    head, _, rest = line.partition(";")
    if not _:
        raise _syntax(line_number)
    name, rating_text, opponent_words = _split_head(head, line_number)
    score_text, *field_texts = rest.split(";")
    scores = _numbers(score_text.split(), line_number, "scores")
    opponents = _numbers(opponent_words, line_number, "opponents")
    if len(opponents) > MAX_ROUNDS or len(scores) > MAX_ROUNDS:
        raise TshError(
            "tsh_too_many_rounds",
            f"a player has at most {MAX_ROUNDS} rounds.",
            line_number,
        )
    return TPlayer(
        number=number,
        line=line_number,
        name=name,
        rating=_number(re.split(r"[.+]", rating_text)[0], line_number, "rating"),
        rating_text=rating_text,
        opponents=opponents,
        scores=scores,
        fields=tuple(_fields(field_texts)),
    )


def _syntax(line_number: int) -> TshError:
    return TshError(
        "tsh_syntax",
        "expected 'name rating opponents; scores', e.g."
        " 'Smith, Ann 1500 2 3; 412 388'.",
        line_number,
    )


def _split_head(head: str, line_number: int) -> tuple[str, str, list[str]]:
    """Split ``name rating opponents`` where the rating is the first rating-like
    word with only whole numbers after it (at least one word of name before it)."""
    words = list(_WORD.finditer(head))
    numbers_from = len(words)
    while numbers_from > 0 and is_whole_number(words[numbers_from - 1].group()):
        numbers_from -= 1
    for index in range(max(1, numbers_from - 1), len(words)):
        if _RATING.fullmatch(words[index].group()):
            name = head[: words[index - 1].end()].strip()
            opponents = [word.group() for word in words[index + 1 :]]
            return name, words[index].group(), opponents
    raise _syntax(line_number)


def _numbers(words: Sequence[str], line_number: int, what: str) -> tuple[int, ...]:
    try:
        return tuple(whole_number(word) for word in words)
    except NumberError:
        raise TshError(
            "tsh_syntax",
            f"{what} {' '.join(words)[:80]!r} are not numbers.",
            line_number,
        ) from None


def _number(word: str, line_number: int, what: str) -> int:
    try:
        return whole_number(word)
    except NumberError:
        raise TshError(
            "tsh_syntax", f"the {what} {word[:20]!r} is not a number.", line_number
        ) from None


def _fields(texts: Sequence[str]) -> Iterator[Extension]:
    for text in texts:
        key, _, value = text.strip().partition(" ")
        if key:
            yield Extension(key, value.strip())


# --- Import -----------------------------------------------------------------------


def _first_code(player: TPlayer, round_: int) -> str | None:
    values = player.field("p12")
    if values is None or len(values) < round_:
        return None
    return values[round_ - 1]


def _board_of(player: TPlayer, round_: int) -> int | None:
    values = player.field("board")
    if values is None or len(values) < round_:
        return None
    try:
        return whole_number(values[round_ - 1], low=0) or None
    except NumberError:
        return None


def _career_games(player: TPlayer) -> int | None:
    values = player.field("lifeg")
    try:
        return whole_number(values[0], low=0) if values else None
    except NumberError:
        return None


def _off_from(player: TPlayer) -> tuple[int, WithdrawalPolicy] | None:
    """The round an ``off`` player went off, and how: from where their trailing run
    of opponent-0 rounds with the ``off`` score starts, forfeiting those rounds; with
    no such run, from the round after their last, not paired (nothing in the file
    says they forfeit: the system writes a withdrawn player's unpaired rounds as
    nothing, and tsh leaves an inactive player out of its pairings)."""
    values = player.field("off")
    if values is None:
        return None
    try:
        score = whole_number(values[0]) if values else 0
    except NumberError:
        score = 0
    start = len(player.opponents)
    while (
        start > 0
        and player.opponents[start - 1] == 0
        and len(player.scores) >= start
        and player.scores[start - 1] == score
    ):
        start -= 1
    if start == len(player.opponents):
        return start + 1, WithdrawalPolicy.NOT_PAIRED
    # tsh gives an off player their off score each round: a negative one is the
    # forfeit the FORFEIT policy gives; 0 (neither) or more is kept as those
    # rounds' credits, and later rounds pair them no more.
    if score >= 0:
        return start + 1, WithdrawalPolicy.NOT_PAIRED
    return start + 1, WithdrawalPolicy.FORFEIT


def _check_players(players: Sequence[TPlayer]) -> None:
    for player in players:
        if len(player.scores) > len(player.opponents):
            raise TshError(
                "tsh_missing_score",
                f"{len(player.scores)} scores for {len(player.opponents)} opponents.",
                player.line,
            )
        for round_, opponent in enumerate(player.opponents, start=1):
            if opponent > len(players) or opponent == player.number:
                raise TshError(
                    "tsh_unknown_opponent",
                    f"round {round_}: opponent {opponent} is not another player of"
                    " this file.",
                    player.line,
                )


def import_notes(tfile: TFile, rounds: int | None = None) -> tuple[str, ...]:
    """What the import of ``tfile`` keeps that a director should know, one line
    each: an ``off`` player (withdrawn from a round, their rounds against 0 kept
    as tsh gave them) and a tie (a draw: a ``.t`` holds no scores before the
    end-of-game adjustments)."""
    notes = []
    limit = rounds if rounds is not None else MAX_ROUNDS
    for player in tfile.players:
        off = _off_from(player)
        if off is not None and off[0] <= limit:
            values = player.field("off") or ("0",)
            notes.append(
                f"line {player.line}: {player.name} is off (withdrawn) from round"
                f" {off[0]}: each round against 0 is kept as tsh gave it (off"
                f" {values[0]})"
            )
        for round_, opponent in enumerate(player.opponents, start=1):
            if not 0 < opponent <= len(tfile.players) or opponent < player.number:
                continue
            other = tfile.players[opponent - 1]
            if (
                len(player.scores) >= round_
                and len(other.scores) >= round_
                and player.scores[round_ - 1] == other.scores[round_ - 1]
            ):
                notes.append(
                    f"line {player.line}: round {round_}, {player.name} and"
                    f" {other.name} tie at {player.scores[round_ - 1]}: a draw (a .t"
                    " holds no scores before the end-of-game adjustments)"
                )
    return tuple(notes)


def t_to_events(
    tfile: TFile,
    division: str,
    *,
    player_ids: Sequence[str] | None = None,
    bye_spread: int = 50,
    rounds: int | None = None,
) -> list[Event]:
    """Return the events that register, pair and score the file's division.

    The tournament and the division must already exist (the caller's events come
    first). ``player_ids`` gives each player's stable id in file order; by default
    they are ``"<division>-<number>"``. ``bye_spread`` is the tournament's bye spread:
    an opponent-0 score equal to it is a bye of the pairing. ``rounds`` is the
    tournament's number of rounds (an ``off`` player going off after the last round
    is not withdrawn). Raises TshError (``tsh_unknown_opponent``,
    ``tsh_pairing_mismatch``, ``tsh_missing_score``, ``tsh_empty_round``) naming the
    line at fault.
    """
    players = tfile.players
    ids = _ids(players, division, player_ids)
    _check_players(players)
    events: list[Event] = [
        _registration(player, ids[index], division)
        for index, player in enumerate(players)
    ]
    limit = rounds if rounds is not None else MAX_ROUNDS
    off_from: dict[int, int] = {}
    for index, player in enumerate(players):
        off = _off_from(player)
        if off is not None and off[0] <= limit:
            events.append(PlayerWithdrawn(ids[index], off[0], policy=off[1]))
            off_from[player.number] = off[0]
    for round_ in range(1, tfile.rounds + 1):
        events.extend(
            _round_events(players, ids, division, round_, bye_spread, off_from)
        )
    return events


def _ids(
    players: Sequence[TPlayer], division: str, player_ids: Sequence[str] | None
) -> list[str]:
    if player_ids is None:
        return [f"{division}-{player.number}" for player in players]
    ids = list(player_ids)
    if len(ids) != len(players) or len(set(ids)) != len(ids):
        raise TshError(
            "tsh_player_ids",
            f"Give {len(players)} distinct player ids, one per player line.",
        )
    return ids


def _registration(player: TPlayer, player_id: str, division: str) -> PlayerRegistered:
    member = player.field("naspa")
    return PlayerRegistered(
        player_id=player_id,
        division=division,
        name=player.name,
        rating=player.rating,
        member_id=member[0] if member else "",
        rating_text=player.rating_text,
        career_games=_career_games(player),
        extensions=player.fields,
    )


def _round_events(
    players: Sequence[TPlayer],
    ids: Sequence[str],
    division: str,
    round_: int,
    bye_spread: int,
    off_from: dict[int, int],
) -> list[Event]:
    games: list[tuple[TPlayer, TPlayer]] = []
    byes: list[str] = []
    credits: list[Event] = []
    for player in players:
        if len(player.opponents) < round_:
            continue
        opponent_number = player.opponents[round_ - 1]
        score = player.scores[round_ - 1] if len(player.scores) >= round_ else None
        off = off_from.get(player.number, MAX_ROUNDS + 1) <= round_
        if opponent_number == 0 and off:
            # An ``off`` player's round: tsh gives them its score as a bye-like
            # credit (``off 50``: +50 each round), kept as that credit; a bye of
            # the pairing would pair a withdrawn player.
            if score is not None:
                credits.append(
                    UnpairedRoundRecorded(round_, ids[player.number - 1], score)
                )
            continue
        if opponent_number == 0:
            if score is None or score == bye_spread:
                byes.append(ids[player.number - 1])
            else:
                credits.append(
                    UnpairedRoundRecorded(round_, ids[player.number - 1], score)
                )
            continue
        opponent = _opponent(players, player, opponent_number, round_)
        if player.number < opponent.number:
            games.append((player, opponent))
    if not games and not byes and not credits:
        # A round of credits only (every player off, late or credited) is kept as
        # an empty imported pairing; a round with nothing at all is not a round.
        raise TshError(
            "tsh_empty_round",
            f"round {round_} has no game, no bye and no score: nothing to pair.",
        )
    boards, results = _boards(games, ids, round_)
    pairing = RoundPaired(
        division=division,
        round=round_,
        games=tuple(boards),
        byes=tuple(byes),
        method=PairingMethod.IMPORTED,
    )
    return [pairing, *results, *credits]


def _opponent(
    players: Sequence[TPlayer], player: TPlayer, number: int, round_: int
) -> TPlayer:
    opponent = players[number - 1]
    back = opponent.opponents[round_ - 1] if len(opponent.opponents) >= round_ else None
    if back != player.number:
        raise TshError(
            "tsh_pairing_mismatch",
            f"round {round_}: {player.name} plays #{number} ({opponent.name}), whose"
            f" line {opponent.line} has"
            f" {'no opponent' if back is None else f'#{back}'} in that round.",
            player.line,
        )
    return opponent


def _boards(
    games: Sequence[tuple[TPlayer, TPlayer]], ids: Sequence[str], round_: int
) -> tuple[list[Board], list[Event]]:
    """The round's boards (numbered as the file's ``board`` field says, else in
    player order) and the results of the games with scores."""
    boards: list[Board] = []
    results: list[Event] = []
    taken = {board for low, _ in games if (board := _board_of(low, round_)) is not None}
    # An iterator, not a generator expression (mypyc would build it as a list).
    spare = filterfalse(taken.__contains__, range(1, 10_000))
    for low, high in games:
        number = _board_of(low, round_) or _board_of(high, round_) or next(spare)
        low_id, high_id = ids[low.number - 1], ids[high.number - 1]
        if _first_code(low, round_) == "2" or _first_code(high, round_) == "1":
            boards.append(Board(number, high_id, low_id))
        else:
            boards.append(Board(number, low_id, high_id))
        scored = [len(p.scores) >= round_ for p in (low, high)]
        if scored[0] != scored[1]:
            missing = high if scored[0] else low
            raise TshError(
                "tsh_missing_score",
                f"round {round_}: {missing.name} has no score for the game"
                f" against {(low if missing is high else high).name}.",
                missing.line,
            )
        if scored[0]:
            results.append(_result(round_, low, high, low_id, high_id))
    return boards, results


def _result(
    round_: int, low: TPlayer, high: TPlayer, low_id: str, high_id: str
) -> ResultRecorded:
    score_low = low.scores[round_ - 1]
    score_high = high.scores[round_ - 1]
    tied = score_low == score_high
    return ResultRecorded(
        round=round_,
        player_a=low_id,
        player_b=high_id,
        score_a=score_low,
        score_b=score_high,
        # A .t file has no pre-adjustment scores: a tie is a draw.
        pre_adjustment_a=score_low if tied else None,
        pre_adjustment_b=score_high if tied else None,
    )


# --- Export -----------------------------------------------------------------------


def write_t(division_record: DivisionRecord, *, firsts: bool = False) -> str:
    """Return the division as a ``.t`` file: the NASPA submission format.

    One line per player in number order (line order = player number = the id other
    lines use): ``name rating opponents; scores``, single-space separated, then the
    player's fields in their order, those the system computes written from its own
    data. ``firsts=True`` adds tsh's ``p12`` field where the player has none. A
    round with no result yet ends the player's scores. Raises TshError
    (``tsh_unwritable_name``, ``tsh_incomplete_round``, ``tsh_player_numbers``).
    """
    lines = []
    blank = _unscored_games(division_record)
    for position, player in enumerate(division_record.players, start=1):
        if player.number != position:
            raise TshError(
                "tsh_player_numbers",
                f"Players must be numbered 1, 2, 3... in order; {player.name} is"
                f" number {player.number} at position {position}.",
            )
        _check_name(player.name)
        lines.append(_player_line(player, firsts, blank))
    return "".join(f"{line}\n" for line in lines)


def t_notes(division_record: DivisionRecord) -> tuple[str, ...]:
    """What a ``.t`` of the division cannot say as the system holds it, one line
    each for the export's notes: a tie won on the scores before the end-of-game
    adjustments (a ``.t`` holds final scores only, so tsh and NASPA read it as the
    draw its scores spell), and a game without a result written as an empty
    round (``_unscored_games``)."""
    notes = []
    names = {player.number: player.name for player in division_record.players}
    for player in division_record.players:
        for entry in player.rounds:
            if (
                entry.kind is EntryKind.GAME
                and entry.result == 1.0
                and entry.own_score is not None
                and entry.own_score == entry.opponent_score
            ):
                notes.append(
                    f"round {entry.round}: {player.name} beat"
                    f" {names.get(entry.opponent or 0, '?')} on a tie,"
                    f" {entry.own_score}-{entry.opponent_score}, decided by the scores"
                    " before the end-of-game adjustments; a .t holds the final"
                    " scores only, so tsh and NASPA read it as a draw"
                )
    for number, round_ in sorted(_unscored_games(division_record)):
        notes.append(
            f"round {round_}: {names.get(number, '?')}'s game has no result but a"
            " later round has one; written as an empty round (0 and 0)"
        )
    return tuple(notes)


def _check_name(name: str) -> None:
    """Refuse a name that would not read back as itself."""
    head = list(_WORD.finditer(name))
    if (
        not head
        or ";" in name
        or "\n" in name
        or "\r" in name
        or name.startswith("#")
        or name != name.strip()
        or _RATING.fullmatch(head[-1].group())
    ):
        raise TshError(
            "tsh_unwritable_name",
            f"The name {name!r} cannot be written to a .t file (no ';', no leading"
            " '#', no trailing number, no surrounding spaces).",
        )


@dataclass
class _Line:
    """A player's rounds as the ``.t`` columns, and the values of the computed
    fields."""

    opponents: list[int] = field(default_factory=list)
    scores: list[int | None] = field(default_factory=list)
    p12: list[int] = field(default_factory=list)
    boards: list[int] = field(default_factory=list)


# The columns' public name, for the other writers of tsh's files (rules.tourneyjs).
Columns = _Line


def columns(player: PlayerRecord, blank: Set[tuple[int, int]] = frozenset()) -> _Line:
    """A player's rounds as tsh's columns (opponents, scores, p12, boards), a game
    without a result yet as a None score: the ``.t`` writer cuts there, the
    ``tourney.js`` writer (``rules.tourneyjs``) writes it as tsh's ``undefined``.
    The (player, round) pairs in `blank` are written as tsh's empty round."""
    line = _Line()
    for entry in _written_rounds(player):
        if (player.number, entry.round) in blank:
            entry = RoundEntry(entry.round, EntryKind.UNPLAYED, board=entry.board)
        game = entry.kind is EntryKind.GAME
        line.opponents.append((entry.opponent or 0) if game else 0)
        line.p12.append({True: 1, False: 2, None: 0}[entry.went_first] if game else 0)
        line.boards.append(entry.board or 0)
        if game:
            line.scores.append(entry.own_score)
        else:
            # A bye, forfeit or credit: own_score is the signed spread credited;
            # a round without anything is tsh's 0.
            line.scores.append(entry.own_score or 0)
    return line


def _columns(player: PlayerRecord, blank: Set[tuple[int, int]]) -> _Line:
    line = columns(player, blank)
    _cut_at_missing_result(player, line)
    return line


def _written_rounds(player: PlayerRecord) -> Sequence[RoundEntry]:
    """The rounds up to the player's last one with something in it; a withdrawn
    player's every round, as tsh writes an off player's rounds: opponent 0 and
    their off score (0 for one who is simply not paired)."""
    rounds = player.rounds
    if player.withdrawn:
        return rounds
    last = len(rounds)
    while last > 0 and rounds[last - 1].kind is EntryKind.UNPLAYED:
        last -= 1
    return rounds[:last]


def _cut_at_missing_result(player: PlayerRecord, line: _Line) -> None:
    """End the scores at the first game without a result (the round is being
    played); ``_unscored_games`` has already blanked those followed by a result."""
    if None in line.scores:
        line.scores = line.scores[: line.scores.index(None)]


def _unscored_games(division: DivisionRecord) -> set[tuple[int, int]]:
    """(player number, round) of each game without a result that either player
    has a later result after (a late entry paired in a round they never played):
    tsh cannot write a score after a missing one, so both lines write the round
    as tsh holds a round without anything in it, opponent 0 and score 0, which
    counts as the unscored game does: neither a win nor a loss."""
    blank: set[tuple[int, int]] = set()
    for player in division.players:
        scored = [e.round for e in player.rounds if e.own_score is not None]
        last = max(scored, default=0)
        for entry in player.rounds:
            if (
                entry.kind is EntryKind.GAME
                and entry.own_score is None
                and entry.round < last
            ):
                blank.add((player.number, entry.round))
                if entry.opponent is not None:
                    blank.add((entry.opponent, entry.round))
    return blank


def _player_line(
    player: PlayerRecord, firsts: bool, blank: set[tuple[int, int]]
) -> str:
    line = _columns(player, blank)
    head = " ".join(
        [
            player.name,
            player.rating_text or str(player.rating),
            *map(str, line.opponents),
        ]
    )
    text = f"{head}; {' '.join(map(str, line.scores))}".rstrip()
    for key, value in _written_fields(player, line, firsts):
        text += f"; {key} {value}".rstrip()
    return text


def _written_fields(
    player: PlayerRecord, line: _Line, firsts: bool
) -> list[tuple[str, str]]:
    """The player's fields in their order, the computed ones from the data, then
    the computed ones the source did not have and the system has."""
    computed = _computed(player, line)
    written = []
    for key, value in player.extensions:
        if key in COMPUTED_FIELDS:
            if key in computed:
                written.append((key, computed.pop(key)))
        else:
            written.append((key, value))
    if firsts and "p12" in computed:
        written.append(("p12", computed.pop("p12")))
    for key in ("off", "lifeg", "naspa"):
        if key in computed:
            written.append((key, computed.pop(key)))
    return written


def computed_fields(player: PlayerRecord, line: _Line) -> dict[str, str]:
    """The fields the system writes from its own data (``COMPUTED_FIELDS``), as
    the ``.t`` line writes them; ``rrank`` only where the source had one."""
    return _computed(player, line)


def _computed(player: PlayerRecord, line: _Line) -> dict[str, str]:
    source = dict(player.extensions)
    values = {
        "p12": " ".join(map(str, line.p12)),
        "board": " ".join(map(str, line.boards)),
    }
    ranks = _ranks(player, len(line.opponents), source.get("rrank"))
    if ranks is not None:
        values["rrank"] = ranks
    if player.withdrawn:
        values["off"] = _off_value(player, source.get("off"))
    if player.career_games is not None:
        values["lifeg"] = str(player.career_games)
    if player.member_id:
        values["naspa"] = player.member_id
    return values


def _ranks(player: PlayerRecord, rounds: int, source: str | None) -> str | None:
    """The rank after each written round; with the pre-event rank first when the
    source wrote one value more than its rounds."""
    if source is None or not player.ranks:
        return None
    values = player.ranks[: rounds + 1]
    with_start = len(source.split()) == rounds + 1
    shown = values if with_start else values[1:]
    return " ".join("0" if rank is None else str(rank) for rank in shown)


def _off_value(player: PlayerRecord, source: str | None) -> str:
    forfeits = [
        entry.own_score
        for entry in player.rounds
        if entry.kind is EntryKind.WITHDRAWAL_FORFEIT and entry.own_score is not None
    ]
    if forfeits:
        return str(forfeits[-1])
    return source if source is not None else "0"


# --- config.tsh ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TshConfig:
    """What a ``config.tsh`` sets up: the divisions (name, file), the settings
    this system takes (``CONFIG_KEYS``), each division's prizes from its
    ``prize`` lines, and the lines it does not take (number, text)."""

    divisions: tuple[tuple[str, str], ...]
    settings: dict[str, object]
    not_taken: tuple[tuple[int, str], ...]
    prizes: dict[str, tuple[Prize, ...]] = field(default_factory=dict)


# tsh's configuration keys this system has a setting for: the event's name and
# date, its rounds (max_rounds; max_div_rounds, by division), caps, bye spread,
# rating system, and the pairing rules Gibsonization and prize bands (by division).
CONFIG_KEYS = (
    "max_rounds",
    "max_div_rounds",
    "spread_cap",
    "bye_spread",
    "rating_system",
    "event_name",
    "event_date",
    "gibson",
    "prize_bands",
)
# The value is what follows "=", less one ";" at its end (``_config_value``).
_CONFIG = re.compile(r"config\s+(\w+)\s*=(.*)")
# A quoted value's inside: anything but a quote (an event's name has spaces).
_QUOTED_WORD = re.compile(r"[^'\"]*")
# tsh's prize types this system has a prize kind for (tsh: rank is the final
# place, highloss the highest losing score, lowwin the lowest winning score).
_PRIZE_KINDS = {
    "rank": PrizeKind.PLACE,
    "highloss": PrizeKind.HIGH_LOSS,
    "lowwin": PrizeKind.LOW_WIN,
}
_PRIZE = re.compile(
    r"prize\s+(\w+)\s+([0-9]+)\s+(\w+)\s+\$([0-9]+)(?:\.([0-9][0-9]))?\s*", re.I
)


def read_config(text: str) -> TshConfig:
    """Parse ``config.tsh``; raise TshError naming the line of a bad value."""
    divisions: list[tuple[str, str]] = []
    settings: dict[str, object] = {}
    not_taken: list[tuple[int, str]] = []
    prizes: dict[str, list[Prize]] = {}
    for number, line in _lines(text):
        words = line.split()
        if words[0].lower() == "division" and len(words) == 3:
            divisions.append((words[1].upper(), words[2]))
            continue
        match = _CONFIG.fullmatch(line)
        if match is not None and match.group(1) in CONFIG_KEYS:
            value = match.group(2).strip().removesuffix(";")
            settings[match.group(1)] = _config_value(value, number)
            continue
        prize = _prize(line)
        if prize is not None:
            prizes.setdefault(prize[0], []).append(prize[1])
            continue
        not_taken.append((number, line))
    return TshConfig(
        tuple(divisions),
        settings,
        tuple(not_taken),
        {division: tuple(listed) for division, listed in prizes.items()},
    )


def _prize(line: str) -> tuple[str, Prize] | None:
    """A ``prize TYPE PLACE DIVISION $AMOUNT`` line as (division, prize); None for
    a prize this system has no kind for or whose value is not money."""
    match = _PRIZE.fullmatch(line)
    if match is None or match.group(1).lower() not in _PRIZE_KINDS:
        return None
    kind, place, division, dollars, cents = match.groups()
    amount = int(dollars) * 100 + int(cents or 0)
    return division.upper(), Prize(_PRIZE_KINDS[kind.lower()], amount, place=int(place))


def by_division(value: object, division: str) -> object:
    """A setting's value for one division: a ``{'A' => ...}`` value's entry for
    it (None when it has none), any other value as it is."""
    if isinstance(value, dict):
        found = {str(k).upper(): v for k, v in value.items()}
        return found.get(division.upper())
    return value


_HASH_ENTRY = re.compile(
    r"""\s*['"]?(\w+)['"]?\s*=>\s*(\[[^\]]*\]|-?\d+|(['"])[^'"]*\3)\s*,?"""
)


def _config_value(text: str, number: int) -> object:
    """A config value: a whole number, a quoted word, a list of numbers, or a
    perl hash of those by division (``{ 'A' => [1, 2, 4], 'B' => 12 }``).

    Read by splitting, not by one pattern: the list's pattern had three ``\\s*`` in
    a row and took cubic time on ``[`` and spaces (4,000 of them: 88 s of CPU);
    each step here is linear in the line, which ``_lines`` bounds."""
    text = text.strip()
    if text.startswith("{") and text.endswith("}"):
        body, entries = text[1:-1], {}
        position = 0
        while body[position:].strip():
            entry = _HASH_ENTRY.match(body, position)
            if entry is None:
                break
            entries[entry.group(1)] = _config_value(entry.group(2), number)
            position = entry.end()
        else:
            return entries
    if is_whole_number(text, signed=True):
        return whole_number(text)
    quoted = len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0]
    if quoted and _QUOTED_WORD.fullmatch(text[1:-1]):
        return text[1:-1]
    if text.startswith("[") and text.endswith("]"):
        # "[1, 2]", "[1, 2,]" and "[]": numbers, a comma between, one after.
        inner = text[1:-1].strip().removesuffix(",").strip()
        items = [item.strip() for item in inner.split(",")] if inner else []
        if all(is_whole_number(item, signed=True) for item in items):
            return [whole_number(item) for item in items]
    raise TshError(
        "tsh_config_value",
        f"{text!r} is not a number, a quoted word, a list of numbers or a"
        " {'division' => value} hash.",
        number,
    )


# --- config.tsh: autopair lines --------------------------------------------------

# tsh's pairing commands (names and abbreviations, as its manual lists them) that a
# round schedule has a system for; the others stay lines not taken.
_AUTOPAIR_COMMANDS = {
    "rr": PairingMethod.ROUND_ROBIN,
    "roundrobin": PairingMethod.ROUND_ROBIN,
    "koth": PairingMethod.KING_OF_THE_HILL,
    "ns": PairingMethod.SWISS,
    "newswiss": PairingMethod.SWISS,
    "swiss": PairingMethod.SWISS,
    "cp": PairingMethod.CHEW,
    "chewpair": PairingMethod.CHEW,
    "if": PairingMethod.INIT_FONTES,
    "initfontes": PairingMethod.INIT_FONTES,
    "cop": PairingMethod.COP,
}


@dataclass(frozen=True, slots=True)
class AutopairLine:
    """One ``autopair DIVISION SOURCE TARGET COMMAND ARGS`` line of config.tsh:
    when the results of round ``source`` are in, ``command`` pairs round
    ``target`` (tsh's example ``autopair a 0 1 rr a``: a round robin from round 1).
    ``count`` is the round robins (``rr 2 a``: a double one) or InitFontes rounds
    (``if 3 a``) the command pairs; 1 for the other systems."""

    line: int
    division: str
    source: int
    target: int
    method: PairingMethod
    count: int = 1


def read_autopair(text: str) -> tuple[AutopairLine, ...]:
    """Return config.tsh's autopair lines whose command is a system of this one;
    raise TshError naming the line of a bad round number."""
    found = []
    for number, line in _lines(text):
        words = line.split()
        if words[0].lower() != "autopair" or len(words) < 5:
            continue
        method = _AUTOPAIR_COMMANDS.get(words[4].lower())
        if method is None:
            continue  # a command this system does not have: a line not taken
        try:
            source = whole_number(words[2], low=0, high=MAX_ROUNDS)
            target = whole_number(words[3], low=1, high=MAX_ROUNDS)
        except NumberError:
            raise TshError(
                "tsh_config_value",
                "autopair needs the source round and the round it pairs as whole"
                f" numbers ({words[2]!r}, {words[3]!r}).",
                number,
            ) from None
        args = words[5:]
        count = 1
        if len(args) >= 2 and is_whole_number(args[0]):
            count = whole_number(args[0], high=MAX_ROUNDS)
        if method in (PairingMethod.ROUND_ROBIN, PairingMethod.INIT_FONTES):
            count = max(count, 1)
        found.append(
            AutopairLine(number, words[1].upper(), source, target, method, count)
        )
    return tuple(found)


def autopair_rounds(
    lines: Sequence[AutopairLine], division: str, players: int, rounds: int
) -> tuple[tuple[int, PairingMethod, int], ...]:
    """Return the division's round schedule as (round, method, based on round):
    a round robin covers its cycles (``players`` rounded up to even, less one
    round each), InitFontes its rounds, each after the first on the round before's
    results; a later line for the same round replaces an earlier one, as tsh's
    configuration does. Rounds past ``rounds`` are left out."""
    schedule: dict[int, tuple[PairingMethod, int]] = {}
    for line in lines:
        if line.division != division.upper():
            continue
        span = line.count
        if line.method is PairingMethod.ROUND_ROBIN:
            span = line.count * (players + players % 2 - 1)
        for offset in range(max(span, 1)):
            round_ = line.target + offset
            if round_ > rounds:
                break
            schedule[round_] = (line.method, line.source if not offset else round_ - 1)
    return tuple(
        (round_, method, based)
        for round_, (method, based) in sorted(schedule.items())
        if based < round_
    )
