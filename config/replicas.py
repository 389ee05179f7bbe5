"""Reads on PostgreSQL streaming replicas; writes, and reads that must see them, on
the primary.

``DATABASE_REPLICA_URLS`` (comma-separated ``postgresql://`` URLs) adds the
databases ``replica_1``, ``replica_2``, … (config/settings.py). Without it every
query goes to ``default``, as before. With it:

- a safe request (GET, HEAD, OPTIONS) reads the projections (standings, scorecards,
  game pages) on one replica, chosen at random for the whole request;
- an unsafe request (a result entered, a sign-in) reads and writes on the primary,
  and its response carries a signed cookie with the primary's WAL position after
  it (``read_after``);
- a request carrying that cookie reads on a replica only when the replica has
  replayed up to that position (one query, ``pg_last_wal_replay_lsn()``), else on
  the primary. A director who just entered a result therefore sees it on the next
  page however far the replicas lag, and is back on a replica as soon as one has
  caught up. Signed-out readers never wrote, carry no cookie, and read a replica;
  they may see the standings a moment old (at most the bound below), as from any
  cache.

A replica serves a request only while it is provably at most ``REPLICA_MAX_LAG``
behind (``REPLICA_MAX_LAG_MS``, default 1000 ms): every transaction the primary
committed more than that long ago is visible on it. Access decisions (the session
and its user, an API token, a tournament's ``published`` flag and team, a game's
visibility and share link) are reads like any other, so a revocation (unpublished,
link revoked, signed out, scorekeeper removed) reaches every read within the bound,
and at once when the replica is further behind than that: a lagging replica serves
nothing until it has caught up, the primary does. The lag is measured, not assumed
(``_measure``): the primary's WAL position and clock, then whether the replica has
replayed that position, else the commit time of the last transaction it replayed
(``pg_last_xact_replay_timestamp()``, the primary's clock). A measurement stays good
while the age it proves plus the time since stays within the bound, so a process
measures a replica about once per bound. All of a request's reads come from one
place, so a page and its cache key (the header's version) agree; a request that
outlives its replica's bound (a held feed) reads the primary from then on.

The event log and the states replayed from it stay on the primary (the router
sends ``games.eventstore`` there): appends validate against them, and a game page
that replays reads events the replica's projection already names by version, so
nothing is lost by reading them on the primary. Work outside a request (management
commands, a worker warming its caches) reads the primary too.

The mark is a WAL position rather than "a few seconds": a replica that lags by
more than any chosen window (replay paused, a long vacuum on the primary) would
otherwise hand a director the standings without their result. GitLab's database
load balancing keeps the same kind of position per user for the same reason.
"""

from __future__ import annotations

import contextvars
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, HttpResponse

COOKIE = "read_after"
# Long enough for any replica to catch up; past it the reader is on the replicas
# again whatever they replayed (a replica that far behind is broken, not lagging).
COOKIE_SECONDS = 300
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Apps whose tables are read on the primary whatever the request.
PRIMARY_APPS = frozenset({"eventstore"})


@dataclass
class _ReadContext:
    """Where this request reads: the primary, or a replica that has replayed
    `after` (a WAL position, or None for any replica)."""

    primary: bool
    after: str | None = None
    chosen: str | None = field(default=None)


_context: contextvars.ContextVar[_ReadContext | None] = contextvars.ContextVar(
    "read_context", default=None
)


def replica_aliases() -> list[str]:
    return list(getattr(settings, "DATABASE_REPLICAS", ()))


def _replayed(alias: str, position: str) -> bool:
    """Whether the replica `alias` has replayed the WAL up to `position`."""
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute(
                "SELECT coalesce(pg_last_wal_replay_lsn() >= %s::pg_lsn, false)",
                [position],
            )
            return bool(cursor.fetchone()[0])
    except DatabaseError:
        # Unreachable, or not a replica: this request reads the primary.
        return False


# alias -> a time.monotonic() instant before which every transaction the primary
# committed is visible on the replica (this process's last measurement).
_complete_before: dict[str, float] = {}


