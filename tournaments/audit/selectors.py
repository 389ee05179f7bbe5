"""The audit: every event of a tournament, who and when, in words.

Each event type has a summary (``core.summaries``); a correction shows the old and the
new values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from games.eventstore.store import read_stream
from games.eventstore.streams import stream_type
from rules import tournament as rt
from rules.division_rules import PairingOptions
from tournaments.core.aggregate import tournament_stream
from tournaments.core.summaries import summary
from tournaments.models import Player, Tournament

# --- The audit ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One event of the tournament's log, as a director reads it."""

    version: int
    position: int
    recorded_at: Any
    recorded_by: str
    event_type: str
    summary: str
    payload: dict[str, Any]
    supersedes: dict[str, Any] | None
    # An import's report kept with its first event: what was odd in the file and
    # how it is kept (tournaments.ratings.imports).
    notes: tuple[str, ...] = ()
    # An amendment's impact as previewed and confirmed (tournaments.results.impact):
    # the whole report, and its lines in words.
    impact: dict[str, Any] | None = None

    @property
    def impact_summary(self) -> tuple[str, ...]:
        return tuple(str(line) for line in (self.impact or {}).get("summary", ()))


def tournament_audit(tournament: Tournament) -> list[AuditEntry]:
    """The whole log: who did what, when, and what each amendment superseded."""
    events = read_stream(tournament_stream(tournament.tournament_id))
    user_ids = {e.recorded_by_id for e in events if e.recorded_by_id}
    usernames = dict(
        get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username")
    )
    names = dict(
        Player.objects.filter(tournament=tournament).values_list("player_id", "name")
    )
    codec = stream_type("tournament").codec
    latest: dict[tuple[int, frozenset[str]], dict[str, Any]] = {}
    # What corrections change, as it stood before each of them (old and new).
    known: dict[str, dict[str, Any]] = {}
    entries = []
    for recorded in events:
        _, _, payload = codec.encode(recorded.event)
        changed = _before(recorded.type_name, payload, known)
        supersedes = None
        if recorded.type_name in ("result_recorded", "result_amended"):
            key = (
                payload["round"],
                frozenset((payload["player_a"], payload["player_b"])),
            )
            supersedes = (
                latest.get(key) if recorded.type_name == "result_amended" else None
            )
            latest[key] = payload
        entries.append(
            AuditEntry(
                version=recorded.version,
                position=recorded.position,
                recorded_at=recorded.recorded_at,
                recorded_by=usernames.get(recorded.recorded_by_id, ""),
                event_type=recorded.type_name,
                summary=summary(recorded.type_name, payload, names, changed),
                payload=payload,
                supersedes=supersedes,
                notes=_import_notes(recorded.metadata),
                impact=(recorded.metadata or {}).get("impact"),
            )
        )
    return entries


def _import_notes(metadata: Mapping[str, Any] | None) -> tuple[str, ...]:
    """An import's report kept with its first event: the notes of a .t, .TOU or
    config.tsh import (``notes``: their messages) and a tourney.js import's
    (``report``: each note whole, its message read here)."""
    metadata = metadata or {}
    notes = [str(note) for note in metadata.get("notes", ())]
    notes += [
        str(note["message"])
        for note in metadata.get("report") or ()
        if isinstance(note, Mapping) and "message" in note
    ]
    return tuple(notes)


# The fields a correction may change, by the key its values are known under.
_CORRECTED = {
    "player_edited": ("player_id", ("name", "rating", "member_id", "career_games")),
    "settings_changed": (
        None,
        (
            "rounds",
            "bye_spread",
            "forfeit_spread",
            "spread_cap",
            "spread_caps",
            "rating_system",
            "club_event",
            "tile_set",
            "lexicon",
        ),
    ),
}


def _before(
    type_name: str, payload: dict[str, Any], known: dict[str, dict[str, Any]]
) -> str:
    """Track players' details and the settings; for a correction, return its
    changes as "field old → new" (and remember the new values)."""
    if type_name == "player_registered":
        known[payload["player_id"]] = dict(payload)
    elif type_name == "tournament_created":
        # An older log's creation has no tile set or lexicon: it had these.
        known[""] = {"tile_set": "english", "lexicon": "", **payload}
    elif type_name == "lexicon_chosen":
        known.setdefault("", {})["lexicon"] = payload["lexicon"]
    elif type_name == "division_renamed":
        rules = known.pop(f"pairing:{payload['name']}", None)
        if rules is not None:
            known[f"pairing:{payload['new_name']}"] = rules
    elif type_name == "pairing_rules_set":
        return _pairing_rules_change(payload, known)
    if type_name not in _CORRECTED:
        return ""
    key_field, fields = _CORRECTED[type_name]
    key = str(payload.get(key_field, "")) if key_field else ""
    current = known.setdefault(key, {})
    if payload.get("clear_spread_cap"):
        payload = {**payload, "spread_cap": None}
        changes = ["spread_cap"]
    else:
        changes = []
    changes += [field for field in fields if payload.get(field) is not None]
    said = []
    for field in dict.fromkeys(changes):
        said.append(f"{field} {current.get(field)} → {payload.get(field)}")
        current[field] = payload.get(field)
    return ", ".join(said)


def _pairing_rules_change(
    payload: dict[str, Any], known: dict[str, dict[str, Any]]
) -> str:
    """A division's pairing rules as "option old → new" for what changed."""
    key = f"pairing:{payload['division']}"
    current = known.get(key) or _default_pairing_rules()
    new = payload["options"]
    known[key] = new
    return ", ".join(
        f"{name} {current.get(name)} → {value}"
        for name, value in new.items()
        if current.get(name) != value
    )


def _default_pairing_rules() -> dict[str, Any]:
    event = rt.PairingRulesSet(division="", options=PairingOptions())
    _, _, payload = stream_type("tournament").codec.encode(event)
    return dict(payload["options"])
