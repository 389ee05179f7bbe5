"""Shared fixtures. Pure rules tests use none of these and touch no database."""

from __future__ import annotations

from pathlib import Path

import pytest

# ../shared beside the project root holds real games; tests read them in place.
SHARED_DIR = Path(__file__).resolve().parents[2] / "shared"


def pytest_report_header() -> str:
    """Which rules core the run tests (README, "The compiled rules core")."""
    import rules
    from rules import compiled

    if rules.COMPILED:
        return "rules: the compiled modules (mypyc)"
    reason = "RULES_PURE" if compiled.pure_requested() else compiled.stale_reason()
    return f"rules: the Python sources ({reason})"


@pytest.fixture(scope="session")
def shared_gcg_dir() -> Path:
    """The folder of real GCG games (never copied into the project)."""
    path = SHARED_DIR / "gcg"
    assert path.is_dir(), f"{path} is missing: ../shared must sit beside the project"
    return path


@pytest.fixture(scope="session", autouse=True)
def _flush_may_truncate_the_event_log(request: pytest.FixtureRequest):
    """Let test teardown flush the append-only log (tests only).

    Transactional tests (live server, real concurrent connections) are cleaned up by
    Django's flush, which TRUNCATEs every table; the event log's trigger refuses that,
    as it must in production. Within the flush's own transaction only, replica mode
    (superuser only) skips the trigger so the throwaway test database can be reset.
    """
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        statements = original(
            self,
            style,
            tables,
            reset_sequences=reset_sequences,
            allow_cascade=allow_cascade,
        )
        if statements:
            statements = ["SET LOCAL session_replication_role = replica", *statements]
        return statements

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = original


@pytest.fixture(scope="session", autouse=True)
def _signed_in_users_may_create_tournaments():
    """The suite's users create tournaments, as any signed-in user may where the
    site allows it (TOURNAMENT_CREATORS=users); by default only staff may, which
    tests/reliability_tests/test_quotas.py checks with the setting put back."""
    from django.conf import settings

    previous = settings.TOURNAMENT_CREATORS
    settings.TOURNAMENT_CREATORS = "users"
    yield
    settings.TOURNAMENT_CREATORS = previous


@pytest.fixture
def feed_at_once(db):
    """Number events for the feed as they are inserted, not at commit.

    The feed's trigger is deferred to COMMIT (games/eventstore/feed.py), and a
    test's transaction is rolled back, never committed: without this its events
    would never reach the feed. One test, one connection: the order is the same.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS event_feed_number IMMEDIATE")


@pytest.fixture(autouse=True)
def _issued_files_remembered_per_test():
    """Each test starts with no signatures remembered by this process.

    The register remembers, per process, the bodies it has recorded (the
    poller's hot path); a test database is emptied between tests while the
    process lives on, and the same deterministic event gives the same bytes, so a
    body remembered from an earlier test would not be recorded again.
    """
    from tournaments.issued import registry

    registry._SIGNED.clear()
    registry._BY_TAG.clear()
