"""Pages of the tournament itself: the list, a tournament and a division
(public), and the console's home (divisions, settings, the team, publication) and
the division's tile set and lexicon.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from games.eventstore.errors import EventRejectedError, StreamUnderReviewError
from games.eventstore.repair import stream_flag
from games.readcache import cached_page
from games.refusals import show_refusal
from rules import tournament as rt
from tournaments.core import access, headers, writes
from tournaments.core.aggregate import tournament_state
from tournaments.core.pages import (
    PLAYERS_PER_PAGE,
    directed,
    division_or_404,
    page_number,
    page_of,
    submit,
    team_member,
    tournament_rules,
)
from tournaments.models import Player, Tournament
from tournaments.pairing import selectors as pairing_selectors
from tournaments.players import invitation_views, invitations
from tournaments.players import services as players_services
from tournaments.results import selectors as results_selectors
from tournaments.setup import selectors as setup_selectors
from tournaments.setup import services as setup_services
from tournaments.setup.forms import (
    DivisionAddForm,
    DivisionRenameForm,
    DivisionSetupForm,
    PublishForm,
    SettingsForm,
    TeamForm,
    TeamRemoveForm,
    TournamentCreateForm,
)


@login_required
@require_http_methods(["GET", "POST"])
def manage_division_setup(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Choose the tile set and lexicon the division's games are played with."""
    tournament = directed(request, tournament_id)
    division = division_or_404(tournament, division)
    form = DivisionSetupForm.showing(
        tournament_rules(tournament).setup_of(division), tournament
    )
    status = 200
    if request.method == "POST":
        form = DivisionSetupForm(request.POST, tournament=tournament)
        if form.is_valid() and submit(
            form,
            lambda: setup_services.game_setup_set(
                tournament_id=tournament_id,
                division=division,
                setup=form.setup(),
                user=request.user,
            ),
            {"tile_set": "tile_set", "lexicon": "lexicon"},
        ):
            messages.success(
                request, f"Division {division}'s tile set and lexicon are set."
            )
            return redirect("manage-division-setup", tournament_id, division)
        status = 400
    played = tournament_rules(tournament).game_setup(division)
    return render(
        request,
        "tournaments/manage/division_setup.html",
        {
            "tournament": tournament,
            "division": division,
            "form": form,
            "played": played,
        },
        status=status,
    )


# --- public pages ------------------------------------------------------------------


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = access.readable_tournaments(request.user).order_by(
        "-start_date", "name"
    )
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": tournaments,
            "may_create": access.may_create_tournament(request.user),
        },
    )


