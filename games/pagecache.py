"""Signed-out pages answered on the event loop, before a2wsgi and Django, while
nothing they show has changed.

``games.readcache.cached_page`` keeps a signed-out page's body under the version
of what it shows, but finding that version is a query, and the request still
crosses a2wsgi's thread pool and Django's middleware: about 375 pages a second on
two cores. Here the ASGI layer keeps the whole response (status, every header
Django's middleware set, body) of each page ``cached_page`` served to a signed-out
reader, with the streams it depends on (the tournament's, a game's), and answers
the next signed-out GET of the same page from memory while none of those streams
has moved.

What moved is known without a query per request: one watcher a process
(``HeadWatcher``) reads which streams have new events since the feed position it
last saw (``games.eventstore.feed.feed_window``, a few hundred microseconds) every
``PAGE_HEAD_POLL_SECONDS`` on a thread of its own, so the page pool's queue never
delays it. Feed positions become visible in commit order, so every event
committed after a page was built is seen by a later window and drops the page.

Every access rule still holds:

- Only a page Django served in full to a signed-out reader through ``cached_page``
  is kept (its access rule passed; a 404, a redirect, a page that set a cookie
  is never kept), and only for a request Django would treat the same: a GET
  without a session or messages cookie, no ``Authorization`` and no htmx header;
  the key holds the host, the scheme, the path, the query string and every other
  cookie sent (the viewer's spoiler switch).
- Publishing, unpublishing, a game's visibility and its share link, the team,
  the rack delay and every result are events of the page's streams: the first
  window after such an event drops every page of those streams. A revocation
  reaches the pages answered here within ``PAGE_HEAD_MAX_AGE`` (the age of the
  watcher's last window, 1 s at most, the bound the read replicas already give,
  config/replicas.py), and at once in the process that wrote it: a write request
  (any method but GET, HEAD, OPTIONS) answered in this process turns the fast
  path off until a window read after it has come back.
- The rack rule shows a live game's racks as they stood a delay ago, which moves
  with the clock and not with the log: the game page marks such a page as not for
  keeping here (``note_page(..., keep=False)``), and Django decides each time.
- A watcher whose window failed or is older than ``PAGE_HEAD_MAX_AGE`` answers
  nothing: every request goes to Django as before. With read replicas configured
  the fast path is off (a page read on a replica may be older than the watcher's
  position on the primary).

Memory is bounded: at most ``PAGE_CACHE_BYTES`` of responses a process, the
least recently used dropped first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import close_old_connections
from django.http.cookie import parse_cookie

from games.eventstore.feed import feed_head, feed_window

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

# The scope's key for the note a page leaves for this layer (``note_page``).
NOTE = "scrabble.page_note"
# A window of the feed at most this many events long; a longer backlog is read in
# several windows before the watcher counts as current again.
WINDOW = 2000
# Streams remembered as changed; beyond it every kept page is dropped at once
# (the floor), which is cheaper than remembering more.
CHANGED_STREAMS = 20_000
logger = logging.getLogger(__name__)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass
class PageNote:
    """What ``cached_page`` tells this layer about the response it made: the
    streams the page shows (None: not for keeping here)."""

    streams: tuple[str, ...] | None = None


def note_page(request: Any, streams: Iterable[object], *, keep: bool = True) -> None:
    """Tell the ASGI layer (when there is one) that this signed-out response may be
    answered again while none of `streams` has a new event; ``keep=False``: it may
    not (it shows something that changes with the clock)."""
    scope = request.META.get("asgi.scope")
    note = scope.get(NOTE) if isinstance(scope, dict) else None
    if note is None:
        return
    if not keep:
        note.streams = None
        return
    note.streams = tuple(str(stream) for stream in streams)


@dataclass
class Page:
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    streams: tuple[str, ...]
    since: int  # the watcher's position before the page was read

    @property
    def size(self) -> int:
        return len(self.body) + sum(len(n) + len(v) for n, v in self.headers) + 256


Window = tuple[int, tuple[str, ...]]  # (head, the streams with events up to it)


@dataclass
class HeadWatcher:
    """Which streams moved since each feed position this process saw."""

    read_window: Callable[[int], Awaitable[Window]]
    position: int = -1  # -1: no window read yet
    floor: int = 0  # pages read before this position are dropped
    changed: dict[str, int] = field(default_factory=dict)
    fresh_at: float = 0.0  # monotonic time the last good window was asked for
    writes: int = 0  # write requests begun or answered in this process
    writes_seen: int = 0  # of them, those before the last good window was asked
    _wake: asyncio.Event | None = None
    _failing: bool = False
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def wrote(self) -> None:
        """A write request began or ended here: no page is answered from memory
        until a window asked for after it has come back."""
        self.writes += 1
        if self._wake is not None:
            self._wake.set()

    def current(self) -> bool:
        return (
            self.position >= 0
            and self.writes_seen == self.writes
            and time.monotonic() - self.fresh_at <= settings.PAGE_HEAD_MAX_AGE
        )

    def still_good(self, page: Page) -> bool:
        if page.since < self.floor:
            return False
        changed = self.changed
        return all(changed.get(stream, -1) <= page.since for stream in page.streams)

    async def poll_once(self) -> None:
        """Read windows until the backlog is read. A failure raises and leaves the
        watcher as it was: stale once its last window is too old."""
        asked, writes = time.monotonic(), self.writes
        while True:
            after = self.position
            head, streams = await self.read_window(after)
            if after < 0:
                # The first window is the head alone: no page was kept before it.
                self.floor = self.position = head
                break
            for stream in streams:
                self.changed[stream] = head
            if len(self.changed) > CHANGED_STREAMS:
                self.changed.clear()
                self.floor = head
            self.position = max(after, head)
            # A window holds at most WINDOW events, numbered in order: one that
            # spans fewer positions was not cut short.
            if head - after < WINDOW:
                break
        self.fresh_at, self.writes_seen = asked, writes

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            self._wake.clear()
            try:
                await self.poll_once()
            except Exception:  # the watcher outlives a lost database
                # Once per outage, not ten times a second.
                if not self._failing:
                    logger.warning("page cache: reading the feed failed", exc_info=True)
                self._failing = True
            else:
                self._failing = False
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a
            # cancellation that arrives as the event is set (a write sets it), and
            # the watcher would outlive its loop's shutdown.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(settings.PAGE_HEAD_POLL_SECONDS):
                    await self._wake.wait()


def read_window(after: int) -> Window:
    """The feed's head and the streams with events after `after` (run on the
    watcher's own thread, with its own connection)."""
    close_old_connections()
    if after < 0:
        return feed_head(), ()
    window = feed_window(after=after, size=WINDOW)
    return window.head, tuple(str(stream_id) for _, stream_id in window.streams)


