"""A division's own rules: how its rounds are paired and what prizes it awards.

These are plain values a director sets and the event log records
(``PairingRulesSet``, ``PrizeTableSet`` in ``rules.tournament``), so pairings and
prize winners replay from the log. ``rules.pairing`` pairs under the
``PairingOptions``; ``rules.prizes`` computes who wins a ``PrizeTable``.

Usage::

    options = PairingOptions(gibson=True, prize_places=3, max_repeats=1)
    options.check()
    table = PrizeTable(
        prizes=(Prize(PrizeKind.PLACE, amount=20000),),
        classes=(RatingClass("B", highest=1499),),
    )
    check_prize_table(table, rounds=7)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.errors import TournamentError

__all__ = [
    "DEFAULT_GIBSON_SPREAD",
    "GAME_PRIZE_KINDS",
    "FixedBoard",
    "PairingOptions",
    "Prize",
    "PrizeKind",
    "PrizeTable",
    "RatingClass",
    "TieBreak",
    "TieRule",
    "check_prize_table",
]

# tsh's MaxSpread default: 500 points per player per round (tsh's pairing
# documentation; liwords' COP takes the same figure as its GibsonSpread).
DEFAULT_GIBSON_SPREAD = 500


@dataclass(frozen=True, slots=True)
class FixedBoard:
    """A player who always plays at ``board`` (a wheelchair space, the
    director's table)."""

    player_id: str
    board: int


@dataclass(frozen=True, slots=True)
class PairingOptions:
    """A division's pairing settings; the defaults pair as the plain systems do.

    - ``max_repeats``: how many times two players may have met before this round
      (0: never meet twice); None: the system's default
      (``rules.pairing.DEFAULT_MAX_REPEATS``). The round robin and InitFontes
      follow their schedule.
    - ``gibson``: Gibsonize King of the Hill and Swiss rounds (Chew and COP always
      do, as tsh's ChewPair and NASPA's COP do); ``gibson_spread``: the spread a
      player is assumed to gain per round when catching up.
    - ``prize_places``: how many places win money; None: a quarter of the division
      (at least 1), tsh's default prize bands.
    - ``prize_bands``: Chew pairings' bands, the last place of each (e.g. (1, 2, 4)
      makes 1st, 2nd and 3rd-4th the bands); empty: each place of ``prize_places``.
    - ``fixed_boards``: ``FixedBoard`` pins: that player's game is on that
      board in every system pairing.
    - ``init_fontes_rounds``: how many opening rounds InitFontes schedules.
    """

    max_repeats: int | None = None
    gibson: bool = False
    gibson_spread: int = DEFAULT_GIBSON_SPREAD
    prize_places: int | None = None
    prize_bands: tuple[int, ...] = ()
    fixed_boards: tuple[FixedBoard, ...] = ()
    init_fontes_rounds: int = 3

    def boards(self) -> dict[str, int]:
        """Return each pinned player's board."""
        return {pin.player_id: pin.board for pin in self.fixed_boards}

    def check(self) -> None:
        """Raise TournamentError (``invalid_setting``) naming a bad option."""
        checks = (
            (self.max_repeats is None or _whole(self.max_repeats, 0), "max_repeats"),
            (_whole(self.gibson_spread, 0), "gibson_spread"),
            (self.prize_places is None or _whole(self.prize_places, 1), "prize_places"),
            (
                all(_whole(band, 1) for band in self.prize_bands)
                and list(self.prize_bands) == sorted(set(self.prize_bands)),
                "prize_bands",
            ),
            (
                all(_whole(pin.board, 1) for pin in self.fixed_boards)
                and len(self.boards()) == len(self.fixed_boards),
                "fixed_boards",
            ),
            (_whole(self.init_fontes_rounds, 1), "init_fontes_rounds"),
        )
        for ok, name in checks:
            if not ok:
                raise TournamentError(
                    "invalid_setting", _OPTION_HELP[name], f"options.{name}"
                )


_OPTION_HELP = {
    "max_repeats": "The repeat limit must be a whole number of 0 or more.",
    "gibson_spread": "The Gibson spread must be a whole number of 0 or more.",
    "prize_places": "The prize places must be a whole number of 1 or more.",
    "prize_bands": "Prize bands must be increasing places of 1 or more.",
    "fixed_boards": "Each player can be fixed to one board, numbered 1 or more.",
    "init_fontes_rounds": "InitFontes needs 1 or more rounds.",
}


def _whole(value: object, least: int) -> bool:
    return type(value) is int and value >= least


# --- Prizes ------------------------------------------------------------------------


class PrizeKind(StrEnum):
    """What a prize is for."""

    PLACE = "place"  # final place, overall or in ``rating_class``
    MOST_WINS = "most_wins"  # most wins (a draw is half), overall or in a class
    HIGH_GAME = "high_game"  # highest score in a game
    HIGH_LOSS = "high_loss"  # highest score in a lost game
    LOW_WIN = "low_win"  # lowest score in a won game
    BEST_UPSET = "best_upset"  # a win over the highest-rated opponent, by rating gap


class TieRule(StrEnum):
    """How a tie for a prize is settled."""

    SPLIT = "split"
    ALL = "all"
    TIE_BREAK = "tie_break"


class TieBreak(StrEnum):
    """What orders tied players under ``TieRule.TIE_BREAK`` (then player number)."""

    SPREAD = "spread"  # more spread first
    TOTAL_SCORE = "total_score"  # more points scored first
    LOWER_RATING = "lower_rating"  # the lower pre-event rating first
    EARLIER_ROUND = "earlier_round"  # game prizes: the earlier game first
    PLAYER_NUMBER = "player_number"  # the lower player number first


@dataclass(frozen=True, slots=True)
class RatingClass:
    """A class of a division by pre-event rating, both bounds included (tsh's
    ``classes``): None leaves a side open."""

    name: str
    lowest: int | None = None
    highest: int | None = None

    def holds(self, rating: int) -> bool:
        """True when ``rating`` is in the class's band."""
        return (self.lowest is None or rating >= self.lowest) and (
            self.highest is None or rating <= self.highest
        )


GAME_PRIZE_KINDS = frozenset(
    {PrizeKind.HIGH_GAME, PrizeKind.HIGH_LOSS, PrizeKind.LOW_WIN, PrizeKind.BEST_UPSET}
)


@dataclass(frozen=True, slots=True)
class Prize:
    """One line of a prize table. ``amount`` is in the currency's minor unit
    (cents); ``place`` is the place in the prize's order (1: the best);
    ``first_round``/``last_round`` limit a game prize to those rounds."""

    kind: PrizeKind
    amount: int
    place: int = 1
    rating_class: str | None = None
    ties: TieRule = TieRule.SPLIT
    tie_break: TieBreak = TieBreak.PLAYER_NUMBER
    exclusive: str | None = None
    label: str = ""
    first_round: int | None = None
    last_round: int | None = None


@dataclass(frozen=True, slots=True)
class PrizeTable:
    """A division's rating classes and prizes, in the order they are awarded."""

    prizes: tuple[Prize, ...]
    classes: tuple[RatingClass, ...] = ()


def check_prize_table(table: PrizeTable, rounds: int) -> None:
    """Raise TournamentError (``invalid_prize``) naming what does not make sense
    in ``table`` for an event of ``rounds`` rounds."""
    names = [c.name for c in table.classes]
    for c in table.classes:
        if not c.name or names.count(c.name) > 1:
            raise _invalid("classes", "Each rating class needs its own name.")
        if c.lowest is not None and c.highest is not None and c.lowest > c.highest:
            raise _invalid(
                "classes", f"Class {c.name}'s lowest rating is above its highest."
            )
    for index, prize in enumerate(table.prizes):
        where = f"prizes[{index}]"
        if type(prize.amount) is not int or prize.amount < 0:
            raise _invalid(
                where, "A prize amount is a whole number of cents, 0 or more."
            )
        if type(prize.place) is not int or prize.place < 1:
            raise _invalid(where, "A prize's place is 1 or more.")
        if prize.rating_class is not None and prize.rating_class not in names:
            raise _invalid(where, f"There is no rating class {prize.rating_class!r}.")
        limited = prize.first_round or prize.last_round
        if limited and prize.kind not in GAME_PRIZE_KINDS:
            raise _invalid(where, "Only game prizes can be limited to some rounds.")
        first, last = prize.first_round or 1, prize.last_round or rounds
        if not 1 <= first <= last <= rounds:
            raise _invalid(where, f"A prize's rounds must be within 1 to {rounds}.")


def _invalid(field: str, message: str) -> TournamentError:
    return TournamentError("invalid_prize", message, field)
