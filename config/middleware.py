"""Site-wide answers that no view should have to give itself.

``DatabaseUnavailableMiddleware``: when PostgreSQL cannot be reached (or drops the
connection) a page or API call answers 503 with ``Retry-After``, not a 500 with a
traceback: the request was fine and will succeed once the database is back. The
error itself goes to the log, never to the client. The same for a record that
cannot be served now: a stream whose log cannot be replayed ("this record is under
review", ``StreamUnderReviewError``) or a server left with the log's old key
(``LogKeyChangedError``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

from games.api_errors import UNDER_REVIEW_RETRY_SECONDS, unavailable_record
from games.eventstore.errors import LogKeyChangedError, StreamUnderReviewError

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30
MESSAGE = "The database is unavailable; try again in a minute."
# Plain HTML: the site's templates read the signed-in user, which needs the database.
PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Unavailable</title></head>
<body><main><h1>Temporarily unavailable</h1><p>{MESSAGE}</p></main></body></html>
"""


class DatabaseUnavailableMiddleware:
    """Turn a lost database connection in a view into a 503."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        if isinstance(exception, StreamUnderReviewError | LogKeyChangedError):
            return _record_unavailable(request, exception)
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error("Database unavailable for %s: %s", request.path, exception)
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse({"detail": MESSAGE}, status=503)
        else:
            response = HttpResponse(PAGE, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


def _record_unavailable(request: HttpRequest, exception: Exception) -> HttpResponse:
    logger.error("Record unavailable for %s: %s", request.path, exception)
    code, message = unavailable_record(exception)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"code": code, "message": message}, status=503
        )
    else:
        page = PAGE.replace(MESSAGE, message)
        if code == "under_review":
            page = page.replace("Temporarily unavailable", "Under review")
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(UNDER_REVIEW_RETRY_SECONDS)
    return response
