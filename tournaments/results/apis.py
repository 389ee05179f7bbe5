"""The API of results: enter, amend, forfeit; standings and scorecards."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.readcache import cached_json
from tournaments.core import access, headers
from tournaments.core import serializers as core_serializers
from tournaments.core.api import (
    DIVISION,
    after_round_param,
    command_response,
    division_param,
    get_loaded,
    get_tournament,
)
from tournaments.results import selectors, services
from tournaments.results import serializers as results_serializers


class ResultsApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=results_serializers.ResultInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        # Loaded once: readable here, the right to enter results decided on the
        # same aggregate by the write path, which appends from it.
        loaded = get_loaded(request, tournament_id)
        data = results_serializers.ResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        game_id = v.pop("game_id", None)
        result = services.result_record(
            tournament_id=tournament_id,
            round_=v.pop("round"),
            game_id=str(game_id) if game_id else None,
            user=request.user,
            loaded=loaded,
            **v,
        )
        return command_response(result)


def _amendment_fields(request: Request) -> dict[str, Any]:
    """An amendment's fields as the API reads them (AmendInput)."""
    data = results_serializers.AmendInput(data=request.data)
    data.is_valid(raise_exception=True)
    v = dict(data.validated_data)
    game_id = v.pop("game_id", None)
    v["game_id"] = str(game_id) if game_id else None
    v["round_"] = v.pop("round")
    return v


class AmendResultApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=results_serializers.AmendInput,
        responses={201: core_serializers.CommandOutput},
        description="Amend a result. What it changes (the preview's report) is "
        "worked out on the log at expected_version (409 when the log has moved "
        "since) and kept with the amendment in the audit.",
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        result = services.result_amend(
            tournament_id=tournament_id, user=request.user, **_amendment_fields(request)
        )
        return command_response(result)


class AmendPreviewApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=results_serializers.AmendInput,
        responses={200: results_serializers.AmendPreviewOutput},
        description="What an amendment would change, before it is stored: the "
        "standings after every later round, the later system pairings that would "
        "differ (paired again with their recorded coin flips), Gibson decisions "
        "and prize winners. Nothing is stored; confirm with POST results/amend "
        "and this answer's version as expected_version.",
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        fields = _amendment_fields(request)
        fields.pop("expected_version", None)
        preview = services.result_amend_preview(
            tournament_id=tournament_id, user=request.user, **fields
        )
        return Response(preview.document)


class ForfeitApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=results_serializers.ForfeitInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = results_serializers.ForfeitInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        result = services.forfeit_record(
            tournament_id=tournament_id, round_=v.pop("round"), user=request.user, **v
        )
        return command_response(result)


class StandingsApi(APIView):
    @extend_schema(
        parameters=[
            DIVISION,
            OpenApiParameter(
                "after_round",
                int,
                description="Default: the latest round; 0: the pre-event order.",
            ),
        ],
        responses=results_serializers.StandingsOutput,
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        header = access.readable_header(
            headers.tournament_header(tournament_id), request.user
        )
        division = division_param(request, header)
        after_round = after_round_param(request, header.rounds)

        def build() -> Any:
            round_, rows = selectors.standings(tournament_id, division, after_round)
            return {"division": division, "after_round": round_, "standings": rows}

        return cached_json(
            request,
            ("standings", tournament_id, division, after_round),
            header.division_version(division),
            build,
        )


class ScorecardApi(APIView):
    @extend_schema(responses=results_serializers.ScorecardOutput)
    def get(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        header = access.readable_header(
            headers.scorecard_header(tournament_id, player_id), request.user
        )
        player = header.player
        if player is None:
            raise Http404

        def build() -> Any:
            lines = selectors.scorecard_lines(
                tournament_id, player_id, player["division"]
            )
            return {
                "player": player,
                "rounds": [scorecard_line_dict(line) for line in lines],
            }

        return cached_json(
            request,
            ("scorecard", tournament_id, player_id),
            header.division_version(player["division"]),
            build,
        )


# Every ScorecardLineOutput field is a ScorecardLine attribute of the same name.
# (API name, ScorecardLine attribute) in ScorecardLineOutput's order: the API keeps
# its names, the code below it says one name for one idea.
_LINE_FIELDS = tuple(
    (name, field.source)
    for name, field in results_serializers.ScorecardLineOutput().fields.items()
)


def scorecard_line_dict(line: selectors.ScorecardLine) -> dict[str, Any]:
    """A scorecard line as ScorecardLineOutput documents it (a national scorecard
    has 31 lines: through the serializer they cost more than the whole read)."""
    body = {name: getattr(line, source) for name, source in _LINE_FIELDS}
    if line.game_id is not None:
        body["game_id"] = str(line.game_id)
    return body
