"""Rating estimates: NASPA's rating formula and ABSP's per-event rating.

These are estimates a director can show before the ratings body publishes its own
numbers. Every constant is data: ``NaspaParams`` and ``AbspParams`` hold them, with the
published NASPA and ABSP values as defaults (``NASPA``, ``ABSP``), and every function
takes the parameters as an argument.

Only rated games are ever passed in: byes, forfeits and absences are not rated
(RULES.md, "Tournament results and standings"), so ``RatedGame`` has no kind, and the
helpers that read a ``rules.records.PlayerRecord`` skip every entry that is not a
played game.

NASPA, as restated in the project's issue 7 from NASPA's published description of its
rating system:

- **Expectation**: ``1 - 1 / (1 + exp(0.0031879 * (R_me - R_opp)))`` per game.
- **Change**: ``M * (actual - expected)``, summed over a segment's games. ``M`` depends
  on the rating band (under 1800: 20; 1800-1999: 16; 2000 and up: 10) and is 1.5 times
  larger (30, 24, 15) for a player with fewer than 50 career games.
- **Band by band**: a change that would carry the rating across 1800 or 2000 is spent in
  the band it starts in only up to the boundary; the rest is rescaled by the ratio of
  the next band's multiplier to this band's (the multiplier applies to the surplus of
  wins, so the surplus not yet spent moves the rating at the new band's rate). See
  ``naspa_band_change``.
- **Acceleration bonus**: ``max(0, change - 5 * games)`` is added on top of the change
  for a player who was rated before the segment and played at least
  ``bonus_min_games`` games in it (default 5; a few lucky games are not evidence of
  improvement) and has at least ``bonus_min_career_games`` career games (default 0).
  One twentieth of the bonus is fed back to each distinct opponent who was rated before
  the segment, once per opponent. Club events get no bonus and give no feedback.
- **Segments**: an event of more than 16 rounds is rated in two consecutive segments,
  of more than 35 rounds in three; the rounds are split as evenly as possible, earlier
  segments taking the extra round, and the rating after one segment (rounded to a whole
  number, as published) is the pre-rating of the next.
- **Unrated players** get an initial rating: the performance rating of their games in
  the segment, iterated jointly when unrated players met each other (rated players stay
  at their pre-rating; a group of unrated players who met only each other is anchored
  at ``unrated_start``). Rated opponents' changes are computed against that initial
  rating. A player unrated before segment 1 is rated normally from segment 2 on, with
  the games of segment 1 counted as career games.
- **Performance rating**: the rating at which expected wins equal actual wins, kept
  within ``perfect_score_margin`` (400) of the lowest and highest opponents, so an
  all-wins record is the best opponent + 400 and an all-losses record the worst
  opponent - 400; never below the floor (500).
- **Club events**: the change is divided by 3 and capped at +/-50.
- **Floor**: no rating goes below ``rating_floor`` (500).

ABSP: an event's rating is the sum, over the player's games, of the opponent's rating
clamped to within 40 of the player's own, +50 for a win and -50 for a loss (a draw adds
neither), divided by the number of games.

Usage::

    changes = naspa_rate_event(
        [RatedPlayer(1, 1500, career_games=120), RatedPlayer(2, None)],
        [RatedGame(round=1, player=1, opponent=2, score=1.0)],
    )
    changes[1].new
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.errors import RulesError
from rules.records import DivisionRecord, EntryKind, PlayerRecord, RoundEntry

__all__ = [
    "ABSP",
    "NASPA",
    "AbspGame",
    "AbspParams",
    "NaspaParams",
    "RatedGame",
    "RatedPlayer",
    "RatingBand",
    "RatingChange",
    "RatingsError",
    "SegmentChange",
    "absp_event_rating",
    "absp_game_points",
    "absp_rate_division",
    "division_rated_games",
    "naspa_band_change",
    "naspa_expected",
    "naspa_multiplier",
    "naspa_rate_event",
    "naspa_segments",
    "performance_rating",
    "rate_division",
    "rated_entries",
    "record_performance",
]


class RatingsError(RulesError):
    """Raised when the players or games given to a ratings function are inconsistent.

    ``code`` is stable (``unknown_player``, ``duplicate_player``, ``self_game``,
    ``bad_score``, ``bad_round``, ``no_games``, ``mismatched_result``,
    ``missing_opponent_entry``, ``bad_params``); the message says what to fix.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# Parameters ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingBand:
    """A NASPA rating band: the multipliers that apply from ``floor`` upwards."""

    floor: int
    multiplier: float  # players with at least ``provisional_games`` career games
    provisional_multiplier: float  # players with fewer


