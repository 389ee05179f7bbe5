"""Import GCG files as game streams, with a progress bar and a report per file.

    python manage.py import_gcg FILE|DIR... [--user NAME] [--rules classic|naspa|wespa]
        [--tournament ID --division A --round N --board N]
        [--jobs N] [--batch-size N] [--from FILE]

Each file is read by ``rules.gcg`` and stored event by event; a file that cannot be
right is reported with every problem and its line, and nothing of it is stored. A
recorded score that differs from the rules' is kept as recorded and listed, and so is
every warning (what the record says that the reader accepted anyway).

One file is appended as the API appends it. Several (a directory is every ``*.gcg``
under it, in name order) take the bulk path (``games.imports``): the files are
validated in a process pool and written a batch a transaction. Ctrl-C (or a
SIGTERM) stops after the batch being written; every committed batch stays, and the
command prints the ``--from FILE`` that resumes where it stopped; so does any other
failure (the database lost, say). Running the same command again also resumes: a
file already imported (its sha256 is kept with its game, in the same tournament or
outside any) is named with its game and skipped, and so is a second file with the
same bytes in one run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games import services
from games.eventstore.bulk import Outcome, Rejected
from games.imports import (
    BATCH_SIZE,
    GcgReport,
    gcg_files,
    import_gcg_files,
    new_files,
)
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
        parser.add_argument(
            "--jobs",
            type=int,
            default=None,
            help="Worker processes validating files (default: one per CPU).",
        )
        parser.add_argument(
            "--batch-size",
            type=int,
            default=BATCH_SIZE,
            help=f"Files a transaction (default {BATCH_SIZE}).",
        )
        parser.add_argument(
            "--from",
            dest="start",
            type=Path,
            default=None,
            help="Resume a stopped import: skip the files before this one.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.verbosity = options["verbosity"]
        user = self._user(options["user"])
        context = {
            key: options[key]
            for key in ("division", "round", "board")
            if options[key] not in (None, "")
        }
        if options["tournament"]:
            context["tournament_id"] = options["tournament"]
        files = _from(gcg_files(options["files"]), options["start"])
        if not files:
            raise CommandError("no .gcg files to import")
        single = len(files) == 1 and not options["files"][0].is_dir()
        files = self._not_imported(files, user, options["rules"], context)
        if not files:
            self.stdout.write("every file was imported already: nothing to do")
            return
        if single:
            self._import_one(files[0], user, options["rules"], context)
            return
        self._import_bulk(files, user, context, options)

    def _not_imported(
        self,
        files: list[Path],
        user: Any,
        rules: str | None,
        context: dict[str, Any],
    ) -> list[Path]:
        """The files to import; those imported already are named and skipped."""
        plan = services.gcg_import_plan(user=user, rules_name=rules, context=context)
        tournament_id = plan.context.get("tournament_id")
        fresh, known = new_files(files, str(tournament_id) if tournament_id else None)
        for item in known:
            if item.game_id is not None:
                self.stdout.write(
                    f"{item.path}: already imported as game {item.game_id} (skipped)"
                )
            else:
                self.stdout.write(
                    f"{item.path}: the same file as {item.same_as} (skipped)"
                )
        if known:
            self.stdout.write(f"{len(known)} file(s) skipped, {len(fresh)} to import")
        return fresh

    def _import_one(
        self, path: Path, user: Any, rules: str | None, context: dict[str, Any]
    ) -> None:
        try:
            data = path.read_bytes()
        except OSError as error:
            self.stderr.write(f"{path}: cannot read: {error.strerror}")
            raise CommandError("1 of 1 file(s) not imported") from None
        try:
            result, record = services.game_import_gcg(
                text=data, user=user, rules_name=rules, context=context, counted=False
            )
        except GcgError as error:
            self._report_rejected(str(path), error.problems)
            raise CommandError("1 of 1 file(s) not imported") from None
        self._report_stored(
            str(path),
            GcgReport(
                result.stream.id,
                result.version,
                tuple(record.state.scores),
                tuple(record.warnings),
                tuple(record.discrepancies),
            ),
        )

    def _import_bulk(
        self,
        files: list[Path],
        user: Any,
        context: dict[str, Any],
        options: dict[str, Any],
    ) -> None:
        reported: list[str] = []

        def report(outcome: Outcome) -> None:
            if isinstance(outcome, Rejected):
                self._report_rejected(outcome.unit, outcome.problems)
            else:
                self._report_stored(outcome.unit, outcome.report)
            files_bar.update(1)
            reported.append(outcome.unit)

        # A bar of events (its rate is events/s) and one of files.
        with (
            tqdm(unit="event", unit_scale=True, position=0, disable=None) as bar,
            tqdm(total=len(files), unit="file", position=1, disable=None) as files_bar,
        ):
            try:
                summary = import_gcg_files(
                    files,
                    user=user,
                    rules_name=options["rules"],
                    context=context,
                    jobs=options["jobs"],
                    batch_size=options["batch_size"],
                    on_outcome=report,
                    progress=bar.update,
                )
            except Exception as error:
                # Each outcome is reported once its batch committed, in order.
                done = len(reported)
                raise CommandError(
                    f"stopped by {type(error).__name__} after {done} of "
                    f"{len(files)} file(s): the files reported above are kept; run "
                    "the same command again (files already imported are skipped), "
                    f"or resume with --from {files[done]}"
                ) from error
        self.stdout.write(
            f"{summary.streams} game(s) of {summary.events} events imported, "
            f"{summary.rejected} file(s) not imported"
        )
        if summary.interrupted:
            stopped = (
                f"; resume with --from {summary.resume_from}"
                if summary.resume_from is not None
                else ""
            )
            raise CommandError(
                f"interrupted: the {summary.batches} batch(es) written are kept"
                + stopped
            )
        if summary.rejected:
            raise CommandError(
                f"{summary.rejected} of {len(files)} file(s) not imported"
            )

    def _report_rejected(
        self, path: str, problems: list[tuple[int | None, str, str]]
    ) -> None:
        self.stderr.write(f"{path}: not imported")
        for line, code, message in problems:
            where = f"line {line}: " if line is not None else ""
            self.stderr.write(f"  {where}{message} [{code}]")

    def _report_stored(self, path: str, report: GcgReport) -> None:
        if self.verbosity < 1:
            return
        scores = " – ".join(str(score) for score in report.scores)
        self.stdout.write(
            f"{path}: imported as game {report.game_id} "
            f"({report.events} events, {scores})"
        )
        for warning in report.warnings:
            self.stdout.write(
                f"  line {warning.line}: warning: {warning.message} [{warning.code}]"
            )
        for discrepancy in report.discrepancies:
            self.stdout.write(
                f"  line {discrepancy.line}: {discrepancy.kind} recorded "
                f"{discrepancy.recorded}, the rules give {discrepancy.computed} "
                "(kept as recorded)"
            )

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


def _from(files: list[Path], start: Path | None) -> list[Path]:
    """The files from `start` on (as named when the import stopped)."""
    if start is None:
        return files
    names = [str(path) for path in files]
    if str(start) not in names:
        raise CommandError(f"--from {start}: not among the files to import")
    return files[names.index(str(start)) :]
