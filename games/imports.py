"""Import many GCG files at once: the bulk path of ``manage.py import_gcg``.

Each file is read and validated in a worker process exactly as
:func:`games.services.game_import_gcg` reads and appends one (``gcg_new_events``,
then the store's ``validate_new_stream``), and the games are written a batch a
transaction by ``games.eventstore.bulk``. A file that cannot be right is reported
with its problems and lines, and nothing of it is stored; the other files of its
batch are. Usage::

    summary = import_gcg_files(
        paths, user=user, rules_name=None, context={}, on_outcome=report
    )
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from django.db import connection

from games import services
from games.eventstore.bulk import (
    BulkSummary,
    Outcome,
    Rejected,
    prepare_new_stream,
    run_bulk,
)
from games.eventstore.errors import EventRejectedError
from rules import gcg
from rules.errors import GcgError

# Files a transaction: about 11,000 events of real-length games, a second or two
# of the server's work, so a stopped run loses little and commits stay rare.
BATCH_SIZE = 200


@dataclass(frozen=True, slots=True)
class GcgReport:
    """What the command prints for a file that was stored."""

    game_id: uuid.UUID
    events: int
    scores: tuple[int, ...]
    warnings: tuple[gcg.GcgWarning, ...]
    discrepancies: tuple[gcg.GcgDiscrepancy, ...]


def gcg_files(paths: Sequence[Path]) -> list[Path]:
    """The files named, with each directory's ``*.gcg`` files (all levels), in
    name order: the order a stopped import resumes in."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if _is_gcg(p)))
        else:
            files.append(path)
    return files


def _is_gcg(path: Path) -> bool:
    return path.suffix.lower() == ".gcg" and path.is_file()


# Games by the digest of the file they were imported from, in one tournament
# (or outside any): the first event of each imported game keeps its digest.
_IMPORTED = """
SELECT metadata->>'gcg_sha256', stream_id FROM event_log
WHERE stream_type = 'game' AND version = 1
  AND metadata->>'gcg_sha256' = ANY(%s)
  AND (metadata->>'tournament_id') IS NOT DISTINCT FROM %s
"""


def imported_games(
    digests: Sequence[str], tournament_id: str | None
) -> dict[str, uuid.UUID]:
    """The games already imported from files with these digests (into the
    tournament given, or outside any), by digest."""
    with connection.cursor() as cursor:
        cursor.execute(_IMPORTED, [list(digests), tournament_id])
        return dict(cursor.fetchall())


@dataclass(frozen=True, slots=True)
class KnownFile:
    """A file not imported again: the game it already is, or the file of this run
    with the same bytes."""

    path: Path
    game_id: uuid.UUID | None
    same_as: Path | None


def new_files(
    paths: Sequence[Path], tournament_id: str | None
) -> tuple[list[Path], list[KnownFile]]:
    """The files not imported yet (each content once, the first of its name
    order), and those already imported or repeated. An unreadable file is left
    in, for the import to report."""
    digests: dict[Path, str] = {}
    for path in paths:
        try:
            digests[path] = services.gcg_digest(path.read_bytes())
        except OSError:
            continue
    stored = imported_games(list(set(digests.values())), tournament_id)
    fresh: list[Path] = []
    known: list[KnownFile] = []
    first: dict[str, Path] = {}
    for path in paths:
        digest = digests.get(path)
        if digest is not None and digest in stored:
            known.append(KnownFile(path, stored[digest], None))
        elif digest is not None and digest in first:
            known.append(KnownFile(path, None, first[digest]))
        else:
            if digest is not None:
                first[digest] = path
            fresh.append(path)
    return fresh, known


def import_gcg_files(
    paths: Sequence[Path],
    *,
    user: Any,
    rules_name: str | None = None,
    context: Mapping[str, Any] | None = None,
    jobs: int | None = None,
    batch_size: int = BATCH_SIZE,
    on_outcome: Callable[[Outcome], None] | None = None,
    progress: Callable[[int], None] | None = None,
    after_batch: Callable[[int], None] | None = None,
) -> BulkSummary:
    """Store every file of `paths` as a game, `batch_size` files a transaction.

    Who may import and under which rules is decided once, as for one file
    (``gcg_import_plan``): GamePermissionError or TournamentError before anything
    is read. ``on_outcome`` gets a Prepared (its ``report`` a :class:`GcgReport`)
    or a Rejected for every file, in order, once its batch committed.
    """
    plan = services.gcg_import_plan(user=user, rules_name=rules_name, context=context)
    prepare = functools.partial(prepare_files, plan=plan, user_id=user.pk)
    return run_bulk(
        [str(path) for path in paths],
        prepare,
        batch_size=batch_size,
        jobs=jobs,
        on_outcome=on_outcome,
        progress=progress,
        after_batch=after_batch,
    )


def prepare_files(
    paths: list[str], *, plan: services.GcgImportPlan, user_id: int
) -> list[Outcome]:
    """Read, validate and encode each file (in a worker process)."""
    return [prepare_file(path, plan, user_id) for path in paths]


def prepare_file(path: str, plan: services.GcgImportPlan, user_id: int) -> Outcome:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        return Rejected(path, [(None, "unreadable", f"cannot read: {error.strerror}")])
    try:
        record, wrapped = services.gcg_new_events(data, plan)
    except GcgError as error:
        return Rejected(path, list(error.problems))
    stream = services.game_stream(uuid.uuid4())
    try:
        prepared = prepare_new_stream(
            path,
            stream,
            wrapped,
            recorded_by_id=user_id,
            applied=services.gcg_applied_state(record, wrapped),
        )
    except EventRejectedError as error:
        line = record.event_lines[error.index]
        return Rejected(path, [(line, error.code, error.message)])
    report = GcgReport(
        stream.id,
        len(prepared.rows),
        tuple(record.state.scores),
        tuple(record.warnings),
        tuple(record.discrepancies),
    )
    return replace(prepared, report=report)
