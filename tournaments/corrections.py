"""Services of a director's day after set-up: corrections, the team, late entries,
a round missed.

Each is a validated append like every other director action (``services``): the
rules refuse what is illegal and nothing is stored; the event says who and when in
the audit log; a stale ``expected_version`` is a 409.

Usage::

    player_edit(tournament_id=tid, player_id=pid, rating=1620, user=mara)
    division_rename(tournament_id=tid, name="A", new_name="Premier", user=mara)
    settings_change(tournament_id=tid, changes={"rounds": 9}, user=mara)
    team_add(tournament_id=tid, username="lee", role=SCOREKEEPER, user=mara)
    late_entry(tournament_id=tid, division="A", name="Kim, Ada", rating=1500,
               credit=LateCredit.FORFEIT, user=mara)
    round_missed(tournament_id=tid, player_id=pid, round_=9, user=mara)
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.contrib.auth import get_user_model

from games.eventstore.store import AppendResult
from rules import tournament as rt
from tournaments import events as te
from tournaments.models import DIRECTOR, SCOREKEEPER
from tournaments.services import append_as_director, new_player_id, tournament_state


class TeamError(rt.TournamentError):
    """Raised when a team change names no user or an impossible role."""


@dataclass(frozen=True, slots=True)
class Correction:
    """What a correction stored, and what it affects that it did not change."""

    result: AppendResult
    notes: tuple[str, ...] = ()


def player_edit(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    user: Any,
    name: str | None = None,
    rating: int | None = None,
    member_id: str | None = None,
    career_games: int | None = None,
    expected_version: int | None = None,
) -> Correction:
    """Correct a player's name, rating, member id or career games.

    A rating corrected after a round was paired changes no pairing: the notes say
    which rounds were paired with the old rating, so the director can re-pair an
    unplayed one.
    """
    _, state = tournament_state(tournament_id)
    assert state.rules is not None
    event = rt.PlayerEdited(
        player_id=player_id,
        name=name,
        rating=rating,
        member_id=member_id,
        career_games=career_games,
    )
    notes: tuple[str, ...] = ()
    player = state.rules.players.get(player_id)
    if player is not None and rating is not None and rating != player.rating:
        notes = _paired_with_old_rating(state.rules, player)
    result = append_as_director(
        tournament_id, [event], user=user, expected_version=expected_version
    )
    return Correction(result, notes)


def _paired_with_old_rating(
    rules: rt.TournamentState, player: rt.Player
) -> tuple[str, ...]:
    paired = rules.paired_rounds(player.division)
    if paired == 0:
        return ()
    unplayed = [
        round_
        for round_ in range(1, paired + 1)
        if (found := rules.round_state(player.division, round_)) is not None
        and not found.has_results
    ]
    note = (
        f"Rounds 1 to {paired} of division {player.division} were paired with"
        f" {player.name}'s old rating {player.rating}; their pairings stay as they are."
    )
    if unplayed:
        note += (
            f" Round {unplayed[0]} has no result yet: pair it again to use the new"
            " rating."
        )
    return (note,)


def division_rename(
    *,
    tournament_id: uuid.UUID,
    name: str,
    new_name: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    return append_as_director(
        tournament_id,
        [rt.DivisionRenamed(name=name, new_name=new_name)],
        user=user,
        expected_version=expected_version,
    )


# The settings a director may correct after set-up, and their event fields.
SETTINGS = (
    "rounds",
    "bye_spread",
    "forfeit_spread",
    "spread_cap",
    "spread_caps",
    "rating_system",
    "club_event",
    "tile_set",
    "lexicon",
)


def settings_change(
    *,
    tournament_id: uuid.UUID,
    changes: Mapping[str, Any],
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Correct settings: ``changes`` maps names of ``SETTINGS`` to new values
    (``spread_cap`` None removes the cap)."""
    fields = dict(changes)
    if "spread_cap" in fields and fields["spread_cap"] is None:
        fields.pop("spread_cap")
        fields["clear_spread_cap"] = True
    if "spread_caps" in fields:
        fields["spread_caps"] = tuple(fields["spread_caps"])
    if "rating_system" in fields:
        fields["rating_system"] = rt.RatingSystem(fields["rating_system"])
    return append_as_director(
        tournament_id,
        [rt.SettingsChanged(**fields)],
        user=user,
        expected_version=expected_version,
    )


