"""Chain the log again under a new key, after verifying it under the old one.

Two uses: the migration that brings a log written before the key (plain sha256
hashes, :func:`games.eventstore.chain.legacy_chain_hash`) under ``EVENT_LOG_KEY``
(eventstore migration 0003), and ``manage.py rekey_events`` when the key changes
(docs/RELIABILITY.md, "Key rotation"). Usage::

    report = rechain(legacy_chain_hash, keyed(log_key()))
    report.events, report.streams     # chained again
    report.refused                    # [(stream, problem)]: left as they were

A stream whose chain does not verify under the old scheme is left as it is and
reported: chaining it again would bless whatever was done to it, and
``verify_events`` goes on reporting it. The rows are rewritten in one transaction
with the log's append-only trigger disabled for that transaction only (``ALTER
TABLE`` locks the log: appends wait until it commits).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import connection as default_connection
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.types.json import set_json_loads

from games.eventstore.chain import ChainKey, chain_hash_of_line, head_mac, log_key
from games.eventstore.seal import seal_after_commit
from games.eventstore.sql import loads_utf8
from games.eventstore.verify import EVENT_LINE_COLUMNS, line_of

# A scheme: the hash an event (as a backup line's fields) should carry after
# `previous_hash`.
Scheme = Callable[[str, Mapping[str, Any]], str]

_BATCH = 5000
_ROWS = f"SELECT {EVENT_LINE_COLUMNS} FROM event_log ORDER BY stream_id, version"
_UPDATE = """
UPDATE event_log AS e SET chain_hash = u.hash
FROM unnest(%s::bigint[], %s::text[]) AS u(position, hash)
WHERE e.position = u.position
"""
# A head moves with its stream only where it stood at the stream's last event: a
# head ahead of the log is the evidence of deleted events and must stay so.
_UPDATE_HEADS = """
UPDATE event_stream_head AS h SET chain_hash = u.new
FROM unnest(%s::uuid[], %s::int[], %s::text[], %s::text[])
     AS u(stream_id, version, old, new)
WHERE h.stream_id = u.stream_id AND h.version = u.version AND h.chain_hash = u.old
"""
_LAST_EVENTS = """
SELECT DISTINCT ON (stream_id) stream_id, stream_type, version, chain_hash
FROM event_log WHERE %s::uuid[] IS NULL OR stream_id = ANY(%s::uuid[])
ORDER BY stream_id, version DESC
"""
_RECORD_HEADS = """
INSERT INTO event_stream_head (stream_id, stream_type, version, chain_hash, mac)
SELECT * FROM unnest(%s::uuid[], %s::text[], %s::int[], %s::text[], %s::text[])
ON CONFLICT (stream_id) DO UPDATE
SET stream_type = EXCLUDED.stream_type, version = EXCLUDED.version,
    chain_hash = EXCLUDED.chain_hash, mac = EXCLUDED.mac
"""
_RECORD_PLAIN_HEADS = """
INSERT INTO event_stream_head (stream_id, stream_type, version, chain_hash)
SELECT DISTINCT ON (stream_id) stream_id, stream_type, version, chain_hash
FROM event_log ORDER BY stream_id, version DESC
ON CONFLICT (stream_id) DO UPDATE
SET stream_type = EXCLUDED.stream_type, version = EXCLUDED.version,
    chain_hash = EXCLUDED.chain_hash
"""
_HEADS = "SELECT stream_id, stream_type, version, chain_hash FROM event_stream_head"
_SET_HEAD_MACS = """
UPDATE event_stream_head AS h SET mac = u.mac
FROM unnest(%s::uuid[], %s::text[]) AS u(stream_id, mac)
WHERE h.stream_id = u.stream_id
"""


def keyed(key: ChainKey) -> Scheme:
    """The scheme of a key (what the store writes)."""
    return lambda previous, line: chain_hash_of_line(previous, line, key)


@dataclass
class RechainReport:
    events: int = 0
    streams: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)


def rechain(
    old: Scheme,
    new: Scheme,
    *,
    connection: BaseDatabaseWrapper | None = None,
    create_heads: bool = False,
    new_key: ChainKey | None = None,
) -> RechainReport:
    """Verify every stream under `old` and write its hashes under `new`.

    `create_heads` records each stream's head from the log (the migration that
    introduces heads, before heads had codes); otherwise heads that stood at their
    stream's last event follow it. With `new_key` (a change of key), every head's
    code, the feed's seals and the key's fingerprint are made again under it, in
    the same transaction. Returns what was chained again and what was refused.
    """
    connection = connection or default_connection
    report = RechainReport()
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        # ALTER TABLE refuses a table with checks still deferred in this
        # transaction: run them first.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(
            "ALTER TABLE event_log DISABLE TRIGGER event_log_no_update_delete"
        )
        updates: list[tuple[int, str]] = []
        heads: list[tuple[Any, int, str, str]] = []
        for stream in _streams(connection):
            chained = _rechain_stream(stream, old, new)
            if isinstance(chained, str):
                report.refused.append((_name(stream[0]), chained))
                continue
            updates.extend(chained)
            last = stream[-1]
            heads.append(
                (last["stream_id"], last["version"], last["chain_hash"], chained[-1][1])
            )
            report.streams += 1
            report.events += len(stream)
            if len(updates) >= _BATCH:
                _write(cursor, updates, heads)
                updates, heads = [], []
        _write(cursor, updates, heads)
        if create_heads:
            record_heads(connection=connection, authenticated=False)
        if new_key is not None:
            _authenticate_under(new_key, cursor, connection)
        cursor.execute(
            "ALTER TABLE event_log ENABLE TRIGGER event_log_no_update_delete"
        )
    return report


def _authenticate_under(
    key: ChainKey, cursor: Any, connection: BaseDatabaseWrapper
) -> None:
    """Heads' codes, the key's fingerprint and the feed's seals under `key`."""
    from games.eventstore.seal import record_fingerprint, seal_feed

    authenticate_heads(key, connection=connection)
    record_fingerprint(key, connection=connection)
    cursor.execute(
        "ALTER TABLE event_feed_seal DISABLE TRIGGER event_feed_seal_no_update_delete"
    )
    cursor.execute("DELETE FROM event_feed_seal")
    cursor.execute(
        "ALTER TABLE event_feed_seal ENABLE TRIGGER event_feed_seal_no_update_delete"
    )
    seal_feed(key=key, connection=connection)


