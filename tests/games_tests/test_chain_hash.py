"""The chain hash: the append path's (from JSON text) equals the verifier's (from a
backup line), it needs the key and covers every column, and the plain hash of logs
written before the key is reproduced exactly (to verify them before re-chaining)."""

from __future__ import annotations

import datetime
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.eventstore.chain import (
    ChainKey,
    canonical_json,
    chain_hash_of_json,
    chain_hash_of_line,
    legacy_chain_hash,
)

KEY = ChainKey.from_text("a test key of at least thirty-two characters")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def a_line(**changes) -> dict:
    line = {
        "position": 17,
        "stream_type": "tournament",
        "stream_id": "12345678-1234-4234-8234-1234567890ab",
        "version": 2,
        "event_type": "division_added",
        "schema_version": 2,
        "payload": {"name": "A"},
        "metadata": {"source": "tsh", "line": 3},
        "recorded_at": "2026-11-21T12:00:00.123456+00:00",
        "recorded_by": 4,
        "correlation_id": "00000000-0000-4000-8000-000000000009",
    }
    return {**line, **changes}


@given(
    previous=st.text(max_size=64),
    position=st.integers(min_value=1, max_value=2**62),
    version=st.integers(min_value=1, max_value=10**6),
    event_type=st.text(min_size=1, max_size=20),
    payload=st.dictionaries(st.text(max_size=8), json_values, max_size=5),
    metadata=st.dictionaries(st.text(max_size=8), json_values, max_size=3),
    micros=st.integers(min_value=0, max_value=999_999),
    recorded_by=st.none() | st.integers(min_value=1, max_value=2**31),
    correlated=st.booleans(),
)
def test_both_ways_of_hashing_agree(
    previous,
    position,
    version,
    event_type,
    payload,
    metadata,
    micros,
    recorded_by,
    correlated,
):
    stream_id = uuid.uuid4()
    correlation_id = uuid.uuid4() if correlated else None
    at = datetime.datetime(2026, 11, 21, 12, 0, 0, micros, tzinfo=datetime.UTC)
    line = {
        "position": position,
        "stream_type": "game",
        "stream_id": str(stream_id),
        "version": version,
        "event_type": event_type,
        "schema_version": 1,
        "payload": payload,
        "metadata": metadata,
        "recorded_at": at.isoformat(),
        "recorded_by": recorded_by,
        "correlation_id": correlation_id and str(correlation_id),
    }
    assert chain_hash_of_line(previous, line, KEY) == chain_hash_of_json(
        previous,
        KEY,
        position=position,
        stream_type="game",
        stream_id=stream_id,
        version=version,
        event_type=event_type,
        schema_version=1,
        payload_json=canonical_json(payload),
        metadata_json=canonical_json(metadata),
        recorded_at=at,
        recorded_by=recorded_by,
        correlation_id=correlation_id,
    )


@pytest.mark.parametrize(
    "change",
    [
        {"position": 18},
        {"stream_type": "game"},
        {"stream_id": "12345678-1234-4234-8234-1234567890ac"},
        {"version": 3},
        {"event_type": "division_removed"},
        {"schema_version": 1},
        {"payload": {"name": "B"}},
        {"metadata": {"source": "tsh", "line": 4}},
        {"recorded_at": "2026-11-21T12:00:00.123457+00:00"},
        {"recorded_by": 5},
        {"recorded_by": None},
        {"correlation_id": None},
    ],
)
def test_every_column_that_carries_meaning_changes_the_hash(change):
    assert chain_hash_of_line("", a_line(**change), KEY) != chain_hash_of_line(
        "", a_line(), KEY
    )


def test_the_hash_needs_the_key():
    other = ChainKey.from_text("another key of at least thirty-two characters")
    assert chain_hash_of_line("", a_line(), other) != chain_hash_of_line(
        "", a_line(), KEY
    )


def test_the_plain_hash_of_logs_before_the_key_is_reproduced():
    """Values computed by the chain code before the key (commit ce0bdee)."""
    first = a_line(
        version=1,
        event_type="tournament_created",
        schema_version=1,
        payload={"name": "Riverside Ø", "rounds": 7},
        metadata={},
    )
    second = a_line()
    h1 = legacy_chain_hash("", first)
    assert h1 == "e121fd8968ecdc0045527a02bb5023d806502b23c626af06cc57b032b70fa61e"
    assert legacy_chain_hash(h1, second) == (
        "878a10d16b230be9a17aff4e2b11d9ee5f897e997ba98b3c9f618d787fcea813"
    )
