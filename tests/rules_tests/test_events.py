"""Events: stable type names, JSON-encodable fields, and the payload codec."""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import PayloadError
from rules.events import (
    EVENT_TYPES,
    Event,
    GameStarted,
    TilesPlaced,
    event_from_payload,
    event_to_payload,
)
from rules.ruleset import ruleset

EXPECTED_TYPES = {
    "game_started",
    "tiles_drawn",
    "tiles_returned",
    "rack_recorded",
    "rack_forgotten",
    "tiles_placed",
    "tiles_exchanged",
    "turn_passed",
    "play_challenged",
    "time_penalty",
    "score_corrected",
    "game_ended",
    "note_added",
    "events_superseded",
}


def test_every_event_has_a_stable_type_name():
    """EVENT_TYPES maps each stored name to its class, whose type_name is that name."""
    assert set(EVENT_TYPES) == EXPECTED_TYPES
    for name, cls in EVENT_TYPES.items():
        assert cls.type_name == name
        assert issubclass(cls, Event)


def test_events_are_frozen_slotted_dataclasses():
    """Events are immutable values."""
    event = TilesPlaced(player=0, position="8D", word="WINDY")
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.player = 1  # type: ignore[misc]
    for cls in EVENT_TYPES.values():
        assert dataclasses.is_dataclass(cls)
        assert hasattr(cls, "__slots__")


def _allowed(hint: object) -> bool:
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        args = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return len(args) == 1 and _allowed(args[0])
    if origin is tuple:
        args = typing.get_args(hint)
        return len(args) == 2 and args[1] is Ellipsis and _allowed(args[0])
    if hint in (str, int, bool):
        return True
    if isinstance(hint, type) and issubclass(hint, enum.StrEnum):
        return True
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        return all(_allowed(hints[field.name]) for field in dataclasses.fields(hint))
    return False


def test_every_field_is_json_encodable_by_its_hint():
    """Fields are str, int, bool, X | None, tuple[X, ...], StrEnum or nested
    dataclasses of those: no floats, dicts or sets."""
    for cls in EVENT_TYPES.values():
        hints = typing.get_type_hints(cls)
        for field in dataclasses.fields(cls):
            assert _allowed(hints[field.name]), f"{cls.__name__}.{field.name}"


def _strategy(hint: object) -> st.SearchStrategy[object]:
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        (inner,) = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return st.none() | _strategy(inner)
    if origin is tuple:
        return st.lists(_strategy(typing.get_args(hint)[0]), max_size=3).map(tuple)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        return st.builds(
            hint,
            **{
                field.name: _strategy(hints[field.name])
                for field in dataclasses.fields(hint)
            },
        )
    return st.from_type(hint)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(EXPECTED_TYPES))
@settings(deadline=None)
@given(data=st.data())
def test_payload_round_trip_is_exact(name, data):
    """Encoding to a JSON-safe dict and decoding gives the same event, for any field
    values of every event type."""
    event = data.draw(_strategy(EVENT_TYPES[name]))
    payload = event_to_payload(event)
    through_json = json.loads(json.dumps(payload))
    assert event_from_payload(name, through_json) == event
    assert event_from_payload(name, payload) == event


def test_payload_is_plain_json():
    """A nested ruleset and tile set encode as plain objects with enum values."""
    payload = event_to_payload(
        GameStarted(players=("a", "b"), ruleset=ruleset("wespa"))
    )
    assert payload["players"] == ["a", "b"]
    assert payload["ruleset"]["challenge"] == "five_point"
    assert payload["tile_set"]["kinds"][0] == {
        "letter": "A",
        "count": 9,
        "value": 1,
        "text": "",
    }
    json.dumps(payload)


def test_defaults_may_be_left_out_of_a_payload():
    """Missing fields with defaults take their defaults."""
    event = event_from_payload(
        "tiles_placed", {"player": 1, "position": "8D", "word": "A"}
    )
    assert event == TilesPlaced(player=1, position="8D", word="A")


@pytest.mark.parametrize(
    ("name", "payload"),
    [
        ("no_such_event", {}),
        ("tiles_placed", {"player": 1}),
        ("tiles_placed", {"player": "1", "position": "8D", "word": "A"}),
        ("tiles_placed", {"player": True, "position": "8D", "word": "A"}),
        ("tiles_placed", {"player": 1, "position": "8D", "word": "A", "extra": 1}),
        ("play_challenged", {"challenger": 1, "outcome": "maybe"}),
        ("play_challenged", {"challenger": 1, "outcome": "valid", "words": "AB"}),
        ("game_started", {"players": ["a"], "ruleset": "naspa"}),
        ("note_added", {"target_version": 2, "text": 5}),
        ("game_ended", {"reason": "went_out", "final_scores": [1.5]}),
    ],
)
def test_bad_payloads_are_refused(name, payload):
    """An unknown type, a missing or unknown field, or a wrong type raises
    PayloadError."""
    with pytest.raises(PayloadError) as error:
        event_from_payload(name, payload)
    assert error.value.code == "bad_payload"
