"""Services of prizes: a division's prize table.

The winners are never stored: ``prizes.selectors.prize_board`` computes them with
``rules.prizes`` from the table and the results.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from games.eventstore.store import AppendResult
from rules import tournament as rt
from rules.division_rules import (
    Prize,
    PrizeKind,
    PrizeTable,
    RatingClass,
    TieBreak,
    TieRule,
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
        tournament_id,
        [rt.PrizeTableSet(division=division, table=table)],
        user=user,
        expected_version=expected_version,
    )


def table_from(data: Mapping[str, Any]) -> PrizeTable:
    """The prize table of a validated ``PrizeTableFields`` document (amounts in
    currency units become whole cents)."""
    return PrizeTable(
        classes=tuple(
            RatingClass(c["name"], c["lowest"], c["highest"]) for c in data["classes"]
        ),
        prizes=tuple(_prize_from(p) for p in data["prizes"]),
    )


def _prize_from(data: Mapping[str, Any]) -> Prize:
    return Prize(
        kind=PrizeKind(data["kind"]),
        amount=int(Decimal(data["amount"]) * 100),
        place=data["place"],
        rating_class=data["rating_class"],
        ties=TieRule(data["ties"]),
        tie_break=TieBreak(data["tie_break"]),
        exclusive=data["exclusive"],
        label=data["label"],
        first_round=data["first_round"],
        last_round=data["last_round"],
    )
