"""Who may do what with a tournament: the access rules, written once.

Read: a published tournament is public, an unpublished one only for its team.
Write: directors do everything, scorekeepers enter and amend results. Views, the API
and the services all ask here (``tournament_role``, ``may_enter_results``,
``is_director``); nothing else decides a right. A request that loads the aggregate
(the console's slip) asks ``require_team`` on it, the same ``may_enter_results``
the write path asks on the same aggregate.

Usage::

    if tournament_can_read(tournament, request.user): ...
    tournament_role(tournament, user)      # "director", "scorekeeper" or None
    require_may_create_tournament(user)    # raises PermissionDeniedError
"""

from __future__ import annotations

import datetime
import hmac
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from tournaments.core.aggregate import (
    Invitation,
    TournamentAggregate,
)
from tournaments.core.errors import (
    PermissionDeniedError,
    TournamentAccessError,
    TournamentNotFoundError,
)
from tournaments.models import DIRECTOR, SCOREKEEPER, Director, Tournament

# What each role may do: directors everything, scorekeepers enter and amend results.
RESULTS_ROLES = frozenset({DIRECTOR, SCOREKEEPER})


def _signed_in(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def role_in(state: TournamentAggregate, user: Any) -> str | None:
    """The user's role as the aggregate has it (a write decides on this)."""
    return state.role_of(user.pk) if _signed_in(user) else None


def is_director(state: TournamentAggregate, user: Any) -> bool:
    return role_in(state, user) == DIRECTOR


def may_enter_results(state: TournamentAggregate, user: Any) -> bool:
    """Directors and scorekeepers enter and amend results."""
    return role_in(state, user) in RESULTS_ROLES


def can_read(state: TournamentAggregate, user: Any) -> bool:
    """``tournament_can_read`` decided on the aggregate: published, or its team."""
    return state.published or role_in(state, user) is not None


def require_team(state: TournamentAggregate, user: Any) -> None:
    """For a page of the team, decided on the aggregate: Http404 unless the user may
    read the tournament (no existence leak), Django's PermissionDenied (403) unless
    they may enter results (a director or a scorekeeper)."""
    if not can_read(state, user):
        raise Http404("No such tournament.")
    if not may_enter_results(state, user):
        raise PermissionDenied("Only this tournament's team may do that.")


def refuse_unless(
    allowed: Callable[[TournamentAggregate, Any], bool],
    version: int,
    state: TournamentAggregate,
    user: Any,
    tournament_id: uuid.UUID,
) -> None:
    """TournamentNotFoundError (404) or PermissionDeniedError (403) unless `user`
    is `allowed` to write to the tournament."""
    if version == 0:
        raise TournamentNotFoundError(f"No tournament {tournament_id}.")
    if not allowed(state, user):
        raise PermissionDeniedError(
            "Only this tournament's directors may do that"
            + (" (or its scorekeepers)." if allowed is may_enter_results else ".")
        )


def may_create_tournament(user: Any) -> bool:
    """Whether `user` may create a tournament: a staff account, or any signed-in
    user where the site allows it (``settings.TOURNAMENT_CREATORS``)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or settings.TOURNAMENT_CREATORS == "users"


def require_may_create_tournament(user: Any) -> None:
    """Raise PermissionDeniedError (403) unless `user` may create a tournament:
    every way of creating one (the form, the API, a tsh event's import) asks."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise PermissionDeniedError("Sign in to create a tournament.")
    if not may_create_tournament(user):
        raise PermissionDeniedError(
            "On this site only staff accounts may create tournaments."
        )


# --- Who may join the team ------------------------------------------------------------


def open_invitation(
    state: TournamentAggregate,
    invitation_id: str,
    secret_hash: str,
    now: datetime.datetime,
) -> Invitation:
    """The invitation a link names, if it may still bring someone into the team:
    the right secret (compared in constant time), not used, not revoked, not
    expired. Raises TournamentAccessError saying which, else."""
    found = state.invitations.get(invitation_id)
    if found is None or not hmac.compare_digest(found.secret_hash, secret_hash):
        raise TournamentAccessError(
            "invalid_invitation",
            "This invitation link is not valid: check that it was copied whole.",
            "invitation",
        )
    if found.used_by is not None:
        raise TournamentAccessError(
            "invitation_used",
            "This invitation has already been used: an invitation brings one"
            " person in. Ask the director for a new one.",
            "invitation",
        )
    if found.revoked:
        raise TournamentAccessError(
            "invitation_revoked",
            "The director revoked this invitation. Ask them for a new one.",
            "invitation",
        )
    if now >= datetime.datetime.fromisoformat(found.expires_at):
        raise TournamentAccessError(
            "invitation_expired",
            f"This invitation expired on {found.expires_at[:16]} UTC. Ask the"
            " director for a new one.",
            "invitation",
        )
    return found


def require_may_join(state: TournamentAggregate, user: Any, role: str) -> None:
    """An invitation brings in someone who does not already have what it gives (a
    director stays one; a scorekeeper may be invited to co-direct)."""
    current = role_in(state, user)
    if current in (DIRECTOR, role):
        raise TournamentAccessError(
            "already_in_team",
            f"You are already this tournament's {current}: the invitation is left"
            " for someone else.",
            "invitation",
        )


# --- Who may read ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentHeader:
    """What a read needs before its body: who may see it and its cache key."""

    pk: uuid.UUID
    version: int
    published: bool
    rounds: int
    divisions: list[str]
    division_versions: dict[str, int]
    name: str = ""
    # Set by scorecard_header: the player's row, when the player exists.
    player: dict[str, Any] | None = None
    ranking: str = "extended"  # the rule the standings are ranked by
    self_entry: bool = False  # players may report their own games
    updated_at: datetime.datetime | None = None  # when the last event was projected

    def division_version(self, division: str) -> int:
        # A tournament projected before division versions existed: the stream's.
        return self.division_versions.get(division, self.version)


def readable_tournaments(user: Any = None) -> QuerySet[Tournament]:
    """Published tournaments, and those the user directs."""
    visible = Q(published=True)
    if user is not None and user.is_authenticated:
        visible |= Q(directors__user=user)
    return Tournament.objects.filter(visible).distinct()


def tournament_role(tournament: Tournament | TournamentHeader, user: Any) -> str | None:
    """The user's role in the tournament's team (DIRECTOR, SCOREKEEPER), or None,
    from the team's projection (a read decides on this without the aggregate)."""
    if not _signed_in(user):
        return None
    return (
        Director.objects.filter(tournament_id=tournament.pk, user=user)
        .values_list("role", flat=True)
        .first()
    )


def tournament_is_director(
    tournament: Tournament | TournamentHeader, user: Any
) -> bool:
    return tournament_role(tournament, user) == DIRECTOR


def tournament_can_read(tournament: Tournament | TournamentHeader, user: Any) -> bool:
    """Published tournaments are public; the others are their team's only."""
    return tournament.published or tournament_role(tournament, user) is not None


def tournament_team(tournament: Tournament) -> list[tuple[str, str]]:
    """The team as (username, role), directors first."""
    rows = Director.objects.filter(tournament=tournament).values_list(
        "user__username", "role"
    )
    return sorted(rows, key=lambda row: (row[1] != DIRECTOR, row[0]))


def readable_header(header: TournamentHeader | None, user: Any) -> TournamentHeader:
    """The header if the user may read the tournament; 404 otherwise (no existence
    leak), for the reads that start from a header instead of the model."""
    if header is None or not tournament_can_read(header, user):
        raise Http404  # no message: the API's 404 body stays DRF's own
    return header
