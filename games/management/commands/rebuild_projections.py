"""Rebuild every projection (read model) from the event log, with a progress bar."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from games import eventstore


class Command(BaseCommand):
    help = "Empty the projections and rebuild them by replaying the event log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "stream_types",
            nargs="*",
            help="Stream types to rebuild (default: all, e.g. game tournament).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        names = options["stream_types"] or None
        known = {handler.name for handler in eventstore.stream_types()}
        unknown = set(names or ()) - known
        if unknown:
            self.stderr.write(
                f"unknown stream type(s): {', '.join(sorted(unknown))}; "
                f"known: {', '.join(sorted(known))}"
            )
            raise SystemExit(2)
        total = sum(eventstore.event_count(name) for name in (names or known))
        started = time.perf_counter()
        with tqdm(total=total, unit="event", disable=options["verbosity"] == 0) as bar:
            counts = eventstore.rebuild_projections(names, progress=bar.update)
        elapsed = time.perf_counter() - started
        for name, streams in sorted(counts.items()):
            self.stdout.write(f"{name}: {streams} streams rebuilt")
        self.stdout.write(f"{total} events replayed in {elapsed:.2f} s")
