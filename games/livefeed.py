"""Push committed events to followers as Server-Sent Events, resumable by position.

A follower (a display page, a game page, a streamer's script) opens an
``EventSource`` on a feed URL; each event arrives as ``id: <feed position>`` and
a JSON ``data:`` line, in commit order (``games.eventstore.feed``). After a
disconnect the browser sends the last id back (``Last-Event-ID``; ``?after=`` does
the same for other clients) and the stream resumes right after it: nothing is
missed, nothing is sent twice. Named ``head`` events carry no data the page needs:
they move the follower's id past events outside its scope. A position past the
feed's head is a 400 naming the field (a follower cannot skip what is not written
yet).

A follower a page (``PAGE`` events of its scope) or more behind is not sent
the backlog: it gets one named ``behind`` event whose id is the feed's head and
whose data names its position, the head, and the API endpoints that hold the
current state (``FeedScope.pages``), then follows live from the head. A catch-up
from 0 on a national tournament (hundreds of thousands of events) is one message,
not megabytes.

Every poll first asks again whether the follower may read the scope
(``FeedScope.check``: the same access rule as the view): an unpublished
tournament or a revoked share link ends the stream at the next poll.

Where a stream is held: served by ``config.asgi`` (uvicorn; gunicorn with the
uvicorn worker in production), the view decides access, reads the first page and
hands the stream over (``HeldFeed``) to ``games.feedserver``, which follows it on
the event loop: an open stream costs a coroutine, never a thread (see that
module for why and the figures). Under a WSGI server (the tests' live server,
``config.wsgi``) the same view streams from a generator on the request's thread,
as before; ``FEED_STREAMS`` bounds both.

Why Server-Sent Events and not websockets through Django Channels: the feed only
ever flows from the server to the follower, the browser's ``EventSource`` already
reconnects and resumes by id, and a channel layer would be a second server.

Why short polling of the committed feed position and not LISTEN/NOTIFY: a poll is
one index range scan over the events committed since the follower's position, and
the position it reads is the very cursor that makes resuming exact; a NOTIFY
listener needs a connection of its own per process, misses what is sent while it
reconnects, and does not pass through a transaction-pooling proxy. Polling every
``FEED_POLL_SECONDS`` (0.5 s) keeps a display within the two seconds it promises.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from games import feed_documents
from games.eventstore.feed import FeedEvent, FeedPage, feed_head, read_feed
from rules.numbers import NumberError, whole_number

CONTENT_TYPE = "text/event-stream"
# How many events one read sends at most; the next read follows at once.
PAGE = 200

_slots_lock = threading.Lock()
_slots: threading.BoundedSemaphore | None = None
_open = 0  # streams held open now, in this process
_closing = threading.Event()


class EventStreamRenderer(BaseRenderer):
    """Lets DRF accept ``Accept: text/event-stream`` (the view writes the body)."""

    media_type = CONTENT_TYPE
    format = "sse"

    def render(self, data: Any, accepted_media_type: Any = None, context: Any = None):
        return json.dumps(data).encode()


def _stream_slots() -> threading.BoundedSemaphore:
    global _slots
    with _slots_lock:
        if _slots is None:
            _slots = threading.BoundedSemaphore(settings.FEED_STREAMS)
        return _slots


def open_streams() -> int:
    """How many streams this process holds open now."""
    return _open


def close_streams(timeout: float = 5.0) -> bool:
    """End the held streams at their next poll (their browsers reconnect), and
    wait for them; False if some were still open after `timeout` seconds."""
    _closing.set()
    try:
        deadline = time.monotonic() + timeout
        while _open and time.monotonic() < deadline:
            time.sleep(0.02)
        return _open == 0
    finally:
        _closing.clear()


def _count(step: int) -> None:
    global _open
    with _slots_lock:
        _open += step


def resume_position(request: HttpRequest) -> int:
    """The feed position the follower has: ``Last-Event-ID`` (a reconnecting
    browser), else ``?after=``, else 0. A 400 naming the field for anything but a
    whole number >= 0."""
    raw = request.headers.get("Last-Event-ID")
    field = "Last-Event-ID"
    if raw is None:
        raw, field = request.GET.get("after", "0"), "after"
    try:
        return whole_number(raw, low=0)
    except NumberError:
        raise ValidationError(
            {field: ["A feed position: a whole number, 0 or more."]}
        ) from None


def event_document(item: FeedEvent) -> dict[str, Any] | None:
    """An event as the feed sends it: what a signed-out reader may see of it
    (games.feed_documents); None for an event none may (sent as a head)."""
    return feed_documents.event_document(item)


def _message(item: FeedEvent) -> str:
    document = event_document(item)
    if document is None:
        return _head(item.feed_position)
    data = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return f"id: {item.feed_position}\ndata: {data}\n\n"


def _head(position: int) -> str:
    return f"event: head\nid: {position}\ndata: {position}\n\n"


def _retry() -> str:
    return f"retry: {settings.FEED_RETRY_MS}\n\n"


@dataclass(frozen=True)
class FeedScope:
    """What one follower follows: how to read its events, how to ask again whether
    it still may (raises as the view would: ``Http404``, ``PermissionDenied``), where
    the API holds the current state (for a follower far behind), and a key naming
    the scope and the reader (followers with the same key see the same answer, so
    a process may share one poll between them)."""

    read: Callable[[int], FeedPage]
    check: Callable[[], object]
    pages: dict[str, str]
    key: tuple[object, ...]
    message: Callable[[FeedEvent], str] = field(default=_message)


@dataclass(frozen=True)
class Poll:
    """What a poll found: the messages to send and the follower's new position;
    ``allowed`` False when the follower may no longer read the scope."""

    parts: tuple[str, ...]
    after: int
    allowed: bool = True


def _behind(after: int, head: int, pages: dict[str, str]) -> str:
    data = json.dumps(
        {"position": after, "head": head, "limit": PAGE, "pages": pages},
        separators=(",", ":"),
    )
    return f"event: behind\nid: {head}\ndata: {data}\n\n"


def poll(scope: FeedScope, after: int) -> Poll:
    """Ask again whether the follower may read, then what is new after `after`:
    less than a page; a page or more is the ``behind`` message and the head."""
    try:
        scope.check()
    except (Http404, PermissionDenied, APIException):
        return Poll((), after, allowed=False)
    page = scope.read(after)
    if page.full:
        # A page or more behind: the follower reads the state from the API and
        # follows live from the head; nothing of the backlog is read or sent.
        head = max(feed_head(), page.head)
        return Poll((_behind(after, head, scope.pages),), head)
    parts = [scope.message(item) for item in page.events]
    if page.head > after and not page.events:
        parts.append(_head(page.head))
    return Poll(tuple(parts), page.head)


@dataclass(frozen=True)
class HeldFeed:
    """A stream the view hands to the ASGI server (``games.feedserver``): the
    scope, the position after the first answer, that answer, and the slot to give
    back when the stream ends."""

    scope: FeedScope
    after: int
    first: str
    release: Callable[[], None]


# Set in the WSGI environ by the ASGI server (games.feedserver): the view hands
# the stream over instead of holding its thread.
ASGI_FEED = "scrabble.feed.asgi"


def event_stream(request: HttpRequest, scope: FeedScope, after: int) -> HttpResponse:
    """The feed after `after` as Server-Sent Events: a held stream when this
    process has a free slot, else what is new now and a retry."""
    slots = _stream_slots()
    if not slots.acquire(blocking=False):
        first = poll(scope, after)
        return _headers(HttpResponse("".join([_retry(), *first.parts]), CONTENT_TYPE))
    try:
        first = poll(scope, after)
    except BaseException:
        slots.release()
        raise
    opening = _retry() + "".join(first.parts)
    if request.META.get(ASGI_FEED):
        response = StreamingHttpResponse((), CONTENT_TYPE)
        response.held_feed = HeldFeed(scope, first.after, opening, slots.release)  # type: ignore[attr-defined]
        return _headers(response)
    response = StreamingHttpResponse(
        _held(scope, first.after, opening, slots), CONTENT_TYPE
    )
    return _headers(response)


def _held(
    scope: FeedScope,
    after: int,
    first: str,
    slots: threading.BoundedSemaphore,
) -> Iterator[str]:
    """Under a WSGI server: send what is new every poll, a comment when idle (a
    closed connection is noticed on the next write), and close after the hold
    time or when the follower may no longer read."""
    _count(1)
    try:
        yield first
        started = last_write = time.monotonic()
        while time.monotonic() - started < settings.FEED_HOLD_SECONDS:
            if _closing.wait(settings.FEED_POLL_SECONDS):
                return
            try:
                found = poll(scope, after)
            except DatabaseError:
                return  # the browser reconnects and resumes from its last id
            if not found.allowed:
                return
            after = found.after
            now = time.monotonic()
            if found.parts:
                yield "".join(found.parts)
                last_write = now
            elif now - last_write >= settings.FEED_KEEPALIVE_SECONDS:
                yield KEEP_ALIVE
                last_write = now
    finally:
        # Django closes the connection when the server closes the response.
        _count(-1)
        slots.release()


KEEP_ALIVE = ": keep-alive\n\n"


def _headers(response: HttpResponse | StreamingHttpResponse) -> Any:
    response["Cache-Control"] = "no-cache"
    # A proxy in front (nginx) must pass each event on as it comes.
    response["X-Accel-Buffering"] = "no"
    return response


AFTER = OpenApiParameter(
    "after",
    int,
    description="Feed position to resume after (a browser sends Last-Event-ID).",
)


class FeedMessage(serializers.Serializer):
    """One Server-Sent Event of a feed, as an EventSource reads it."""

    id = serializers.CharField(help_text="The event's feed position.")
    event = serializers.ChoiceField(
        choices=["message", "head"],
        required=False,
        help_text="`message` (the default): an event; `head`: no event, the feed"
        " position the follower has read up to.",
    )
    data = serializers.CharField(
        help_text="The event as JSON: position, stream_type, stream_id, version,"
        " event_type, schema_version, recorded_at, payload (what the public pages"
        " show of it), and a game's context on its first event."
    )


STREAM_RESPONSE = {
    (200, CONTENT_TYPE): OpenApiResponse(
        FeedMessage,
        description="Server-Sent Events in commit order; resume with Last-Event-ID.",
    )
}


class FeedApi(APIView):
    """The base of a feed endpoint: anyone who may read the scope follows it."""

    permission_classes = (AllowAny,)
    renderer_classes = (JSONRenderer, EventStreamRenderer)

    def stream(self, request: Request, scope: FeedScope) -> Any:
        after = resume_position(request)
        head = feed_head()
        if after > head:
            field_name = (
                "Last-Event-ID" if "Last-Event-ID" in request.headers else "after"
            )
            raise ValidationError(
                {field_name: [f"Past the feed's head ({head}): no such position yet."]}
            )
        return event_stream(request, scope, after)


def reader_key(request: Request) -> tuple[object, ...]:
    """Who reads, for ``FeedScope.key``: the account (or anonymous) and the share
    link it came with."""
    return (request.user.pk, request.query_params.get("share", ""))


class GameFeedApi(FeedApi):
    """Every event of a game as it commits: follow a game being recorded."""

    @extend_schema(
        operation_id="games_feed", parameters=[AFTER], responses=STREAM_RESPONSE
    )
    def get(self, request: Request, game_id: uuid.UUID) -> Any:
        from games.apis import get_game

        game = get_game(request, game_id)
        return self.stream(
            request,
            FeedScope(
                read=lambda after: read_feed(
                    after=after, stream_ids=[game.pk], limit=PAGE
                ),
                check=lambda: get_game(request, game_id),
                pages={"events": reverse("api-game-events", args=[game.pk])},
                key=("game", game.pk, *reader_key(request)),
            ),
        )
