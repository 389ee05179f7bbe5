"""The audit: every event of a tournament, who and when, in words.

Each event type has a summary (``_summary``); a correction shows the old and the
new values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from games.eventstore.store import read_stream
from games.eventstore.streams import stream_type
from rules import tournament as rt
from rules.division_rules import PairingOptions
from tournaments.core.aggregate import tournament_stream
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
                summary=_summary(recorded.type_name, payload, names, changed),
                payload=payload,
                supersedes=supersedes,
            )
        )
    return entries


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


def _summary(
    type_name: str, payload: dict[str, Any], names: dict[str, str], changed: str = ""
) -> str:
    def name(player_id: str | None) -> str:
        return names.get(player_id or "", player_id or "?")

    p = payload
    match type_name:
        case "tournament_created":
            return f"Created {p['name']} ({p['rounds']} rounds)"
        case "division_added":
            return f"Added division {p['name']}"
        case "player_registered":
            return f"Registered {p['name']} ({p['rating']}) in {p['division']}"
        case "player_withdrawn":
            who = name(p["player_id"])
            return f"{who} withdrew from round {p['from_round']} ({p['policy']})"
        case "player_reactivated":
            return f"{name(p['player_id'])} re-activated from round {p['from_round']}"
        case "round_paired":
            games = len(p["games"])
            return (
                f"Paired round {p['round']} of {p['division']} "
                f"({p['method']}, {games} games)"
            )
        case "result_recorded" | "result_amended":
            verb = "Amended" if type_name == "result_amended" else "Result"
            if p.get("absentee"):
                return f"{verb} round {p['round']}: {name(p['absentee'])} forfeits"
            return (
                f"{verb} round {p['round']}: {name(p['player_a'])} "
                f"{p['score_a']}–{p['score_b']} {name(p['player_b'])}"
            )
        case "forfeit_recorded":
            return f"Round {p['round']}: {name(p['absentee'])} forfeits"
        case "unpaired_round_recorded":
            who = name(p["player_id"])
            return f"Round {p['round']}: {who} credited {p['spread']:+d}"
        case "director_added":
            return f"Director added: {p['username']}"
        case "director_removed":
            return "Director removed"
        case "publication_changed":
            return "Published" if p["published"] else "Unpublished"
        case "player_account_linked":
            return f"{name(p['player_id'])} linked to a user account"
        case "player_edited":
            return f"Corrected {name(p['player_id'])}: {changed}"
        case "settings_changed":
            return f"Settings corrected: {changed}"
        case "division_renamed":
            return f"Division {p['name']} renamed {p['new_name']}"
        case "scorekeeper_added":
            return f"Scorekeeper added: {p['username']}"
        case "scorekeeper_removed":
            return "Scorekeeper removed"
        case "pairing_rules_set":
            return f"Pairing rules of {p['division']}: {changed or 'unchanged'}"
        case "prize_table_set":
            table = p["table"]
            return (
                f"Prize table of {p['division']}: {len(table['prizes'])} prizes,"
                f" {len(table['classes'])} rating classes"
            )
        case "lexicon_chosen":
            return f"Word list: {p['lexicon'] or 'none'}"
        case "game_setup_set":
            own = p["setup"]
            tiles = own["tile_set"] or "the tournament's"
            words = {None: "the tournament's", "": "none"}.get(
                own["lexicon"], own["lexicon"]
            )
            return f"Games of {p['division']}: tile set {tiles}, lexicon {words}"
    return type_name
