"""Pages of a division's own rules: the prize page (public), and the console's
pairing rules, prize table, and the tile set and lexicon of its games.

The prize page reads ``selectors.prize_board``: the winners as ``rules.prizes``
computes them from the table and the results, never stored.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import division_rules, presenters, selectors
from tournaments.division_forms import PairingRulesForm, PrizeTableForm
from tournaments.forms import DivisionSetupForm
from tournaments.views import _directed, _division, _readable, _rules, _submit

PAIRING_FIELDS = {
    name: name
    for name in (
        "max_repeats",
        "gibson",
        "gibson_spread",
        "prize_places",
        "prize_bands",
        "fixed_boards",
        "init_fontes_rounds",
    )
}


@require_GET
def prizes(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """The division's prizes and who wins them on the results so far."""
    tournament = _readable(request, tournament_id)
    division = _division(tournament, division)
    board = selectors.prize_board(tournament_id, division)
    return render(
        request,
        "tournaments/prizes.html",
        {
            "tournament": tournament,
            "division": division,
            "board": board,
            "lines": presenters.prize_lines(board),
            "is_director": selectors.tournament_is_director(tournament, request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_pairing_rules(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Set how the division's system pairings are made from now on."""
    tournament = _directed(request, tournament_id)
    division = _division(tournament, division)
    roster = selectors.division_roster(tournament, division)
    form = PairingRulesForm.showing(_rules(tournament).options_of(division), roster)
    status = 200
    if request.method == "POST":
        form = PairingRulesForm(request.POST, roster=roster)
        document = form.document() if form.is_valid() else None
        if document is not None and _submit(
            form,
            lambda: division_rules.pairing_rules_set(
                tournament_id=tournament_id,
                division=division,
                options=division_rules.options_from(document),
                user=request.user,
            ),
            PAIRING_FIELDS,
        ):
            messages.success(request, f"Division {division}'s pairing rules are set.")
            return redirect("manage-pairing-rules", tournament_id, division)
        status = 400
    return render(
        request,
        "tournaments/manage/pairing_rules.html",
        {"tournament": tournament, "division": division, "form": form},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_prizes(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Set the division's rating classes and prize table, and see the winners."""
    tournament = _directed(request, tournament_id)
    division = _division(tournament, division)
    form = PrizeTableForm.showing(_rules(tournament).prize_tables.get(division))
    status = 200
    if request.method == "POST":
        form = PrizeTableForm(request.POST)
        read = form.document() if form.is_valid() else None
        if read is not None:
            document, lines = read
            if _submit(
                form,
                lambda: division_rules.prize_table_set(
                    tournament_id=tournament_id,
                    division=division,
                    table=division_rules.table_from(document),
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


@login_required
@require_http_methods(["GET", "POST"])
def manage_division_setup(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Choose the tile set and lexicon the division's games are played with."""
    tournament = _directed(request, tournament_id)
    division = _division(tournament, division)
    form = DivisionSetupForm.showing(_rules(tournament).setup_of(division), tournament)
    status = 200
    if request.method == "POST":
        form = DivisionSetupForm(request.POST, tournament=tournament)
        if form.is_valid() and _submit(
            form,
            lambda: division_rules.game_setup_set(
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
    played = _rules(tournament).game_setup(division)
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


def _line_of(error: object, lines: dict[str, int]) -> str:
    field = getattr(error, "field", None) or ""
    line = lines.get(field)
    if line is None and field == "classes" and lines:
        line = min(n for key, n in lines.items() if key.startswith("classes"))
    return f"Line {line}: " if line else ""
