"""The site as an ASGI application: the live feed on the event loop, every other
request in Django's WSGI application on a bounded pool of threads.

    application = site_application(get_wsgi_application(), threads=8)

Served by uvicorn: ``manage.py serve`` (what ``./run.sh`` runs) and, in
production, gunicorn with the uvicorn worker class (config/gunicorn.conf.py).

Why: under gunicorn's threaded workers each open feed stream held a thread and
wrote with a blocking send, so 32 connections that never read took every thread
of 2 workers x 8 and the site stopped answering (docs/RELIABILITY.md, "The live
feed"). Here a stream is a coroutine: uvicorn's flow control suspends it while
its client does not read (at most the transport's 64 KiB high-water mark and one
page of events are buffered for it), and it is cut once it has been held
``FEED_HOLD_SECONDS`` plus ``SEND_GRACE_SECONDS``, whether or not its client
reads.

Why not Django's own ASGI handler for everything: it runs each synchronous view
and middleware on a new thread per request (asgiref's thread-sensitive context),
so each request opens a database connection of its own, and an open stream keeps
the thread and connection of its request for as long as it is held. Pages,
result entry and the tournament's advisory lock are synchronous code written for
threads that keep their connection (``CONN_MAX_AGE``); ``a2wsgi`` runs them as
gunicorn's threads did, on ``WEB_THREADS`` threads a process, each with its
persistent connection.

Measured (``python bench/run.py --scale load --servers``, two runs; bench/RESULTS.md,
"The live feed on uvicorn"): with 50 readers of the HTML pages and 2 directors for
60 s on 2 workers, gunicorn's uvicorn worker served 325 and 335 pages/s against the
gthread worker's 323 and 360 in the same runs (0.93-1.01x; p50 13 ms against 6-7:
the event loop and a2wsgi's queue are in each page's path). With 64 feed
connections that never read, 278-320 pages/s, 0 errors and every acknowledged
result stored, where the gthread worker served 2-3 pages/s, each after about 20 s.

Signed-out GETs of pages first meet the page cache (games/pagecache.py): a page
whose streams have not moved since Django served it is answered on the event
loop, without the pool, Django or a query.

A feed request goes through Django too, on the same pool: the middleware, the
session or token, the access rule and the first page are decided there as for
any view (``games.livefeed``), and the view hands the stream over
(``HeldFeed``) instead of holding the thread. What follows runs here:

- one poller a process (``FeedHub``) reads the feed's head every
  ``FEED_POLL_SECONDS`` while streams are open, on the pool; a stream sleeps
  until the head moves (or the keep-alive is due), then polls its scope on the
  pool: the access rule again, then what is new (``livefeed.poll``);
- followers with the same scope, reader and position share one poll of a
  generation of the head (64 displays of a tournament: one read, not 64);
- at most ``FEED_STREAMS`` streams a process (the view answers beyond it at once
  with a retry), and a stream ends at its hold time, when its follower may no
  longer read, when its client hangs up, or when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import Body, build_environ
from django.conf import settings
from django.db import DatabaseError, close_old_connections

from config.writer import WriterClient
from games import livefeed
from games.eventstore.feed import feed_head
from games.pagecache import page_cache

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

# The two feed URLs (games/urls.py, tournaments/urls.py); everything else is a page.
FEED_PATH = re.compile(r"^/api/(?:tournaments|games)/[^/]+/feed$")
# How long past its hold time a stream whose client does not read may stay
# suspended in a send before its connection is cut.
SEND_GRACE_SECONDS = 10


def _in_thread(function: Callable[..., Any], *args: Any) -> Any:
    # A pool thread outside a request: drop a connection that broke or aged out,
    # as Django does at the start of each request.
    close_old_connections()
    return function(*args)


class FeedHub:
    """The feed's head as one poller a process sees it, and the polls that
    streams with the same scope, reader and position share."""

    def __init__(self, run: Callable[..., Awaitable[Any]]) -> None:
        self.run = run
        self.head = -1
        self.generation = 0
        self.streams = 0
        self._moved = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._polls: dict[tuple[object, ...], asyncio.Future[livefeed.Poll]] = {}

    def opened(self) -> None:
        self.streams += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._watch())

    def closed(self) -> None:
        self.streams -= 1

    async def _watch(self) -> None:
        while self.streams > 0:
            try:
                head = await self.run(feed_head)
            except DatabaseError:
                head = self.head  # the streams' own polls end them
            self.generation += 1
            self._polls.clear()
            if head != self.head:
                self.head = head
                self._moved.set()
                self._moved = asyncio.Event()
            await asyncio.sleep(settings.FEED_POLL_SECONDS)

    async def wait(self, seen: int, timeout: float) -> None:
        """Until the head is no longer `seen`, or `timeout` seconds."""
        if self.head != seen:
            return
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a
        # cancellation that arrives as the event is set.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._moved.wait()

    async def poll(self, scope: livefeed.FeedScope, after: int) -> livefeed.Poll:
        """``livefeed.poll`` on the pool, once per scope, position and
        generation of the head."""
        key = (*scope.key, after, self.generation)
        shared = self._polls.get(key)
        if shared is None:
            shared = asyncio.ensure_future(self.run(livefeed.poll, scope, after))
            self._polls[key] = shared
        return await asyncio.shield(shared)


class Site:
    """The ASGI application: feed URLs followed here, the rest through a2wsgi."""

    def __init__(
        self,
        wsgi: Callable[..., Any],
        *,
        threads: int,
        writer: WriterClient | None = None,
    ) -> None:
        self.wsgi = wsgi
        # Unsafe requests go to the writer process (config/writer.py) when there
        # is one, never through the page pool.
        self.writer = writer
        self.pages = WSGIMiddleware(wsgi, workers=threads)  # type: ignore[arg-type]
        self.executor: Executor = self.pages.executor
        self._hub: FeedHub | None = None
        self._stopping: asyncio.Event | None = None
        # Signed-out pages answered here while their streams have not moved
        # (games/pagecache.py); None when off.
        self.page_cache = page_cache()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http" and FEED_PATH.match(scope["path"]):
            await self._feed(scope, receive, send)
        elif scope["type"] == "http" and self.page_cache is not None:
            # The page cache sees every request, writes too (it stops answering
            # from memory until the log has been read after them), and hands the
            # rest on: writes to the writer process, pages to the pool.
            await self.page_cache(scope, receive, send, self._django)
        else:
            await self._django(scope, receive, send)

    async def _django(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.writer is not None and self.writer.forwards(scope):
            await self.writer.handle(scope, receive, send, self.pages)  # type: ignore[arg-type]
        else:
            await self.pages(scope, receive, send)  # type: ignore[arg-type]

    async def _run(self, function: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.executor, functools.partial(_in_thread, function, *args)
        )

    def hub(self) -> FeedHub:
        if self._hub is None:
            self._hub = FeedHub(self._run)
        return self._hub

    def stopping(self) -> asyncio.Event:
        if self._stopping is None:
            self._stopping = asyncio.Event()
        return self._stopping

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.stopping().set()
                if self.page_cache is not None:
                    self.page_cache.watcher.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    # --- the feed ---------------------------------------------------------------

    async def _feed(self, scope: Scope, receive: Receive, send: Send) -> None:
        environ = build_environ(scope, Body(asyncio.get_running_loop(), receive))  # type: ignore[arg-type]
        environ[livefeed.ASGI_FEED] = True
        status, headers, body, held = await self._run(self._open, environ)
        await send(
            {"type": "http.response.start", "status": status, "headers": headers}
        )
        if held is None:
            await send({"type": "http.response.body", "body": body})
            return
        try:
            await self._follow(held, receive, send)
        finally:
            held.release()

    def _open(
        self, environ: dict[str, Any]
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes, livefeed.HeldFeed | None]:
        """Django's answer to the feed request (on a pool thread): the status,
        headers, and either a body or the stream to follow."""
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> Any:
            started[:] = [status, headers]
            return lambda chunk: None

        response = self.wsgi(environ, start_response)
        try:
            held = getattr(response, "held_feed", None)
            body = b"" if held is not None else b"".join(response)
        finally:
            # The request ends here (Django's request_finished: its connection
            # goes back as after any request), whatever the stream does next.
            response.close()
        status, headers = started
        return (
            int(status.split(" ", 1)[0]),
            [
                (name.lower().encode("latin-1"), value.encode("latin-1"))
                for name, value in headers
            ],
            body,
            held,
        )

    async def _follow(
        self, held: livefeed.HeldFeed, receive: Receive, send: Send
    ) -> None:
        """Stream until the hold time, a refusal, the client's hang-up or the
        server's stop; a client that stops reading is cut after the grace."""
        hub = self.hub()
        hub.opened()
        streaming = asyncio.ensure_future(self._stream(held, hub, send))
        hang_up = asyncio.ensure_future(_disconnect(receive))
        stop = asyncio.ensure_future(self.stopping().wait())
        try:
            await asyncio.wait(
                {streaming, hang_up, stop},
                timeout=settings.FEED_HOLD_SECONDS + SEND_GRACE_SECONDS,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            hub.closed()
            for task in (streaming, hang_up, stop):
                task.cancel()
        if (
            streaming.done()
            and not streaming.cancelled()
            and streaming.exception() is None
        ):
            return
        # Stopped, hung up, or stuck in a send: end the response; a client that
        # does not read is disconnected by the server when this returns.
        if not hang_up.done():
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(
                    send(
                        {"type": "http.response.body", "body": b"", "more_body": False}
                    ),
                    0.1,
                )

    async def _stream(self, held: livefeed.HeldFeed, hub: FeedHub, send: Send) -> None:
        async def write(text: str) -> None:
            await send(
                {"type": "http.response.body", "body": text.encode(), "more_body": True}
            )

        loop = asyncio.get_running_loop()
        await write(held.first)
        after, seen = held.after, hub.head
        advanced = False
        started = last_write = loop.time()
        while not livefeed._closing.is_set():
            left = settings.FEED_HOLD_SECONDS - (loop.time() - started)
            if left <= 0:
                break
            # Still short of the head the process has seen (a tournament's read
            # covers a window of the feed at a time): read on at once, as long as
            # each read moves the follower on.
            if not (advanced and after < hub.head):
                await hub.wait(seen, min(left, settings.FEED_KEEPALIVE_SECONDS))
            seen = hub.head
            try:
                found = await hub.poll(held.scope, after)
            except DatabaseError:
                break  # the browser reconnects and resumes from its last id
            if not found.allowed:
                break
            advanced, after = found.after > after, found.after
            now = loop.time()
            if found.parts:
                await write("".join(found.parts))
                last_write = now
            elif now - last_write >= settings.FEED_KEEPALIVE_SECONDS:
                await write(livefeed.KEEP_ALIVE)
                last_write = now
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def site_application(
    wsgi: Callable[..., Any], *, threads: int, writer_socket: str = ""
) -> Site:
    """The ASGI application serving `wsgi` (Django's) with the feed on the loop,
    and its writes by the writer process listening on `writer_socket` if any."""
    writer = WriterClient(writer_socket) if writer_socket else None
    return Site(wsgi, threads=threads, writer=writer)
