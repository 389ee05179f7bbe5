"""Rating estimates as the ratings bodies' programs compute them: NASPA and WESPA (tsh's
Elo rules) and ABSP (per event and running).

Everything here is computed from the rated games alone: byes, forfeits and absences
are not rated (RULES.md, "Tournament results and standings"), so ``RatedGame`` has no
kind, and the helpers that read a ``rules.records.DivisionRecord`` skip every entry
that is not a played game with a result.

Elo systems (``EloSystem``), as tsh rates a division for the rating systems it names
``nsa2008``, ``naspa-csw`` and ``wespa`` (John Chew's Ratings::Elo, which tsh uses to
print its running estimates; NASPA publishes the same rules):

- **Expectation** per game with both players' ratings at the start of the segment:
  ``1 - 1/(1 + exp(0.0031879 * (r_self - r_opp)))`` (NASPA), or
  ``1/(1 + exp((r_opp - r_self) / 172))`` (tsh's ``wespa``). A draw scores a half.
- **Multiplier** by career games before the event (tsh's ``lifeg``; unknown counts as
  100, as tsh does) and rating: under 50 games 30 / 24 / 15, else 20 / 16 / 10, for
  ratings under 1800 / under 2000 / 2000 and up. The surplus of wins over expectation
  is converted to points band by band: a change that leaves the band stops at the
  boundary (1800 and 2000 going up, 1799 and 1999 going down), pays for the points to
  get there at this band's multiplier, and goes on at the next band's
  (``convert_excess``). ``wespa`` ignores the bands (the starting multiplier applies).
- **Acceleration**: when ``new - old - 5 * games`` is positive, that amount (times 2/3
  for ``wespa``) is added again; each rated opponent then gets a twentieth of it as
  feedback, once per game played against them, added after every player is rated.
- **Floor**: ``nsa2008`` keeps an established player's estimate at 1 or more; the
  others have none. Ratings are rounded half up (tsh's ``int(x + 0.5)``).
- **Club events** (NASPA's LCT rule): the change is divided by 3, there is no
  acceleration, and the rounded change is capped at +/-50.
- **Split events** (NASPA only): the configured number of rounds n is cut: n - 1 < 16
  is one segment; n - 1 < 35 two, rounds 1..floor((n - 1) / 2) + 1 and the rest;
  otherwise three (``segments``). Each segment is rated from the previous one's
  rounded result.
- **Newcomers** (rating 0) get tsh's iterated performance rating
  (``rate_newcomers``): starting from the mean of their rated opponents (1500 when
  none), each newcomer's rating is searched in whole points from 0 to 3000 so that the
  expected score equals the earned one (0 and all-win records count as 5% and 95%),
  raised to 500 and capped at the strongest opponent + 400 x the winning fraction,
  all newcomers at once, until no rating changes (50 passes; then the mean of 50 more).
- The estimate **after round k** uses rounds 1..k only; a player without a rated game
  keeps the pre-event rating.

ABSP (``absp_event_ratings``, ``absp_running_rating``), from the ABSP's published
description and tsh's ABSP module: a game is worth the opponent's rating (moved to
within 40 of the player's own when both are rated) plus 50 for a win, minus 50 for a
loss; the event rating is the points per game, rounded, at least 40 (80 for a
newcomer, whose opponents count as their first-pass newcomer ratings). The running
rating weighs the player's most recent 150 games (whole events), 225 for the newest
game down by one a game, and is never below 50.

Usage::

    changes = rate_event(
        [RatedPlayer(1, 1500, career_games=120), RatedPlayer(2, 0)],
        [RatedGame(round=1, player=1, opponent=2, score=1.0)],
        NSA2008,
        rounds=7,
    )
    changes[1].new
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.errors import RulesError
from rules.outcome import DRAW_POINTS, LOSS_POINTS, WIN_POINTS
from rules.records import DivisionRecord, EntryKind, PlayerRecord, RoundEntry

__all__ = [
    "ABSP",
    "NASPA_CSW",
    "NSA2008",
    "TIE_BREAK_RATED_AS",
    "WESPA",
    "AbspEvent",
    "AbspParams",
    "EloSystem",
    "Expectation",
    "RatedGame",
    "RatedPlayer",
    "RatingChange",
    "RatingsError",
    "SegmentChange",
    "absp_event_ratings",
    "absp_running_rating",
    "convert_excess",
    "division_players",
    "division_rated_games",
    "elo_system",
    "expected",
    "multiplier",
    "performance_rating",
    "rate_division",
    "rate_event",
    "rate_newcomers",
    "rated_entries",
    "rated_record",
    "rated_result",
    "search_rating",
    "segments",
]


class RatingsError(RulesError):
    """Raised when the players or games given to a ratings function are inconsistent.

    ``code`` is stable (``unknown_player``, ``duplicate_player``, ``self_game``,
    ``bad_score``, ``bad_round``, ``mismatched_result``, ``missing_opponent_entry``,
    ``unknown_system``); the message says what to fix.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# Elo systems ----------------------------------------------------------------------


