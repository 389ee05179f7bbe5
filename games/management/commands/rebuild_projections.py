"""Rebuild every projection (read model) from the event log, with a progress bar.

    python manage.py rebuild_projections [game tournament] [--jobs N]

With ``--jobs N`` the projections are emptied once, then N processes each rebuild
the streams whose id hashes to their share (``--partition k/N``), in parallel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from tqdm import tqdm

from config.env import database_url
from games import eventstore


class Command(BaseCommand):
    help = "Empty the projections and rebuild them by replaying the event log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "stream_types",
            nargs="*",
            help="Stream types to rebuild (default: all, e.g. game tournament).",
        )
        parser.add_argument(
            "--jobs", type=int, default=1, help="Processes sharing the work."
        )
        parser.add_argument(
            "--partition",
            default=None,
            help="K/N: rebuild only share K of N, without emptying (used by --jobs).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        names = options["stream_types"] or None
        known = {handler.name for handler in eventstore.stream_types()}
        unknown = set(names or ()) - known
        if unknown:
            raise CommandError(
                f"unknown stream type(s): {', '.join(sorted(unknown))}; "
                f"known: {', '.join(sorted(known))}"
            )
        started = time.perf_counter()
        if options["partition"]:
            self._partition(names, options["partition"])
            return
        total = sum(eventstore.event_count(name) for name in (names or known))
        if options["jobs"] > 1:
            counts = self._parallel(names, options["jobs"], options["verbosity"])
        else:
            with tqdm(
                total=total, unit="event", disable=options["verbosity"] == 0
            ) as bar:
                counts = eventstore.rebuild_projections(names, progress=bar.update)
        elapsed = time.perf_counter() - started
        for name, streams in sorted(counts.items()):
            self.stdout.write(f"{name}: {streams} streams rebuilt")
        self.stdout.write(f"{total} events replayed in {elapsed:.2f} s")

    def _partition(self, names: list[str] | None, text: str) -> None:
        try:
            index, count = (int(part) for part in text.split("/"))
        except ValueError:
            raise CommandError("--partition takes K/N, e.g. 0/2") from None
        if not 0 <= index < count:
            raise CommandError("--partition K/N needs 0 <= K < N")
        counts = eventstore.rebuild_projections(
            names, partition=(index, count), reset=False
        )
        for name, streams in sorted(counts.items()):
            self.stdout.write(f"{name} {streams}")

    def _parallel(
        self, names: list[str] | None, jobs: int, verbosity: int
    ) -> dict[str, int]:
        eventstore.reset_projections(names)
        # The workers must reach this very database (a test database, too).
        env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict)}
        manage = Path(settings.BASE_DIR) / "manage.py"
        workers = [
            subprocess.Popen(
                [
                    sys.executable,
                    str(manage),
                    "rebuild_projections",
                    *(names or []),
                    "--partition",
                    f"{index}/{jobs}",
                ],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for index in range(jobs)
        ]
        counts: dict[str, int] = {}
        failed = False
        for worker in tqdm(workers, unit="job", disable=verbosity == 0):
            out, _ = worker.communicate()
            failed = failed or worker.returncode != 0
            for line in out.splitlines():
                name, _, number = line.partition(" ")
                if number.isdigit():
                    counts[name] = counts.get(name, 0) + int(number)
        if failed:
            raise CommandError(
                "a rebuild job failed; run again (projections are empty)"
            )
        return counts