def _measure(alias: str) -> float | None:
    """The instant (time.monotonic()) before which every commit on the primary is
    visible on the replica `alias`, or None if that cannot be shown."""
    asked = time.monotonic()
    try:
        # The primary first: whatever it committed before `asked` is at or before
        # `position`.
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text, clock_timestamp()")
            position, primary_now = cursor.fetchone()
        with connections[alias].cursor() as cursor:
            cursor.execute(
                "SELECT coalesce(pg_last_wal_replay_lsn() >= %s::pg_lsn, false),"
                " pg_last_xact_replay_timestamp()",
                [position],
            )
            caught_up, replayed_commit = cursor.fetchone()
    except DatabaseError:
        return None  # unreachable: not shown fresh
    if caught_up:
        return asked
    if replayed_commit is None:
        return None  # behind, and nothing replayed since it started: age unknown
    # Behind: what it has not replayed was committed after the last commit it did
    # replay (both times are the primary's clock).
    return asked - max(0.0, (primary_now - replayed_commit).total_seconds())


def fresh_enough(alias: str) -> bool:
    """Whether the replica `alias` is at most REPLICA_MAX_LAG behind the primary
    now (measured again once the last measurement no longer shows it)."""
    bound = float(settings.REPLICA_MAX_LAG)
    complete_before = _complete_before.get(alias)
    if complete_before is None or time.monotonic() - complete_before > bound:
        complete_before = _measure(alias)
        if complete_before is None:
            _complete_before.pop(alias, None)
            return False
        _complete_before[alias] = complete_before
    return time.monotonic() - complete_before <= bound


def _choose(context: _ReadContext) -> str:
    aliases = replica_aliases()
    random.shuffle(aliases)
    for alias in aliases:
        if not fresh_enough(alias):
            continue
        if context.after is None or _replayed(alias, context.after):
            return alias
    return DEFAULT_DB_ALIAS


def reads_database() -> str:
    """The alias this request's projection reads go to."""
    context = _context.get()
    if (
        context is None
        or context.primary
        # Inside a transaction on the primary, a read must see what it wrote.
        or connections[DEFAULT_DB_ALIAS].in_atomic_block
    ):
        return DEFAULT_DB_ALIAS
    if context.chosen is None:
        context.chosen = _choose(context)
    elif context.chosen != DEFAULT_DB_ALIAS and not fresh_enough(context.chosen):
        # The request outlived its replica's bound: the primary from now on.
        context.chosen = DEFAULT_DB_ALIAS
    return context.chosen


def reading(model: type[Any] | None = None) -> BaseDatabaseWrapper:
    """The connection for a plain-SQL read of `model`'s table (as the ORM would
    route it)."""
    if model is None:
        return connections[reads_database()]
    return connections[router.db_for_read(model)]


class PrimaryReplicaRouter:
    """Django's database router for the layout described above."""

    def db_for_read(self, model: type[Any], **hints: Any) -> str:
        if model._meta.app_label in PRIMARY_APPS:
            return DEFAULT_DB_ALIAS
        return reads_database()

    def db_for_write(self, model: type[Any], **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        # Every alias holds the same rows (the replicas are copies of the primary).
        return True

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS


def primary_position() -> str:
    """The primary's current WAL position (after this process's commits)."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()::text")
        return str(cursor.fetchone()[0])


def _read_after(request: HttpRequest) -> str | None:
    try:
        return request.get_signed_cookie(COOKIE, default=None, max_age=COOKIE_SECONDS)
    except signing.BadSignature:
        return None


class ReadReplicaMiddleware:
    """Decide, per request, where its reads go (see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not replica_aliases():
            return self.get_response(request)
        writes = request.method not in SAFE_METHODS
        token = _context.set(_ReadContext(primary=writes, after=_read_after(request)))
        try:
            response = self.get_response(request)
        finally:
            _context.reset(token)
        if writes:
            response.set_signed_cookie(
                COOKIE,
                primary_position(),
                max_age=COOKIE_SECONDS,
                secure=request.is_secure(),
                httponly=True,
                samesite="Lax",
            )
        return response
