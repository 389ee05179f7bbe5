"""The API edge translates every refusal in one place: rules and refused input 400
(one shape), stale 409, rights 403."""

from __future__ import annotations

import json
import uuid

import pytest
from django.core.exceptions import PermissionDenied
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.renderers import JSONRenderer

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


def body_of(error: Exception) -> dict:
    """The JSON a client reads for `error` (int keys become strings)."""
    response = exception_handler(error, {})
    assert response is not None
    assert response.status_code == 400
    return json.loads(JSONRenderer().render(response.data))


def test_a_refused_input_has_the_rules_shape_and_keeps_every_error():
    """A serializer's 400 names its first error as a rule's refusal does (code,
    message, field) and keeps DRF's whole detail in ``errors``."""

    class Player(serializers.Serializer):
        name = serializers.CharField(max_length=4)
        rating = serializers.IntegerField()

    class Entry(serializers.Serializer):
        round = serializers.IntegerField()
        players = Player(many=True)

    entry = Entry(
        data={"players": [{"name": "Ann", "rating": 1}, {"name": "Benedict"}]}
    )
    assert not entry.is_valid()
    assert body_of(serializers.ValidationError(entry.errors)) == {
        "code": "required",
        "message": "This field is required.",
        "field": "round",
        "errors": {
            "round": ["This field is required."],
            "players": {
                "1": {
                    "name": ["Ensure this field has no more than 4 characters."],
                    "rating": ["This field is required."],
                },
            },
        },
    }
    entry = Entry(data={"round": 1, "players": [{}, {"name": "Benedict"}]})
    assert not entry.is_valid()
    body = body_of(serializers.ValidationError(entry.errors))
    assert (body["code"], body["field"]) == ("required", "players.0.name")


@pytest.mark.parametrize(
    ("error", "body"),
    [
        (
            serializers.ValidationError({"after": {0: ["Not a number."]}}),
            {
                "code": "invalid",
                "message": "Not a number.",
                "field": "after.0",
                "errors": {"after": {"0": ["Not a number."]}},
            },
        ),
        (
            serializers.ValidationError(
                {"non_field_errors": ["Wrong username or password."]}
            ),
            {
                "code": "invalid",
                "message": "Wrong username or password.",
                "errors": {"non_field_errors": ["Wrong username or password."]},
            },
        ),
        (
            # An unknown field named "" (the API fuzzer's): no dotted path to name.
            serializers.ValidationError({"": ["Unknown field."]}),
            {
                "code": "invalid",
                "message": "Unknown field.",
                "errors": {"": ["Unknown field."]},
            },
        ),
        (
            serializers.ValidationError("Give a setting.", code="nothing_given"),
            {
                "code": "nothing_given",
                "message": "Give a setting.",
                "errors": {"non_field_errors": ["Give a setting."]},
            },
        ),
        (
            ParseError("JSON parse error - nested more than 32 levels deep."),
            {
                "code": "parse_error",
                "message": "JSON parse error - nested more than 32 levels deep.",
                "errors": {
                    "non_field_errors": [
                        "JSON parse error - nested more than 32 levels deep."
                    ]
                },
            },
        ),
    ],
)
def test_every_refused_input_is_a_400_of_the_one_shape(error, body):
    """Nested fields are dotted paths; an error about the whole input names no
    field; a body that does not parse is refused in the same shape."""
    assert body_of(error) == body
