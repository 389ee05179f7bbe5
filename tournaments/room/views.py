"""The room's pages: the projector display, the printouts, the reports and the
players' own score entry.

Views are thin, as everywhere: they check who may read, read through
``results.selectors``, ``room.printouts`` and ``room.reports``,
write through ``room.selfentry``, and render.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from config.auth import client_address
from config.site_url import public_url
from games.eventstore.errors import ConcurrencyError, EventRejectedError
from games.readcache import cached_page
from games.refusals import show_refusal
from rules.errors import RulesError
from tournaments.core import access, aggregate, headers, pages
from tournaments.issued.registry import issued_response
from tournaments.models import Player, Tournament
from tournaments.pairing import selectors as pairing_selectors
from tournaments.prizes import presenters as prizes_presenters
from tournaments.prizes import selectors as prizes_selectors
from tournaments.results import presenters as results_presenters
from tournaments.results import selectors as results_selectors
from tournaments.room import printouts, reports, selfentry
from tournaments.room.forms import ScoreReportForm, SelfEntrySwitchForm

# What a display shows: the standings, the current round's pairings, or both in
# turn (every DISPLAY_SECONDS, a page of a long table at a time).
DISPLAY_SHOWS = ("cycle", "standings", "pairings")


DISPLAY_SECONDS = 12


def _header(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> access.TournamentHeader:
    header = access.readable_header(
        headers.tournament_header(tournament_id), request.user
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
        last, rows = results_selectors.standings(tournament_id, division, None)
        boards = (
            pairing_selectors.round_boards(tournament_id, division, last)
            if last
            else []
        )
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
                    [
                        results_presenters.board_line(None, board, None)
                        for board in boards
                    ]
                    if show != "standings"
                    else None
                ),
                "version": version,
                "feed_url": reverse("api-tournament-feed", args=[tournament_id]),
            },
        )

    return cached_page(
        request,
        [tournament_id, division, show],
        version,
        build,
        reads=("show",),
        streams=[tournament_id],
    )


# --- printouts ---------------------------------------------------------------------


# The pages' access rules, written once (tournaments.core.pages): readers of the
# tournament, its team, and a division that exists.
_readable_tournament = pages.readable


_team_tournament = pages.team_member


_division_of = pages.division_or_404


def _paper(request: HttpRequest) -> str | None:
    paper = request.GET.get("paper", "a4")
    return paper if paper in printouts.PAPERS else None


BAD_PAPER = "paper: a4 or letter."


def _pdf(
    request: HttpRequest, tournament: Tournament, body: bytes, name: str, kind: str
) -> HttpResponse:
    """A printout as issued: recorded and signed (tournaments.issued)."""
    response = HttpResponse(body, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return issued_response(
        request,
        response,
        tournament_id=tournament.tournament_id,
        position=tournament.version,
        kind=kind,
        name=name,
    )


def _bad(message: str) -> HttpResponse:
    return HttpResponseBadRequest(message, content_type="text/plain")


def _paired_round(tournament: Tournament, division: str, round_: int) -> int:
    if (
        not 1
        <= round_
        <= pairing_selectors.paired_rounds(tournament.tournament_id, division)
    ):
        raise Http404(f"Round {round_} is not paired.")
    return round_


@require_GET
def pairings_pdf(
    request: HttpRequest, tournament_id: uuid.UUID, division: str, round_: int
) -> HttpResponse:
    tournament = _readable_tournament(request, tournament_id)
    division = _division_of(tournament, division)
    round_ = _paired_round(tournament, division, round_)
    if (paper := _paper(request)) is None:
        return _bad(BAD_PAPER)
    body = printouts.pairings_pdf(tournament, division, round_, paper=paper)
    return _pdf(
        request,
        tournament,
        body,
        f"pairings-{division}-round-{round_}.pdf",
        "pairings.pdf",
    )


def _division_pdf(
    request: HttpRequest,
    tournament_id: uuid.UUID,
    division: str,
    make: Any,
    name: str,
) -> HttpResponse:
    """A division's printout, ``make(tournament, division, paper=…)``, as a PDF."""
    tournament = _readable_tournament(request, tournament_id)
    division = _division_of(tournament, division)
    if (paper := _paper(request)) is None:
        return _bad(BAD_PAPER)
    return _pdf(
        request,
        tournament,
        make(tournament, division, paper=paper),
        f"{name}-{division}.pdf",
        f"{name}.pdf",
    )


