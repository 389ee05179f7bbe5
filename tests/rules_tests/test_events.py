"""Events: stable type names, frozen values, JSON-encodable fields.

Their JSON form is the event store's codec's: ``tests/games_tests/test_codec.py``.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing

import pytest

from rules.events import (
    EVENT_TYPES,
    Event,
    TilesPlaced,
)

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
    "note_edited",
    "note_deleted",
    "visibility_changed",
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
