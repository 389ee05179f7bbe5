"""How many notes a user may write in a minute (add, edit or withdraw), and what a
user may upload in a day (GCG files, the events they add, notes typed or inside
an upload), counted in the database; and how many notes a game may hold.

The count comes from the event log itself: a note is an event that records who
wrote it and when, so every worker process sees the same count and nothing else
is kept. A lock per user (held until the note's transaction ends) makes two notes
sent at once count one after the other. Usage::

    with transaction.atomic():
        check_note_quota(user)     # raises QuotaExceededError: a 429
        append(...)

An append counts once however many notes it holds (a GCG file's notes arrive in
one append): the minute's quota limits how often a user adds notes. What a user
adds in a day is counted apart, per (user, UTC day) in ``games_upload_usage``,
every note one, whether typed or inside an upload (one player added about 6,000
permanent events a second through private GCG uploads, and an upload's notes were
never counted)::

    with transaction.atomic():
        charge_upload(user, events=len(events), notes=notes, raised=False)
        append(...)                # a QuotaExceededError rolls the count back

A game's notes are capped by the rules when a note is added
(``rules.events.MAX_NOTES_PER_GAME``): an upload of 1,000 notes is refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
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
    """Raised when a user has added as many notes as a minute allows, or uploaded
    as much as a day allows; nothing was stored. ``retry_after`` is the seconds
    until the next is allowed; ``code`` names the quota (the API's 429 body)."""

    def __init__(
        self,
        limit: int,
        retry_after: int,
        message: str | None = None,
        code: str = "note_quota",
    ) -> None:
        self.limit = limit
        self.retry_after = retry_after
        self.code = code
        super().__init__(
            message
            or f"You may add {limit} notes a minute: try again in {retry_after} s."
        )


def check_note_quota(user: Any) -> None:
    """Raise QuotaExceededError when `user` has added NOTES_PER_MINUTE notes in the
    last minute (0: no quota), or NOTES_PER_DAY today. Call inside the transaction
    that adds the note."""
    if not connection.in_atomic_block:
        raise RuntimeError("check_note_quota needs a transaction (transaction.atomic)")
    limit = settings.NOTES_PER_MINUTE
    if limit > 0:  # 0: no quota
        now = timezone.now()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_CLASS, user.pk]
            )
            cursor.execute(_RECENT_NOTES, [*NOTE_TYPES, user.pk, now - WINDOW])
            count, oldest = cursor.fetchone()
        if count >= limit:
            wait = (oldest + WINDOW - now).total_seconds()
            raise QuotaExceededError(limit, max(1, math.ceil(wait)))
    # A typed note counts against the day's notes as an uploaded one does.
    charge_upload(user, files=0, events=0, notes=1, raised=user.is_staff)


# --- A day's uploads ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DayLimits:
    """What a user may add in a UTC day: GCG files uploaded, the events they add,
    and notes (typed, or inside an upload). 0: no limit."""

    files: int
    events: int
    notes: int


def day_limits(*, raised: bool) -> DayLimits:
    """The day's limits; `raised` for staff and for a tournament's directors
    uploading its games (settings.UPLOAD_QUOTA_RAISED_FACTOR times more)."""
    factor = settings.UPLOAD_QUOTA_RAISED_FACTOR if raised else 1
    return DayLimits(
        files=settings.UPLOADS_PER_DAY * factor,
        events=settings.UPLOAD_EVENTS_PER_DAY * factor,
        notes=settings.NOTES_PER_DAY * factor,
    )


_CHARGE = """
INSERT INTO games_upload_usage (user_id, day, files, events, notes)
VALUES (%s, %s, %s, %s, %s)
ON CONFLICT (user_id, day) DO UPDATE SET
    files = games_upload_usage.files + EXCLUDED.files,
    events = games_upload_usage.events + EXCLUDED.events,
    notes = games_upload_usage.notes + EXCLUDED.notes
RETURNING files, events, notes
"""


def charge_upload(
    user: Any, *, files: int = 1, events: int, notes: int, raised: bool
) -> None:
    """Count `files` uploads adding `events` events, `notes` of them notes, to
    `user`'s day; raise QuotaExceededError (a 429) when that goes beyond a limit.
    Call inside the transaction that appends them: the raise rolls the count
    back, and the row's lock makes one user's uploads count one after another."""
    if not connection.in_atomic_block:
        raise RuntimeError("charge_upload needs a transaction (transaction.atomic)")
    now = timezone.now()
    day = now.astimezone(UTC).date()
    with connection.cursor() as cursor:
        cursor.execute(_CHARGE, [user.pk, day, files, events, notes])
        used = DayLimits(*cursor.fetchone())
    limits = day_limits(raised=raised)
    for what, spent, limit in (
        ("GCG files", used.files, limits.files),
        ("events from uploads", used.events, limits.events),
        ("notes", used.notes, limits.notes),
    ):
        if 0 < limit < spent:
            midnight = datetime.combine(day + timedelta(days=1), time(), UTC)
            wait = max(1, math.ceil((midnight - now).total_seconds()))
            raise QuotaExceededError(
                limit,
                wait,
                f"You may add {limit:,} {what} a day; this would make "
                f"{spent:,}: try again tomorrow (UTC), in {wait} s.",
                code="upload_quota",
            )