@require_GET
def tournament_detail(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    header = access.readable_header(
        headers.tournament_header(tournament_id), request.user
    )

    def build() -> HttpResponse:
        # Bounded whatever the log holds (a tournament from before the limits may
        # have thousands of divisions): the first MAX_DIVISIONS, then a count.
        shown = header.divisions[: rt.MAX_DIVISIONS]
        tournament = Tournament.objects.defer("divisions", "division_versions").get(
            pk=tournament_id
        )
        divisions = setup_selectors.division_summaries(tournament_id, shown)
        for division in divisions:
            # A division may play fewer rounds than the tournament (tsh's
            # max_div_rounds): its card says so.
            division["of_rounds"] = tournament.rounds_of(division["name"])
        return render(
            request,
            "tournaments/detail.html",
            {
                "tournament": tournament,
                "divisions": divisions,
                "more_divisions": len(header.divisions) - len(shown),
                "is_director": access.tournament_is_director(header, request.user),
            },
        )

    # Everything the page shows moves with the tournament's version.
    return cached_page(
        request, [tournament_id], header.version, build, streams=[tournament_id]
    )


@require_GET
def division_detail(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    header = access.readable_header(
        headers.tournament_header(tournament_id), request.user
    )
    if division not in header.divisions:
        raise Http404(f"No division {division!r}.")
    number = page_number(request)

    def build() -> HttpResponse:
        players = Player.objects.filter(
            tournament_id=tournament_id, division=division
        ).order_by("number")
        page = page_of(players, PLAYERS_PER_PAGE, number)
        last = pairing_selectors.last_round(tournament_id, division)
        return render(
            request,
            "tournaments/division.html",
            {
                # Unsaved, from the header: the page shows only the name.
                "tournament": Tournament(tournament_id=tournament_id, name=header.name),
                "division": division,
                "players": page.object_list,
                "page": page,
                "rounds": range(1, (last or 0) + 1),
                "standings_after": last,
            },
        )

    # Players and pairings both move the division's version.
    return cached_page(
        request,
        [tournament_id, division, number],
        header.division_version(division),
        build,
        reads=("page",),
        streams=[tournament_id],
    )


# --- director console --------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    access.require_may_create_tournament(request.user)
    today = timezone.localdate()
    form = TournamentCreateForm(
        initial={
            "preset": "classic",
            "rounds": 7,
            "start_date": today,
            "end_date": today,
        }
    )
    status = 200
    if request.method == "POST":
        form = TournamentCreateForm(request.POST)
        if form.is_valid():
            try:
                result = setup_services.tournament_create(
                    user=request.user, **form.service_arguments()
                )
            except EventRejectedError as error:
                fields = dict(TournamentCreateForm.FIELDS)
                if error.index > 0:
                    fields["name"] = "divisions"
                show_refusal(form, error, fields)
            else:
                messages.success(request, "Tournament created: now add the players.")
                return redirect("manage", tournament_id=result.stream.id)
        status = 400
    return render(
        request, "tournaments/manage/create.html", {"form": form}, status=status
    )


def _console_context(tournament: Tournament) -> dict[str, Any]:
    divisions = []
    for division in tournament.divisions:
        paired = pairing_selectors.paired_rounds(tournament.tournament_id, division)
        missing = results_selectors.missing_results(tournament, division)
        divisions.append(
            {
                "name": division,
                "players": Player.objects.filter(
                    tournament=tournament, division=division
                ).count(),
                "paired": paired,
                "of_rounds": tournament.rounds_of(division),
                "rounds": range(1, paired + 1),
                "missing": missing,
            }
        )
    return {
        "tournament": tournament,
        "divisions": divisions,
        "flag": stream_flag(tournament.tournament_id),
    }


# The console's forms: (form class, what it does, the rules' fields it shows).
CONSOLE_FORMS: dict[str, type[forms.Form]] = {
    "division": DivisionAddForm,
    "rename": DivisionRenameForm,
    "settings": SettingsForm,
    "team": TeamForm,
    "team_remove": TeamRemoveForm,
}


def _console_command(
    action: str, form: Any, tournament_id: uuid.UUID, user: Any
) -> str:
    """Run one command of the console; return the message said when it is stored."""
    data = form.cleaned_data
    if action == "division":
        writes.tournament_append(
            tournament_id=tournament_id,
            events=[rt.DivisionAdded(name=data["name"])],
            user=user,
        )
        return f"Division {data['name']} added."
    if action == "rename":
        setup_services.division_rename(
            tournament_id=tournament_id,
            name=data["division"],
            new_name=data["name"],
            user=user,
        )
        return f"Division {data['division']} is now {data['name']}."
    if action == "settings":
        setup_services.settings_change(
            tournament_id=tournament_id, changes=form.changes(), user=user
        )
        return "Settings corrected: every standing is counted again."
    if action == "team":
        players_services.team_add(
            tournament_id=tournament_id,
            username=data["username"],
            role=data["role"],
            user=user,
        )
        return f"{data['username']} joins the team as {data['role']}."
    players_services.team_remove(
        tournament_id=tournament_id, username=data["username"], user=user
    )
    return f"{data['username']} leaves the team."


CONSOLE_RULE_FIELDS = {
    "name": "name",
    "new_name": "name",
    "rounds": "rounds",
    "bye_spread": "bye_spread",
    "forfeit_spread": "forfeit_spread",
    "spread_cap": "spread_cap",
    "spread_caps": "spread_caps",
    "username": "username",
    "role": "role",
    "tile_set": "tile_set",
    "lexicon": "lexicon",
    "rack_delay_minutes": "rack_delay_minutes",
}


@login_required
@require_http_methods(["GET", "POST"])
def manage(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """The director's console: divisions, settings, the team, publication, links to
    every task (a scorekeeper sees the results only)."""
    tournament = team_member(request, tournament_id)
    is_director = access.tournament_is_director(tournament, request.user)
    forms_ = {action: form() for action, form in CONSOLE_FORMS.items()}
    forms_["settings"] = SettingsForm.of(tournament)
    status = 200
    if request.method == "POST":
        if not is_director:
            raise PermissionDenied("Only this tournament's directors may do that.")
        action = request.POST.get("action", "")
        if action == "publish":
            form = PublishForm(request.POST)
            form.is_valid()
            setup_services.tournament_publish(
                tournament_id=tournament_id,
                published=form.cleaned_data.get("published", False),
                user=request.user,
            )
            return redirect("manage", tournament_id=tournament_id)
        if action not in CONSOLE_FORMS:
            return HttpResponse("Unknown action.", status=400)
        form = (
            SettingsForm.of(tournament, request.POST)
            if action == "settings"
            else CONSOLE_FORMS[action](request.POST)
        )
        done: list[str] = []
        if form.is_valid() and submit(
            form,
            lambda: done.append(
                _console_command(action, form, tournament_id, request.user)
            ),
            CONSOLE_RULE_FIELDS,
        ):
            messages.success(request, done[0])
            return redirect("manage", tournament_id=tournament_id)
        forms_[action] = form
        status = 400
        tournament.refresh_from_db()
    context = _console_context(tournament)
    context.update(
        forms=forms_,
        is_director=is_director,
        team=access.tournament_team(tournament) if is_director else [],
        **(_invitations_context(tournament) if is_director else {}),
    )
    return render(request, "tournaments/manage/console.html", context, status=status)


def _invitations_context(tournament: Tournament) -> dict[str, Any]:
    """The team's invitations (tournaments.players.invitations) and the form; none
    listed while the record is under review (its log cannot be replayed: the
    console still opens, to show the team why)."""
    try:
        _, state = tournament_state(tournament.tournament_id)
    except StreamUnderReviewError:
        rows: list[Any] = []
    else:
        rows = invitations.invitation_rows(state, timezone.now())
    return {"invitation_form": invitation_views.InvitationForm(), "invitations": rows}
