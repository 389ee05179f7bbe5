"""The hash chain: each event's hash covers its content and the previous hash.

Tampering done directly in the database (or in a backup file) breaks the chain of
its stream from that event on (``manage.py verify_events``).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import datetime
from functools import lru_cache
from typing import Any


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the bytes the chain hash is taken over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(
    previous_hash: str,
    *,
    stream_id: uuid.UUID,
    version: int,
    event_type: str,
    schema_version: int,
    payload: Any,
    metadata: Any,
    recorded_at: datetime,
) -> str:
    """Hash an event's content together with the previous event's hash."""
    return chain_hash_of_json(
        previous_hash,
        stream_id=stream_id,
        version=version,
        event_type=event_type,
        schema_version=schema_version,
        payload_json=canonical_json(payload),
        metadata_json=canonical_json(metadata),
        recorded_at=recorded_at,
    )


def chain_hash_of_json(
    previous_hash: str,
    *,
    stream_id: uuid.UUID,
    version: int,
    event_type: str,
    schema_version: int,
    payload_json: str,
    metadata_json: str,
    recorded_at: datetime,
) -> str:
    """:func:`chain_hash` from the canonical JSON of payload and metadata.

    The content is the canonical JSON of the whole event, written out key by key in
    sorted order, so the append path encodes each payload once for both the hash and
    the row.
    """
    content = (
        f'{{"event_type":{_quoted(event_type)},'
        f'"metadata":{metadata_json},"payload":{payload_json},'
        f'"recorded_at":{_quoted_time(recorded_at)},'
        f'"schema_version":{schema_version},"stream_id":"{stream_id}",'
        f'"version":{version}}}'
    )
    return hashlib.sha256(f"{previous_hash}\n{content}".encode()).hexdigest()


# An append's events share one time and a few types: each is quoted once (two of
# the four JSON encodings an event cost).
@lru_cache(maxsize=256)
def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


_last_time: tuple[datetime | None, str] = (None, "")


def _quoted_time(moment: datetime) -> str:
    # The same object as last time (an append's events share it), not an equal
    # one: equal times in other zones print differently.
    global _last_time
    last, quoted = _last_time
    if last is not moment:
        quoted = json.dumps(moment.isoformat())
        _last_time = (moment, quoted)
    return quoted
