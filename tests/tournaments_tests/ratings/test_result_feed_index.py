"""The ratings feed's query is served by the event log's partial index.

The index names the feed's event types (``tournaments.core.events.RESULT_EVENT_TYPES``,
frozen in the store's migration 0002); PostgreSQL uses a partial index only when its
predicate covers the query's, so the two lists must agree.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.eventstore.store import read_all
from tournaments.core.events import RESULT_EVENT_TYPES


def _index_types() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_get_expr(indpred, indrelid) FROM pg_index "
            "WHERE indexrelid = 'event_log_result_feed'::regclass"
        )
        (predicate,) = cursor.fetchone()
    return set(re.findall(r"'(\w+)'", predicate))


@pytest.mark.django_db
def test_the_index_names_exactly_the_feeds_event_types():
    """Every type the feed reads is indexed, and nothing else (each indexed type
    costs its appends an index entry)."""
    assert _index_types() == set(RESULT_EVENT_TYPES)


@pytest.mark.django_db
def test_postgresql_plans_the_feeds_query_through_the_index():
    """On a log of mostly game events, EXPLAIN of the feed's own statement reads the
    partial index, not the whole log."""
    with connection.cursor() as cursor:
        # 20,000 game events around 60 followed ones (a log whose games are
        # recorded move by move), written directly: only the plan matters here.
        cursor.execute(
            """
            INSERT INTO event_log (stream_type, stream_id, version, event_type,
                                   schema_version, payload, metadata, recorded_at,
                                   chain_hash)
            SELECT CASE WHEN n %% 333 = 0 THEN 'tournament' ELSE 'game' END,
                   gen_random_uuid(), 1,
                   CASE WHEN n %% 333 = 0 THEN %s ELSE 'tiles_placed' END,
                   1, %s, '{}', now(), ''
            FROM generate_series(1, 20000) AS n
            """,
            ["publication_changed", '{"published": true}'],
        )
        cursor.execute("ANALYZE event_log")
    with CaptureQueriesContext(connection) as captured:
        events = list(
            read_all(stream_type_name="tournament", event_types=RESULT_EVENT_TYPES)
        )
    assert len(events) == 60
    (statement,) = [q["sql"] for q in captured if "event_log" in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {statement}")
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "event_log_result_feed" in plan, plan
