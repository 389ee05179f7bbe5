"""Django's PostgreSQL backend, with a cheaper health check at the start of a request.

``CONN_HEALTH_CHECKS`` makes Django run ``SELECT 1`` on a kept connection before a
request first uses it. Under load that round trip cost more than its own time: a
thread waiting on the database gives up the GIL and queues to take it back behind
the threads rendering pages (national benchmark, HTML pages, two paired runs: p95
160 and 100 ms without the query, 210 and 160 ms with it).

An idle connection in autocommit mode has nothing to read. When the server closes
it (a restart, ``pg_terminate_backend``, an idle timeout) the socket turns readable
with the server's goodbye, so a socket with nothing to read, on a connection psycopg
has not seen break, is sound. Anything else (something to read, a transaction left
open, a connection psycopg marked broken) gets Django's own check, ``SELECT 1``.
A server that vanished without closing its sockets is not caught by either check
before the request's first query waits on it.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus


class DatabaseWrapper(base.DatabaseWrapper):
    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is None
            or not self.health_check_enabled
            or self.health_check_done
            or self.pool
        ):
            return super().close_if_health_check_failed()
        if not self._sound_without_round_trip() and not self.is_usable():
            self.close()
        self.health_check_done = True

    def _sound_without_round_trip(self) -> bool:
        connection = self.connection
        if connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != TransactionStatus.IDLE:
            return False
        try:
            readable, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return not readable