# --- The team ---------------------------------------------------------------------


def _account(username: str) -> Any:
    account = get_user_model().objects.filter(username=username).first()
    if account is None:
        raise TeamError("unknown_user", f"No user is called {username!r}.", "username")
    return account


def team_add(
    *,
    tournament_id: uuid.UUID,
    username: str,
    role: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Add a co-director or a scorekeeper (who may enter and amend results only)."""
    account = _account(username)
    if role == DIRECTOR:
        event: object = te.DirectorAdded(user_id=account.pk, username=username)
    elif role == SCOREKEEPER:
        event = te.ScorekeeperAdded(user_id=account.pk, username=username)
    else:
        raise TeamError(
            "invalid_role",
            f"The role is {DIRECTOR} or {SCOREKEEPER}, not {role!r}.",
            "role",
        )
    return append_as_director(
        tournament_id, [event], user=user, expected_version=expected_version
    )


def team_remove(
    *,
    tournament_id: uuid.UUID,
    username: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Remove a director (never the last one) or a scorekeeper from the team."""
    account = _account(username)
    _, state = tournament_state(tournament_id)
    if account.pk in state.scorekeepers:
        event: object = te.ScorekeeperRemoved(user_id=account.pk)
    else:
        event = te.DirectorRemoved(user_id=account.pk)
    return append_as_director(
        tournament_id, [event], user=user, expected_version=expected_version
    )


# --- Late entries and a round missed ---------------------------------------------


class LateCredit(StrEnum):
    """What a late entry is credited for the rounds paired before they came (tsh's
    choices for a late entry's missed rounds)."""

    FORFEIT = "forfeit"  # a forfeit loss each: the forfeit spread, negative
    NEITHER = "neither"  # opponent 0, score 0: neither a win nor a loss
    NONE = "none"  # nothing recorded (the same count as neither, no round written)


def late_entry(
    *,
    tournament_id: uuid.UUID,
    division: str,
    name: str,
    rating: int,
    user: Any,
    member_id: str = "",
    career_games: int | None = None,
    credit: LateCredit = LateCredit.NEITHER,
    expected_version: int | None = None,
) -> AppendResult:
    """Register a player after rounds were paired, credited for each missed round
    as the director chooses, in one append."""
    _, state = tournament_state(tournament_id)
    assert state.rules is not None
    player_id = new_player_id()
    events: list[object] = [
        rt.PlayerRegistered(
            player_id=player_id,
            division=division,
            name=name,
            rating=rating,
            member_id=member_id,
            career_games=career_games,
        )
    ]
    spread = {
        LateCredit.FORFEIT: -state.rules.settings.forfeit_spread,
        LateCredit.NEITHER: 0,
    }.get(LateCredit(credit))
    if spread is not None and division in state.rules.division_players:
        events.extend(
            rt.UnpairedRoundRecorded(round=round_, player_id=player_id, spread=spread)
            for round_ in range(1, state.rules.paired_rounds(division) + 1)
        )
    return append_as_director(
        tournament_id, events, user=user, expected_version=expected_version
    )


def round_missed(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    round_: int,
    user: Any,
    policy: str = rt.WithdrawalPolicy.FORFEIT,
    expected_version: int | None = None,
) -> AppendResult:
    """A player misses round ``round_`` and plays again from the next one: a
    withdrawal for that round (its forfeit policy) and a return, in one append (the
    return only when a round follows)."""
    _, state = tournament_state(tournament_id)
    assert state.rules is not None
    events: list[object] = [
        rt.PlayerWithdrawn(
            player_id=player_id,
            from_round=round_,
            policy=rt.WithdrawalPolicy(policy),
        )
    ]
    if isinstance(round_, int) and round_ < state.rules.settings.rounds:
        events.append(rt.PlayerReactivated(player_id=player_id, from_round=round_ + 1))
    return append_as_director(
        tournament_id, events, user=user, expected_version=expected_version
    )
