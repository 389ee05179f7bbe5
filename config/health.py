"""Liveness and database health for load balancers and the README's smoke test."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

logger = logging.getLogger(__name__)

_HEALTH_FIELDS = {
    "status": serializers.CharField(),
    "database": serializers.CharField(),
}


class HealthApi(APIView):
    """200 when the database answers, 503 when it does not."""

    permission_classes = (AllowAny,)
    authentication_classes = ()

    @extend_schema(
        responses={
            200: inline_serializer("Health", _HEALTH_FIELDS),
            503: inline_serializer("HealthDown", _HEALTH_FIELDS),
        }
    )
    def get(self, request: Request) -> Response:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
        except DatabaseError as error:
            # The error's text names hosts, sockets and roles: the log has it, an
            # anonymous client does not.
            logger.error("Health check: the database does not answer: %s", error)
            return Response(
                {"status": "unavailable", "database": "unavailable"}, status=503
            )
        return Response({"status": "ok", "database": "ok"})
