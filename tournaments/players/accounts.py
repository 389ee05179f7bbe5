"""Players' accounts: a user's member id and the links it makes to tournaments'
players.

A signed-in user records the membership id that is theirs (``MemberProfile``).
That is a claim, and a claim proves nothing: member ids are public (the players
API, every .t file). A tournament's player with that member id becomes the
user's (``PlayerAccountLinked`` in the tournament's stream) only when one of its
directors confirms it on the Players' accounts page, or refuses it
(``PlayerAccountRejected``); both are events, so the audit says who and when.
Registering or importing a player with a claimed member id links nothing: the
claim waits for the director. A waiting claim gives no right: no self-entry
without the round's code, no "My games" notes. A linked player's games are the
user's: they report and annotate them and find them on their games page.

"The player proves it" means here nothing beyond the director's confirmation.
The one secret a player holds is the round's code on their scorecard, and the
scorecard lies on the table where the opponent reads it: it proves one report,
which the opponent must agree with anyway, not a person. A code the director
would hand a player to prove their account costs the director as much as the
Confirm button beside the player's name, and proves less than seeing them.

Usage::

    member_id_claim(user=dev, member_id="12345")
    account_claims(tid)                       # claims waiting for a director
    account_link_confirm(tournament_id=tid, player_id=pid, user=mara)
    account_link_reject(tournament_id=tid, player_id=pid, account_id=dev.pk,
                        user=mara)
    claims_player(state, pid, dev)            # True while dev's claim waits
    player_records(dev)                       # the players dev is, where readable
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from games.context import PlayerRecord
from games.eventstore.store import AppendResult
from rules import tournament as rt
from tournaments.core import access, events
from tournaments.core.aggregate import TournamentAggregate, tournament_state
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


@dataclass(frozen=True, slots=True)
class AccountClaim:
    """A player and an account: a claim waiting for a director, or a link."""

    player: Player
    username: str
    user_id: int


def account_claims(tournament_id: uuid.UUID) -> list[AccountClaim]:
    """The claims waiting for a director: the tournament's players whose member
    id an account claims, neither linked to that account nor refused it, by
    division and number."""
    _, state = tournament_state(tournament_id)
    players = Player.objects.filter(tournament_id=tournament_id).exclude(member_id="")
    claims = {
        member_id: (user_id, username)
        for member_id, user_id, username in MemberProfile.objects.filter(
            member_id__in=players.values("member_id")
        ).values_list("member_id", "user_id", "user__username")
    }
    waiting = []
    for player in players.order_by("division", "number"):
        user_id, username = claims.get(player.member_id, (None, ""))
        if user_id is None or state.accounts.get(player.player_id) == user_id:
            continue
        if user_id in state.rejected.get(player.player_id, frozenset()):
            continue
        waiting.append(AccountClaim(player, username, user_id))
    return waiting


def account_links(tournament_id: uuid.UUID) -> list[AccountClaim]:
    """The tournament's players linked to an account, by division and number."""
    players = (
        Player.objects.filter(tournament_id=tournament_id, user__isnull=False)
        .select_related("user")
        .order_by("division", "number")
    )
    return [
        AccountClaim(player, player.user.get_username(), player.user.pk)
        for player in players
    ]


def claims_player(state: TournamentAggregate, player_id: str, user: Any) -> bool:
    """Whether `user` claims the player's member id without a director's
    confirmation (their claim waits, or was refused)."""
    if state.rules is None or player_id not in state.rules.players:
        return False
    member_id = state.rules.players[player_id].member_id
    return bool(member_id) and member_id_of(user) == member_id


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


def _claimant(tournament_id: uuid.UUID, player_id: str) -> Any:
    """The account that claims the player's member id; TournamentError
    (``no_claim``) when none does."""
    player = Player.objects.filter(
        tournament_id=tournament_id, player_id=player_id
    ).first()
    profile = (
        MemberProfile.objects.filter(member_id=player.member_id)
        .select_related("user")
        .first()
        if player is not None and player.member_id
        else None
    )
    if profile is None:
        raise rt.TournamentError(
            "no_claim", "No account claims this player's member id.", "player_id"
        )
    return profile.user


def account_link_confirm(
    *, tournament_id: uuid.UUID, player_id: str, user: Any
) -> AppendResult:
    """Link the player to the account that claims their member id (a director).

    Raises TournamentError (``no_claim``) when no account claims it.
    """
    return player_link_account(
        tournament_id=tournament_id,
        player_id=player_id,
        account=_claimant(tournament_id, player_id),
        user=user,
    )


def account_link_reject(
    *, tournament_id: uuid.UUID, player_id: str, account_id: int, user: Any
) -> AppendResult:
    """Refuse `account_id`'s claim to be the player, or undo its link (a
    director): the claim no longer waits, the link is gone, and that account's
    pending self-entry reports for the player with it.

    Raises TournamentError (``no_claim``) when that account neither is linked to
    the player nor claims their member id.
    """
    player = Player.objects.filter(
        tournament_id=tournament_id, player_id=player_id
    ).first()
    claimed = (
        player is not None
        and bool(player.member_id)
        and MemberProfile.objects.filter(
            member_id=player.member_id, user_id=account_id
        ).exists()
    )
    if player is None or (player.user_id != account_id and not claimed):
        raise rt.TournamentError(
            "no_claim",
            "That account neither claims this player nor is linked to them.",
            "player_id",
        )
    return append_as_director(
        tournament_id=tournament_id,
        events=[events.PlayerAccountRejected(player_id=player_id, user_id=account_id)],
        user=user,
        expected_version=None,
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
