"""Read and write tsh ``.t`` division files (also NASPA's submission format).

tsh, John Chew's tournament software, keeps one ``.t`` file per division, one player
per line::

    Smith, Ann        1500  2 3 0; 412 388 50; p12 1 2 0

name, rating, the opponent of each round by player number (the player's position
among the file's player lines, 1-based), ``;``, the player's own score of each round,
then optional ``; key values`` fields (tsh's own bookkeeping, kept as written).
Blank lines and ``#`` comments are skipped; errors name the physical line.

Opponent 0 means no opponent. tsh enters a bye as the player's number and one score,
"usually 50, or -50 for a forfeit" (tsh manual, data entry), and a forfeit between
paired players is entered the same way (+50 for the player present, -50 for the
absentee) so that ratings bodies never rate it. Hence, reading:

- opponent 0 with a positive score: the bye spread (``bye_spread``) is a bye of the
  round's pairing; any other positive score is an ``UnpairedRoundRecorded`` with
  that spread (a win);
- opponent 0 with a negative score: an ``UnpairedRoundRecorded`` forfeit loss;
- opponent 0 with score 0: nothing (absent: a late entry's missed round);
- opponent 0 with no score yet: a bye of the pairing.

and writing, from ``rules.records``: a bye is 0 and the bye spread, a forfeit win 0
and +forfeit spread, a forfeit loss 0 and -forfeit spread, an absent round 0 and 0.
A forfeit therefore reads back as a bye and a forfeit loss: the same standings, and
unrated either way. ``p12`` (1: went first, 2: went second, 0: no game; tsh's other
codes mean "not yet decided"), when present, says who went first; without it the
lower player number is recorded first.
A tie in a ``.t`` file has no pre-adjustment scores: it is imported as a draw (the
pre-adjustment scores are recorded equal to the finals), as tsh scores it.

Usage::

    tfile = read_t(text)
    events = t_to_events(tfile, "A")
    text = write_t(tournament_to_records(replay([...events])).divisions[0])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules.records import DivisionRecord, EntryKind, PlayerRecord
from rules.tournament import (
    Board,
    Event,
    PairingMethod,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentError,
    UnpairedRoundRecorded,
)

__all__ = [
    "TFile",
    "TPlayer",
    "TshError",
    "read_t",
    "t_to_events",
    "write_t",
]

LINE_RE = re.compile(
    r"^(.+?\S)\s+(\d+(?:[.+]\d+)*)\s*([\d\s]*);\s*([-\d\s]*)((?:;[^;]*)*)$"
)


class TshError(TournamentError):
    """Raised when a ``.t`` file cannot be read, imported or written.

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
    extra: tuple[str, ...] = ()  # each "; key values" field as written, without ";"

    def field(self, key: str) -> tuple[str, ...] | None:
        """Return the values of the extra field ``key`` (e.g. ``"p12"``), or None."""
        for segment in self.extra:
            words = segment.split()
            if words and words[0] == key:
                return tuple(words[1:])
        return None


@dataclass(frozen=True, slots=True)
class TFile:
    """A parsed ``.t`` file: its players in file order."""

    players: tuple[TPlayer, ...]

    @property
    def rounds(self) -> int:
        """The number of rounds paired for anyone."""
        return max((len(p.opponents) for p in self.players), default=0)


def read_t(text: str) -> TFile:
    """Parse a ``.t`` file; raise TshError (``tsh_syntax``) naming the bad line."""
    players: list[TPlayer] = []
    for line_number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = LINE_RE.match(line)
        if match is None:
            raise TshError(
                "tsh_syntax",
                "expected 'name rating opponents; scores', e.g."
                " 'Smith, Ann 1500 2 3; 412 388'.",
                line_number,
            )
        name, rating_text, opponents, scores, extra = match.groups()
        try:
            score_values = tuple(int(word) for word in scores.split())
        except ValueError:
            raise TshError(
                "tsh_syntax", f"scores {scores.strip()!r} are not numbers.", line_number
            ) from None
        rating = int(re.split(r"[.+]", rating_text)[0])
        players.append(
            TPlayer(
                number=len(players) + 1,
                line=line_number,
                name=name,
                rating=rating,
                rating_text=rating_text,
                opponents=tuple(int(word) for word in opponents.split()),
                scores=score_values,
                extra=tuple(segment.strip() for segment in extra.split(";")[1:]),
            )
        )
    return TFile(tuple(players))


def _first_code(player: TPlayer, round_: int) -> str | None:
    values = player.field("p12")
    if values is None or len(values) < round_:
        return None
    return values[round_ - 1]


