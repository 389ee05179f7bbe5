"""Migrate, load the demo on an empty database, and serve on 127.0.0.1:8000.

The README's run command. The database (embedded PostgreSQL unless DATABASE_URL is
set) was started when settings loaded; Ctrl-C or SIGTERM stops the web server and,
through atexit, the embedded PostgreSQL. While serving, a watchdog restarts an
embedded PostgreSQL that dies, or stops the server with a message saying why
(config/embedded_pg.py).

The server is uvicorn running ``config.asgi`` in this process, as production's
gunicorn workers do: the live feed as coroutines, the pages on a pool of threads
(games/feedserver.py). uvicorn catches SIGINT and SIGTERM, stops (open feed
streams are cut after ``GRACEFUL_SECONDS``), and raises the signal again once it
has stopped, so the handlers below still run: Ctrl-C ends quietly, SIGTERM exits
through atexit.
"""

from __future__ import annotations

import contextlib
import logging
import signal
from typing import Any

from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.embedded_pg import watch_embedded_postgres
from config.uvicorn_worker import GRACEFUL_SECONDS
from games.eventstore.repair import repair_projections

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Migrate, load demo data on an empty database, and run the web server."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--no-demo", action="store_true", help="Do not load the demo data."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=1)
        # A projection behind its log (detected by its version) is re-projected
        # before anyone reads it, when the log verifies; a log in doubt (shorter
        # than its projection or head, or a chain that fails) is left as it is.
        report = repair_projections()
        for stale in report.repaired:
            self.stdout.write(f"Repaired the projection of {stale}")
        for refusal in report.refused:
            message = (
                f"TAMPERING: {refusal}. Not re-projected and flagged: see "
                "`manage.py verify_events` (docs/RELIABILITY.md)"
            )
            self.stderr.write(self.style.ERROR(message))
            logger.error(message)
        if not options["no_demo"] and "demo" in get_commands():
            call_command("demo", if_empty=True)
        self.stdout.write(f"Serving on http://{options['addrport']}/ (Ctrl-C stops)")
        # A shell starting us in the background leaves SIGINT ignored; Ctrl-C (or
        # kill -INT) must still stop the server and, through atexit, PostgreSQL.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        watchdog = watch_embedded_postgres()
        try:
            with contextlib.suppress(KeyboardInterrupt):
                run_server(*address(options["addrport"]))
        finally:
            if watchdog is not None:
                watchdog.stop()


def address(addrport: str) -> tuple[str, int]:
    """("127.0.0.1", 8000) from "127.0.0.1:8000" (or "8000")."""
    host, _, port = addrport.rpartition(":")
    if not port.isascii() or not port.isdecimal():
        raise CommandError(
            f"Not an address and port: {addrport!r} (e.g. 127.0.0.1:8000)"
        )
    return host or "127.0.0.1", int(port)


def run_server(host: str, port: int) -> None:
    """uvicorn serving the site until a signal stops it (no reloader: it would
    fork a child that outlives a SIGTERM)."""
    import uvicorn

    uvicorn.run(
        "config.asgi:application",
        host=host,
        port=port,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )
