"""The room's pages: the projector display, the printouts, the reports and the
players' own score entry.

Views are thin, as everywhere: they check who may read, read through
``tournaments.selectors``, ``tournaments.printouts`` and ``tournaments.reports``,
write through ``tournaments.selfentry``, and render.
"""

from __future__ import annotations

import uuid

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.readcache import cached_page
from tournaments import presenters, selectors

# What a display shows: the standings, the current round's pairings, or both in
# turn (every DISPLAY_SECONDS, a page of a long table at a time).
DISPLAY_SHOWS = ("cycle", "standings", "pairings")
DISPLAY_SECONDS = 12


def _header(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> selectors.TournamentHeader:
    header = selectors.readable_header(
        selectors.tournament_header(tournament_id), request.user
    )
    if division not in header.divisions:
        raise Http404(f"No division {division!r}.")
    return header


@require_GET
def display(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """A division on a projector: large type, no controls, kept current by the
    tournament's live feed (site's live.js fetches this page again on each of
    the tournament's events and swaps its content)."""
    header = _header(request, tournament_id, division)
    show = request.GET.get("show", "cycle")
    if show not in DISPLAY_SHOWS:
        return HttpResponseBadRequest(
            "show: one of cycle, standings, pairings.", content_type="text/plain"
        )
    version = header.division_version(division)

    def build() -> HttpResponse:
        last, rows = selectors.standings(tournament_id, division, None)
        boards = selectors.round_boards(tournament_id, division, last) if last else []
        return render(
            request,
            "tournaments/room/display.html",
            {
                "header": header,
                "division": division,
                "show": show,
                "seconds": DISPLAY_SECONDS,
                "round": last,
                "standings": rows if show != "pairings" else None,
                "pairings": (
                    [presenters.board_line(None, board, None) for board in boards]
                    if show != "standings"
                    else None
                ),
                "version": version,
                "feed_url": reverse("api-tournament-feed", args=[tournament_id]),
            },
        )

    return cached_page(
        request, [tournament_id, division, show], version, build, reads=("show",)
    )
