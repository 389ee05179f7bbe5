"""The event log: one immutable row per event of every stream, in one global order.

Rows are immutable: a database trigger refuses UPDATE, DELETE and TRUNCATE (the
games app's migration 0002 created it with the table, before the model moved here;
see this app's migration 0001). Everything else is derived from these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class StoredEvent(models.Model):
    """One immutable event of one stream, in the global order of `position`."""

    # bigserial: one total order over all streams for readers that follow everything.
    position = models.BigAutoField(primary_key=True)
    stream_type = models.CharField(max_length=32)
    stream_id = models.UUIDField()
    version = models.PositiveIntegerField()
    event_type = models.CharField(max_length=64)
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    # Facts about the event that the rules do not read (tournament of a game, GCG line).
    metadata = models.JSONField(default=dict, blank=True)
    recorded_at = models.DateTimeField()
    # PROTECT: a user with recorded events cannot be deleted (SET_NULL would be an
    # UPDATE of the log, which the trigger refuses anyway).
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    correlation_id = models.UUIDField(null=True, blank=True)
    # HMAC, under a key kept out of the database, over the previous event's hash and
    # this row's every other column (games.eventstore.chain): a row changed, inserted
    # or deleted in the database breaks the chain (manage.py verify_events).
    chain_hash = models.CharField(max_length=64)

    class Meta:
        db_table = "event_log"
        constraints = [
            # Optimistic concurrency: two appenders at the same version, one wins.
            # Also serves read_stream (WHERE stream_id = … ORDER BY version).
            models.UniqueConstraint(
                fields=["stream_id", "version"], name="event_log_stream_version"
            ),
        ]
        # The ratings feed's partial index is made by migration 0002 alone: its
        # event types are the tournaments app's (the store imports no domain code).

    def __str__(self) -> str:
        return f"{self.stream_type}/{self.stream_id}@{self.version} {self.event_type}"


class StreamHead(models.Model):
    """The last version and chain hash of each stream, written with its events.

    The append that adds events moves the head in the same statement, and refuses
    to move a head that is not where the log ends. A log that ends before its head
    (events deleted in the database) or after it (events inserted around the store)
    is tampering: ``verify_events`` reports it, and the start-up repair never
    re-projects such a stream (``games.eventstore.repair``). Not a projection: a
    rebuild leaves it alone.
    """

    stream_id = models.UUIDField(primary_key=True)
    stream_type = models.CharField(max_length=32)
    version = models.PositiveIntegerField()
    chain_hash = models.CharField(max_length=64)
    # An HMAC under the log's key over the stream, version and chain hash
    # (games.eventstore.chain.head_mac): a head rewound in the database has no
    # code that verifies, and an append moves the head only from the code it
    # expects (a server with another key, or a stale cached hash, is refused).
    mac = models.CharField(max_length=64, db_default="")

    class Meta:
        db_table = "event_stream_head"

    def __str__(self) -> str:
        return f"{self.stream_type}/{self.stream_id} at {self.version}"


class FlaggedStream(models.Model):
    """A stream whose log failed a check: not re-projected until it verifies again.

    Written by the start-up repair and ``verify_events --repair`` (never by an
    append); ``verify_events`` lists them. Cleared when the stream verifies again
    (after a restore from a backup, ``import_events``).
    """

    stream_id = models.UUIDField(primary_key=True)
    stream_type = models.CharField(max_length=32)
    problem = models.TextField()
    flagged_at = models.DateTimeField()

    class Meta:
        db_table = "event_stream_flag"

    def __str__(self) -> str:
        return f"{self.stream_type}/{self.stream_id}: {self.problem}"


class FeedEntry(models.Model):
    """An event's place in commit order: the live feed's cursor (``feed.py``).

    ``position`` is taken from a sequence when an append starts writing, so two
    appends can commit in the other order and a reader following positions could
    move past an event not yet visible. ``feed_position`` is assigned at commit,
    under one short lock (migration 0003's deferred trigger): an event visible at
    feed position P follows every event that will ever be visible below P.
    Immutable like the log. Written by the trigger only, never by Python.
    """

    feed_position = models.BigIntegerField(primary_key=True)
    position = models.BigIntegerField()
    stream_type = models.CharField(max_length=32)
    stream_id = models.UUIDField()

    class Meta:
        db_table = "event_feed"
        indexes = [
            # A stream's or a stream type's events in commit order (a game's live
            # view, a tournament's feed, the ratings feed).
            models.Index(
                fields=["stream_id", "feed_position"], name="event_feed_stream"
            ),
            models.Index(
                fields=["stream_type", "feed_position"], name="event_feed_type"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.feed_position}: event {self.position}"


class FeedSeal(models.Model):
    """One link of the feed's chain under the log's key (``games.eventstore.seal``).

    Each feed entry, once committed, is sealed with an HMAC over the previous
    seal's, its feed position and the event it numbers (stream, log position,
    version, chain hash). A feed entry deleted, or an event deleted with its entry
    and its stream's head rewound, breaks the chain: ``verify_events`` reports it.
    The stream is kept here so that a deleted entry is still attributed to it.
    Written after each append commits (and by ``verify_events``); immutable like
    the feed.
    """

    feed_position = models.BigIntegerField(primary_key=True)
    stream_type = models.CharField(max_length=32)
    stream_id = models.UUIDField()
    mac = models.CharField(max_length=64)

    class Meta:
        db_table = "event_feed_seal"

    def __str__(self) -> str:
        return f"seal {self.feed_position}: {self.stream_type}/{self.stream_id}"


class LogKey(models.Model):
    """The fingerprint of the key the log is chained under (one row).

    Written by the migrations and ``rekey_events``; a server whose key differs is
    told so when an append is refused (``LogKeyChangedError``) rather than
    writing events that will not verify, and writes no seal.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    fingerprint = models.CharField(max_length=64)

    class Meta:
        db_table = "event_log_key"

    def __str__(self) -> str:
        return f"log key {self.fingerprint[:12]}…"


class KeptState(models.Model):
    """A stream's replayed state at `version`, sealed by its stream type: a game's
    at its last version (the game page starts from it), a tournament's every few
    hundred versions (a cold worker applies only the events since).

    A cache of the log, not a read model: keyed by the stream and true of its
    version forever (events never change), so it hangs off no projection row and
    ``verify_events`` does not compare it. The store keeps the bytes
    (``games.eventstore.kept``); the stream type seals them (an HMAC over its code's
    fingerprint, the stream and the version, under ``SECRET_KEY``) and ignores a
    state it cannot vouch for. Emptied and written again by
    ``rebuild_projections``.
    """

    stream_id = models.UUIDField(primary_key=True)
    stream_type = models.CharField(max_length=32)
    version = models.PositiveIntegerField()
    state = models.BinaryField()

    class Meta:
        db_table = "event_kept_state"

    def __str__(self) -> str:
        return f"{self.stream_type}/{self.stream_id}@{self.version}"
