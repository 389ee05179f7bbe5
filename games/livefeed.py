"""Push committed events to followers as Server-Sent Events, resumable by position.

A follower (a display page, a game page, a streamer's script) opens an
``EventSource`` on a feed URL; each event arrives as ``id: <feed position>`` and
a JSON ``data:`` line, in commit order (``games.eventstore.feed``). After a
disconnect the browser sends the last id back (``Last-Event-ID``; ``?after=`` does
the same for other clients) and the stream resumes right after it: nothing is
missed, nothing is sent twice. Named ``head`` events carry no data the page needs:
they move the follower's id past events outside its scope.

Why Server-Sent Events and not websockets through Django Channels: the feed only
ever flows from the server to the follower, the browser's ``EventSource`` already
reconnects and resumes by id, and it runs on the WSGI stack the project serves with
(gunicorn's threads), where Channels would need an ASGI server and a channel layer
beside it.

Why short polling of the committed feed position and not LISTEN/NOTIFY: a poll is
one index range scan over the events committed since the follower's position, and
the position it reads is the very cursor that makes resuming exact; a NOTIFY
listener needs a connection of its own per process, misses what is sent while it
reconnects, and does not pass through a transaction-pooling proxy. Polling every
``FEED_POLL_SECONDS`` (0.5 s) keeps a display within the two seconds it promises.

Threads: under gunicorn each open stream holds one of its worker's threads. A
worker holds at most ``FEED_STREAMS`` streams at once (default: half its threads),
each for ``FEED_HOLD_SECONDS`` before it closes and the browser reconnects (so
streams move between workers). A follower beyond that is answered at once with
what is new and a ``retry`` of ``FEED_RETRY_MS``: its browser asks again a second
later, and the worker's other threads stay free for pages.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from games import feed_documents
from games.eventstore.feed import FeedEvent, FeedPage, read_feed

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
    # Imported here: the rest of this module is being rewritten on another branch.
    from rules.numbers import NumberError, whole_number

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


# Pages one catch-up sends at most: a follower far behind gets the rest on the next
# poll, and a thread never builds an unbounded answer.
CATCH_UP_PAGES = 5


def _catch_up(read: Callable[[int], FeedPage], after: int) -> tuple[list[str], int]:
    """What is new after `after` (a few pages at most), as messages, and the new
    position."""
    parts: list[str] = []
    for _ in range(CATCH_UP_PAGES):
        page = read(after)
        parts.extend(_message(item) for item in page.events)
        if page.head > after and not page.events:
            parts.append(_head(page.head))
        after = page.head
        if not page.full:
            break
    return parts, after


def event_stream(read: Callable[[int], FeedPage], after: int) -> HttpResponse:
    """The feed after `after` as Server-Sent Events: a held stream when this
    process has a free slot, else what is new now and a retry."""
    slots = _stream_slots()
    if not slots.acquire(blocking=False):
        parts, _ = _catch_up(read, after)
        return _headers(HttpResponse("".join([_retry(), *parts]), CONTENT_TYPE))
    try:
        parts, after = _catch_up(read, after)
    except BaseException:
        slots.release()
        raise
    response = StreamingHttpResponse(_held(read, after, parts, slots), CONTENT_TYPE)
    return _headers(response)


def _held(
    read: Callable[[int], FeedPage],
    after: int,
    first: list[str],
    slots: threading.BoundedSemaphore,
) -> Iterator[str]:
    """Send what is new every poll, a comment when idle (a closed connection is
    noticed on the next write), and close after the hold time."""
    _count(1)
    try:
        yield _retry() + "".join(first)
        started = last_write = time.monotonic()
        while time.monotonic() - started < settings.FEED_HOLD_SECONDS:
            if _closing.wait(settings.FEED_POLL_SECONDS):
                return
            try:
                parts, after = _catch_up(read, after)
            except DatabaseError:
                return  # the browser reconnects and resumes from its last id
            now = time.monotonic()
            if parts:
                yield "".join(parts)
                last_write = now
            elif now - last_write >= settings.FEED_KEEPALIVE_SECONDS:
                yield ": keep-alive\n\n"
                last_write = now
    finally:
        # Django closes the connection when the server closes the response.
        _count(-1)
        slots.release()


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

    def stream(self, request: Request, read: Callable[[int], FeedPage]) -> Any:
        return event_stream(read, resume_position(request))


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
            lambda after: read_feed(after=after, stream_ids=[game.pk], limit=PAGE),
        )