class Expectation(StrEnum):
    """The expectation curve of an Elo system."""

    LOGISTIC = "logistic"  # NASPA: 1 - 1/(1 + exp(0.0031879 d))
    WESPA = "wespa"  # tsh's wespa: 1/(1 + exp(-d/172))


NASPA_LOGISTIC_SCALE = 0.0031879
WESPA_SCALE = 172.0
# tsh's MakeRatingsInput: a player whose career games are not known counts as
# established.
UNKNOWN_CAREER_GAMES = 100
PROVISIONAL_GAMES = 50
# (upper bound of the band, established multiplier, provisional multiplier)
BANDS = ((1800, 20, 30), (2000, 16, 24), (math.inf, 10, 15))
NEWCOMER_FLOOR = 500
NEWCOMER_SEARCH = (0, 3000)  # whole-point binary search range
NEWCOMER_START = 1500.0  # a newcomer who met no rated player
NEWCOMER_CAP_PER_WIN = 400  # over the strongest opponent, times the win fraction
NEWCOMER_PASSES = 50  # tsh's maximum_iterations
CLUB_DIVISOR = 3
CLUB_CAP = 50
FEEDBACK_FRACTION = 1 / 20
ACCELERATION_PER_GAME = 5


@dataclass(frozen=True, slots=True)
class EloSystem:
    """One of tsh's Elo rating systems: the settings that tell them apart."""

    name: str
    expectation: Expectation = Expectation.LOGISTIC
    acceleration: float = 1.0  # 0: none
    feedback: bool = True
    bands: bool = True  # convert band by band (False: the starting multiplier)
    split: bool = True  # rate long events in segments
    floor: int | None = None  # for established players
    club: bool = False  # NASPA's LCT rule: change / 3, capped, no acceleration


NSA2008 = EloSystem("nsa2008", floor=1)
NASPA_CSW = EloSystem("naspa-csw")
WESPA = EloSystem(
    "wespa", expectation=Expectation.WESPA, acceleration=2 / 3, bands=False, split=False
)
_SYSTEMS = {system.name: system for system in (NSA2008, NASPA_CSW, WESPA)}


def elo_system(name: str, *, club: bool = False) -> EloSystem:
    """Return the Elo system tsh calls ``name``; ``club`` applies the LCT rule.

    Raises ``RatingsError`` (``unknown_system``) for a name tsh does not rate with
    these rules (``absp`` is rated by ``absp_event_ratings``).
    """
    system = _SYSTEMS.get(name)
    if system is None:
        raise RatingsError(
            "unknown_system",
            f"{name!r} is not an Elo rating system ({', '.join(sorted(_SYSTEMS))})",
        )
    if club:
        return replace(system, name=f"{name} lct", acceleration=0.0, club=True)
    return system


