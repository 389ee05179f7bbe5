"""Prizes: rating classes, a division's prize table, and who wins what.

A prize table lists prizes in the order they are awarded (tsh's prize lines): place
prizes (overall or within a rating class), most wins (in a class), high game, high
loss, low win and best upset. Each prize says how a tie is settled:

- ``split``: the tied players share it equally. For place prizes this pools the
  places the tied players occupy (two players tied for 2nd each get half of 2nd
  and half of 3rd), as prize money is shared in NASPA and WESPA practice;
- ``all``: each tied player gets the whole prize (tsh lists a tie as "shared");
- ``tie_break``: the prize's tie-break orders the tied players and only the one
  in the prize's place wins.

``exclusive`` names a group of prizes a player can win only one of (tsh's
``exclusive=``): a prize's place is counted among everyone (in the prize's class),
and when the player in that place already won a prize of the group, they are passed
over and the next player in order who has not takes it. Place 2 is the runner-up's
whatever the champion won; only a runner-up who already took a prize of the group
(a class prize listed earlier) hands it down. Prize winners are computed from the
standings and the players' entries, so they are a projection of the event log like
everything else. A game prize's figure (high game, high loss, low win, best upset)
is ``rules.figures``', the one the reports list too: an unrated player neither
makes nor suffers an upset.

Usage::

    table = PrizeTable(
        classes=(RatingClass("B", highest=1499),),
        prizes=(
            Prize(PrizeKind.PLACE, amount=20000, place=1, exclusive="cash"),
            Prize(PrizeKind.PLACE, amount=5000, rating_class="B", exclusive="cash"),
            Prize(PrizeKind.HIGH_GAME, amount=2000),
        ),
    )
    for award in prize_winners(state, "A", table):
        print(award.prize_index, award.player_id, award.amount, award.value)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.division_rules import (
    Prize,
    PrizeKind,
    PrizeTable,
    RatingClass,
    TieBreak,
    TieRule,
    check_prize_table,
)
from rules.figures import Figure, PlayedSide, figure
from rules.outcome import half_points
from rules.tournament import Entry, TournamentState
from rules.tournament.standings import StandingRow, standings

__all__ = [
    "Award",
    "Prize",
    "PrizeKind",
    "PrizeTable",
    "RatingClass",
    "TieBreak",
    "TieRule",
    "player_classes",
    "prize_winners",
]


@dataclass(frozen=True, slots=True)
class Award:
    """A prize won: by whom, how much (exact: a split can leave fractions of a
    cent, which the page rounds), the figure it was won with (score, wins, rating
    gap, place) and the round of the game for game prizes."""

    prize_index: int
    prize: Prize
    player_id: str
    amount: Fraction
    value: int
    round: int | None = None
    opponent: str | None = None
    shared_with: int = 1  # how many players are tied for it


@dataclass(frozen=True, slots=True)
class _Candidate:
    player_id: str
    key: tuple[int, ...]  # smaller is better; equal keys tie
    value: int
    tie_break: tuple[int, ...]
    round: int | None = None
    opponent: str | None = None


def player_classes(
    state: TournamentState, division: str, classes: Sequence[RatingClass]
) -> dict[str, str]:
    """Return each player's class: the first class whose band holds their
    pre-event rating (players in none are left out)."""
    found = {}
    for player_id in state.division_players.get(division, ()):
        rating = state.players[player_id].rating
        for rating_class in classes:
            if rating_class.holds(rating):
                found[player_id] = rating_class.name
                break
    return found


def prize_winners(
    state: TournamentState,
    division: str,
    table: PrizeTable,
    after_round: int | None = None,
) -> tuple[Award, ...]:
    """Return the awards of ``table`` for ``division``, prize by prize in order.

    The standings are ``standings(state, division, after_round)`` (None: all
    results so far); players left out of the ranking (tsh's withdrawn players) win
    no place prize. A prize nobody qualifies for has no award. Raises
    TournamentError (``invalid_prize``) for a table that does not make sense.
    """
    check_prize_table(table, state.settings.rounds)
    rows = standings(state, division, after_round)
    classes = player_classes(state, division, table.classes)
    # Per exclusive group, what each winner took: a share of a pooled place (tied
    # players sharing the places they occupy) or a prize of its own.
    won: dict[str, dict[str, object]] = {}
    # Per pooled place: how many players share it and how many places they hold.
    pools: dict[object, list[int]] = {}
    awards: list[Award] = []
    for index, prize in enumerate(table.prizes):
        taken = won.get(prize.exclusive, {}) if prize.exclusive else {}
        in_class = [
            row
            for row in rows
            if prize.rating_class is None
            or classes.get(row.player_id) == prize.rating_class
        ]
        candidates = _candidates(state, prize, in_class, after_round)
        won_now = tuple(
            _award(index, prize, candidates, _may_take(prize, taken, pools))
        )
        awards.extend(won_now)
        if prize.exclusive and won_now:
            _keep(won.setdefault(prize.exclusive, {}), pools, index, prize, won_now)
    return tuple(awards)


def _keep(
    taken: dict[str, object],
    pools: dict[object, list[int]],
    index: int,
    prize: Prize,
    won_now: Sequence[Award],
) -> None:
    """Record what the winners of `prize` took in its exclusive group: a share of
    a pooled place when they shared it, else a prize of its own."""
    pool = _pool(prize, won_now[0]) if len(won_now) > 1 else None
    if pool is not None:
        members_places = pools.setdefault(pool, [len(won_now), 0])
        members_places[1] += 1
    for award in won_now:
        taken[award.player_id] = pool if pool is not None else index


def _may_take(
    prize: Prize, taken: dict[str, object], pools: dict[object, list[int]]
) -> Callable[[_Candidate], bool]:
    """Whether a candidate may take `prize`: they hold no prize of its exclusive
    group yet, or a share of the same pooled place whose players still hold fewer
    places than they are (two tied players pool two places, never a third, even
    when the money of a place above them came down to them)."""

    def may_take(candidate: _Candidate) -> bool:
        earlier = taken.get(candidate.player_id)
        if earlier is None:
            return True
        if earlier != _pool(prize, candidate):
            return False
        members, places = pools[earlier]
        return places < members

    return may_take


def _pool(prize: Prize, won: _Candidate | Award) -> tuple[str, str | None, int] | None:
    """The pooled place a share of a split place prize belongs to: players tied
    for a place share every place they occupy, and those shares are one prize for
    an exclusive group (NASPA/WESPA practice: tied players pool the money)."""
    if prize.kind is PrizeKind.PLACE and prize.ties is TieRule.SPLIT:
        return ("place", prize.rating_class, won.value)
    return None


def _award(
    index: int,
    prize: Prize,
    candidates: list[_Candidate],
    may_take: Callable[[_Candidate], bool],
) -> Iterable[Award]:
    """The prize's winners: the candidates in its place, counted among all of them;
    one who may not take it (who holds another prize of its exclusive group)
    passes it on to the next in order."""
    candidates.sort(key=lambda c: (c.key, c.tie_break))
    if prize.ties is TieRule.TIE_BREAK:
        # One winner: the first, from the prize's place on, who may take it.
        for candidate in candidates[prize.place - 1 :]:
            if may_take(candidate):
                return (_award_to(index, prize, candidate, Fraction(prize.amount), 1),)
        return ()
    groups = list(_tied_groups(candidates))
    start = _group_holding(groups, prize.place)
    if start is None:
        return ()
    for group in groups[start:]:
        winners = [c for c in group if may_take(c)]
        if winners:
            break
    else:
        return ()
    if len(winners) == 1:
        return (_award_to(index, prize, winners[0], Fraction(prize.amount), 1),)
    share = Fraction(prize.amount, len(winners) if prize.ties is TieRule.SPLIT else 1)
    return tuple(_award_to(index, prize, c, share, len(winners)) for c in winners)


def _group_holding(groups: list[list[_Candidate]], place: int) -> int | None:
    """The index of the tied group that holds `place` (1 = the first)."""
    position = 0
    for index, group in enumerate(groups):
        if position < place <= position + len(group):
            return index
        position += len(group)
    return None


def _award_to(
    index: int, prize: Prize, candidate: _Candidate, amount: Fraction, shared: int
) -> Award:
    return Award(
        prize_index=index,
        prize=prize,
        player_id=candidate.player_id,
        amount=amount,
        value=candidate.value,
        round=candidate.round,
        opponent=candidate.opponent,
        shared_with=shared,
    )


def _tied_groups(candidates: list[_Candidate]) -> Iterable[list[_Candidate]]:
    group: list[_Candidate] = []
    for candidate in candidates:
        if group and candidate.key != group[0].key:
            yield group
            group = []
        group.append(candidate)
    if group:
        yield group


def _candidates(
    state: TournamentState,
    prize: Prize,
    rows: Sequence[StandingRow],
    after_round: int | None,
) -> list[_Candidate]:
    found = []
    for row in rows:
        tie_break = _tie_break_key(prize.tie_break, row, None)
        if prize.kind is PrizeKind.PLACE:
            if row.rank is None:
                continue
            found.append(_Candidate(row.player_id, (row.rank,), row.rank, tie_break))
        elif prize.kind is PrizeKind.MOST_WINS:
            points = half_points(row.wins, row.draws)
            found.append(_Candidate(row.player_id, (-points,), points, tie_break))
        else:
            game = _best_game(state, prize, row, after_round)
            if game is not None:
                found.append(game)
    return found


def _best_game(
    state: TournamentState, prize: Prize, row: StandingRow, after_round: int | None
) -> _Candidate | None:
    """The player's best game for a game prize (one entry per player)."""
    entries = state.cards[row.player_id].entries
    last = len(entries) if after_round is None else after_round
    first = prize.first_round or 1
    last = min(last, prize.last_round or last)
    best: _Candidate | None = None
    kind = _FIGURES[prize.kind]
    sign = -1 if kind.lowest_first else 1
    rating = state.players[row.player_id].rating
    for entry in entries[first - 1 : last]:
        if entry is None or not entry.rated or entry.own_score is None:
            continue
        value = figure(kind, _side(state, entry, rating))
        if value is None:
            continue
        candidate = _Candidate(
            row.player_id,
            (-sign * value,),
            value,
            _tie_break_key(prize.tie_break, row, entry),
            entry.round,
            entry.opponent,
        )
        if best is None or (candidate.key, candidate.tie_break) < (
            best.key,
            best.tie_break,
        ):
            best = candidate
    return best


# The figure each game prize is won with (rules.figures, shared with the reports).
_FIGURES = {
    PrizeKind.HIGH_GAME: Figure.HIGH_GAME,
    PrizeKind.HIGH_LOSS: Figure.HIGH_LOSS,
    PrizeKind.LOW_WIN: Figure.LOW_WIN,
    PrizeKind.BEST_UPSET: Figure.BIGGEST_UPSET,
}


def _side(state: TournamentState, entry: Entry, rating: int) -> PlayedSide:
    """The player's side of a played game, by the pre-event ratings."""
    assert entry.own_score is not None
    assert entry.opponent_score is not None
    assert entry.outcome is not None
    opponent = None if entry.opponent is None else state.players[entry.opponent]
    return PlayedSide(
        score=entry.own_score,
        opponent_score=entry.opponent_score,
        outcome=entry.outcome,
        rating=rating,
        opponent_rating=None if opponent is None else opponent.rating,
    )


def _tie_break_key(
    rule: TieBreak, row: StandingRow, entry: Entry | None
) -> tuple[int, ...]:
    if rule is TieBreak.SPREAD:
        own = row.spread if entry is None else entry.round_spread
        return (-own, row.number)
    if rule is TieBreak.TOTAL_SCORE:
        return (-row.total_score, row.number)
    if rule is TieBreak.LOWER_RATING:
        return (row.rating, row.number)
    if rule is TieBreak.EARLIER_ROUND:
        return (entry.round if entry is not None else 0, row.number)
    return (row.number,)
