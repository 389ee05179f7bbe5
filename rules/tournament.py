"""Tournament events, the tournament state, and ``apply`` / ``replay``.

Every director action is an event in one stream per tournament; the state (players,
pairings, results and every player's running totals) is the fold of those events, so
standings are always the replay of the log. ``apply`` is incremental: an event
recomputes only the (player, round) cells it can change, and keeps each player's
totals up to date, so a result costs tens of microseconds even in a 500-player,
31-round division. ``rules.standings`` reads the totals; ``rules.pairing`` computes
system pairings from the state; ``rules.tsh`` reads and writes tsh ``.t`` files.

Usage::

    state = replay(
        [
            TournamentCreated(name="Riverside", start_date="2025-03-01",
                              end_date="2025-03-01", rounds=7),
            DivisionAdded(name="A"),
            PlayerRegistered(player_id="p1", division="A", name="Ann", rating=1500),
            PlayerRegistered(player_id="p2", division="A", name="Bob", rating=1400),
            RoundPaired(division="A", round=1, games=(Board(1, "p1", "p2"),)),
            ResultRecorded(round=1, player_a="p1", player_b="p2",
                           score_a=412, score_b=388),
        ]
    )
    state = apply(state, ResultAmended(round=1, player_a="p1", player_b="p2",
                                       score_a=412, score_b=398))

Conventions taken from tournament practice where RULES.md is silent (each is also
noted where it is applied):

- A withdrawn player's already-paired games are forfeits, whatever the policy (they
  were paired and did not play). Policy ``forfeit`` additionally gives the player a
  forfeit loss in every later paired round they are not paired in, as tsh does for a
  player marked inactive with a negative bye score; ``not_paired`` simply leaves them
  out from then on.
- A late entry gets nothing (absent: no win, no loss, no spread) for rounds paired
  before they joined, unless the director records something for them with
  ``UnpairedRoundRecorded`` (tsh practice: a late player's missed rounds are whatever
  the director enters for them, usually nothing or a forfeit).
- Byes and forfeits count as wins and losses with their spread but add nothing to the
  total score, which is a sum of points actually scored in games. A spread cap (one
  for every round, or one per round) caps each round's contribution to spread,
  whatever the round was (tsh's rule); wins and losses come from the uncapped scores.
- Who went first is counted over played games only (a forfeit has no first).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum
from functools import singledispatch
from typing import ClassVar, TypeVar

from rules.division_rules import PairingOptions, PrizeTable, check_prize_table
from rules.errors import TournamentError
from rules.outcome import decide
from rules.records import (
    DivisionRecord,
    EntryKind,
    PlayerRecord,
    RoundEntry,
    TournamentRecord,
)
from rules.ruleset import PRESETS, ChallengeRule
from rules.tilesets import TILE_SETS, tile_set_for_lexicon

__all__ = [
    "EVENT_TYPES",
    "MAX_ROUNDS",
    "MAX_SCORE",
    "MIN_SCORE",
    "Board",
    "ChallengeRule",
    "Credit",
    "DivisionAdded",
    "DivisionRenamed",
    "Entry",
    "Event",
    "Extension",
    "ForfeitRecorded",
    "GameResult",
    "GameSetup",
    "GameSetupSet",
    "LexiconChosen",
    "Outcome",
    "PairingMethod",
    "PairingOptions",
    "PairingRulesSet",
    "Player",
    "PlayerCard",
    "PlayerEdited",
    "PlayerReactivated",
    "PlayerRegistered",
    "PlayerWithdrawn",
    "Preset",
    "PrizeTable",
    "PrizeTableSet",
    "Ranking",
    "RatingSystem",
    "RecordedGame",
    "ResultAmended",
    "ResultRecorded",
    "RoundPaired",
    "RoundState",
    "Seat",
    "Settings",
    "SettingsChanged",
    "Totals",
    "TournamentCreated",
    "TournamentError",
    "TournamentState",
    "UnpairedRoundRecorded",
    "Withdrawal",
    "WithdrawalPolicy",
    "apply",
    "derive_cards",
    "player_record",
    "replay",
    "result_from_game",
    "round_entry",
    "tournament_to_records",
]

# Negative scores are legal (six passes with tiles on the rack end below zero); the
# bounds only catch typing slips such as a score entered twice (e.g. 4004).
MIN_SCORE = -1000
MAX_SCORE = 2000
MAX_ROUNDS = 100
# Bye and forfeit spreads: RULES.md default 50; WESPA events use 75 or 100.
MAX_AWARDED_SPREAD = 1000


# --- Enumerations ---------------------------------------------------------------------


class Preset(StrEnum):
    """A ruleset preset (RULES.md, "Ruleset presets")."""

    CLASSIC = "classic"
    NASPA = "naspa"
    WESPA = "wespa"


# The presets' challenge rule and tie rule (RULES.md, "Ruleset presets"): classic
# breaks a tie by the score before the end-of-game adjustments, NASPA and WESPA score
# every tie as a draw.
_PRESET_CHALLENGE = {preset: PRESETS[preset.value].challenge for preset in Preset}
_PRESET_TIES_ARE_DRAWS = {
    preset: PRESETS[preset.value].ties_are_draws for preset in Preset
}


class WithdrawalPolicy(StrEnum):
    """What happens to a withdrawn player's later rounds."""

    FORFEIT = "forfeit"  # a forfeit loss in every later paired round
    NOT_PAIRED = "not_paired"  # simply not paired any more


class PairingMethod(StrEnum):
    """How a round's pairing was made (informative; the pairing itself is stored)."""

    MANUAL = "manual"
    ROUND_ROBIN = "round_robin"
    KING_OF_THE_HILL = "king_of_the_hill"
    SWISS = "swiss"
    INIT_FONTES = "init_fontes"
    CHEW = "chew"
    COP = "cop"
    IMPORTED = "imported"


class Ranking(StrEnum):
    """How the standings order and rank players."""

    # RULES.md's order: wins, losses, spread, total score before the end-of-game
    # adjustments, rating, number; the total score still separates ranks.
    EXTENDED = "extended"
    # tsh's: wins, losses, spread; players share a rank exactly when all three are
    # equal (rating and number only order them inside it); a withdrawn player is
    # left out of the ranking from the round they go off.
    TSH = "tsh"


class RatingSystem(StrEnum):
    """The rating system the estimates follow, named as tsh names it."""

    NSA2008 = "nsa2008"
    NASPA_CSW = "naspa-csw"
    WESPA = "wespa"
    ABSP = "absp"


