"""Translate the store's and the rules' errors into HTTP answers at the API edge.

A rule the event breaks is a 400 with the rule's stable code and message (and the
field when the rule names one); a stale ``expected_version`` is a 409 with the current
version.
"""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.eventstore.errors import ConcurrencyError, EventRejectedError


class Conflict(APIException):
    """Raised when a command was based on a version that is no longer current."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The record changed since you read it."
    default_code = "stale_version"


def rejection_body(error: EventRejectedError) -> dict[str, Any]:
    body: dict[str, Any] = {"code": error.code, "message": error.message}
    if error.field:
        body["field"] = error.field
    return body


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus EventRejectedError → 400 and ConcurrencyError → 409."""
    if isinstance(exc, EventRejectedError):
        return Response(rejection_body(exc), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ConcurrencyError):
        return Response(
            {
                "code": "stale_version",
                "message": str(exc),
                "current_version": exc.current,
            },
            status=status.HTTP_409_CONFLICT,
        )
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None)
    if (
        isinstance(code, str)
        and isinstance(message, str)
        and not isinstance(exc, APIException)
        and type(exc).__module__.startswith("rules.")
    ):
        # A RulesError raised outside an append (a GCG file that cannot be read).
        body: dict[str, Any] = {"code": code, "message": message}
        for extra in ("field", "problems"):
            if getattr(exc, extra, None):
                body[extra] = _jsonable(getattr(exc, extra))
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if hasattr(value, "__dataclass_fields__"):
        return {
            name: _jsonable(getattr(value, name)) for name in value.__dataclass_fields__
        }
    return value
