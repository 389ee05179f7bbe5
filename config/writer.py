"""Writes in a process of their own: the page workers hand every unsafe request (a
result entered, a pairing, a sign-in) to one writer process over a Unix socket.

    python -m config.writer SOCKET_PATH    # started by config/gunicorn.conf.py

Why: a director's result entry under 50 readers had a p95 of 240-930 ms (issue 33;
bench/RESULTS.md, "Issue 25"). Its request queued in the worker's page pool behind
the readers' pages, and then its ten statements each gave up the GIL and queued
again behind the page renders, while it held the tournament's lock. In the writer
no page is rendered: its threads are the writes only, so the lock's holder gets
the GIL back as soon as PostgreSQL answers, and the operating system runs the
writer as soon as it wakes (it sleeps most of the time, so the scheduler favours
it over the busy page workers).

What holds:

- read-your-writes: the writer answers after its transaction commits; the next page
  a worker renders reads PostgreSQL (the tournament's version, then its cached
  state caught up to it), so it shows the write. The response's headers (the
  session, the replicas' ``read_after`` cookie) go back as the writer made them.
- nothing acknowledged is lost: a write is acknowledged by the writer after its
  commit, as before. A worker that cannot reach the writer (not started, stopped,
  restarting) runs the write itself, as without a writer; a worker whose writer
  went away after taking the request answers 503 (not acknowledged: the client
  tries again, and the rules refuse a duplicate result).
- ``./run.sh`` (``manage.py serve``: one process) has no writer; its writes run on
  its page threads as before. ``WEB_WRITER=0`` turns the writer off under gunicorn.

The protocol is the request's WSGI environ (its text values: method, path, query,
headers, client address) and body, and the response's status, headers and body,
each a length-prefixed frame. The socket is in a directory only this user may
enter (``tempfile.mkdtemp``), so only this user's processes can reach it; the
writer trusts the environ it receives as gunicorn's workers trust their sockets.
A large upload (over ``FORWARD_MAX_BYTES``) stays in its worker: an import is not
a director's quick write, and need not travel twice.
"""

from __future__ import annotations

import asyncio
import gc
import io
import json
import logging
import os
import socket
import socketserver
import struct
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Bodies past this size are handled by the worker that received them (uploads).
FORWARD_MAX_BYTES = 4 * 1024 * 1024
# Connections a worker keeps to the writer (its concurrent writes; more wait).
CONNECTIONS_PER_WORKER = 4
_LENGTH = struct.Struct(">Q")


def _frame(payload: bytes) -> bytes:
    return _LENGTH.pack(len(payload)) + payload


# --- the worker's side ---------------------------------------------------------


class WriterUnavailable(Exception):
    """The writer could not be reached before the request was sent."""


class WriterClient:
    """A page worker's connections to the writer (one event loop's)."""

    def __init__(self, path: str, connections: int = CONNECTIONS_PER_WORKER) -> None:
        self.path = path
        self.connections = connections
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self._slots: asyncio.Semaphore | None = None

    @staticmethod
    def forwards(scope: Scope) -> bool:
        """Whether this request is a write the writer takes."""
        return scope["type"] == "http" and scope["method"] not in SAFE_METHODS

    async def handle(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        in_worker: Callable[[Scope, Receive, Send], Awaitable[None]],
    ) -> None:
        """Answer the write by the writer, or by `in_worker` (the worker's own
        page pool) when the writer cannot be reached or the body is large."""
        body, complete = await _read_body(receive, FORWARD_MAX_BYTES)
        if not complete:
            await in_worker(scope, _replay(body, receive, more=True), send)
            return
        try:
            status, headers, content = await self.forward(_environ(scope), body)
        except WriterUnavailable:
            logger.warning("the writer at %s is not answering: writing here", self.path)
            await in_worker(scope, _replay(body, receive, more=False), send)
            return
        except (OSError, asyncio.IncompleteReadError, ValueError):
            # Sent, but no answer: the write may or may not have committed, and it
            # is not acknowledged; the client tries again.
            logger.exception("the writer went away during a write")
            status, headers, content = (
                503,
                [(b"content-type", b"text/plain"), (b"retry-after", b"1")],
                b"The server restarted during this request: try again.",
            )
        await send(
            {"type": "http.response.start", "status": status, "headers": headers}
        )
        await send({"type": "http.response.body", "body": content})

    async def forward(
        self, environ: dict[str, str], body: bytes
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """Send one request to the writer and wait for its answer."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.connections)
        async with self._slots:
            reader, writer = await self._connection()
            try:
                writer.write(_frame(json.dumps(environ).encode()) + _frame(body))
                await writer.drain()
                head = json.loads(await _read_frame(reader))
                content = await _read_frame(reader)
            except BaseException:
                writer.close()
                raise
            self._idle.append((reader, writer))
        headers = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in head["headers"]
        ]
        return int(head["status"]), headers, content

    async def _connection(
        self,
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        while self._idle:
            reader, writer = self._idle.pop()
            # The writer closed it meanwhile (restarted): the read side shows it.
            if not reader.at_eof() and not writer.is_closing():
                return reader, writer
            writer.close()
        try:
            return await asyncio.open_unix_connection(self.path, limit=2**20)
        except OSError as error:
            raise WriterUnavailable(str(error)) from error


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool]:
    """The request's body, and whether it is whole (False: it passed `limit`,
    and what was read so far is returned)."""
    chunks: list[bytes] = []
    size = 0
    more = True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        more = message.get("more_body", False)
        if more and size > limit:
            return b"".join(chunks), False
    return b"".join(chunks), True


def _replay(body: bytes, receive: Receive, *, more: bool) -> Receive:
    """A receive that gives `body` first (`more`: the client sends more of it),
    then whatever the client still sends (its hang-up)."""
    given = False

    async def replayed() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return replayed


def _environ(scope: Scope) -> dict[str, str]:
    """The WSGI environ's text values for `scope` (a2wsgi's, as the page pool
    builds it; the input and error streams are the writer's own)."""
    from a2wsgi.wsgi import build_environ

    environ = build_environ(scope, None)  # type: ignore[arg-type]
    return {key: value for key, value in environ.items() if isinstance(value, str)}


