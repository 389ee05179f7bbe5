"""Migrate, load the demo on an empty database, and serve on 127.0.0.1:8000.

The README's run command. The database (embedded PostgreSQL unless DATABASE_URL is
set) was started when settings loaded; Ctrl-C or SIGTERM stops the web server and,
through atexit, the embedded PostgreSQL. While serving, a watchdog restarts an
embedded PostgreSQL that dies, or stops the server with a message saying why
(config/embedded_pg.py).
"""

from __future__ import annotations

import contextlib
import logging
import signal
from typing import Any

from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand, CommandParser

from config.embedded_pg import watch_embedded_postgres
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
                # No autoreloader: it would fork a child that outlives a SIGTERM.
                call_command("runserver", options["addrport"], use_reloader=False)
        finally:
            if watchdog is not None:
                watchdog.stop()
