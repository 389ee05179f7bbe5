"""The API's OpenAPI schema as committed in ``docs/openapi.yaml``.

The committed file is what clients and reviewers read; a test fails when the code's
schema differs from it, so a change to an endpoint carries its schema change in the
same commit. Regenerate it with one command::

    python manage.py openapi            # write docs/openapi.yaml
    python manage.py openapi --check    # exit 1 when the file is out of date
"""

from __future__ import annotations

import difflib
import io
from pathlib import Path

from django.core.management import call_command

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "openapi.yaml"
REGENERATE = "python manage.py openapi"


def schema_text() -> str:
    """The code's schema as YAML, validated; a generator warning is an error."""
    out = io.StringIO()
    # The fixed options of the committed file: YAML, validated against the OpenAPI
    # specification, and no warning left unresolved.
    call_command(
        "spectacular", format="openapi", validate=True, fail_on_warn=True, stdout=out
    )
    return out.getvalue()


def schema_diff(limit: int = 40) -> str:
    """The first `limit` lines of the diff from the committed schema to the code's
    ("" when they agree)."""
    committed = SCHEMA_PATH.read_text() if SCHEMA_PATH.exists() else ""
    lines = difflib.unified_diff(
        committed.splitlines(keepends=True),
        schema_text().splitlines(keepends=True),
        fromfile="docs/openapi.yaml (committed)",
        tofile="the code's schema",
    )
    return "".join(list(lines)[:limit])
