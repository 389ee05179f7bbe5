"""Who wrote a game's notes and when: the log's facts about the events that wrote
and edited them (the rules know a note by the version that added it, nothing
more).

One reading for every reader: the score sheet's projection stores it with each
note (the API's turns), the game page shows it. Usage::

    stamps = note_stamps(game_id, versions_of(state.turns))
    note_document(note_view(note, stamps))   # {"id", "text", "author", …}
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rest_framework.fields import DateTimeField

from games.eventstore.models import StoredEvent
from rules.state import Note, Turn

_DATETIME = DateTimeField()  # the API's one datetime format


@dataclass(frozen=True, slots=True)
class NoteStamp:
    """Who wrote the note an event at a version records, and when; neither for a
    note read from an imported GCG file (its importer did not write it)."""

    author_id: int | None
    author: str
    at: datetime | None


def display_name(username: str, first_name: str, last_name: str) -> str:
    """How the site names a user: their full name, else their username."""
    full = f"{first_name} {last_name}".strip()
    return full or username


def versions_of(turns: Iterable[Turn]) -> set[int]:
    """The versions that wrote or last edited the notes on these lines."""
    versions: set[int] = set()
    for turn in turns:
        for note in turn.notes:
            versions.add(note.version)
            if note.edited_version is not None:
                versions.add(note.edited_version)
    return versions


def note_stamps(game_id: uuid.UUID, versions: Iterable[int]) -> dict[int, NoteStamp]:
    """Who wrote the notes the game's events at `versions` record, and when (one
    query)."""
    wanted = set(versions)
    if not wanted:
        return {}
    rows = StoredEvent.objects.filter(
        stream_id=game_id, version__in=wanted
    ).values_list(
        "version",
        "metadata",
        "recorded_at",
        "recorded_by_id",
        "recorded_by__username",
        "recorded_by__first_name",
        "recorded_by__last_name",
    )
    stamps = {}
    for version, metadata, at, user_id, username, first, last in rows:
        if "line" in metadata or user_id is None:
            # Read from a GCG file (its events carry their line): no author here.
            stamps[version] = NoteStamp(None, "", None)
        else:
            stamps[version] = NoteStamp(
                user_id, display_name(username, first, last), at
            )
    return stamps


@dataclass(frozen=True, slots=True)
class NoteView:
    """A note with who wrote it and when: its id is the version that added it
    (name it to edit or delete the note); a note read from a GCG file imported
    without a user has no author."""

    id: int
    text: str
    author: str
    author_id: int | None
    written_at: datetime | None
    edited_at: datetime | None


def note_view(note: Note, stamps: Mapping[int, NoteStamp]) -> NoteView:
    written = stamps.get(note.version)
    edited = stamps.get(note.edited_version) if note.edited_version else None
    return NoteView(
        id=note.version,
        text=note.text,
        author=written.author if written else "",
        author_id=written.author_id if written else None,
        written_at=written.at if written else None,
        edited_at=edited.at if edited else None,
    )


def note_document(view: NoteView) -> dict[str, Any]:
    """A note as the API and the projection give it (the API's datetime format)."""
    return {
        "id": view.id,
        "text": view.text,
        "author": view.author,
        "author_id": view.author_id,
        "written_at": _when(view.written_at),
        "edited_at": _when(view.edited_at),
    }


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else _DATETIME.to_representation(moment)
