"""Standings, read from a replayed ``TournamentState``, ranked by the tournament's rule.

The extended order (RULES.md, "Tournament results and standings"): wins, more first
(a draw is half a win); losses, fewer first (a draw is half a loss); spread (after the
spread cap); total score before end-of-game adjustments; pre-event rating; then the
stable player number. Players equal on everything up to and including the total
score share a rank (rating and number only order them on the page).

tsh's order (``Ranking.TSH``, the rule of tournaments imported from tsh): wins,
losses, spread; players share a rank exactly when all three are equal; a withdrawn
player (tsh's ``off``) is left out of the ranking from the round they go off.

Before round 1 both orders are the pre-event one: by rating, equal ratings sharing
a rank. Ranks are competition ranks ("1 2 2 4").

Usage::

    for row in standings(state, "A"):
        print(row.rank, row.name, row.record, row.spread)
    rows = standings(state, "A", after_round=3)  # as they stood after round 3
    rows[0].entry  # what round 3 was for the leader: the rules' result
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import TournamentError
from rules.outcome import half_points, record_points
from rules.tournament.enums import Ranking
from rules.tournament.state import Entry, Player, Totals, TournamentState

__all__ = [
    "StandingRow",
    "format_record",
    "ranked_player_ids",
    "standing_key",
    "standings",
]


def format_record(wins: int, losses: int, draws: int) -> str:
    """Return a W-L record with draws as halves: ``"5-2"``, ``"4.5-2.5"``."""

    def half(whole: int) -> str:
        return str(whole // 2) if whole % 2 == 0 else f"{whole // 2}.5"

    return f"{half(half_points(wins, draws))}-{half(half_points(losses, draws))}"


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line of the standings."""

    rank: int | None  # None: left out of the ranking (tsh's withdrawn players)
    player_id: str
    number: int
    name: str
    rating: int
    wins: int  # byes and forfeit wins included
    losses: int  # forfeit losses included
    draws: int
    spread: int
    total_score: int  # points scored before end-of-game adjustments
    games: int  # rounds with a result (byes and forfeits included)
    byes: int
    withdrawn: bool
    # Standings after a given round: what that round was for the player (round 0,
    # the pre-event order, is unplayed). None for the running totals.
    entry: Entry | None = None

    @property
    def points(self) -> float:
        """Wins with a draw as half a win."""
        return record_points(self.wins, self.draws)

    @property
    def record(self) -> str:
        return format_record(self.wins, self.losses, self.draws)


def standing_key(totals: Totals, player: Player) -> tuple[int, int, int, int, int, int]:
    """Return the sort key of the extended order (smaller sorts first)."""
    return (
        -half_points(totals.wins, totals.draws),
        half_points(totals.losses, totals.draws),
        -totals.spread,
        -totals.total_score,
        -player.rating,
        player.number,
    )


def _rank_key(
    totals: Totals, player: Player, ranking: Ranking, after_round: int | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return (what shares a rank, the full sort key) for one player.

    Before round 1 (``after_round=0``) the order is the pre-event one: by rating,
    equal ratings sharing a rank. After it, the extended order shares a rank on
    wins, losses, spread and total score; tsh's on wins, losses and spread only.
    Rating and number only order the players inside a shared rank.
    """
    if after_round == 0:
        return (-player.rating,), (-player.rating, player.number)
    full = standing_key(totals, player)
    if ranking is Ranking.TSH:
        return full[:3], (*full[:3], -player.rating, player.number)
    return full[:4], full


def _check_division(state: TournamentState, division: str) -> tuple[str, ...]:
    try:
        return state.division_players[division]
    except (KeyError, TypeError):
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        ) from None


def _off(player: Player, ranking: Ranking, after_round: int | None) -> bool:
    """True when tsh leaves the player out of the ranking: withdrawn (``off``) in
    the round the standings are after."""
    if ranking is not Ranking.TSH or after_round == 0:
        return False
    if after_round is None:
        return player.withdrawn
    return player.withdrawn_in(after_round) is not None


def standings(
    state: TournamentState, division: str, after_round: int | None = None
) -> tuple[StandingRow, ...]:
    """Return the division's standings, best first, ranked by the tournament's
    ranking rule (``Settings.ranking``).

    ``after_round=None`` counts everything recorded so far (from the running totals:
    O(players × log players)); ``after_round=r`` counts rounds 1..r only, and round 0
    is the pre-event order by rating. Under tsh's ranking a withdrawn player is left
    out of the ranking (rank 0, listed last) from the round they go off. Raises
    TournamentError (``unknown_division``, ``invalid_round``).
    """
    ids = _check_division(state, division)
    if after_round is not None and (
        type(after_round) is not int or not 0 <= after_round <= state.settings.rounds
    ):
        raise TournamentError(
            "invalid_round",
            f"after_round must be from 0 to {state.settings.rounds}.",
            "after_round",
        )
    ranking = state.settings.ranking
    keyed = []
    for player_id in ids:
        player = state.players[player_id]
        card = state.cards[player_id]
        totals = card.totals if after_round is None else card.totals_after(after_round)
        shared, key = _rank_key(totals, player, ranking, after_round)
        off = _off(player, ranking, after_round)
        keyed.append(((off, *key), shared, off, player, totals, card))
    keyed.sort(key=lambda item: item[0])
    rows = []
    rank = 0
    previous: tuple[int, ...] | None = None
    for position, (_, shared, off, player, totals, card) in enumerate(keyed, start=1):
        if shared != previous:
            rank = position
            previous = shared
        rows.append(
            StandingRow(
                rank=None if off else rank,
                player_id=player.player_id,
                number=player.number,
                name=player.name,
                rating=player.rating,
                wins=totals.wins,
                losses=totals.losses,
                draws=totals.draws,
                spread=totals.spread,
                total_score=totals.total_score,
                games=totals.games,
                byes=totals.byes,
                withdrawn=player.withdrawn,
                entry=_entry_of(card.entries, after_round),
            )
        )
    return tuple(rows)


def ranked_player_ids(
    state: TournamentState, division: str, after_round: int | None = None
) -> tuple[str, ...]:
    """Return the division's player ids in standings order."""
    return tuple(row.player_id for row in standings(state, division, after_round))


def _entry_of(entries: tuple[Entry | None, ...], round_: int | None) -> Entry | None:
    if round_ is None:
        return None
    entry = entries[round_ - 1] if round_ > 0 else None
    return Entry.unplayed(round_) if entry is None else entry
