"""A rate limit on anonymous readers' expensive reads, counted in PostgreSQL.

The heavy reads (a game's GCG export, its event log a thousand at a time, its
state at an earlier version, a tournament's files) are kept by version in the
read cache (games.readcache), so a reader repeating one costs a dictionary look-up.
What remains is a reader asking for ever new ones (every offset of the log, every
version of the state): each is a build. Those builds are what this counts, per
client address and minute, for readers who are not signed in; a signed-in reader
is accountable and limited by the quotas on writes instead.

The counters live in the one store every worker and machine shares, PostgreSQL (an
in-process counter would give each of N workers its own allowance): an UNLOGGED
table (``games_anonymous_reads``, no WAL: a crash may forget a minute's counts,
which costs nothing), one upsert per counted read, whose row lock makes two
workers' counts add up. It is taken only on a cache miss of a heavy read, never on
the hot path of a cached page or API body (standings, scorecards, the viewer).
Usage, in a heavy read's build::

    def build():
        limit_anonymous(request)      # RateLimitedError: a 429 with Retry-After
        return expensive()
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from config.auth import client_address

WINDOW_SECONDS = 60

# One row per (minute, address); the minute first, so that dropping old minutes
# is a range of the primary key.
_COUNT = """
INSERT INTO games_anonymous_reads (minute, address, reads) VALUES (%s, %s, 1)
ON CONFLICT (minute, address) DO UPDATE
SET reads = games_anonymous_reads.reads + 1
RETURNING reads
"""
_FORGET = "DELETE FROM games_anonymous_reads WHERE minute < %s"


class RateLimitedError(Exception):
    """An anonymous reader has made as many expensive reads as a minute allows;
    ``retry_after`` is the seconds until the next minute."""

    code = "rate_limited"

    def __init__(self, limit: int, retry_after: int) -> None:
        self.limit = limit
        self.retry_after = retry_after
        super().__init__(
            f"Readers who are not signed in may make {limit} such requests a "
            f"minute from one address: try again in {retry_after} s, or sign in."
        )


def limit_anonymous(request: Any) -> None:
    """Count one expensive read against an anonymous reader's address; raise
    RateLimitedError beyond ANONYMOUS_HEAVY_READS_PER_MINUTE (0: no limit). A
    signed-in reader is not counted."""
    limit = settings.ANONYMOUS_HEAVY_READS_PER_MINUTE
    user = getattr(request, "user", None)
    if limit <= 0 or getattr(user, "is_authenticated", False):
        return
    now = time.time()
    minute = int(now // WINDOW_SECONDS)
    # Always the primary: a replica cannot take the write, and every worker must
    # see the same count.
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(_COUNT, [minute, client_address(request)])
        (reads,) = cursor.fetchone()
        if reads == 1:
            # The address's first read this minute: the minutes before are done.
            cursor.execute(_FORGET, [minute - 1])
    if reads > limit:
        wait = max(1, math.ceil((minute + 1) * WINDOW_SECONDS - now))
        raise RateLimitedError(limit, wait)
