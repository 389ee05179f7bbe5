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
``exclusive=``): a player who already won a prize of the group is passed over and
the next player in order takes their place. Prize winners are computed from the
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

from collections.abc import Iterable, Sequence
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
    won: dict[str, set[str]] = {}
    awards: list[Award] = []
    for index, prize in enumerate(table.prizes):
        excluded = won.get(prize.exclusive, set()) if prize.exclusive else set()
        eligible = [
            row
            for row in rows
            if row.player_id not in excluded
            and (
                prize.rating_class is None
                or classes.get(row.player_id) == prize.rating_class
            )
        ]
        candidates = _candidates(state, prize, eligible, after_round)
        for award in _award(index, prize, candidates):
            awards.append(award)
            if prize.exclusive:
                won.setdefault(prize.exclusive, set()).add(award.player_id)
    return tuple(awards)


def _award(index: int, prize: Prize, candidates: list[_Candidate]) -> Iterable[Award]:
    candidates.sort(key=lambda c: (c.key, c.tie_break))
    position = 0
    for group in _tied_groups(candidates):
        if position < prize.place <= position + len(group):
            break
        position += len(group)
    else:
        return ()
    if len(group) == 1 or prize.ties is TieRule.TIE_BREAK:
        winner = group[prize.place - position - 1]
        return (_award_to(index, prize, winner, Fraction(prize.amount), 1),)
    share = Fraction(prize.amount, len(group) if prize.ties is TieRule.SPLIT else 1)
    return tuple(_award_to(index, prize, c, share, len(group)) for c in group)


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
