"""Migrate, load the demo on an empty database, and serve on 127.0.0.1:8000.

The README's run command. The database (embedded PostgreSQL unless DATABASE_URL is
set) was started when settings loaded; Ctrl-C or SIGTERM stops the web server and,
through atexit, the embedded PostgreSQL. While serving, a watchdog restarts an
embedded PostgreSQL that dies, or stops the server with a message saying why
(config/embedded_pg.py).
"""

from __future__ import annotations

import contextlib
import signal
from typing import Any

from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand, CommandParser

from config.embedded_pg import watch_embedded_postgres
from games.eventstore.repair import repair_projections


class Command(BaseCommand):
    help = "Migrate, load demo data on an empty database, and run the web server."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--no-demo", action="store_true", help="Do not load the demo data."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=1)
        # A projection that disagrees with the log (detected by its version) is
        # re-projected before anyone reads it.
        for stale in repair_projections():
            self.stdout.write(f"Repaired the projection of {stale}")
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
