"""gunicorn's worker class for the ASGI application (config/gunicorn.conf.py).

uvicorn-worker's worker, with a bound on the graceful stop: uvicorn waits for every
open response to finish before it stops, and a live-feed stream is held for
``FEED_HOLD_SECONDS`` (30 s, gunicorn's own graceful timeout), so a restart would
wait on the followers. After ``GRACEFUL_SECONDS`` the streams still open are cut
(their browsers reconnect to another worker and resume from their last id); a page
or a result entry in progress has long finished by then.
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker

GRACEFUL_SECONDS = 5


class Worker(UvicornWorker):
    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
    }
