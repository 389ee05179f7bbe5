"""Neutral per-division result records, the input of every submission-file writer.

A tournament's replayed state is turned into these records (by ``rules.tournament``),
and the writers in ``rules.tsh`` and ``rules.submissions`` turn the records into the
files ratings bodies accept. Keeping the writers on this small shape means a writer
never needs to know how a tournament was run.

Usage::

    record = DivisionRecord(
        name="A",
        players=(PlayerRecord(number=1, name="Smith, Ann", rating=1500, rounds=(...)),),
    )
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EntryKind(StrEnum):
    """What one round was for one player."""

    GAME = "game"  # a paired game: opponent, both scores once it has a result
    BYE = "bye"  # a bye: no opponent; own_score is the bye spread credited
    FORFEIT_WIN = "forfeit_win"  # the opponent forfeited (or withdrew)
    FORFEIT_LOSS = "forfeit_loss"  # the director recorded this player's forfeit
    # A withdrawn player's round: their paired game, or (policy "forfeit") a round
    # paired without them; a loss with the forfeit spread.
    WITHDRAWAL_FORFEIT = "withdrawal_forfeit"
    # A round the player was not paired in, credited by the director (a late entry's
    # missed round): tsh's opponent 0 with a score; > 0 a win, < 0 a loss, 0 neither.
    CREDIT = "credit"
    UNPLAYED = "unplayed"  # nothing for the round (not paired, or not yet entered)


# The kinds that are a loss whatever the scores: the player's own forfeit, recorded
# by the director or following from their withdrawal (a credit loses only when its
# spread is negative, so it is not one of them).
LOSING_KINDS: frozenset[EntryKind] = frozenset(
    {EntryKind.FORFEIT_LOSS, EntryKind.WITHDRAWAL_FORFEIT}
)


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One player's round: opponent (a player number in the same division, or None)."""

    round: int  # 1-based
    kind: EntryKind
    opponent: int | None = None
    own_score: int | None = None
    opponent_score: int | None = None
    went_first: bool | None = None
    # The result after the tie rule: 1 win, 0.5 draw, 0 loss; None when not played.
    result: float | None = None
    board: int | None = None  # the board the round was paired on


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player of a division with a stable number (1-based, the file's line order)."""

    number: int
    name: str
    rating: int
    rounds: tuple[RoundEntry, ...]
    member_id: str = ""
    withdrawn: bool = False
    rating_text: str = ""  # the rating as a source file wrote it ("" : str(rating))
    career_games: int | None = None  # rated games before the event (tsh's lifeg)
    # A .t line's other fields (key, values as written), in order.
    extensions: tuple[tuple[str, str], ...] = ()
    # The rank before round 1 (index 0) and after each round (None: not ranked).
    ranks: tuple[int | None, ...] = ()


@dataclass(frozen=True, slots=True)
class DivisionRecord:
    """A division's players in file order (number 1 first) and its results."""

    name: str
    players: tuple[PlayerRecord, ...]
    # The rounds the division plays when fewer than the event's (tsh's
    # max_div_rounds; the rules' ``rounds_of``); 0: the event's ``rounds``.
    rounds: int = 0


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """Everything a submission file needs: name, date and divisions."""

    name: str
    date: str  # ISO date of the first day, YYYY-MM-DD
    divisions: tuple[DivisionRecord, ...]
    rating_system: str = "nsa2008"  # as tsh names it: nsa2008, naspa-csw, wespa, absp
    club_event: bool = False  # NASPA's LCT rule
    rounds: int = 0  # the number of rounds the event is configured for (0: unknown)
