"""The live feed on the production server (gunicorn, config/gunicorn.conf.py, one
worker): clients that never read cost the pages nothing, and an open stream ends
when its tournament is unpublished.

Before (gunicorn's gthread worker, each stream written with a blocking send on a
worker thread) the 64 connections below held every thread and the page request
waited forever; the timeouts here are generous (60 s), the old server never
answered at all.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from http.client import HTTPConnection, HTTPResponse
from urllib.parse import urlsplit

import pytest

from games import services as game_services
from games.eventstore.feed import feed_head
from games.eventstore.store import append
from games.eventstore.streams import StreamKey
from rules import events as ev
from tests.reliability_tests.conftest import (
    PROJECT_DIR,
    free_port,
    http,
    subprocess_env,
)
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services

# Past any answer the new server gives (milliseconds to seconds on a busy
# machine); the old one never answered.
GENEROUS = 60
NOTE = "n" * 1000  # a kilobyte a note: a page of them is more than a socket holds


@contextmanager
def production_server(**env: str) -> Iterator[str]:
    """gunicorn as production runs it (config/gunicorn.conf.py), one worker, on the
    test database; yields its URL once it answers."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            str(PROJECT_DIR / "config" / "gunicorn.conf.py"),
            f"--bind=127.0.0.1:{port}",
        ],
        cwd=PROJECT_DIR,
        env=subprocess_env(WEB_CONCURRENCY="1", **env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + GENEROUS
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/health", timeout=5)
                break
            except urllib.error.HTTPError:
                break
            # TimeoutError: the worker accepted but is still warming up (busy host).
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert process.poll() is None, process.stderr.read().decode()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=GENEROUS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def never_reading(url: str, path: str, last_id: int | None = None) -> socket.socket:
    """A connection that asks for a feed and never reads a byte of the answer."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=GENEROUS)
    # A small receive window: the server's send blocks sooner, as behind a slow link.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    resume = f"Last-Event-ID: {last_id}\r\n" if last_id is not None else ""
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        f"Accept: text/event-stream\r\n{resume}\r\n".encode()
    )
    return sock


@pytest.fixture
def noted_game(director):
    """A public game whose feed holds 450 notes of a kilobyte after its first move
    (under the cap of notes a game may hold, games.quotas)."""
    game = game_services.game_start(
        user=director,
        players=["Ben", "Ann"],
        racks=["DINNVWY", "ADEEGIL"],
        visibility=ev.Visibility.PUBLIC,
    )
    placed = game_services.game_place(
        game_id=game.stream.id, position="8D", word="WINDY", user=director
    )
    append(
        StreamKey("game", game.stream.id),
        [ev.NoteAdded(target_version=placed.version, text=NOTE)] * 450,
        expected_version=placed.version,
        recorded_by=director,
    )
    return game.stream.id


@pytest.mark.django_db(transaction=True)
def test_64_feed_connections_that_never_read_leave_the_pages_answering(noted_game):
    head = feed_head()
    path = f"/api/games/{noted_game}/feed"
    with production_server() as url, ExitStack() as stack:
        for n in range(64):
            # Half catch up from the start, half resume 150 notes (150 kB) back:
            # an answer no socket buffer holds.
            last_id = None if n % 2 else head - 150
            stack.callback(never_reading(url, path, last_id).close)
        # Another client's page and API read, answered while all 64 are open.
        started = time.monotonic()
        status, _, body = http(f"{url}/games/{noted_game}/")
        assert status == 200
        assert b"WINDY" in body
        status, _, _ = http(f"{url}/api/games/{noted_game}/")
        assert status == 200
        assert time.monotonic() - started < GENEROUS
        print("FIGURES pages answered in", time.monotonic() - started)
        # And a follower that reads still gets its events.
        assert _read_until(url, f"{path}?after={head - 3}", b"id: %d" % head)


def _read_until(url: str, path: str, wanted: bytes) -> bytes:
    """A reading follower's stream up to the line `wanted`."""
    parts = urlsplit(url)
    conn = HTTPConnection(parts.hostname, parts.port, timeout=GENEROUS)
    try:
        conn.request("GET", path, headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        assert response.status == 200
        seen = b""
        while not seen.endswith(wanted + b"\n"):
            line = response.readline()
            assert line, f"the stream ended before {wanted!r}"
            seen += line
        return seen
    finally:
        conn.close()


@pytest.mark.django_db(transaction=True)
def test_an_open_stream_sends_what_commits_and_ends_when_unpublished(director):
    created = setup_services.tournament_create(
        user=director,
        name="Riverside Open",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=3,
        published=True,
    )
    tid = created.stream.id
    # Held far longer than the test waits: only the unpublishing can end it.
    with production_server(FEED_HOLD_SECONDS="600") as url:
        parts = urlsplit(url)
        conn = HTTPConnection(parts.hostname, parts.port, timeout=GENEROUS)
        conn.request(
            "GET",
            f"/api/tournaments/{tid}/feed",
            headers={"Accept": "text/event-stream"},
        )
        response = conn.getresponse()
        assert response.status == 200
        _until_blank(response)
        # Live: an event committed now arrives on the open stream.
        players_services.players_register(
            tournament_id=tid, division="A", entries=[("Ann", 1500, "")], user=director
        )
        wanted = b"id: %d\n" % feed_head()
        deadline = time.monotonic() + GENEROUS
        while (line := response.readline()) != wanted:
            assert line, "the stream ended before the new event"
            assert time.monotonic() < deadline, "the new event did not arrive"
        setup_services.tournament_publish(
            tournament_id=tid, published=False, user=director
        )
        # The rest of the stream, to its end: nothing of the tournament after it
        # was unpublished (the PublicationChanged event included).
        rest = b""
        deadline = time.monotonic() + GENEROUS
        while line := response.readline():
            rest += line
            # Keep-alive comments would reset a socket's timeout: a deadline.
            assert time.monotonic() < deadline, "the stream was still open"
        assert b'"published":false' not in rest
        conn.close()
        status, _, _ = http(f"{url}/api/tournaments/{tid}/feed")
        assert status == 404


def _until_blank(response: HTTPResponse) -> bytes:
    """The lines of the stream up to the end of its first events."""
    seen = b""
    while b"tournament_created" not in seen:
        line = response.readline()
        assert line, "the stream ended before its first event"
        seen += line
    return seen