def expected(r_self: float, r_opp: float, system: EloSystem = NSA2008) -> float:
    """Return the expected score (0..1) of a player rated ``r_self`` against ``r_opp``.

    NASPA: 1800 against 1700 expects 0.57903.
    """
    if system.expectation is Expectation.WESPA:
        x = (r_self - r_opp) / WESPA_SCALE
    else:
        x = NASPA_LOGISTIC_SCALE * (r_self - r_opp)
    # The form that cannot overflow.
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def multiplier(career_games: int | None, rating: float) -> int:
    """Return the multiplier for a player's career games (None: 100) and rating."""
    games = UNKNOWN_CAREER_GAMES if career_games is None else career_games
    for limit, established, provisional in BANDS:
        if rating < limit:
            return provisional if games < PROVISIONAL_GAMES else established
    raise AssertionError("the last band has no limit")


def convert_excess(
    rating: float, excess: float, career_games: int | None, system: EloSystem = NSA2008
) -> float:
    """Return the rating after ``excess`` wins over expectation (before acceleration).

    Within one band the change is multiplier x excess. A change that would leave
    the band stops at the boundary (1800 or 2000 going up; 1799 or 1999 going
    down), the excess spent to get there is what those points cost at this band's
    multiplier, and the rest continues at the next band's: 1790 with an excess of 1
    (20 a win) reaches 1800 for half a win and goes on at 16: 1808. A club event
    keeps a third of the change.
    """
    start = rating
    while excess:
        rate = multiplier(career_games, rating)
        target = rating + rate * excess
        if not system.bands or rate == multiplier(career_games, target):
            rating = target
            break
        if rating < 1800:
            boundary = 1800.0
        elif rating < 2000:
            boundary = 2000.0 if excess > 0 else 1799.0
        else:
            boundary = 1999.0
        excess -= (boundary - rating) / rate
        rating = boundary
    if system.club:
        return start + (rating - start) / CLUB_DIVISOR
    return rating


def _round(value: float) -> int:
    # tsh's int(0.5 + x): half up, and towards zero below -0.5.
    return math.trunc(value + 0.5)


def search_rating(excess_at: Callable[[int], float]) -> int:
    """Return tsh's whole-point binary search for the rating where ``excess_at`` (the
    expected minus the earned score, rising with the rating) changes sign.

    The range starts at 0..3000 and halves at the floor of its middle until it is
    one point wide; the answer is the last middle tried, as tsh returns it.
    """
    low, high = NEWCOMER_SEARCH
    middle = low
    while high - low > 1:
        middle = (low + high) // 2
        if excess_at(middle) < 0:
            low = middle
        else:
            high = middle
    return middle


def _clipped_wins(wins: float, games: int) -> float:
    # A perfect or a winless record has no finite performance rating.
    if wins <= 0:
        return games * 0.05
    if wins >= games:
        return games * 0.95
    return wins


def performance_rating(
    opponent_ratings: Sequence[float], wins: float, system: EloSystem = NSA2008
) -> int | None:
    """Return tsh's performance rating: the whole-point rating whose expected score
    against the opponents equals ``wins`` (0 and all wins count as 5% and 95%).

    None without games.
    """
    games = len(opponent_ratings)
    if not games:
        return None
    target = _clipped_wins(wins, games)
    return search_rating(
        lambda r: sum(expected(r, o, system) for o in opponent_ratings) - target
    )


# Inputs and outputs ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """A player of an event: ``rating`` 0 is unrated (a newcomer)."""

    id: int
    rating: int
    career_games: int | None = None  # rated games before the event; None: unknown


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One rated game, listed once: ``score`` is ``player``'s result (1, 0.5 or 0)."""

    round: int
    player: int
    opponent: int
    score: float


