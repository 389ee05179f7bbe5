"""Pages of players' accounts: a user's member id and linked players, and the
director's page that confirms the links members claim
(``tournaments.players.accounts``)."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.eventstore.errors import ConcurrencyError
from rules.errors import RulesError
from tournaments.core.pages import STALE, directed
from tournaments.players import accounts


class MemberIdForm(forms.Form):
    member_id = forms.CharField(
        label="Member id",
        max_length=accounts.MAX_MEMBER_ID,
        required=False,
        help_text="Your membership number with your ratings body (NASPA, WESPA, "
        "ABSP…). Leave it empty to forget it.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def account_profile(request: HttpRequest) -> HttpResponse:
    """The signed-in user's member id, and the tournament players linked to them."""
    form = MemberIdForm(initial={"member_id": accounts.member_id_of(request.user)})
    status = 200
    if request.method == "POST":
        form = MemberIdForm(request.POST)
        if form.is_valid():
            try:
                accounts.member_id_claim(
                    user=request.user, member_id=form.cleaned_data["member_id"]
                )
            except RulesError as error:
                form.add_error("member_id", error.message)
            else:
                messages.success(request, "Your member id is saved.")
                return redirect("account-profile")
        status = 400
    return render(
        request,
        "accounts/profile.html",
        {"form": form, "records": accounts.player_records(request.user)},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_accounts(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Confirm the players' accounts members claim."""
    tournament = directed(request, tournament_id)
    status = 200
    if request.method == "POST":
        try:
            accounts.account_link_confirm(
                tournament_id=tournament_id,
                player_id=request.POST.get("confirm", ""),
                user=request.user,
            )
            messages.success(request, "The player is linked to the account.")
            return redirect("manage-accounts", tournament_id=tournament_id)
        except RulesError as error:
            messages.error(request, error.message)
        except ConcurrencyError:
            messages.error(request, STALE)
        status = 400
    return render(
        request,
        "accounts/manage.html",
        {
            "tournament": tournament,
            "claims": accounts.account_claims(tournament_id),
        },
        status=status,
    )