@dataclass(frozen=True, slots=True)
class NaspaParams:
    """The constants of the NASPA rating formula; ``NASPA`` holds the published ones."""

    logistic_scale: float = 0.0031879
    # Ascending by floor; the first band must start at or below every rating.
    bands: tuple[RatingBand, ...] = (
        RatingBand(floor=0, multiplier=20.0, provisional_multiplier=30.0),
        RatingBand(floor=1800, multiplier=16.0, provisional_multiplier=24.0),
        RatingBand(floor=2000, multiplier=10.0, provisional_multiplier=15.0),
    )
    provisional_games: int = 50  # fewer career games than this: provisional multiplier
    bonus_per_game: float = (
        5.0  # the bonus is the change beyond this many points a game
    )
    bonus_min_games: int = 5  # games in the segment needed to earn a bonus
    bonus_min_career_games: int = 0  # career games before the segment needed for one
    feedback_fraction: float = 1 / 20  # of a bonus, to each distinct rated opponent
    # An event of more rounds than each threshold gets one more segment.
    segment_thresholds: tuple[int, ...] = (16, 35)
    rating_floor: int = 500
    perfect_score_margin: float = 400.0
    unrated_start: float = 1500.0  # anchor for unrated players who met only each other
    club_divisor: float = 3.0
    club_cap: float = 50.0
    tolerance: float = 1e-6  # rating points; when the iterations stop
    max_iterations: int = 200

    def __post_init__(self) -> None:
        floors = [band.floor for band in self.bands]
        if not floors or floors != sorted(set(floors)):
            raise RatingsError("bad_params", "bands must be ascending by floor")


NASPA = NaspaParams()


@dataclass(frozen=True, slots=True)
class AbspParams:
    """The constants of the ABSP event rating; ``ABSP`` holds the published ones."""

    opponent_clamp: int = 40  # an opponent counts as at most this far from the player
    win_bonus: int = 50
    loss_penalty: int = 50


ABSP = AbspParams()


# Inputs and outputs -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """A player of an event: ``rating`` None means unrated."""

    id: int
    rating: int | None
    career_games: int = 0  # rated games before this event


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
    old: int | None  # None: unrated before this segment
    new: int
    expected: float
    actual: float
    multiplier: float | None  # None: the initial rating of an unrated player
    bonus: float
    feedback: float  # received from opponents' bonuses


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's rating estimate for a whole event."""

    player: int
    old: int | None  # None: unrated before the event
    new: int
    change: int | None  # new - old; None for a player who was unrated
    games: int
    expected: float
    actual: float
    performance: int
    bonus: float
    feedback: float
    segments: tuple[SegmentChange, ...]  # only the segments the player played in


@dataclass(frozen=True, slots=True)
class AbspGame:
    """One rated game for ABSP: the opponent's rating and the result (1, 0.5, 0)."""

    opponent_rating: int
    score: float


# NASPA --------------------------------------------------------------------------


def naspa_expected(r_me: float, r_opp: float, params: NaspaParams = NASPA) -> float:
    """Return the expected score (0..1) of a player rated ``r_me`` against ``r_opp``.

    ``1 - 1 / (1 + exp(k * (r_me - r_opp)))``, written in the form that cannot
    overflow; 1800 against 1700 expects 0.57903.
    """
    x = params.logistic_scale * (r_me - r_opp)
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _band_index(rating: float, params: NaspaParams) -> int:
    index = 0
    for i, band in enumerate(params.bands):
        if rating >= band.floor:
            index = i
    return index