class Outcome(StrEnum):
    """One player's result of one round."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


# --- Events ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentCreated:
    """The tournament and its settings; always the first event of the stream.

    ``challenge_rule`` and ``ties_are_draws`` default (None) to the preset's value.
    ``spread_caps`` caps each round's spread by round (tsh's list form, ``[200,
    700, ...]``); a round beyond the list, or an empty list, takes ``spread_cap``.
    ``club_event`` marks a club tournament (NASPA's LCT rule for the estimates).
    ``tile_set`` (``rules.tilesets``) and ``lexicon`` (a word list's short name,
    ``CSW24``; "": none named) are what the games are played with, unless a
    division sets its own (``GameSetupSet``).
    """

    type_name: ClassVar[str] = "tournament_created"

    name: str
    start_date: str  # ISO date, YYYY-MM-DD
    end_date: str
    rounds: int
    venue: str = ""
    preset: Preset = Preset.CLASSIC
    challenge_rule: ChallengeRule | None = None
    ties_are_draws: bool | None = None
    bye_spread: int = 50
    forfeit_spread: int = 50
    spread_cap: int | None = None
    spread_caps: tuple[int, ...] = ()
    ranking: Ranking = Ranking.EXTENDED
    rating_system: RatingSystem = RatingSystem.NSA2008
    club_event: bool = False
    tile_set: str = "english"
    lexicon: str = ""


@dataclass(frozen=True, slots=True)
class DivisionAdded:
    """A division (a group of players paired among themselves)."""

    type_name: ClassVar[str] = "division_added"

    name: str


@dataclass(frozen=True, slots=True)
class Extension:
    """A field a tsh ``.t`` line carries after the scores (``; key values``), kept
    as written so that a file exported again says what it said."""

    key: str
    value: str


@dataclass(frozen=True, slots=True)
class PlayerRegistered:
    """A player joins a division; after round 1 is paired this is a late entry.

    ``player_id`` is a stable internal id chosen by the caller (never a line number);
    the player's number in the division is the registration order. ``rating_text``
    is the rating as a source file wrote it (``1500.5``, tsh's multi-list
    ``0+0+0``), kept beside ``rating``, the number the system rates with.
    ``career_games`` are the rated games played before the event (tsh's ``lifeg``;
    None: not known). ``extensions`` are a ``.t`` line's other fields, in order.
    """

    type_name: ClassVar[str] = "player_registered"

    player_id: str
    division: str
    name: str
    rating: int
    member_id: str = ""
    rating_text: str = ""
    career_games: int | None = None
    extensions: tuple[Extension, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerWithdrawn:
    """A player withdraws from ``from_round`` on (that round included)."""

    type_name: ClassVar[str] = "player_withdrawn"

    player_id: str
    from_round: int
    policy: WithdrawalPolicy = WithdrawalPolicy.FORFEIT


@dataclass(frozen=True, slots=True)
class PlayerReactivated:
    """A withdrawn player plays again from ``from_round`` on."""

    type_name: ClassVar[str] = "player_reactivated"

    player_id: str
    from_round: int


@dataclass(frozen=True, slots=True)
class Board:
    """One game of a pairing: the board (table) number and who goes first."""

    board: int
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class RoundPaired:
    """The complete pairing of one round of one division.

    A later ``RoundPaired`` for the same round replaces the earlier one, as long as
    the round has no result yet. ``coin_flips`` are the coin flips the system pairing
    consumed to decide who goes first (recorded so the pairing is reproducible; a hand
    pairing has none).
    """

    type_name: ClassVar[str] = "round_paired"

    division: str
    round: int
    games: tuple[Board, ...]
    byes: tuple[str, ...] = ()
    method: PairingMethod = PairingMethod.MANUAL
    coin_flips: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class ResultRecorded:
    """The final scores of a paired game, in either player order.

    When the final scores tie and the tie rule is not ``ties_are_draws``, the scores
    before the end-of-game adjustments are required (they decide the winner). When
    given for any game they are used for the total-score tie-break. ``game_id`` links
    a game recorded move by move, whose replay gave these scores.
    """

    type_name: ClassVar[str] = "result_recorded"

    round: int
    player_a: str
    player_b: str
    score_a: int
    score_b: int
    pre_adjustment_a: int | None = None
    pre_adjustment_b: int | None = None
    game_id: str | None = None


@dataclass(frozen=True, slots=True)
class ForfeitRecorded:
    """``absentee`` forfeited their paired game of ``round``."""

    type_name: ClassVar[str] = "forfeit_recorded"

    round: int
    absentee: str


@dataclass(frozen=True, slots=True)
class ResultAmended:
    """Replace the result of a paired game: new scores, or a forfeit by ``absentee``.

    Give either both scores (and, as for ``ResultRecorded``, the pre-adjustment
    scores of a tie) or ``absentee``. The superseded result stays in the history.
    """

    type_name: ClassVar[str] = "result_amended"

    round: int
    player_a: str
    player_b: str
    score_a: int | None = None
    score_b: int | None = None
    pre_adjustment_a: int | None = None
    pre_adjustment_b: int | None = None
    game_id: str | None = None
    absentee: str | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class UnpairedRoundRecorded:
    """Credit a player who is not paired in a paired round (e.g. a late entry).

    A positive ``spread`` counts as a win, a negative one as a loss and 0 as
    neither (how tsh stores a late entry's missed round); tsh records each as a
    pairing against opponent 0 with that score.
    """

    type_name: ClassVar[str] = "unpaired_round_recorded"

    round: int
    player_id: str
    spread: int


@dataclass(frozen=True, slots=True)
class PlayerEdited:
    """A correction of a player's details; the fields given (not None) change.

    A rating or career games change after round 1 is paired changes nothing
    already paired (the pairing is a fact of the log), only what reads the rating
    from now on (standings' order inside a rank, estimates, later pairings).
    """

    type_name: ClassVar[str] = "player_edited"

    player_id: str
    name: str | None = None
    rating: int | None = None
    rating_text: str | None = None
    member_id: str | None = None
    career_games: int | None = None


@dataclass(frozen=True, slots=True)
class DivisionRenamed:
    """A division's name corrected: everything of the division takes the new one."""

    type_name: ClassVar[str] = "division_renamed"

    name: str
    new_name: str


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    """A correction of the tournament's settings; the fields given (not None)
    change, and every result is counted again under them (a cap, a bye spread).

    ``rounds`` may not go below a division's paired rounds. An empty
    ``spread_caps`` tuple clears the per-round caps; ``clear_spread_cap`` the cap;
    an empty ``lexicon`` names none. A games' tile set or lexicon that is already
    the tournament's is refused as nothing to change (the older settings keep
    their rule: any value given is stored).
    """

    type_name: ClassVar[str] = "settings_changed"

    rounds: int | None = None
    bye_spread: int | None = None
    forfeit_spread: int | None = None
    spread_cap: int | None = None
    clear_spread_cap: bool = False
    spread_caps: tuple[int, ...] | None = None
    rating_system: RatingSystem | None = None
    club_event: bool | None = None
    tile_set: str | None = None
    lexicon: str | None = None


@dataclass(frozen=True, slots=True)
class LexiconChosen:
    """The games' word list named ("": none): the older event, kept so that the
    logs written before the lexicon was a setting replay. New logs record the
    choice as ``SettingsChanged(lexicon=...)``; this one checks nothing, as it
    never did."""

    type_name: ClassVar[str] = "lexicon_chosen"

    lexicon: str


@dataclass(frozen=True, slots=True)
class GameSetup:
    """A division's own tile set and lexicon; None: the tournament's."""

    tile_set: str | None = None
    lexicon: str | None = None


@dataclass(frozen=True, slots=True)
class GameSetupSet:
    """The tile set and lexicon a division's games are played with, replacing its
    earlier choice. Games already started keep theirs (each game's start records
    its tile set)."""

    type_name: ClassVar[str] = "game_setup_set"

    division: str
    setup: GameSetup


@dataclass(frozen=True, slots=True)
class PairingRulesSet:
    """A division's pairing rules (repeat limit, Gibsonization, prize places and
    bands, fixed boards, InitFontes rounds), replacing its earlier ones. They
    govern the system pairings made from now on; rounds already paired stay as
    they were paired (a pairing is a fact of the log)."""

    type_name: ClassVar[str] = "pairing_rules_set"

    division: str
    options: PairingOptions


@dataclass(frozen=True, slots=True)
class PrizeTableSet:
    """A division's rating classes and prize table, replacing its earlier one.

    The winners are not recorded: ``rules.prizes`` computes them from the table
    and the results, so a corrected result moves a prize the way it moves a rank.
    """

    type_name: ClassVar[str] = "prize_table_set"

    division: str
    table: PrizeTable


Event = (
    TournamentCreated
    | DivisionAdded
    | DivisionRenamed
    | PlayerRegistered
    | PlayerEdited
    | SettingsChanged
    | LexiconChosen
    | GameSetupSet
    | PairingRulesSet
    | PrizeTableSet
    | PlayerWithdrawn
    | PlayerReactivated
    | RoundPaired
    | ResultRecorded
    | ForfeitRecorded
    | ResultAmended
    | UnpairedRoundRecorded
)

EVENT_TYPES: dict[str, type] = {
    cls.type_name: cls
    for cls in (
        TournamentCreated,
        DivisionAdded,
        DivisionRenamed,
        PlayerRegistered,
        PlayerEdited,
        SettingsChanged,
        LexiconChosen,
        GameSetupSet,
        PairingRulesSet,
        PrizeTableSet,
        PlayerWithdrawn,
        PlayerReactivated,
        RoundPaired,
        ResultRecorded,
        ForfeitRecorded,
        ResultAmended,
        UnpairedRoundRecorded,
    )
}


# --- State values ---------------------------------------------------------------------


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
    first: bool | None = None
    board: int | None = None


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
    version: int  # the state version of the UnpairedRoundRecorded


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
    round and for a credit of 0 (tsh's "neither"). ``spread`` is the raw spread (own
    minus opponent, or the awarded bye/forfeit/credit spread); ``counted_spread``
    is it after the spread cap. ``own_pre`` and ``opponent_pre`` are the scores
    before the end-of-game adjustments, None when not recorded (a slip's non-tied
    result). ``tie_break`` says the final scores tied and those scores decided the
    winner. ``version`` is the state version of the last event that changed the
    entry (a sync stamp).
    """

    round: int
    kind: EntryKind
    opponent: str | None = None
    first: bool | None = None
    board: int | None = None
    own_score: int | None = None
    opponent_score: int | None = None
    own_pre: int | None = None
    opponent_pre: int | None = None
    outcome: Outcome | None = None
    tie_break: bool = False
    spread: int = 0
    counted_spread: int = 0
    game_id: str | None = None
    amended: bool = False
    version: int = 0

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
        own = self.own_score if self.own_pre is None else self.own_pre
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
    first = int(played and entry.first is True)
    second = int(played and entry.first is False)
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


# --- Validation helpers ---------------------------------------------------------------


def _require_int(value: object, field: str, code: str = "invalid_value") -> int:
    if type(value) is not int:
        raise TournamentError(code, f"{field} must be a whole number.", field)
    return value


def _require_text(value: object, field: str, code: str = "invalid_name") -> str:
    if not isinstance(value, str) or not value.strip():
        raise TournamentError(code, f"{field} must not be empty.", field)
    if "\n" in value or "\r" in value:
        raise TournamentError(code, f"{field} must be on one line.", field)
    return value


def _check_round(state: TournamentState, round_: object, field: str = "round") -> int:
    if type(round_) is not int or not 1 <= round_ <= state.settings.rounds:
        raise TournamentError(
            "invalid_round",
            f"Round must be a whole number from 1 to {state.settings.rounds};"
            f" got {round_!r}.",
            field,
        )
    return round_


def _check_score(value: object, field: str) -> int:
    if type(value) is not int:
        raise TournamentError(
            "invalid_score", f"{field} must be a whole number; got {value!r}.", field
        )
    if not MIN_SCORE <= value <= MAX_SCORE:
        raise TournamentError(
            "invalid_score",
            f"{field} {value} is out of range ({MIN_SCORE} to {MAX_SCORE}).",
            field,
        )
    return value


def _check_enum(value: object, enum: type[StrEnum], field: str) -> StrEnum:
    try:
        return enum(value)  # type: ignore[arg-type]  # any value: checked here
    except ValueError:
        allowed = ", ".join(member.value for member in enum)
        raise TournamentError(
            "invalid_setting", f"{field} must be one of {allowed}.", field
        ) from None


# A lexicon is named as the word lists are published and as GCG's #lexicon names
# them (CSW24, NWL2023, OSPS49, FILE2017): a short name, never a path.
_LEXICON_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,23}")


def _check_tile_set(value: object, field: str = "tile_set") -> str:
    if not isinstance(value, str) or value not in TILE_SETS:
        raise TournamentError(
            "unknown_tile_set",
            f"{field} must be one of {', '.join(TILE_SETS)}; got {value!r}.",
            field,
        )
    return value


def _check_lexicon(value: object, field: str = "lexicon") -> str:
    if not isinstance(value, str) or (value and _LEXICON_NAME.fullmatch(value) is None):
        raise TournamentError(
            "invalid_lexicon",
            f"{field} is a word list's short name such as CSW24, NWL23 or OSPS49"
            f" (a letter, then letters, digits, - or _; at most 24), or empty for"
            f" none; got {value!r}.",
            field,
        )
    return value


def _check_agree(tile_set: str, lexicon: str, field: str, where: str = "") -> None:
    """Refuse a lexicon whose language is played with another tile set."""
    implied = tile_set_for_lexicon(lexicon) if lexicon else None
    if implied is not None and implied.name != tile_set:
        raise TournamentError(
            "tile_set_clash",
            f"{where}The lexicon {lexicon} is played with the {implied.name} tile"
            f" set, not the {tile_set} set: choose them together.",
            field,
        )


def _check_setups(state: TournamentState, field: str) -> None:
    """Check that every division's tile set and lexicon (its own or the
    tournament's) go together."""
    settings = state.settings
    _check_agree(settings.tile_set, settings.lexicon, field)
    for division in state.game_setups:
        where = f"Division {division}: "
        _check_agree(
            state.tile_set_of(division), state.lexicon_of(division), field, where
        )


# --- Deriving entries (the incremental core) ------------------------------------------


def _cap(spread: int, cap: int | None) -> int:
    if cap is None:
        return spread
    return max(-cap, min(cap, spread))


def _awarded(
    round_: int,
    kind: EntryKind,
    spread: int,
    version: int,
    settings: Settings,
    seat: Seat | None = None,
) -> Entry:
    """Return a bye, forfeit or credit entry: its outcome follows from its kind
    (a bye or a forfeit win is a win even when its spread setting is 0) or, for a
    credit, from the sign of its spread (0: neither, as tsh counts it)."""
    if kind is EntryKind.CREDIT:
        outcome = None if spread == 0 else Outcome.WIN if spread > 0 else Outcome.LOSS
    elif kind in (EntryKind.FORFEIT_LOSS, EntryKind.WITHDRAWAL_FORFEIT):
        outcome = Outcome.LOSS
    else:
        outcome = Outcome.WIN
    return Entry(
        round=round_,
        kind=kind,
        opponent=None if seat is None else seat.opponent,
        first=None if seat is None else seat.first,
        board=None if seat is None else seat.board,
        outcome=outcome,
        spread=spread,
        counted_spread=_cap(spread, settings.cap(round_)),
        version=version,
    )


def _derive_entry(
    player: Player,
    round_state: RoundState | None,
    players: Mapping[str, Player],
    settings: Settings,
) -> Entry | None:
    """Return what the round is for the player, from the raw facts; None: nothing."""
    if round_state is None:
        return None
    round_ = round_state.round
    credit = round_state.unpaired.get(player.player_id)
    if credit is not None:
        return _awarded(
            round_, EntryKind.CREDIT, credit.spread, credit.version, settings
        )
    seat = round_state.seats.get(player.player_id)
    if seat is None or seat.opponent is None:
        return _unopposed_entry(player, round_state, seat, settings)
    opponent = players[seat.opponent]
    result = round_state.result_of(player.player_id, opponent.player_id)
    if result is not None:
        return _result_entry(player.player_id, seat, result, settings)
    version = max(
        round_state.version,
        player.status_version(round_),
        opponent.status_version(round_),
    )
    # A withdrawn player's paired game is a forfeit, whatever the policy: they
    # were paired and did not play.
    if player.withdrawn_in(round_) is not None:
        return _awarded(
            round_,
            EntryKind.WITHDRAWAL_FORFEIT,
            -settings.forfeit_spread,
            version,
            settings,
            seat,
        )
    if opponent.withdrawn_in(round_) is not None:
        return _awarded(
            round_,
            EntryKind.FORFEIT_WIN,
            settings.forfeit_spread,
            version,
            settings,
            seat,
        )
    return Entry(
        round=round_,
        kind=EntryKind.GAME,
        opponent=seat.opponent,
        first=seat.first,
        board=seat.board,
        version=version,
    )


def _unopposed_entry(
    player: Player, round_state: RoundState, seat: Seat | None, settings: Settings
) -> Entry | None:
    """Return the entry of a round with a bye or without a seat."""
    round_ = round_state.round
    policy = player.withdrawn_in(round_)
    version = max(round_state.version, player.status_version(round_))
    if policy is WithdrawalPolicy.FORFEIT:
        # tsh practice for an inactive player with a negative bye score: a
        # forfeit loss in every round paired without them.
        return _awarded(
            round_,
            EntryKind.WITHDRAWAL_FORFEIT,
            -settings.forfeit_spread,
            version,
            settings,
        )
    if seat is None or policy is not None:
        return None
    return _awarded(round_, EntryKind.BYE, settings.bye_spread, version, settings)


def _result_entry(
    player_id: str, seat: Seat, result: GameResult, settings: Settings
) -> Entry:
    """Return the entry of a paired game with a recorded result."""
    amended = result.previous is not None
    if result.absentee is not None:
        absent = result.absentee == player_id
        return replace(
            _awarded(
                result.round,
                EntryKind.FORFEIT_LOSS if absent else EntryKind.FORFEIT_WIN,
                -settings.forfeit_spread if absent else settings.forfeit_spread,
                result.version,
                settings,
                seat,
            ),
            amended=amended,
        )
    own, other = result.scores_for(player_id)
    own_pre, other_pre = result.pre_adjustment_for(player_id)
    assert own is not None
    assert other is not None
    if result.winner is None:
        outcome = Outcome.DRAW
    elif result.winner == player_id:
        outcome = Outcome.WIN
    else:
        outcome = Outcome.LOSS
    spread = own - other
    return Entry(
        round=result.round,
        kind=EntryKind.GAME,
        opponent=seat.opponent,
        first=seat.first,
        board=seat.board,
        own_score=own,
        opponent_score=other,
        own_pre=own_pre,
        opponent_pre=other_pre,
        outcome=outcome,
        tie_break=result.tie_break,
        spread=spread,
        counted_spread=_cap(spread, settings.cap(result.round)),
        game_id=result.game_id,
        amended=amended,
        version=result.version,
    )


def _refresh(
    state: TournamentState,
    players: Mapping[str, Player],
    rounds: Mapping[tuple[str, int], RoundState],
    cells: Iterable[tuple[str, int]],
    cards: Mapping[str, PlayerCard] | None = None,
) -> dict[str, PlayerCard]:
    """Recompute the given (player, round) cells and adjust the totals by delta."""
    new_cards = dict(state.cards if cards is None else cards)
    by_player: dict[str, set[int]] = {}
    for player_id, round_ in cells:
        by_player.setdefault(player_id, set()).add(round_)
    for player_id, round_numbers in by_player.items():
        player = players[player_id]
        card = new_cards[player_id]
        entries = list(card.entries)
        totals = card.totals
        changed = False
        for round_ in round_numbers:
            new = _derive_entry(
                player, rounds.get((player.division, round_)), players, state.settings
            )
            old = entries[round_ - 1]
            if new == old:
                continue
            changed = True
            if old is not None:
                totals = totals - Totals.of(old)
            if new is not None:
                totals = totals + Totals.of(new)
            entries[round_ - 1] = new
        if changed:
            new_cards[player_id] = PlayerCard(tuple(entries), totals)
    return new_cards


def derive_cards(state: TournamentState) -> dict[str, PlayerCard]:
    """Recompute every player's card from scratch (the reference for ``apply``)."""
    cards: dict[str, PlayerCard] = {}
    for player_id, player in state.players.items():
        entries = tuple(
            _derive_entry(
                player,
                state.rounds.get((player.division, round_)),
                state.players,
                state.settings,
            )
            for round_ in range(1, state.settings.rounds + 1)
        )
        totals = _ZERO
        for entry in entries:
            if entry is not None:
                totals = totals + Totals.of(entry)
        cards[player_id] = PlayerCard(entries, totals)
    return cards


# --- apply / replay -------------------------------------------------------------------


def apply(state: TournamentState | None, event: Event) -> TournamentState:
    """Return the state after ``event``; raise TournamentError if it is illegal.

    Never half-applies: on an error the given state is untouched (states are values)
    and nothing is returned.
    """
    if state is None:
        if not isinstance(event, TournamentCreated):
            raise TournamentError(
                "not_created",
                "The tournament must be created before anything else.",
                None,
            )
        return _create(event)
    if isinstance(event, TournamentCreated):
        raise TournamentError(
            "already_created", "The tournament has already been created.", None
        )
    new_state = _apply(event, state)
    return replace(new_state, version=state.version + 1)


def replay(events: Iterable[Event]) -> TournamentState:
    """Fold ``events`` through ``apply``; raise TournamentError for an empty log."""
    state: TournamentState | None = None
    for event in events:
        state = apply(state, event)
    if state is None:
        raise TournamentError("not_created", "The tournament has no events.", None)
    return state


def _create(event: TournamentCreated) -> TournamentState:
    _require_text(event.name, "name")
    for field in ("start_date", "end_date"):
        value = getattr(event, field)
        try:
            date.fromisoformat(value)
        except (TypeError, ValueError):
            raise TournamentError(
                "invalid_date", f"{field} must be a date as YYYY-MM-DD.", field
            ) from None
    if date.fromisoformat(event.end_date) < date.fromisoformat(event.start_date):
        raise TournamentError(
            "invalid_date", "The end date is before the start date.", "end_date"
        )
    if not isinstance(event.venue, str):
        raise TournamentError("invalid_setting", "venue must be text.", "venue")
    rounds = _require_int(event.rounds, "rounds", "invalid_setting")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise TournamentError(
            "invalid_setting",
            f"The number of rounds must be from 1 to {MAX_ROUNDS}.",
            "rounds",
        )
    preset = Preset(_check_enum(event.preset, Preset, "preset"))
    challenge = (
        _PRESET_CHALLENGE[preset]
        if event.challenge_rule is None
        else ChallengeRule(
            _check_enum(event.challenge_rule, ChallengeRule, "challenge_rule")
        )
    )
    if event.ties_are_draws is None:
        ties_are_draws = _PRESET_TIES_ARE_DRAWS[preset]
    elif isinstance(event.ties_are_draws, bool):
        ties_are_draws = event.ties_are_draws
    else:
        raise TournamentError(
            "invalid_setting", "ties_are_draws must be true or false.", "ties_are_draws"
        )
    for field in ("bye_spread", "forfeit_spread"):
        _check_awarded(getattr(event, field), field)
    _check_caps(event.spread_cap, event.spread_caps, rounds)
    if not isinstance(event.club_event, bool):
        raise TournamentError(
            "invalid_setting", "club_event must be true or false.", "club_event"
        )
    settings = Settings(
        rounds=rounds,
        preset=preset,
        challenge_rule=challenge,
        ties_are_draws=ties_are_draws,
        bye_spread=event.bye_spread,
        forfeit_spread=event.forfeit_spread,
        spread_cap=event.spread_cap,
        spread_caps=event.spread_caps,
        ranking=Ranking(_check_enum(event.ranking, Ranking, "ranking")),
        rating_system=RatingSystem(
            _check_enum(event.rating_system, RatingSystem, "rating_system")
        ),
        club_event=event.club_event,
        tile_set=_check_tile_set(event.tile_set),
        lexicon=_check_lexicon(event.lexicon),
    )
    _check_agree(settings.tile_set, settings.lexicon, "lexicon")
    return TournamentState(
        name=event.name,
        start_date=event.start_date,
        end_date=event.end_date,
        venue=event.venue,
        settings=settings,
        divisions=(),
        players={},
        division_players={},
        rounds={},
        cards={},
        version=1,
    )


def _check_awarded(value: object, field: str) -> int:
    """Check a bye or forfeit spread setting."""
    spread = _require_int(value, field, "invalid_setting")
    if not 0 <= spread <= MAX_AWARDED_SPREAD:
        raise TournamentError(
            "invalid_setting", f"{field} must be from 0 to {MAX_AWARDED_SPREAD}.", field
        )
    return spread


def _check_caps(cap: object, caps: object, rounds: int) -> None:
    """Check a spread cap (a number) and the per-round list (one cap per round)."""
    if cap is not None:
        cap = _require_int(cap, "spread_cap", "invalid_setting")
        if cap < 1:
            raise TournamentError(
                "invalid_setting", "spread_cap must be at least 1.", "spread_cap"
            )
    if not isinstance(caps, tuple) or len(caps) > rounds:
        raise TournamentError(
            "invalid_setting",
            f"spread_caps lists at most one cap per round ({rounds}).",
            "spread_caps",
        )
    for value in caps:
        if type(value) is not int or value < 1:
            raise TournamentError(
                "invalid_setting",
                "Each of spread_caps must be a whole number of at least 1.",
                "spread_caps",
            )


@singledispatch
def _apply(event: object, state: TournamentState) -> TournamentState:
    raise TournamentError(
        "unknown_event", f"{type(event).__name__} is not a tournament event.", None
    )


@_apply.register(DivisionAdded)
def _division_added(event: DivisionAdded, state: TournamentState) -> TournamentState:
    name = _require_text(event.name, "name")
    if name in state.division_players:
        raise TournamentError(
            "duplicate_division", f"Division {name!r} already exists.", "name"
        )
    return replace(
        state,
        divisions=(*state.divisions, name),
        division_players={**state.division_players, name: ()},
    )


def _check_division(state: TournamentState, division: object) -> str:
    if not isinstance(division, str) or division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    return division


@_apply.register(PlayerRegistered)
def _player_registered(
    event: PlayerRegistered, state: TournamentState
) -> TournamentState:
    player_id = _require_text(event.player_id, "player_id", "invalid_player_id")
    if player_id in state.players:
        raise TournamentError(
            "duplicate_player",
            f"A player with the id {player_id!r} is already registered.",
            "player_id",
        )
    division = _check_division(state, event.division)
    name = _require_text(event.name, "name")
    rating = _require_int(event.rating, "rating", "invalid_rating")
    if rating < 0:
        raise TournamentError(
            "invalid_rating", "rating must not be negative (0: unrated).", "rating"
        )
    if not isinstance(event.member_id, str):
        raise TournamentError("invalid_value", "member_id must be text.", "member_id")
    _check_player_record(event)
    ids = state.division_players[division]
    _check_not_registered(state, ids, name, event.member_id)
    _check_member_id_free(state, event.member_id, None)
    player = Player(
        player_id=player_id,
        division=division,
        number=len(ids) + 1,
        name=name,
        rating=rating,
        member_id=event.member_id,
        joined_after_round=state.paired_rounds(division),
        rating_text=event.rating_text,
        career_games=event.career_games,
        extensions=event.extensions,
    )
    return replace(
        state,
        players={**state.players, player_id: player},
        division_players={**state.division_players, division: (*ids, player_id)},
        cards={
            **state.cards,
            player_id: PlayerCard((None,) * state.settings.rounds),
        },
    )


def _same_name(name: str) -> str:
    return " ".join(name.split()).casefold()


def _check_not_registered(
    state: TournamentState, ids: Iterable[str], name: str, member_id: str
) -> None:
    """Refuse a player pasted or imported twice: the same name and member id in
    the division (two players may share a name when their member ids differ)."""
    key = _same_name(name)
    for player_id in ids:
        other = state.players[player_id]
        if _same_name(other.name) == key and other.member_id == member_id:
            raise TournamentError(
                "duplicate_registration",
                f"{name} is already registered in division {other.division}"
                f" (player #{other.number}"
                + (f", member {member_id}" if member_id else "")
                + ").",
                "name",
            )


def _check_member_id_free(
    state: TournamentState, member_id: str, player_id: str | None
) -> None:
    """Refuse a member id another player of the tournament already has: one
    member plays once in an event (the same person pasted twice under two
    spellings, or a typo in the id)."""
    if not member_id:
        return
    for other in state.players.values():
        if other.member_id == member_id and other.player_id != player_id:
            raise TournamentError(
                "duplicate_member_id",
                f"Member {member_id} is already registered: {other.name}, player"
                f" #{other.number} of division {other.division}.",
                "member_id",
            )


def _check_player_record(event: PlayerRegistered) -> None:
    """Check what a player line of a source file carried beside name and rating."""
    if not isinstance(event.rating_text, str) or any(
        char.isspace() for char in event.rating_text
    ):
        raise TournamentError(
            "invalid_rating", "rating_text must be one word.", "rating_text"
        )
    games = event.career_games
    if games is not None and (type(games) is not int or games < 0):
        raise TournamentError(
            "invalid_value",
            "career_games must be a whole number of 0 or more.",
            "career_games",
        )
    for extension in event.extensions:
        if (
            not isinstance(extension, Extension)
            or not isinstance(extension.key, str)
            or not extension.key
            or any(char.isspace() or char == ";" for char in extension.key)
            or not isinstance(extension.value, str)
            or ";" in extension.value
            or "\n" in extension.value
        ):
            raise TournamentError(
                "invalid_value",
                "Each extension is a key (one word) and its values, without ';'.",
                "extensions",
            )


def _player_rounds_with_results(
    state: TournamentState, player: Player, from_round: int
) -> list[int]:
    found = []
    for round_ in range(from_round, state.settings.rounds + 1):
        round_state = state.round_state(player.division, round_)
        if round_state is None:
            continue
        seat = round_state.seats.get(player.player_id)
        if player.player_id in round_state.unpaired or (
            seat is not None
            and seat.opponent is not None
            and round_state.result_of(player.player_id, seat.opponent) is not None
        ):
            found.append(round_)
    return found


def _status_cells(
    state: TournamentState, player: Player, from_round: int
) -> list[tuple[str, int]]:
    """Cells a status change from ``from_round`` can affect: own and opponents'."""
    cells = []
    for round_ in range(from_round, state.settings.rounds + 1):
        round_state = state.round_state(player.division, round_)
        if round_state is None:
            continue
        cells.append((player.player_id, round_))
        seat = round_state.seats.get(player.player_id)
        if seat is not None and seat.opponent is not None:
            cells.append((seat.opponent, round_))
    return cells


@_apply.register(PlayerWithdrawn)
def _player_withdrawn(
    event: PlayerWithdrawn, state: TournamentState
) -> TournamentState:
    player = state.player(event.player_id)
    from_round = _check_round(state, event.from_round, "from_round")
    policy = WithdrawalPolicy(_check_enum(event.policy, WithdrawalPolicy, "policy"))
    if player.withdrawn:
        raise TournamentError(
            "already_withdrawn",
            f"{player.name} is already withdrawn; re-activate them first.",
            "player_id",
        )
    if player.withdrawals and from_round < (player.withdrawals[-1].until_round or 0):
        raise TournamentError(
            "invalid_round",
            f"{player.name} was re-activated from round"
            f" {player.withdrawals[-1].until_round}; withdraw from then or later.",
            "from_round",
        )
    played = _player_rounds_with_results(state, player, from_round)
    if played:
        raise TournamentError(
            "results_after_withdrawal",
            f"{player.name} has a result in round {played[0]}; withdraw them from"
            f" round {played[-1] + 1} or amend those results first.",
            "from_round",
        )
    new_player = replace(
        player,
        withdrawals=(*player.withdrawals, Withdrawal(from_round, policy)),
        status_changes=(*player.status_changes, (from_round, state.version + 1)),
    )
    players = {**state.players, player.player_id: new_player}
    cards = _refresh(
        state, players, state.rounds, _status_cells(state, player, from_round)
    )
    return replace(state, players=players, cards=cards)


@_apply.register(PlayerReactivated)
def _player_reactivated(
    event: PlayerReactivated, state: TournamentState
) -> TournamentState:
    player = state.player(event.player_id)
    from_round = _check_round(state, event.from_round, "from_round")
    if not player.withdrawn:
        raise TournamentError(
            "not_withdrawn", f"{player.name} is not withdrawn.", "player_id"
        )
    current = player.withdrawals[-1]
    if from_round < current.from_round:
        raise TournamentError(
            "invalid_round",
            f"{player.name} withdrew from round {current.from_round}; re-activate"
            f" from that round or later.",
            "from_round",
        )
    if from_round == current.from_round:
        # The withdrawal never took effect: forget it.
        withdrawals = player.withdrawals[:-1]
    else:
        withdrawals = (
            *player.withdrawals[:-1],
            replace(current, until_round=from_round),
        )
    new_player = replace(
        player,
        withdrawals=withdrawals,
        status_changes=(
            *player.status_changes,
            (current.from_round, state.version + 1),
        ),
    )
    players = {**state.players, player.player_id: new_player}
    cards = _refresh(
        state, players, state.rounds, _status_cells(state, player, current.from_round)
    )
    return replace(state, players=players, cards=cards)


def _check_pairing_player(
    state: TournamentState, division: str, player_id: object, field: str
) -> Player:
    player = state.player(player_id, field)  # type: ignore[arg-type]
    if player.division != division:
        raise TournamentError(
            "wrong_division",
            f"{player.name} plays in division {player.division}, not {division}.",
            field,
        )
    return player


@_apply.register(RoundPaired)
def _round_paired(event: RoundPaired, state: TournamentState) -> TournamentState:
    division = _check_division(state, event.division)
    round_ = _check_round(state, event.round)
    _check_enum(event.method, PairingMethod, "method")
    if round_ > 1 and state.round_state(division, round_ - 1) is None:
        raise TournamentError(
            "round_out_of_order",
            f"Round {round_ - 1} of division {division} is not paired yet.",
            "round",
        )
    previous = state.round_state(division, round_)
    if previous is not None and previous.has_results:
        raise TournamentError(
            "round_has_results",
            f"Round {round_} already has results; amend results instead of re-pairing.",
            "round",
        )
    if not isinstance(event.games, tuple) or not isinstance(event.byes, tuple):
        raise TournamentError(
            "invalid_pairing", "games and byes must be lists.", "games"
        )
    if not event.games and not event.byes:
        raise TournamentError(
            "empty_pairing", "A pairing needs at least one game or bye.", "games"
        )
    if not all(isinstance(flip, bool) for flip in event.coin_flips):
        raise TournamentError(
            "invalid_pairing", "coin_flips must be true/false values.", "coin_flips"
        )
    seats: dict[str, Seat] = {}
    boards: set[int] = set()

    def seat(player_id: str, field: str, value: Seat) -> None:
        player = _check_pairing_player(state, division, player_id, field)
        if player_id in seats:
            raise TournamentError(
                "player_paired_twice",
                f"{player.name} is paired more than once in round {round_}.",
                field,
            )
        policy = player.withdrawn_in(round_)
        if policy is WithdrawalPolicy.NOT_PAIRED or (
            policy is not None and value.opponent is None
        ):
            raise TournamentError(
                "player_withdrawn",
                f"{player.name} is withdrawn in round {round_} and cannot be"
                + (" given a bye." if value.opponent is None else " paired."),
                field,
            )
        seats[player_id] = value

    for game in event.games:
        if not isinstance(game, Board):
            raise TournamentError(
                "invalid_pairing", "Each game needs a board.", "games"
            )
        if type(game.board) is not int or game.board < 1 or game.board in boards:
            raise TournamentError(
                "invalid_board",
                f"Board {game.board!r} must be a whole number of 1 or more, used once.",
                "games",
            )
        boards.add(game.board)
        seat(game.first, "games", Seat(game.second, True, game.board))
        seat(game.second, "games", Seat(game.first, False, game.board))
    for player_id in event.byes:
        seat(player_id, "byes", Seat(None))
    round_state = RoundState(
        division=division,
        round=round_,
        pairing=event,
        seats=seats,
        results={},
        unpaired={},
        superseded_pairings=()
        if previous is None
        else (*previous.superseded_pairings, previous.pairing),
        version=state.version + 1,
    )
    rounds = {**state.rounds, (division, round_): round_state}
    # Every player of the division: byes, games, and withdrawn players' automatic
    # forfeits can all change.
    cells = [(player_id, round_) for player_id in state.division_players[division]]
    cards = _refresh(state, state.players, rounds, cells)
    return replace(state, rounds=rounds, cards=cards)


def _paired_game(
    state: TournamentState, round_: object, player_a: object, player_b: object
) -> tuple[RoundState, Player, Player]:
    round_number = _check_round(state, round_)
    a = state.player(player_a, "player_a")  # type: ignore[arg-type]
    b = state.player(player_b, "player_b")  # type: ignore[arg-type]
    round_state = state.round_state(a.division, round_number)
    if round_state is None:
        raise TournamentError(
            "round_not_paired",
            f"Round {round_number} of division {a.division} is not paired yet.",
            "round",
        )
    seat = round_state.seats.get(a.player_id)
    if seat is None or seat.opponent != b.player_id:
        if seat is None:
            where = "is not paired"
        elif seat.opponent is None:
            where = "has a bye"
        else:
            where = f"plays {state.players[seat.opponent].name}"
        raise TournamentError(
            "game_not_paired",
            f"{a.name} and {b.name} are not paired in round {round_number}:"
            f" {a.name} {where}.",
            "player_b" if seat is not None else "player_a",
        )
    return round_state, a, b


def _game_result(
    state: TournamentState,
    event: ResultRecorded | ResultAmended,
    a: Player,
    b: Player,
    previous: GameResult | None,
) -> GameResult:
    """Validate the scores of ``event`` and decide the winner by the tie rule.

    An amendment replaces the whole result: what it does not give (pre-adjustment
    scores, the game link) is not carried over from the result it supersedes.
    """
    reason = event.reason if isinstance(event, ResultAmended) else ""
    if isinstance(event, ResultAmended) and event.absentee is not None:
        return _forfeit_result(state, event, a, b, previous)
    score_a = _check_score(event.score_a, "score_a")
    score_b = _check_score(event.score_b, "score_b")
    if event.game_id is not None and (
        not isinstance(event.game_id, str) or not event.game_id
    ):
        raise TournamentError(
            "invalid_game_id", "game_id must be a non-empty text.", "game_id"
        )
    pre = _pre_adjustment_scores(state, event, score_a, score_b)
    ties_are_draws = state.settings.ties_are_draws
    decided = decide(
        (score_a, score_b),
        (score_a, score_b) if pre is None else pre,
        ties_are_draws=ties_are_draws,
    )
    return GameResult(
        round=event.round,
        player_a=a.player_id,
        player_b=b.player_id,
        score_a=score_a,
        score_b=score_b,
        pre_adjustment_a=None if pre is None else pre[0],
        pre_adjustment_b=None if pre is None else pre[1],
        game_id=event.game_id,
        absentee=None,
        winner=None if decided.winner is None else (a, b)[decided.winner].player_id,
        version=state.version + 1,
        reason=reason,
        previous=previous,
        tie_break=decided.decided_by_tiebreak,
    )


def _pre_adjustment_scores(
    state: TournamentState,
    event: ResultRecorded | ResultAmended,
    score_a: int,
    score_b: int,
) -> tuple[int, int] | None:
    """Return the checked scores before the end-of-game adjustments, or None.

    They are asked for only when the final scores tie and the tie rule needs them
    (RULES.md, "Winner"); a result read from a recorded game (``game_id``) carries
    them whatever the scores. Anywhere else they would be a second, unchecked
    account of the game, so they are refused.
    """
    pre_a, pre_b = event.pre_adjustment_a, event.pre_adjustment_b
    if (pre_a is None) != (pre_b is None):
        raise TournamentError(
            "pre_adjustment_scores_required",
            "Give both scores before the end-of-game adjustments, or neither.",
            "pre_adjustment_a" if pre_a is None else "pre_adjustment_b",
        )
    tied = score_a == score_b
    if pre_a is None or pre_b is None:
        if tied and not state.settings.ties_are_draws:
            raise TournamentError(
                "pre_adjustment_scores_required",
                f"The final scores are tied at {score_a}: enter both scores before"
                " the end-of-game adjustments to decide the winner.",
                "pre_adjustment_a",
            )
        return None
    if not tied and event.game_id is None:
        raise TournamentError(
            "pre_adjustment_not_needed",
            f"The final scores {score_a}–{score_b} are not tied: the scores before"
            " the end-of-game adjustments are only entered for a tie.",
            "pre_adjustment_a",
        )
    return (
        _check_score(pre_a, "pre_adjustment_a"),
        _check_score(pre_b, "pre_adjustment_b"),
    )


def _forfeit_result(
    state: TournamentState,
    event: ResultAmended,
    a: Player,
    b: Player,
    previous: GameResult | None,
) -> GameResult:
    """Return an amendment to a forfeit by ``event.absentee``."""
    if event.absentee not in (a.player_id, b.player_id):
        raise TournamentError(
            "game_not_paired",
            f"The absentee must be {a.name} or {b.name}.",
            "absentee",
        )
    for field in ("score_a", "score_b", "pre_adjustment_a", "pre_adjustment_b"):
        if getattr(event, field) is not None:
            raise TournamentError("invalid_score", "A forfeit has no scores.", field)
    return GameResult(
        round=event.round,
        player_a=a.player_id,
        player_b=b.player_id,
        score_a=None,
        score_b=None,
        pre_adjustment_a=None,
        pre_adjustment_b=None,
        game_id=None,
        absentee=event.absentee,
        winner=b.player_id if event.absentee == a.player_id else a.player_id,
        version=state.version + 1,
        reason=event.reason,
        previous=previous,
    )


def _store_result(
    state: TournamentState, round_state: RoundState, result: GameResult
) -> TournamentState:
    key = frozenset((result.player_a, result.player_b))
    new_round = replace(round_state, results={**round_state.results, key: result})
    rounds = {**state.rounds, (round_state.division, round_state.round): new_round}
    cells = [(result.player_a, result.round), (result.player_b, result.round)]
    return replace(
        state, rounds=rounds, cards=_refresh(state, state.players, rounds, cells)
    )


def _duplicate(round_state: RoundState, a: Player, b: Player) -> None:
    if round_state.result_of(a.player_id, b.player_id) is not None:
        raise TournamentError(
            "duplicate_result",
            f"The round {round_state.round} game of {a.name} and {b.name} already"
            " has a result; amend it instead.",
            "round",
        )


@_apply.register(ResultRecorded)
def _result_recorded(event: ResultRecorded, state: TournamentState) -> TournamentState:
    round_state, a, b = _paired_game(state, event.round, event.player_a, event.player_b)
    _duplicate(round_state, a, b)
    return _store_result(state, round_state, _game_result(state, event, a, b, None))


@_apply.register(ForfeitRecorded)
def _forfeit_recorded(
    event: ForfeitRecorded, state: TournamentState
) -> TournamentState:
    round_number = _check_round(state, event.round)
    absentee = state.player(event.absentee, "absentee")
    round_state = state.round_state(absentee.division, round_number)
    if round_state is None:
        raise TournamentError(
            "round_not_paired",
            f"Round {round_number} of division {absentee.division} is not paired yet.",
            "round",
        )
    seat = round_state.seats.get(absentee.player_id)
    if seat is None or seat.opponent is None:
        raise TournamentError(
            "game_not_paired",
            f"{absentee.name} has no game in round {round_number} to forfeit.",
            "absentee",
        )
    opponent = state.players[seat.opponent]
    _duplicate(round_state, absentee, opponent)
    result = GameResult(
        round=round_number,
        player_a=absentee.player_id,
        player_b=opponent.player_id,
        score_a=None,
        score_b=None,
        pre_adjustment_a=None,
        pre_adjustment_b=None,
        game_id=None,
        absentee=absentee.player_id,
        winner=opponent.player_id,
        version=state.version + 1,
    )
    return _store_result(state, round_state, result)


@_apply.register(ResultAmended)
def _result_amended(event: ResultAmended, state: TournamentState) -> TournamentState:
    round_state, a, b = _paired_game(state, event.round, event.player_a, event.player_b)
    previous = round_state.result_of(a.player_id, b.player_id)
    if previous is None:
        raise TournamentError(
            "no_result_to_amend",
            f"The round {round_state.round} game of {a.name} and {b.name} has no"
            " result yet; record it instead.",
            "round",
        )
    if not isinstance(event.reason, str):
        raise TournamentError("invalid_value", "reason must be text.", "reason")
    return _store_result(state, round_state, _game_result(state, event, a, b, previous))


@_apply.register(UnpairedRoundRecorded)
def _unpaired_round_recorded(
    event: UnpairedRoundRecorded, state: TournamentState
) -> TournamentState:
    round_number = _check_round(state, event.round)
    player = state.player(event.player_id)
    spread = _require_int(event.spread, "spread", "invalid_spread")
    if abs(spread) > MAX_AWARDED_SPREAD:
        raise TournamentError(
            "invalid_spread",
            f"spread must be positive (a win), negative (a loss) or 0 (neither), at"
            f" most {MAX_AWARDED_SPREAD} either way.",
            "spread",
        )
    round_state = state.round_state(player.division, round_number)
    if round_state is None:
        raise TournamentError(
            "round_not_paired",
            f"Round {round_number} of division {player.division} is not paired yet.",
            "round",
        )
    if player.player_id in round_state.seats:
        raise TournamentError(
            "player_already_paired",
            f"{player.name} is paired in round {round_number}; record the game's"
            " result instead.",
            "player_id",
        )
    if player.player_id in round_state.unpaired:
        raise TournamentError(
            "duplicate_result",
            f"{player.name} already has an entry for round {round_number}.",
            "round",
        )
    credit = Credit(spread, state.version + 1)
    new_round = replace(
        round_state, unpaired={**round_state.unpaired, player.player_id: credit}
    )
    rounds = {**state.rounds, (player.division, round_number): new_round}
    cards = _refresh(state, state.players, rounds, [(player.player_id, round_number)])
    return replace(state, rounds=rounds, cards=cards)


# --- Corrections: a player's details, a division's name, the settings ---------------


@_apply.register(PlayerEdited)
def _player_edited(event: PlayerEdited, state: TournamentState) -> TournamentState:
    player = state.player(event.player_id)
    changes: dict[str, object] = {}
    if event.name is not None:
        changes["name"] = _require_text(event.name, "name")
    if event.rating is not None:
        rating = _require_int(event.rating, "rating", "invalid_rating")
        if rating < 0:
            raise TournamentError(
                "invalid_rating", "rating must not be negative (0: unrated).", "rating"
            )
        changes["rating"] = rating
        # The text a file wrote no longer says the rating.
        changes["rating_text"] = ""
    for field in ("rating_text", "member_id"):
        value = getattr(event, field)
        if value is not None:
            if not isinstance(value, str):
                raise TournamentError("invalid_value", f"{field} must be text.", field)
            changes[field] = value
    if event.career_games is not None:
        games = event.career_games
        if type(games) is not int or games < 0:
            raise TournamentError(
                "invalid_value",
                "career_games must be a whole number of 0 or more.",
                "career_games",
            )
        changes["career_games"] = games
    if not changes:
        raise TournamentError(
            "nothing_to_change", "Give at least one field to correct.", None
        )
    edited = replace(player, **changes)  # type: ignore[arg-type]  # checked above
    ids = [p for p in state.division_players[player.division] if p != player.player_id]
    _check_not_registered(state, ids, edited.name, edited.member_id)
    if event.member_id is not None:
        _check_member_id_free(state, edited.member_id, player.player_id)
    return replace(state, players={**state.players, player.player_id: edited})


@_apply.register(DivisionRenamed)
def _division_renamed(
    event: DivisionRenamed, state: TournamentState
) -> TournamentState:
    old = _check_division(state, event.name)
    new = _require_text(event.new_name, "new_name")
    if new in state.division_players:
        raise TournamentError(
            "duplicate_division", f"Division {new!r} already exists.", "new_name"
        )
    players = {
        pid: replace(p, division=new) if p.division == old else p
        for pid, p in state.players.items()
    }
    rounds = {
        (new if division == old else division, round_): (
            replace(rs, division=new, pairing=replace(rs.pairing, division=new))
            if division == old
            else rs
        )
        for (division, round_), rs in state.rounds.items()
    }
    return replace(
        state,
        divisions=tuple(new if d == old else d for d in state.divisions),
        division_players={
            (new if d == old else d): ids for d, ids in state.division_players.items()
        },
        players=players,
        rounds=rounds,
        pairing_options=_renamed_key(state.pairing_options, old, new),
        prize_tables=_renamed_key(state.prize_tables, old, new),
        game_setups=_renamed_key(state.game_setups, old, new),
    )


_V = TypeVar("_V")


def _renamed_key(mapping: Mapping[str, _V], old: str, new: str) -> dict[str, _V]:
    return {(new if key == old else key): value for key, value in mapping.items()}


@_apply.register(SettingsChanged)
def _settings_changed(
    event: SettingsChanged, state: TournamentState
) -> TournamentState:
    current = state.settings
    changes: dict[str, object] = {}
    if event.rounds is not None:
        rounds = _require_int(event.rounds, "rounds", "invalid_setting")
        paired = max((state.paired_rounds(d) for d in state.divisions), default=0)
        if not max(1, paired) <= rounds <= MAX_ROUNDS:
            raise TournamentError(
                "invalid_setting",
                f"The number of rounds must be from {max(1, paired)} (the rounds"
                f" already paired) to {MAX_ROUNDS}.",
                "rounds",
            )
        changes["rounds"] = rounds
    for field in ("bye_spread", "forfeit_spread"):
        value = getattr(event, field)
        if value is not None:
            _check_awarded(value, field)
            changes[field] = value
    if event.clear_spread_cap:
        changes["spread_cap"] = None
    elif event.spread_cap is not None:
        changes["spread_cap"] = event.spread_cap
    if event.spread_caps is not None:
        changes["spread_caps"] = event.spread_caps
    if event.rating_system is not None:
        changes["rating_system"] = RatingSystem(
            _check_enum(event.rating_system, RatingSystem, "rating_system")
        )
    if event.club_event is not None:
        if not isinstance(event.club_event, bool):
            raise TournamentError(
                "invalid_setting", "club_event must be true or false.", "club_event"
            )
        changes["club_event"] = event.club_event
    if not changes:
        if event.tile_set is not None or event.lexicon is not None:
            return _setup_changed(event, state)
        raise TournamentError(
            "nothing_to_change", "Give at least one setting to change.", None
        )
    if event.tile_set is not None or event.lexicon is not None:
        state = _setup_changed(event, state, unchanged_ok=True)
        current = state.settings
    settings = replace(current, **changes)  # type: ignore[arg-type]  # checked
    _check_caps(settings.spread_cap, settings.spread_caps, settings.rounds)
    for table in state.prize_tables.values():
        # A game prize limited to rounds the event no longer has.
        check_prize_table(table, settings.rounds)
    changed = replace(state, settings=settings)
    # Every count may change (a cap, a bye spread, the number of rounds): counted
    # again from the facts, as a replay would.
    return replace(changed, cards=derive_cards(changed))


def _setup_changed(
    event: SettingsChanged, state: TournamentState, *, unchanged_ok: bool = False
) -> TournamentState:
    """The games' tile set and lexicon of ``event`` (no count depends on them)."""
    current = state.settings
    tile_set = (
        current.tile_set if event.tile_set is None else _check_tile_set(event.tile_set)
    )
    lexicon = (
        current.lexicon if event.lexicon is None else _check_lexicon(event.lexicon)
    )
    field = "tile_set" if event.lexicon is None else "lexicon"
    if not unchanged_ok and (tile_set, lexicon) == (current.tile_set, current.lexicon):
        raise TournamentError(
            "nothing_to_change",
            f"The games are already played with {_setup_text(tile_set, lexicon)}.",
            field,
        )
    settings = replace(current, tile_set=tile_set, lexicon=lexicon)
    changed = replace(state, settings=settings)
    _check_setups(changed, field)
    return changed


def _setup_text(tile_set: str, lexicon: str) -> str:
    return f"the {tile_set} tile set and " + (
        f"the lexicon {lexicon}" if lexicon else "no lexicon named"
    )


@_apply.register(LexiconChosen)
def _lexicon_chosen(event: LexiconChosen, state: TournamentState) -> TournamentState:
    # An old log's choice, applied as it was then: unchecked ("" names none).
    lexicon = event.lexicon.strip() if isinstance(event.lexicon, str) else ""
    return replace(state, settings=replace(state.settings, lexicon=lexicon))


@_apply.register(GameSetupSet)
def _game_setup_set(event: GameSetupSet, state: TournamentState) -> TournamentState:
    division = _check_division(state, event.division)
    setup = event.setup
    if not isinstance(setup, GameSetup):
        raise TournamentError("invalid_setting", "setup is missing.", "setup")
    if setup.tile_set is not None:
        _check_tile_set(setup.tile_set)
    if setup.lexicon is not None:
        _check_lexicon(setup.lexicon)
    before = state.setup_of(division)
    # A refusal names what the director changed.
    field = "lexicon" if setup.lexicon != before.lexicon else "tile_set"
    if setup == before:
        raise TournamentError(
            "nothing_to_change",
            f"Division {division}'s games are already played with "
            f"{_setup_text(state.tile_set_of(division), state.lexicon_of(division))}"
            ".",
            field,
        )
    changed = replace(state, game_setups={**state.game_setups, division: setup})
    _check_agree(
        changed.tile_set_of(division),
        changed.lexicon_of(division),
        field,
        f"Division {division}: ",
    )
    return changed


@_apply.register(PairingRulesSet)
def _pairing_rules_set(
    event: PairingRulesSet, state: TournamentState
) -> TournamentState:
    division = _check_division(state, event.division)
    options = event.options
    if not isinstance(options, PairingOptions):
        raise TournamentError("invalid_setting", "options are missing.", "options")
    options.check()
    if options == state.options_of(division):
        raise TournamentError(
            "nothing_to_change",
            f"Division {division}'s pairing rules are already these.",
            None,
        )
    members = set(state.division_players[division])
    for pin in options.fixed_boards:
        if pin.player_id not in members:
            raise TournamentError(
                "invalid_setting",
                f"{pin.player_id!r} is not a player of division {division!r}.",
                "options.fixed_boards",
            )
    return replace(state, pairing_options={**state.pairing_options, division: options})


@_apply.register(PrizeTableSet)
def _prize_table_set(event: PrizeTableSet, state: TournamentState) -> TournamentState:
    division = _check_division(state, event.division)
    if not isinstance(event.table, PrizeTable):
        raise TournamentError("invalid_prize", "The prize table is missing.", "table")
    check_prize_table(event.table, state.settings.rounds)
    return replace(state, prize_tables={**state.prize_tables, division: event.table})


# --- Results read from recorded games -------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """What a game recorded move by move says of its result, from its replay.

    ``player_ids`` are the tournament's player ids in move order; the scores are in
    the same order. ``loser`` is a player who lost whatever the scores (resigned,
    forfeited, ran out of time), or None.
    """

    game_id: str
    tournament_id: str | None
    round: int | None
    player_ids: tuple[str, ...]
    final_scores: tuple[int, ...]
    pre_adjustment_scores: tuple[int, ...]
    is_over: bool
    loser: int | None = None


ResultEvent = TypeVar("ResultEvent", ResultRecorded, ResultAmended)


def result_from_game(
    event: ResultEvent, game: RecordedGame | None, tournament_id: str
) -> ResultEvent:
    """Return ``event`` with its scores read from the game it links.

    A game's result is derived from its replay, never typed twice: the scores and
    the scores before the end-of-game adjustments come from ``game``, and a score
    the event gives as well must agree. Raises TournamentError (field named) when
    the game is not this pairing's finished game or the event contradicts it.
    """
    if game is None or game.tournament_id != tournament_id:
        raise TournamentError(
            "unknown_game",
            "game_id names no game recorded for this tournament.",
            "game_id",
        )
    players = (event.player_a, event.player_b)
    if game.round != event.round or sorted(game.player_ids) != sorted(players):
        raise TournamentError(
            "game_not_of_pairing",
            f"The game {game.game_id} is not the round {event.round} game of these"
            " players.",
            "game_id",
        )
    if not game.is_over:
        raise TournamentError(
            "game_not_over", "The recorded game has not ended yet.", "game_id"
        )
    a, b = (game.player_ids.index(player) for player in players)
    read = {
        "score_a": game.final_scores[a],
        "score_b": game.final_scores[b],
        "pre_adjustment_a": game.pre_adjustment_scores[a],
        "pre_adjustment_b": game.pre_adjustment_scores[b],
    }
    if game.loser is not None and _ahead(game, game.loser):
        raise TournamentError(
            "game_lost_by_decision",
            "The recorded game was lost by a player who was not behind (resigned or"
            " out of time): record its result as a forfeit instead.",
            "game_id",
        )
    for field, value in read.items():
        given = getattr(event, field)
        if given is not None and given != value:
            raise TournamentError(
                "result_contradicts_game",
                f"{field} is {given}, but the recorded game says {value}.",
                field,
            )
    return replace(
        event,
        score_a=read["score_a"],
        score_b=read["score_b"],
        pre_adjustment_a=read["pre_adjustment_a"],
        pre_adjustment_b=read["pre_adjustment_b"],
    )


def _ahead(game: RecordedGame, player: int) -> bool:
    """True when ``player`` scored at least as much as every other player."""
    own = game.final_scores[player]
    return all(own >= score for score in game.final_scores)


# --- Records for file writers ---------------------------------------------------------


_RESULT_VALUE = {Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0}


def tournament_to_records(state: TournamentState) -> TournamentRecord:
    """Return the neutral records every submission writer works from.

    Each division lists its players by number with one entry per round up to the
    division's last paired round. For a bye or forfeit ``own_score`` is the signed
    spread credited (+bye, +forfeit for the winner, -forfeit for the absentee) and
    ``opponent_score`` is None; a forfeit keeps the opponent's number.
    """
    # The standings are computed from this module's state (imported here: the
    # standings module builds on this one).
    from rules.standings import standings

    divisions = []
    for division in state.divisions:
        last = state.paired_rounds(division)
        ids = state.division_players[division]
        ranks: dict[str, list[int | None]] = {player_id: [] for player_id in ids}
        for round_ in range(0, last + 1):
            for row in standings(state, division, after_round=round_):
                ranks[row.player_id].append(row.rank)
        players = []
        for player_id in ids:
            player = state.players[player_id]
            card = state.cards[player_id]
            rounds = tuple(
                _round_entry(state, round_, card.entries[round_ - 1])
                for round_ in range(1, last + 1)
            )
            players.append(player_record(player, rounds, tuple(ranks[player_id])))
        divisions.append(DivisionRecord(name=division, players=tuple(players)))
    settings = state.settings
    return TournamentRecord(
        name=state.name,
        date=state.start_date,
        divisions=tuple(divisions),
        rating_system=settings.rating_system.value,
        club_event=settings.club_event,
        rounds=settings.rounds,
    )


def player_record(
    player: Player,
    rounds: tuple[RoundEntry, ...],
    ranks: tuple[int | None, ...] = (),
) -> PlayerRecord:
    """Return ``player`` with their rounds (and ranks) as the writers' record."""
    return PlayerRecord(
        number=player.number,
        name=player.name,
        rating=player.rating,
        rounds=rounds,
        member_id=player.member_id,
        withdrawn=player.withdrawn,
        rating_text=player.rating_text,
        career_games=player.career_games,
        extensions=tuple((ext.key, ext.value) for ext in player.extensions),
        ranks=ranks,
    )


def _round_entry(
    state: TournamentState, round_: int, entry: Entry | None
) -> RoundEntry:
    if entry is None:
        entry = Entry.unplayed(round_)
    opponent = None if entry.opponent is None else state.players[entry.opponent].number
    return round_entry(entry, opponent)


def round_entry(entry: Entry, opponent_number: int | None) -> RoundEntry:
    """Return ``entry`` as the writers' neutral record.

    For a played game both scores; for a bye, forfeit or credit ``own_score`` is
    the signed spread credited and ``opponent_score`` is None; a forfeit keeps the
    opponent's number. ``result`` is None until the round counts.
    """
    result = None if entry.outcome is None else _RESULT_VALUE[entry.outcome]
    if entry.kind is EntryKind.GAME:
        return RoundEntry(
            round=entry.round,
            kind=EntryKind.GAME,
            opponent=opponent_number,
            own_score=entry.own_score,
            opponent_score=entry.opponent_score,
            went_first=entry.first,
            result=result,
            board=entry.board,
        )
    if entry.kind is EntryKind.UNPLAYED:
        return RoundEntry(round=entry.round, kind=EntryKind.UNPLAYED)
    return RoundEntry(
        round=entry.round,
        kind=entry.kind,
        opponent=opponent_number,
        own_score=entry.spread,
        result=result,
        board=entry.board,
    )


# --- Limits on new events -------------------------------------------------------------
# What a director may add from now on, checked by ``admit`` when an event is appended
# and never on a replay: a log keeps what earlier versions accepted (a division named
# "A/B", 100,000 divisions), and its pages must still show it. The API's serializers
# and the forms cite these numbers; the public pages are built for them
# (docs/RELIABILITY.md, "Bounded input"). The sizes leave room above the national
# scale the benchmark measures (4 divisions of 125 players).
MAX_DIVISIONS = 32
MAX_PLAYERS_PER_DIVISION = 1000
MAX_PLAYERS = 4000
MAX_NAME_LENGTH = 200  # a tournament's, its venue's and a player's name
MAX_DIVISION_NAME_LENGTH = 64
MAX_ID_LENGTH = 64  # a player's id and member id
MAX_REASON_LENGTH = 500  # an amendment's reason


def check_division_name(name: object, field: str = "name") -> str:
    """Return `name` if a new division may be called so; else raise TournamentError
    (``invalid_name``) saying why.

    A division's name is a segment of its pages' addresses (``…/divisions/A/``): no
    slash or backslash, no control character, not "." or "..", no space at either
    end, at most MAX_DIVISION_NAME_LENGTH characters.
    """
    text = _require_text(name, field)
    if len(text) > MAX_DIVISION_NAME_LENGTH:
        raise TournamentError(
            "invalid_name",
            f"A division's name may be at most {MAX_DIVISION_NAME_LENGTH} characters.",
            field,
        )
    _check_segment(text, field, f"The division name {text!r}")
    return text


def _check_segment(text: str, field: str, what: str) -> None:
    """Refuse text that cannot be one segment of a page's address."""
    problem = None
    if "/" in text or "\\" in text:
        problem = "cannot contain / or \\"
    elif text in (".", ".."):
        problem = "cannot be . or .."
    elif text != text.strip():
        problem = "cannot start or end with a space"
    elif _has_control(text):
        problem = "cannot contain control characters"
    if problem is not None:
        raise TournamentError(
            "invalid_name", f"{what} {problem}: it is part of a web address.", field
        )


def _has_control(text: str) -> bool:
    return any(ord(char) < 32 or 127 <= ord(char) < 160 for char in text)


def _check_length(value: object, field: str, limit: int, what: str) -> None:
    if isinstance(value, str):
        if len(value) > limit:
            raise TournamentError(
                "too_long", f"{what} may be at most {limit} characters.", field
            )
        if _has_control(value):
            raise TournamentError(
                "invalid_name", f"{what} cannot contain control characters.", field
            )


def admit(state: TournamentState | None, event: object) -> None:
    """Raise TournamentError when `event` goes beyond the limits on new events.

    Only what ``apply`` does not check (it checks types, existence and the rules of
    play); called before ``apply`` for each event an append adds.
    """
    if isinstance(event, TournamentCreated):
        _check_length(event.name, "name", MAX_NAME_LENGTH, "A tournament's name")
        _check_length(event.venue, "venue", MAX_NAME_LENGTH, "A venue's name")
    elif isinstance(event, DivisionAdded):
        if state is not None and len(state.divisions) >= MAX_DIVISIONS:
            raise TournamentError(
                "too_many_divisions",
                f"A tournament may have at most {MAX_DIVISIONS} divisions.",
                "name",
            )
        check_division_name(event.name)
    elif isinstance(event, DivisionRenamed):
        check_division_name(event.new_name, "new_name")
    elif isinstance(event, PlayerRegistered):
        _admit_player(state, event)
    elif isinstance(event, PlayerEdited):
        _check_length(event.name, "name", MAX_NAME_LENGTH, "A player's name")
        _check_length(event.member_id, "member_id", MAX_ID_LENGTH, "A member id")
    elif isinstance(event, ResultAmended):
        _check_length(event.reason, "reason", MAX_REASON_LENGTH, "A reason")


def _admit_player(state: TournamentState | None, event: PlayerRegistered) -> None:
    _check_length(event.name, "name", MAX_NAME_LENGTH, "A player's name")
    _check_length(event.member_id, "member_id", MAX_ID_LENGTH, "A member id")
    if isinstance(event.player_id, str):
        _check_length(event.player_id, "player_id", MAX_ID_LENGTH, "A player id")
        _check_segment(event.player_id, "player_id", "A player id")
    if state is None or not isinstance(event.division, str):
        return  # apply refuses these
    players = state.division_players.get(event.division, ())
    if len(players) >= MAX_PLAYERS_PER_DIVISION:
        raise TournamentError(
            "division_full",
            f"Division {event.division} has {len(players)} players, the most a "
            "division may have.",
            "division",
        )
    if len(state.players) >= MAX_PLAYERS:
        raise TournamentError(
            "tournament_full",
            f"The tournament has {len(state.players)} players, the most a "
            "tournament may have.",
            "division",
        )
