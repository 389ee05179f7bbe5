"""Translate refusals into HTTP answers at the API edge, in one place.

* a rule the input breaks (``rules.errors.RulesError``, the one root of refusals:
  an event the store's validation refused, a GCG file that cannot be read, a ratings
  file the record cannot make): 400 with the rule's stable ``code`` and
  ``message``, and the ``field`` at fault (or a file's ``problems``) when known;
* a stale ``expected_version`` (the store's ``ConcurrencyError``): 409 with the
  current version;
* a quota spent (``games.quotas.QuotaExceededError``): 429 with ``Retry-After``;
* missing rights (Django's ``PermissionDenied``, which the services' errors
  subclass): 403, by DRF's own handler, as is everything else.
"""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.eventstore.errors import ConcurrencyError
from games.quotas import QuotaExceededError
from rules.errors import RulesError


def rejection_body(error: RulesError) -> dict[str, Any]:
    """The body of a 400: the rule's code and message, its field or problems."""
    body: dict[str, Any] = {"code": error.code, "message": error.message}
    for extra in ("field", "problems"):
        value = getattr(error, extra, None)
        if value:
            body[extra] = _jsonable(value)
    return body


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus RulesError → 400, QuotaExceededError → 429 and
    ConcurrencyError → 409."""
    if isinstance(exc, RulesError):
        return Response(rejection_body(exc), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, QuotaExceededError):
        return Response(
            {"code": "note_quota", "message": str(exc)},
            status=status.HTTP_429_TOO_MANY_REQUESTS,
            headers={"Retry-After": str(exc.retry_after)},
        )
    if isinstance(exc, ConcurrencyError):
        return Response(
            {
                "code": "stale_version",
                "message": str(exc),
                "current_version": exc.current,
            },
            status=status.HTTP_409_CONFLICT,
        )
    return drf_exception_handler(exc, context)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if hasattr(value, "__dataclass_fields__"):
        return {
            name: _jsonable(getattr(value, name)) for name in value.__dataclass_fields__
        }
    return value