def _band_multiplier(index: int, provisional: bool, params: NaspaParams) -> float:
    band = params.bands[index]
    return band.provisional_multiplier if provisional else band.multiplier


def naspa_multiplier(
    rating: float, career_games: int, params: NaspaParams = NASPA
) -> float:
    """Return the multiplier for a rating and a count of career games."""
    provisional = career_games < params.provisional_games
    return _band_multiplier(_band_index(rating, params), provisional, params)


def naspa_band_change(
    rating: float, surplus: float, career_games: int, params: NaspaParams = NASPA
) -> float:
    """Return the change that ``surplus`` (actual - expected wins) makes to ``rating``.

    The change is ``M * surplus`` within one band. Band by band: while the change would
    carry the rating past a band boundary, the rating moves to the boundary, using the
    part of the surplus that takes at the current multiplier, and the remainder of the
    change is rescaled by ``M_next / M_current`` (the rest of the surplus moves the
    rating at the next band's rate). So 1790 with a surplus of 1.0 and 20/16
    multipliers gains 10 to reach 1800, then the other 10 becomes 8: 1808.
    """
    provisional = career_games < params.provisional_games
    index = _band_index(rating, params)
    current = float(rating)
    remaining = _band_multiplier(index, provisional, params) * surplus
    while True:
        target = current + remaining
        if remaining > 0 and index + 1 < len(params.bands):
            boundary = params.bands[index + 1].floor
            if target >= boundary:
                ratio = _band_multiplier(
                    index + 1, provisional, params
                ) / _band_multiplier(index, provisional, params)
                remaining = (remaining - (boundary - current)) * ratio
                current = float(boundary)
                index += 1
                continue
        if remaining < 0 and index > 0:
            boundary = params.bands[index].floor
            if target < boundary:
                ratio = _band_multiplier(
                    index - 1, provisional, params
                ) / _band_multiplier(index, provisional, params)
                remaining = (remaining - (boundary - current)) * ratio
                current = float(boundary)
                index -= 1
                continue
        return target - rating


def naspa_segments(
    rounds: int, params: NaspaParams = NASPA
) -> tuple[tuple[int, int], ...]:
    """Return the (first, last) rounds of the segments of an event of ``rounds``.

    One segment up to 16 rounds, two for 17-35, three beyond (``segment_thresholds``).
    The rounds are split as evenly as possible, earlier segments taking the extra round:
    20 rounds are 1-10 and 11-20; 40 are 1-14, 15-27 and 28-40.
    """
    if rounds <= 0:
        return ()
    count = 1 + sum(1 for threshold in params.segment_thresholds if rounds > threshold)
    base, extra = divmod(rounds, count)
    segments = []
    first = 1
    for i in range(count):
        size = base + (1 if i < extra else 0)
        segments.append((first, first + size - 1))
        first += size
    return tuple(segments)


def performance_rating(
    opponent_ratings: Sequence[float], score: float, params: NaspaParams = NASPA
) -> float:
    """Return the rating at which the expected score against the opponents is ``score``.

    The expected score rises with the rating, so the rating is found by bisection to
    within ``tolerance``. It is kept within ``perfect_score_margin`` of the lowest and
    highest opponents: all wins give the best opponent + 400, all losses the worst
    opponent - 400, and no result is ever rated beyond those bounds. It is never below
    ``rating_floor``.

    Raises ``RatingsError`` (``no_games``) without opponents and (``bad_score``) when
    ``score`` is not between 0 and the number of games.
    """
    if not opponent_ratings:
        raise RatingsError("no_games", "a performance rating needs at least one game")
    if not 0 <= score <= len(opponent_ratings):
        raise RatingsError(
            "bad_score",
            f"score {score} is not between 0 and {len(opponent_ratings)} games",
        )

    def excess(rating: float) -> float:
        expected = sum(naspa_expected(rating, r, params) for r in opponent_ratings)
        return expected - score

    low = min(opponent_ratings) - params.perfect_score_margin
    high = max(opponent_ratings) + params.perfect_score_margin
    if excess(low) >= 0:
        result = low
    elif excess(high) <= 0:
        result = high
    else:
        for _ in range(params.max_iterations):
            if high - low < params.tolerance:
                break
            middle = (low + high) / 2
            if excess(middle) < 0:
                low = middle
            else:
                high = middle
        result = (low + high) / 2
    return max(result, float(params.rating_floor))


