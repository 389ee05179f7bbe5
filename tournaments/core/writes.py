"""The one write path of a director's command: a validated append.

``append_as_director`` checks the user's right against the aggregate, builds the
events and appends them with the expected version: the rules refuse what is illegal
(nothing is stored), a stale version raises ``ConcurrencyError``. Every feature's
services write through it.

Usage::

    result = append_as_director(tid, [rt.DivisionAdded(name="B")], user=mara,
                                expected_version=12)
    tournament_append(tournament_id=tid, events=[...], user=mara)
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction

from games.eventstore.errors import ConcurrencyError
from games.eventstore.store import (
    AppendResult,
    append,
    append_queued,
    lock_stream,
)
from tournaments.core.access import _refuse_unless, is_director, may_enter_results
from tournaments.core.aggregate import (
    tournament_state,
    tournament_stream,
)

# Attempts for an append that gave no expected version and lost a race (see
# append_as_director). Such appends queue on the stream's lock, so only a writer
# that skips the lock (one sending its expected version) can still win a race
# against them; before the lock, five directors typing slips into one tournament
# collided often (12 of 208 results lost five attempts at national scale).
RETRIES = 25


def append_as_director(
    tournament_id: uuid.UUID,
    events: Sequence[object],
    *,
    user: Any,
    expected_version: int | None,
    correlation_id: uuid.UUID | None = None,
    retry: bool = False,
    results_only: bool = False,
) -> AppendResult:
    """Append as a director (or, for ``results_only`` events, a scorekeeper).

    With `retry` and no `expected_version`, an append that lost a race to another
    director is validated again on the new state and retried: right for facts that
    do not depend on what the caller saw (a result from a score slip: the rules
    still refuse a duplicate), wrong for anything else. Outside a transaction such
    appends are queued and written together with the others this process's
    threads queued meanwhile (``eventstore.append_queued``). Raises
    PermissionDeniedError (403) for anyone else."""
    queue = retry and expected_version is None
    attempts = RETRIES if queue else 1
    stream = tournament_stream(tournament_id)
    allowed = may_enter_results if results_only else is_director
    for attempt in range(attempts):
        try:
            if queue and not connection.in_atomic_block:
                # Written together with the other directors' results queued in
                # this process meanwhile (one lock, projection and commit).
                return append_queued(
                    stream,
                    events,
                    recorded_by=user,
                    correlation_id=correlation_id,
                    check=lambda version, state: _refuse_unless(
                        allowed, version, state, user, tournament_id
                    ),
                )
            with transaction.atomic():
                if queue:
                    # Wait for the other directors' appends instead of racing them.
                    lock_stream(stream)
                version, state = tournament_state(tournament_id)
                _refuse_unless(allowed, version, state, user, tournament_id)
                return append(
                    stream,
                    events,
                    expected_version=(
                        version if expected_version is None else expected_version
                    ),
                    recorded_by=user,
                    correlation_id=correlation_id,
                )
        except ConcurrencyError:
            if attempt == attempts - 1:
                raise
            # A little jitter, so that the same appenders do not collide again.
            time.sleep(random.uniform(0, 0.01 * (attempt + 1)))
    raise AssertionError("unreachable")


def tournament_append(
    *,
    tournament_id: uuid.UUID,
    events: Sequence[object],
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Append director events as they are (the API's generic path)."""
    return append_as_director(
        tournament_id, events, user=user, expected_version=expected_version
    )
