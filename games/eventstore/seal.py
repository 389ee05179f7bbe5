"""The feed's chain under the key, and the log key's fingerprint.

The feed (``event_feed``) numbers each event at commit inside PostgreSQL, where the
key must never be: so each entry is sealed just after its commit, in Python, by
:func:`seal_feed` (called after every append and bulk write commits, and by
``verify_events`` before it checks). A seal (``FeedSeal``) is an HMAC over the
previous seal, the entry's feed position and the event it numbers
(:func:`games.eventstore.chain.feed_link`). Sealing is deterministic, so two
processes sealing the same entries at once write the same rows (the second's are
ignored); no lock is needed. An entry whose event is gone is never sealed.

:func:`verify_feed` walks every entry and seal in commit order and reports: a seal
that does not follow the one before (entries deleted with their seals, or changed),
a sealed entry that is gone, an entry whose event is gone, an entry never sealed,
and an event with no feed entry. Usage::

    seal_feed()                       # returns the number of entries sealed
    for problem in verify_feed():
        print(problem)                # feed@P (tournament/…): …

What no check inside the database can see: the last entries of the whole feed
deleted together with their seals, their events and their streams' heads set back
to copies kept from before (a roll-back of the whole site's last writes). The
feed's head and last seal printed by ``verify_events`` are the anchor to keep
elsewhere against that (docs/RELIABILITY.md).
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import connection as default_connection
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

from games.eventstore.chain import ChainKey, feed_link, key_fingerprint, log_key
from games.eventstore.streams import StreamKey

_BATCH = 5000
_ENTRIES = """
SELECT f.feed_position, f.stream_type, f.stream_id, f.position, e.version,
       e.chain_hash
FROM event_feed AS f LEFT JOIN event_log AS e ON e.position = f.position
WHERE f.feed_position > {after}
ORDER BY f.feed_position
LIMIT %(limit)s
"""
# The last seal and the entries after it, in one round trip (after every append).
_FIRST = f"""
WITH last AS (
    SELECT feed_position, mac FROM event_feed_seal
    ORDER BY feed_position DESC LIMIT 1
)
SELECT l.feed_position, l.mac, x.*
FROM (SELECT 1) AS one
LEFT JOIN last AS l ON true
LEFT JOIN LATERAL ({_ENTRIES.format(after="coalesce(l.feed_position, 0)")}) AS x ON true
"""
_NEXT = _ENTRIES.format(after="%(after)s")
# Not under another key than the log's: a server left running with an old key
# after rekey_events writes no seal that would not verify. With `no_flush_wait`
# its commit does not wait for the disk (set_config local to its transaction).
_SEAL = """
INSERT INTO event_feed_seal (feed_position, stream_type, stream_id, mac)
SELECT * FROM unnest(%b::bigint[], %b::text[], %b::uuid[], %b::text[])
WHERE NOT EXISTS (SELECT 1 FROM event_log_key WHERE fingerprint <> %s)
  {flush}
