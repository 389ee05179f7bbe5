"""Recompute every stream's hash chain and check the projections against the log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.eventstore.backup import verify_log
from games.eventstore.repair import find_stale, repair_projections


class Command(BaseCommand):
    help = (
        "Verify the event log: every stream's versions run 1, 2, 3… and every chain "
        "hash matches its event (tampering in the database is reported with its "
        "stream and version). Also reports projections that disagree with the log; "
        "--repair re-projects them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--replay",
            action="store_true",
            help="Also decode every event and apply it through the rules.",
        )
        parser.add_argument(
            "--repair",
            action="store_true",
            help="Re-project the streams whose projection differs from the log.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        events, streams, problems = verify_log(replay=options["replay"])
        for problem in problems:
            self.stderr.write(f"TAMPERED {problem}")
        if options["repair"]:
            stale = repair_projections()
            for item in stale:
                self.stdout.write(f"repaired {item}")
            unrepaired = []
        else:
            unrepaired = find_stale()
            for item in unrepaired:
                self.stderr.write(f"STALE {item} (run with --repair)")
        if problems:
            self.stderr.write(
                f"{len(problems)} problem(s) in {events} events of {streams} streams"
            )
        else:
            self.stdout.write(
                f"{events} events of {streams} streams verified: every chain is intact"
            )
        if problems or unrepaired:
            raise SystemExit(1)
