"""Standings: the public path of ``rules.tournament.standings``.

The ranking is the tournament's own rule (the writers' records rank players with
it), so it lives in the tournament package; this module keeps the short import.

Usage::

    from rules.standings import standings
    for row in standings(state, "A"):
        print(row.rank, row.name, row.record, row.spread)
"""

from __future__ import annotations

from rules.tournament.standings import (
    StandingRow,
    format_record,
    ranked_player_ids,
    standing_key,
    standings,
)

__all__ = [
    "StandingRow",
    "format_record",
    "ranked_player_ids",
    "standing_key",
    "standings",
]
