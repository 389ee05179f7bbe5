"""Serve read endpoints and public pages from a cache keyed by the stream's version.

A projection row carries the version of the last event it reflects, so a response
built at version V is right for as long as the stream stays at V: the key includes
the version and nothing ever needs invalidating. The same key is the response's ETag,
so a client polling standings gets a 304 until a result changes them.

Keys hold only what a page reads (the version, the path or the caller's name for the
page, and the normalised parameters it uses), never the raw query string, and the
cache itself is bounded in bytes (config/memory_cache.py): no run of made-up URLs
can grow a worker's memory.

Pages are cached whole only for signed-out readers: theirs is the same page for
everyone (no user, no form, no message), while a signed-in page carries a name, a
CSRF token and forms.
"""

from __future__ import annotations

import contextvars
import datetime
import hashlib
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe
from rest_framework.renderers import JSONRenderer

from games.pagecache import note_page

TIMEOUT = 300


# The point of the record a read shows, when not the present (a tournament read with
# ``?at=``: tournaments.core.past): (its query parameter, the point). Every key
# below ends with it, so the past and the present never share a body or an ETag;
# the past never changes, so its bodies cache as well as the present's.
_point: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "read_point", default=None
)


@contextmanager
def reading_point(parameter: str, point: str) -> Iterator[None]:
    """Within the body, read caches key on `point` (named by the query
    `parameter`, which cached pages then count as read)."""
    token = _point.set((parameter, point))
    try:
        yield
    finally:
        _point.reset(token)


def _point_part() -> str:
    point = _point.get()
    return "" if point is None else f":{point[0]}={point[1]}"


# Builds of one key wait for each other (striped locks, so that a few locks serve
# every key): 16 readers missing the same heavy answer at once make one build per
# process, not 16, and the others take its body from the cache.
_BUILD_LOCKS = tuple(threading.Lock() for _ in range(64))


def _build_once(key: str, build: Callable[[], bytes]) -> bytes:
    lock = _BUILD_LOCKS[int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 64]
    with lock:
        body = cache.get(key)
        if body is None:
            body = build()
            cache.set(key, body, TIMEOUT)
    return body


def _etag(key: str) -> str:
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def cached_json(
    request: HttpRequest,
    parts: Iterable[object],
    version: int,
    build: Callable[[], Any],
) -> HttpResponse:
    """The JSON of `build()`, from the cache when this version was served before."""
    return cached_body(
        request,
        parts,
        version,
        lambda: JSONRenderer().render(build()),
        content_type="application/json",
    )


def cached_body(
    request: HttpRequest,
    parts: Iterable[object],
    version: int,
    build: Callable[[], bytes],
    *,
    content_type: str,
    last_modified: datetime.datetime | None = None,
    public: bool = True,
) -> HttpResponse:
    """The body `build()` makes (a file, a JSON document), from the cache when this
    version was served before (built once however many ask at once): for every
    reader, so the caller checks who may read first and puts in `parts` everything
    else the body depends on. A reader holding it gets a 304: ``ETag`` is the
    version's key, ``Last-Modified`` (when given) the time of the version;
    ``public=False`` (a tournament only its team reads) keeps shared caches from
    storing it."""
    key = (
        "read:" + ":".join(str(part) for part in parts) + f":v{version}" + _point_part()
    )
    etag = _etag(key)
    if _not_modified(request, etag, last_modified):
        response = HttpResponse(status=304)
    else:
        body = cache.get(key)
        if body is None:
            body = _build_once(key, build)
        response = HttpResponse(body, content_type=content_type)
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified.timestamp())
    # Readers may keep the body but must ask again: results arrive at any time.
    response["Cache-Control"] = "no-cache" if public else "private, no-cache"
    return response


def cached_file(
    request: HttpRequest,
    parts: Iterable[object],
    version: int,
    build: Callable[[], str],
    *,
    content_type: str,
    last_modified: datetime.datetime | None = None,
    public: bool = True,
) -> HttpResponse:
    """A text file every reader allowed gets alike (tourney.js), as ``cached_body``
    keeps it: 304 to a poller that holds it, ``If-Modified-Since`` answered when
    no ``If-None-Match`` is sent."""
    return cached_body(
        request,
        ("file", *parts),
        version,
        lambda: build().encode("utf-8"),
        content_type=content_type,
        last_modified=last_modified,
        public=public,
    )


def _not_modified(
    request: HttpRequest, etag: str, last_modified: datetime.datetime | None
) -> bool:
    """RFC 9110: If-None-Match decides when sent; else If-Modified-Since."""
    sent = request.headers.get("If-None-Match")
    if sent is not None:
        # A proxy may send the tag back weakened (W/"..."): the same version.
        tags = {tag.strip().removeprefix("W/") for tag in sent.split(",")}
        return etag in tags or "*" in tags
    since = parse_http_date_safe(request.headers.get("If-Modified-Since") or "")
    return (
        since is not None
        and last_modified is not None
        and int(last_modified.timestamp()) <= since
    )


def signed_out_reader(request: HttpRequest) -> bool:
    """Whether the request gets the page every signed-out reader gets.

    Without a session cookie there is no user and no message kept in a session;
    without the messages cookie, no message kept in a cookie. A reader holding only
    a CSRF cookie still qualifies: signed-out pages carry no token.
    """
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and CookieStorage.cookie_name not in request.COOKIES
    )


def cached_page(
    request: HttpRequest,
    parts: Iterable[object],
    version: int,
    build: Callable[[], HttpResponse],
    *,
    page: str | None = None,
    reads: Iterable[str] = (),
    streams: Iterable[object] = (),
    clock: bool = False,
) -> HttpResponse:
    """The page `build()` renders, from the cache for a signed-out reader when this
    page was rendered at this version before.

    `version` must cover everything the page shows: the caller checks who may read
    before asking, so a page unpublished since is never served from here. The key
    is `parts`, the version and `page` (default: the request's path), never the
    query string: a page that reads query parameters names them in `reads` and puts
    their normalised values in `parts`. A request carrying any other parameter is
    served the cached page when there is one, else built and not kept, so that
    made-up parameters cannot fill the cache.

    `streams` are the event streams whose events change the page (and who may
    read it): the ASGI layer (games/pagecache.py) answers the next signed-out
    reader of this URL itself until one of them moves; ``clock=True`` says the
    page also changes with the time (a rack delay) and is not kept there.
    """
    if not signed_out_reader(request):
        return build()
    key = (
        "page:"
        + ":".join(str(part) for part in parts)
        + f":v{version}:"
        + (page or request.path)
        + _point_part()
    )
    point = _point.get()
    keep = set(request.GET) <= {*reads, *(() if point is None else (point[0],))}
    etag = _etag(key)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
        if keep and streams and not clock:
            note_page(request, streams)
    else:
        body = cache.get(key)
        if body is None:
            response = build()
            # Only a plain page: an error, a redirect, or a page that set a cookie,
            # used a CSRF token or wrote the session, is not everyone's.
            if (
                not keep
                or response.status_code != 200
                or response.cookies
                or request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
                or getattr(getattr(request, "session", None), "modified", False)
            ):
                return response
            cache.set(key, response.content, TIMEOUT)
        else:
            response = HttpResponse(body, content_type="text/html; charset=utf-8")
        if keep and streams and not clock:
            note_page(request, streams)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    # A shared cache must not hand this page to a signed-in reader.
    patch_vary_headers(response, ["Cookie"])
    return response
