"""Services of the field and the team: registration, corrections, late entries,
missed rounds, withdrawals, account links, co-directors and scorekeepers.

Each is one validated append (``core.writes``): the rules refuse what is illegal,
the event says who and when in the audit log.

Usage::

    players_register(tournament_id=tid, division="A", entries=[("Ann", 1500, "")],
                     user=mara)
    player_edit(tournament_id=tid, player_id=pid, rating=1620, user=mara)
    late_entry(tournament_id=tid, division="A", name="Zed", rating=1400,
               credit=LateCredit.BYE, user=mara)
    team_add(tournament_id=tid, username="sam", role="scorekeeper", user=mara)
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.contrib.auth import get_user_model

from games.eventstore.store import (
    AppendResult,
)
from rules import tournament as rt
from tournaments.core import events as core_events
from tournaments.core.aggregate import tournament_state
from tournaments.core.writes import append_as_director
from tournaments.models import DIRECTOR, SCOREKEEPER


def new_player_id() -> str:
    """A stable internal player id (never a line number)."""
    return f"p{uuid.uuid4().hex[:12]}"


def players_register(
    *,
    tournament_id: uuid.UUID,
    division: str,
    entries: Iterable[tuple[str, int, str] | tuple[str, int, str, int | None]],
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Register players (name, rating, member id[, career games]) in a division,
    in that order."""
    events = [
        rt.PlayerRegistered(
            player_id=new_player_id(),
            division=division,
            name=entry[0],
            rating=entry[1],
            member_id=entry[2],
            career_games=entry[3] if len(entry) > 3 else None,
        )
        for entry in entries
    ]
    if not events:
        raise ValueError("no players to register")

    return append_as_director(
        tournament_id=tournament_id,
        events=events,
        user=user,
        expected_version=expected_version,
    )


def player_withdraw(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    from_round: int,
    policy: str = "forfeit",
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    event = rt.PlayerWithdrawn(
        player_id=player_id,
        from_round=from_round,
        policy=rt.WithdrawalPolicy(policy),
    )
    return append_as_director(
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
    )


def player_reactivate(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    from_round: int,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    event = rt.PlayerReactivated(player_id=player_id, from_round=from_round)
    return append_as_director(
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
    )


def director_add(
    *,
    tournament_id: uuid.UUID,
    new_director: Any,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    event = core_events.DirectorAdded(
        user_id=new_director.pk, username=new_director.get_username()
    )
    return append_as_director(
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
    )


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
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
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
        event: object = core_events.DirectorAdded(user_id=account.pk, username=username)
    elif role == SCOREKEEPER:
        event = core_events.ScorekeeperAdded(user_id=account.pk, username=username)
    else:
        raise TeamError(
            "invalid_role",
            f"The role is {DIRECTOR} or {SCOREKEEPER}, not {role!r}.",
            "role",
        )
    return append_as_director(
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
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
    if state.role_of(account.pk) == SCOREKEEPER:
        event: object = core_events.ScorekeeperRemoved(user_id=account.pk)
    else:
        event = core_events.DirectorRemoved(user_id=account.pk)
    return append_as_director(
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
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
        tournament_id=tournament_id,
        events=events,
        user=user,
        expected_version=expected_version,
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
        tournament_id=tournament_id,
        events=events,
        user=user,
        expected_version=expected_version,
    )
