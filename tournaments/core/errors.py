"""The refusals of the tournaments app that are not rules: rights and existence.

``PermissionDeniedError`` (403) and ``TournamentNotFoundError`` (404) are Django's
own exceptions, so views and the API answer them without a handler of their own;
``TournamentAccessError`` is the stream type's refusal of an event a user may not
append.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from rules.errors import RulesError


class TournamentAccessError(RulesError):
    """Raised when a system event of a tournament stream is not allowed."""

    code = "tournament_access"

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.field = field


class PermissionDeniedError(PermissionDenied):
    """Raised when a user may not write to a tournament (HTTP 403)."""


class TournamentNotFoundError(Http404):
    """Raised when no tournament stream has the given id (HTTP 404)."""
