"""Pages of pairing: a round's pairings (public), the console's pairing page and
a division's pairing rules.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from rules import tournament as rt
from rules.numbers import NumberError, whole_number
from tournaments.core import access
from tournaments.core.pages import (
    board_games,
    directed,
    division_or_404,
    readable,
    submit,
    tournament_rules,
)
from tournaments.models import Tournament
from tournaments.pairing import presenters as pairing_presenters
from tournaments.pairing import selectors as pairing_selectors
from tournaments.pairing import serializers, services
from tournaments.pairing.forms import PairForm, PairingRulesForm, RoundScheduleForm
from tournaments.players import selectors as players_selectors
from tournaments.results import presenters

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


@login_required
@require_http_methods(["GET", "POST"])
def manage_pairing_rules(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Set how the division's system pairings are made from now on."""
    tournament = directed(request, tournament_id)
    division = division_or_404(tournament, division)
    roster = players_selectors.division_roster(tournament, division)
    form = PairingRulesForm.showing(
        tournament_rules(tournament).options_of(division), roster
    )
    status = 200
    if request.method == "POST":
        form = PairingRulesForm(request.POST, roster=roster)
        document = form.document() if form.is_valid() else None
        if document is not None and submit(
            form,
            lambda: services.pairing_rules_set(
                tournament_id=tournament_id,
                division=division,
                options=serializers.options_from(document),
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
def manage_round_schedule(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Set which system pairs each round of the division on which round's results:
    the rounds then pair themselves (tsh's autopair)."""
    tournament = directed(request, tournament_id)
    division = division_or_404(tournament, division)
    rules = tournament_rules(tournament)
    form = RoundScheduleForm.showing(rules.schedule_of(division))
    status = 200
    if request.method == "POST":
        form = RoundScheduleForm(request.POST)
        lines = form.cleaned_data["schedule"] if form.is_valid() else None
        if lines is not None and submit(
            form,
            lambda: services.round_schedule_set(
                tournament_id=tournament_id,
                division=division,
                rounds=lines,
                user=request.user,
            ),
            {"rounds": "schedule"},
        ):
            messages.success(request, f"Division {division}'s round schedule is set.")
            return redirect("manage-pair", tournament_id, division)
        status = 400
    return render(
        request,
        "tournaments/manage/round_schedule.html",
        {
            "tournament": tournament,
            "division": division,
            "form": form,
            "schedule": rules.schedule_of(division),
            "status": services.schedule_status(rules, division),
        },
        status=status,
    )


def pairing_rows(
    tournament: Tournament, division: str, round_: int
) -> list[presenters.BoardLine]:
    """A round's lines as the pages show them, with each board's recorded game."""
    games = board_games(tournament, division, round_)
    return [
        presenters.board_line(
            tournament, board, games.get((round_, board.board)) if board.board else None
        )
        for board in pairing_selectors.round_boards(
            tournament.tournament_id, division, round_
        )
    ]


@require_GET
def round_pairings(
    request: HttpRequest, tournament_id: uuid.UUID, division: str, round_: int
) -> HttpResponse:
    tournament = readable(request, tournament_id)
    division = division_or_404(tournament, division)
    paired = pairing_selectors.paired_rounds(tournament.tournament_id, division)
    if not 1 <= round_ <= max(paired, 1) or round_ > tournament.rounds_of(division):
        raise Http404(f"Round {round_} is not paired.")
    return render(
        request,
        "tournaments/pairings.html",
        {
            "tournament": tournament,
            "division": division,
            "round": round_,
            "rows": pairing_rows(tournament, division, round_),
            "rounds": range(1, paired + 1),
            "is_director": access.tournament_is_director(tournament, request.user),
            "explanation": round_explanation(tournament, division, round_),
        },
    )


def round_explanation(
    tournament: Tournament, division: str, round_: int
) -> pairing_presenters.Explanation | None:
    """Why the round is paired as it is, in words (None: not paired)."""
    found = pairing_selectors.round_explanation(
        tournament.tournament_id, division, round_
    )
    return None if found is None else pairing_presenters.explain(*found)


def _preview(
    tournament: Tournament, division: str, paired: int
) -> pairing_presenters.Explanation | None:
    """What the system would pair the next round as (beside the hand form)."""
    if paired >= tournament.rounds_of(division):
        return None
    reasons, names = pairing_selectors.next_round_preview(
        tournament.tournament_id, division, paired + 1
    )
    if reasons.unavailable:
        return pairing_presenters.Explanation(summary=reasons.unavailable)
    event = rt.RoundPaired(
        division=division,
        round=paired + 1,
        games=(),
        method=rt.PairingMethod(reasons.system),
        reasons=reasons,
    )
    return pairing_presenters.explain(event, names, preview=True)


@login_required
@require_http_methods(["GET", "POST"])
def manage_pair(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Pair a round by system or by hand, and show what it gave."""
    tournament = directed(request, tournament_id)
    division = division_or_404(tournament, division)
    roster = players_selectors.division_roster(tournament, division)
    paired = pairing_selectors.paired_rounds(tournament.tournament_id, division)
    next_round = min(paired + 1, tournament.rounds_of(division))
    form = PairForm(roster=roster, initial={"round": next_round, "method": "swiss"})
    status = 200
    if request.method == "POST":
        form = PairForm(request.POST, roster=roster)
        data = form.cleaned_data if form.is_valid() else None
        if data is not None and submit(
            form,
            lambda: services.round_pair(
                tournament_id=tournament_id,
                division=division,
                round_=data["round"],
                method=data["method"],
                games=data["games"],
                byes=data["byes"],
                based_on_round=data.get("based_on_round"),
                allow_repeats=data["allow_repeats"],
                user=request.user,
            ),
            {"round": "round", "games": "manual", "byes": "manual"},
        ):
            messages.success(request, f"Round {data['round']} is paired.")
            return redirect(
                reverse("manage-pair", args=[tournament_id, division])
                + f"?round={data['round']}"
            )
        status = 400
    try:
        shown_round = whole_number(request.GET.get("round", ""), low=0)
    except NumberError:
        shown_round = paired
    rules = tournament_rules(tournament)
    shown_state = rules.round_state(division, shown_round) if shown_round else None
    return render(
        request,
        "tournaments/manage/pair.html",
        {
            "tournament": tournament,
            "division": division,
            "form": form,
            "roster": sorted(roster.values(), key=lambda p: p.number),
            "paired": paired,
            "shown_round": shown_round,
            "rows": pairing_rows(tournament, division, shown_round)
            if shown_round
            else [],
            # The schedule paired the round shown: the director sees it, and may
            # pair it again while it has no result.
            "scheduled": shown_state is not None and shown_state.pairing.scheduled,
            "shown_has_results": shown_state is not None and shown_state.has_results,
            "schedule": rules.schedule_of(division),
            "schedule_status": services.schedule_status(rules, division),
            "explanation": round_explanation(tournament, division, shown_round)
            if shown_round
            else None,
            "preview": _preview(tournament, division, paired),
        },
        status=status,
    )