@dataclass(frozen=True, slots=True)
class SegmentChange:
    """What one segment of an event did to one player's rating."""

    first_round: int
    last_round: int
    games: int
    old: int  # 0: a newcomer in this segment
    new: int
    expected: float
    actual: float
    multiplier: int | None  # None: a newcomer's initial rating
    acceleration: float
    feedback: float  # received from opponents' acceleration


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's rating estimate for an event (up to the round asked for)."""

    player: int
    old: int  # pre-event; 0: unrated
    new: int
    change: int | None  # new - old; None for a newcomer
    games: int
    expected: float
    actual: float
    performance: int | None
    acceleration: float
    feedback: float
    segments: tuple[SegmentChange, ...]  # only the segments the player played in


# Segments -------------------------------------------------------------------------


def segments(rounds: int, system: EloSystem = NSA2008) -> tuple[tuple[int, int], ...]:
    """Return the (first, last) rounds of the segments of an event of ``rounds``.

    tsh's cut of the configured rounds n: n - 1 < 16, one segment; n - 1 < 35, rounds
    1..floor((n - 1) / 2) + 1 and the rest (23 rounds: 1-12, 13-23; 31: 1-16, 17-31);
    otherwise thirds at floor((n - 1) / 3) + 1 and floor((2(n - 1) + 1) / 3) + 1.
    """
    if rounds <= 0:
        return ()
    last = rounds - 1  # tsh counts from 0
    if last < 16 or not system.split:
        cuts = [(0, last)]
    elif last < 35:
        half = last // 2
        cuts = [(0, half), (half + 1, last)]
    else:
        third, two_thirds = last // 3, (2 * last + 1) // 3
        cuts = [(0, third), (third + 1, two_thirds), (two_thirds + 1, last)]
    return tuple((first + 1, end + 1) for first, end in cuts)


# Rating one segment ---------------------------------------------------------------


_Results = Mapping[int, Sequence[tuple[int, float]]]  # player -> (opponent, score)


def rate_newcomers(
    results: _Results,
    ratings: Mapping[int, float],
    system: EloSystem = NSA2008,
) -> dict[int, float]:
    """Return the initial ratings of the newcomers (rating 0) who have results.

    ``results`` lists each player's games of the segment as (opponent, score);
    ``ratings`` are the segment's starting ratings (0: newcomer). tsh's iteration:
    see the module docstring. The result is not rounded (a cap can be fractional).
    """
    newcomers = [pid for pid in sorted(results) if not ratings[pid] and results[pid]]
    current: dict[int, float] = {}
    for pid in newcomers:
        rated = [ratings[o] for o, _ in results[pid] if ratings[o]]
        current[pid] = sum(rated) / len(rated) if rated else NEWCOMER_START

    def next_rating(pid: int, uncapped_by_newcomers: bool) -> float:
        played = results[pid]
        wins = sum(score for _, score in played)
        target = _clipped_wins(wins, len(played))
        opponents = [ratings[o] or current[o] for o, _ in played]
        # float(): a compiled float variable cannot hold the search's int.
        rating = float(
            search_rating(
                lambda r: sum(expected(r, o, system) for o in opponents) - target
            )
        )
        rating = max(rating, NEWCOMER_FLOOR)
        strongest = max((ratings[o] for o, _ in played), default=0.0)
        if not strongest and not uncapped_by_newcomers:
            # No rated opponent: stay close to the strongest newcomer met.
            strongest = max(current[o] for o, _ in played)
        if strongest:
            cap = strongest + NEWCOMER_CAP_PER_WIN * wins / len(played)
            rating = min(rating, cap)
        return rating

    for _ in range(NEWCOMER_PASSES):
        following = {pid: next_rating(pid, False) for pid in newcomers}
        changed = any(following[pid] != current[pid] for pid in newcomers)
        current = following
        if not changed:
            return current
    # No fixed point: tsh takes the mean of 50 more passes, capped by rated
    # opponents only.
    sums = dict.fromkeys(newcomers, 0.0)
    for _ in range(NEWCOMER_PASSES):
        current = {pid: next_rating(pid, True) for pid in newcomers}
        for pid in newcomers:
            sums[pid] += current[pid]
    return {pid: total / NEWCOMER_PASSES for pid, total in sums.items()}


