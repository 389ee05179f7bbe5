"""Invitations to the team: how a director brings in a co-director or a
scorekeeper who has no account yet (the site has no open sign-up, and the admin
is for staff).

A director creates an invitation for a role; it is a single-use link that
expires (``DEFAULT_DAYS``). The link carries a random secret (256 bits): the
stream keeps only its SHA-256, so neither the log, the audit nor a backup holds
a working link (a fast hash is enough for a secret of that entropy: there is no
dictionary to try). The invitee opens the link and either signs in (the site's
sign-in, with its throttle) or creates an account there (a username and a
password checked by Django's validators): that form exists only behind a valid,
open invitation, so it is not a sign-up. Accepting appends the invitation's use
and the team event that adds the account, in one append; creation and
revocation are events too, each with the audit's who and when.

Usage::

    made = invitation_create(tournament_id=tid, role="scorekeeper", user=mara)
    made.token                         # "<invitation id>.<secret>": shown once
    invitation_accept(tournament_id=tid, token=made.token, user=sam)
    invitation_accept_new_account(tournament_id=tid, token=made.token,
                                  username="sam", password="…")
    invitation_revoke(tournament_id=tid, invitation_id=made.invitation_id, user=mara)
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from games.eventstore.store import AppendResult, append, lock_stream
from tournaments.core import access
from tournaments.core import events as core_events
from tournaments.core.aggregate import (
    Invitation,
    TournamentAggregate,
    tournament_state,
    tournament_stream,
)
from tournaments.core.errors import TournamentAccessError
from tournaments.core.writes import append_as_director
from tournaments.models import DIRECTOR, SCOREKEEPER

DEFAULT_DAYS = 7
# A week covers an event's preparation; a month is the most a link should live.
MAX_DAYS = 30


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class MadeInvitation:
    """A new invitation: its token (the link's secret part) is known only now."""

    result: AppendResult
    invitation_id: str
    role: str
    expires_at: datetime.datetime
    token: str


def _check_role(role: str) -> str:
    if role not in (DIRECTOR, SCOREKEEPER):
        raise TournamentAccessError(
            "invalid_role",
            f"The role is {DIRECTOR} or {SCOREKEEPER}, not {role!r}.",
            "role",
        )
    return role


def invitation_create(
    *,
    tournament_id: uuid.UUID,
    role: str,
    user: Any,
    days: int = DEFAULT_DAYS,
    expected_version: int | None = None,
) -> MadeInvitation:
    """A single-use invitation to join as ``role`` for ``days`` days."""
    _check_role(role)
    if type(days) is not int or not 1 <= days <= MAX_DAYS:
        raise TournamentAccessError(
            "invalid_days", f"An invitation lasts 1 to {MAX_DAYS} days.", "days"
        )
    invitation_id = uuid.uuid4().hex[:16]
    secret = secrets.token_urlsafe(32)
    expires_at = timezone.now() + datetime.timedelta(days=days)
    event = core_events.InvitationCreated(
        invitation_id=invitation_id,
        role=role,
        secret_hash=secret_hash(secret),
        expires_at=expires_at.astimezone(datetime.UTC).isoformat(timespec="seconds"),
    )
    result = append_as_director(
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
    )
    return MadeInvitation(
        result, invitation_id, role, expires_at, f"{invitation_id}.{secret}"
    )


def invitation_revoke(
    *,
    tournament_id: uuid.UUID,
    invitation_id: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Withdraw an invitation not yet used: its link stops working."""
    return append_as_director(
        tournament_id=tournament_id,
        events=[core_events.InvitationRevoked(invitation_id=invitation_id)],
        user=user,
        expected_version=expected_version,
    )


def _split(token: str) -> tuple[str, str]:
    invitation_id, _, secret = (token or "").partition(".")
    return invitation_id, secret


def invitation_of(
    tournament_id: uuid.UUID, token: str
) -> tuple[int, TournamentAggregate, Invitation]:
    """The open invitation a link's token names, with the aggregate it was read
    from; TournamentAccessError saying why not (not valid, used, revoked,
    expired)."""
    version, state = tournament_state(tournament_id)
    invitation_id, secret = _split(token)
    found = access.open_invitation(
        state, invitation_id, secret_hash(secret), timezone.now()
    )
    return version, state, found


def _team_event(invitation: Invitation, account: Any) -> object:
    if invitation.role == DIRECTOR:
        return core_events.DirectorAdded(
            user_id=account.pk, username=account.get_username()
        )
    return core_events.ScorekeeperAdded(
        user_id=account.pk, username=account.get_username()
    )


def invitation_accept(
    *, tournament_id: uuid.UUID, token: str, user: Any
) -> tuple[AppendResult, str]:
    """The signed-in ``user`` joins the team with the invitation's role; return
    what was stored and the role."""
    stream = tournament_stream(tournament_id)
    with transaction.atomic():
        # Two people opening the same link at once: the second waits, then finds
        # it used.
        lock_stream(stream)
        version, state, invitation = invitation_of(tournament_id, token)
        access.require_may_join(state, user, invitation.role)
        events = [
            core_events.InvitationAccepted(
                invitation_id=invitation.invitation_id,
                user_id=user.pk,
                username=user.get_username(),
            ),
            _team_event(invitation, user),
        ]
        result = append(stream, events, expected_version=version, recorded_by=user)
    return result, invitation.role


def invitation_accept_new_account(
    *, tournament_id: uuid.UUID, token: str, username: str, password: str
) -> tuple[Any, AppendResult, str]:
    """Create an account and join the team with it, all or nothing: an account is
    made only through an open invitation (the site has no sign-up). Raises
    ValidationError (``username`` or ``password``) for a name taken or a
    password the validators refuse, TournamentAccessError for the invitation."""
    model = get_user_model()
    with transaction.atomic():
        # The invitation first: a used or expired link creates no account.
        invitation_of(tournament_id, token)
        if model.objects.filter(username__iexact=username).exists():
            raise ValidationError(
                {"username": "That user name is taken: sign in instead if it is yours."}
            )
        account = model(username=username)
        try:
            validate_password(password, account)
        except ValidationError as error:
            raise ValidationError({"password": error.messages}) from None
        account.set_password(password)
        account.full_clean(exclude=["password"])
        account.save()
        result, role = invitation_accept(
            tournament_id=tournament_id, token=token, user=account
        )
    return account, result, role


def invitation_rows(
    state: TournamentAggregate, now: datetime.datetime
) -> list[dict[str, Any]]:
    """The invitations as the team page and the API list them, newest first."""
    rows = []
    for invitation in reversed(list(state.invitations.values())):
        expires = datetime.datetime.fromisoformat(invitation.expires_at)
        if invitation.used_by is not None:
            status = "used"
        elif invitation.revoked:
            status = "revoked"
        elif now >= expires:
            status = "expired"
        else:
            status = "open"
        rows.append(
            {
                "id": invitation.invitation_id,
                "role": invitation.role,
                "expires_at": expires,
                "status": status,
                "used_by": invitation.used_by,
            }
        )
    return rows
