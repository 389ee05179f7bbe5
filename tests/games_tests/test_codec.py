"""The store's codec: the one JSON form of every event, exact both ways, strict on
read."""

from __future__ import annotations

import dataclasses
import json
import random
import types
import typing
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.eventstore.codec import Codec
from games.eventstore.errors import CodecError
from rules import events as ev
from rules import tournament as rt
from rules.ruleset import ruleset
from rules.state import replay
from tests.rules_tests.gamegen import random_game
from tournaments.core import events as core_events


@pytest.fixture(scope="module")
def codec() -> Codec:
    codec = Codec()
    codec.register_all(ev.EVENT_TYPES)
    return codec


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


@pytest.mark.parametrize("name", sorted(ev.EVENT_TYPES))
@settings(deadline=None)
@given(data=st.data())
def test_payload_round_trip_is_exact(codec, name, data):
    """Encoding to a JSON-safe payload and decoding gives the same event, for any
    field values of every game event type."""
    event = data.draw(_strategy(ev.EVENT_TYPES[name]))
    type_name, version, payload = codec.encode(event)
    assert type_name == name
    through_json = json.loads(json.dumps(payload))
    assert codec.decode(name, version, through_json) == event
    assert codec.decode(name, version, payload) == event


@settings(max_examples=40, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_a_game_replays_the_same_after_a_round_trip(codec, rng):
    """A whole random game, stored and read back, replays to the same state."""
    events = random_game(random.Random(rng.random()))
    stored = [json.loads(json.dumps(codec.encode(event))) for event in events]
    decoded = [codec.decode(*row) for row in stored]
    assert decoded == events
    assert replay(decoded) == replay(events)


def test_tournament_events_round_trip_too():
    """The tournament stream's events (rules and system ones) share the codec."""
    codec = Codec()
    codec.register_all(rt.EVENT_TYPES)
    codec.register_all(core_events.SYSTEM_EVENT_TYPES)
    for event in (
        rt.DivisionAdded(name="A"),
        core_events.DirectorAdded(user_id=3, username="mara"),
        core_events.PublicationChanged(published=True),
    ):
        name, version, payload = codec.encode(event)
        assert codec.decode(name, version, json.loads(json.dumps(payload))) == event


def test_payload_is_plain_json(codec):
    """A nested ruleset and tile set encode as plain objects with enum values."""
    _, _, payload = codec.encode(
        ev.GameStarted(players=("a", "b"), ruleset=ruleset("wespa"))
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


def test_defaults_may_be_left_out_of_a_payload(codec):
    """Missing fields with defaults take their defaults."""
    event = codec.decode(
        "tiles_placed", 1, {"player": 1, "position": "8D", "word": "A"}
    )
    assert event == ev.TilesPlaced(player=1, position="8D", word="A")


@pytest.mark.parametrize(
    ("name", "payload", "named"),
    [
        ("no_such_event", {}, "no_such_event"),
        ("tiles_placed", {"player": 1}, "position"),
        ("tiles_placed", {"player": "1", "position": "8D", "word": "A"}, "player"),
        ("tiles_placed", {"player": True, "position": "8D", "word": "A"}, "player"),
        ("tiles_placed", {"player": 1, "position": "8D", "word": "A", "x": 1}, "x"),
        ("play_challenged", {"challenger": 1, "outcome": "maybe"}, "outcome"),
        (
            "play_challenged",
            {"challenger": 1, "outcome": "valid", "words": "AB"},
            "words",
        ),
        ("game_started", {"players": ["a"], "ruleset": "naspa"}, "ruleset"),
        ("note_added", {"target_version": 2, "text": 5}, "text"),
        ("game_ended", {"reason": "went_out", "final_scores": [1.5]}, "final_scores"),
        ("tiles_placed", ["not", "an", "object"], "object"),
    ],
)
def test_bad_payloads_are_refused_naming_the_field(codec, name, payload, named):
    """An unknown type, a missing or unknown field, or a value of the wrong type
    raises CodecError (the store's), whose message names what is wrong."""
    with pytest.raises(CodecError) as error:
        codec.decode(name, 1, payload)
    assert named in str(error.value)


@dataclass(frozen=True, slots=True)
class _Renamed:
    type_name: ClassVar[str] = "renamed"
    amount: int
    note: str = ""


def test_an_upcaster_turns_an_old_payload_into_the_current_schema():
    """A payload of an older schema version is upcast before it is decoded; one
    newer than the code is refused."""
    codec = Codec()
    codec.register("renamed", _Renamed, schema_version=2)
    codec.register_upcaster("renamed", 1, lambda p: {"amount": p.pop("count"), **p})
    assert codec.decode("renamed", 1, {"count": 3}) == _Renamed(3)
    with pytest.raises(CodecError, match="newer"):
        codec.decode("renamed", 3, {"amount": 3})
