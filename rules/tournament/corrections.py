"""Event handlers for corrections: a player's details, a division's name, settings.

Corrections change what was entered without rewriting the log: a rename moves the
division's keys, a settings change re-derives every entry it can change (a new
spread cap re-counts every round's spread).

Usage (through ``apply``)::

    state = apply(state, PlayerEdited(player_id="p1", rating=1510))
    state = apply(state, DivisionRenamed(name="A", new_name="Open"))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TypeVar

from rules.division_rules import PairingOptions, PrizeTable, check_prize_table
from rules.errors import TournamentError
from rules.tournament.checks import (
    MAX_ROUNDS,
    _check_agree,
    _check_awarded,
    _check_caps,
    _check_enum,
    _check_lexicon,
    _check_setups,
    _check_tile_set,
    _require_int,
    _require_text,
)
from rules.tournament.entries import derive_cards
from rules.tournament.enums import PairingMethod, RatingSystem
from rules.tournament.events import (
    DivisionRenamed,
    GameSetup,
    GameSetupSet,
    LexiconChosen,
    PairingRulesSet,
    PlayerEdited,
    PrizeTableSet,
    RoundScheduleSet,
    ScheduledRound,
    SettingsChanged,
)
from rules.tournament.players import (
    _check_division,
    _check_member_id_free,
    _check_not_registered,
)
from rules.tournament.state import TournamentState


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
        round_schedules=_renamed_key(state.round_schedules, old, new),
    )


_V = TypeVar("_V")


def _renamed_key(mapping: Mapping[str, _V], old: str, new: str) -> dict[str, _V]:
    return {(new if key == old else key): value for key, value in mapping.items()}


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


def _lexicon_chosen(event: LexiconChosen, state: TournamentState) -> TournamentState:
    # An old log's choice, applied as it was then: unchecked ("" names none).
    lexicon = event.lexicon.strip() if isinstance(event.lexicon, str) else ""
    return replace(state, settings=replace(state.settings, lexicon=lexicon))


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


def _round_schedule_set(
    event: RoundScheduleSet, state: TournamentState
) -> TournamentState:
    division = _check_division(state, event.division)
    lines = event.rounds
    if not isinstance(lines, tuple) or not all(
        isinstance(line, ScheduledRound) for line in lines
    ):
        raise TournamentError(
            "invalid_schedule", "rounds must be a list of scheduled rounds.", "rounds"
        )
    seen: set[int] = set()
    for line in lines:
        _check_scheduled_round(state, line, seen)
    schedule = tuple(sorted(lines, key=lambda line: line.round))
    if schedule == state.schedule_of(division):
        raise TournamentError(
            "nothing_to_change",
            f"Division {division}'s round schedule is already this.",
            None,
        )
    return replace(state, round_schedules={**state.round_schedules, division: schedule})


# The methods a schedule may name: the systems (a hand pairing is the director's).
_SCHEDULED_METHODS = frozenset(PairingMethod) - {
    PairingMethod.MANUAL,
    PairingMethod.IMPORTED,
}


def _check_scheduled_round(
    state: TournamentState, line: ScheduledRound, seen: set[int]
) -> None:
    rounds = state.settings.rounds
    round_ = line.round
    if type(round_) is not int or not 1 <= round_ <= rounds or round_ in seen:
        raise TournamentError(
            "invalid_schedule",
            f"Each scheduled round must be from 1 to {rounds}, listed once"
            f" ({round_!r}).",
            "rounds",
        )
    seen.add(round_)
    method = _check_enum(line.method, PairingMethod, "rounds")
    if method not in _SCHEDULED_METHODS:
        raise TournamentError(
            "invalid_schedule",
            f"Round {round_}: {method} pairings are made by the director, not by"
            " a schedule.",
            "rounds",
        )
    based = line.based_on_round
    if type(based) is not int or not 0 <= based < round_:
        raise TournamentError(
            "invalid_schedule",
            f"Round {round_} can only be paired on the results of an earlier round"
            f" (0 to {round_ - 1}), not {based!r}.",
            "rounds",
        )


def _prize_table_set(event: PrizeTableSet, state: TournamentState) -> TournamentState:
    division = _check_division(state, event.division)
    if not isinstance(event.table, PrizeTable):
        raise TournamentError("invalid_prize", "The prize table is missing.", "table")
    check_prize_table(event.table, state.settings.rounds)
    return replace(state, prize_tables={**state.prize_tables, division: event.table})
