"""Pages of the invitations to the team: the director creates and revokes them on
the console (``manage-invitations``), the invitee opens the link (``join``) and
signs in or creates an account there (``tournaments.players.invitations``)."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games.eventstore.errors import ConcurrencyError
from rules.errors import RulesError
from tournaments.core.errors import TournamentAccessError
from tournaments.core.pages import STALE, directed
from tournaments.models import DIRECTOR, Tournament
from tournaments.players import invitations

ROLE_WORDS = {DIRECTOR: "co-director", "scorekeeper": "scorekeeper"}
# The account a new invitee is signed in with (a backend Django may name).
_BACKEND = "django.contrib.auth.backends.ModelBackend"


class InvitationForm(forms.Form):
    role = forms.ChoiceField(
        label="Invite a",
        choices=[
            ("scorekeeper", "Scorekeeper (enters and amends results)"),
            (DIRECTOR, "Co-director (everything)"),
        ],
    )
    days = forms.IntegerField(
        label="Valid for (days)",
        min_value=1,
        max_value=invitations.MAX_DAYS,
        initial=invitations.DEFAULT_DAYS,
    )


def join_url(request: HttpRequest, tournament_id: uuid.UUID, token: str) -> str:
    return request.build_absolute_uri(reverse("join", args=[tournament_id, token]))


@login_required
@require_POST
def manage_invitations(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Create an invitation (its link is shown once) or revoke one."""
    directed(request, tournament_id)
    try:
        if "revoke" in request.POST:
            invitations.invitation_revoke(
                tournament_id=tournament_id,
                invitation_id=request.POST["revoke"],
                user=request.user,
            )
            messages.success(request, "The invitation is revoked: its link is dead.")
        else:
            form = InvitationForm(request.POST)
            if not form.is_valid():
                problems = [e for errors in form.errors.values() for e in errors]
                raise RulesError(" ".join(problems))
            made = invitations.invitation_create(
                tournament_id=tournament_id,
                role=form.cleaned_data["role"],
                days=form.cleaned_data["days"],
                user=request.user,
            )
            link = join_url(request, tournament_id, made.token)
            messages.success(
                request,
                f"Invitation to join as {ROLE_WORDS[made.role]}, valid until"
                f" {made.expires_at:%Y-%m-%d %H:%M} UTC. Send this link to one"
                f" person; it is shown only now: {link}",
            )
    except RulesError as error:
        messages.error(request, str(getattr(error, "message", error)))
    except ConcurrencyError:
        messages.error(request, STALE)
    return redirect(reverse("manage", args=[tournament_id]) + "#team-heading")


class NewAccountForm(UserCreationForm):
    """A user name and a password twice, checked by Django's validators."""


@never_cache
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, tournament_id: uuid.UUID, token: str) -> HttpResponse:
    """The invitation's page: join signed in, or create an account and join."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    try:
        if tournament is None:
            raise TournamentAccessError(
                "invalid_invitation", "This invitation link is not valid.", None
            )
        _, _, invitation = invitations.invitation_of(tournament_id, token)
    except TournamentAccessError as error:
        status = 404 if error.code == "invalid_invitation" else 410
        return _no_referrer(
            render(
                request, "accounts/join.html", {"refused": error.message}, status=status
            )
        )
    form = NewAccountForm()
    status = 200
    if request.method == "POST":
        try:
            if request.user.is_authenticated:
                _, role = invitations.invitation_accept(
                    tournament_id=tournament_id, token=token, user=request.user
                )
                return _joined(request, tournament, role)
            form = NewAccountForm(request.POST)
            if form.is_valid():
                account, _, role = invitations.invitation_accept_new_account(
                    tournament_id=tournament_id,
                    token=token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
                login(request, account, backend=_BACKEND)
                return _joined(request, tournament, role)
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                form.add_error(field if field in form.fields else None, problems)
        except RulesError as error:
            form.add_error(None, str(getattr(error, "message", error)))
        except ConcurrencyError:
            form.add_error(None, STALE)
        status = 400
    sign_in = reverse("login") + "?" + urlencode({"next": request.get_full_path()})
    return _no_referrer(
        render(
            request,
            "accounts/join.html",
            {
                "tournament": tournament,
                "role": ROLE_WORDS[invitation.role],
                "expires_at": invitation.expires_at[:16].replace("T", " "),
                "form": form,
                "sign_in": sign_in,
            },
            status=status,
        )
    )


def _joined(request: HttpRequest, tournament: Tournament, role: str) -> HttpResponse:
    messages.success(
        request, f"Welcome to the team of {tournament.name} as {ROLE_WORDS[role]}."
    )
    return redirect("manage", tournament_id=tournament.tournament_id)


def _no_referrer(response: HttpResponse) -> HttpResponse:
    # The page's address holds the invitation's secret: never send it to another
    # site. Not "no-referrer": the browser would then post the page's own form
    # with "Origin: null", which Django's CSRF check refuses.
    response["Referrer-Policy"] = "same-origin"
    return response
