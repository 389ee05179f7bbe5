"""GET /api/health answers 200 with the database reachable, 503 when it is not."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError


@pytest.mark.django_db
def test_health_is_200_when_the_database_answers(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


@pytest.mark.django_db
def test_health_is_503_when_the_database_does_not_answer(client):
    with mock.patch(
        "config.health.connection.cursor",
        side_effect=OperationalError("connection refused\nmore"),
    ):
        response = client.get("/api/health")
    assert response.status_code == 503
    # The error's text (hosts, sockets, roles) is for the log, not for the client.
    assert response.json() == {"status": "unavailable", "database": "unavailable"}
