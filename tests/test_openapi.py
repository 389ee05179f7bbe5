"""The committed OpenAPI schema (docs/openapi.yaml) is the code's schema."""

from __future__ import annotations

import re

import pytest
from django.core.management import CommandError, call_command

from config import openapi


def test_the_committed_schema_is_the_codes_schema():
    diff = openapi.schema_diff()
    assert not diff, (
        f"docs/openapi.yaml differs from the code's schema: run `{openapi.REGENERATE}`"
        f" and commit the file.\n{diff}"
    )


def test_the_check_reports_a_stale_file_with_the_command_to_run(tmp_path, monkeypatch):
    stale = tmp_path / "openapi.yaml"
    stale.write_text(openapi.schema_text().replace("/api/health", "/api/old-health"))
    monkeypatch.setattr(openapi, "SCHEMA_PATH", stale)
    with pytest.raises(CommandError, match=re.escape(openapi.REGENERATE)):
        call_command("openapi", "--check")