def _name(line: Mapping[str, Any]) -> str:
    return f"{line['stream_type']}/{line['stream_id']}"


def _rechain_stream(
    stream: list[dict[str, Any]], old: Scheme, new: Scheme
) -> list[tuple[int, str]] | str:
    """The stream's (position, new hash) pairs, or why it does not verify."""
    previous_old = previous_new = ""
    pairs = []
    for expected, line in enumerate(stream, start=1):
        if line["version"] != expected:
            return f"version {line['version']} follows {expected - 1}"
        if old(previous_old, line) != line["chain_hash"]:
            return f"chain hash mismatch at version {expected}"
        previous_old = line["chain_hash"]
        previous_new = new(previous_new, {**line, "chain_hash": None})
        pairs.append((line["position"], previous_new))
    return pairs


def _write(
    cursor: Any, updates: list[tuple[int, str]], heads: list[tuple[Any, int, str, str]]
) -> None:
    if updates:
        positions, hashes = zip(*updates, strict=True)
        cursor.execute(_UPDATE, [list(positions), list(hashes)])
    if heads:
        ids, versions, olds, news = zip(*heads, strict=True)
        cursor.execute(
            _UPDATE_HEADS, [list(ids), list(versions), list(olds), list(news)]
        )


def _streams(connection: BaseDatabaseWrapper) -> Iterator[list[dict[str, Any]]]:
    """Every stream's events as backup lines, one stream at a time."""
    connection.ensure_connection()
    with connection.connection.cursor(name="rechain", binary=True) as cursor:
        cursor.itersize = _BATCH
        set_json_loads(loads_utf8, cursor)
        cursor.execute(_ROWS)
        lines = (line_of(*row) for row in cursor)
        for _, stream in itertools.groupby(lines, key=lambda line: line["stream_id"]):
            yield list(stream)


def record_heads(
    stream_ids: list[Any] | None = None,
    *,
    connection: BaseDatabaseWrapper | None = None,
    key: ChainKey | None = None,
    authenticated: bool = True,
) -> None:
    """Record each stream's head where its log ends now (every stream's, or those
    of `stream_ids`), authenticated under the key: for a log that had no heads,
    or streams just restored or bulk-written. `authenticated=False` only for
    migration 0003, which runs before heads have codes (0006 gives them)."""
    connection = connection or default_connection
    with connection.cursor() as cursor:
        if not authenticated:
            cursor.execute(_RECORD_PLAIN_HEADS)
            return
        key = key or log_key()
        cursor.execute(_LAST_EVENTS, [stream_ids, stream_ids])
        heads = [
            (*row, head_mac(key, row[1], row[0], row[2], row[3]))
            for row in cursor.fetchall()
        ]
        if heads:
            columns = [list(column) for column in zip(*heads, strict=True)]
            cursor.execute(_RECORD_HEADS, columns)
    # Their feed entries are numbered at commit: seal them then.
    seal_after_commit()


def authenticate_heads(
    key: ChainKey, *, connection: BaseDatabaseWrapper | None = None
) -> int:
    """Give every recorded head its code under `key`, as it stands (a head that
    disagrees with its log goes on disagreeing, and is reported): the migration
    that introduces the codes, and a change of key. The number of heads."""
    connection = connection or default_connection
    with connection.cursor() as cursor:
        cursor.execute(_HEADS)
        macs = [
            (stream_id, head_mac(key, type_name, stream_id, version, chain))
            for stream_id, type_name, version, chain in cursor.fetchall()
        ]
        if macs:
            ids, codes = zip(*macs, strict=True)
            cursor.execute(_SET_HEAD_MACS, [list(ids), list(codes)])
    return len(macs)
