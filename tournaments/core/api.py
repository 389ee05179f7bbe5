"""What every tournaments API view shares: the tournament it reads, a command's
answer, and the query parameters of a division and a round.

Usage::

    tournament = get_tournament(request, tournament_id)   # 404 when unreadable
    loaded = get_loaded(request, tournament_id)   # (version, aggregate), the same
    return command_response(result)                       # 201 {"version": ...}
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from games.eventstore.store import AppendResult
from rules.numbers import NumberError, whole_number
from tournaments.core import access, past
from tournaments.core.aggregate import (
    TournamentAggregate,
    rights_state,
    tournament_state,
)
from tournaments.core.errors import TournamentNotFoundError
from tournaments.core.uploads import (
    UploadTooLargeError,
    read_upload,
)
from tournaments.models import Tournament


def get_tournament(request: Request, tournament_id: UUID) -> Tournament:
    """The tournament if the user may read it; 404 otherwise (no existence leak)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not access.tournament_can_read(tournament, request.user):
        raise Http404
    return tournament


def get_loaded(
    request: Request, tournament_id: UUID
) -> tuple[int, TournamentAggregate]:
    """The tournament's (version, aggregate) if the user may read it, for a command
    that then writes from it (its right decided on the same aggregate, once loaded);
    404 otherwise, with DRF's own body whether it exists or not."""
    try:
        loaded = tournament_state(tournament_id)
    except TournamentNotFoundError:
        raise Http404 from None
    if not access.can_read(rights_state(tournament_id, loaded), request.user):
        raise Http404
    return loaded


def command_response(result: AppendResult) -> Response:
    body = {
        "version": result.version,
        "events": [recorded.type_name for recorded in result.recorded],
    }
    return Response(body, status=status.HTTP_201_CREATED)


def after_round_param(request: Request, rounds: int) -> int | None:
    """The ``after_round`` query parameter: a round from 0 (before round 1) to
    ``rounds``, or None when not given; a 400 naming it otherwise."""
    after_round = request.query_params.get("after_round")
    if after_round is None:
        return None
    try:
        return whole_number(after_round, low=0, high=rounds)
    except NumberError:
        raise ValidationError(
            {"after_round": [f"Give a round from 0 (before round 1) to {rounds}."]}
        ) from None


def division_param(
    request: Request, tournament: Tournament | access.TournamentHeader
) -> str:
    division = request.query_params.get("division") or (
        tournament.divisions[0] if tournament.divisions else ""
    )
    if division not in tournament.divisions:
        raise ValidationError({"division": [f"No division {division!r}."]})
    return division


DIVISION = OpenApiParameter("division", str, description="Default: the first.")


def require_division(tournament: Tournament, division: str) -> None:
    if division not in tournament.divisions:
        raise Http404(f"No division {division}.")


def upload_text(upload: Any, limit: int, field: str, what: str) -> str:
    try:
        return read_upload(upload, limit, what)
    except UploadTooLargeError as error:
        raise ValidationError({field: [str(error)]}) from None


def document_at(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular post-processing hook: every read of a tournament takes
    ``?at=`` (``core.past``, served by its middleware for every such view, so
    documented here once rather than on each view), and answers 400 naming it
    for a bad value."""
    for path, operations in result.get("paths", {}).items():
        operation = operations.get("get")
        # The live feed is the present as it happens: it takes no point.
        if operation is None or "{tournament_id}" not in path or path.endswith("/feed"):
            continue
        operation.setdefault("parameters", []).append(
            {
                "in": "query",
                "name": past.PARAMETER,
                "schema": {"type": "string"},
                "description": past.at_help(),
                "examples": {
                    "position": {"value": "312", "summary": "after event 312"},
                    "time": {"value": "2026-11-27T14:05", "summary": "at 14:05"},
                },
            }
        )
        operation.setdefault("responses", {}).setdefault(
            "400", {"description": "A bad value of at (or of another parameter)."}
        )
    return result
