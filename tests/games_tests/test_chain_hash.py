"""The append path's hash (from JSON text) equals the hash over the decoded event."""

from __future__ import annotations

import datetime
import uuid

from hypothesis import given
from hypothesis import strategies as st

from games.eventstore.chain import canonical_json, chain_hash, chain_hash_of_json

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@given(
    previous=st.text(max_size=64),
    version=st.integers(min_value=1, max_value=10**6),
    event_type=st.text(min_size=1, max_size=20),
    payload=st.dictionaries(st.text(max_size=8), json_values, max_size=5),
    metadata=st.dictionaries(st.text(max_size=8), json_values, max_size=3),
    micros=st.integers(min_value=0, max_value=999_999),
)
def test_both_ways_of_hashing_agree(
    previous, version, event_type, payload, metadata, micros
):
    stream_id = uuid.uuid4()
    at = datetime.datetime(2026, 11, 21, 12, 0, 0, micros, tzinfo=datetime.UTC)
    expected = chain_hash(
        previous,
        stream_id=stream_id,
        version=version,
        event_type=event_type,
        schema_version=1,
        payload=payload,
        metadata=metadata,
        recorded_at=at,
    )
    assert expected == chain_hash_of_json(
        previous,
        stream_id=stream_id,
        version=version,
        event_type=event_type,
        schema_version=1,
        payload_json=canonical_json(payload),
        metadata_json=canonical_json(metadata),
        recorded_at=at,
    )
