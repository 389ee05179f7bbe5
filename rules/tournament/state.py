"""The tournament's state values: settings, players, rounds, entries and totals.

``TournamentState`` is what ``replay`` returns; each player's ``PlayerCard`` holds
their ``Entry`` per round (the rules' one answer for what the round was) and their
running ``Totals``. All are frozen values, changed with ``dataclasses.replace``.

Usage::

    state = replay(events)
    card = state.cards["p1"]
    card.totals.wins, card.entries[0].outcome, state.player("p1").name
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from rules.division_rules import PairingOptions, PrizeTable
from rules.errors import TournamentError
from rules.records import EntryKind
from rules.ruleset import ChallengeRule
from rules.tournament.enums import (
    Outcome,
    Preset,
    Ranking,
    RatingSystem,
    WithdrawalPolicy,
)
from rules.tournament.events import Extension, GameSetup, RoundPaired, ScheduledRound


@dataclass(frozen=True, slots=True)
class Settings:
    """The tournament settings with the preset resolved."""

    rounds: int
    preset: Preset
    challenge_rule: ChallengeRule
    ties_are_draws: bool
    bye_spread: int
    forfeit_spread: int
    spread_cap: int | None
    spread_caps: tuple[int, ...] = ()
    ranking: Ranking = Ranking.EXTENDED
    rating_system: RatingSystem = RatingSystem.NSA2008
    club_event: bool = False
    tile_set: str = "english"
    lexicon: str = ""

    def cap(self, round_: int) -> int | None:
        """Return the spread cap of ``round_`` (None: uncapped)."""
        if 1 <= round_ <= len(self.spread_caps):
            return self.spread_caps[round_ - 1]
        return self.spread_cap


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """Withdrawn from ``from_round`` up to (not including) ``until_round``."""

    from_round: int
    policy: WithdrawalPolicy
    until_round: int | None = None  # None: still withdrawn

    def covers(self, round_: int) -> bool:
        return self.from_round <= round_ and (
            self.until_round is None or round_ < self.until_round
        )


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player; ``number`` is stable (registration order, 1-based)."""

    player_id: str
    division: str
    number: int
    name: str
    rating: int
    member_id: str
    # How many rounds of the division were already paired at registration; more
    # than 0 makes this a late entry.
    joined_after_round: int
    rating_text: str = ""
    career_games: int | None = None
    extensions: tuple[Extension, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    # (first round affected, state version) of every withdrawal and re-activation:
    # the entries from that round on were last changed by that event.
    status_changes: tuple[tuple[int, int], ...] = ()
    # Marked present on the registration day (PlayerCheckedIn).
    checked_in: bool = False

    def withdrawn_in(self, round_: int) -> WithdrawalPolicy | None:
        """Return the withdrawal policy in force in ``round_``, or None."""
        for withdrawal in self.withdrawals:
            if withdrawal.covers(round_):
                return withdrawal.policy
        return None

    @property
    def withdrawn(self) -> bool:
        """True while a withdrawal has no re-activation."""
        return bool(self.withdrawals) and self.withdrawals[-1].until_round is None

    def status_version(self, round_: int) -> int:
        """Return the version of the last status change that reaches ``round_``."""
        return max(
            (version for first, version in self.status_changes if first <= round_),
            default=0,
        )


@dataclass(frozen=True, slots=True)
class Seat:
    """Where a player sits in a round: a game (opponent, first?, board) or a bye."""

    opponent: str | None  # None: a bye
    went_first: bool | None = None
    board: int | None = None
    # False: the file the pairing came from does not say who went first
    # (``Board.first_known``); ``went_first`` is then only the listed order.
    first_known: bool = True


@dataclass(frozen=True, slots=True)
class GameResult:
    """The result of one paired game, with the result it superseded (if amended).

    ``winner`` is None for a draw. For a forfeit ``absentee`` is set and the scores
    are None. ``version`` is the state version (1-based event count) of the event
    that recorded it, so the store can say who recorded it and when.
    """

    round: int
    player_a: str
    player_b: str
    score_a: int | None
    score_b: int | None
    pre_adjustment_a: int | None
    pre_adjustment_b: int | None
    game_id: str | None
    absentee: str | None
    winner: str | None
    version: int
    reason: str = ""
    previous: GameResult | None = None
    # The final scores tied and the scores before the end-of-game adjustments
    # decided the winner (RULES.md, "Winner").
    tie_break: bool = False

    def scores_for(self, player_id: str) -> tuple[int | None, int | None]:
        """Return (own, opponent) final scores from ``player_id``'s side."""
        if player_id == self.player_a:
            return self.score_a, self.score_b
        return self.score_b, self.score_a

    def pre_adjustment_for(self, player_id: str) -> tuple[int | None, int | None]:
        """Return (own, opponent) pre-adjustment scores; None when not recorded."""
        if player_id == self.player_a:
            return self.pre_adjustment_a, self.pre_adjustment_b
        return self.pre_adjustment_b, self.pre_adjustment_a

    @property
    def history(self) -> tuple[GameResult, ...]:
        """This result and every result it superseded, newest first."""
        chain: list[GameResult] = []
        current: GameResult | None = self
        while current is not None:
            chain.append(current)
            current = current.previous
        return tuple(chain)


@dataclass(frozen=True, slots=True)
class Credit:
    """A director's credit for a round a player was not paired in."""

    spread: int
    version: int  # the state version of the UnpairedRoundRecorded or RoundAwarded
    # RoundAwarded's result; None: the spread's sign decides (UnpairedRoundRecorded).
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class RoundState:
    """One round of one division: the pairing in force and what has been recorded.

    The mappings are never mutated: every change builds new ones.
    """

    division: str
    round: int
    pairing: RoundPaired
    seats: Mapping[str, Seat]
    results: Mapping[frozenset[str], GameResult]
    unpaired: Mapping[str, Credit]  # player id -> UnpairedRoundRecorded's credit
    superseded_pairings: tuple[RoundPaired, ...] = ()
    version: int = 0  # the state version of the pairing in force

    @property
    def has_results(self) -> bool:
        return bool(self.results) or bool(self.unpaired)

    def result_of(self, player_a: str, player_b: str) -> GameResult | None:
        return self.results.get(frozenset((player_a, player_b)))


@dataclass(frozen=True, slots=True)
class Entry:
    """What one round was for one player: the result every reader shows.

    This is the one place a round's result is decided; the read models store it
    field for field and no reader works it out again.

    ``outcome`` is None for a paired game without a result yet, for an unplayed
    round and for a credit of 0 (tsh's "neither"). ``round_spread`` is the raw
    spread (own minus opponent, or the awarded bye/forfeit/credit spread);
    ``counted_spread`` is it after the spread cap. ``own_pre_adjustment`` and
    ``opponent_pre_adjustment`` are the scores before the end-of-game adjustments,
    None when not recorded (a slip's non-tied result). ``tie_break`` says the final
    scores tied and those scores decided the winner. ``version`` is the state
    version of the last event that changed the entry (a sync stamp).
    """

    round: int
    kind: EntryKind
    opponent: str | None = None
    went_first: bool | None = None
    board: int | None = None
    own_score: int | None = None
    opponent_score: int | None = None
    own_pre_adjustment: int | None = None
    opponent_pre_adjustment: int | None = None
    outcome: Outcome | None = None
    tie_break: bool = False
    round_spread: int = 0
    counted_spread: int = 0
    game_id: str | None = None
    amended: bool = False
    version: int = 0
    # False: who went first is not known (``Seat.first_known``); the files written
    # from the entry say nothing of it and it counts as neither first nor second.
    first_known: bool = True

    @classmethod
    def unplayed(cls, round_: int) -> Entry:
        """Return the entry of a round with nothing for the player."""
        return cls(round=round_, kind=EntryKind.UNPLAYED)

    @property
    def has_result(self) -> bool:
        """True once the round counts: a decided game, bye, forfeit or credit."""
        return self.outcome is not None or self.kind is EntryKind.CREDIT

    @property
    def rated(self) -> bool:
        """True for a played game with a result (byes and forfeits are not rated)."""
        return self.kind is EntryKind.GAME and self.outcome is not None

    @property
    def total_score(self) -> int:
        """Points scored before the end-of-game adjustments (0 unless played)."""
        if not self.rated:
            return 0
        own = (
            self.own_score
            if self.own_pre_adjustment is None
            else self.own_pre_adjustment
        )
        return own or 0


@dataclass(frozen=True, slots=True)
class Totals:
    """Running totals over a player's entries (completed ones, except firsts)."""

    wins: int = 0  # includes byes and forfeit wins
    losses: int = 0  # includes forfeit losses
    draws: int = 0
    spread: int = 0  # after the spread cap
    total_score: int = 0  # points scored in games, before end-of-game adjustments
    games: int = 0  # completed entries of any kind
    byes: int = 0
    firsts: int = 0  # games (also unfinished) this player went first in
    seconds: int = 0

    def __add__(self, other: Totals) -> Totals:
        return Totals(
            self.wins + other.wins,
            self.losses + other.losses,
            self.draws + other.draws,
            self.spread + other.spread,
            self.total_score + other.total_score,
            self.games + other.games,
            self.byes + other.byes,
            self.firsts + other.firsts,
            self.seconds + other.seconds,
        )

    def __sub__(self, other: Totals) -> Totals:
        return Totals(
            self.wins - other.wins,
            self.losses - other.losses,
            self.draws - other.draws,
            self.spread - other.spread,
            self.total_score - other.total_score,
            self.games - other.games,
            self.byes - other.byes,
            self.firsts - other.firsts,
            self.seconds - other.seconds,
        )

    @staticmethod
    def of(entry: Entry) -> Totals:
        """Return what ``entry`` adds to a player's totals."""
        return Totals(*_contribution(entry))


def _contribution(entry: Entry) -> tuple[int, int, int, int, int, int, int, int, int]:
    """Return what ``entry`` adds to each field of ``Totals``, in field order."""
    played = entry.kind is EntryKind.GAME
    known = played and entry.first_known
    first = int(known and entry.went_first is True)
    second = int(known and entry.went_first is False)
    outcome = entry.outcome
    if outcome is None:
        return (0, 0, 0, 0, 0, 0, 0, first, second)
    return (
        int(outcome is Outcome.WIN),
        int(outcome is Outcome.LOSS),
        int(outcome is Outcome.DRAW),
        entry.counted_spread,
        entry.total_score,
        1,
        int(entry.kind is EntryKind.BYE),
        first,
        second,
    )


_ZERO = Totals()


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """A player's entries by round (index 0 is round 1; None: nothing) and totals."""

    entries: tuple[Entry | None, ...]
    totals: Totals = _ZERO

    def totals_after(self, round_: int) -> Totals:
        """Return the totals of rounds 1..``round_``."""
        if all(entry is None for entry in self.entries[round_:]):
            # Nothing after round_ (a result in the latest round): the running
            # totals, kept equal to the sum of every entry.
            return self.totals
        # Summed field by field: building a Totals per round made round-by-round
        # standings of a 500-player division 10 times slower.
        sums = [0] * 9
        for entry in self.entries[:round_]:
            if entry is not None:
                for index, value in enumerate(_contribution(entry)):
                    sums[index] += value
        return Totals(*sums)


@dataclass(frozen=True, slots=True)
class TournamentState:
    """The replayed tournament. Treat it as a value: ``apply`` returns a new one.

    The mappings are copied on write and never mutated once a state is built.
    ``version`` is the number of events applied.
    """

    name: str
    start_date: str
    end_date: str
    venue: str
    settings: Settings
    divisions: tuple[str, ...]
    players: Mapping[str, Player]
    division_players: Mapping[str, tuple[str, ...]]
    rounds: Mapping[tuple[str, int], RoundState]
    cards: Mapping[str, PlayerCard]
    version: int
    # Per division; a division without an entry pairs with the default options
    # and has no prizes.
    pairing_options: Mapping[str, PairingOptions] = dataclasses.field(
        default_factory=dict
    )
    prize_tables: Mapping[str, PrizeTable] = dataclasses.field(default_factory=dict)
    game_setups: Mapping[str, GameSetup] = dataclasses.field(default_factory=dict)
    # Per division: the round schedule (``RoundScheduleSet``), by round.
    round_schedules: Mapping[str, tuple[ScheduledRound, ...]] = dataclasses.field(
        default_factory=dict
    )

    def schedule_of(self, division: str) -> tuple[ScheduledRound, ...]:
        """Return the division's round schedule, by round (empty: none)."""
        return self.round_schedules.get(division, ())

    # A division's own number of rounds (DivisionRoundsSet; tsh's max_div_rounds).
    division_rounds: Mapping[str, int] = dataclasses.field(default_factory=dict)

    def rounds_of(self, division: str) -> int:
        """Return how many rounds the division plays: its own number, never more
        than the tournament's."""
        own = self.division_rounds.get(division)
        return self.settings.rounds if own is None else min(own, self.settings.rounds)

    def setup_of(self, division: str) -> GameSetup:
        """Return the division's own choices (None fields: the tournament's)."""
        return self.game_setups.get(division, GameSetup())

    def tile_set_of(self, division: str) -> str:
        """Return the name of the tile set the division's games are played with."""
        own = self.setup_of(division).tile_set
        return self.settings.tile_set if own is None else own

    def lexicon_of(self, division: str) -> str:
        """Return the lexicon the division's games are played with ("": none)."""
        own = self.setup_of(division).lexicon
        return self.settings.lexicon if own is None else own

    def game_setup(self, division: str | None = None) -> GameSetup:
        """Return the tile set and lexicon (both given) the division's games are
        played with; without a division, the tournament's."""
        if division is None:
            return GameSetup(self.settings.tile_set, self.settings.lexicon)
        return GameSetup(self.tile_set_of(division), self.lexicon_of(division))

    def options_of(self, division: str) -> PairingOptions:
        """Return the division's pairing options (the defaults when none are set)."""
        return self.pairing_options.get(division, PairingOptions())

    def player(self, player_id: str, field: str = "player_id") -> Player:
        """Return the player, or raise TournamentError (``unknown_player``)."""
        try:
            return self.players[player_id]
        except (KeyError, TypeError):
            raise TournamentError(
                "unknown_player", f"No player has the id {player_id!r}.", field
            ) from None

    def round_state(self, division: str, round_: int) -> RoundState | None:
        """Return the round of the division, or None when it is not paired."""
        return self.rounds.get((division, round_))

    def paired_rounds(self, division: str) -> int:
        """Return the highest paired round of the division (0 when none)."""
        last = 0
        for round_ in range(1, self.settings.rounds + 1):
            if (division, round_) in self.rounds:
                last = round_
        return last
