"""Pages of prizes: a division's prize page (public), the console's prize table."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.core import access
from tournaments.core.pages import (
    directed,
    division_or_404,
    readable,
    submit,
    tournament_rules,
)
from tournaments.prizes import presenters, selectors, serializers, services
from tournaments.prizes.forms import PrizeTableForm


@require_GET
def prizes(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """The division's prizes and who wins them on the results so far."""
    tournament = readable(request, tournament_id)
    division = division_or_404(tournament, division)
    board = selectors.prize_board(tournament_id, division)
    return render(
        request,
        "tournaments/prizes.html",
        {
            "tournament": tournament,
            "division": division,
            "board": board,
            "lines": presenters.prize_lines(board),
            "is_director": access.tournament_is_director(tournament, request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_prizes(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Set the division's rating classes and prize table, and see the winners."""
    tournament = directed(request, tournament_id)
    division = division_or_404(tournament, division)
    form = PrizeTableForm.showing(
        tournament_rules(tournament).prize_tables.get(division)
    )
    status = 200
    if request.method == "POST":
        form = PrizeTableForm(request.POST)
        read = form.document() if form.is_valid() else None
        if read is not None:
            document, lines = read
            if submit(
                form,
                lambda: services.prize_table_set(
                    tournament_id=tournament_id,
                    division=division,
                    table=serializers.table_from(document),
                    user=request.user,
                ),
                {**dict.fromkeys(lines, "text"), "classes": "text", "prizes": "text"},
                lambda error: _line_of(error, lines),
            ):
                messages.success(request, f"Division {division}'s prizes are set.")
                return redirect("manage-prizes", tournament_id, division)
        status = 400
    return render(
        request,
        "tournaments/manage/prizes.html",
        {"tournament": tournament, "division": division, "form": form},
        status=status,
    )


def _line_of(error: object, lines: dict[str, int]) -> str:
    field = getattr(error, "field", None) or ""
    line = lines.get(field)
    if line is None and field == "classes" and lines:
        line = min(n for key, n in lines.items() if key.startswith("classes"))
    return f"Line {line}: " if line else ""