def t_to_events(
    tfile: TFile,
    division: str,
    *,
    player_ids: Sequence[str] | None = None,
    bye_spread: int = 50,
) -> list[Event]:
    """Return the events that register, pair and score the file's division.

    The tournament and the division must already exist (the caller's events come
    first). ``player_ids`` gives each player's stable id in file order; by default
    they are ``"<division>-<number>"``. ``bye_spread`` is the tournament's bye spread:
    an opponent-0 score equal to it is a bye of the pairing. Raises TshError
    (``tsh_unknown_opponent``, ``tsh_pairing_mismatch``, ``tsh_missing_score``,
    ``tsh_empty_round``) naming the line at fault.
    """
    players = tfile.players
    if player_ids is None:
        ids = [f"{division}-{player.number}" for player in players]
    else:
        ids = list(player_ids)
        if len(ids) != len(players) or len(set(ids)) != len(ids):
            raise TshError(
                "tsh_player_ids",
                f"Give {len(players)} distinct player ids, one per player line.",
            )
    events: list[Event] = [
        PlayerRegistered(
            player_id=ids[index],
            division=division,
            name=player.name,
            rating=player.rating,
        )
        for index, player in enumerate(players)
    ]
    for player in players:
        if len(player.scores) > len(player.opponents):
            raise TshError(
                "tsh_missing_score",
                f"{len(player.scores)} scores for {len(player.opponents)} opponents.",
                player.line,
            )
        for round_, number in enumerate(player.opponents, start=1):
            if number > len(players) or number == player.number:
                raise TshError(
                    "tsh_unknown_opponent",
                    f"round {round_}: opponent {number} is not another player of"
                    " this file.",
                    player.line,
                )
    for round_ in range(1, tfile.rounds + 1):
        games: list[tuple[TPlayer, TPlayer]] = []
        byes: list[str] = []
        results: list[Event] = []
        awarded: list[Event] = []
        for player in players:
            if len(player.opponents) < round_:
                continue
            opponent_number = player.opponents[round_ - 1]
            score = player.scores[round_ - 1] if len(player.scores) >= round_ else None
            if opponent_number == 0:
                if score is None or score == bye_spread:
                    byes.append(ids[player.number - 1])
                elif score != 0:
                    awarded.append(
                        UnpairedRoundRecorded(
                            round=round_,
                            player_id=ids[player.number - 1],
                            spread=score,
                        )
                    )
                continue
            opponent = players[opponent_number - 1]
            back = (
                opponent.opponents[round_ - 1]
                if len(opponent.opponents) >= round_
                else None
            )
            if back != player.number:
                raise TshError(
                    "tsh_pairing_mismatch",
                    f"round {round_}: {player.name} plays #{opponent_number}"
                    f" ({opponent.name}), whose line {opponent.line} has"
                    f" {'no opponent' if back is None else f'#{back}'} in that round.",
                    player.line,
                )
            if player.number < opponent.number:
                games.append((player, opponent))
        if not games and not byes:
            raise TshError(
                "tsh_empty_round",
                f"round {round_} has no game and no bye: nothing to pair.",
            )
        boards = []
        for board, (low, high) in enumerate(games, start=1):
            low_id, high_id = ids[low.number - 1], ids[high.number - 1]
            if _first_code(low, round_) == "2" or _first_code(high, round_) == "1":
                boards.append(Board(board, high_id, low_id))
            else:
                boards.append(Board(board, low_id, high_id))
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
                score_low = low.scores[round_ - 1]
                score_high = high.scores[round_ - 1]
                tied = score_low == score_high
                results.append(
                    ResultRecorded(
                        round=round_,
                        player_a=low_id,
                        player_b=high_id,
                        score_a=score_low,
                        score_b=score_high,
                        # A .t file has no pre-adjustment scores: a tie is a draw.
                        pre_adjustment_a=score_low if tied else None,
                        pre_adjustment_b=score_high if tied else None,
                    )
                )
        events.append(
            RoundPaired(
                division=division,
                round=round_,
                games=tuple(boards),
                byes=tuple(byes),
                method=PairingMethod.IMPORTED,
            )
        )
        events.extend(results)
        events.extend(awarded)
    return events


def write_t(division_record: DivisionRecord, *, firsts: bool = False) -> str:
    """Return the division as a ``.t`` file: the NASPA submission format.

    One line per player in number order (line order = player number = the id other
    lines use): ``name rating opponents; scores``, single-space separated, opponent 0
    for a bye, forfeit or absent round. ``firsts=True`` adds tsh's ``p12`` field.
    A round with no result yet ends the player's scores. Raises TshError
    (``tsh_unwritable_name``, ``tsh_incomplete_round``, ``tsh_player_numbers``).
    """
    lines = []
    for position, player in enumerate(division_record.players, start=1):
        if player.number != position:
            raise TshError(
                "tsh_player_numbers",
                f"Players must be numbered 1, 2, 3... in order; {player.name} is"
                f" number {player.number} at position {position}.",
            )
        line = _player_line(player, firsts)
        # The line must read back as this name (read_t strips the line first).
        parsed = LINE_RE.match(line.strip())
        if (
            ";" in player.name
            or "\n" in player.name
            or "\r" in player.name
            or player.name.startswith("#")
            or parsed is None
            or parsed.group(1) != player.name
        ):
            raise TshError(
                "tsh_unwritable_name",
                f"The name {player.name!r} cannot be written to a .t file (no ';',"
                " no leading '#', no trailing number, no surrounding spaces).",
            )
        lines.append(line)
    return "".join(f"{line}\n" for line in lines)


def _player_line(player: PlayerRecord, firsts: bool) -> str:
    opponents: list[int] = []
    scores: list[int | None] = []
    p12: list[int] = []
    for entry in player.rounds:
        if entry.kind is EntryKind.GAME:
            opponents.append(entry.opponent or 0)
            scores.append(entry.own_score)
            p12.append({True: 1, False: 2, None: 0}[entry.went_first])
            continue
        opponents.append(0)
        p12.append(0)
        if entry.kind is EntryKind.UNPLAYED:
            scores.append(0)
        else:
            # A bye, forfeit or credit: own_score is the signed spread credited.
            scores.append(entry.own_score)
    if None in scores:
        cut = scores.index(None)
        later = [
            entry
            for entry, score in zip(player.rounds[cut:], scores[cut:], strict=True)
            if score is not None and entry.kind is not EntryKind.UNPLAYED
        ]
        if later:
            raise TshError(
                "tsh_incomplete_round",
                f"{player.name} has no result in round {cut + 1} but has one in"
                f" round {later[0].round}; enter round {cut + 1} first.",
            )
        scores = scores[:cut]
    head = " ".join([player.name, str(player.rating), *map(str, opponents)])
    line = f"{head}; {' '.join(str(score) for score in scores)}".rstrip()
    if firsts:
        line += f"; p12 {' '.join(map(str, p12))}".rstrip()
    return line
