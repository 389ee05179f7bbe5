"""Tournament events, the tournament state, and ``apply`` / ``replay``.

Every director action is an event in one stream per tournament; the state (players,
pairings, results and every player's running totals) is the fold of those events, so
standings are always the replay of the log. ``apply`` is incremental: an event
recomputes only the (player, round) cells it can change, and keeps each player's
totals up to date, so a result costs tens of microseconds even in a 500-player,
31-round division. ``rules.tournament.standings`` reads the totals;
``rules.pairing`` computes system pairings from the state; ``rules.tsh`` reads and
writes tsh ``.t`` files.

The package holds one module per part, in the order each builds on the last:
``enums`` (named choices), ``events``, ``state`` (the state values), ``checks``,
``entries`` (deriving each player's rounds and totals), ``standings``, ``players``,
``rounds``, ``corrections`` and ``registration`` (the event handlers), ``replay``
(``apply`` and ``replay``), ``games`` (a game's rules and result), ``records`` (the
writers' records) and ``limits`` (what a new event may add). This module re-exports
their public names, so ``from rules import tournament as rt; rt.replay(...)`` reads
as one module.

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

from rules.division_rules import PairingOptions, PrizeTable
from rules.errors import TournamentError
from rules.ruleset import ChallengeRule
from rules.tournament.checks import MAX_AWARDED_SPREAD, MAX_ROUNDS, MAX_SCORE, MIN_SCORE
from rules.tournament.entries import derive_cards
from rules.tournament.enums import (
    Outcome,
    PairingMethod,
    Preset,
    Ranking,
    RatingSystem,
    WithdrawalPolicy,
)
from rules.tournament.events import (
    EVENT_TYPES,
    Board,
    BoardReason,
    ByeReason,
    DivisionAdded,
    DivisionRenamed,
    DivisionRoundsSet,
    Event,
    Extension,
    ForfeitRecorded,
    GameSetup,
    GameSetupSet,
    LexiconChosen,
    PairingReasons,
    PairingRulesSet,
    PlayerCheckedIn,
    PlayerEdited,
    PlayerMoved,
    PlayerReactivated,
    PlayerRegistered,
    PlayerWithdrawn,
    PrizeTableSet,
    ResultAmended,
    ResultRecorded,
    RoundAwarded,
    RoundPaired,
    RoundScheduleSet,
    ScheduledRound,
    SettingsChanged,
    TieWinRecorded,
    TournamentCreated,
    UnpairedRoundRecorded,
)
from rules.tournament.games import RecordedGame, game_ruleset, result_from_game
from rules.tournament.limits import (
    MAX_CAREER_GAMES,
    MAX_DIVISION_NAME_LENGTH,
    MAX_DIVISIONS,
    MAX_ID_LENGTH,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_PLAYERS_PER_DIVISION,
    MAX_RATING,
    MAX_REASON_LENGTH,
    admit,
    check_division_name,
)
from rules.tournament.records import player_record, round_entry, tournament_to_records
from rules.tournament.registration import first_paired_round
from rules.tournament.replay import apply, replay
from rules.tournament.state import (
    Credit,
    Entry,
    GameResult,
    Player,
    PlayerCard,
    RoundState,
    Seat,
    Settings,
    Totals,
    TournamentState,
    Withdrawal,
)

__all__ = [
    "EVENT_TYPES",
    "MAX_AWARDED_SPREAD",
    "MAX_CAREER_GAMES",
    "MAX_DIVISIONS",
    "MAX_DIVISION_NAME_LENGTH",
    "MAX_ID_LENGTH",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MAX_PLAYERS_PER_DIVISION",
    "MAX_RATING",
    "MAX_REASON_LENGTH",
    "MAX_ROUNDS",
    "MAX_SCORE",
    "MIN_SCORE",
    "Board",
    "BoardReason",
    "ByeReason",
    "ChallengeRule",
    "Credit",
    "DivisionAdded",
    "DivisionRenamed",
    "DivisionRoundsSet",
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
    "PairingReasons",
    "PairingRulesSet",
    "Player",
    "PlayerCard",
    "PlayerCheckedIn",
    "PlayerEdited",
    "PlayerMoved",
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
    "RoundAwarded",
    "RoundPaired",
    "RoundScheduleSet",
    "RoundState",
    "ScheduledRound",
    "Seat",
    "Settings",
    "SettingsChanged",
    "TieWinRecorded",
    "Totals",
    "TournamentCreated",
    "TournamentError",
    "TournamentState",
    "UnpairedRoundRecorded",
    "Withdrawal",
    "WithdrawalPolicy",
    "admit",
    "apply",
    "check_division_name",
    "derive_cards",
    "first_paired_round",
    "game_ruleset",
    "player_record",
    "replay",
    "result_from_game",
    "round_entry",
    "tournament_to_records",
]
