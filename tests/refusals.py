"""The one shape of the API's 400 (games.api_errors), asserted the same way by
every test that expects a refusal::

    body = refused(response, field="position", code="invalid")
    refused(response, field=None)  # about the whole input: no field
"""

from __future__ import annotations

from typing import Any

# What a 400's body may hold: the first error's code, message and field, a file's
# problems, and DRF's whole detail for an input it refused.
MEMBERS = {"code", "message", "field", "problems", "errors"}
_ANY = object()


def refused(
    response: Any, *, field: Any = _ANY, code: str | None = None
) -> dict[str, Any]:
    """The body of `response`, asserted to be a 400 of the one shape, naming
    `field` (None: no field) and `code` when given."""
    assert response.status_code == 400, (response.status_code, response.content)
    body = response.json()
    assert isinstance(body, dict), body
    assert set(body) <= MEMBERS, body
    for member in ("code", "message", "field"):
        if member in body or member != "field":
            assert isinstance(body.get(member), str), body
            assert body[member], body
    if "errors" in body:
        # The first error is the one named: its message is among the field's.
        errors = body["errors"]
        assert isinstance(errors, dict), body
        assert errors, body
        if "field" in body:
            for part in body["field"].split("."):
                errors = errors[part]
        assert body["message"] in _messages(errors), body
    if field is None:
        assert "field" not in body, body
    elif field is not _ANY:
        assert body.get("field") == field, body
    if code is not None:
        assert body["code"] == code, body
    return body


def _messages(errors: Any) -> list[str]:
    """Every message in DRF's detail (nested as the input is)."""
    if isinstance(errors, dict):
        return [m for value in errors.values() for m in _messages(value)]
    if isinstance(errors, list):
        return [m for value in errors for m in _messages(value)]
    return [errors]
