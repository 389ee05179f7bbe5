"""The API of a division's prize table and its winners."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.core import serializers as core_serializers
from tournaments.core.api import (
    after_round_param,
    command_response,
    get_tournament,
    require_division,
)
from tournaments.prizes import presenters, selectors, services
from tournaments.prizes import serializers as prizes_serializers


class PrizesApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after_round", int, description="Winners after this round."
            )
        ],
        responses=prizes_serializers.PrizeBoardOutput,
    )
    def get(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """The division's classes and prize table with each prize's winners, as
        the rules compute them from the results (ties as the table says)."""
        tournament = get_tournament(request, tournament_id)
        require_division(tournament, division)
        board = selectors.prize_board(
            tournament_id, division, after_round_param(request, tournament.rounds)
        )
        return Response(presenters.prize_board_document(board))

    @extend_schema(
        request=prizes_serializers.PrizeTableInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Set the division's rating classes and prize table (replacing it)."""
        tournament = get_tournament(request, tournament_id)
        require_division(tournament, division)
        data = prizes_serializers.PrizeTableInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.prize_table_set(
            tournament_id=tournament_id,
            division=division,
            table=prizes_serializers.table_from(data.validated_data),
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)
