"""Services of prizes: a division's prize table.

The winners are never stored: ``prizes.selectors.prize_board`` computes them with
``rules.prizes`` from the table and the results.
"""

from __future__ import annotations

import uuid
from typing import Any

from games.eventstore.store import AppendResult
from rules import tournament as rt
from rules.division_rules import (
    PrizeTable,
)
from tournaments.core.writes import append_as_director


def prize_table_set(
    *,
    tournament_id: uuid.UUID,
    division: str,
    table: PrizeTable,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Set the division's rating classes and prize table (replacing the earlier
    one)."""
    return append_as_director(
        tournament_id=tournament_id,
        events=[rt.PrizeTableSet(division=division, table=table)],
        user=user,
        expected_version=expected_version,
    )