class PageCache:
    """Signed-out pages as Django answered them, bounded in bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.pages: OrderedDict[tuple[object, ...], Page] = OrderedDict()
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="page-head")
        self.watcher = HeadWatcher(self._read_window)

    async def _read_window(self, after: int) -> Window:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, read_window, after)

    # --- requests ---------------------------------------------------------------

    async def __call__(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
    ) -> None:
        """Answer `scope` from memory, or through `app` (noting what it answers)."""
        watcher = self.watcher
        watcher.start()
        if scope["method"] not in SAFE_METHODS:
            watcher.wrote()
            try:
                await app(scope, receive, send)
            finally:
                watcher.wrote()
            return
        key = request_key(scope)
        if key is None:
            await app(scope, receive, send)
            return
        if watcher.current():
            page = self._find(key)
            if page is not None:
                await send(
                    {
                        "type": "http.response.start",
                        "status": page.status,
                        "headers": page.headers,
                    }
                )
                await send({"type": "http.response.body", "body": page.body})
                return
        await self._through(scope, receive, send, app, key)

    def _find(self, key: tuple[object, ...]) -> Page | None:
        page = self.pages.get(key)
        if page is None and key[-1]:
            # A tag that is not the page's: Django sends the page whole.
            whole = self.pages.get((*key[:-1], b""))
            if whole is not None and (b"etag", key[-1]) not in whole.headers:
                page = whole
        if page is None:
            return None
        if not self.watcher.still_good(page):
            self._drop(key)
            return None
        self.pages.move_to_end(key)
        return page

    async def _through(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
        key: tuple[object, ...],
    ) -> None:
        note = PageNote()
        since = self.watcher.position
        started: dict[str, Any] = {}
        body: list[bytes] = []

        async def noting(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                started.update(message)
            elif message["type"] == "http.response.body":
                body.append(message.get("body", b""))
                if not message.get("more_body", False):
                    self._keep(key, note, since, started, b"".join(body))
            await send(message)

        await app({**scope, NOTE: note}, receive, noting)

    def _keep(
        self,
        key: tuple[object, ...],
        note: PageNote,
        since: int,
        started: dict[str, Any],
        body: bytes,
    ) -> None:
        # A page with its streams, read after the watcher's first window; a whole
        # page only without a tag, a "not modified" only for its tag; no cookie.
        status = started.get("status")
        headers = list(started.get("headers", []))
        if (
            note.streams is None
            or since < 0
            or status != (304 if key[-1] else 200)
            or any(name.lower() == b"set-cookie" for name, _ in headers)
        ):
            return
        page = Page(status, headers, body, note.streams, since)
        if page.size > self.limit // 16 or not self.watcher.still_good(page):
            return
        self._drop(key)
        self.pages[key] = page
        self.size += page.size
        while self.size > self.limit:
            self._drop(next(iter(self.pages)))

    def _drop(self, key: tuple[object, ...]) -> None:
        page = self.pages.pop(key, None)
        if page is not None:
            self.size -= page.size


def request_key(scope: Scope) -> tuple[object, ...] | None:
    """The key of a request Django answers like every signed-out GET of its page,
    or None (signed in, a message pending, an API token, htmx, not a GET)."""
    if scope["method"] != "GET":
        return None
    host = forwarded = forwarded_host = cookie = tag = b""
    for name, value in scope["headers"]:
        if name == b"cookie":
            cookie = cookie + b"; " + value if cookie else value
        elif name == b"host":
            host = value
        elif name == b"if-none-match":
            tag = tag + b"," + value if tag else value
        elif name == b"x-forwarded-proto":
            forwarded = value
        elif name == b"x-forwarded-host":
            forwarded_host = value
        elif name in (b"authorization", b"hx-request"):
            return None
    cookies = parse_cookie(cookie.decode("latin-1")) if cookie else {}
    if settings.SESSION_COOKIE_NAME in cookies or CookieStorage.cookie_name in cookies:
        return None
    # Signed-out pages carry no CSRF token: its cookie changes nothing.
    cookies.pop(settings.CSRF_COOKIE_NAME, None)
    return (
        host,
        forwarded_host,
        scope.get("scheme", "http"),
        forwarded,
        scope["path"],
        scope["query_string"],
        tuple(sorted(cookies.items())),
        tag,
    )


def page_cache() -> PageCache | None:
    """This process's cache, or None when it is off (``PAGE_CACHE_MB=0``, or read
    replicas: a page read on one may be older than the watcher's position)."""
    if settings.PAGE_CACHE_BYTES <= 0 or settings.DATABASE_REPLICAS:
        return None
    return PageCache(settings.PAGE_CACHE_BYTES)
