"""The API of the tournament itself: list, create, read and correct it, and its
divisions.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.core import access, aggregate
from tournaments.core import serializers as core_serializers
from tournaments.core.api import command_response, get_tournament, require_division
from tournaments.models import Tournament
from tournaments.setup import selectors, services
from tournaments.setup import serializers as setup_serializers


class TournamentListCreateApi(ListAPIView):
    serializer_class = setup_serializers.TournamentOutput
    permission_classes = (IsAuthenticatedOrReadOnly,)
    filterset_fields = ("published",)

    def get_queryset(self) -> Any:
        return access.readable_tournaments(self.request.user)

    @extend_schema(
        request=setup_serializers.TournamentCreateInput,
        responses={201: setup_serializers.TournamentOutput},
    )
    def post(self, request: Request) -> Response:
        data = setup_serializers.TournamentCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values["start_date"] = values["start_date"].isoformat()
        values["end_date"] = values["end_date"].isoformat()
        result = services.tournament_create(user=request.user, **values)
        tournament = Tournament.objects.get(pk=result.stream.id)
        return Response(setup_serializers.TournamentOutput(tournament).data, status=201)


class TournamentDetailApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(responses=setup_serializers.TournamentOutput)
    def get(self, request: Request, tournament_id: UUID) -> Response:
        return Response(
            setup_serializers.TournamentOutput(
                get_tournament(request, tournament_id)
            ).data
        )

    @extend_schema(
        request=setup_serializers.SettingsPatchInput,
        responses={201: core_serializers.CommandOutput},
    )
    def patch(self, request: Request, tournament_id: UUID) -> Response:
        """Correct the settings: every result is counted again under them."""
        get_tournament(request, tournament_id)
        data = setup_serializers.SettingsPatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        expected = changes.pop("expected_version", None)
        if not changes:
            raise ValidationError({"non_field_errors": ["Give a setting to change."]})
        result = services.settings_change(
            tournament_id=tournament_id,
            changes=changes,
            user=request.user,
            expected_version=expected,
        )
        return command_response(result)


class DivisionApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(responses=setup_serializers.DivisionOutput)
    def get(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """The division and the tile set and lexicon its games are played with."""
        tournament = get_tournament(request, tournament_id)
        require_division(tournament, division)
        _, state = aggregate.tournament_state(tournament_id)
        assert state.rules is not None
        return Response(selectors.division_document(state.rules, division))

    @extend_schema(
        request=setup_serializers.DivisionPatchInput,
        responses={201: core_serializers.CommandOutput},
    )
    def patch(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Rename a division (everything of it takes the new name), or choose the
        tile set and lexicon its games are played with (games already started
        keep theirs)."""
        get_tournament(request, tournament_id)
        data = setup_serializers.DivisionPatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        setup = {key: v[key] for key in ("tile_set", "lexicon") if key in v}
        if "name" not in v and not setup:
            raise ValidationError(
                {"non_field_errors": ["Give a new name, a tile_set or a lexicon."]}
            )
        result = services.division_change(
            tournament_id=tournament_id,
            division=division,
            new_name=v.get("name"),
            setup=setup,
            user=request.user,
            expected_version=v.get("expected_version"),
        )
        return command_response(result)