def _round(value: float) -> int:
    # Half up, not Python's round-half-even: ratings are published as whole numbers.
    return math.floor(value + 0.5)


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


def _initial_ratings(
    unrated: Sequence[int],
    results: Mapping[int, Sequence[tuple[int, float]]],
    fixed: Mapping[int, int | None],
    params: NaspaParams,
) -> dict[int, int]:
    """Iterate unrated players' performance ratings jointly (Gauss-Seidel)."""
    estimates = {pid: params.unrated_start for pid in unrated}
    for _ in range(params.max_iterations):
        moved = 0.0
        for pid in unrated:
            opponents: list[float] = []
            for opponent, _score in results[pid]:
                rating = fixed[opponent]
                opponents.append(estimates[opponent] if rating is None else rating)
            score = sum(score for _opponent, score in results[pid])
            estimate = performance_rating(opponents, score, params)
            moved = max(moved, abs(estimate - estimates[pid]))
            estimates[pid] = estimate
        if moved < params.tolerance:
            break
    return {pid: _round(estimate) for pid, estimate in estimates.items()}


@dataclass(frozen=True, slots=True)
class _SegmentOutcome:
    change: SegmentChange
    opponent_ratings: tuple[int, ...]  # as used for the expectation, one per game


def _rate_segment(
    first: int,
    last: int,
    games: Sequence[RatedGame],
    ratings: Mapping[int, int | None],
    career: Mapping[int, int],
    params: NaspaParams,
    club: bool,
) -> dict[int, _SegmentOutcome]:
    results: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for game in games:
        results[game.player].append((game.opponent, game.score))
        results[game.opponent].append((game.player, 1 - game.score))
    unrated = sorted(pid for pid in results if ratings[pid] is None)
    initial = _initial_ratings(unrated, results, ratings, params)
    used: dict[int, int] = {}
    for pid in results:
        rating = ratings[pid]
        used[pid] = initial[pid] if rating is None else rating

    changes: dict[int, float] = {}
    bonuses: dict[int, float] = {}
    multipliers: dict[int, float | None] = {}
    expectations: dict[int, float] = {}
    feedback: dict[int, float] = defaultdict(float)
    for pid, played in results.items():
        expected = sum(naspa_expected(used[pid], used[o], params) for o, _ in played)
        actual = sum(score for _, score in played)
        expectations[pid] = expected
        rating = ratings[pid]
        if rating is None:
            changes[pid], bonuses[pid], multipliers[pid] = 0.0, 0.0, None
            continue
        surplus = actual - expected
        multipliers[pid] = naspa_multiplier(rating, career[pid], params)
        if club:
            change = naspa_band_change(
                rating, surplus / params.club_divisor, career[pid], params
            )
            change = max(-params.club_cap, min(params.club_cap, change))
            bonus = 0.0
        else:
            change = naspa_band_change(rating, surplus, career[pid], params)
            eligible = (
                len(played) >= params.bonus_min_games
                and career[pid] >= params.bonus_min_career_games
            )
            bonus = max(0.0, change - params.bonus_per_game * len(played))
            bonus = bonus if eligible else 0.0
        changes[pid], bonuses[pid] = change, bonus
        if bonus > 0:
            for opponent in {o for o, _ in played if ratings[o] is not None}:
                feedback[opponent] += bonus * params.feedback_fraction

    outcomes: dict[int, _SegmentOutcome] = {}
    for pid, played in results.items():
        rating = ratings[pid]
        if rating is None:
            new = initial[pid]
        else:
            total = rating + changes[pid] + bonuses[pid] + feedback[pid]
            new = _round(max(total, float(params.rating_floor)))
        segment = SegmentChange(
            first_round=first,
            last_round=last,
            games=len(played),
            old=rating,
            new=new,
            expected=expectations[pid],
            actual=sum(score for _, score in played),
            multiplier=multipliers[pid],
            bonus=bonuses[pid],
            feedback=feedback[pid],
        )
        outcomes[pid] = _SegmentOutcome(segment, tuple(used[o] for o, _ in played))
    return outcomes