@dataclass(frozen=True, slots=True)
class _Segment:
    first: int
    last: int
    games: Sequence[RatedGame]


def _rate_segment(
    segment: _Segment,
    ratings: Mapping[int, int],
    career: Mapping[int, int | None],
    system: EloSystem,
) -> dict[int, SegmentChange]:
    """Rate one segment from ``ratings`` (its starting ratings) as tsh does."""
    results: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for game in segment.games:
        results[game.player].append((game.opponent, game.score))
        results[game.opponent].append((game.player, 1 - game.score))
    initial = rate_newcomers(results, ratings, system)
    effective = {pid: initial.get(pid, float(ratings[pid])) for pid in ratings}

    new: dict[int, float] = {}
    expectations: dict[int, float] = {}
    accelerations: dict[int, float] = {}
    feedback: dict[int, float] = defaultdict(float)
    for pid, played in results.items():
        expectations[pid] = sum(
            expected(effective[pid], effective[o], system) for o, _ in played
        )
        if not ratings[pid]:
            new[pid] = initial[pid]
            continue
        excess = sum(score for _, score in played) - expectations[pid]
        new[pid] = convert_excess(ratings[pid], excess, career[pid], system)
    for pid, played in results.items():
        old = ratings[pid]
        bonus = system.acceleration * (
            new.get(pid, old) - old - ACCELERATION_PER_GAME * len(played)
        )
        if not old or bonus <= 0:
            continue
        accelerations[pid] = bonus
        new[pid] += bonus
        if system.feedback:
            for opponent, _ in played:  # once per game, rated opponents only
                if ratings[opponent]:
                    feedback[opponent] += bonus * FEEDBACK_FRACTION

    changes: dict[int, SegmentChange] = {}
    for pid, played in results.items():
        old = ratings[pid]
        rating = new[pid]
        if old and system.floor is not None:
            rating = max(rating, float(system.floor))
        rounded = _round(rating + feedback[pid])
        if old and system.club:
            rounded = max(old - CLUB_CAP, min(old + CLUB_CAP, rounded))
        changes[pid] = SegmentChange(
            first_round=segment.first,
            last_round=segment.last,
            games=len(played),
            old=old,
            new=rounded,
            expected=expectations[pid],
            actual=sum(score for _, score in played),
            multiplier=multiplier(career[pid], old) if old else None,
            acceleration=accelerations.get(pid, 0.0),
            feedback=feedback[pid],
        )
    return changes


# Rating an event ------------------------------------------------------------------


def _validate(
    players: Sequence[RatedPlayer], games: Sequence[RatedGame]
) -> dict[int, RatedPlayer]:
    by_id: dict[int, RatedPlayer] = {}
    for player in players:
        if player.id in by_id:
            raise RatingsError("duplicate_player", f"player {player.id} listed twice")
        by_id[player.id] = player
    for game in games:
        for pid in (game.player, game.opponent):
            if pid not in by_id:
                raise RatingsError(
                    "unknown_player", f"round {game.round}: player {pid} is not listed"
                )
        if game.player == game.opponent:
            raise RatingsError(
                "self_game",
                f"round {game.round}: player {game.player} cannot play themself "
                "(byes are not rated)",
            )
        if game.score not in (0, 0.5, 1):
            raise RatingsError(
                "bad_score",
                f"round {game.round}: score {game.score} is not 1, 0.5 or 0",
            )
        if game.round < 1:
            raise RatingsError("bad_round", f"round {game.round} is not 1 or more")
    return by_id


