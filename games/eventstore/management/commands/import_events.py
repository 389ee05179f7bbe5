"""Restore a JSON Lines backup into the event log, after verifying it.

    python manage.py import_events FILE [--legacy-unkeyed]
    python manage.py import_events FILE --bulk [--jobs N] [--batch-events N]
        [--from-stream N]

By default everything is verified before anything is written, and the file is
written in one transaction. With ``--bulk`` (a whole log), the file as a whole
(authentication codes, counts, checksum, order) is checked first, then its streams
are checked in worker processes and written a batch of whole streams a transaction
(``games.eventstore.restore``): a stream that fails is reported with its line and
not written. Ctrl-C stops after the batch being written, keeps every committed
batch, and prints the ``--from-stream`` that resumes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.eventstore.backup import BackupError, import_events
from games.eventstore.bulk import Outcome, Rejected
from games.eventstore.restore import BATCH_EVENTS, import_events_bulk


class Command(BaseCommand):
    help = (
        "Import a backup written by export_events: its authentication codes (under "
        "EVENT_LOG_KEY), every chain, version and event are verified; the file's "
        "streams must be absent."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="The .jsonl backup file.")
        parser.add_argument(
            "--legacy-unkeyed",
            action="store_true",
            help="Accept a backup of the first format, made before the log had a "
            "key: its plain hashes and checksum are checked, but anyone could have "
            "recomputed them. Only for a file you know was kept safe.",
        )
        parser.add_argument(
            "--bulk",
            action="store_true",
            help="Check streams in worker processes and write them in batches.",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=None,
            help="With --bulk: worker processes (default: one per CPU).",
        )
        parser.add_argument(
            "--batch-events",
            type=int,
            default=BATCH_EVENTS,
            help=f"With --bulk: events a transaction (default {BATCH_EVENTS}).",
        )
        parser.add_argument(
            "--from-stream",
            type=int,
            default=0,
            help="With --bulk: resume a stopped restore (as it printed).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        if options["bulk"]:
            self._bulk(path, options)
            return
        try:
            summary = import_events(path, legacy=options["legacy_unkeyed"])
        except BackupError as error:
            raise CommandError(f"{path}: {error}; nothing was imported") from error
        self._imported(summary.events, summary.streams, summary.users_created)
        if not summary.positions_kept:
            self.stdout.write("(appended after the existing log)")

    def _imported(self, events: int, streams: int, users: int) -> None:
        self.stdout.write(
            f"{events} events of {streams} streams imported"
            + (f", {users} user accounts created" if users else "")
        )

    def _bulk(self, path: Path, options: dict[str, Any]) -> None:
        def report(outcome: Outcome) -> None:
            if isinstance(outcome, Rejected):
                for line, _, message in outcome.problems:
                    self.stderr.write(
                        f"{path}: line {line}: {message}; stream "
                        f"{outcome.unit.stream_id} not imported"
                    )

        with tqdm(unit="event", unit_scale=True, disable=None) as bar:
            try:
                summary = import_events_bulk(
                    path,
                    from_stream=options["from_stream"],
                    jobs=options["jobs"],
                    batch_events=options["batch_events"],
                    on_outcome=report,
                    progress=bar.update,
                    legacy=options["legacy_unkeyed"],
                )
            except BackupError as error:
                raise CommandError(f"{path}: {error}; nothing was imported") from error
        self._imported(summary.events, summary.streams, summary.users_created)
        if not summary.positions_kept:
            self.stdout.write("(appended after the existing log, chained again)")
        if summary.interrupted:
            resume = (
                f"; resume with: import_events {path} --bulk "
                f"--from-stream {summary.resume_from_stream}"
                if summary.resume_from_stream is not None
                else ""
            )
            raise CommandError("interrupted: the batches written are kept" + resume)
        if summary.rejected:
            raise CommandError(f"{summary.rejected} stream(s) not imported")
