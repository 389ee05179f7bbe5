"""While PostgreSQL cannot be reached, pages and API calls answer 503 with
Retry-After, and no response shows the database's error text."""

from __future__ import annotations

import uuid

from tests.reliability_tests.conftest import gunicorn_server, http

# Nothing listens on port 1 of the loopback: every connection is refused at once.
NO_DATABASE = "postgresql://scrabble@127.0.0.1:1/scrabble"
# What psycopg's errors say, which must stay in the log.
LEAKS = (b"connection", b"refused", b"127.0.0.1", b"psycopg", b"Traceback")


def test_pages_and_the_api_answer_503_while_the_database_is_down():
    game = uuid.uuid4()
    with gunicorn_server(DATABASE_URL=NO_DATABASE) as url:
        answers = {
            path: http(f"{url}{path}")
            for path in (
                "/",
                "/tournaments/",
                f"/games/{game}/",
                f"/tournaments/{uuid.uuid4()}/",
                "/api/tournaments/",
                f"/api/games/{game}",
                "/api/ratings/games",
                "/api/health",
            )
        }
    for path, (status, headers, body) in answers.items():
        assert status == 503, (path, status, body[:300])
        assert not [leak for leak in LEAKS if leak in body], (path, body[:300])
        if path != "/api/health":
            assert headers["Retry-After"] == "30"
    assert b"Temporarily unavailable" in answers["/"][2]
    assert answers["/api/health"][2] == (
        b'{"status":"unavailable","database":"unavailable"}'
    )