ON CONFLICT (feed_position) DO NOTHING
"""
_SEAL_WAITING = _SEAL.format(flush="")
_SEAL_NO_FLUSH_WAIT = _SEAL.format(
    flush="AND set_config('synchronous_commit', 'off', true) IS NOT NULL"
)


def seal_feed(
    *,
    key: ChainKey | None = None,
    connection: BaseDatabaseWrapper | None = None,
    no_flush_wait: bool = False,
) -> int:
    """Seal every committed feed entry after the last seal, in order; the number
    sealed. Stops at an entry whose event is gone (never seals a deletion).

    Two round trips when there is something to seal, one when not.
    `no_flush_wait` (after an append's commit, outside a transaction) commits the
    seals without waiting for the disk: a seal is made again from the log if a
    crash loses it, and a second flush an append would be its largest cost."""
    key = key or log_key()
    connection = connection or default_connection
    insert = _SEAL_NO_FLUSH_WAIT if no_flush_wait else _SEAL_WAITING
    fingerprint = key_fingerprint(key)
    sealed = 0
    with connection.cursor() as cursor:
        cursor.execute(_FIRST, {"limit": _BATCH})
        rows = cursor.fetchall()
        previous = rows[0][1] or ""
        entries = [row[2:] for row in rows if row[2] is not None]
        while True:
            seals = _seals(key, previous, entries)
            if seals:
                columns = [list(column) for column in zip(*seals, strict=True)]
                _insert_binary(connection, insert, [*columns, fingerprint])
                sealed += len(seals)
                previous = seals[-1][3]
            if len(seals) < _BATCH:
                return sealed
            cursor.execute(_NEXT, {"after": seals[-1][0], "limit": _BATCH})
            entries = cursor.fetchall()


def _insert_binary(
    connection: BaseDatabaseWrapper, statement: str, parameters: list[Any]
) -> None:
    """Run `statement` with its arrays bound in binary on the server: a bulk
    write's seals are thousands, and Django's client-side binding quoted each
    element in Python (a third of the sealing)."""
    with (
        connection.wrap_database_errors,
        psycopg.Cursor(connection.connection) as cursor,
    ):
        cursor.execute(statement, parameters)


def _seals(
    key: ChainKey, previous: str, entries: list[tuple[Any, ...]]
) -> list[tuple[int, str, Any, str]]:
    """(feed position, stream type, stream id, seal) of each entry in order, up to
    the first whose event is gone."""
    seals = []
    for feed_position, type_name, stream_id, position, version, chain in entries:
        if version is None:
            break
        previous = feed_link(
            key, previous, feed_position, stream_id, position, version, chain
        )
        seals.append((feed_position, type_name, stream_id, previous))
    return seals


# A process seals at most this often after its appends' commits: under a stream of
# appends one seal covers many of them (sealing after every append cost the
# move-by-move recorder about a fifth of its appends on a loaded machine).
SEAL_INTERVAL_SECONDS = 0.25
_last_seal = [0.0]


def seal_after_commit() -> None:
    """Seal the feed once the current transaction commits (at once outside one),
    unless this process sealed less than SEAL_INTERVAL_SECONDS ago: the next
    append after that (any process's) or ``verify_events`` seals what is left.
    A failure to seal never fails the write."""
    transaction.on_commit(_seal_quietly)


def _seal_quietly() -> None:
    now = time.monotonic()
    if now - _last_seal[0] < SEAL_INTERVAL_SECONDS:
        return
    _last_seal[0] = now
    try:
        seal_feed(no_flush_wait=True)
    except Exception:
        logging.getLogger(__name__).exception("sealing the feed failed")


@dataclass(frozen=True, slots=True)
class FeedProblem:
    """A place where the feed's chain or its agreement with the log fails."""

    feed_position: int | None
    stream: StreamKey | None  # None: the break cannot be put on one stream
    problem: str

    def __str__(self) -> str:
        where = f"feed@{self.feed_position}" if self.feed_position else "feed"
        return f"{where} ({self.stream or 'stream unknown'}): {self.problem}"


_WALK = """
SELECT coalesce(f.feed_position, s.feed_position), f.stream_type, f.stream_id,
       f.position, e.version, e.chain_hash, s.stream_type, s.stream_id, s.mac
FROM event_feed AS f
FULL JOIN event_feed_seal AS s ON s.feed_position = f.feed_position
LEFT JOIN event_log AS e ON e.position = f.position
ORDER BY 1
"""
_UNNUMBERED = """
SELECT e.stream_type, e.stream_id, e.version, e.position
FROM event_log AS e
WHERE NOT EXISTS (SELECT 1 FROM event_feed AS f WHERE f.position = e.position)
ORDER BY e.position
"""


def verify_feed(key: ChainKey | None = None) -> list[FeedProblem]:
    """Seal what is unsealed, then check the whole feed's chain and its agreement
    with the log."""
    key = key or log_key()
    if default_connection.in_atomic_block:
        # Inside a transaction (a test's), its events are numbered only at commit:
        # number them now (the feed's own tests do the same).
        with default_connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS event_feed_number IMMEDIATE")
    seal_feed(key=key)
    problems: list[FeedProblem] = []
    with transaction.atomic():
        default_connection.ensure_connection()
        raw = default_connection.connection
        with raw.cursor(name="verify_feed") as cursor:
            cursor.itersize = _BATCH
            cursor.execute(_WALK)
            previous = ""
            unsealed: list[FeedProblem] = []
            for row in cursor:
                problem, previous = _check_entry(key, previous, *row)
                if problem is None:
                    continue
                if problem.problem == _UNSEALED_PROBLEM:
                    unsealed.append(problem)
                else:
                    problems.append(problem)
    if unsealed:
        # Sealing stops at a deleted event: what follows is one fact, not many.
        first = unsealed[0]
        problems.append(
            FeedProblem(
                first.feed_position,
                first.stream,
                f"{_UNSEALED_PROBLEM}; {len(unsealed)} entries from here on are not "
                "sealed (sealing stops at an entry whose event is gone)",
            )
        )
    with default_connection.cursor() as cursor:
        cursor.execute(_UNNUMBERED)
        for type_name, stream_id, version, position in cursor.fetchall():
            problems.append(
                FeedProblem(
                    None,
                    StreamKey(type_name, stream_id),
                    f"version {version} (log position {position}) has no feed "
                    "entry: its entry was deleted",
                )
            )
    return problems


_UNSEALED_PROBLEM = "never sealed"


def _check_entry(
    key: ChainKey,
    previous: str,
    feed_position: int,
    type_name: str | None,
    stream_id: uuid.UUID | None,
    position: int | None,
    version: int | None,
    chain: str | None,
    sealed_type: str | None,
    sealed_id: uuid.UUID | None,
    mac: str | None,
) -> tuple[FeedProblem | None, str]:
    """The entry's problem (or None) and the link the next seal follows."""
    if type_name is None or stream_id is None:
        # A row of the full join: no entry means a seal is there.
        stream = StreamKey(str(sealed_type), sealed_id or uuid.UUID(int=0))
        return FeedProblem(
            feed_position, stream, "this entry was sealed but is gone: deleted"
        ), mac or previous
    stream = StreamKey(type_name, stream_id)
    if version is None or chain is None:
        return FeedProblem(
            feed_position,
            stream,
            f"the event it numbers (log position {position}) is gone: deleted",
        ), mac or previous
    if mac is None:
        return FeedProblem(feed_position, stream, _UNSEALED_PROBLEM), previous
    assert position is not None
    expected = feed_link(
        key, previous, feed_position, stream_id, position, version, chain
    )
    if expected != mac:
        return FeedProblem(
            feed_position,
            None,
            "its seal does not follow the one before: entries before it were "
            "deleted with their seals, or it was changed",
        ), mac
    return None, mac


def record_fingerprint(
    key: ChainKey | None = None, *, connection: BaseDatabaseWrapper | None = None
) -> None:
    """Record the key the log is chained under (migrations, ``rekey_events``)."""
    connection = connection or default_connection
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO event_log_key (id, fingerprint) VALUES (1, %s) "
            "ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint",
            [key_fingerprint(key or log_key())],
        )


def log_key_matches(key: ChainKey | None = None) -> bool:
    """Whether `key` (this process's) is the one the log is chained under."""
    with default_connection.cursor() as cursor:
        cursor.execute("SELECT fingerprint FROM event_log_key WHERE id = 1")
        row = cursor.fetchone()
    return row is None or row[0] == key_fingerprint(key or log_key())
