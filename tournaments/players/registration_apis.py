"""The API of the registration day: check-in, the no-shows, a move between
divisions, a division's rounds."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.core import access, errors
from tournaments.core import serializers as core_serializers
from tournaments.core.aggregate import tournament_state
from tournaments.core.api import command_response, get_tournament, require_division
from tournaments.players import registration
from tournaments.players import serializers as players_serializers


class CheckInListApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(responses=players_serializers.CheckInOutput(many=True))
    def get(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Who of the division has checked in (the tournament's team only: the
        roll call is not public)."""
        tournament = get_tournament(request, tournament_id)
        require_division(tournament, division)
        if access.tournament_role(tournament, request.user) is None:
            raise errors.PermissionDeniedError(
                "Only the tournament's team may see the check-in."
            )
        _, state = tournament_state(tournament_id)
        rules = state.rules
        assert rules is not None
        players = [rules.players[p] for p in rules.division_players[division]]
        return Response(
            [
                {
                    "id": player.player_id,
                    "number": player.number,
                    "name": player.name,
                    "checked_in": player.checked_in,
                    "withdrawn": player.withdrawn,
                }
                for player in players
            ]
        )


class NoShowsApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=core_serializers.ExpectedVersionMixin,
        responses={201: players_serializers.NoShowsOutput},
    )
    def post(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Withdraw from round 1 (not paired) every player of the division who has
        not checked in, before round 1 is paired."""
        get_tournament(request, tournament_id)
        data = core_serializers.ExpectedVersionMixin(data=request.data)
        data.is_valid(raise_exception=True)
        done = registration.no_shows_withdraw(
            tournament_id=tournament_id,
            division=division,
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        body = {
            "version": done.result.version,
            "events": [recorded.type_name for recorded in done.result.recorded],
            "withdrawn": list(done.names),
        }
        return Response(body, status=status.HTTP_201_CREATED)


class CheckInApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=players_serializers.CheckInInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        """Mark a player present before round 1 (present=false: take it back)."""
        get_tournament(request, tournament_id)
        data = players_serializers.CheckInInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = registration.check_in(
            tournament_id=tournament_id,
            player_id=player_id,
            user=request.user,
            **data.validated_data,
        )
        return command_response(result)


class PlayerMoveApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=players_serializers.PlayerMoveInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        """Move a player to another division, before their first pairing."""
        get_tournament(request, tournament_id)
        data = players_serializers.PlayerMoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = registration.player_move(
            tournament_id=tournament_id,
            player_id=player_id,
            user=request.user,
            **data.validated_data,
        )
        return command_response(result)


class DivisionRoundsApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=players_serializers.DivisionRoundsInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Set how many rounds the division plays (tsh's max_div_rounds)."""
        get_tournament(request, tournament_id)
        data = players_serializers.DivisionRoundsInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = registration.division_rounds_set(
            tournament_id=tournament_id,
            division=division,
            user=request.user,
            **data.validated_data,
        )
        return command_response(result)
