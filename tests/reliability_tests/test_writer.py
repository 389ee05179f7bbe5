"""Writes in a process of their own (config/writer.py): a page worker hands every
unsafe request to the writer, so a director's result never waits for the page
threads; the next page shows it; what cannot be confirmed is not acknowledged.

Before, the site ran a write on the same bounded pool of threads as the pages
(games/feedserver.py): with every page thread busy, the result below waited until
one was free (here: never, the thread is held until the result is answered). The
timeouts are generous (60 s); they only detect that wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from axes.models import AccessAttempt
from django.core.wsgi import get_wsgi_application
from django.db import connections
from rest_framework.authtoken.models import Token

from games.feedserver import Site, site_application
from tests.reliability_tests.conftest import (
    PROJECT_DIR,
    http,
    make_tournament,
    subprocess_env,
)
from tests.reliability_tests.test_feed_server import production_server
from tournaments.core.aggregate import tournament_state

GENEROUS = 60
CLIENT = ("203.0.113.9", 40123)  # a documentation address (RFC 5737)


@pytest.fixture
def writer_socket(tmp_path: Path) -> Iterator[str]:
    """The writer process (``python -m config.writer``) on the test database;
    yields its socket once it answers (it appears after the writer's warm-up)."""
    path = str(tmp_path / "writer.sock")
    process = subprocess.Popen(
        [sys.executable, "-m", "config.writer", path],
        cwd=PROJECT_DIR,
        env=subprocess_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + GENEROUS
        while not os.path.exists(path):
            assert process.poll() is None, process.stderr.read().decode()
            assert time.monotonic() < deadline, "the writer did not start"
            time.sleep(0.1)
        yield path
    finally:
        process.terminate()
        process.wait(timeout=GENEROUS)


def request(
    site: Site,
    method: str,
    path: str,
    *,
    payload: object = None,
    token: str | None = None,
) -> tuple[int, bytes]:
    """One request through the ASGI application, from CLIENT: (status, body)."""
    body = b"" if payload is None else json.dumps(payload).encode()
    headers = [(b"host", b"localhost"), (b"content-length", str(len(body)).encode())]
    if payload is not None:
        headers.append((b"content-type", b"application/json"))
    if token is not None:
        headers.append((b"authorization", f"Token {token}".encode()))
    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": headers,
        "client": CLIENT,
        "server": ("localhost", 80),
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[dict] = []

    async def receive() -> dict:
        if messages:
            return messages.pop(0)
        await asyncio.Event().wait()  # the client neither sends nor hangs up
        raise AssertionError("unreachable")

    async def send(message: dict) -> None:
        sent.append(message)

    async def run() -> None:
        await asyncio.wait_for(site(scope, receive, send), GENEROUS)

    asyncio.run(run())
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


@pytest.fixture
def site_of() -> Iterator:
    """Sites with one page thread (closed afterwards with their connections)."""
    made: list[Site] = []

    def make(writer: str) -> Site:
        site = site_application(get_wsgi_application(), threads=1, writer_socket=writer)
        made.append(site)
        return site

    yield make
    for site in made:
        site.executor.submit(connections.close_all).result(timeout=GENEROUS)
        site.executor.shutdown()


def a_result(tournament_id, ids) -> tuple[str, dict]:
    return f"/api/tournaments/{tournament_id}/results", {
        "round": 1,
        "player_a": ids[0],
        "player_b": ids[1],
        "score_a": 410,
        "score_b": 380,
    }


def standings_wins(site: Site, tournament_id, player_id: str) -> int:
    status, body = request(
        site, "GET", f"/api/tournaments/{tournament_id}/standings?division=A"
    )
    assert status == 200, body
    rows = json.loads(body)["standings"]
    return next(row["wins"] for row in rows if row["player"] == player_id)


@pytest.mark.django_db(transaction=True)
def test_a_result_is_entered_while_every_page_thread_is_busy(
    director, writer_socket, site_of
):
    tournament_id, ids = make_tournament(director)
    token = Token.objects.create(user=director).key
    site = site_of(writer_socket)
    # This process's state of the tournament, at the version before the result.
    version_before, _ = tournament_state(tournament_id)
    assert standings_wins(site, tournament_id, ids[0]) == 0

    release = threading.Event()
    site.executor.submit(release.wait, GENEROUS)  # the one page thread, held
    try:
        path, payload = a_result(tournament_id, ids)
        status, body = request(site, "POST", path, payload=payload, token=token)
    finally:
        release.set()
    assert status == 201, body

    # Read your writes: the page worker's next page shows it, though the write
    # was made by another process and this one's state was older.
    assert standings_wins(site, tournament_id, ids[0]) == 1
    assert tournament_state(tournament_id)[0] == version_before + 1


@pytest.mark.django_db(transaction=True)
def test_the_writer_sees_the_client_the_worker_saw(director, writer_socket, site_of):
    # The sign-in throttle counts failures per (username, address): a failure
    # handed to the writer is counted for the client's address, not the socket's.
    site = site_of(writer_socket)
    status, _ = request(
        site,
        "POST",
        "/api/auth/token",
        payload={"username": "mara", "password": "guess"},
    )
    assert status == 400
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [
        CLIENT[0]
    ]


@pytest.mark.django_db(transaction=True)
def test_a_worker_writes_itself_when_the_writer_cannot_be_reached(
    director, tmp_path, site_of
):
    tournament_id, ids = make_tournament(director)
    token = Token.objects.create(user=director).key
    site = site_of(str(tmp_path / "no-writer.sock"))
    path, payload = a_result(tournament_id, ids)
    status, body = request(site, "POST", path, payload=payload, token=token)
    assert status == 201, body
    assert standings_wins(site, tournament_id, ids[0]) == 1


@pytest.mark.django_db(transaction=True)
def test_a_write_the_writer_did_not_answer_is_not_acknowledged(
    director, tmp_path, site_of
):
    # A writer that takes the request and goes away (killed, restarted): the
    # write may or may not have been made, so it is not acknowledged (503, try
    # again: the rules refuse a result recorded twice).
    tournament_id, ids = make_tournament(director)
    token = Token.objects.create(user=director).key
    path_to_socket = str(tmp_path / "dying.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path_to_socket)
    listener.listen()

    def take_and_die() -> None:
        connection, _ = listener.accept()
        connection.recv(65536)
        connection.close()

    dying = threading.Thread(target=take_and_die, daemon=True)
    dying.start()
    site = site_of(path_to_socket)
    path, payload = a_result(tournament_id, ids)
    status, _ = request(site, "POST", path, payload=payload, token=token)
    dying.join(GENEROUS)
    listener.close()
    assert status == 503
    assert standings_wins(site, tournament_id, ids[0]) == 0


@pytest.mark.django_db(transaction=True)
def test_the_production_server_writes_by_its_writer(director):
    # gunicorn as configured starts the writer (a child of its master) and stops
    # it with the server: a result entered is acknowledged, then shown on the next
    # page.
    tournament_id, ids = make_tournament(director)
    token = Token.objects.create(user=director).key
    path, payload = a_result(tournament_id, ids)
    with production_server() as url:
        writers = writers_of(url)
        assert len(writers) == 1
        # Reachable once warmed up (until then the worker writes itself).
        socket_path = writers[0].cmdline()[-1]
        deadline = time.monotonic() + GENEROUS
        while not os.path.exists(socket_path):
            assert time.monotonic() < deadline, "the writer did not start"
            time.sleep(0.1)
        status, _, body = http(
            url + path,
            data=json.dumps(payload).encode(),
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Token {token}",
            },
        )
        assert status == 201, body
        status, _, body = http(
            f"{url}/api/tournaments/{tournament_id}/standings?division=A"
        )
    assert status == 200
    rows = json.loads(body)["standings"]
    assert next(r["wins"] for r in rows if r["player"] == ids[0]) == 1
    assert not writers[0].is_running()


def writers_of(url: str) -> list[psutil.Process]:
    """The writer processes whose parent is the gunicorn serving `url`."""
    bind = "--bind=" + url.removeprefix("http://")
    found = []
    for process in psutil.process_iter(["cmdline"]):
        with contextlib.suppress(psutil.Error):
            parent = process.parent()
            if (
                "config.writer" in (process.info["cmdline"] or [])
                and parent is not None
                and bind in parent.cmdline()
            ):
                found.append(process)
    return found
