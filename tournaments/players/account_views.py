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


class AccountRefusalForm(forms.Form):
    """A director refuses an account's claim to be a player, or undoes a link."""

    reject = forms.CharField(max_length=64)  # the player id
    account = forms.IntegerField(min_value=1)  # the account's user id


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
    """Confirm or refuse the players' accounts members claim; undo a link."""
    tournament = directed(request, tournament_id)
    status = 200
    if request.method == "POST":
        try:
            messages.success(request, _account_decision(request, tournament_id))
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
            "links": accounts.account_links(tournament_id),
        },
        status=status,
    )


def _account_decision(request: HttpRequest, tournament_id: uuid.UUID) -> str:
    """Append the director's decision the form posted; the message that says it."""
    if "confirm" in request.POST:
        accounts.account_link_confirm(
            tournament_id=tournament_id,
            player_id=request.POST["confirm"],
            user=request.user,
        )
        return "The player is linked to the account."
    form = AccountRefusalForm(request.POST)
    if not form.is_valid():
        raise RulesError("Choose the player and the account to refuse.")
    accounts.account_link_reject(
        tournament_id=tournament_id,
        player_id=form.cleaned_data["reject"],
        account_id=form.cleaned_data["account"],
        user=request.user,
    )
    return "The account is refused: it is not this player."
