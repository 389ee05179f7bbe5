"""Import GCG files as game streams, with a progress bar and a report per file.

    python manage.py import_gcg FILE... [--user NAME] [--rules classic|naspa|wespa]
        [--tournament ID --division A --round N --board N]

Each file is read by ``rules.gcg`` and stored event by event; a file that cannot be
right is reported with every problem and its line, and nothing of it is stored. A
recorded score that differs from the rules' is kept as recorded and listed, and so is
every warning (what the record says that the reader accepted anyway).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games import services
from rules.errors import GcgError


class Command(BaseCommand):
    help = "Import GCG game records into the event store."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument(
            "--user",
            default=None,
            help="Who records the games (default: the first superuser).",
        )
        parser.add_argument("--rules", choices=["classic", "naspa", "wespa"])
        parser.add_argument("--tournament", default=None)
        parser.add_argument("--division", default="")
        parser.add_argument("--round", type=int, default=None)
        parser.add_argument("--board", type=int, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        user = self._user(options["user"])
        context = {
            key: options[key]
            for key in ("division", "round", "board")
            if options[key] not in (None, "")
        }
        if options["tournament"]:
            context["tournament_id"] = options["tournament"]
        failed = 0
        files = options["files"]
        for path in tqdm(files, unit="file", disable=len(files) < 2):
            try:
                data = path.read_bytes()
            except OSError as error:
                failed += 1
                self.stderr.write(f"{path}: cannot read: {error.strerror}")
                continue
            try:
                result, record = services.game_import_gcg(
                    text=data, user=user, rules_name=options["rules"], context=context
                )
            except GcgError as error:
                failed += 1
                self.stderr.write(f"{path}: not imported")
                for line, code, message in error.problems:
                    self.stderr.write(f"  line {line}: {message} [{code}]")
                continue
            scores = " – ".join(str(score) for score in record.state.scores)
            self.stdout.write(
                f"{path}: imported as game {result.stream.id} "
                f"({result.version} events, {scores})"
            )
            for warning in record.warnings:
                self.stdout.write(
                    f"  line {warning.line}: warning: {warning.message} "
                    f"[{warning.code}]"
                )
            for discrepancy in record.discrepancies:
                self.stdout.write(
                    f"  line {discrepancy.line}: {discrepancy.kind} recorded "
                    f"{discrepancy.recorded}, the rules give {discrepancy.computed} "
                    "(kept as recorded)"
                )
        if failed:
            raise CommandError(f"{failed} of {len(files)} file(s) not imported")

    def _user(self, name: str | None) -> Any:
        users = get_user_model()
        if name is not None:
            try:
                return users.objects.get(username=name)
            except users.DoesNotExist:
                raise CommandError(f"no user {name!r}") from None
        user = users.objects.filter(is_superuser=True).order_by("pk").first()
        if user is None:
            raise CommandError(
                "give --user NAME (no superuser exists to record the games)"
            )
        return user
