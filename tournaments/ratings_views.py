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


@require_GET
def tournament_ratings(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Show each player's rated games and NASPA/ABSP estimates for one division.

    ``?division=`` picks the division (default: the first); a tournament the user may
    not read, or an unknown division, is a 404.
    """
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not selectors.tournament_can_read(tournament, request.user):
        raise Http404
    division = request.GET.get("division") or (
        tournament.divisions[0] if tournament.divisions else ""
    )
    if division not in tournament.divisions:
        raise Http404(f"No division {division!r}.")
    players = Player.objects.filter(
        tournament=tournament, division=division
    ).select_related("tournament")
    problem = ""
    try:
        rows = ratings.player_rating_rows(players.order_by("number"))
    except RatingsError as error:
        rows, problem = [], str(error)
    return render(
        request,
        "tournaments/ratings.html",
        {
            "tournament": tournament,
            "division": division,
            "divisions": tournament.divisions,
            "rows": rows,
            "problem": problem,
        },
    )