async def _read_frame(reader: asyncio.StreamReader) -> bytes:
    (length,) = _LENGTH.unpack(await reader.readexactly(_LENGTH.size))
    return await reader.readexactly(length)


# --- the writer's side ---------------------------------------------------------


def _recv_exactly(sock: socket.socket, size: int) -> bytes | None:
    """`size` bytes, or None at a clean end of the connection before any."""
    buffer = bytearray()
    while len(buffer) < size:
        chunk = sock.recv(size - len(buffer))
        if not chunk:
            if buffer:
                raise ConnectionError("the connection ended inside a frame")
            return None
        buffer += chunk
    return bytes(buffer)


def _recv_frame(sock: socket.socket) -> bytes | None:
    head = _recv_exactly(sock, _LENGTH.size)
    if head is None:
        return None
    (length,) = _LENGTH.unpack(head)
    payload = _recv_exactly(sock, length) if length else b""
    if payload is None:
        raise ConnectionError("the connection ended inside a frame")
    return payload


def run_request(
    application: Callable[..., Any], environ: dict[str, Any], body: bytes
) -> tuple[int, list[tuple[str, str]], bytes]:
    """One request through the WSGI `application`: status, headers, body."""
    environ = {
        **environ,
        "wsgi.version": (1, 0),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    started: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> Any:
        started[:] = [status, headers]
        return lambda chunk: None

    response = application(environ, start_response)
    try:
        content = b"".join(response)
    finally:
        if hasattr(response, "close"):
            response.close()
    status, headers = started
    return int(status.split(" ", 1)[0]), list(headers), content


class _Handler(socketserver.BaseRequestHandler):
    """One worker's connection: its requests, one after the other."""

    server: WriterServer

    def handle(self) -> None:
        sock: socket.socket = self.request
        while True:
            environ_frame = _recv_frame(sock)
            if environ_frame is None:
                return
            body = _recv_frame(sock)
            if body is None:
                return
            status, headers, content = run_request(
                self.server.application, json.loads(environ_frame), body
            )
            head = json.dumps({"status": status, "headers": headers}).encode()
            sock.sendall(_frame(head) + _frame(content))


class WriterServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    """The writer: a thread per worker connection (at most
    ``CONNECTIONS_PER_WORKER`` a worker), each running Django's WSGI application."""

    daemon_threads = True

    def __init__(self, path: str, application: Callable[..., Any]) -> None:
        self.application = application
        if os.path.exists(path):
            os.unlink(path)  # a writer's socket left by one that was killed
        super().__init__(path, _Handler)


def _exit_with_parent(parent: int) -> None:
    """End this process when gunicorn's master (its parent) is gone, however it
    ended: the writer must not outlive the server."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def main(argv: list[str]) -> int:
    import signal

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
    from games.eventstore.warmup import warm_recent_streams

    path = argv[0]
    server = WriterServer(path + ".new", application)
    threading.Thread(
        target=_exit_with_parent, args=(os.getppid(),), daemon=True
    ).start()
    # As a gunicorn worker does (config/gunicorn.conf.py, post_worker_init): the
    # tournaments being played are in memory before the first write, and out of
    # the collector's sight.
    warm_recent_streams("tournament")
    # Every view imported now (Django imports them on its first request: 1.4 s on
    # a busy machine, which the first directors' results waited for).
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018  (the import is the point)
    gc.freeze()
    # Reachable only now: until then the workers write themselves.
    os.replace(path + ".new", path)

    def stop(*_: object) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.serve_forever(poll_interval=0.5)
    finally:
        server.server_close()
        if os.path.exists(path):
            os.unlink(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
