"""The API of the field and the team."""

from __future__ import annotations

from uuid import UUID

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.core import access, errors
from tournaments.core import serializers as core_serializers
from tournaments.core.api import (
    DIVISION,
    command_response,
    division_param,
    get_tournament,
)
from tournaments.models import Player
from tournaments.players import serializers as players_serializers
from tournaments.players import services


class PlayerDetailApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(responses=players_serializers.PlayerOutput)
    def get(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        tournament = get_tournament(request, tournament_id)
        player = get_object_or_404(Player, tournament=tournament, player_id=player_id)
        return Response(players_serializers.PlayerOutput(player).data)

    @extend_schema(
        request=players_serializers.PlayerPatchInput,
        responses={201: players_serializers.CorrectionOutput},
    )
    def patch(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        """Correct a player's name, rating, member id or career games."""
        get_tournament(request, tournament_id)
        data = players_serializers.PlayerPatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        expected = fields.pop("expected_version", None)
        if not fields:
            raise ValidationError({"non_field_errors": ["Give a field to correct."]})
        done = services.player_edit(
            tournament_id=tournament_id,
            player_id=player_id,
            user=request.user,
            expected_version=expected,
            **fields,
        )
        response = command_response(done.result)
        response.data["notes"] = list(done.notes)
        return response


class TeamApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(responses=players_serializers.TeamMemberOutput(many=True))
    def get(self, request: Request, tournament_id: UUID) -> Response:
        """The team: directors and scorekeepers (its directors only)."""
        tournament = get_tournament(request, tournament_id)
        if not access.tournament_is_director(tournament, request.user):
            raise errors.PermissionDeniedError(
                "Only the tournament's directors may see its team."
            )
        team = access.tournament_team(tournament)
        return Response([{"username": name, "role": role} for name, role in team])

    @extend_schema(
        request=players_serializers.TeamMemberInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        """Add a co-director or a scorekeeper by username."""
        get_tournament(request, tournament_id)
        data = players_serializers.TeamMemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.team_add(
            tournament_id=tournament_id,
            username=data.validated_data["username"],
            role=data.validated_data["role"],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class TeamRemoveApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=players_serializers.TeamRemoveInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        """Remove a director (never the last) or a scorekeeper."""
        get_tournament(request, tournament_id)
        data = players_serializers.TeamRemoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.team_remove(
            tournament_id=tournament_id,
            username=data.validated_data["username"],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class LateEntryApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=players_serializers.LateEntryInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        """Register a late entry, credited for the rounds already paired."""
        get_tournament(request, tournament_id)
        data = players_serializers.LateEntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        result = services.late_entry(
            tournament_id=tournament_id,
            division=v["division"],
            name=v["name"],
            rating=v["rating"],
            member_id=v["member_id"],
            career_games=v["career_games"],
            credit=services.LateCredit(v["credit"]),
            user=request.user,
            expected_version=v.get("expected_version"),
        )
        return command_response(result)


class MissedRoundApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=players_serializers.MissedRoundInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        """A player misses one round (its forfeit policy) and plays the next."""
        get_tournament(request, tournament_id)
        data = players_serializers.MissedRoundInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.round_missed(
            tournament_id=tournament_id,
            player_id=player_id,
            round_=data.validated_data["round"],
            policy=data.validated_data["policy"],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class PlayersApi(APIView):
    @extend_schema(
        parameters=[DIVISION], responses=players_serializers.PlayerOutput(many=True)
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        tournament = get_tournament(request, tournament_id)
        players = Player.objects.filter(tournament=tournament)
        if "division" in request.query_params:
            players = players.filter(division=division_param(request, tournament))
        return Response(players_serializers.PlayerOutput(players, many=True).data)

    @extend_schema(
        request=players_serializers.PlayersRegisterInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = players_serializers.PlayersRegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.players_register(
            tournament_id=tournament_id,
            division=data.validated_data["division"],
            entries=[
                (p["name"], p["rating"], p["member_id"], p["career_games"])
                for p in data.validated_data["players"]
            ],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class PlayerWithdrawApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=players_serializers.WithdrawInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        get_tournament(request, tournament_id)
        data = players_serializers.WithdrawInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.player_withdraw(
            tournament_id=tournament_id,
            player_id=player_id,
            user=request.user,
            **data.validated_data,
        )
        return command_response(result)


class PlayerReactivateApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=players_serializers.ReactivateInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        get_tournament(request, tournament_id)
        data = players_serializers.ReactivateInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.player_reactivate(
            tournament_id=tournament_id,
            player_id=player_id,
            user=request.user,
            **data.validated_data,
        )
        return command_response(result)
