"""The pages' CSS and JS are served with DEBUG off (gunicorn, no web server)."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_static_files_are_served_without_debug(client, settings):
    settings.DEBUG = False
    response = client.get("/static/scrabble/site.css")
    assert response.status_code == 200
    assert b"{" in b"".join(response.streaming_content)
