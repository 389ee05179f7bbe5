"""The API of the invitations to the team (``tournaments.players.invitations``):
a director creates, lists and revokes them; the invitee accepts one, signed in
or with a new account's user name and password."""

from __future__ import annotations

from uuid import UUID

from django.core.exceptions import ValidationError as DjangoValidationError
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.serializer_base import StrictSerializer
from tournaments.core import access, errors
from tournaments.core import serializers as core_serializers
from tournaments.core.aggregate import tournament_state
from tournaments.core.api import command_response, get_tournament
from tournaments.models import DIRECTOR, SCOREKEEPER
from tournaments.players import invitations


class InvitationInput(core_serializers.ExpectedVersionMixin):
    role = serializers.ChoiceField([DIRECTOR, SCOREKEEPER])
    days = serializers.IntegerField(
        min_value=1, max_value=invitations.MAX_DAYS, default=invitations.DEFAULT_DAYS
    )


class InvitationOutput(serializers.Serializer):
    id = serializers.CharField()
    role = serializers.CharField()
    expires_at = serializers.DateTimeField()
    status = serializers.ChoiceField(["open", "used", "revoked", "expired"])
    used_by = serializers.CharField(allow_null=True)


class InvitationMadeOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.CharField())
    id = serializers.CharField()
    role = serializers.CharField()
    expires_at = serializers.DateTimeField()
    token = serializers.CharField(help_text="Shown once: only its hash is kept.")
    link = serializers.CharField(help_text="The page the invitee opens.")


class InvitationAcceptInput(StrictSerializer):
    tournament = serializers.UUIDField()
    token = serializers.CharField(max_length=200)
    username = serializers.CharField(
        max_length=150, required=False, help_text="Signed out: the new account's."
    )
    password = serializers.CharField(
        max_length=128,
        required=False,
        write_only=True,
        help_text="Signed out: the new account's (Django's validators check it).",
    )


class InvitationAcceptedOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.CharField())
    username = serializers.CharField()
    role = serializers.CharField()


def _require_director(request: Request, tournament_id: UUID) -> None:
    tournament = get_tournament(request, tournament_id)
    if not access.tournament_is_director(tournament, request.user):
        raise errors.PermissionDeniedError(
            "Only the tournament's directors may manage its invitations."
        )


class InvitationsApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(responses=InvitationOutput(many=True))
    def get(self, request: Request, tournament_id: UUID) -> Response:
        """The team's invitations, newest first (its directors only)."""
        _require_director(request, tournament_id)
        _, state = tournament_state(tournament_id)
        rows = invitations.invitation_rows(state, timezone.now())
        return Response(InvitationOutput(rows, many=True).data)

    @extend_schema(request=InvitationInput, responses={201: InvitationMadeOutput})
    def post(self, request: Request, tournament_id: UUID) -> Response:
        """Create a single-use invitation to join as a co-director or scorekeeper."""
        get_tournament(request, tournament_id)
        data = InvitationInput(data=request.data)
        data.is_valid(raise_exception=True)
        made = invitations.invitation_create(
            tournament_id=tournament_id,
            role=data.validated_data["role"],
            days=data.validated_data["days"],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        body = {
            "version": made.result.version,
            "events": [recorded.type_name for recorded in made.result.recorded],
            "id": made.invitation_id,
            "role": made.role,
            "expires_at": made.expires_at,
            "token": made.token,
            "link": request.build_absolute_uri(
                reverse("join", args=[tournament_id, made.token])
            ),
        }
        return Response(InvitationMadeOutput(body).data, status=status.HTTP_201_CREATED)


class InvitationRevokeApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=core_serializers.ExpectedVersionMixin,
        responses={201: core_serializers.CommandOutput},
    )
    def post(
        self, request: Request, tournament_id: UUID, invitation_id: str
    ) -> Response:
        """Revoke an unused invitation: its link stops working."""
        get_tournament(request, tournament_id)
        data = core_serializers.ExpectedVersionMixin(data=request.data)
        data.is_valid(raise_exception=True)
        result = invitations.invitation_revoke(
            tournament_id=tournament_id,
            invitation_id=invitation_id,
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class InvitationAcceptApi(APIView):
    # Signed out is the point: the invitee may have no account yet. Only an open
    # invitation's token lets anything happen.
    permission_classes = (AllowAny,)

    @extend_schema(
        request=InvitationAcceptInput, responses={201: InvitationAcceptedOutput}
    )
    def post(self, request: Request) -> Response:
        """Join a team with an invitation: signed in, as that account; signed
        out, with a new account's user name and password."""
        data = InvitationAcceptInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if request.user.is_authenticated:
            result, role = invitations.invitation_accept(
                tournament_id=v["tournament"], token=v["token"], user=request.user
            )
            username = request.user.get_username()
        else:
            missing = [f for f in ("username", "password") if not v.get(f)]
            if missing:
                raise ValidationError(
                    {
                        missing[0]: [
                            "Signed out, give the new account's user name and"
                            " password (or sign in to join with your account)."
                        ]
                    }
                )
            try:
                account, result, role = invitations.invitation_accept_new_account(
                    tournament_id=v["tournament"],
                    token=v["token"],
                    username=v["username"],
                    password=v["password"],
                )
            except DjangoValidationError as error:
                raise ValidationError(error.message_dict) from None
            username = account.get_username()
        body = {
            "version": result.version,
            "events": [recorded.type_name for recorded in result.recorded],
            "username": username,
            "role": role,
        }
        return Response(body, status=status.HTTP_201_CREATED)
