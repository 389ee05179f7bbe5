"""The console's audit page."""

from __future__ import annotations

import uuid

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.audit import selectors as audit_selectors
from tournaments.core.pages import directed
from tournaments.players import selectors as players_selectors


@login_required
@require_GET
def manage_audit(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Every event of the tournament: who did what, when, and what it replaced."""
    tournament = directed(request, tournament_id)
    entries = audit_selectors.tournament_audit(tournament)
    players = players_selectors.players_by_id(tournament)
    rows = []
    for entry in reversed(entries):
        replaced = ""
        if entry.supersedes:
            old = entry.supersedes
            if old.get("absentee"):
                name = players.get(old["absentee"])
                replaced = f"{name.name if name else old['absentee']} forfeits"
            else:
                a, b = players.get(old["player_a"]), players.get(old["player_b"])
                replaced = (
                    f"{a.name if a else old['player_a']} {old['score_a']}–"
                    f"{old['score_b']} {b.name if b else old['player_b']}"
                )
        rows.append(
            {
                "entry": entry,
                "replaced": replaced,
                "reason": entry.payload.get("reason", "")
                if entry.event_type == "result_amended"
                else "",
            }
        )
    return render(
        request,
        "tournaments/manage/audit.html",
        {"tournament": tournament, "rows": rows},
    )
