"""The API of the audit log."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.audit import selectors, serializers
from tournaments.core import access, errors
from tournaments.core.api import get_tournament


class AuditApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(responses=serializers.AuditEntryOutput(many=True))
    def get(self, request: Request, tournament_id: UUID) -> Response:
        tournament = get_tournament(request, tournament_id)
        if not access.tournament_is_director(tournament, request.user):
            raise errors.PermissionDeniedError(
                "Only the tournament's directors may read its log."
            )
        entries = selectors.tournament_audit(tournament)
        return Response(serializers.AuditEntryOutput(entries, many=True).data)
