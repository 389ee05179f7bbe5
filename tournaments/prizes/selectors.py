"""Reads of prizes: the winners of a division's prize table, as
``rules.prizes`` computes them from the results.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from fractions import Fraction

from django.http import Http404

from rules.division_rules import Prize, PrizeTable
from rules.prizes import player_classes, prize_winners
from tournaments.core.aggregate import tournament_state

# --- Prizes --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PrizeWinner:
    """A player's award: the amount is exact (a split may leave fractions of a
    cent); ``value`` is what it was won with (a place, wins as points ×2, a score,
    a rating gap) and ``round``/``opponent`` name a game prize's game."""

    player_id: str
    name: str
    number: int
    amount_cents: Fraction
    value: int
    round: int | None
    opponent: str | None
    shared_with: int


@dataclass(frozen=True, slots=True)
class PrizeLine:
    """One prize of the table, with its winners (none yet: nobody qualifies)."""

    index: int
    prize: Prize
    winners: tuple[PrizeWinner, ...]


@dataclass(frozen=True, slots=True)
class PrizeBoard:
    """A division's classes, prizes and winners after ``after_round`` (None:
    every result so far)."""

    division: str
    table: PrizeTable | None
    classes: dict[str, str]  # player id -> class name
    lines: tuple[PrizeLine, ...]
    after_round: int | None


def prize_board(
    tournament_id: uuid.UUID, division: str, after_round: int | None = None
) -> PrizeBoard:
    """Who wins the division's prizes, as ``rules.prizes`` decides from the table
    and the results (computed on read: a corrected result moves a prize)."""
    _, state = tournament_state(tournament_id)
    rules = state.rules
    assert rules is not None
    if division not in rules.division_players:
        raise Http404(f"No division {division}.")
    table = rules.prize_tables.get(division)
    if table is None:
        return PrizeBoard(division, None, {}, (), after_round)
    awards = prize_winners(rules, division, table, after_round)
    players = rules.players
    lines = tuple(
        PrizeLine(
            index,
            prize,
            tuple(
                PrizeWinner(
                    player_id=award.player_id,
                    name=players[award.player_id].name,
                    number=players[award.player_id].number,
                    amount_cents=award.amount,
                    value=award.value,
                    round=award.round,
                    opponent=players[award.opponent].name if award.opponent else None,
                    shared_with=award.shared_with,
                )
                for award in awards
                if award.prize_index == index
            ),
        )
        for index, prize in enumerate(table.prizes)
    )
    classes = player_classes(rules, division, table.classes)
    return PrizeBoard(division, table, classes, lines, after_round)
