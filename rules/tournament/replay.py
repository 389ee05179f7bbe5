"""``apply`` and ``replay``: the tournament's state as the fold of its events.

``apply`` validates an event against the state and returns the new state (never
half-applied: states are values); ``replay`` folds a whole log. The first event
creates the tournament (``_create``); every other is dispatched on its type to its
handler in ``players``, ``rounds`` or ``corrections``.

Usage::

    state = replay(events)
    state = apply(state, ResultRecorded(round=1, player_a="p1", player_b="p2",
                                        score_a=412, score_b=388))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import date
from functools import singledispatch

from rules.errors import TournamentError
from rules.ruleset import ChallengeRule
from rules.tournament.checks import (
    MAX_ROUNDS,
    _check_agree,
    _check_awarded,
    _check_caps,
    _check_enum,
    _check_lexicon,
    _check_tile_set,
    _require_int,
    _require_text,
)
from rules.tournament.corrections import (
    _division_renamed,
    _game_setup_set,
    _lexicon_chosen,
    _pairing_rules_set,
    _player_edited,
    _prize_table_set,
    _round_schedule_set,
    _settings_changed,
)
from rules.tournament.enums import (
    _PRESET_CHALLENGE,
    _PRESET_TIES_ARE_DRAWS,
    Preset,
    Ranking,
    RatingSystem,
)
from rules.tournament.events import (
    DivisionAdded,
    DivisionRenamed,
    DivisionRoundsSet,
    Event,
    ForfeitRecorded,
    GameSetupSet,
    LexiconChosen,
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
    SettingsChanged,
    TieWinRecorded,
    TournamentCreated,
    UnpairedRoundRecorded,
)
from rules.tournament.players import (
    _division_added,
    _player_reactivated,
    _player_registered,
    _player_withdrawn,
)
from rules.tournament.registration import (
    _division_rounds_set,
    _player_checked_in,
    _player_moved,
)
from rules.tournament.rounds import (
    _forfeit_recorded,
    _result_amended,
    _result_recorded,
    _round_awarded,
    _round_paired,
    _tie_win_recorded,
    _unpaired_round_recorded,
)
from rules.tournament.state import Settings, TournamentState


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
    _check_dates(event)
    if not isinstance(event.venue, str):
        raise TournamentError("invalid_setting", "venue must be text.", "venue")
    return TournamentState(
        name=event.name,
        start_date=event.start_date,
        end_date=event.end_date,
        venue=event.venue,
        settings=_created_settings(event),
        divisions=(),
        players={},
        division_players={},
        rounds={},
        cards={},
        version=1,
    )


def _check_dates(event: TournamentCreated) -> None:
    """Check that the dates are ISO dates and the end is not before the start."""
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


def _created_settings(event: TournamentCreated) -> Settings:
    """Return the settings the tournament is created with, each checked; the
    challenge and tie rules default to the preset's."""
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
    return settings


@singledispatch
def _apply(event: object, state: TournamentState) -> TournamentState:
    raise TournamentError(
        "unknown_event", f"{type(event).__name__} is not a tournament event.", None
    )


_apply.register(DivisionAdded, _division_added)
_apply.register(PlayerRegistered, _player_registered)
_apply.register(PlayerWithdrawn, _player_withdrawn)
_apply.register(PlayerReactivated, _player_reactivated)
_apply.register(RoundPaired, _round_paired)
_apply.register(ResultRecorded, _result_recorded)
_apply.register(ForfeitRecorded, _forfeit_recorded)
_apply.register(ResultAmended, _result_amended)
_apply.register(UnpairedRoundRecorded, _unpaired_round_recorded)
_apply.register(RoundAwarded, _round_awarded)
_apply.register(TieWinRecorded, _tie_win_recorded)
_apply.register(PlayerEdited, _player_edited)
_apply.register(DivisionRenamed, _division_renamed)
_apply.register(SettingsChanged, _settings_changed)
_apply.register(LexiconChosen, _lexicon_chosen)
_apply.register(GameSetupSet, _game_setup_set)
_apply.register(PairingRulesSet, _pairing_rules_set)
_apply.register(PrizeTableSet, _prize_table_set)
_apply.register(RoundScheduleSet, _round_schedule_set)

# The registration day (rules.tournament.registration).
_apply.register(PlayerCheckedIn, _player_checked_in)
_apply.register(PlayerMoved, _player_moved)
_apply.register(DivisionRoundsSet, _division_rounds_set)