def rate_event(
    players: Sequence[RatedPlayer],
    games: Sequence[RatedGame],
    system: EloSystem = NSA2008,
    *,
    rounds: int = 0,
    after_round: int | None = None,
) -> dict[int, RatingChange]:
    """Estimate every player's rating after an event, or after round ``after_round``.

    ``games`` are the rated games only, each listed once. ``rounds`` is the number of
    rounds the event is configured for, which decides its segments; 0 (unknown)
    takes the last round with a game, as tsh does without a configured number.
    Every listed player is in the result; one without a rated game keeps the
    pre-event rating.

    Raises ``RatingsError`` when a game names an unlisted player, pairs a player with
    themself, has a score other than 1, 0.5 or 0, or a round below 1, or when a player
    is listed twice.
    """
    by_id = _validate(players, games)
    rounds = rounds or max((game.round for game in games), default=0)
    if after_round is not None:
        games = [game for game in games if game.round <= after_round]
    ratings = {pid: player.rating for pid, player in by_id.items()}
    career = {pid: player.career_games for pid, player in by_id.items()}
    played: dict[int, list[SegmentChange]] = defaultdict(list)
    opponents: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for first, last in segments(rounds, system):
        segment = _Segment(first, last, [g for g in games if first <= g.round <= last])
        if not segment.games:
            continue
        changes = _rate_segment(segment, ratings, career, system)
        for game in segment.games:
            # The opponents as rated in the segment, for the performance rating.
            player, opponent = ratings[game.player], ratings[game.opponent]
            opponents[game.player].append(
                (opponent or changes[game.opponent].new, game.score)
            )
            opponents[game.opponent].append(
                (player or changes[game.player].new, 1 - game.score)
            )
        for pid, change in changes.items():
            played[pid].append(change)
            ratings[pid] = change.new
    return {
        player.id: _event_change(
            player, played[player.id], opponents[player.id], system
        )
        for player in players
    }


def _event_change(
    player: RatedPlayer,
    played: Sequence[SegmentChange],
    opponents: Sequence[tuple[float, float]],
    system: EloSystem,
) -> RatingChange:
    new = played[-1].new if played else player.rating
    actual = sum(s.actual for s in played)
    return RatingChange(
        player=player.id,
        old=player.rating,
        new=new,
        change=new - player.rating if player.rating else None,
        games=sum(s.games for s in played),
        expected=sum(s.expected for s in played),
        actual=actual,
        performance=performance_rating([o for o, _ in opponents], actual, system),
        acceleration=sum(s.acceleration for s in played),
        feedback=sum(s.feedback for s in played),
        segments=tuple(played),
    )


# Records --------------------------------------------------------------------------


def rated_entries(player: PlayerRecord) -> tuple[RoundEntry, ...]:
    """Return the player's played games: byes, forfeits and absences are never rated.

    An entry counts when it is a ``GAME`` with an opponent and a result.
    """
    return tuple(
        entry
        for entry in player.rounds
        if entry.kind is EntryKind.GAME
        and entry.opponent is not None
        and entry.result is not None
    )


# How each rating body rates a game whose final scores tie but which the scores
# before the end-of-game adjustments decided (the standings count the win): every
# body's program reads the final scores, so each rates it as a tie, a half. The
# one place the decision is made (``rated_result``) and told (the estimates page).
TIE_BREAK_RATED_AS: dict[str, str] = {
    "nsa2008": "NASPA rates it as a draw: its submission (tsh's .t) holds the final"
    " scores only",
    "naspa-csw": "NASPA rates it as a draw: its submission (tsh's .t) holds the"
    " final scores only",
    "wespa": "WESPA rates it as a draw: its rating program rates the .TOU's scores,"
    " equal (the .TOU's win band keeps who won for the standings)",
    "absp": "the ABSP rates it as a draw: its results file holds the final scores",
    "none": "no rating system this site computes: not rated here",
}


def rated_result(entry: RoundEntry) -> float | None:
    """The result a rating body rates a played game as: the game's result, except
    that equal final scores are a half even when the scores before the end-of-game
    adjustments gave one player the win (``TIE_BREAK_RATED_AS``)."""
    if entry.own_score is not None and entry.own_score == entry.opponent_score:
        return DRAW_POINTS if entry.result is not None else None
    return entry.result


