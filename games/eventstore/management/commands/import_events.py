"""Restore a JSON Lines backup into the event log, after verifying all of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.eventstore.backup import BackupError, import_events


class Command(BaseCommand):
    help = (
        "Import a backup written by export_events: its authentication codes (under "
        "EVENT_LOG_KEY), every chain, version and event are verified before "
        "anything is written; the file's streams must be absent."
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

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        try:
            summary = import_events(path, legacy=options["legacy_unkeyed"])
        except BackupError as error:
            raise CommandError(f"{path}: {error}; nothing was imported") from error
        self.stdout.write(
            f"{summary.events} events of {summary.streams} streams imported"
            + (
                f", {summary.users_created} user accounts created"
                if summary.users_created
                else ""
            )
            + ("" if summary.positions_kept else " (appended after the existing log)")
        )
