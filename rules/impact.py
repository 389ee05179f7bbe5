"""What an amendment of a result would change, before it is stored.

One decision, pure: given the tournament's log and a ``ResultAmended``, fold the
log as it is and the log with the amendment, and say what differs:

- the standings after every round from the amended one to the last paired, before
  and after, each player's rank, record and spread (a mover: a rank that changes);
- every later round the system paired from the standings (King of the Hill, Swiss,
  Chew, COP), paired again on the corrected state at the moment it was paired,
  with the coin flips that pairing recorded: the games and byes that would differ,
  and the Gibson decisions. The round robin and InitFontes follow a fixed table
  (results never change them), and a director's hand pairing is the director's:
  neither is paired again;
- the prize winners (``rules.prizes``) that change.

A later round is paired again on the state just before it was paired, with the
amendment applied there: what the system would have paired that round had the
result been right then, the rounds in between played as they were. A pairing's
basis (the round whose standings it read) is not in the log: the schedule's line
says it for a scheduled round; otherwise the round before, then the one before
that, are tried and the first that gives the recorded pairing on the log as it is
is the basis. A round that no basis reproduces (paired under rules since changed)
is reported as such rather than compared.

Usage::

    impact = amendment_impact(events, ResultAmended(2, "p1", "p2", 380, 402))
    impact.pairings_changed      # the later rounds the system would pair otherwise
    impact.standings[-1].movers  # who moves in the last standings
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from rules.pairing import coin_flips_needed, pair_round
from rules.pairing.systems import Pairing, System
from rules.prizes import Award, Prize, prize_winners
from rules.tournament import (
    Board,
    Event,
    PairingMethod,
    ResultAmended,
    RoundPaired,
    TournamentError,
    TournamentState,
    apply,
)
from rules.tournament.standings import StandingRow, standings

# The systems that pair from the standings: an amendment can change their rounds.
_FROM_STANDINGS = frozenset(
    {
        PairingMethod.KING_OF_THE_HILL,
        PairingMethod.SWISS,
        PairingMethod.CHEW,
        PairingMethod.COP,
    }
)


@dataclass(frozen=True, slots=True)
class StandingChange:
    """One player's line of a round's standings, before and after."""

    player_id: str
    name: str
    rank_before: int | None
    rank_after: int | None
    record_before: str
    record_after: str
    spread_before: int
    spread_after: int

    @property
    def moved(self) -> bool:
        return self.rank_before != self.rank_after

    @property
    def changed(self) -> bool:
        return self.moved or (self.record_before, self.spread_before) != (
            self.record_after,
            self.spread_after,
        )


@dataclass(frozen=True, slots=True)
class RoundStandings:
    """The standings after ``round``, in the corrected order."""

    round: int
    rows: tuple[StandingChange, ...]

    @property
    def movers(self) -> tuple[StandingChange, ...]:
        return tuple(row for row in self.rows if row.moved)


@dataclass(frozen=True, slots=True)
class PairingChange:
    """A later system-paired round: as recorded, and as the corrected log pairs it.

    ``reproducible`` is False when no basis gives the recorded pairing on the log
    as it is (``note`` says why): then ``corrected`` is empty and nothing is
    compared. ``flips_short`` says the corrected pairing needed more coin flips
    than the round recorded: who goes first on its last tied boards is then
    undecided (a new flip), so only who meets whom counts there.
    """

    round: int
    method: PairingMethod
    reproducible: bool
    based_on_round: int | None
    recorded_games: tuple[Board, ...]
    recorded_byes: tuple[str, ...]
    recorded_gibsons: tuple[str, ...]
    corrected_games: tuple[Board, ...] = ()
    corrected_byes: tuple[str, ...] = ()
    corrected_gibsons: tuple[str, ...] = ()
    flips_short: bool = False
    note: str = ""

    @property
    def games_gone(self) -> tuple[Board, ...]:
        """The recorded games the corrected log would not pair."""
        kept = _meetings(self.corrected_games)
        return tuple(g for g in self.recorded_games if _meeting(g) not in kept)

    @property
    def games_new(self) -> tuple[Board, ...]:
        """The games the corrected log would pair that were not."""
        kept = _meetings(self.recorded_games)
        return tuple(g for g in self.corrected_games if _meeting(g) not in kept)

    @property
    def firsts_changed(self) -> tuple[Board, ...]:
        """The games kept whose player going first would change (none when the
        corrected pairing needed a coin flip the round did not record)."""
        if self.flips_short:
            return ()
        recorded = {_meeting(g): g.first for g in self.recorded_games}
        return tuple(
            g
            for g in self.corrected_games
            if _meeting(g) in recorded and recorded[_meeting(g)] != g.first
        )

    @property
    def gibsons_changed(self) -> bool:
        return self.reproducible and set(self.recorded_gibsons) != set(
            self.corrected_gibsons
        )

    @property
    def differs(self) -> bool:
        return self.reproducible and bool(
            self.games_gone
            or self.games_new
            or self.firsts_changed
            or set(self.recorded_byes) != set(self.corrected_byes)
            or self.gibsons_changed
        )


@dataclass(frozen=True, slots=True)
class PrizeChange:
    """A prize whose winners change: (player id, amount) before and after."""

    prize_index: int
    prize: Prize
    before: tuple[tuple[str, Fraction], ...]
    after: tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True, slots=True)
class AmendmentImpact:
    """What the amendment changes (see the module's docstring)."""

    division: str
    round: int
    standings: tuple[RoundStandings, ...]
    pairings: tuple[PairingChange, ...]
    prizes: tuple[PrizeChange, ...]

    @property
    def pairings_changed(self) -> tuple[PairingChange, ...]:
        return tuple(p for p in self.pairings if p.differs)

    @property
    def gibsons_changed(self) -> tuple[PairingChange, ...]:
        return tuple(p for p in self.pairings if p.gibsons_changed)

    @property
    def movers(self) -> int:
        """How many lines of all the standings shown move."""
        return sum(len(r.movers) for r in self.standings)


def amendment_impact(
    events: Iterable[Event], amendment: ResultAmended
) -> AmendmentImpact:
    """Return what ``amendment`` would change if appended after ``events`` (the
    tournament's whole log, in order). Raises TournamentError as appending it
    would (the rules refuse it on the log as it is)."""
    state: TournamentState | None = None
    repaired: dict[int, PairingChange] = {}
    for event in events:
        if isinstance(event, RoundPaired) and state is not None:
            change = _later_round(state, event, amendment)
            if change is not None:
                # A round paired again before its results replaces the earlier.
                repaired[event.round] = change
        state = apply(state, event)
    if state is None:
        raise TournamentError("invalid_round", "The tournament has no events.", None)
    after = apply(state, amendment)
    division = after.player(amendment.player_a, "player_a").division
    return AmendmentImpact(
        division=division,
        round=amendment.round,
        standings=_standings(state, after, division, amendment.round),
        pairings=tuple(repaired[r] for r in sorted(repaired)),
        prizes=_prizes(state, after, division),
    )


def _later_round(
    state: TournamentState, event: RoundPaired, amendment: ResultAmended
) -> PairingChange | None:
    """The round ``event`` pairs, paired again with the amendment applied: None
    for an earlier round, another division, a method that does not read the
    standings, or a moment the amended result was not yet there."""
    if event.round <= amendment.round or event.method not in _FROM_STANDINGS:
        return None
    player = state.players.get(amendment.player_a)
    if player is None or player.division != event.division:
        return None
    try:
        corrected = apply(state, amendment)
    except TournamentError:
        return None  # the result was entered after this round was paired
    recorded = PairingChange(
        round=event.round,
        method=event.method,
        reproducible=False,
        based_on_round=None,
        recorded_games=event.games,
        recorded_byes=event.byes,
        recorded_gibsons=event.gibsons,
    )
    based = _basis(state, event)
    if based is None:
        return replace(
            recorded,
            note="The recorded pairing is not what the system gives on the log"
            " (paired under rules changed since): not compared.",
        )
    pairing, short = _pair(corrected, event, based)
    return replace(
        recorded,
        reproducible=True,
        based_on_round=based,
        corrected_games=pairing.games,
        corrected_byes=pairing.byes,
        corrected_gibsons=pairing.gibsons,
        flips_short=short,
    )


def _bases(state: TournamentState, event: RoundPaired) -> tuple[int, ...]:
    """The rounds the pairing may have read: the one its reasons record (kept
    since pairings explain themselves), else the schedule's line for a scheduled
    round, else the round before and the one before that (tsh's usual bases)."""
    if event.reasons is not None and event.method is not PairingMethod.MANUAL:
        return (event.reasons.based_on_round,)
    if event.scheduled:
        for line in state.schedule_of(event.division):
            if line.round == event.round:
                return (line.based_on_round,)
    return tuple(r for r in (event.round - 1, event.round - 2) if r >= 0)


def _basis(state: TournamentState, event: RoundPaired) -> int | None:
    """The basis that gives the recorded pairing on ``state``; None when none."""
    for based in _bases(state, event):
        try:
            again = pair_round(
                state,
                event.division,
                event.round,
                event.method,
                event.coin_flips,
                based_on_round=based,
                options=state.options_of(event.division),
            )
        except TournamentError:
            continue
        if (again.games, set(again.byes), set(again.gibsons)) == (
            event.games,
            set(event.byes),
            set(event.gibsons),
        ):
            return based
    return None


def _pair(
    state: TournamentState, event: RoundPaired, based: int
) -> tuple[Pairing, bool]:
    """Pair the round on the corrected ``state`` with the recorded coin flips;
    when it needs more, the rest are taken as heads and the second value says so
    (who goes first on those boards is a new flip, not a consequence)."""
    system = System(event.method.value)
    options = state.options_of(event.division)
    try:
        pairing = pair_round(
            state,
            event.division,
            event.round,
            system,
            event.coin_flips,
            based_on_round=based,
            options=options,
        )
        return pairing, False
    except TournamentError as error:
        if error.code != "not_enough_coin_flips":
            raise
    extra = (True,) * coin_flips_needed(state, event.division)
    pairing = pair_round(
        state,
        event.division,
        event.round,
        system,
        event.coin_flips + extra,
        based_on_round=based,
        options=options,
    )
    return pairing, True


def _standings(
    before: TournamentState, after: TournamentState, division: str, round_: int
) -> tuple[RoundStandings, ...]:
    """The standings after each round from ``round_`` to the last paired one."""
    last = max(after.paired_rounds(division), round_)
    return tuple(
        _round_standings(
            standings(before, division, r), standings(after, division, r), r
        )
        for r in range(round_, last + 1)
    )


def _round_standings(
    before: Sequence[StandingRow], after: Sequence[StandingRow], round_: int
) -> RoundStandings:
    old = {row.player_id: row for row in before}
    return RoundStandings(
        round=round_,
        rows=tuple(
            StandingChange(
                player_id=row.player_id,
                name=row.name,
                rank_before=old[row.player_id].rank,
                rank_after=row.rank,
                record_before=old[row.player_id].record,
                record_after=row.record,
                spread_before=old[row.player_id].spread,
                spread_after=row.spread,
            )
            for row in after
        ),
    )


def _prizes(
    before: TournamentState, after: TournamentState, division: str
) -> tuple[PrizeChange, ...]:
    """The prizes of the division's table whose winners or amounts change."""
    table = after.prize_tables.get(division)
    if table is None:
        return ()
    old = _by_prize(prize_winners(before, division, table))
    new = _by_prize(prize_winners(after, division, table))
    return tuple(
        PrizeChange(
            prize_index=index,
            prize=prize,
            before=old.get(index, ()),
            after=new.get(index, ()),
        )
        for index, prize in enumerate(table.prizes)
        if old.get(index, ()) != new.get(index, ())
    )


def _by_prize(
    awards: Iterable[Award],
) -> dict[int, tuple[tuple[str, Fraction], ...]]:
    found: dict[int, list[tuple[str, Fraction]]] = {}
    for award in awards:
        found.setdefault(award.prize_index, []).append((award.player_id, award.amount))
    # In the order the rules award them (the standings' order).
    return {index: tuple(won) for index, won in found.items()}


def _meeting(game: Board) -> frozenset[str]:
    return frozenset((game.first, game.second))


def _meetings(games: Iterable[Board]) -> set[frozenset[str]]:
    return {_meeting(g) for g in games}
