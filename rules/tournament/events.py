"""The tournament's events: every director action, one frozen dataclass each.

An event records a decision (a pairing, a result, a correction) with the values the
director gave; ``rules.tournament.replay`` folds them into the state, and
``EVENT_TYPES`` maps each event's ``type_name`` (what the log stores) to its class.

Usage::

    from rules.tournament import EVENT_TYPES, ResultRecorded
    event = ResultRecorded(round=1, player_a="p1", player_b="p2",
                           score_a=412, score_b=388)
    EVENT_TYPES[event.type_name] is ResultRecorded
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.division_rules import PairingOptions, PrizeTable
from rules.ruleset import ChallengeRule
from rules.tournament.enums import (
    Outcome,
    PairingMethod,
    Preset,
    Ranking,
    RatingSystem,
    WithdrawalPolicy,
)


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
    """One game of a pairing: the board (table) number and who goes first.

    ``first_known`` is False when a file the pairing was read from does not say
    who went first (a ``.TOU`` line pair without a ``+``): ``first`` is then only
    the order the players are listed in, and neither player's entry says who
    went first (nor will a file written from it).
    """

    board: int
    first: str
    second: str
    first_known: bool = True


@dataclass(frozen=True, slots=True)
class BoardReason:
    """Why one board of a system pairing is what it is.

    ``chooser`` is the player whose choice made the game (the planner pairs from
    the top, each player in turn taking the first opponent the system prefers
    who keeps the round within the fewest repeats); ``passed_over`` are the
    opponents the system preferred for them but did not give them, because the
    pair had met (``met``) or because taking them would have forced a repeat or a
    back-to-back game elsewhere in the round. Ranks are the standings the round
    was paired on (0 for a fixed schedule); groups are score groups in half
    points (twice the wins plus the draws). ``first_by`` says how who goes first
    was decided: ``fewer_firsts``, ``more_seconds``, ``coin_flip`` (then
    ``coin_flip`` holds the flip) or ``schedule``.
    """

    board: int
    first: str
    second: str
    chooser: str = ""
    rank_first: int = 0
    rank_second: int = 0
    group_first: int | None = None
    group_second: int | None = None
    met_before: int = 0
    back_to_back: bool = False
    passed_over: tuple[str, ...] = ()
    passed_over_met: tuple[str, ...] = ()
    gibson: tuple[str, ...] = ()
    fixed_board: bool = False
    first_by: str = ""
    coin_flip: bool | None = None


@dataclass(frozen=True, slots=True)
class ByeReason:
    """Why the bye went where it did: the fewest-byes rule (the lowest-ranked of
    those with the fewest byes), ``passed_over`` the candidates ahead of the
    player in that order whose bye would have forced a repeat, or ``gibson``."""

    player: str
    byes_before: int = 0
    rank: int = 0
    passed_over: tuple[str, ...] = ()
    gibson: bool = False


@dataclass(frozen=True, slots=True)
class PairingReasons:
    """Why a round's pairing is what it is, kept in its ``RoundPaired``.

    For a system pairing the boards are the event's games. For a director's hand
    pairing they are what the system (``system``) would have done on the same
    log, so the page can set the two side by side. ``repeat_limit`` is the limit
    the system paired under (None: no limit); ``over_limit`` and
    ``back_to_back`` count the games of the round beyond it and against last
    round's opponent (the fewest the field allowed); ``unavailable`` says why
    the system could not pair the round (then there are no boards).
    """

    system: str
    based_on_round: int = 0
    repeat_limit: int | None = None
    over_limit: int = 0
    back_to_back: int = 0
    boards: tuple[BoardReason, ...] = ()
    byes: tuple[ByeReason, ...] = ()
    schedule: bool = False
    unavailable: str = ""


@dataclass(frozen=True, slots=True)
class RoundPaired:
    """The complete pairing of one round of one division.

    A later ``RoundPaired`` for the same round replaces the earlier one, as long as
    the round has no result yet. ``coin_flips`` are the coin flips the system pairing
    consumed to decide who goes first (recorded so the pairing is reproducible; a hand
    pairing has none). ``gibsons`` are the players the system Gibsonized (their
    place decided, paired by the Gibson rule): every reader marks them from here.
    ``scheduled`` says the round schedule paired it when its results were in (the
    system's pairing, not a director's click). ``reasons`` says why each board is
    what it is (``PairingReasons``; for a hand pairing, what the system would
    have done); events stored before reasons were kept have none.
    """

    type_name: ClassVar[str] = "round_paired"

    division: str
    round: int
    games: tuple[Board, ...]
    byes: tuple[str, ...] = ()
    method: PairingMethod = PairingMethod.MANUAL
    coin_flips: tuple[bool, ...] = ()
    gibsons: tuple[str, ...] = ()
    scheduled: bool = False
    reasons: PairingReasons | None = None


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
class RoundAwarded:
    """A round a player was not paired in, awarded as a win, a half or a loss.

    What a file records against the player themself that ``UnpairedRoundRecorded``
    (whose spread's sign decides the result) cannot say: a half-bye (a ``.TOU``'s
    ``1350``: a half, no spread) or a win or loss awarded with a spread of 0.
    ``spread`` counts in the standings as the credit's does.
    """

    type_name: ClassVar[str] = "round_awarded"

    round: int
    player_id: str
    outcome: Outcome
    spread: int = 0


@dataclass(frozen=True, slots=True)
class TieWinRecorded:
    """A game whose final scores tied at ``score``, recorded as won by ``winner``
    without the scores before the end-of-game adjustments (a ``.TOU``'s win band at
    equal scores: the file keeps who won, not why).

    The result counts as a win decided by the tie-break (``Entry.tie_break``), the
    pre-adjustment scores unknown; the rating bodies rate it by its final scores.
    """

    type_name: ClassVar[str] = "tie_win_recorded"

    round: int
    winner: str
    loser: str
    score: int


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
class ScheduledRound:
    """One line of a division's round schedule: ``round`` is paired by ``method``
    on the results of ``based_on_round`` (0: before any result), as tsh's
    ``autopair`` line says "round 10: Swiss on round 9's results"."""

    round: int
    method: PairingMethod
    based_on_round: int


@dataclass(frozen=True, slots=True)
class RoundScheduleSet:
    """A division's round schedule, replacing its earlier one (empty: none).

    A scheduled round pairs itself, by its system, once the round before it is
    paired and every result of the round it is based on is in (tsh's
    ``autopair``); the director may re-pair it while it has no result.
    """

    type_name: ClassVar[str] = "round_schedule_set"

    division: str
    rounds: tuple[ScheduledRound, ...]


@dataclass(frozen=True, slots=True)
class PrizeTableSet:
    """A division's rating classes and prize table, replacing its earlier one.

    The winners are not recorded: ``rules.prizes`` computes them from the table
    and the results, so a corrected result moves a prize the way it moves a rank.
    """

    type_name: ClassVar[str] = "prize_table_set"

    division: str
    table: PrizeTable


# --- Registration day: check-in, a move between divisions, rounds per division ---


@dataclass(frozen=True, slots=True)
class PlayerCheckedIn:
    """A director marked a player present (``present``) before round 1 of their
    division is paired, or took the mark back (``present=False``). Players who
    never checked in are the no-shows a director withdraws before round 1."""

    type_name: ClassVar[str] = "player_checked_in"

    player_id: str
    present: bool = True


@dataclass(frozen=True, slots=True)
class PlayerMoved:
    """A player moves to another division before their first pairing; they take
    the next number there, and the later players of the division they leave move
    up one number (a player's number is their place in the division's list, as a
    tsh ``.t`` file's line)."""

    type_name: ClassVar[str] = "player_moved"

    player_id: str
    division: str


@dataclass(frozen=True, slots=True)
class DivisionRoundsSet:
    """A division plays ``rounds`` rounds, fewer than the tournament's (tsh's
    ``max_div_rounds``); None: the tournament's number again."""

    type_name: ClassVar[str] = "division_rounds_set"

    division: str
    rounds: int | None


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
    | RoundScheduleSet
    | PlayerWithdrawn
    | PlayerReactivated
    | RoundPaired
    | ResultRecorded
    | ForfeitRecorded
    | ResultAmended
    | UnpairedRoundRecorded
    | RoundAwarded
    | TieWinRecorded
    | PlayerCheckedIn
    | PlayerMoved
    | DivisionRoundsSet
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
        RoundScheduleSet,
        PlayerWithdrawn,
        PlayerReactivated,
        RoundPaired,
        ResultRecorded,
        ForfeitRecorded,
        ResultAmended,
        UnpairedRoundRecorded,
        RoundAwarded,
        TieWinRecorded,
        PlayerCheckedIn,
        PlayerMoved,
        DivisionRoundsSet,
    )
}
