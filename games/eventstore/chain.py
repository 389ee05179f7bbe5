"""The hash chain: each event's hash is an HMAC, under the log's key, over every
column that carries meaning and the previous event's hash.

The key (``settings.EVENT_LOG_KEY``) is not in the database. Someone who can write
the table can still change, delete or insert rows, but cannot give them hashes that
verify: ``manage.py verify_events`` reports each such event (and backups are
authenticated with the same key, ``games.eventstore.backup``). The hash covers the
global position, the stream's type and id, the version, the event's type and schema,
its payload and metadata, when it was recorded, by whom and its correlation id::

    key = log_key()
    link = chain_hash_of_line(previous_hash, line, key)   # a backup line's fields

Logs written before the key existed carry plain sha256 hashes over fewer columns
(:func:`legacy_chain_hash`); the eventstore's migration 0003 verifies them and
chains them again under the key (``games.eventstore.rekey``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.conf import settings


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the bytes the chain hash is taken over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class ChainKey:
    """The secret the chain's HMACs are made with (never stored in the database)."""

    secret: bytes

    @classmethod
    def from_text(cls, text: str) -> ChainKey:
        # A key of its own for the chain, derived from the configured text: with
        # DEBUG the text may be SECRET_KEY, which must not sign two kinds of thing.
        return cls(hmac.digest(text.encode(), b"games.eventstore.chain", "sha256"))

    def link(self, previous_hash: str, content: str) -> str:
        return hmac.digest(
            self.secret, f"{previous_hash}\n{content}".encode(), "sha256"
        ).hex()

    def mac(self, data: bytes) -> str:
        """An authentication code for other data under the same key (backups)."""
        return hmac.digest(self.secret, data, "sha256").hex()


def head_mac(
    key: ChainKey,
    stream_type: str,
    stream_id: uuid.UUID | str,
    version: int,
    chain: str,
) -> str:
    """The authentication code of a stream's head: its last version and that
    event's chain hash. A head rewound in the database (with its events and
    projection rows deleted) has no code that verifies without the key."""
    return key.mac(f"head\n{stream_type}\n{stream_id}\n{version}\n{chain}".encode())


def feed_link(
    key: ChainKey,
    previous: str,
    feed_position: int,
    stream_id: uuid.UUID | str,
    position: int,
    version: int,
    chain: str,
) -> str:
    """One link of the feed's chain (``games.eventstore.seal``): the previous
    link, the entry's place in commit order, and the event it numbers (its stream,
    log position, version and chain hash). A feed entry deleted, or an event
    deleted with its entry, breaks every later link."""
    content = f"feed\n{previous}\n{feed_position}\n{stream_id}\n{position}"
    return key.mac(f"{content}\n{version}\n{chain}".encode())


def key_fingerprint(key: ChainKey) -> str:
    """What names a key without giving it away (``event_log_key``): a server
    whose key is not the log's is told so instead of writing what will not verify."""
    return key.mac(b"games.eventstore: the log's key")


def log_key(text: str | None = None) -> ChainKey:
    """The chain key from `text`, by default ``settings.EVENT_LOG_KEY``."""
    return ChainKey.from_text(settings.EVENT_LOG_KEY if text is None else text)


def chain_hash_of_json(
    previous_hash: str,
    key: ChainKey,
    *,
    position: int,
    stream_type: str,
    stream_id: uuid.UUID,
    version: int,
    event_type: str,
    schema_version: int,
    payload_json: str,
    metadata_json: str,
    recorded_at: datetime,
    recorded_by: int | None,
    correlation_id: uuid.UUID | None,
) -> str:
    """Chain one event to `previous_hash`, from the canonical JSON of its payload
    and metadata (the append path encodes each payload once, for the hash and the
    row).

    The content is the canonical JSON of the whole event, written out key by key in
    sorted order.
    """
    dumps = json.dumps
    content = (
        f'{{"correlation_id":{dumps(correlation_id and str(correlation_id))},'
        f'"event_type":{_quoted(event_type)},'
        f'"metadata":{metadata_json},"payload":{payload_json},'
        f'"position":{position},'
        f'"recorded_at":{_quoted_time(recorded_at)},'
        f'"recorded_by":{dumps(recorded_by)},'
        f'"schema_version":{schema_version},"stream_id":"{stream_id}",'
        f'"stream_type":{_quoted(stream_type)},'
        f'"version":{version}}}'
    )
    return key.link(previous_hash, content)


# An append's events share one time and a few types: each is quoted once.
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


# The fields of an event the chain covers, as a backup line names them.
CHAINED_FIELDS = (
    "correlation_id",
    "event_type",
    "metadata",
    "payload",
    "position",
    "recorded_at",
    "recorded_by",
    "schema_version",
    "stream_id",
    "stream_type",
    "version",
)


def chain_hash_of_line(
    previous_hash: str, line: Mapping[str, Any], key: ChainKey
) -> str:
    """The hash an event should carry, from its fields as a backup line holds them
    (``games.eventstore.verify.line_of``: ids and times as text). The same content
    as :func:`chain_hash_of_json`'s: the canonical JSON of those fields, with the
    ids and the time written as the database gives them back."""
    content = {name: line[name] for name in CHAINED_FIELDS}
    content["stream_id"] = str(uuid.UUID(line["stream_id"]))
    if content["correlation_id"] is not None:
        content["correlation_id"] = str(uuid.UUID(content["correlation_id"]))
    content["recorded_at"] = datetime.fromisoformat(line["recorded_at"]).isoformat()
    return key.link(previous_hash, canonical_json(content))


def legacy_chain_hash(previous_hash: str, line: Mapping[str, Any]) -> str:
    """The plain sha256 the log used before the key: over the event's stream id,
    version, type, schema, payload, metadata and time only (no key, no position,
    no user). Only for verifying old logs and backups before chaining them again."""
    recorded_at = datetime.fromisoformat(line["recorded_at"])
    content = canonical_json(
        {
            "event_type": line["event_type"],
            "metadata": line["metadata"],
            "payload": line["payload"],
            "recorded_at": recorded_at.isoformat(),
            "schema_version": line["schema_version"],
            "stream_id": line["stream_id"],
            "version": line["version"],
        }
    )
    return hashlib.sha256(f"{previous_hash}\n{content}".encode()).hexdigest()
