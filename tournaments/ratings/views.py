"""Pages of ratings files and estimates: a division's rating estimates
(server-rendered, the numbers ``/api/ratings/players`` gives), the live
``tourney.js``, and the console's import of a whole tsh event (``config.tsh`` and
its ``.t`` files, or a ``tourney.js``).
"""

from __future__ import annotations

import datetime
import uuid
from collections import Counter
from collections.abc import Sequence

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_safe,
)

from games.readcache import cached_file
from rules.numbers import NumberError, whole_number
from rules.ratings import TIE_BREAK_RATED_AS, RatingsError
from rules.tourneyjs import NewtNote
from tournaments.core import access, headers
from tournaments.core.pages import submit
from tournaments.issued.registry import issued_response
from tournaments.models import Player, PlayerRound, Tournament
from tournaments.ratings import estimates, imports, tourneyjs
from tournaments.ratings.forms import TourneyJsImportForm, TshEventImportForm

SYSTEM_NAMES = {
    "nsa2008": "NASPA (nsa2008)",
    "naspa-csw": "NASPA Collins (naspa-csw)",
    "wespa": "WESPA (tsh's wespa)",
    "absp": "ABSP",
    "none": "no rating system this site computes: estimates switched off",
}


@require_GET
def tournament_ratings(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Show each player's rated games and estimates for one division.

    ``?division=`` picks the division (default: the first) and ``?round=`` the
    round the estimates run to (default: the latest); a tournament the user may not
    read, or an unknown division, is a 404.
    """
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not access.tournament_can_read(tournament, request.user):
        raise Http404
    division = request.GET.get("division") or (
        tournament.divisions[0] if tournament.divisions else ""
    )
    if division not in tournament.divisions:
        raise Http404(f"No division {division!r}.")
    round_text = request.GET.get("round", "")
    try:
        after_round = whole_number(round_text, low=0) if round_text else None
    except NumberError:
        raise Http404(f"No round {round_text[:20]!r}.") from None
    players = Player.objects.filter(
        tournament=tournament, division=division
    ).select_related("tournament")
    problem = ""
    try:
        rows = estimates.player_rating_rows(players.order_by("number"), after_round)
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
            "tie_breaks": _tie_breaks(tournament, division, counted),
            "tie_break_rated_as": [
                (SYSTEM_NAMES[key], text)
                for key, text in TIE_BREAK_RATED_AS.items()
                if key != "none"
            ],
            "after_round": counted,
            "rounds": range(1, tournament.rounds + 1),
        },
    )


@require_safe
def tourney_js(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """The live ``tourney.js`` tsh would write for the event (``newt={...};``),
    for live-coverage pages and pollers (Woogles' broadcasts): whoever may read the
    tournament (the public once it is published, its team always; 404 otherwise).

    Served from the read cache by the tournament's version: a poller sending the
    ETag back (or the Last-Modified time) gets a 304 until a result changes it.
    """
    header = access.readable_header(
        headers.tournament_header(tournament_id), request.user
    )
    response = cached_file(
        request,
        ("tourney.js", tournament_id),
        header.version,
        lambda: tourneyjs.served_text(Tournament.objects.get(pk=tournament_id)),
        content_type="application/javascript; charset=utf-8",
        last_modified=header.updated_at,
        public=header.published,
    )
    # Recorded once per distinct body (a poller's repeats add nothing) and signed.
    return issued_response(
        request,
        response,
        tournament_id=tournament_id,
        position=header.version,
        kind="tourney.js",
        name="tourney.js",
    )


def _tie_breaks(tournament: Tournament, division: str, after_round: int) -> list[str]:
    """The division's games won on the tie-break (equal final scores), each once
    from the winner's side: the standings count the win, the bodies rate a draw."""
    rows = PlayerRound.objects.filter(
        tournament=tournament,
        division=division,
        tie_break=True,
        outcome="win",
        round__gte=1,
        round__lte=after_round,
    ).order_by("round", "number")
    names = dict(
        Player.objects.filter(tournament=tournament).values_list("player_id", "name")
    )
    return [
        f"Round {row.round}: {row.name} beat {names.get(row.opponent_id, '?')}"
        f" {row.own_score}–{row.opponent_score} on the scores before the end-of-game"
        " adjustments"
        for row in rows
    ]


@login_required
@require_http_methods(["GET", "POST"])
def tournament_import_tsh(request: HttpRequest) -> HttpResponse:
    """Set up a tournament from tsh's files: config.tsh and its divisions' .t
    files, or the event's tourney.js (``source=tourney-js``)."""
    access.require_may_create_tournament(request.user)
    form = TshEventImportForm(initial={"start_date": timezone.localdate()})
    js_form = TourneyJsImportForm()
    status = 200
    if request.method == "POST" and request.POST.get("source") == "tourney-js":
        js_form = TourneyJsImportForm(request.POST, request.FILES)
        imported = _import_tourney_js(request, js_form)
        if imported is not None:
            return redirect("manage", tournament_id=imported)
        status = 400
    elif request.method == "POST":
        form = TshEventImportForm(request.POST, request.FILES)
        done: list[imports.EventImport] = []
        data = form.cleaned_data if form.is_valid() else None
        if data is not None and submit(
            form,
            lambda: done.append(
                imports.tsh_event_import(
                    user=request.user,
                    name=data.get("name") or None,
                    start_date=data["start_date"].isoformat()
                    if data.get("start_date")
                    else None,
                    end_date=data["end_date"].isoformat()
                    if data.get("end_date")
                    else None,
                    config=data["config"],
                    files=data["files"],
                )
            ),
            {},
        ):
            imported = done[0]
            messages.success(
                request,
                f"Imported divisions {', '.join(imported.divisions)}: ranked as tsh"
                " ranks.",
            )
            for note in imported.notes:
                messages.warning(request, f"config.tsh: {note}")
            for line, text in imported.not_taken:
                messages.warning(request, f"config.tsh line {line} not taken: {text}")
            return redirect("manage", tournament_id=imported.result.stream.id)
        status = 400
    return render(
        request,
        "tournaments/manage/import_tsh.html",
        {"form": form, "js_form": js_form},
        status=status,
    )


def _import_tourney_js(
    request: HttpRequest, form: TourneyJsImportForm
) -> uuid.UUID | None:
    """The tournament made from the form's tourney.js, its report as messages; None
    (the refusal on the form) when it cannot be."""
    done: list[imports.TourneyJsImport] = []
    data = form.cleaned_data if form.is_valid() else None
    if data is None or not submit(
        form,
        lambda: done.append(
            imports.tourney_js_import(
                user=request.user,
                text=data["file"],
                name=data.get("name") or None,
                start_date=_iso(data.get("start_date")),
                end_date=_iso(data.get("end_date")),
            )
        ),
        {"file": "file", "start_date": "start_date"},
    ):
        return None
    imported = done[0]
    messages.success(
        request,
        f"Imported divisions {', '.join(imported.divisions)} from tourney.js:"
        " ranked as tsh ranks.",
    )
    for text in _report_lines(imported.notes):
        messages.warning(request, text)
    return imported.result.stream.id


# The notes counted rather than listed one by one (one per player and round).
COUNTED = {
    "bye": "bye",
    "forfeit": "forfeit",
    "credit": "win credited",
    "late_entry": "round before a late entry",
    "unpaired": "round not paired",
}


def _report_lines(notes: Sequence[NewtNote]) -> list[str]:
    """The import's report as the console's messages: per division, the byes,
    forfeits and such counted (the API lists each), every other note in full."""
    counts: Counter[tuple[str, str]] = Counter()
    lines = []
    for note in notes:
        if note.code in COUNTED:
            counts[note.division, note.code] += 1
        else:
            where = f"Division {note.division}: " if note.division else ""
            lines.append(f"{where}{note.message}")
    for (division, code), count in sorted(counts.items()):
        lines.append(
            f"Division {division}: {count} {COUNTED[code]}{'s' if count > 1 else ''}"
            " kept as the file has them."
        )
    return lines


def _iso(day: datetime.date | None) -> str | None:
    return None if day is None else day.isoformat()
