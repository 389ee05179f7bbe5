"""An amendment's impact, shown before it is stored and kept with it in the audit.

The rules decide it (``rules.impact.amendment_impact``: the log folded as it is and
with the amendment); this module reads the log at a version, asks the rules, and
writes the answer as one JSON document: the API's preview answer, the console's
preview page and the amendment event's metadata (``impact``) that the audit shows.

Usage::

    preview = amendment_preview(tournament_id, event)
    preview.version, preview.document["pairings"]
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from games.eventstore.errors import ConcurrencyError
from games.eventstore.store import current_version, read_stream
from rules import tournament as rt
from rules.impact import AmendmentImpact, PairingChange, PrizeChange, amendment_impact
from rules.tournament import Board
from tournaments.core.aggregate import tournament_stream
from tournaments.core.events import SYSTEM_EVENT_TYPES
from tournaments.prizes.presenters import money, ordinal, prize_title

_SYSTEM_TYPES = tuple(SYSTEM_EVENT_TYPES.values())


@dataclass(frozen=True, slots=True)
class AmendmentPreview:
    """The impact of an amendment on the log at ``version``, as a document."""

    version: int
    document: dict[str, Any]


# How long a preview is kept for its confirm (the director reads it meanwhile).
PREVIEW_SECONDS = 15 * 60


def amendment_preview(
    tournament_id: uuid.UUID,
    event: rt.ResultAmended,
    expected_version: int | None = None,
) -> AmendmentPreview:
    """What ``event`` would change on the tournament's log as it is now.

    Raises ConcurrencyError when ``expected_version`` is given and the log is no
    longer at it (a confirm of a preview made on an older log), and
    TournamentError when the rules refuse the amendment.
    """
    stream = tournament_stream(tournament_id)
    version = current_version(stream)
    if expected_version is not None and expected_version != version:
        raise ConcurrencyError(stream, expected_version, version)
    # The log at a version never changes and the impact is a pure function of it
    # and the amendment: the confirm of a preview (a national's later rounds
    # paired again take seconds) finds it here, in this process's cache.
    key = f"amend-impact:{tournament_id}:{version}:{_digest(event)}"
    document = cache.get(key)
    if document is None:
        recorded = read_stream(stream, to_version=version)
        log = [r.event for r in recorded if not isinstance(r.event, _SYSTEM_TYPES)]
        impact = amendment_impact(log, event)
        document = impact_document(impact, _names(log, impact), version)
        cache.set(key, document, PREVIEW_SECONDS)
    return AmendmentPreview(version, document)


def _digest(event: rt.ResultAmended) -> str:
    """The amendment's fields, hashed into a cache key."""
    return hashlib.sha256(repr(event).encode()).hexdigest()


def _names(log: Sequence[object], impact: AmendmentImpact) -> dict[str, str]:
    """Each player's name as the standings give it (the latest)."""
    names = {row.player_id: row.name for s in impact.standings[:1] for row in s.rows}
    for event in log:
        if isinstance(event, rt.PlayerRegistered):
            names.setdefault(event.player_id, event.name)
    return names


def impact_document(
    impact: AmendmentImpact, names: Mapping[str, str], version: int
) -> dict[str, Any]:
    """The impact as JSON: only what changes (a national's standings are long),
    with a line of words for each change (``summary``)."""

    def name(player_id: str) -> str:
        return names.get(player_id, player_id)

    standings = [
        {
            "round": s.round,
            "changes": [
                {
                    "player": row.player_id,
                    "name": row.name,
                    "rank_before": row.rank_before,
                    "rank_after": row.rank_after,
                    "record_before": row.record_before,
                    "record_after": row.record_after,
                    "spread_before": row.spread_before,
                    "spread_after": row.spread_after,
                    "moved": row.moved,
                }
                for row in s.rows
                if row.changed
            ],
        }
        for s in impact.standings
    ]
    pairings = [_pairing_document(p, name) for p in impact.pairings]
    prizes = [_prize_document(p, name) for p in impact.prizes]
    return {
        "version": version,
        "division": impact.division,
        "round": impact.round,
        "standings": standings,
        "pairings": pairings,
        "gibsons": [
            {
                "round": p.round,
                "before": [name(x) for x in p.recorded_gibsons],
                "after": [name(x) for x in p.corrected_gibsons],
            }
            for p in impact.gibsons_changed
        ],
        "prizes": prizes,
        "summary": _summary(impact, standings, pairings, prizes, name),
    }


def _games(games: Sequence[Board], name: Any) -> list[str]:
    return [f"{name(g.first)}–{name(g.second)}" for g in games]


def _pairing_document(change: PairingChange, name: Any) -> dict[str, Any]:
    return {
        "round": change.round,
        "method": change.method.value,
        "reproducible": change.reproducible,
        "based_on_round": change.based_on_round,
        "differs": change.differs,
        "games_before": _games(change.recorded_games, name),
        "games_after": _games(change.corrected_games, name),
        "games_gone": _games(change.games_gone, name),
        "games_new": _games(change.games_new, name),
        "firsts_changed": _games(change.firsts_changed, name),
        "byes_before": [name(p) for p in change.recorded_byes],
        "byes_after": [name(p) for p in change.corrected_byes],
        "gibsons_before": [name(p) for p in change.recorded_gibsons],
        "gibsons_after": [name(p) for p in change.corrected_gibsons],
        "new_coin_flips": change.flips_short,
        "note": change.note,
    }


def _prize_document(change: PrizeChange, name: Any) -> dict[str, Any]:
    def winners(won: Sequence[tuple[str, Any]]) -> list[dict[str, str]]:
        return [{"player": p, "name": name(p), "amount": money(a)} for p, a in won]

    return {
        "prize": prize_title(change.prize),
        "before": winners(change.before),
        "after": winners(change.after),
    }


def _summary(
    impact: AmendmentImpact,
    standings: list[dict[str, Any]],
    pairings: list[dict[str, Any]],
    prizes: list[dict[str, Any]],
    name: Any,
) -> list[str]:
    """One line of words per change, for the audit."""
    lines = []
    for s in standings:
        moved = [
            f"{c['name']} {_place(c['rank_before'])} → {_place(c['rank_after'])}"
            for c in s["changes"]
            if c["moved"]
        ]
        if moved:
            lines.append(f"Standings after round {s['round']}: " + ", ".join(moved))
    for p in pairings:
        if not p["reproducible"]:
            lines.append(f"Round {p['round']}: {p['note']}")
        elif p["games_gone"] or p["games_new"]:
            lines.append(
                f"Round {p['round']} would be paired "
                + ", ".join(p["games_new"])
                + " instead of "
                + ", ".join(p["games_gone"])
            )
        elif p["firsts_changed"]:
            lines.append(
                f"Round {p['round']}: who goes first would change in "
                + ", ".join(p["firsts_changed"])
            )
    for g in impact.gibsons_changed:
        before = ", ".join(name(x) for x in g.recorded_gibsons) or "nobody"
        after = ", ".join(name(x) for x in g.corrected_gibsons) or "nobody"
        lines.append(f"Round {g.round} Gibsonization: {before} → {after}")
    for prize in prizes:
        before = ", ".join(w["name"] for w in prize["before"]) or "nobody"
        after = ", ".join(w["name"] for w in prize["after"]) or "nobody"
        lines.append(f"{prize['prize']}: {before} → {after}")
    if not lines:
        lines.append("No later standing, pairing, Gibson decision or prize changes.")
    return lines


def _place(rank: int | None) -> str:
    return ordinal(rank) if rank is not None else "unranked"
