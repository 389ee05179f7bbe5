"""A kept database connection is checked before each request uses it: one the server
closed is replaced without a failed request, and a sound one is kept without a
round trip (config.postgresql)."""

from __future__ import annotations

import select
import time

import psycopg
import pytest
from django.db import connection


def _terminate(backend_pid: int) -> None:
    """Close the backend from another connection, as a restart or an idle timeout
    would, and wait for the server's goodbye to reach our socket."""
    with psycopg.connect(
        **connection.get_connection_params(), autocommit=True
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [backend_pid])
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        readable, _, _ = select.select([connection.connection.fileno()], [], [], 0.05)
        if readable:
            return
    pytest.fail("the terminated connection's socket never became readable")


def _start_request() -> None:
    # What Django does when a request starts: the next use checks the connection.
    connection.health_check_done = False


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_server_closed_is_replaced_before_the_request_uses_it():
    assert connection.health_check_enabled
    connection.ensure_connection()
    old_pid = connection.connection.info.backend_pid
    _terminate(old_pid)
    _start_request()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (new_pid,) = cursor.fetchone()
    assert new_pid != old_pid


@pytest.mark.django_db(transaction=True)
def test_a_sound_connection_is_kept_without_a_round_trip(monkeypatch):
    assert connection.health_check_enabled
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    round_trips = []
    monkeypatch.setattr(connection, "is_usable", lambda: round_trips.append(1) or True)
    _start_request()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone() == (pid,)
    assert round_trips == []


@pytest.mark.django_db(transaction=True)
def test_a_connection_with_something_to_read_gets_the_full_check(monkeypatch):
    connection.ensure_connection()
    _terminate(connection.connection.info.backend_pid)
    checks = []
    original = connection.is_usable

    def counted() -> bool:
        checks.append(1)
        return original()

    monkeypatch.setattr(connection, "is_usable", counted)
    _start_request()
    connection.close_if_health_check_failed()
    assert checks == [1]
    assert connection.connection is None  # closed: the next use reconnects