def naspa_rate_event(
    players: Sequence[RatedPlayer],
    games: Sequence[RatedGame],
    params: NaspaParams = NASPA,
    *,
    club: bool = False,
) -> dict[int, RatingChange]:
    """Estimate every player's NASPA rating after an event.

    ``games`` are the rated games only, each listed once. The event's length is its
    highest round number; longer events are rated in segments (``naspa_segments``).
    The result has an entry for every player with at least one rated game; a player
    with none has nothing to rate and is left out. ``club`` applies the club-event
    rule (change / 3, capped at +/-50, no bonus).

    Raises ``RatingsError`` when a game names an unlisted player, pairs a player with
    themself, has a score other than 1, 0.5 or 0, or a round below 1, or when a player
    is listed twice.
    """
    by_id = _validate(players, games)
    ratings: dict[int, int | None] = {pid: p.rating for pid, p in by_id.items()}
    career: dict[int, int] = {pid: p.career_games for pid, p in by_id.items()}
    rounds = max((game.round for game in games), default=0)
    segments: dict[int, list[SegmentChange]] = defaultdict(list)
    opponents: dict[int, list[int]] = defaultdict(list)
    for first, last in naspa_segments(rounds, params):
        in_segment = [g for g in games if first <= g.round <= last]
        if not in_segment:
            continue
        outcomes = _rate_segment(first, last, in_segment, ratings, career, params, club)
        for pid, outcome in outcomes.items():
            segments[pid].append(outcome.change)
            opponents[pid].extend(outcome.opponent_ratings)
            ratings[pid] = outcome.change.new
            career[pid] += outcome.change.games

    changes: dict[int, RatingChange] = {}
    for player in players:
        if player.id not in segments:
            continue
        played = segments[player.id]
        actual = sum(s.actual for s in played)
        new = played[-1].new
        changes[player.id] = RatingChange(
            player=player.id,
            old=player.rating,
            new=new,
            change=None if player.rating is None else new - player.rating,
            games=sum(s.games for s in played),
            expected=sum(s.expected for s in played),
            actual=actual,
            performance=_round(
                performance_rating(opponents[player.id], actual, params)
            ),
            bonus=sum(s.bonus for s in played),
            feedback=sum(s.feedback for s in played),
            segments=tuple(played),
        )
    return changes


# Records ------------------------------------------------------------------------


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


