"""How many notes a user may write in a minute (add, edit or withdraw), counted in
the database.

The count comes from the event log itself: a note is an event that records who
wrote it and when, so every worker process sees the same count and nothing else
is kept. A lock per user (held until the note's transaction ends) makes two notes
sent at once count one after the other. Usage::

    with transaction.atomic():
        check_note_quota(user)     # raises QuotaExceededError: a 429
        append(...)

An append counts once however many notes it holds (a GCG file's notes arrive in
one append): the quota limits how often a user adds notes, not a game's notes.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from rules.events import NoteAdded, NoteDeleted, NoteEdited

WINDOW = timedelta(minutes=1)
# The first key of the users' note locks (pg_advisory_xact_lock(int, int)): "note".
_LOCK_CLASS = int.from_bytes(b"note", "big")

# Every write of a note counts: added, edited or withdrawn.
NOTE_TYPES = tuple(event.type_name for event in (NoteAdded, NoteEdited, NoteDeleted))
# Served by the games app's partial index event_log_notes (migration 0007), whose
# predicate names the same types.
_RECENT_NOTES = """
SELECT count(DISTINCT (stream_id, recorded_at)), min(recorded_at)
FROM event_log
WHERE event_type IN (%s, %s, %s) AND recorded_by_id = %s AND recorded_at > %s
"""


class QuotaExceededError(Exception):
    """Raised when a user has added as many notes as a minute allows; nothing was
    stored. ``retry_after`` is the seconds until the next note is allowed."""

    def __init__(self, limit: int, retry_after: int) -> None:
        self.limit = limit
        self.retry_after = retry_after
        super().__init__(
            f"You may add {limit} notes a minute: try again in {retry_after} s."
        )


def check_note_quota(user: Any) -> None:
    """Raise QuotaExceededError when `user` has added NOTES_PER_MINUTE notes in the
    last minute (0: no quota). Call inside the transaction that adds the note."""
    if not connection.in_atomic_block:
        raise RuntimeError("check_note_quota needs a transaction (transaction.atomic)")
    limit = settings.NOTES_PER_MINUTE
    if limit <= 0:
        return  # no quota
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_CLASS, user.pk])
        cursor.execute(_RECENT_NOTES, [*NOTE_TYPES, user.pk, now - WINDOW])
        count, oldest = cursor.fetchone()
    if count >= limit:
        wait = (oldest + WINDOW - now).total_seconds()
        raise QuotaExceededError(limit, max(1, math.ceil(wait)))
