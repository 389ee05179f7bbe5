"""Services of the registration day: check-in, withdrawing the players who did not
come before round 1, a move between divisions before a player's first pairing,
and a division's own number of rounds.

Each is one validated append (``core.writes``): the rules refuse what is illegal
(``rules.tournament.registration``), the event says who and when in the audit.

Usage::

    check_in(tournament_id=tid, player_id=pid, user=mara)
    no_shows_withdraw(tournament_id=tid, division="A", user=mara)
    player_move(tournament_id=tid, player_id=pid, division="B", user=mara)
    division_rounds_set(tournament_id=tid, division="B", rounds=5, user=mara)
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from games.eventstore.store import AppendResult
from rules import tournament as rt
from tournaments.core.aggregate import tournament_state
from tournaments.core.writes import append_as_director


class RegistrationError(rt.TournamentError):
    """Raised when a registration-day command has nothing to do."""


def check_in(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    user: Any,
    present: bool = True,
    expected_version: int | None = None,
) -> AppendResult:
    """Mark a player present before round 1 (``present=False``: take it back)."""
    return append_as_director(
        tournament_id=tournament_id,
        events=[rt.PlayerCheckedIn(player_id=player_id, present=present)],
        user=user,
        expected_version=expected_version,
    )


@dataclass(frozen=True, slots=True)
class NoShows:
    """What the removal of the no-shows stored, and whom it withdrew."""

    result: AppendResult
    names: tuple[str, ...]


def no_shows(rules: rt.TournamentState, division: str) -> list[rt.Player]:
    """The players of the division who have not checked in and are not withdrawn."""
    return [
        rules.players[player_id]
        for player_id in rules.division_players.get(division, ())
        if not rules.players[player_id].checked_in
        and not rules.players[player_id].withdrawn
    ]


def no_shows_withdraw(
    *,
    tournament_id: uuid.UUID,
    division: str,
    user: Any,
    expected_version: int | None = None,
) -> NoShows:
    """Withdraw, from round 1, every player of the division who has not checked in.

    A withdrawal, not a deletion, as tsh does with a player who does not come: the
    player keeps their line and number (tsh marks them inactive, ``off``), the log
    keeps their registration, and a director who sees them arrive re-activates
    them. The policy is ``not_paired``: a no-show is left out of the pairings, not
    given a forfeit loss in every round. Refused once round 1 is paired, and when
    nobody has checked in (that would withdraw the whole division: more likely
    the check-in has not started).
    """
    version, state = tournament_state(tournament_id)
    rules = state.rules
    assert rules is not None
    if division not in rules.division_players:
        raise RegistrationError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    if rules.round_state(division, 1) is not None:
        raise RegistrationError(
            "round_already_paired",
            f"Round 1 of division {division} is already paired: withdraw a player"
            " who did not come from the next round instead.",
            "division",
        )
    if not any(rules.players[p].checked_in for p in rules.division_players[division]):
        raise RegistrationError(
            "nobody_checked_in",
            f"Nobody in division {division} has checked in yet: check the players"
            " in first.",
            "division",
        )
    absent = no_shows(rules, division)
    if not absent:
        raise RegistrationError(
            "nothing_to_change",
            f"Every player of division {division} has checked in.",
            "division",
        )
    events = [
        rt.PlayerWithdrawn(
            player_id=player.player_id,
            from_round=1,
            policy=rt.WithdrawalPolicy.NOT_PAIRED,
        )
        for player in absent
    ]
    result = append_as_director(
        tournament_id=tournament_id,
        events=events,
        user=user,
        expected_version=expected_version,
        loaded=(version, state),
    )
    return NoShows(result, tuple(player.name for player in absent))


def player_move(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    division: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Move a player to another division before their first pairing."""
    return append_as_director(
        tournament_id=tournament_id,
        events=[rt.PlayerMoved(player_id=player_id, division=division)],
        user=user,
        expected_version=expected_version,
    )


def division_rounds_set(
    *,
    tournament_id: uuid.UUID,
    division: str,
    rounds: int | None,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """A division plays ``rounds`` rounds (None: the tournament's)."""
    return append_as_director(
        tournament_id=tournament_id,
        events=[rt.DivisionRoundsSet(division=division, rounds=rounds)],
        user=user,
        expected_version=expected_version,
    )