def division_rated_games(division: DivisionRecord) -> tuple[RatedGame, ...]:
    """Return each played game of a division once, as the lower-numbered player saw it.

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
            opponent = by_number.get(opponent_number)
            if opponent is None:
                raise RatingsError(
                    "unknown_player",
                    f"division {division.name}, round {entry.round}: player "
                    f"{player.number}'s opponent {opponent_number} is not listed",
                )
            mirror = [
                e
                for e in rated_entries(opponent)
                if e.round == entry.round and e.opponent == player.number
            ]
            if len(mirror) != 1:
                raise RatingsError(
                    "missing_opponent_entry",
                    f"division {division.name}, round {entry.round}: player "
                    f"{opponent_number} has no game against {player.number}",
                )
            if mirror[0].result is None or result + mirror[0].result != 1:
                raise RatingsError(
                    "mismatched_result",
                    f"division {division.name}, round {entry.round}: the results of "
                    f"{player.number} and {opponent_number} do not add up to one win",
                )
            if player.number < opponent_number:
                games.append(
                    RatedGame(entry.round, player.number, opponent_number, result)
                )
    return tuple(games)


def rate_division(
    division: DivisionRecord,
    params: NaspaParams = NASPA,
    *,
    club: bool = False,
    career_games: Mapping[int, int] | None = None,
) -> dict[int, RatingChange]:
    """Estimate NASPA ratings for a division, keyed by player number.

    A rating of 0 in the record means unrated. ``career_games`` maps player numbers to
    rated games before the event; the record does not carry them, so a rated player
    missing from the mapping is taken as established (``provisional_games``) and an
    unrated one as new (0). Raises what ``division_rated_games`` and
    ``naspa_rate_event`` raise.
    """
    known = career_games or {}
    players = [
        RatedPlayer(
            id=player.number,
            rating=player.rating or None,
            career_games=known.get(
                player.number, params.provisional_games if player.rating else 0
            ),
        )
        for player in division.players
    ]
    return naspa_rate_event(players, division_rated_games(division), params, club=club)


def record_performance(
    player: PlayerRecord, division: DivisionRecord, params: NaspaParams = NASPA
) -> float | None:
    """Return a player's performance rating against opponents' pre-event ratings.

    Only played games against rated opponents count (byes, forfeits, absences and games
    against unrated players are skipped); None when no game counts.
    """
    ratings = {p.number: p.rating for p in division.players}
    opponents: list[float] = []
    score = 0.0
    for entry in rated_entries(player):
        rating = ratings.get(entry.opponent or 0, 0)
        if rating and entry.result is not None:
            opponents.append(rating)
            score += entry.result
    if not opponents:
        return None
    return performance_rating(opponents, score, params)


# ABSP ---------------------------------------------------------------------------


def absp_game_points(
    own_rating: int, opponent_rating: int, score: float, params: AbspParams = ABSP
) -> int:
    """Return one game's ABSP points: the clamped opponent rating +/- the result bonus.

    The opponent counts as at most ``opponent_clamp`` (40) from the player's own
    rating; a win adds 50, a loss subtracts 50, a draw adds neither.
    """
    clamp = params.opponent_clamp
    points = max(own_rating - clamp, min(own_rating + clamp, opponent_rating))
    if score == 1:
        return points + params.win_bonus
    if score == 0:
        return points - params.loss_penalty
    if score == 0.5:
        return points
    raise RatingsError("bad_score", f"score {score} is not 1, 0.5 or 0")


def absp_event_rating(
    own_rating: int, games: Sequence[AbspGame], params: AbspParams = ABSP
) -> float:
    """Return the ABSP rating of one event: the sum of game points / games.

    Unrounded: the published example, 2001 points over 12 games, is 166.75 (167).
    Raises ``RatingsError`` (``no_games``) for an empty event.
    """
    if not games:
        raise RatingsError("no_games", "an ABSP event rating needs at least one game")
    total = sum(
        absp_game_points(own_rating, game.opponent_rating, game.score, params)
        for game in games
    )
    return total / len(games)


def absp_rate_division(
    division: DivisionRecord, params: AbspParams = ABSP
) -> dict[int, float]:
    """Return each rated player's ABSP event rating, keyed by player number.

    Only played games between two rated players count (a rating of 0 is unrated: it
    has nothing to clamp against); a player with no such game is left out.
    """
    ratings = {p.number: p.rating for p in division.players}
    division_rated_games(division)  # validates that both sides of every game agree
    result: dict[int, float] = {}
    for player in division.players:
        if not player.rating:
            continue
        games = [
            AbspGame(ratings[entry.opponent], entry.result)
            for entry in rated_entries(player)
            if entry.opponent is not None
            and entry.result is not None
            and ratings.get(entry.opponent)
        ]
        if games:
            result[player.number] = absp_event_rating(player.rating, games, params)
    return result
