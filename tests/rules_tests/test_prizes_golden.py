"""Golden prize tables: hand-built divisions whose awards are written out by hand in
golden/prize_tables.json (each with the reason, by the rule in rules/prizes.py's
docstring): ties for a place, class prizes before and after place prizes of the
same exclusive group, two exclusive groups, and the split / all / tie_break rules."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rules.prizes import (
    Prize,
    PrizeKind,
    PrizeTable,
    RatingClass,
    TieBreak,
    TieRule,
    prize_winners,
)
from rules.tournament import (
    Board,
    DivisionAdded,
    PlayerRegistered,
    Ranking,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentState,
    replay,
)

GOLDEN = json.loads(
    (Path(__file__).parent / "golden" / "prize_tables.json").read_text("utf-8")
)


def division(name: str) -> TournamentState:
    """The golden file's division, registered in its order (player numbers 1..)."""
    spec = GOLDEN["divisions"][name]
    events: list[Any] = [
        TournamentCreated(
            name, "2025-05-01", "2025-05-01", spec["rounds"], ranking=Ranking.TSH
        ),
        DivisionAdded("A"),
        *[PlayerRegistered(p, "A", p.upper(), r) for p, r in spec["players"].items()],
    ]
    for round_ in range(1, spec["rounds"] + 1):
        games = [g[1:] for g in spec["games"] if g[0] == round_]
        boards = tuple(Board(i, a, b) for i, (a, b, _, _) in enumerate(games, 1))
        events.append(RoundPaired("A", round_, boards))
        events += [ResultRecorded(round_, a, b, sa, sb) for a, b, sa, sb in games]
    return replay(events)


def table(case: dict[str, Any]) -> PrizeTable:
    prizes = tuple(
        Prize(
            PrizeKind(p["kind"]),
            p["amount"],
            place=p.get("place", 1),
            rating_class=p.get("rating_class"),
            ties=TieRule(p.get("ties", "split")),
            tie_break=TieBreak(p.get("tie_break", "player_number")),
            exclusive=p.get("exclusive"),
        )
        for p in case["prizes"]
    )
    classes = tuple(RatingClass(**c) for c in case.get("classes", ()))
    return PrizeTable(prizes, classes)


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["name"])
def test_the_prize_table_pays_as_worked_out_by_hand(case):
    won = prize_winners(division(case["division"]), "A", table(case))
    assert [[a.prize_index, a.player_id, a.amount, a.shared_with] for a in won] == [
        [i, p, Fraction(amount), n] for i, p, amount, n in case["awards"]
    ]
