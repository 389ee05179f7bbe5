"""Write the event log (or one tournament with its games) as a JSON Lines backup."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.eventstore.backup import BackupError, export_events
from games.eventstore.streams import StreamKey


class Command(BaseCommand):
    help = (
        "Export the event log as JSON Lines: a header, one line per event with its "
        "chain hash, and an end line with the file's sha256, the header and the end "
        "authenticated under EVENT_LOG_KEY (see games/eventstore/backup.py)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tournament",
            type=uuid.UUID,
            help="Export only this tournament and the games linked to it.",
        )
        parser.add_argument(
            "--output", "-o", type=Path, help="File to write (default: stdout)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        output: Path | None = options["output"]
        tournament = options["tournament"]
        # A tournament's stream takes its games along (registered by its type).
        scope = None if tournament is None else StreamKey("tournament", tournament)
        try:
            if output is None:
                summary = export_events(sys.stdout, scope=scope)
            else:
                # Write beside the target and rename: a failed export never leaves a
                # half-written backup under the real name.
                partial = output.with_name(output.name + ".partial")
                with partial.open("w", encoding="utf-8", newline="\n") as out:
                    summary = export_events(out, scope=scope)
                partial.replace(output)
        except BackupError as error:
            raise CommandError(str(error)) from error
        if output is not None:
            self.stderr.write(
                f"{summary.events} events of {summary.streams} streams written to "
                f"{output} (sha256 {summary.sha256})"
            )
