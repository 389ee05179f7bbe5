"""Translate refusals into HTTP answers at the API edge, in one place.

Every 400 of the API has one shape, whoever refused::

    {"code": "max_length", "message": "Ensure this field has no more than 8
     characters.", "field": "players.0.name", "errors": {...}}

``code`` is stable and machine-readable, ``message`` is for people, ``field`` is
the dotted path of the input at fault (absent when the refusal is about the input
as a whole). An input that DRF refused (a serializer, a query filter, a body that
does not parse) also carries ``errors``: all of DRF's detail, ``{field:
[messages]}`` (nested as the input is), its first error being the one ``code``,
``message`` and ``field`` name. The cases:

* an input a serializer or filter refuses, or a body that cannot be parsed
  (DRF's ``ValidationError`` and ``ParseError``): 400 with DRF's code of the first
  error (``required``, ``invalid``, ``max_length``, ``parse_error``...);
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
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from games.eventstore.errors import (
    ConcurrencyError,
    LogKeyChangedError,
    StreamUnderReviewError,
)
from games.quotas import QuotaExceededError
from games.ratelimit import RateLimitedError
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
    if isinstance(exc, RateLimitedError):
        return Response(
            {"code": exc.code, "message": str(exc)},
            status=status.HTTP_429_TOO_MANY_REQUESTS,
            headers={"Retry-After": str(exc.retry_after)},
        )
    if isinstance(exc, QuotaExceededError):
        return Response(
            {"code": exc.code, "message": str(exc)},
            status=status.HTTP_429_TOO_MANY_REQUESTS,
            headers={"Retry-After": str(exc.retry_after)},
        )
    if isinstance(exc, StreamUnderReviewError | LogKeyChangedError):
        code, message = unavailable_record(exc)
        return Response(
            {"code": code, "message": message},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(UNDER_REVIEW_RETRY_SECONDS)},
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
    response = drf_exception_handler(exc, context)
    if (
        response is not None
        and response.status_code == status.HTTP_400_BAD_REQUEST
        and isinstance(exc, APIException)
    ):
        response.data = input_error_body(exc)
    return response


UNDER_REVIEW_RETRY_SECONDS = 3600
UNDER_REVIEW = (
    "This record is under review: it failed an integrity check and an "
    "administrator has been told. Try again later."
)
KEY_CHANGED = (
    "The server is being restarted after a change of the log's key: nothing was "
    "saved. Try again in a minute."
)


def unavailable_record(exc: Exception) -> tuple[str, str]:
    """The code and words for a record that cannot be served now (a 503): under
    review, or a server waiting for the log's new key. The details go to the log,
    not to the client."""
    if isinstance(exc, LogKeyChangedError):
        return "log_key_changed", KEY_CHANGED
    return "under_review", UNDER_REVIEW


# The code of an error DRF gave none (it always gives one today).
INVALID_INPUT = "invalid_input"


def input_error_body(exc: APIException) -> dict[str, Any]:
    """The body of a 400 for an input DRF refused: its first error's code, message
    and field (the dotted path; none for an error about the whole input), and all
    of DRF's detail as ``errors``."""
    detail = exc.detail
    if not isinstance(detail, dict):
        detail = {api_settings.NON_FIELD_ERRORS_KEY: _as_list(detail)}
    path, first = _first_error(detail)
    if path and path[-1] == api_settings.NON_FIELD_ERRORS_KEY:
        path = path[:-1]
    body: dict[str, Any] = {
        "code": getattr(first, "code", None) or INVALID_INPUT,
        "message": str(first) if first is not None else str(exc),
    }
    field = ".".join(path)
    if field:  # (a field named "" names nothing)
        body["field"] = field
    body["errors"] = detail
    return body


def _as_list(detail: Any) -> list[Any]:
    return list(detail) if isinstance(detail, list) else [detail]


def _first_error(detail: Any, path: tuple[str, ...] = ()) -> tuple[list[str], Any]:
    """The path to the first message in DRF's detail, and the message. A list of
    messages is a field's; a list of dicts is its items' (a valid item's ``{}`` is
    skipped), as is a dict keyed by index (a ``ListField``'s)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(value, dict | list) and not value:
                continue
            return _first_error(value, (*path, str(key)))
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            if not isinstance(value, dict | list):
                return list(path), value
            if value:
                return _first_error(value, (*path, str(index)))
    else:
        return list(path), detail
    return list(path), None


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if hasattr(value, "__dataclass_fields__"):
        return {
            name: _jsonable(getattr(value, name)) for name in value.__dataclass_fields__
        }
    return value


# The one shape of a 400, as the OpenAPI schema documents it.
REJECTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Why the request was refused (every 400 of the API).",
    "properties": {
        "code": {"type": "string", "description": "Stable, machine-readable."},
        "message": {"type": "string", "description": "For people."},
        "field": {
            "type": "string",
            "description": "The dotted path of the input at fault; absent when "
            "the refusal is about the input as a whole.",
        },
        "problems": {
            "type": "array",
            "items": {},
            "description": "A file's problems, each with its line.",
        },
        "errors": {
            "type": "object",
            "additionalProperties": {},
            "description": "Every error of a refused input, by field (nested as "
            "the input is; non_field_errors for the whole input).",
        },
    },
    "required": ["code", "message"],
}


def document_rejections(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular post-processing hook: every documented 400 answers a
    ``Rejection`` (the body ``exception_handler`` writes)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Rejection"] = REJECTION_SCHEMA
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/Rejection"}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            response = operation.get("responses", {}).get("400")
            if response is not None and "content" not in response:
                response["content"] = body
    return result
