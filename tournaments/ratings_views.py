"""The rating estimates page of a tournament division (server-rendered).

Thin: it reads the estimates through ``tournaments.ratings`` (the same numbers the
``/api/ratings/players`` list gives) and links the submission files.
"""

from __future__ import annotations

import uuid

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from rules.ratings import RatingsError
from tournaments import ratings, selectors
from tournaments.models import Player, Tournament

SYSTEM_NAMES = {
    "nsa2008": "NASPA (nsa2008)",
    "naspa-csw": "NASPA Collins (naspa-csw)",
    "wespa": "WESPA (tsh's wespa)",
    "absp": "ABSP",
}


@require_GET
def tournament_ratings(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Show each player's rated games and estimates for one division.

    ``?division=`` picks the division (default: the first) and ``?round=`` the
    round the estimates run to (default: the latest); a tournament the user may not
    read, or an unknown division, is a 404.
    """
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not selectors.tournament_can_read(tournament, request.user):
        raise Http404
    division = request.GET.get("division") or (
        tournament.divisions[0] if tournament.divisions else ""
    )
    if division not in tournament.divisions:
        raise Http404(f"No division {division!r}.")
    round_text = request.GET.get("round", "")
    if round_text and not round_text.isdigit():
        raise Http404(f"No round {round_text!r}.")
    after_round = int(round_text) if round_text else None
    players = Player.objects.filter(
        tournament=tournament, division=division
    ).select_related("tournament")
    problem = ""
    try:
        rows = ratings.player_rating_rows(players.order_by("number"), after_round)
    except RatingsError as error:
        rows, problem = [], str(error)
    counted = rows[0].estimate.after_round if rows else 0
    return render(
        request,
        "tournaments/ratings.html",
        {
            "tournament": tournament,
            "division": division,
            "divisions": tournament.divisions,
            "rows": rows,
            "problem": problem,
            "system": SYSTEM_NAMES.get(tournament.rating_system, ""),
            "absp": tournament.rating_system == "absp",
            "after_round": counted,
            "rounds": range(1, tournament.rounds + 1),
        },
    )
