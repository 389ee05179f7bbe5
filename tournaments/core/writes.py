"""The one write path of a director's command: a validated append.

``append_as_director`` decides the user's right (``core.access``) on the aggregate,
and appends the events with the expected version: the rules refuse what is illegal
(nothing is stored), a stale version raises ``ConcurrencyError``. Every feature's
services write through it. A caller that has loaded the aggregate for its request
(the console's slip: its form and its right come from it) passes it as ``loaded``,
so that one request loads it once.

Usage::

    result = append_as_director(tournament_id=tid, events=[rt.DivisionAdded(name="B")],
                                user=mara, expected_version=12)
    result = append_as_director(tournament_id=tid, events=events, user=mara,
                                expected_version=None, loaded=(version, aggregate))
    tournament_append(tournament_id=tid, events=[...], user=mara)
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection, transaction

from games.eventstore.errors import ConcurrencyError
from games.eventstore.store import (
    AppendResult,
    NewEvent,
    append,
    append_queued,
    current_version,
    lock_stream,
)
from games.eventstore.streams import StreamKey
from rules import tournament as rt
from tournaments.core.access import is_director, may_enter_results, refuse_unless
from tournaments.core.aggregate import (
    TournamentAggregate,
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
    *,
    tournament_id: uuid.UUID,
    events: Sequence[object],
    user: Any,
    expected_version: int | None,
    loaded: tuple[int, TournamentAggregate] | None = None,
    correlation_id: uuid.UUID | None = None,
    retry: bool = False,
    results_only: bool = False,
) -> AppendResult:
    """Append as a director (or, for ``results_only`` events, a scorekeeper).

    The right is decided once, here, by ``core.access`` on the aggregate the request
    works from: ``loaded`` (version, aggregate) when the caller has it, else loaded
    here. Raises PermissionDeniedError (403) for anyone else. The events are
    validated once, by the rules, when the store appends them.

    Without `retry` the append expects `expected_version`, or else the version of
    that aggregate: a change since gives ConcurrencyError (the "reload" answer).

    With `retry` and no `expected_version`, the append goes at whatever version the
    stream has when its turn comes, validated by the rules on that state, and an
    append that lost a race is tried again: right for facts that do not depend on
    what the caller saw (a result from a score slip: the rules still refuse a
    duplicate), wrong for anything else.

    One write path, one transaction rule: the append joins the caller's transaction
    when there is one, and otherwise commits on its own. Only in the second case may
    a retried append be batched with the ones this process's threads queued
    meanwhile (``eventstore.append_queued``: one lock, projection and commit for
    all; it commits on its own, so never inside a caller's transaction); that is a
    matter of throughput (five directors entering slips into one tournament), not
    of what is stored. Inside a transaction a retried append waits on the stream's
    lock instead (``lock_stream``) and appends at the version it finds."""
    version, state = loaded if loaded is not None else tournament_state(tournament_id)
    allowed = may_enter_results if results_only else is_director
    refuse_unless(allowed, version, state, user, tournament_id)
    stream = tournament_stream(tournament_id)
    if not (retry and expected_version is None):
        result = append(
            stream,
            events,
            expected_version=version if expected_version is None else expected_version,
            recorded_by=user,
            correlation_id=correlation_id,
        )
        _pair_scheduled_rounds(tournament_id, events, result)
        return result
    for attempt in range(RETRIES):
        try:
            result = _append_when_its_turn_comes(stream, events, user, correlation_id)
        except ConcurrencyError:
            if attempt == RETRIES - 1:
                raise
            # A little jitter, so that the same appenders do not collide again.
            time.sleep(random.uniform(0, 0.01 * (attempt + 1)))
            continue
        _pair_scheduled_rounds(tournament_id, events, result)
        return result
    raise AssertionError("unreachable")


# The events after which a scheduled round may have become due: a result completes
# its basis, a pairing or a withdrawal changes what can be paired, a schedule or a
# round count names new rounds.
_SCHEDULE_TRIGGERS = (
    rt.ResultRecorded,
    rt.ForfeitRecorded,
    rt.ResultAmended,
    rt.UnpairedRoundRecorded,
    rt.RoundPaired,
    rt.RoundScheduleSet,
    rt.PlayerWithdrawn,
    rt.PlayerReactivated,
    rt.PlayerRegistered,
    rt.SettingsChanged,
)


# Who pairs the rounds a schedule says are due: the pairing feature registers it
# when the app is ready (tournaments.apps), as the core imports no feature.
_due_round_pairer: Callable[[uuid.UUID], object] | None = None


def register_due_round_pairer(pairer: Callable[[uuid.UUID], object]) -> None:
    """Set the function that pairs a tournament's due scheduled rounds."""
    global _due_round_pairer
    _due_round_pairer = pairer


def _pair_scheduled_rounds(
    tournament_id: uuid.UUID, events: Sequence[object], result: AppendResult
) -> None:
    """Right after a write, pair the rounds the division's round schedule says
    are due now (tsh's ``autopair``), as the system, in the same write path."""
    # An event may come with metadata (an amendment with its impact).
    plain = [e.event if isinstance(e, NewEvent) else e for e in events]
    if not any(isinstance(event, _SCHEDULE_TRIGGERS) for event in plain):
        return
    rules = getattr(result.state, "rules", None)
    if rules is None or not rules.round_schedules:
        return  # no schedule (the state the append left): nothing to look for
    if _due_round_pairer is not None:
        _due_round_pairer(tournament_id)


def append_as_system(
    *, tournament_id: uuid.UUID, events: Sequence[object], expected_version: int
) -> AppendResult:
    """Append what the system decides by itself (a round its schedule pairs):
    validated by the rules like every append, recorded by nobody (the audit shows
    no user), at ``expected_version`` (a change since raises ConcurrencyError)."""
    return append(
        tournament_stream(tournament_id),
        events,
        expected_version=expected_version,
        recorded_by=None,
    )


def _append_when_its_turn_comes(
    stream: StreamKey,
    events: Sequence[object],
    user: Any,
    correlation_id: uuid.UUID | None,
) -> AppendResult:
    """Append at the stream's version once the appends before this one are written
    (see append_as_director for the transaction rule)."""
    if not connection.in_atomic_block:
        # Written together with the other directors' results queued in this
        # process meanwhile (one lock, projection and commit).
        return append_queued(
            stream, events, recorded_by=user, correlation_id=correlation_id
        )
    with transaction.atomic():
        # Wait for the other directors' appends instead of racing them.
        lock_stream(stream)
        return append(
            stream,
            events,
            expected_version=current_version(stream),
            recorded_by=user,
            correlation_id=correlation_id,
        )


def tournament_append(
    *,
    tournament_id: uuid.UUID,
    events: Sequence[object],
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Append director events as they are (the API's generic path)."""
    return append_as_director(
        tournament_id=tournament_id,
        events=events,
        user=user,
        expected_version=expected_version,
    )
