"""Write the API's OpenAPI schema to docs/openapi.yaml, or check that it is current.

Usage::

    python manage.py openapi            # after changing an endpoint; commit the file
    python manage.py openapi --check    # exit 1, with the diff, when it is stale
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.openapi import REGENERATE, SCHEMA_PATH, schema_diff, schema_text


class Command(BaseCommand):
    help = "Write the OpenAPI schema to docs/openapi.yaml (--check: compare only)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="Exit 1 with the diff when docs/openapi.yaml differs from the code.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            diff = schema_diff()
            if diff:
                self.stdout.write(diff)
                raise CommandError(
                    f"{SCHEMA_PATH.name} is out of date: run {REGENERATE}"
                )
            self.stdout.write(f"{SCHEMA_PATH.name} is current")
            return
        SCHEMA_PATH.write_text(schema_text())
        self.stdout.write(f"Wrote {SCHEMA_PATH}")
