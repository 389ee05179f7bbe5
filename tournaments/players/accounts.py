"""Players' accounts: a user's member id and the links it makes to tournaments'
players.

A signed-in user records the membership id that is theirs (``MemberProfile``).
A tournament's player with that member id becomes theirs (``PlayerAccountLinked``
in the tournament's stream) when a director confirms the claim, or at once when
the players are registered or imported with their member ids. A linked player's
games are the user's: they annotate them and find them on their games page.

Usage::

    member_id_claim(user=dev, member_id="12345")
    account_claims(tid)                       # players whose id an account claims
    account_link_confirm(tournament_id=tid, player_id=pid, user=mara)
    player_records(dev)                       # the players dev is, where readable
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from games.context import PlayerRecord
from games.eventstore.store import AppendResult
from rules import tournament as rt
from tournaments.core import access, events
from tournaments.core.writes import append_as_director
from tournaments.models import MemberProfile, Player

MAX_MEMBER_ID = 64


class MemberIdTakenError(rt.TournamentError):
    """Raised when another account already claims a member id."""

    def __init__(self, member_id: str) -> None:
        super().__init__(
            "member_id_taken",
            f"Another account already says member {member_id} is theirs: ask a "
            "tournament director to sort it out.",
            "member_id",
        )


# --- the user's claim ------------------------------------------------------------


def member_id_of(user: Any) -> str:
    """The member id `user` claims ("" when none)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    profile = MemberProfile.objects.filter(user=user).first()
    return profile.member_id if profile else ""


def member_id_claim(*, user: Any, member_id: str) -> None:
    """Record (or with "" forget) the member id `user` says is theirs.

    Raises MemberIdTakenError when another account claims it.
    """
    member_id = member_id.strip()
    if not member_id:
        MemberProfile.objects.filter(user=user).delete()
        return
    try:
        with transaction.atomic():
            MemberProfile.objects.update_or_create(
                user=user, defaults={"member_id": member_id}
            )
    except IntegrityError:
        raise MemberIdTakenError(member_id) from None


# --- links -------------------------------------------------------------------------


def link_events(registered: Iterable[object]) -> list[events.PlayerAccountLinked]:
    """The links that players registered with a claimed member id make (appended
    with the registration: the import confirms them)."""
    players = {
        event.member_id: event.player_id
        for event in registered
        if isinstance(event, rt.PlayerRegistered) and event.member_id
    }
    if not players:
        return []
    claims = MemberProfile.objects.filter(member_id__in=players).values_list(
        "member_id", "user_id"
    )
    return [
        events.PlayerAccountLinked(player_id=players[member_id], user_id=user_id)
        for member_id, user_id in claims
    ]


@dataclass(frozen=True, slots=True)
class AccountClaim:
    """A player whose member id an account claims, not linked to it yet."""

    player: Player
    username: str


def account_claims(tournament_id: uuid.UUID) -> list[AccountClaim]:
    """The tournament's players whose member id an account claims and who are not
    linked to that account, by division and number."""
    players = Player.objects.filter(tournament_id=tournament_id).exclude(member_id="")
    claims = dict(
        MemberProfile.objects.filter(
            member_id__in=players.values("member_id")
        ).values_list("member_id", "user_id")
    )
    usernames = dict(
        MemberProfile.objects.filter(member_id__in=claims).values_list(
            "user_id", "user__username"
        )
    )
    return [
        AccountClaim(player, usernames[claims[player.member_id]])
        for player in players.order_by("division", "number")
        if player.member_id in claims and player.user_id != claims[player.member_id]
    ]


def player_link_account(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    account: Any,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    event = events.PlayerAccountLinked(player_id=player_id, user_id=account.pk)
    return append_as_director(
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
    )


def account_link_confirm(
    *, tournament_id: uuid.UUID, player_id: str, user: Any
) -> AppendResult:
    """Link the player to the account that claims their member id (a director).

    Raises TournamentError (``no_claim``) when no account claims it.
    """
    player = Player.objects.filter(
        tournament_id=tournament_id, player_id=player_id
    ).first()
    profile = (
        MemberProfile.objects.filter(member_id=player.member_id).first()
        if player is not None and player.member_id
        else None
    )
    if profile is None:
        raise rt.TournamentError(
            "no_claim", "No account claims this player's member id.", "player_id"
        )
    return player_link_account(
        tournament_id=tournament_id,
        player_id=player_id,
        account=profile.user,
        user=user,
    )


def player_records(user: Any) -> list[PlayerRecord]:
    """The players linked to `user`'s account in tournaments `user` may read,
    newest tournament first."""
    if not getattr(user, "is_authenticated", False):
        return []
    readable = access.readable_tournaments(user).values("tournament_id")
    players = (
        Player.objects.filter(user=user, tournament_id__in=readable)
        .select_related("tournament")
        .order_by("-tournament__start_date", "tournament__name")
    )
    return [
        PlayerRecord(
            tournament_id=str(player.tournament_id),
            tournament_name=player.tournament.name,
            start_date=player.tournament.start_date.isoformat(),
            player_id=player.player_id,
            name=player.name,
            division=player.division,
        )
        for player in players
    ]