def rated_record(player: PlayerRecord, after_round: int) -> dict[str, int]:
    """The player's record through `after_round` as the estimates show it: rated
    games only (won, lost, drawn, and their spread, uncapped), then the byes and
    forfeits beside them."""
    counted = [entry for entry in player.rounds if entry.round <= after_round]
    games = [entry for entry in rated_entries(player) if entry.round <= after_round]
    kinds = [entry.kind for entry in counted]
    return {
        "games": len(games),
        "wins": sum(1 for entry in games if rated_result(entry) == WIN_POINTS),
        "losses": sum(1 for entry in games if rated_result(entry) == LOSS_POINTS),
        "draws": sum(1 for entry in games if rated_result(entry) == DRAW_POINTS),
        "spread": sum(
            (entry.own_score or 0) - (entry.opponent_score or 0) for entry in games
        ),
        "byes": kinds.count(EntryKind.BYE),
        "forfeits": kinds.count(EntryKind.FORFEIT_WIN)
        + kinds.count(EntryKind.FORFEIT_LOSS)
        + kinds.count(EntryKind.WITHDRAWAL_FORFEIT),
    }


def division_rated_games(division: DivisionRecord) -> tuple[RatedGame, ...]:
    """Return each played game of a division once, as the lower-numbered player saw it;
    a game with equal final scores is a tie (a half), whoever won it on the scores
    before the end-of-game adjustments.

    Raises ``RatingsError`` (``unknown_player``) when a game names a player not in the
    division, (``missing_opponent_entry``) when the opponent has no matching game entry
    for the round, and (``mismatched_result``) when the two results do not add up to 1.
    """
    by_number = {player.number: player for player in division.players}
    games: list[RatedGame] = []
    for player in division.players:
        for entry in rated_entries(player):
            opponent_number, result = entry.opponent, entry.result
            if opponent_number is None or result is None:  # excluded by rated_entries
                continue
            where = f"division {division.name}, round {entry.round}"
            opponent = by_number.get(opponent_number)
            if opponent is None:
                raise RatingsError(
                    "unknown_player",
                    f"{where}: player {player.number}'s opponent {opponent_number} "
                    "is not listed",
                )
            mirror = [
                e
                for e in rated_entries(opponent)
                if e.round == entry.round and e.opponent == player.number
            ]
            if len(mirror) != 1:
                raise RatingsError(
                    "missing_opponent_entry",
                    f"{where}: player {opponent_number} has no game against "
                    f"{player.number}",
                )
            if mirror[0].result is None or result + mirror[0].result != 1:
                raise RatingsError(
                    "mismatched_result",
                    f"{where}: the results of {player.number} and {opponent_number} "
                    "do not add up to one win",
                )
            if player.number < opponent_number:
                # Rated by the final scores, as every body's program reads them.
                rated = rated_result(entry)
                assert rated is not None  # a rated entry has a result
                games.append(
                    RatedGame(entry.round, player.number, opponent_number, rated)
                )
    return tuple(games)


def division_players(division: DivisionRecord) -> tuple[RatedPlayer, ...]:
    """Return the division's players with their pre-event ratings and career games."""
    return tuple(
        RatedPlayer(player.number, player.rating, player.career_games)
        for player in division.players
    )


def rate_division(
    division: DivisionRecord,
    system: EloSystem = NSA2008,
    *,
    rounds: int = 0,
    after_round: int | None = None,
) -> dict[int, RatingChange]:
    """Estimate a division's ratings, keyed by player number (see ``rate_event``).

    Raises what ``division_rated_games`` and ``rate_event`` raise.
    """
    return rate_event(
        division_players(division),
        division_rated_games(division),
        system,
        rounds=rounds,
        after_round=after_round,
    )