@require_GET
def standings_pdf(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    return _division_pdf(
        request, tournament_id, division, printouts.standings_pdf, "standings"
    )


@require_GET
def wall_chart_pdf(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    return _division_pdf(
        request, tournament_id, division, printouts.wall_chart_pdf, "wall-chart"
    )


@require_GET
def prize_list_pdf(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    tournament = _readable_tournament(request, tournament_id)
    if (paper := _paper(request)) is None:
        return _bad(BAD_PAPER)
    return _pdf(
        request,
        tournament,
        printouts.prize_list_pdf(tournament, paper=paper),
        "prize-list.pdf",
        "prize-list.pdf",
    )


@require_GET
def scorecards_pdf(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """The division's pre-filled scorecards (``?player=`` one player's), for the
    tournament's team: with self-entry on, they carry each round's code."""
    tournament = _team_tournament(request, tournament_id)
    division = _division_of(tournament, division)
    if (paper := _paper(request)) is None:
        return _bad(BAD_PAPER)
    wanted = request.GET.getlist("player") or None
    if (
        wanted
        and not Player.objects.filter(
            tournament=tournament, division=division, player_id__in=wanted
        ).exists()
    ):
        raise Http404("No such player in this division.")

    def link(player_id: str) -> str:
        return public_url(
            request, reverse("scorecard", args=[tournament_id, player_id])
        )

    code = None
    if selfentry.enabled(tournament_id):
        code = functools.partial(selfentry.round_code, tournament_id)
    body = printouts.scorecards_pdf(
        tournament, division, link=link, code=code, player_ids=wanted, paper=paper
    )
    name = f"scorecards-{division}.pdf"
    return _pdf(request, tournament, body, name, "scorecards.pdf")


@require_GET
def find_your_table(
    request: HttpRequest, tournament_id: uuid.UUID, division: str, round_: int
) -> HttpResponse:
    """Every player of a round by name, with their table: the list by the door."""
    tournament = _readable_tournament(request, tournament_id)
    division = _division_of(tournament, division)
    round_ = _paired_round(tournament, division, round_)
    boards = pairing_selectors.round_boards(tournament_id, division, round_)
    return render(
        request,
        "tournaments/room/tables.html",
        {
            "tournament": tournament,
            "division": division,
            "round": round_,
            "lines": printouts.find_your_table(boards),
        },
    )


@require_GET
def wall_chart(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    tournament = _readable_tournament(request, tournament_id)
    division = _division_of(tournament, division)
    last, lines = printouts.wall_chart(tournament_id, division)
    rounds = range(1, last + 1)
    return render(
        request,
        "tournaments/room/wallchart.html",
        {
            "tournament": tournament,
            "division": division,
            "rounds": rounds,
            "lines": [
                {"line": line, "cells": [line.cells.get(r) for r in rounds]}
                for line in lines
            ],
        },
    )


@require_GET
def prize_list(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    tournament = _readable_tournament(request, tournament_id)
    return render(
        request,
        "tournaments/room/prizes.html",
        {
            "tournament": tournament,
            "divisions": [
                (
                    division,
                    prizes_presenters.prize_lines(board),
                    board.table is not None,
                )
                for division in tournament.divisions
                for board in [prizes_selectors.prize_board(tournament_id, division)]
            ],
        },
    )


@require_GET
def manage_print(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """The team's page of everything the room needs, per division."""
    tournament = _team_tournament(request, tournament_id)
    divisions = [
        {
            "name": division,
            "round": pairing_selectors.paired_rounds(tournament_id, division),
        }
        for division in tournament.divisions
    ]
    return render(
        request,
        "tournaments/room/print.html",
        {
            "tournament": tournament,
            "divisions": divisions,
            "papers": ("a4", "letter"),
            "self_entry": selfentry.enabled(tournament_id),
        },
    )


# --- reports -----------------------------------------------------------------------


@require_GET
def reports_page(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """High game, high loss, high combined, biggest upset, lowest win, and firsts
    and seconds: per division and for the whole event."""
    tournament = _readable_tournament(request, tournament_id)
    return render(
        request,
        "tournaments/room/reports.html",
        {"tournament": tournament, "report": reports.tournament_reports(tournament)},
    )


@require_GET
def reports_csv(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    tournament = _readable_tournament(request, tournament_id)
    text = reports.reports_csv(reports.tournament_reports(tournament))
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="reports.csv"'
    return issued_response(
        request,
        response,
        tournament_id=tournament.tournament_id,
        position=tournament.version,
        kind="reports.csv",
        name="reports.csv",
    )


# --- self-entry --------------------------------------------------------------------


def _report_context(
    tournament: Tournament, player: Player, state: Any, round_: int | None
) -> dict[str, Any]:
    opponent = None
    reported: list[dict[str, Any]] = []
    if round_ is not None and state.rules is not None:
        seat = state.rules.round_state(player.division, round_).seats[player.player_id]
        opponent = state.rules.players[seat.opponent].name
        game = state.reports.get((round_, frozenset((player.player_id, seat.opponent))))
        sources = selfentry.report_sources(state) if game else {}
        reported = [
            {
                "name": state.rules.players[pid].name,
                "own": report.own_score,
                "opponent": report.opponent_score,
                "through": sources.get((round_, pid), ""),
            }
            for pid, report in (game or {}).items()
        ]
    return {
        "tournament": tournament,
        "player": player,
        "round": round_,
        "opponent": opponent,
        "reported": reported,
        "linked": False,
    }


@require_http_methods(["GET", "POST"])
def report_score(
    request: HttpRequest, tournament_id: uuid.UUID, player_id: str
) -> HttpResponse:
    """A player reports their game from their phone (self-entry)."""
    tournament = _readable_tournament(request, tournament_id)
    player = get_object_or_404(Player, tournament=tournament, player_id=player_id)
    if not selfentry.enabled(tournament_id):  # the projection: no aggregate yet
        raise Http404("This tournament does not take results from players.")
    form = ScoreReportForm()
    status, retry_after = 200, None
    if request.method == "POST":
        form = ScoreReportForm(request.POST)
        if form.is_valid():
            try:
                if _submit_report(request, form, tournament_id, player_id):
                    return redirect("report-score", tournament_id, player_id)
            except selfentry.CodeLockedError as error:
                form.add_error("code", error.message)
                status, retry_after = 429, error.retry_after
        status = status if status == 429 else 400
    # Loaded after the report was checked: a wrong code never loads it.
    _, state = aggregate.tournament_state(tournament_id)
    if not state.self_entry:
        raise Http404("This tournament does not take results from players.")
    round_ = selfentry.next_round(state, player_id)
    if request.method == "GET":
        form = ScoreReportForm(initial={"round": round_})
    context = _report_context(tournament, player, state, round_)
    context["form"] = form
    context["linked"] = (
        request.user.is_authenticated
        and state.accounts.get(player_id) == request.user.pk
    )
    response = render(request, "tournaments/room/report.html", context, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def _submit_report(
    request: HttpRequest,
    form: ScoreReportForm,
    tournament_id: uuid.UUID,
    player_id: str,
) -> bool:
    data = form.cleaned_data
    try:
        outcome = selfentry.score_report(
            tournament_id=tournament_id,
            round_=data["round"],
            player_id=player_id,
            own_score=data["own_score"],
            opponent_score=data["opponent_score"],
            user=request.user,
            code=data["code"] or None,
            address=client_address(request),
        )
    except selfentry.SelfEntryError as error:
        form.add_error("code", error.message)
        return False
    except ConcurrencyError:
        form.add_error(None, "Someone reported at the same moment: send it again.")
        return False
    except EventRejectedError as error:
        show_refusal(form, error, ScoreReportForm.RULE_FIELDS)
        return False
    except RulesError as error:  # a code's letters (the form checked them first)
        field = getattr(error, "field", None)
        form.add_error(field if field in form.fields else None, error.message)
        return False
    if outcome.recorded:
        messages.success(request, "Both players agree: the result is recorded.")
    elif outcome.disagrees:
        messages.warning(
            request,
            "Your opponent reported other scores: the director will decide.",
        )
    else:
        messages.success(
            request, "Thank you: the result is recorded once your opponent agrees."
        )
    return True


@require_http_methods(["GET", "POST"])
def manage_self_entry(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """The team's view of self-entry: the switch (directors) and the reported
    games still without a result, disagreements first."""
    tournament = _team_tournament(request, tournament_id)
    if request.method == "POST":
        form = SelfEntrySwitchForm(request.POST)
        if form.is_valid():
            try:
                selfentry.self_entry_set(
                    tournament_id=tournament_id,
                    enabled=form.cleaned_data["enabled"],
                    user=request.user,
                )
            except ConcurrencyError:
                messages.error(request, "The tournament changed meanwhile: try again.")
            return redirect("manage-self-entry", tournament_id)
    _, state = aggregate.tournament_state(tournament_id)
    games = selfentry.pending_games(state)
    return render(
        request,
        "tournaments/room/selfentry.html",
        {
            "tournament": tournament,
            "enabled": state.self_entry,
            "form": SelfEntrySwitchForm(initial={"enabled": not state.self_entry}),
            "disagreements": [g for g in games if g.disagrees],
            "waiting": [g for g in games if not g.disagrees],
            "lockouts": _lockouts(state, tournament_id),
            "is_director": access.tournament_is_director(tournament, request.user),
        },
    )


def _lockouts(state: Any, tournament_id: uuid.UUID) -> list[dict[str, Any]]:
    """The codes refused now (too many wrong ones), with the players' names."""
    players = state.rules.players if state.rules is not None else {}
    return [
        {
            "who": players[lock.player_id].name
            if lock.player_id in players
            else lock.player_id or f"the address {lock.address}",
            "round": lock.round,
            "tries": lock.tries,
            "until": lock.until,
        }
        for lock in selfentry.code_lockouts(tournament_id)
    ]
