"""Rebuild every projection (read model) from the event log, with a progress bar.

    python manage.py rebuild_projections [game tournament] [--jobs N]

With ``--jobs N`` the projections are emptied once, then N worker processes share
the streams: each stream type is cut into shares (ranges of stream ids), and a
worker takes the next share when it finishes one. Stream types of few long streams
(tournaments) go first, so the longest share does not start last: with one share per
job, the job holding a national tournament finished seconds after the other.
``--partition k/N`` rebuilds one share (without emptying) in this process.
"""

from __future__ import annotations

import gc
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from tqdm import tqdm

from games.eventstore.rebuild import (
    SHARES_PER_JOB,
    rebuild_projections,
    rebuild_share,
    reset_projections,
)
from games.eventstore.store import event_count
from games.eventstore.streams import stream_types
from rules.numbers import whole_number


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
        known = {handler.name for handler in stream_types()}
        unknown = set(names or ()) - known
        if unknown:
            raise CommandError(
                f"unknown stream type(s): {', '.join(sorted(unknown))}; "
                f"known: {', '.join(sorted(known))}"
            )
        started = time.perf_counter()
        # Django's modules and settings live as long as the process: out of the
        # collector's sight, its full passes walk only the rebuild's own objects
        # (measured on the national log: 4.6 s of full passes in a 24 s one-process
        # rebuild). Forked workers inherit the frozen heap; unfrozen at the end, for
        # a caller that goes on (call_command).
        gc.collect()
        gc.freeze()
        try:
            self._rebuild(names, known, options, started)
        finally:
            gc.unfreeze()

    def _rebuild(
        self,
        names: list[str] | None,
        known: set[str],
        options: dict[str, Any],
        started: float,
    ) -> None:
        if options["partition"]:
            self._partition(names, options["partition"])
            return
        if options["jobs"] > 1:
            counts, total = self._parallel(names, options["jobs"], options["verbosity"])
        else:
            quiet = options["verbosity"] == 0
            # The bar's total costs a count of the log: only when it is shown.
            expected = (
                None if quiet else sum(event_count(name) for name in (names or known))
            )
            replayed = [0]

            def progress(events: int) -> None:
                replayed[0] += events
                bar.update(events)

            with tqdm(total=expected, unit="event", disable=quiet) as bar:
                counts = rebuild_projections(names, progress=progress)
            total = replayed[0]
        elapsed = time.perf_counter() - started
        for name, streams in sorted(counts.items()):
            self.stdout.write(f"{name}: {streams} streams rebuilt")
        self.stdout.write(f"{total} events replayed in {elapsed:.2f} s")

    def _partition(self, names: list[str] | None, text: str) -> None:
        try:
            index, count = (whole_number(part, low=0) for part in text.split("/"))
        except ValueError:  # a NumberError, or not two parts
            raise CommandError("--partition takes K/N, e.g. 0/2") from None
        if not 0 <= index < count:
            raise CommandError("--partition K/N needs 0 <= K < N")
        counts = rebuild_projections(names, partition=(index, count), reset=False)
        for name, streams in sorted(counts.items()):
            self.stdout.write(f"{name} {streams}")

    def _parallel(
        self, names: list[str] | None, jobs: int, verbosity: int
    ) -> tuple[dict[str, int], int]:
        """Rebuild with `jobs` workers; (streams per type, events replayed)."""
        reset_projections(names)
        handlers = [
            handler
            for handler in stream_types()
            if names is None or handler.name in names
        ]
        handlers.sort(key=lambda handler: not handler.long_streams)
        shares = [
            (handler.name, index, count)
            for handler in handlers
            for count in [jobs if handler.long_streams else jobs * SHARES_PER_JOB]
            for index in range(count)
        ]
        counts: dict[str, int] = {}
        events = 0
        # Forked workers inherit Django already set up (a spawned one took about a
        # second to start); each opens its own connection, so this process's must
        # not be inherited.
        connections.close_all()
        with ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("fork"),
        ) as pool:
            # Submitted in order; a free worker takes the next share.
            futures = [pool.submit(rebuild_share, *share) for share in shares]
            try:
                for future in tqdm(futures, unit="share", disable=verbosity == 0):
                    name, streams, share_events = future.result()
                    counts[name] = counts.get(name, 0) + streams
                    events += share_events
            except Exception as error:
                for future in futures:
                    future.cancel()
                raise CommandError(
                    f"a rebuild job failed ({error}); run again (projections are empty)"
                ) from error
        return counts, events