# ABSP -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AbspParams:
    """The constants of ABSP ratings; ``ABSP`` holds the published ones."""

    opponent_clamp: int = 40  # a rated opponent counts as at most this far away
    result_points: int = 50  # + for a win, - for a loss
    rated_floor: int = 40  # an event rating (tsh's ABSP module)
    newcomer_floor: int = 80  # a newcomer's event rating (tsh's ABSP module)
    games: int = 150  # the running rating's most recent games (whole events)
    newest_weight: int = 225  # the newest game's weight; each older one 1 less
    floor: int = 50  # "The lowest possible rating is 50"


ABSP = AbspParams()


@dataclass(frozen=True, slots=True)
class AbspEvent:
    """One event of a player's history: rating points and games (newest first)."""

    points: float
    games: int


def _absp_points(
    own: int, opponent: int, opponent_rated: bool, score: float, params: AbspParams
) -> float:
    if own and opponent_rated:
        clamp = params.opponent_clamp
        opponent = max(own - clamp, min(own + clamp, opponent))
    return opponent + params.result_points * round(2 * score - 1)


def absp_event_ratings(
    division: DivisionRecord,
    params: AbspParams = ABSP,
    *,
    after_round: int | None = None,
) -> dict[int, tuple[int, AbspEvent]]:
    """Return the ABSP event rating and its (points, games) of each player who has a
    result (of any kind) by ``after_round``, by number.

    tsh's three passes: newcomers (rating 0) are rated first against rated
    opponents, then again counting the other newcomers at that first rating; rated
    players last, newcomers counting at their new rating. With no game that counts
    the rating is the pre-event one, floors included (so a newcomer who met only
    newcomers counts at 80 in the second pass). Raises what
    ``division_rated_games`` raises.
    """
    games = [
        g
        for g in division_rated_games(division)
        if after_round is None or g.round <= after_round
    ]
    ratings = {player.number: player.rating for player in division.players}
    scored = [
        player.number
        for player in division.players
        if any(
            entry.kind is not EntryKind.UNPLAYED
            and (after_round is None or entry.round <= after_round)
            for entry in player.rounds
        )
    ]
    results: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for game in games:
        results[game.player].append((game.opponent, game.score))
        results[game.opponent].append((game.player, 1 - game.score))

    def rate(pid: int, counted: Mapping[int, int]) -> tuple[int, AbspEvent]:
        own = ratings[pid]
        points = [
            _absp_points(own, counted[o], bool(ratings[o]), score, params)
            for o, score in results[pid]
            if counted.get(o)
        ]
        value = sum(points) / len(points) if points else own
        floor = params.rated_floor if own else params.newcomer_floor
        return _round(max(value, floor)), AbspEvent(sum(points), len(points))

    rated = {pid: rating for pid, rating in ratings.items() if rating}
    newcomers = [pid for pid in scored if not ratings[pid]]
    first = {pid: rate(pid, rated)[0] for pid in newcomers}
    event = {pid: rate(pid, {**rated, **first}) for pid in newcomers}
    counted = {**rated, **{pid: rating for pid, (rating, _) in event.items()}}
    for pid in scored:
        if ratings[pid]:
            event[pid] = rate(pid, counted)
    return event


def absp_running_rating(
    events: Sequence[AbspEvent], params: AbspParams = ABSP
) -> int | None:
    """Return the ABSP rating over a player's events, newest first.

    Each game carries its event's points per game; the newest game weighs 225 and
    each older game one less, over whole events until 150 games are reached (the
    event that reaches 150 counts whole, its older games weighing on down by one).
    Never below 50; None without games.
    """
    total = weights = 0.0
    position = 0
    for event in events:
        if position >= params.games:
            break
        if not event.games:
            continue
        per_game = event.points / event.games
        for _ in range(event.games):
            weight = params.newest_weight - position
            total += weight * per_game
            weights += weight
            position += 1
    if not weights:
        return None
    return max(_round(total / weights), params.floor)
