"""The API edge translates every refusal in one place: rules 400, stale 409,
rights 403."""

from __future__ import annotations

import uuid

import pytest
from django.core.exceptions import PermissionDenied

from games.api_errors import exception_handler
from games.eventstore.errors import ConcurrencyError, EventRejectedError
from games.eventstore.streams import StreamKey
from rules.errors import GcgError, OutOfTurnError
from rules.ratings import RatingsError
from rules.submissions import SubmissionError
from rules.tournament import TournamentError


def answer(error: Exception) -> tuple[int, dict]:
    response = exception_handler(error, {})
    assert response is not None
    return response.status_code, dict(response.data)


@pytest.mark.parametrize(
    ("error", "body"),
    [
        (
            EventRejectedError("round_not_paired", "Pair round 2 first.", 0, "round"),
            {
                "code": "round_not_paired",
                "message": "Pair round 2 first.",
                "field": "round",
            },
        ),
        (
            OutOfTurnError("It is Ben's turn."),
            {"code": "out_of_turn", "message": "It is Ben's turn."},
        ),
        (
            TournamentError(
                "unknown_division", "There is no division 'Z'.", "division"
            ),
            {
                "code": "unknown_division",
                "message": "There is no division 'Z'.",
                "field": "division",
            },
        ),
        (
            SubmissionError("bad_date", "tournament date 'x' is not an ISO date"),
            {"code": "bad_date", "message": "tournament date 'x' is not an ISO date"},
        ),
        (
            RatingsError("no_games", "Division A has no rated games."),
            {"code": "no_games", "message": "Division A has no rated games."},
        ),
        (
            GcgError([(3, "bad_move", "Not a move.")]),
            {
                "code": "gcg",
                "message": "Line 3: Not a move.",
                "problems": [[3, "bad_move", "Not a move."]],
            },
        ),
    ],
)
def test_every_rules_error_is_a_400_with_its_code_and_field(error, body):
    """Whichever part of rules/ refused (an append's validation, a GCG file, a
    ratings file), the answer has one shape."""
    assert answer(error) == (400, body)


def test_a_stale_version_is_a_409_with_the_current_version():
    stream = StreamKey("game", uuid.uuid4())
    status, body = answer(ConcurrencyError(stream, expected=3, current=5))
    assert status == 409
    assert body["code"] == "stale_version"
    assert body["current_version"] == 5


def test_missing_rights_are_a_403():
    status, _ = answer(PermissionDenied("Only the tournament's directors may."))
    assert status == 403
